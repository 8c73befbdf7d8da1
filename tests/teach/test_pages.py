"""The rules pages say what the rule sets' knobs say, in every language, and never name a
card the page's deck does not have."""

from __future__ import annotations

import pytest

from cardavia.belote.rules import PRESETS, find_rules
from cardavia.teach import explain, pages
from cardavia.teach.examples import announcement_results, scoring_results
from cardavia.words import LANGUAGES, RankArg, rank_forms, rules_text


def _prose(sections: list[pages.Section]) -> str:
    return " ".join(p for section in sections for p in section.paragraphs)


def _queen_words(lang: str) -> set[str]:
    """Every form of the French deck's queen in a language ("dame", "damę", "البنت")."""
    forms = set(rank_forms(5, lang, "french").values())
    forms |= {rank_forms(5, lang, "french")["_plural"]}
    return {f for f in forms if not f.isdigit()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_maghreb_pages_never_name_a_queen(lang: str) -> None:
    """The Spanish-suited deck has no queen: its 12 and 11 (rey, caballo) are the belote."""
    text = rules_text(lang)
    maghreb = find_rules("maghreb")
    said = [_prose(pages.preset_sections(maghreb, text))]
    for result in announcement_results():
        if result.example.rules == "maghreb":
            said += explain.announcement_view(result, text).explanation
            said += [hand.label for hand in explain.announcement_view(result, text).hands]
    for scoring in scoring_results():
        if scoring.example.rules == "maghreb":
            view = explain.scoring_view(scoring, text)
            said += view.explanation + [line.text for line in view.lines]
    joined = " ".join(said)
    for word in _queen_words(lang):
        assert word not in joined.split() and f" {word} " not in f" {joined} ", (lang, word)
    spanish = text.with_deck("spanish")
    assert spanish.expand(q=RankArg(5))["q"] != text.expand(q=RankArg(5))["q"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_partner_winning_says_the_overtrump_clause_of_each_rule_set(lang: str) -> None:
    text = rules_text(lang)
    on = text.gettext(
        "If your partner is winning and you choose to trump over a trump already in the trick, "
        "you must beat it if you can."
    )
    off = text.gettext(
        "If your partner has trumped and is winning the trick, you may play any card, a "
        "lower trump included."
    )
    for name, rules in PRESETS.items():
        prose = _prose(pages.preset_sections(rules, text))
        assert (on in prose) == rules.overtrump_when_trumping_partner, (lang, name)
        assert (off in prose) == (not rules.overtrump_when_trumping_partner), (lang, name)


def test_the_coinche_pages_say_the_official_rules() -> None:
    """Issue 8: a coinche freezes the contract; a contract must beat the defence; a capot at
    coinche scores the capot plus the bid; the belote is never put in reserve."""
    text = rules_text("en")
    coinche = _prose(pages.preset_sections(find_rules("coinche"), text))
    assert "A coinche freezes the contract" in coinche
    assert "greater than the defenders' points" in coinche
    capot = find_rules("coinche").capot_points
    assert f"A capot, bid or not, scores {capot} plus the bid" in coinche
    scoring = " ".join(pages.scoring_page(text)["paragraphs"])
    assert f"a capot scores {capot} plus the bid, bid or not" in scoring
    assert "the belote is never put in reserve" in scoring
    assert "scores the announcements of the team that took no trick" in scoring
    maison = _prose(pages.preset_sections(find_rules("maison"), text))
    assert "The belote is never put in reserve" in maison
    assert "every accepted announcement, those the takers won in the comparison" in maison


def test_the_cardavia_belote_is_held_from_the_deal() -> None:
    text = rules_text("en")
    cardavia = _prose(pages.preset_sections(find_rules("cardavia"), text))
    assert "has held the king and the queen of trump since the deal" in cardavia


def test_comparison_orders_are_spelled_out() -> None:
    page = pages.announcements_page(rules_text("en"))
    joined = " ".join(page["comparison"] + page["paragraphs"])
    assert "7 8 9 10 J Q K A; with the Spanish-suited deck 4 5 6 7 10 11 12 1" in joined
    assert "A > K > Q > 10; with the Spanish-suited deck 1 > 12 > 11 > 7" in joined
    assert "none is shown" in joined
    assert "the 4s and 5s are worth nothing and beat nothing" in joined
