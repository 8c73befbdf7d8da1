"""The words of the analysis, the hints, the training problems and the fairness page: every
message in the six languages, with the placeholders of its English id, and every reason code
and verdict of the engine's side worded."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from cardavia.ai.hints import REASONS
from cardavia.teach import learning
from cardavia.words import LANGUAGES, RULES, CardArg, catalog_path, placeholders, rules_text

VERDICTS = ("forced", "best", "bad_luck", "unclear", "mistake")


def test_every_code_has_words() -> None:
    assert set(learning.REASON_SENTENCES) == set(REASONS)
    assert set(learning.VERDICT_LABELS) == set(VERDICTS)
    assert set(learning.VERDICT_SENTENCES) == set(VERDICTS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    text = rules_text(lang)
    asked: list[str] = []
    words = []
    for code in REASONS:
        words.append(learning.reason_text(text, code, {"card": "9H", "gain": 21, "points": 14}))
    for verdict in VERDICTS:
        words.append(learning.verdict_label(text, verdict))
        for cost in (1, 2, 3, 11, 24, 102):
            words.append(learning.verdict_text(text, verdict, cost))
    words += learning.labels(text).values()
    words += learning.problem_labels(text).values()
    words += [learning.theme_title(text, theme) for theme in learning.THEMES]
    page = learning.fairness_page(text)
    words += [page["title"], page["algorithm_label"]]
    words += [link["text"] for link in page["links"]]
    for section in page["sections"]:
        words += [section["title"], *section["paragraphs"]]
    for message in learning.catalog_messages():
        asked.append(message if isinstance(message, str) else message[0])
    missing = text.missing & set(asked) | {w for w in words if not w}
    assert not missing
    # Filled in: only the client's labels keep a placeholder ("Better: {card}").
    templates = {*learning.labels(text).values(), *learning.problem_labels(text).values()}
    assert not any("{" in w for w in words if w not in templates)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    with catalog_path(lang, RULES).open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain="rules")
    ids = {m if isinstance(m, str) else m[0] for m in learning.catalog_messages()}
    checked = 0
    for message in catalog:
        source = message.id if isinstance(message.id, str) else message.id[0]
        if source not in ids:
            continue
        strings = [message.string] if isinstance(message.string, str) else message.string
        for string in strings:
            assert string, source
            # A form may spell a number out ("نقطة واحدة"); the card stays, in some form.
            names = {p.split("_")[0] for p in placeholders(string)}
            assert names <= {p.split("_")[0] for p in placeholders(source)}, (source, string)
            if "card" in placeholders(source):
                assert "card" in names, (source, string)
        checked += 1
    assert checked == len(ids)


def test_the_problem_of_the_day_goes_round() -> None:
    ids = ["b", "a", "c"]
    assert [learning.problem_of_the_day(ids, day) for day in range(4)] == ["a", "b", "c", "a"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reasons_a_player_can_learn_from(lang: str) -> None:
    text = rules_text(lang)
    # The partner's winning card is named when it is known.
    plain = learning.reason_text(text, "partner_holds_trick", {"card": "7H"})
    named = learning.reason_text(text, "partner_holds_trick", {"card": "7H", "winning": "AH"})
    assert named != plain
    assert learning.card_title(text, "AH").split()[0].lower() in named.lower()
    # A card no better than the next one is not said to "score best".
    level = learning.reason_text(text, "best_on_average", {"card": "KC", "gain": 0.2})
    ahead = learning.reason_text(text, "best_on_average", {"card": "KC", "gain": 8})
    assert level == text.format(learning.LEVEL_SENTENCE, card=CardArg("KC"))
    assert ahead.startswith(
        text.format(learning.REASON_SENTENCES["best_on_average"], card=CardArg("KC"))
    )
    assert level != ahead and "{" not in level
    # A bid's reason says what the simulation found, beyond "this bid pays most".
    for code in ("bid_pays", "pass_pays", "coinche_pays"):
        assert learning.reason_text(text, code, {}) == text.gettext(
            learning.RICHER_REASONS[code][1]
        )
    # A bidding problem's averages, each signed figure kept left to right.
    said = learning.simulation_text(text, [("A", 27.2), ("B", -34.0)])
    assert "\u2066+27\u2069" in said and "\u2066−34\u2069" in said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bidding_problem_says_how_often_the_contract_is_made(lang: str) -> None:
    """The why of a bidding problem, from the simulation's count: in how many deals out of
    ten the contract is made, and both averages, each signed figure kept left to right."""
    text = rules_text(lang)
    said = learning.odds_text(
        text, action="BID", made=0.71, value=27.2, alternative="PASS", other=-34.0
    )
    assert "BID" in said and "PASS" in said and "{" not in said
    assert "7" in said and "10" in said
    assert "\u2066+27\u2069" in said and "\u2066−34\u2069" in said
    against = learning.odds_text(
        text, action="X", made=0.2, value=-3, alternative="Y", other=5, against=True
    )
    assert against != said and "{" not in against
    # Each plural form of the count reads (Arabic spells out one and two).
    for share in (0.0, 0.1, 0.2, 0.5, 1.0):
        worded = learning.odds_text(text, action="A", made=share, value=1, alternative="B", other=0)
        assert "{" not in worded and "A" in worded
    sentence = learning.odds_text(text, action="A", made=1, value=1, alternative="B", other=0)
    assert "10" in sentence
