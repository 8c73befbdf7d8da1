"""Told while the site is closed, in Chromium (docs/players.md, "Told when the site is
closed"): the site has its key (tests/browser/conftest.py), so every page's settings offer
the setting where the browser can be subscribed, in the page's language, axe at zero; a
browser that reaches no push service (the test's) says it could not be subscribed and
leaves the box off; and a message pushed to the service worker with every page of the site
closed (delivered by Chromium's DevTools, as a push service would) is shown as a
notification in its language, which names the page its click opens."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Playwright, expect
from tests.browser.conftest import CHROMIUM_ARGS, shot

from cardavia.words import load_catalogs

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser

LABEL = "Tell me of invitations and tournaments even when Cardavia is closed"
FAILED = (
    "This browser could not be subscribed: allow the site's notifications in the browser's "
    "settings, then try again."
)
SIZES = {"phone": (360, 740), "desktop": (1280, 800)}

SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const shown = await registration.getNotifications();
  return shown.map((n) => ({ title: n.title, body: n.body, lang: n.lang, tag: n.tag,
                             data: n.data }));
}"""


@pytest.fixture(scope="module")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    """The whole of Chromium, not its headless shell: the shell shows no notification (its
    permission always "denied"), and a service worker's notification is what is tested."""
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("Chromium is not installed (apt-get install chromium)")
    browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.mark.parametrize(("lang", "size"), [("fr", "phone"), ("ar", "desktop")])
def test_the_setting_and_a_message_pushed_to_a_closed_site(
    chromium: Browser, server: Server, axe: Any, screenshots: Path, lang: str, size: str
) -> None:
    wording = load_catalogs().wording(lang)
    width, height = SIZES[size]
    context = chromium.new_context(
        bypass_csp=True,
        viewport={"width": width, "height": height},
        permissions=["notifications"],
        service_workers="allow",
    )
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{lang}/rules/")
        page.click("#settings-panel > summary")
        box = page.get_by_role("checkbox", name=wording.gettext(LABEL))
        expect(box).to_be_visible()
        expect(box).not_to_be_checked()
        assert axe(page) == []
        # No push service in this Chromium: switched on, it says so, and the box goes off.
        box.click()
        expect(page.locator("#set-push-status")).to_have_text(wording.gettext(FAILED))
        expect(box).not_to_be_checked()
        assert axe(page) == []
        shot(page, screenshots / f"push-setting-{lang}-{size}.jpg")

        # Every page of the site closed: a message pushed reaches the worker, which shows it.
        blank = context.new_page()
        page.close()
        cdp = context.new_cdp_session(blank)
        registrations: list[dict[str, Any]] = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        blank.wait_for_timeout(200)
        (registration,) = [r for r in registrations if r["scopeURL"] == f"{server.url}/"]
        body = wording.gettext("{name} invites you to their room.", name="Ana")
        url = f"/{lang}/room/KQRST"
        note = {"title": "Cardavia", "body": body, "url": url, "tag": "invite", "lang": lang}
        delivered = {
            "origin": server.url,
            "registrationId": registration["registrationId"],
            "data": json.dumps(note),
        }
        cdp.send("ServiceWorker.deliverPushMessage", delivered)
        reader = context.new_page()
        reader.goto(f"{server.url}/{lang}/rules/scoring")
        shown = []
        for _ in range(50):
            shown = reader.evaluate(SHOWN)
            if shown:
                break
            reader.wait_for_timeout(100)
        assert len(shown) == 1
        (shown,) = shown
        assert shown == {
            "title": "Cardavia",
            "body": body,
            "lang": lang,
            "tag": "invite",
            "data": {"url": url},
        }
    finally:
        context.close()
