"""Learning in a real browser against the real server: solve a training problem (a wrong
answer first, then the solution), the result kept in the browser across a reload; the
fairness page in Arabic."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Locator

from cardavia.web import learn
from cardavia.words import load_catalogs

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_solve_a_problem(server: Server, browser: Browser, lang: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/{lang}/rules/problems")
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
    daily = learn.daily_problem()
    article = page.locator(f"#daily [data-problem='{daily.id}']")
    score = page.locator(".problems-score")
    assert "0" in score.inner_text()
    solution = learn.problem_data(daily, load_catalogs().wording(lang))
    choices = article.locator(".problem-choice:not([disabled])")
    right = next(c for c in _choices(choices) if _action(c) == solution["solution"])
    wrong = next((c for c in _choices(choices) if _action(c) != solution["solution"]), None)
    if wrong is not None:
        wrong.click()
        assert article.locator(".problem-verdict").get_attribute("data-answer") == "wrong"
        assert not article.locator(".problem-solution").evaluate("d => d.open")
    right.click()
    verdict = article.locator(".problem-verdict")
    assert verdict.get_attribute("data-answer") == "right"
    assert verdict.inner_text()
    assert article.locator(".problem-solution").evaluate("d => d.open")
    assert article.locator("[data-solved-mark]").is_visible()
    assert "1" in score.inner_text()
    page.reload()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('cardavia.problems'))")
    assert stored[daily.id]["solved"] is True
    assert page.locator(f"#daily [data-problem='{daily.id}'] [data-solved-mark]").is_visible()
    assert not errors
    context.close()


def _choices(choices: Locator) -> list[Locator]:
    return [choices.nth(index) for index in range(choices.count())]


def _action(choice: Locator) -> dict[str, Any]:
    """A choice's action, without the announcement flags the solution leaves out."""
    action: dict[str, Any] = json.loads(choice.get_attribute("data-action") or "{}")
    return {k: v for k, v in action.items() if k not in ("announce", "belote")}


def test_the_fairness_page_in_arabic(server: Server, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/ar/rules/")
    page.click("a[href='/ar/rules/fairness']")
    assert page.get_attribute("html", "dir") == "rtl"
    assert page.locator("h1").inner_text() == "توزيعات نزيهة"
    assert page.locator("[data-section]").count() == 3
    context.close()
