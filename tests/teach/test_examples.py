"""The worked examples: the engine and the second check agree on every one, the nine of
docs/rules.md 11 come out exactly, and the sentences that explain them are made from their data."""

from __future__ import annotations

import re

import pytest

from cardavia.belote.cards import parse_card
from cardavia.teach import examples, explain
from cardavia.teach.examples import (
    AnnouncementResult,
    LegalResult,
    ScoringResult,
    all_verified,
    announcement_results,
    legal_results,
    scoring_results,
)
from cardavia.words import LANGUAGES, card_forms, rules_text, suit_name

# docs/rules.md 11: the legal cards of the nine worked examples, in the order of the hand.
RULES_11_LEGAL = {
    1: ("KS", "7S"),
    2: ("9D",),
    3: ("8H", "QH"),
    4: ("8H", "QH", "KS", "9D"),
    5: ("9S",),
    6: ("7S", "9S"),
    7: ("7S", "9S", "KH", "QC"),
    8: ("7D",),
    9: ("JH",),
}


def test_engine_and_second_check_agree_on_every_example() -> None:
    for result in (*legal_results(), *announcement_results(), *scoring_results()):
        assert result.problems == (), result.problems
        assert result.verified
    assert all_verified()


def test_the_nine_examples_of_rules_11() -> None:
    results = legal_results()
    assert [r.example.number for r in results] == list(range(1, 10))
    for result in results:
        assert result.legal == RULES_11_LEGAL[result.example.number]


def test_example_9_east_wins_41() -> None:
    nine = legal_results()[8]
    assert nine.winner == "E"
    assert nine.card_points == (11, 10, 0, 20)
    assert nine.points == 41


def test_each_lesson_is_about_what_the_engine_decides() -> None:
    for result in legal_results():
        assert explain.lesson_problems(result) == []


def test_a_disagreement_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    example = examples.LEGAL_EXAMPLES[0]
    engine = examples._engine_legal(example)
    monkeypatch.setattr(examples.verify, "legal_cards", lambda *args: frozenset({"KS"}))
    problems = examples._check_legal(example, engine)
    assert problems and "legal cards" in problems[0]
    unverified = LegalResult(
        example, engine.legal, engine.rule, engine.master, engine.master_card, problems=("x",)
    )
    assert not unverified.verified
    assert not explain.legal_view(unverified, rules_text("en")).verified


def test_seed_002_carre_or_sequence() -> None:
    # Seed 002: a carré of 12s and the sequence 10-11-12 of oros share the 12 of oros;
    # the carré brings more points.
    choose = announcement_results()[0]
    assert choose.example.key == "choose"
    assert [(o.kind, o.points) for o in choose.options] == [("carre", 100), ("tierce", 20)]
    assert [(d.kind, d.cards, d.points) for d in choose.declared] == [
        ("carre", ("KS", "KH", "KD", "KC"), 100)
    ]
    assert choose.belote == ("N",)  # the 12 and 11 of trump (oros) as well


def test_comparisons_are_decided_by_the_intended_rule() -> None:
    expected = {
        "choose": ("NS", 100),
        "two": ("EW", 120),
        "points": ("EW", 70),
        "carre": ("NS", 100),
        "top": ("EW", 20),
        "trump": ("EW", 20),
        "rank": ("EW", 100),
        "tie": (None, 0),
        "alone": ("EW", 200),
    }
    for result in announcement_results():
        assert result.criterion == result.example.criterion
        assert (result.winner, result.team_points) == expected[result.example.key]


def _scoring(key: str) -> ScoringResult:
    return next(r for r in scoring_results() if r.example.key == key)


def test_scoring_outcomes() -> None:
    outcomes = {
        "classic_made": (True, (85, 137)),
        "classic_failed": (False, (20, 182)),
        "classic_litige": (None, (106, 0)),
        "classic_capot": (True, (0, 252)),
        "coinche_made": (True, (210, 50)),
        "coinche_failed": (False, (20, 280)),
        "coinche_coinched": (True, (500, 20)),
        "coinche_surcoinched": (False, (0, 1100)),
        "cardavia_made": (True, (102, 80)),
        "cardavia_failed": (False, (182, 0)),
        "maghreb_made": (True, (171, 131)),
    }
    assert {r.example.key for r in scoring_results()} == set(outcomes)
    for key, (made, scores) in outcomes.items():
        result = _scoring(key)
        assert (result.score.made, result.score.scores) == (made, scores), key
    assert _scoring("classic_litige").score.reserve == 106
    assert _scoring("classic_capot").score.capot is not None
    assert _scoring("coinche_coinched").score.multiplier == 2
    assert _scoring("coinche_surcoinched").score.multiplier == 4
    assert _scoring("maghreb_made").example.deck == "spanish"


def test_worked_calculations_add_up_to_the_engines_scores() -> None:
    for result in scoring_results():
        work = explain.worked(result)
        assert tuple(f.value for f in work.formulas) == result.score.exact, result.example.key
        assert sum(work.trick_points) + sum(work.last_trick) == sum(result.score.card_points)
        for formula in work.formulas:
            text = str(formula)
            if "=" in text:  # the written sum says what it adds up to
                assert text.endswith(f"= {formula.value}")
    assert str(explain.worked(_scoring("coinche_surcoinched")).formulas[1]) == (
        "(160 + 110) × 4 + 20 = 1100"
    )


def _led_suit(result: LegalResult) -> int:
    return parse_card(result.example.trick[0][1]) >> 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explanations_name_the_cards_of_the_example(lang: str) -> None:
    text = rules_text(lang)
    for result in legal_results():
        paragraphs = explain.legal_explanation(result, text)
        joined = " ".join(paragraphs)
        assert "{" not in joined and "}" not in joined
        led = _led_suit(result)
        if result.example.lesson not in ("undertrump", "undertrump_optional"):
            form = "bare" if lang == "ar" and result.example.lesson != "follow" else "name"
            assert suit_name(led, lang, form=form) in joined, (lang, result.example.number)
    nine = legal_results()[8]
    first, second = explain.legal_explanation(nine, text)
    played = card_forms(parse_card("JH"), lang).values()
    assert any(form in first for form in played) and any(form in second for form in played)
    assert re.search(r"11 \+ 10 \+ 0 \+ 20 = 41", first)


def test_hindi_example_9_names_hearts_as_trump_and_spades_as_led() -> None:
    # Seed 003's last paragraph says East has no hearts (पान) left: the suit led is spades.
    # The second sentence names the jack after से, in the oblique form (पान के गुलाम से).
    first, second = explain.legal_explanation(legal_results()[8], rules_text("hi"))
    assert "पान का गुलाम" in first and "पान के गुलाम से" in second
    assert "पूर्व के पास हुकुम नहीं बचा" in second
    assert "पान नहीं" not in second


@pytest.mark.parametrize("lang", LANGUAGES)
def test_announcement_and_scoring_texts_are_complete(lang: str) -> None:
    text = rules_text(lang)
    for announcement in announcement_results():
        view = explain.announcement_view(announcement, text)
        assert view.explanation and view.verified
        assert all("{" not in p for p in view.explanation)
    for scoring in scoring_results():
        scored = explain.scoring_view(scoring, text)
        assert scored.verified
        assert scored.lines[-1].ns == scoring.score.scores[0]
        assert scored.lines[-1].ew == scoring.score.scores[1]
        assert all("{" not in p for p in scored.explanation)
        joined = " ".join(scored.explanation)
        for formula in explain.worked(scoring).formulas:
            # The written sums are in the text (a litige states its two totals).
            shown = str(formula.value) if scoring.score.made is None else str(formula)
            assert shown in joined, (lang, scoring.example.key)


def test_announcement_result_points_match_declared() -> None:
    for result in announcement_results():
        assert isinstance(result, AnnouncementResult)
        if result.winner is not None:
            team = "NS" if result.winner == "NS" else "EW"
            total = sum(d.points for d in result.declared if (d.seat in "NS") == (team == "NS"))
            assert total == result.team_points


# -- the sentences say what the numbers count (issue: text that agrees with its numbers) --------


def _team_of(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_failed_contract_sentences_name_exactly_what_the_numbers_count(lang: str) -> None:
    """A failed classic contract: the defenders' sentence names every accepted announcement
    (and no other) and exactly the belotes their formula adds; the takers keep a belote
    only when they hold one that the rules keep."""
    failed = [r for r in scoring_results() if r.score.made is False]
    assert {r.example.key for r in failed} >= {"classic_failed", "cardavia_failed"}
    for result in failed:
        text = rules_text(lang).with_deck(result.example.deck)
        joined = " ".join(explain.scoring_explanation(result, text))
        winner = result.score.announcement_winner
        for item in result.declared:
            accepted = winner is not None and _team_of(item.seat) == winner.name
            assert (explain.describe(item, text) in joined) == accepted, (lang, item)
        takers = result.takers
        kept = result.rules.belote_on_failure == "kept"
        for seat in result.belote_seats:
            to_defenders = _team_of(seat) != takers or not kept
            named = explain._belote_item(seat, text) in joined
            if result.rules.bidding == "classic":
                assert named == to_defenders, (lang, result.example.key, seat)
            else:
                assert not named
        t = 0 if takers == "NS" else 1
        taker_belote = result.score.belote[t] if kept else 0
        keeps = text.format(
            "{team} keep only their belote: {formula}.",
            team=explain.TeamArg(takers),
            formula=str(explain.worked(result).formulas[t]),
        )
        assert (keeps in joined) == bool(taker_belote), (lang, result.example.key)


def test_no_sentence_counts_what_the_example_does_not_hold() -> None:
    """The old sentences of the failed contracts named "every announcement of both teams,
    with the belotes" whatever the deal held; each team that keeps "only its belote" holds one."""
    text = rules_text("en")
    for result in scoring_results():
        joined = " ".join(explain.scoring_explanation(result, text))
        assert "both teams" not in joined
        work = explain.worked(result)
        for team, index in (("NS", 0), ("EW", 1)):
            holds = any(_team_of(seat) == team for seat in result.belote_seats)
            keeps = text.format(
                "{team} keep only their belote: {formula}.",
                team=explain.TeamArg(team),
                formula=str(work.formulas[index]),
            )
            says = keeps in joined
            assert not says or holds, (result.example.key, team)
            if "with their belote" in joined:
                assert result.belote_seats, result.example.key
    cardavia = next(r for r in scoring_results() if r.example.key == "cardavia_failed")
    assert "announcement" not in " ".join(explain.scoring_explanation(cardavia, text))
