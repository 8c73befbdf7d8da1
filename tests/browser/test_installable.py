"""The installable app in Chromium: a valid web app manifest with its icons, a service worker
at the site's root that Chromium accepts (no installability error), and the rules pages of
every language served by it with the network cut."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

LANGUAGES = ("fr", "en", "ar", "pl", "hi", "es")
RULES = ("", "cardavia", "maison", "coinche", "maghreb", "legal-cards", "announcements", "scoring")

CACHED = """async () => {
  const names = await caches.keys();
  let urls = [];
  for (const name of names) {
    const cache = await caches.open(name);
    urls = urls.concat((await cache.keys()).map((r) => new URL(r.url).pathname));
  }
  return urls;
}"""


def test_installable_and_the_rules_open_offline(browser: Browser, server: Server) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/fr/rules/")
        # The manifest: named, standalone, started at the root, with PNG icons of 192 and 512.
        href = page.get_attribute('link[rel="manifest"]', "href")
        assert href == "/manifest.webmanifest"
        response = page.request.get(server.url + href)
        assert response.ok
        assert response.headers["content-type"].startswith("application/manifest+json")
        manifest: dict[str, Any] = response.json()
        assert manifest["name"] and manifest["short_name"] == "Cardavia"
        assert manifest["display"] == "standalone"
        assert manifest["start_url"] == "/" and manifest["scope"] == "/"
        sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            image = page.request.get(server.url + icon["src"])
            assert image.ok, icon["src"]
            assert image.headers["content-type"] == icon["type"]
        # The service worker takes the page over, at the root's scope.
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == f"{server.url}/"
        page.reload()
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        # Chromium's own verdict on installing it ("in-incognito" is the test's fresh browser
        # context, which Chromium never installs from; nothing else may be said).
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
        # Every rules page of every language is kept once the worker has installed.
        wanted = {f"/{lang}/rules/{name}" for lang in LANGUAGES for name in RULES}
        page.wait_for_function(
            f"({CACHED})().then((urls) => "
            f"{len(wanted)} <= urls.filter((u) => u.includes('/rules/')).length)"
        )
        assert wanted <= set(page.evaluate(CACHED))
        # Offline: the rules pages open, in each language, with their styles.
        context.set_offline(True)
        for lang in LANGUAGES:
            for name in ("", "scoring", "maghreb"):
                answer = page.goto(f"{server.url}/{lang}/rules/{name}")
                assert answer is not None and answer.ok
                assert page.get_attribute("html", "lang") == lang
                assert page.locator("h1").first.is_visible()
                font = page.evaluate("getComputedStyle(document.body).fontFamily")
                assert font  # base.css came from the cache too
        # And the network was really cut: the server itself cannot be reached.
        reach = "fetch('/healthz').then(() => 'reached', () => 'unreachable')"
        assert page.evaluate(reach) == "unreachable"
    finally:
        context.close()
