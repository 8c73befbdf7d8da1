"""Learning in a real browser against the real server: solve a training problem (a wrong
answer first, then the solution), the result kept in the browser across a reload; the
fairness page in Arabic."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Locator

from cardavia.belote import Coinche, Pass
from cardavia.live import learn
from cardavia.teach import learning
from cardavia.web import problems
from cardavia.words import load_catalogs, rules_text

if TYPE_CHECKING:
    from conftest import Server

pytestmark = pytest.mark.browser


def plain(text: str) -> str:
    """Text as compared across the page: without the isolates around signed figures, every
    space a plain one."""
    for mark in "\u2066\u2069":
        text = text.replace(mark, "")
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_solve_a_problem(server: Server, browser: Browser, lang: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/{lang}/rules/problems")
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
    daily = problems.daily_problem()
    article = page.locator(f"#daily [data-problem='{daily.id}']")
    score = page.locator(".problems-score")
    assert "0" in score.inner_text()
    solution = problems.problem_data(daily, load_catalogs().wording(lang))
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
    assert page.locator("h1").inner_text() == "توزيع نزيه"
    assert page.locator("[data-section]").count() == 3
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_a_bidding_problem_as_a_player_sees_it(
    server: Server, browser: Browser, axe: Any, lang: str, size: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/{lang}/rules/problems")
    labels = learning.problem_labels(rules_text(lang))
    # The problem of the day is shown once, at the top, not again under its theme.
    ids = page.eval_on_selector_all("[data-problem]", "els => els.map(e => e.dataset.problem)")
    assert len(ids) == len(set(ids)) == len(problems.problems())
    wording = load_catalogs().wording(lang)
    bidding = [p for p in problems.problems() if p.theme == "bidding"]
    assert bidding
    for problem in bidding:
        data = problems.problem_data(problem, wording)
        article = page.locator(f"[data-problem='{problem.id}']")
        # The turned card, the key fact, where the table has one.
        if data["view"]["turned"]:
            assert article.locator(f"[data-turned='{data['view']['turned']}'] svg").count() == 1
        # The hand is shown plainly: nothing greyed, nothing to press; only bids to choose.
        hand = article.locator(".problem-hand")
        assert hand.locator("svg").count() == len(data["view"]["hand"])
        assert hand.locator("button, [disabled]").count() == 0
        prompt = article.locator(".problem-prompt").inner_text()
        assert prompt.rstrip(": \u00a0") == labels["find_bid"]
        assert article.locator(".problem-bids .problem-choice").count() == len(data["legal_bids"])
        # The solution says why, from the simulation: in how many deals out of ten the bid's
        # contract is made (the runner-up's when the answer is to pass), and both averages.
        article.locator("summary").click()
        why = article.locator(".problem-solution p").last.inner_text()
        values = dict(problem.values)
        best, second = sorted(values, key=lambda a: -values[a])[:2]
        told, other = (second, best) if isinstance(best, Pass) else (best, second)
        against = isinstance(told, Coinche)
        made = {a: theirs if against else ours for a, ours, theirs in problem.made}
        odds = learning.odds_text(
            rules_text(lang),
            action=learn.action_text(told, wording, data["view"]["deck"]),
            made=made[told],
            value=values[told],
            alternative=learn.action_text(other, wording, data["view"]["deck"]),
            other=values[other],
            against=against,
        )
        assert plain(odds) in plain(why)
    assert axe(page) == []
    context.close()
