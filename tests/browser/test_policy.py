"""The pages under the Content-Security-Policy the server is to send (script-src and
style-src 'self': no inline script, no inline style attribute in the HTML; setting styles
from a script is allowed): added to every response here, a whole deal played and the rules
pages opened, and not one violation reported by Chromium."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Route

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; worker-src 'self'; manifest-src 'self'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def test_no_violation_of_the_content_security_policy(
    browser: Browser, server: Server, make_table: type[Table]
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 860}, reduced_motion="reduce", service_workers="block"
    )
    context.add_init_script("localStorage.setItem('cardavia.settings', JSON.stringify({pace: 0}));")
    context.add_init_script(WATCH)

    def with_policy(route: Route) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": POLICY}
        route.fulfill(response=response, headers=headers)

    context.route(f"{server.url}/**", with_policy)
    table = make_table(context, server.url)
    try:
        page = table.open("fr")
        assert page.evaluate("window.violations") == []
        page.click("#settings-panel summary")
        page.locator("#set-grain").fill("80")
        page.check('#settings-panel [name="fourColour"]')
        page.click("#settings-panel summary")
        table.new_game("maison")
        table.play_deal()
        page.locator("#score-panel").wait_for(state="visible")
        assert page.evaluate("window.violations") == []
        for name in ("", "scoring", "legal-cards", "maghreb"):
            page.goto(f"{server.url}/ar/rules/{name}")
            assert page.evaluate("window.violations") == [], name
            # The rules pages' own styles arrived (static/css/rules.css).
            width = page.evaluate("getComputedStyle(document.querySelector('.rules')).maxWidth")
            assert width != "none", name
        assert table.errors == []
        # The policy is really there: an inline style attribute from HTML is refused.
        page.evaluate(
            "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')"
        )
        page.wait_for_function("window.violations.length > 0")
        assert "style-src" in page.evaluate("window.violations")[0]
        table.errors.clear()
    finally:
        context.close()
