"""What the rules pages say about each worked example, generated from the example's data.

Every sentence is a catalog template filled with names taken from the example itself (the
seat that leads, the suit of the first card, the trump of the contract, the cards the engine
found legal, the points it counted), never typed by hand: the text and the example cannot
disagree. Seed 003's last paragraph calls the suit led "hearts" when the cards show spades;
here the suit led is the suit of the trick's first card, named by :mod:`cardavia.words.names`.

Each lesson of the legal-cards page has *premises*: facts of the position its sentences take
for granted ("the partner is winning the trick", "only one card beats it").
:func:`lesson_problems` checks them against the engine's result; a test requires none to fail.

>>> from cardavia.words import rules_text
>>> view = legal_view(legal_results()[8], rules_text("hi"))
>>> "पान" in view.explanation[1] and "हुकुम" in view.explanation[1]
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.belote import (
    LAST_TRICK_BONUS,
    USUAL_CARD_TOTAL,
    Rules,
    Strain,
    capot_value,
    card_code,
    deal_points,
    find_rules,
    parse_card,
    values_for,
)
from cardavia.teach.examples import (
    AnnouncementResult,
    Declared,
    LegalResult,
    ScoringResult,
    announcement_results,
    legal_results,
    scoring_results,
)
from cardavia.teach.pictures import card_svg
from cardavia.words import (
    CardArg,
    RankArg,
    SeatArg,
    SuitArg,
    TeamArg,
    Wording,
    glossary,
    rank_prose,
)

SEATS: Final = "NESW"


def _suit(code: str) -> int:
    return parse_card(code) >> 3


def _team(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def _partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as a page shows it: its picture (with its name as label) and whether it is
    highlighted (a legal card, an announced card)."""

    code: str
    name: str
    svg: str
    highlight: bool = False


def card_view(code: str, text: Wording, *, highlight: bool = False) -> CardView:
    """A card's picture and name in the page's language and deck."""
    name = text.expand(card=CardArg(code))["card"]
    css = "card card-on" if highlight else "card"
    return CardView(
        code, name, card_svg(code, lang=text.lang, deck=text.deck, css_class=css), highlight
    )


def preset_title(rules: Rules | str, text: Wording) -> str:
    """A preset's name for players (docs/rules.md 10)."""
    name = rules if isinstance(rules, str) else rules.preset
    titles = {
        "cardavia": "The Cardavia table",
        "maison": "House rules (Maison)",
        "coinche": "Coinche, official rules",
        "maghreb": "Maghreb belote (Spanish-suited deck)",
    }
    return text.gettext(titles[name])


def contract_setting(rules: Rules, contract: str, text: Wording) -> str:
    """ "House rules (Maison), trump: hearts." — the setting of an example."""
    title = preset_title(rules, text)
    strain = Strain.parse(contract)
    if strain == Strain.NO_TRUMP:
        return text.format("{rules}, no trump.", rules=title)
    if strain == Strain.ALL_TRUMP:
        return text.format("{rules}, all trump.", rules=title)
    return text.format("{rules}, trump: {trump}.", rules=title, trump=SuitArg(int(strain)))


# -- "Which card may I play?" --------------------------------------------------------------

LESSON_TITLES: Final = {
    "follow": "Follow the suit led",
    "overtrump_partner": "Trump led: go higher, even over your partner",
    "must_trump": "No card of the suit led, an opponent winning: trump",
    "partner_master": "No card of the suit led, your partner winning: any card",
    "overtrump": "An opponent has trumped: overtrump if you can",
    "undertrump": "You cannot overtrump: play a lower trump all the same",
    "undertrump_optional": "The same trick in coinche, official rules",
    "no_trump": "No trump: follow the suit led, otherwise any card",
    "winner": "Who wins the trick, and what it is worth",
}


def _trumps(result: LegalResult) -> list[str]:
    contract = result.example.contract
    return [c for c in result.example.hand if len(contract) == 1 and c[1] == contract]


def _holds_led(result: LegalResult) -> bool:
    led = result.example.trick[0][1][1]
    return any(c[1] == led for c in result.example.hand)


def _master_is_trump(result: LegalResult) -> bool:
    return result.master_card is not None and result.master_card[1] == result.example.contract


# What each lesson's sentences take for granted (docs/rules.md 5), checked against the engine.
LESSON_PREMISES: Final[dict[str, tuple[tuple[str, Callable[[LegalResult], bool]], ...]]] = {
    "follow": (("the player holds the suit led", _holds_led),),
    "overtrump_partner": (
        ("the partner led trump", lambda r: r.example.trick[0][0] == _partner(r.example.seat)
         and r.example.trick[0][1][1] == r.example.contract),
        ("the second card is not a trump", lambda r: r.example.trick[1][1][1]
         != r.example.contract),
        ("the partner is winning", lambda r: r.master == _partner(r.example.seat)),
        ("exactly one card beats the master", lambda r: len(r.legal) == 1),
    ),
    "must_trump": (
        ("an opponent led", lambda r: _team(r.example.trick[0][0]) != _team(r.example.seat)),
        ("no card of the suit led", lambda r: not _holds_led(r)),
        ("the legal cards are all the trumps", lambda r: list(r.legal) == _trumps(r)),
    ),
    "partner_master": (
        ("the partner led", lambda r: r.example.trick[0][0] == _partner(r.example.seat)),
        ("the partner is winning", lambda r: r.master == _partner(r.example.seat)),
        ("no card of the suit led", lambda r: not _holds_led(r)),
        ("every card is legal", lambda r: r.legal == r.example.hand),
    ),
    "overtrump": (
        ("an opponent is winning with a trump", lambda r: _master_is_trump(r)
         and _team(r.master or "") != _team(r.example.seat)),
        ("no card of the suit led", lambda r: not _holds_led(r)),
        ("exactly one card beats it", lambda r: len(r.legal) == 1),
    ),
    "undertrump": (
        ("an opponent is winning with a trump", lambda r: _master_is_trump(r)
         and _team(r.master or "") != _team(r.example.seat)),
        ("the legal cards are all the trumps", lambda r: list(r.legal) == _trumps(r)),
    ),
    "undertrump_optional": (
        ("an opponent is winning with a trump", lambda r: _master_is_trump(r)
         and _team(r.master or "") != _team(r.example.seat)),
        ("every card is legal", lambda r: r.legal == r.example.hand),
    ),
    "no_trump": (
        ("no trump", lambda r: r.example.contract == "NT"),
        ("the player holds the suit led", _holds_led),
    ),
    "winner": (
        ("an opponent is winning", lambda r: _team(r.master or "") != _team(r.example.seat)),
        ("no card of the suit led", lambda r: not _holds_led(r)),
        ("the card played is a trump", lambda r: (r.example.play or "")[1:]
         == r.example.contract),
        ("the player wins the trick", lambda r: r.winner == r.example.seat),
    ),
}  # fmt: skip


def lesson_problems(result: LegalResult) -> list[str]:
    """The premises of the example's lesson that its position does not meet; and the rule
    the lesson is about, if the engine decided the position by another."""
    problems = [
        f"example {result.example.number}: {words}"
        for words, holds in LESSON_PREMISES[result.example.lesson]
        if not holds(result)
    ]
    if result.rule != result.example.rule:
        problems.append(f"example {result.example.number}: decided by {result.rule}")
    return problems


def _lead(result: LegalResult) -> tuple[str, str, SuitArg]:
    """The trick's first card: the seat that led it, its code, and its suit (the suit led)."""
    lead_seat, lead_card = result.example.trick[0]
    return lead_seat, lead_card, SuitArg(_suit(lead_card))


def _follow_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.1: follow the suit led, whichever card of it."""
    seat = SeatArg(result.example.seat)
    lead_seat, _, led = _lead(result)
    n_legal = len(result.legal)
    return [
        text.format("{leader} leads {suit}.", leader=SeatArg(lead_seat), suit=led)
        + " "
        + text.nformat(
            "{seat} holds one card of {suit}: they must play it.",
            "{seat} holds {n} cards of {suit}: they must play one of them, whichever they like.",
            n_legal,
            seat=seat,
            suit=led,
        )
        + " "
        + text.gettext("They may neither trump nor discard.")
    ]


def _overtrump_partner_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.2: over a partner's trump lead, a higher trump still."""
    ex = result.example
    seat = SeatArg(ex.seat)
    lead_seat, lead_card = result.example.trick[0]
    other_seat = ex.trick[1][0]
    return [
        text.format(
            "{partner}, the partner of {seat}, leads trump with the {card}; {other} has no "
            "trump left and discards.",
            partner=SeatArg(lead_seat),
            seat=seat,
            card=CardArg(lead_card),
            other=SeatArg(other_seat),
        )
        + " "
        + text.nformat(
            "{seat} holds one trump.",
            "{seat} holds {n} trumps.",
            len(_trumps(result)),
            seat=seat,
        )
        + " "
        + text.format(
            "Only the {card} beats the {master}: {seat} must play it, even though their "
            "partner is winning the trick.",
            card=CardArg(result.legal[0]),
            master=CardArg(result.master_card or lead_card),
            seat=seat,
        )
    ]


def _must_trump_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.3: without the suit led, against an opponent: trump."""
    seat = SeatArg(result.example.seat)
    lead_seat, lead_card, led = _lead(result)
    return [
        text.format(
            "{leader}, an opponent, leads {suit} with the {card}. {seat} has no {suit} but "
            "holds trumps: they must trump, with whichever trump they like.",
            leader=SeatArg(lead_seat),
            suit=led,
            card=CardArg(lead_card),
            seat=seat,
        )
    ]


def _partner_master_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.2: without the suit led, the partner winning: any card."""
    ex = result.example
    seat = SeatArg(ex.seat)
    lead_seat, lead_card, led = _lead(result)
    paragraph = text.format(
        "{partner}, the partner of {seat}, leads the {card} and is winning the trick. "
        "{seat} has no {suit}: they need not trump and may play any card.",
        partner=SeatArg(lead_seat),
        seat=seat,
        card=CardArg(lead_card),
        suit=led,
    )
    # docs/rules.md 5.2, knob overtrump_when_trumping_partner: trumping over a trump already
    # in the trick must beat it (on), or any card will do, a lower trump included (off).
    clause = (
        "Had a trump already been played in the trick, {seat} could still trump, but "
        "would have to beat it if they could."
        if find_rules(ex.rules).overtrump_when_trumping_partner
        else "Even over a trump already played in the trick, {seat} could trump lower."
    )
    return [paragraph + " " + text.format(clause, seat=seat)]


def _overtrump_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.3: over an opponent's trump, a higher one."""
    ex = result.example
    seat = SeatArg(ex.seat)
    lead_seat, _, led = _lead(result)
    trumper, trump_card = ex.trick[-1]
    return [
        text.format(
            "{leader} leads {suit} and {trumper} trumps with the {trump_card}. {seat}, "
            "with no {suit}, must overtrump: only the {card} beats the {trump_card}.",
            leader=SeatArg(lead_seat),
            suit=led,
            trumper=SeatArg(trumper),
            trump_card=CardArg(trump_card),
            seat=seat,
            card=CardArg(result.legal[0]),
        )
    ]


def _undertrump_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.4: unable to overtrump, a lower trump all the same."""
    seat = SeatArg(result.example.seat)
    lead_seat, lead_card = result.example.trick[0]
    return [
        text.format(
            "{trumper} has trumped with the {trump_card}. {seat} cannot beat it but holds "
            "trumps: they must play one of them.",
            trumper=SeatArg(result.master or lead_seat),
            trump_card=CardArg(result.master_card or lead_card),
            seat=seat,
        )
    ]


def _undertrump_optional_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5.4, coinche: unable to overtrump, any card."""
    seat = SeatArg(result.example.seat)
    return [
        text.format(
            "In coinche with the official rules, a player who cannot overtrump may "
            "discard: {seat} plays whichever card they like.",
            seat=seat,
        )
    ]


def _no_trump_lesson(result: LegalResult, text: Wording) -> list[str]:
    """docs/rules.md 5: in no trump, follow or play any card."""
    seat = SeatArg(result.example.seat)
    _, _, led = _lead(result)
    n_legal = len(result.legal)
    return [
        text.gettext("In no trump nobody trumps.")
        + " "
        + text.nformat(
            "{seat} holds one card of {suit}: they must play it; without {suit} they could "
            "play any card.",
            "{seat} holds {n} cards of {suit}: they must play one of them; without {suit} "
            "they could play any card.",
            n_legal,
            seat=seat,
            suit=led,
        )
    ]


def _winner_lesson(result: LegalResult, text: Wording) -> list[str]:
    """The card played, who wins, what the trick is worth (docs/rules.md 5.5 and 1)."""
    ex = result.example
    seat = SeatArg(ex.seat)
    _, _, led = _lead(result)
    assert ex.play is not None and result.points is not None and result.winner is not None
    total = " + ".join(str(p) for p in result.card_points)
    first = text.format(
        "{seat} plays the {card}. Winner: {winner}. The trick is worth {sum} = {points}.",
        seat=seat,
        card=CardArg(ex.play),
        winner=SeatArg(result.winner),
        sum=total,
        points=text.points(result.points),
    )
    (s1, c1), (s2, c2), (s3, c3) = ex.trick
    second = text.format(
        "{leader} leads the {card1}, {seat2} plays the {card2} and {seat3} the {card3}. "
        "{seat} has no {suit} left and the opponent {master} is winning the trick: {seat} "
        "must trump. The {card} wins the trick, which goes to {team} with the points of its "
        "four cards.",
        leader=SeatArg(s1),
        card1=CardArg(c1),
        seat2=SeatArg(s2),
        card2=CardArg(c2),
        seat3=SeatArg(s3),
        card3=CardArg(c3),
        seat=seat,
        suit=led,
        master=SeatArg(result.master or s1),
        card=CardArg(ex.play),
        team=TeamArg(_team(result.winner)),
    )
    return [first, second]


LEGAL_LESSONS: Final[Mapping[str, Callable[[LegalResult, Wording], list[str]]]] = {
    "follow": _follow_lesson,
    "overtrump_partner": _overtrump_partner_lesson,
    "must_trump": _must_trump_lesson,
    "partner_master": _partner_master_lesson,
    "overtrump": _overtrump_lesson,
    "undertrump": _undertrump_lesson,
    "undertrump_optional": _undertrump_optional_lesson,
    "no_trump": _no_trump_lesson,
}
"""How each lesson of the legal-cards page explains its example; any other lesson shows who
wins a trick and what it is worth (``winner``)."""


def legal_explanation(result: LegalResult, text: Wording) -> list[str]:
    """The paragraphs that explain a legal-cards example (docs/rules.md 5), in the page's words."""
    return LEGAL_LESSONS.get(result.example.lesson, _winner_lesson)(result, text)


@dataclass(frozen=True, slots=True)
class PlayedView:
    """A card on the table: who played it."""

    seat: str
    card: CardView


@dataclass(frozen=True, slots=True)
class LegalView:
    """One example of the legal-cards page, ready for the template."""

    number: int
    title: str
    setting: str
    trick: tuple[PlayedView, ...]
    hand_label: str
    hand: tuple[CardView, ...]
    legal_label: str
    legal: tuple[CardView, ...]
    explanation: list[str]
    verified: bool


def legal_view(result: LegalResult, text: Wording) -> LegalView:
    """An example of the legal-cards page in the page's language."""
    ex = result.example
    text = text.with_deck(ex.deck)
    rules = find_rules(ex.rules)
    names = text.expand
    return LegalView(
        number=ex.number,
        title=text.gettext(LESSON_TITLES[ex.lesson]),
        setting=contract_setting(rules, ex.contract, text),
        trick=tuple(
            PlayedView(names(s=SeatArg(seat))["s"], card_view(card, text))
            for seat, card in ex.trick
        ),
        hand_label=text.format("Hand of {seat}", seat=SeatArg(ex.seat)),
        hand=tuple(card_view(c, text, highlight=c in result.legal) for c in ex.hand),
        legal_label=text.format(
            "Legal cards: {cards}",
            cards=text.join([text.expand(c=CardArg(c))["c_nom"] for c in result.legal]),
        ),
        legal=tuple(card_view(c, text, highlight=True) for c in result.legal),
        explanation=legal_explanation(result, text),
        verified=result.verified and not lesson_problems(result),
    )


def legal_views(text: Wording) -> list[LegalView]:
    """The nine examples of docs/rules.md 11 in the page's language."""
    return [legal_view(result, text) for result in legal_results()]


# -- Announcements ---------------------------------------------------------------------------


def kind_name(kind: str, text: Wording) -> str:
    """An announcement's kind as the language calls it (:mod:`cardavia.words.glossary`)."""
    return glossary.word(text.lang, kind)


def describe(item: Declared, text: Wording) -> str:
    """An announcement in words: "tierce 7-8-9 of spades", "carré of jacks" (docs/rules.md 7)."""
    kind = kind_name(item.kind, text)
    first = parse_card(item.cards[0])
    if item.kind == "carre":
        return text.format("{kind} of {rank_plural}", kind=kind, rank=RankArg(first & 7))
    ranks = "-".join(rank_prose(parse_card(c) & 7, text.lang, text.deck) for c in item.cards)
    return text.format("{kind} {ranks} of {suit}", kind=kind, ranks=ranks, suit=SuitArg(first >> 3))


def _described(item: Declared, text: Wording) -> str:
    return text.format(
        "{announcement} ({points})",
        announcement=describe(item, text),
        points=text.points(item.points),
    )


ANNOUNCEMENT_TITLES: Final = {
    "choose": "One card, one announcement: choose the most points",
    "two": "Two announcements in one hand",
    "points": "More points wins",
    "carre": "Equal points: the carré beats the sequence",
    "top": "Two sequences of equal points: the higher end card wins",
    "trump": "Same length, same end card: the sequence in trump wins",
    "rank": "Two carrés of equal points: the higher rank wins",
    "tie": "A complete tie: nothing counts",
    "alone": "Only one team announces: it wins",
}

CRITERIA: Final = {
    "points": "The one worth more points wins.",
    "carre": "Equal points: the carré beats the sequence.",
    "length": "Equal points: the longer sequence wins.",
    "top": "Equal points and length: the sequence ending on the higher card wins.",
    "trump": "Equal points, length and end card: the sequence in trump wins.",
    "rank": "Two carrés of equal points: the one of the higher rank in sequence order wins.",
    "tie": "A complete tie: no announcement counts for either team.",
}


def _choice_paragraphs(result: AnnouncementResult, text: Wording) -> list[str]:
    """docs/rules.md 7: a card shared by several possible announcements serves in one only,
    the one worth most."""
    ex = result.example
    if not ex.options:
        return []
    shared = set(ex.options[0]).intersection(*ex.options[1:])
    best = max(result.options, key=lambda o: o.points)
    alternatives = [_described(o, text) for o in result.options]
    return [
        text.format(
            "The {card} can serve in one announcement only: {options}.",
            card=CardArg(sorted(shared)[0]),
            options=text.join(alternatives, alternatives=True),
        )
        + " "
        + text.format(
            "{seat} announces the one worth most: {announcement}.",
            seat=SeatArg(ex.hands[0][0]),
            announcement=_described(best, text),
        )
    ]


def _one_seat_paragraphs(result: AnnouncementResult, text: Wording) -> list[str]:
    """docs/rules.md 7: one seat's several announcements of different cards all count."""
    seat = result.example.hands[0][0]
    items = result.seat_declared(seat)
    if len(items) <= 1:
        return []
    return [
        text.format(
            "{seat} announces {list}: the cards are all different, so both count.",
            seat=SeatArg(seat),
            list=text.join([_described(i, text) for i in items]),
        )
    ]


def _comparison_paragraphs(result: AnnouncementResult, text: Wording) -> list[str]:
    """docs/rules.md 7.4: each team's best announcement, and what decides between them."""
    paragraphs = []
    for team in ("NS", "EW"):
        best = max((d for d in result.declared if _team(d.seat) == team), key=lambda d: d.strength)
        paragraphs.append(
            text.format(
                "Best announcement of {team}: {announcement}, by {seat}.",
                team=TeamArg(team),
                announcement=_described(best, text),
                seat=SeatArg(best.seat),
            )
        )
    paragraphs.append(text.gettext(CRITERIA[result.criterion]))
    return paragraphs


def _winner_paragraphs(result: AnnouncementResult, both_teams: bool, text: Wording) -> list[str]:
    """docs/rules.md 7.5: the winning team scores all its announcements, the other nothing."""
    if result.winner is None:
        return []
    paragraphs = [
        text.format(
            "{team} wins the comparison: it shows its cards and scores all its "
            "announcements, {points}.",
            team=TeamArg(result.winner),
            points=text.points(result.team_points),
        )
    ]
    weaker = [d for d in result.declared if _team(d.seat) == result.winner and both_teams]
    if len(weaker) > 1:
        paragraphs.append(
            text.format(
                "That includes every announcement of the team, even those weaker than the "
                "other team's best: {list}.",
                list=text.join([_described(d, text) for d in weaker]),
            )
        )
    if both_teams:
        loser = "EW" if result.winner == "NS" else "NS"
        paragraphs.append(
            text.format(
                "{team} shows nothing and scores nothing for its announcements.",
                team=TeamArg(loser),
            )
        )
    return paragraphs


def _belote_paragraphs(result: AnnouncementResult, text: Wording) -> list[str]:
    """docs/rules.md 6: a belote held beside the announcements, which is not one of them."""
    base = int(Strain.parse(result.example.contract)) * 8
    return [
        text.format(
            "{seat} also holds the {king} and the {queen}, the belote–rebelote of this "
            "trump: 20 points more when they are played. It is not an announcement and "
            "takes no part in the comparison.",
            seat=SeatArg(seat),
            king=CardArg(card_code(base + 6)),
            queen=CardArg(card_code(base + 5)),
        )
        for seat in result.belote
    ]


def announcement_explanation(result: AnnouncementResult, text: Wording) -> list[str]:
    """The paragraphs that explain an announcement example (docs/rules.md 6 and 7)."""
    ex = result.example
    teams = {_team(seat) for seat, _ in ex.hands}
    paragraphs = _choice_paragraphs(result, text)
    if len(teams) == 1 and not ex.options:
        paragraphs += _one_seat_paragraphs(result, text)
    if len(teams) == 2:
        paragraphs += _comparison_paragraphs(result, text)
    paragraphs += _winner_paragraphs(result, len(teams) == 2, text)
    return paragraphs + _belote_paragraphs(result, text)


@dataclass(frozen=True, slots=True)
class HandView:
    """A seat's hand in an announcement example, its announced cards highlighted."""

    label: str
    cards: tuple[CardView, ...]
    announced: list[str]


@dataclass(frozen=True, slots=True)
class AnnouncementView:
    """One example of the announcements page."""

    key: str
    title: str
    setting: str
    hands: tuple[HandView, ...]
    explanation: list[str]
    verified: bool


def announcement_view(result: AnnouncementResult, text: Wording) -> AnnouncementView:
    """An announcement example in the page's language and the example's deck."""
    ex = result.example
    text = text.with_deck(ex.deck)
    rules = find_rules(ex.rules)
    hands = []
    for seat, hand in ex.hands:
        items = result.seat_declared(seat)
        used = {c for item in items for c in item.cards}
        hands.append(
            HandView(
                text.format("Hand of {seat}", seat=SeatArg(seat)),
                tuple(card_view(c, text, highlight=c in used) for c in hand),
                [_described(item, text) for item in items],
            )
        )
    return AnnouncementView(
        ex.key,
        text.gettext(ANNOUNCEMENT_TITLES[ex.key]),
        contract_setting(rules, ex.contract, text),
        tuple(hands),
        announcement_explanation(result, text),
        result.verified,
    )


def announcement_views(text: Wording) -> list[AnnouncementView]:
    """The announcement examples in the page's language."""
    return [announcement_view(result, text) for result in announcement_results()]


# -- Scoring ---------------------------------------------------------------------------------

SCORING_TITLES: Final = {
    "classic_made": "House rules: the contract is made",
    "classic_failed": "House rules: the contract fails",
    "classic_litige": "House rules: a tie (litige)",
    "classic_capot": "House rules: capot",
    "coinche_made": "Coinche: the bid is reached",
    "coinche_failed": "Coinche: the bid is not reached",
    "coinche_coinched": "Coinche: coinched, and made",
    "coinche_surcoinched": "Coinche: surcoinched, and failed",
    "cardavia_made": "The Cardavia table: made",
    "cardavia_failed": "The Cardavia table: failed",
    "maghreb_made": "Maghreb belote, Spanish-suited deck: made",
}


@dataclass(frozen=True, slots=True)
class ScoreLineView:
    """One line of a worked calculation: words, and the points of each team."""

    text: str
    ns: int | None
    ew: int | None
    strong: bool = False


@dataclass(frozen=True, slots=True)
class TrickView:
    """One trick of a scoring example."""

    number: int
    leader: str
    cards: tuple[str, ...]
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoringView:
    """One worked calculation of the scoring page."""

    key: str
    title: str
    setting: str
    contract: str
    tricks: tuple[TrickView, ...]
    lines: tuple[ScoreLineView, ...]
    explanation: list[str]
    verified: bool


@dataclass(frozen=True, slots=True)
class Formula:
    """A sum written out ("162 + 20 = 182", "(160 + 110) × 4 + 20 = 1100"), whose terms a
    test adds up again against the engine's score."""

    terms: tuple[int, ...]
    multiplier: int = 1
    extra: tuple[int, ...] = ()
    """Terms added after the multiplication (announcements and belote of a coinched deal)."""

    @property
    def value(self) -> int:
        """The sum of the terms, times the multiplier, plus the extra terms."""
        return sum(self.terms) * self.multiplier + sum(self.extra)

    def __str__(self) -> str:
        text = " + ".join(str(t) for t in self.terms)
        if self.multiplier != 1:
            text = (
                f"({text}) × {self.multiplier}"
                if len(self.terms) > 1
                else f"{text} × {self.multiplier}"
            )
        text += "".join(f" + {t}" for t in self.extra)
        if len(self.terms) + len(self.extra) > 1 or self.multiplier != 1:
            text += f" = {self.value}"
        return text


@dataclass(frozen=True, slots=True)
class Worked:
    """The parts of a deal's score as the page explains them (docs/rules.md 8)."""

    trick_points: tuple[int, int]
    """Card points in each team's tricks, without the last trick."""
    last_trick: tuple[int, int]
    """The 10 of the last trick, or the capot bonus that takes its place."""
    announcements: tuple[int, int]
    belote: tuple[int, int]
    totals: tuple[int, int]
    """Card points + announcements + belote."""
    formulas: tuple[Formula, Formula]
    """Each team's exact score of the deal, written out."""


def _sum(*terms: int) -> Formula:
    """The sum of the terms that are not zero ("45 + 40"), or 0."""
    return Formula(tuple(t for t in terms if t) or (0,))


def worked(result: ScoringResult) -> Worked:
    """The worked calculation of a scoring example, from the engine's score (docs/rules.md 8)."""
    rules = result.rules
    score = result.score
    cards, announced, belote = score.card_points, score.announcements, score.belote
    if score.capot is not None:
        # docs/rules.md 8: on a capot the capotted team's announcements go to the capot team.
        capot = int(score.capot)
        moved = [0, 0]
        moved[capot] = announced[0] + announced[1]
        announced = (moved[0], moved[1])
    trick_points = [0, 0]
    for trick in result.tricks:
        trick_points[_team(trick.winner) == "EW"] += trick.points
    last = [cards[t] - trick_points[t] for t in (0, 1)]
    totals = [cards[t] + announced[t] + belote[t] for t in (0, 1)]
    takers = 0 if result.takers == "NS" else 1
    defenders = 1 - takers
    formulas = [_sum(), _sum()]
    kept = rules.belote_on_failure == "kept"
    # The takers' belote goes to the defenders on a failure unless it is kept (docs/rules.md 6).
    lost_belote = 0 if kept else belote[takers]
    bid = score.contract.bid or 0
    if rules.bidding == "classic" and score.made:
        # docs/rules.md 8: made, each team scores its total.
        formulas = [_sum(cards[t], announced[t], belote[t]) for t in (0, 1)]
    elif rules.bidding == "classic" and score.made is None:
        # docs/rules.md 8, litige: the defenders score theirs; the takers' wait in reserve.
        formulas[defenders] = _sum(cards[defenders], announced[defenders], belote[defenders])
    elif rules.bidding == "classic":
        # docs/rules.md 8, failed: 162 (or the capot) + every announcement + the belotes.
        formulas[defenders] = _sum(
            _failed_base(result), sum(announced), belote[defenders], lost_belote
        )
        formulas[takers] = _sum(belote[takers] if kept else 0)
    elif score.multiplier == 1 and score.made:
        # docs/rules.md 8, coinche made: the takers their points + the bid; the defenders theirs.
        formulas[takers] = _sum(cards[takers], announced[takers], belote[takers], bid)
        formulas[defenders] = _sum(cards[defenders], announced[defenders], belote[defenders])
    elif score.multiplier == 1:
        # docs/rules.md 8, coinche failed: the defenders 160 + the bid; the takers their belote.
        formulas[defenders] = _sum(
            _coinche_base(result), bid, sum(announced), belote[defenders], lost_belote
        )
        formulas[takers] = _sum(belote[takers] if kept else 0)
    else:
        # docs/rules.md 8, coinched ×2 or surcoinched ×4: (160 + bid) × multiplier to the winners;
        # each side keeps its belote.
        winners = takers if score.made else defenders
        extra = (sum(announced), belote[winners], 0 if score.made else lost_belote)
        # docs/rules.md 8: a capot made at a coinche table scores (capot + bid) × multiplier.
        capot_made = score.made and score.capot is not None and score.capot.name == result.takers
        base = capot_value(rules, score.contract.strain) if capot_made else _coinche_base(result)
        formulas[winners] = Formula((base, bid), score.multiplier, tuple(x for x in extra if x))
        losers = 1 - winners
        formulas[losers] = _sum(belote[losers] if (losers == defenders or kept) else 0)
    return Worked(
        (trick_points[0], trick_points[1]),
        (last[0], last[1]),
        announced,
        belote,
        (totals[0], totals[1]),
        (formulas[0], formulas[1]),
    )


def _failed_base(result: ScoringResult) -> int:
    """What the defenders of a failed classic contract score for the cards: 162, or the
    capot's points if they took all eight tricks (docs/rules.md 8)."""
    capot = result.score.capot
    strain = result.score.contract.strain
    if capot is not None and capot.name != result.takers:
        return capot_value(result.rules, strain)
    return deal_points(result.rules, strain)


def _coinche_base(result: ScoringResult) -> int:
    """The base of a failed or coinched contract at a coinche table: ``failed_base`` (160),
    following the contract's point scale as the 162 it stands for (docs/rules.md 8)."""
    rules, strain = result.rules, result.score.contract.strain
    return rules.failed_base + deal_points(rules, strain) - USUAL_CARD_TOTAL - LAST_TRICK_BONUS


def _pair(team: str, value: int) -> tuple[int | None, int | None]:
    return (value, None) if team == "NS" else (None, value)


def contract_words(result: ScoringResult, text: Wording) -> str:
    """ "East takes, trump: diamonds." or "North bids 100, trump: hearts, coinched."."""
    ex = result.example
    seat, trump = SeatArg(ex.taker), SuitArg(int(Strain.parse(ex.contract)))
    if ex.bid is None:
        return text.format("{seat} takes, trump: {trump}.", seat=seat, trump=trump)
    message = (
        "{seat} bids {bid}, trump: {trump}.",
        "{seat} bids {bid}, trump: {trump}; coinched.",
        "{seat} bids {bid}, trump: {trump}; coinched and surcoinched.",
    )[ex.coinche]
    return text.format(message, seat=seat, trump=trump, bid=ex.bid)


def scoring_lines(result: ScoringResult, text: Wording) -> list[ScoreLineView]:
    """The lines of a worked calculation, each with both teams' points (docs/rules.md 8)."""
    score = result.score
    work = worked(result)
    lines = [ScoreLineView(text.gettext("Card points in the tricks"), *work.trick_points)]
    if score.capot is not None:
        team = score.capot.name
        lines.append(
            ScoreLineView(
                text.format(
                    "Capot: all eight tricks, {capot} in all",
                    capot=score.card_points[score.capot],
                ),
                *_pair(team, work.last_trick[score.capot]),
            )
        )
    else:
        team = "NS" if work.last_trick[0] else "EW"
        lines.append(
            ScoreLineView(text.gettext("Last trick (dix de der)"), *_pair(team, LAST_TRICK_BONUS))
        )
    if score.announcement_winner is not None:
        for item in result.declared:
            if _team(item.seat) == score.announcement_winner.name:
                lines.append(
                    ScoreLineView(
                        text.format(
                            "{announcement}, by {seat}",
                            announcement=describe(item, text),
                            seat=SeatArg(item.seat),
                        ),
                        *_pair(_team(item.seat), item.points),
                    )
                )
    for seat in result.belote_seats:
        lines.append(
            ScoreLineView(
                text.format("Belote–rebelote, by {seat}", seat=SeatArg(seat)),
                *_pair(_team(seat), 20),
            )
        )
    lines.append(ScoreLineView(text.gettext("Total"), *work.totals, strong=True))
    if score.exact != score.scores:
        lines.append(ScoreLineView(text.gettext("Exact score"), *score.exact))
    lines.append(ScoreLineView(text.gettext("Score of the deal"), *score.scores, strong=True))
    return lines


def _accepted(result: ScoringResult) -> list[Declared]:
    """The announcements that count (docs/rules.md 7): those of the team that won the comparison."""
    winner = result.score.announcement_winner
    if winner is None:
        return []
    return [item for item in result.declared if _team(item.seat) == winner.name]


def _announcement_item(item: Declared, text: Wording) -> str:
    """ "tierce 9-10-J of clubs, by North (20 points)": an announcement a team scores."""
    return text.format(
        "{announcement} ({points})",
        announcement=text.format(
            "{announcement}, by {seat}", announcement=describe(item, text), seat=SeatArg(item.seat)
        ),
        points=text.points(item.points),
    )


def _belote_item(seat: str, text: Wording) -> str:
    """ "the belote–rebelote of West (20 points)"."""
    return text.format("the belote–rebelote of {seat} ({points})", seat=SeatArg(seat),
                       points=text.points(20))  # fmt: skip


def _belote_of(result: ScoringResult, team: str) -> list[str]:
    """The seats of a team whose belote–rebelote counted."""
    return [seat for seat in result.belote_seats if _team(seat) == team]


def _keeps(team: str, formula: Formula, text: Wording) -> str:
    """What the losing side of a deal keeps: its belote when it holds one and the rules keep
    it (docs/rules.md 6), or nothing — said from the example's numbers, never assumed."""
    if formula.value:
        return text.format(
            "{team} keep only their belote: {formula}.", team=TeamArg(team), formula=str(formula)
        )
    return text.format("{team} score nothing.", team=TeamArg(team))


def _classic_failed(result: ScoringResult, work: Worked, text: Wording) -> list[str]:
    """docs/rules.md 8, a failed classic contract: the defenders score the fixed total, every
    accepted announcement of both teams and the belotes the rules give them; each item named
    from the example's own facts."""
    rules = result.rules
    takers = result.takers
    defenders = "EW" if takers == "NS" else "NS"
    d = 0 if defenders == "NS" else 1
    items = [_announcement_item(item, text) for item in _accepted(result)]
    kept = rules.belote_on_failure == "kept"
    belote_seats = [s for s in result.belote_seats if not kept or _team(s) == defenders]
    items += [_belote_item(seat, text) for seat in belote_seats]
    base = _failed_base(result)
    out = [text.gettext("The contract fails.")]
    if items:
        out.append(
            text.format(
                "{defenders} score {d_formula}: {base} plus {items}.",
                defenders=TeamArg(defenders),
                d_formula=str(work.formulas[d]),
                base=base,
                items=text.join(items),
            )
        )
    else:
        out.append(
            text.format(
                "{defenders} score {d_formula}.",
                defenders=TeamArg(defenders),
                d_formula=str(work.formulas[d]),
            )
        )
    taker_belote = _belote_of(result, takers)
    if taker_belote and not kept:
        out.append(text.gettext("At this table the takers' belote goes to the defenders."))
    t = 0 if takers == "NS" else 1
    out.append(_keeps(takers, work.formulas[t], text))
    return [" ".join(out)]


def _sides(result: ScoringResult) -> tuple[str, str, int, int]:
    """The takers and the defenders (``NS``, ``EW``), and their places in the scores."""
    takers = result.takers
    t = 0 if takers == "NS" else 1
    return takers, "EW" if takers == "NS" else "NS", t, 1 - t


def _capot_paragraphs(result: ScoringResult, text: Wording) -> list[str]:
    """docs/rules.md 8: a capot replaces the card points and the last trick."""
    capot = result.score.capot
    if capot is None:
        return []
    return [
        text.format(
            "{team} takes all eight tricks: capot. It scores {capot} instead of its card "
            "points and the last trick.",
            team=TeamArg(capot.name),
            capot=result.rules.capot_points,
        )
    ]


def _announcement_paragraphs(result: ScoringResult, text: Wording) -> list[str]:
    """docs/rules.md 7 and 8: who won the comparison, and where its announcements go."""
    score = result.score
    if score.announcement_winner is None:
        return []
    winner = score.announcement_winner.name
    if score.made is False and result.rules.bidding == "classic" and winner == result.takers:
        message = (
            "{team} wins the comparison of the announcements, {points}; as its contract "
            "fails, they go to the defenders."
        )
    else:
        message = "{team} wins the comparison of the announcements and scores them all: {points}."
    return [
        text.format(message, team=TeamArg(winner), points=text.points(sum(score.announcements)))
    ]


def _classic_outcome(result: ScoringResult, work: Worked, text: Wording) -> list[str]:
    """docs/rules.md 8, a taken contract: the two totals, then made, litige or failed."""
    score = result.score
    takers, defenders, t, d = _sides(result)
    out = [
        text.format(
            "{takers} (the takers) have {t_total}, {defenders} {d_total}.",
            takers=TeamArg(takers),
            defenders=TeamArg(defenders),
            t_total=work.totals[t],
            d_total=work.totals[d],
        )
    ]
    if score.made and result.rules.tie == "made" and work.totals[t] == work.totals[d]:
        out.append(text.gettext("Equal totals count as made at this table."))
    if score.made:
        out.append(
            text.format(
                "The contract is made: each team scores its total. {takers}: {t_formula}; "
                "{defenders}: {d_formula}.",
                takers=TeamArg(takers),
                defenders=TeamArg(defenders),
                t_formula=str(work.formulas[t]),
                d_formula=str(work.formulas[d]),
            )
        )
    elif score.made is None:
        out.append(
            text.format(
                "Equal totals: litige. {defenders} score their {d_total}; the {reserve} of "
                "{takers} wait in reserve and go to the team that wins the next deal.",
                defenders=TeamArg(defenders),
                takers=TeamArg(takers),
                d_total=score.scores[d],
                reserve=score.reserve,
            )
        )
    else:
        out += _classic_failed(result, work, text)
    return out


def _coinche_need(result: ScoringResult, text: Wording) -> str:
    """docs/rules.md 8 (coinche): the takers' points against the bid and, where the rules say
    so, against the defenders' points counted the same way."""
    score, rules = result.score, result.rules
    takers, defenders, t, d = _sides(result)
    bid = score.contract.bid or 0
    counts_belote = rules.belote_counts_for_contract
    t_points = _sum(score.card_points[t], score.announcements[t], score.belote[t] * counts_belote)
    d_points = _sum(score.card_points[d], score.announcements[d], score.belote[d] * counts_belote)
    # docs/rules.md 8 (FFB 10.1.1): on in the coinche preset; read from the knob once it exists.
    if getattr(rules, "contract_must_beat_defence", True):
        return text.format(
            "{takers} need {bid} and more than the defenders: they have {points}, "
            "{defenders} {d_points}.",
            takers=TeamArg(takers),
            defenders=TeamArg(defenders),
            bid=bid,
            points=str(t_points),
            d_points=str(d_points),
        )
    return text.format(
        "{takers} need {bid}: they have {points}.",
        takers=TeamArg(takers),
        bid=bid,
        points=str(t_points),
    )


def _coinche_plain(result: ScoringResult, work: Worked, text: Wording) -> str:
    """docs/rules.md 8 (coinche), neither coinched nor surcoinched: made or failed."""
    takers, defenders, t, d = _sides(result)
    if result.score.made:
        return text.format(
            "The bid is reached: {takers} score their points and the bid, {t_formula}; "
            "{defenders} score their points, {d_formula}.",
            takers=TeamArg(takers),
            defenders=TeamArg(defenders),
            t_formula=str(work.formulas[t]),
            d_formula=str(work.formulas[d]),
        )
    message = (
        "The bid is not reached: {defenders} score {base} and the bid, with their belote: "
        "{d_formula}."
        if _belote_of(result, defenders)
        else "The bid is not reached: {defenders} score {base} and the bid: {d_formula}."
    )
    return (
        text.format(
            message,
            defenders=TeamArg(defenders),
            base=result.rules.failed_base,
            d_formula=str(work.formulas[d]),
        )
        + " "
        + _keeps(takers, work.formulas[t], text)
    )


def _coinched(result: ScoringResult, work: Worked, text: Wording) -> str:
    """docs/rules.md 8 (coinche), coinched or surcoinched: the winning side takes the base and
    the bid multiplied, the other keeps only its belote."""
    score = result.score
    takers, defenders, _, _ = _sides(result)
    winners = takers if score.made else defenders
    losers = defenders if score.made else takers
    w = 0 if winners == "NS" else 1
    with_belote = bool(_belote_of(result, winners))
    message = {
        (True, True): "Made and {word}: {winners} score ({base} + the bid) × {multiplier}, "
        "with their belote: {w_formula}.",
        (True, False): "Made and {word}: {winners} score ({base} + the bid) × {multiplier}: "
        "{w_formula}.",
        (False, True): "Failed and {word}: {winners} score ({base} + the bid) × "
        "{multiplier}, with their belote: {w_formula}.",
        (False, False): "Failed and {word}: {winners} score ({base} + the bid) × "
        "{multiplier}: {w_formula}.",
    }[bool(score.made), with_belote]
    word = text.gettext("surcoinched" if score.multiplier == 4 else "coinched")
    losing = _keeps(losers, work.formulas[1 - w], text)
    return (
        text.format(
            message,
            winners=TeamArg(winners),
            base=work.formulas[w].terms[0],
            multiplier=score.multiplier,
            word=word,
            w_formula=str(work.formulas[w]),
        )
        + " "
        + losing
    )


def _rounding_paragraphs(result: ScoringResult, text: Wording) -> list[str]:
    """docs/rules.md 8: scores rounded to the nearest ten, where the rules round them."""
    score = result.score
    if score.exact == score.scores:
        return []
    return [
        text.format(
            "Scores are rounded to the nearest ten: {ns_exact} → {ns}, {ew_exact} → {ew}.",
            ns_exact=score.exact[0],
            ns=score.scores[0],
            ew_exact=score.exact[1],
            ew=score.scores[1],
        )
    ]


def scoring_explanation(result: ScoringResult, text: Wording) -> list[str]:
    """The paragraphs that explain a worked calculation (docs/rules.md 8), in the page's words.

    Every item a sentence names (an announcement, a belote, who keeps what) is read from the
    same score as the calculation's numbers, so that the words cannot count what the numbers
    do not (and the reverse)."""
    work = worked(result)
    out = _capot_paragraphs(result, text) + _announcement_paragraphs(result, text)
    if result.rules.bidding == "classic":
        return out + _classic_outcome(result, work, text)
    out.append(_coinche_need(result, text))
    if result.score.multiplier == 1:
        out.append(_coinche_plain(result, work, text))
    else:
        out.append(_coinched(result, work, text))
    return out + _rounding_paragraphs(result, text)


def scoring_view(result: ScoringResult, text: Wording) -> ScoringView:
    """A worked calculation in the page's language and the example's deck."""
    ex = result.example
    text = text.with_deck(ex.deck)
    names = text.expand
    return ScoringView(
        ex.key,
        text.gettext(SCORING_TITLES[ex.key]),
        preset_title(result.rules, text),
        contract_words(result, text),
        tuple(
            TrickView(
                number,
                names(s=SeatArg(trick.leader))["s"],
                tuple(names(c=CardArg(c))["c_short"] for c in trick.cards),
                names(s=SeatArg(trick.winner))["s"],
                trick.points,
            )
            for number, trick in enumerate(result.tricks, start=1)
        ),
        tuple(scoring_lines(result, text)),
        scoring_explanation(result, text),
        result.verified,
    )


def scoring_views(text: Wording) -> list[ScoringView]:
    """The worked calculations in the page's language."""
    return [scoring_view(result, text) for result in scoring_results()]


def card_point_rows(rules: Rules, text: Wording) -> list[tuple[str, int, int]]:
    """Each rank's points as trump and as a plain card (docs/rules.md 1), strongest trump first."""
    values = values_for(rules, Strain.SPADES)
    order = sorted(range(8), key=lambda r: values.order[r], reverse=True)
    return [
        (
            text.expand(r=RankArg(rank))["r"],
            values.points[rank],
            values.points[8 + rank],
        )
        for rank in order
    ]
