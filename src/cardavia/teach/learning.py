"""The words of learning from a deal, in the site's six languages: the verdicts and reasons
of the analysis and the hints (:mod:`cardavia.ai.analysis`, :mod:`cardavia.ai.hints`), the
training problems' page and the fairness page (docs/learning.md, docs/fair-deals.md).

As for the rules pages, the sentences are English message ids of the ``rules`` catalog with
``{placeholders}`` filled from data (:class:`~cardavia.words.Wording`): a card is
given by its code and each language picks the grammatical form it needs (``{card_acc}``).

>>> text = rules_text("fr")
>>> reason_text(text, "cashes_master", {"card": "AH"})
'La carte maîtresse de sa couleur\xa0: as de cœur.'
>>> verdict_label(text, "bad_luck")
'Pas de chance'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardavia.belote import parse_card
from cardavia.words import CardArg, Wording, card_name, rules_text, seat_name, team_name

THEMES: Final = ("leads", "trumping", "last_tricks", "defence", "bidding", "play")
"""The training problems' themes, in the page's order."""

PAGE_TITLES: Final[Mapping[str, str]] = {
    "problems": "Training problems",
    "fairness": "Fair deals",
}
"""The learning pages in the rules pages' navigation, by the end of their address."""

THEME_TITLES: Final[Mapping[str, str]] = {
    "leads": "Leads",
    "trumping": "Trumping",
    "last_tricks": "The last tricks",
    "defence": "Defence",
    "bidding": "Bidding",
    "play": "The takers' play",
}

VERDICT_LABELS: Final[Mapping[str, str]] = {
    "forced": "Forced",
    "best": "Best",
    "bad_luck": "Bad luck",
    "unclear": "Unclear",
    "mistake": "Mistake",
}

VERDICT_SENTENCES: Final[Mapping[str, str | tuple[str, str]]] = {
    "forced": "The only card allowed.",
    "best": "Best from what the player could see, and in the actual deal.",
    "bad_luck": (
        "Best from what the player could see, but the cards lay against it: {n} point lost "
        "in the actual deal.",
        "Best from what the player could see, but the cards lay against it: {n} points lost "
        "in the actual deal.",
    ),
    "unclear": (
        "Worse from the player's view, but the possible deals cannot tell: neither blamed "
        "nor excused."
    ),
    "mistake": (
        "A mistake: from what the player could see, it cost {n} point on average.",
        "A mistake: from what the player could see, it cost {n} points on average.",
    ),
}
"""Each verdict of :data:`cardavia.ai.analysis.Verdict` in a sentence (``{n}``: the cost in
deal-score points, double-dummy for bad luck, from the seat's view for a mistake)."""

REASON_SENTENCES: Final[Mapping[str, str]] = {
    "only_card": "No other card may be played: {card}.",
    "partner_holds_trick": "Your partner is winning the trick: {card} adds its points to it.",
    "takes_the_trick": "Last to play, {card} wins the trick.",
    "takes_the_lead": "Ahead in the trick: {card} beats the cards played so far.",
    "keeps_trump_nine_guarded": (
        "It keeps the nine of trumps guarded while the jack is still out."
    ),
    "draws_trumps": "The takers lead trumps, to draw the defenders' trumps.",
    "cashes_master": "The best card left in its suit: {card}.",
    "saves_points": "You cannot take this trick: {card} gives away the fewest points.",
    "best_on_average": "Over the deals that fit what you have seen, {card} scores best.",
    "bid_pays": "In the simulated deals, this bid pays most.",
    "pass_pays": "In the simulated deals, passing pays most.",
    "coinche_pays": "In the simulated deals, the coinche pays most.",
}
"""Each reason code of :data:`cardavia.ai.hints.REASONS` in a sentence."""

RICHER_REASONS: Final[Mapping[str, tuple[str, str]]] = {
    "partner_holds_trick": (
        "winning",
        "Your partner's {winning} wins this trick: {card} adds its points to it and keeps your "
        "stronger cards.",
    ),
    "pass_pays": (
        "",
        "In deals dealt at random around your hand, passing scores best: no bid of yours gains "
        "more than it risks.",
    ),
    "bid_pays": (
        "",
        "In deals dealt at random around your hand, this bid scores best: your side makes it "
        "often enough to gain more than it risks.",
    ),
    "coinche_pays": (
        "",
        "In deals dealt at random around your hand, the takers fail often enough: the coinche "
        "doubles what your side gains.",
    ),
}
"""Reasons said so that a player can learn from them, given the argument each needs (the
partner's winning card: ``winning``; none for the bids). :func:`reason_text` falls back on
:data:`REASON_SENTENCES` without it."""

LEVEL_SENTENCE: Final = (
    "Over the deals that fit what you have seen, no card scores better than {card}: here "
    "another card may do as well."
)
"""The card the search found best when the next best card scores within a point of it: no
card scores better (and saying "scores best" would promise a gain that is not there)."""

SIMULATION_SENTENCE: Final = (
    "On average over the simulated deals (your side's score less the opponents'): {values}."
)
"""A bidding problem's solution: each action's average over the simulated deals."""

ODDS_SENTENCES: Final[Mapping[str, tuple[str, str]]] = {
    "ours": (
        "With “{action}”, your side takes and makes its contract in {n} deal out of 10; on "
        "average {value} against {other} for “{alternative}”.",
        "With “{action}”, your side takes and makes its contract in {n} deals out of 10; on "
        "average {value} against {other} for “{alternative}”.",
    ),
    "theirs": (
        "With “{action}”, the opponents make their contract in {n} deal out of 10; on average "
        "{value} against {other} for “{alternative}”.",
        "With “{action}”, the opponents make their contract in {n} deals out of 10; on average "
        "{value} against {other} for “{alternative}”.",
    ),
}
"""A bidding problem's why, from the simulation's count: how often the contract is made
after an action (by the seat's side, ``ours``; after a coinche, by the opponents,
``theirs``), and its average against the other action's (:func:`odds_text`)."""

GAIN_SENTENCE: Final = (
    "On average it scores {n} point more than the next best card.",
    "On average it scores {n} points more than the next best card.",
)

LABELS: Final[Mapping[str, str]] = {
    "analyse": "Analyse",
    "analysis": "Analysis of the deal",
    "moments": "The moments of the deal",
    "better": "Better: {card}",
    "replay_line": "Replay the better line",
    "double_dummy": "All hands known",
    "seat_view": "From the player's view",
    "cost": "Cost",
    "card": "Card",
    "trick": "Trick",
    "verdict": "Verdict",
    "bidding": "The bidding",
    "suggested": "What the computer would have said",
    "contracts": "What each contract would score, all hands known",
    "hint": "Hint",
    "hints_setting": "Hints during play",
    "check_shuffle": "Check the shuffle",
    "shuffle_ok": "The shuffle checks out: the seed gives the hash shown before the deal and "
    "the deck that was dealt.",
    "shuffle_bad": "The shuffle does not check out: the seed does not give the hash shown "
    "before the deal or the deck that was dealt.",
    "analysing": "Analysing the deal…",
    "close": "Close the analysis",
    "cost_explained": "The cost of a card: the points of deal score its side lost by playing "
    "it rather than the best card.",
    "points_lost": "Points lost",
    "your_cards": "Your cards",
    "partner_cards": "Your partner's cards",
    "opponents_cards": "The opponents' cards",
    "no_moment": "No notable moment: every card was the best one or the only one.",
    "all_cards": "Every card of the deal",
    "player": "Player",
    "trick_n": "Trick {n}",
    "strain": "Trumps",
    "takers": "Takers",
    "card_points": "Card points won",
    "highest_bid": "Highest bid made",
    "score_of": "Score {team}",
    "previous": "Previous card",
    "next": "Next card",
    "play_line": "Play the line",
    "pause": "Pause",
    "step": "Card {n} of {total}",
    "seat_card": "{seat}: {card}",
}
"""The words of the analysis view, the hint button and the shuffle check (the table's
client reads them from the analysis and the view)."""


def _number(value: object) -> int:
    try:
        return round(float(str(value)))
    except ValueError:
        return 0


def card_title(text: Wording, code: str) -> str:
    """A card's name in the text's language and deck ("neuf de cœur")."""
    return card_name(parse_card(code), text.lang, text.deck)


def reason_text(text: Wording, code: str, args: Mapping[str, object]) -> str:
    """A hint's or a problem's reason in a sentence, with the gain over the next best card
    when there is one."""
    template = REASON_SENTENCES.get(code)
    if template is None:
        return ""
    needed, richer = RICHER_REASONS.get(code, ("-", ""))
    if richer and (not needed or args.get(needed)):
        template = richer
    gain = _number(args.get("gain", 0))
    if code == "best_on_average" and gain < 1 and args.get("card"):
        template = LEVEL_SENTENCE
    cards = {key: CardArg(str(args[key])) for key in ("card", "winning") if args.get(key)}
    sentence = text.format(template, **cards)
    if gain >= 1:
        sentence += " " + text.nformat(*GAIN_SENTENCE, gain)
    return sentence


def simulation_text(text: Wording, values: Sequence[tuple[str, float]]) -> str:
    """A bidding problem's why, from its simulation: each action (in words) and its average
    deal-score margin, the best first ("Passe +12 ; Coinche −180")."""
    shown = [f"{name} {_signed(value)}" for name, value in values]
    separator = {"fr": " ; ", "ar": "؛ "}.get(text.lang, "; ")
    return text.format(SIMULATION_SENTENCE, values=separator.join(shown))


def _signed(value: float) -> str:
    # Each signed figure isolated left to right: "+27", not "27+", in Arabic.
    return f"\u2066{round(value):+d}\u2069".replace("-", "−")


def odds_text(
    text: Wording,
    *,
    action: str,
    made: float,
    value: float,
    alternative: str,
    other: float,
    against: bool = False,
) -> str:
    """How often the contract is made after ``action`` (in words), in deals out of ten
    (``made``: the share of the simulated deals; ``against``: made by the opponents, after a
    coinche), and its average deal-score margin ``value`` against ``other``, the
    ``alternative``'s ("With “Take: clubs”, your side takes and makes its contract in 9
    deals out of 10; on average +96 against 0 for “Pass”.")."""
    n = round(made * 10)
    singular, plural = ODDS_SENTENCES["theirs" if against else "ours"]
    return text.nformat(
        singular,
        plural,
        n,
        action=action,
        value=_signed(value),
        alternative=alternative,
        other=_signed(other),
    )


def verdict_label(text: Wording, verdict: str) -> str:
    """A verdict's name: "Bad luck"."""
    return text.gettext(VERDICT_LABELS[verdict])


def verdict_text(text: Wording, verdict: str, cost: float) -> str:
    """A verdict in a sentence, with the cost that earns it."""
    sentence = VERDICT_SENTENCES[verdict]
    if isinstance(sentence, tuple):
        return text.nformat(*sentence, max(1, _number(cost)))
    return text.gettext(sentence)


def labels(text: Wording) -> dict[str, str]:
    """The analysis view's words, with the verdicts' names (``verdict_best`` …)."""
    words = {key: text.gettext(message) for key, message in LABELS.items()}
    words |= {f"verdict_{key}": text.gettext(label) for key, label in VERDICT_LABELS.items()}
    words |= {f"seat_{code}": seat_name(index, text.lang) for index, code in enumerate("NESW")}
    words |= {
        f"team_{code}": team_name(index, text.lang) for index, code in enumerate(("NS", "EW"))
    }
    return words


def points_lost(review: Mapping[str, Any]) -> int:
    """A card's one cost figure, in points of deal score its side lost against the best card.

    The analysis values a card by its side's score *less the other's*: a point that goes to
    the other side instead counts twice there. Half of it is what a side's deal score lost, so
    the figure stays within what the deal could be worth
    (:func:`cardavia.ai.analysis.deal_worth`). The light is the
    verdict's: from the player's view for a mistake (or an unclear card), all hands known for
    bad luck; nothing for a card that was the best or the only one."""
    verdict = review["verdict"]
    if verdict in ("mistake", "unclear"):
        margin = float(review["seat_view"]["cost"])
    elif verdict == "bad_luck":
        margin = float(review["double_dummy"]["cost"])
    else:
        return 0
    return max(0, round(margin / 2))


def word_analysis(data: dict[str, Any], text: Wording) -> dict[str, Any]:
    """The analysis data (:func:`cardavia.ai.analysis.analysis_data`) with its words: each
    card's verdict (``label``, ``text``) and its one cost figure (``lost``), each moment's
    better card and the same figure, the view's labels."""
    cards = []
    for review in data["cards"]:
        verdict = review["verdict"]
        lost = points_lost(review)
        cards.append(
            review
            | {
                "lost": lost,
                "label": verdict_label(text, verdict),
                "text": verdict_text(text, verdict, lost),
                "name": card_title(text, review["card"]),
            }
        )
    by_number = {card["number"]: card for card in cards}
    moments = [
        moment
        | {
            "lost": by_number[moment["number"]]["lost"],
            "label": verdict_label(text, moment["verdict"]),
            "why": by_number[moment["number"]]["text"],
            "text": text.format(LABELS["better"], card=CardArg(moment["better"])),
            "better_name": card_title(text, moment["better"]),
            "played_name": card_title(text, moment["played"]),
        }
        for moment in data["moments"]
    ]
    return data | {
        "cards": cards,
        "moments": moments,
        "labels": labels(text),
        "lang": text.lang,
        "dir": text.direction,
    }


def word_hint(data: dict[str, Any], text: Wording) -> dict[str, Any]:
    """A hint (:func:`cardavia.ai.hints.hint_data`) with its reason in a sentence."""
    reason = data["reason"]
    return data | {"text": reason_text(text, reason["code"], reason["args"])}


# -- the fairness page --------------------------------------------------------------------------

NO_PEEKING_TESTS: Final = ("tests/ai/test_players.py", "tests/ai/test_analysis.py")
"""The tests that hold the computer players to their own cards (the site serves their text
at ``/source/`` followed by the path)."""


def fairness_page(text: Wording) -> dict[str, Any]:
    """How shuffles are made and checked, and what the computer players see."""
    return {
        "title": text.gettext("Fair deals"),
        "sections": [
            {
                "key": "commitment",
                "title": text.gettext("How a shuffle is made"),
                "paragraphs": [
                    text.gettext(
                        "Before each deal, the server draws a secret seed of 32 random bytes "
                        "from the operating system's secure generator and shows its "
                        "fingerprint: the seed's SHA-256 hash."
                    ),
                    text.gettext(
                        "The deck comes from the seed by a published algorithm "
                        "(cardavia-deck/1): HMAC-SHA256 keyed by the seed gives a stream of "
                        "numbers, and a Fisher–Yates shuffle with rejection puts the 32 cards "
                        "in order. Nothing else is random: no cut, no second shuffle."
                    ),
                ],
            },
            {
                "key": "check",
                "title": text.gettext("Checking a deal"),
                "paragraphs": [
                    text.gettext(
                        "When the deal is over, the server shows the seed. Your browser then "
                        "computes its hash, which must be the one shown before the deal, and "
                        "the deck, which must be the deck that was dealt. The cards could not "
                        "have been chosen after the bidding or the play."
                    ),
                    text.gettext(
                        "Anyone can check a deal again with the command cardavia verify-deal."
                    ),
                ],
            },
            {
                "key": "players",
                "title": text.gettext("What the computer players see"),
                "paragraphs": [
                    text.gettext(
                        "The computer players see only their own cards: each is given what "
                        "its seat has seen (its hand, the bids, the cards played), never the "
                        "deck or the other hands. Tests check that swapping the hidden hands "
                        "never changes their decisions."
                    ),
                ],
            },
        ],
        "links": [
            {
                "href": "/source/" + NO_PEEKING_TESTS[0],
                "path": NO_PEEKING_TESTS[0],
                "text": text.gettext("The no-peeking tests"),
            },
            {
                "href": "/source/" + NO_PEEKING_TESTS[1],
                "path": NO_PEEKING_TESTS[1],
                "text": text.gettext("The analysis's no-peeking tests"),
            },
        ],
        "algorithm_label": text.gettext("The algorithm, step by step"),
    }


# -- the training problems' page ----------------------------------------------------------------


def problem_labels(text: Wording) -> dict[str, str]:
    """The words of the problems' page and its script."""
    return {
        "title": text.gettext("Training problems"),
        "intro": text.gettext(
            "Positions from deals played by the computer players, where one card (or one bid) "
            "is clearly best from what the seat can see. Find it: your results stay in this "
            "browser."
        ),
        "daily": text.gettext("Problem of the day"),
        "hand": text.gettext("Your hand"),
        "trick": text.gettext("The trick so far"),
        "bids": text.gettext("The bidding so far"),
        "contract": text.gettext("The contract"),
        "you_are": text.gettext("You play"),
        "find": text.gettext("Choose a card or a bid"),
        "find_card": text.gettext("Choose a card"),
        "find_bid": text.gettext("Choose a bid"),
        "turned": text.gettext("The turned card"),
        "solution": text.gettext("Show the solution"),
        "right": text.gettext("Right: that is the best choice."),
        "wrong": text.gettext("Not this one: try again, or see the solution."),
        "solved": text.gettext("Solved"),
        "score": text.gettext("Solved in this browser: {solved} of {total}"),
        "solution_heading": text.gettext("Solution"),
        "dealer": text.gettext("Dealer"),
    }


def theme_title(text: Wording, theme: str) -> str:
    return text.gettext(THEME_TITLES[theme])


def problem_of_the_day(ids: Sequence[str], day: int) -> str:
    """The problem of a day (days since 1970): each in turn."""
    if not ids:
        raise ValueError("no problems")
    return sorted(ids)[day % len(ids)]


def catalog_messages() -> list[str | tuple[str, str]]:
    """Every message id of this module (what the ``rules`` catalogs must translate)."""
    messages: list[str | tuple[str, str]] = []
    messages += THEME_TITLES.values()
    messages += VERDICT_LABELS.values()
    messages += VERDICT_SENTENCES.values()
    messages += REASON_SENTENCES.values()
    messages += [sentence for _, sentence in RICHER_REASONS.values()]
    messages.append(LEVEL_SENTENCE)
    messages.append(SIMULATION_SENTENCE)
    messages.append(GAIN_SENTENCE)
    messages += ODDS_SENTENCES.values()
    messages += LABELS.values()
    return messages


__all__ = [
    "LABELS",
    "ODDS_SENTENCES",
    "REASON_SENTENCES",
    "THEMES",
    "THEME_TITLES",
    "VERDICT_LABELS",
    "VERDICT_SENTENCES",
    "catalog_messages",
    "fairness_page",
    "labels",
    "odds_text",
    "points_lost",
    "problem_labels",
    "problem_of_the_day",
    "reason_text",
    "rules_text",
    "simulation_text",
    "theme_title",
    "verdict_label",
    "verdict_text",
    "word_analysis",
    "word_hint",
]
