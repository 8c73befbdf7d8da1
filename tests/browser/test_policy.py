"""The pages under the Content-Security-Policy the server sends (script-src and style-src
'self': no inline script, no inline style attribute in the HTML; setting styles from a
script is allowed): a whole deal played and the rules pages opened, and not one violation
reported by Chromium. (The other browser tests inject their own scripts, axe-core among
them, and so run with the policy bypassed.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser

if TYPE_CHECKING:
    from conftest import Server, Table

pytestmark = pytest.mark.browser


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
    table = make_table(context, server.url)
    try:
        page = table.open("fr")
        policy = page.evaluate(
            "fetch(location.href).then(r => r.headers.get('content-security-policy'))"
        )
        assert "script-src 'self';" in policy and "style-src 'self';" in policy
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
