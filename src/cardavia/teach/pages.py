"""The content of the rules pages, built from the rule sets and the worked examples.

The full rules of a preset are written from its knobs (docs/rules.md 10): each paragraph that
depends on a knob is chosen by the knob's value, and numbers (the match target, the capot, the
points of the cards) are read from the rule set and the engine's tables, so that the page and
the game cannot drift apart. Each builder answers a plain dict for the page's template.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from cardavia.belote import (
    CARRE_POINTS,
    LAST_TRICK_BONUS,
    PRESETS,
    SPANISH,
    USUAL_CARD_TOTAL,
    Rules,
    Strain,
    find_rules,
    values_for,
)
from cardavia.teach.explain import (
    announcement_views,
    card_point_rows,
    legal_views,
    preset_title,
    scoring_views,
)
from cardavia.words import RankArg, SuitArg, Wording, glossary, rank_prose, rank_words

TOPICS: Final = ("legal-cards", "announcements", "scoring")
"""The rules pages beside the presets' (docs/web.md)."""
TOPIC_TITLES: Final = {
    "legal-cards": "Which card may I play?",
    "announcements": "Announcements: sequences, carrés and belote–rebelote",
    "scoring": "Scoring a deal",
}


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of a page: paragraphs, and a table if it has one."""

    title: str
    paragraphs: list[str]
    table: list[list[str]] = field(default_factory=list)
    link: str | None = None
    """A topic page that shows this part with worked examples."""


def _ranks_in_order(text: Wording) -> str:
    return text.join([text.expand(r=RankArg(rank))["r"] for rank in range(8)])


def _suits(text: Wording) -> str:
    return text.join([text.expand(s=SuitArg(suit))["s"] for suit in range(4)])


def _carres(text: Wording) -> str:
    # docs/rules.md 7: jacks 200, nines 150, aces, tens, kings, queens 100 (in sequence order).
    ranks = sorted(
        (rank for rank in range(8) if CARRE_POINTS[rank]),
        key=lambda r: (CARRE_POINTS[r], r),
        reverse=True,
    )
    carre = glossary.word(text.lang, "carre")
    return text.join(
        [
            text.format(
                "{announcement} ({points})",
                announcement=text.format("{kind} of {rank_plural}", kind=carre, rank=RankArg(rank)),
                points=CARRE_POINTS[rank],
            )
            for rank in ranks
        ]
    )


def _partner_trumped(rules: Rules, text: Wording) -> str:
    """Your partner is winning and you trump over a trump already in the trick (docs/rules.md 5,
    knob ``overtrump_when_trumping_partner``)."""
    return text.gettext(
        "If your partner is winning and you choose to trump over a trump already in the trick, "
        "you must beat it if you can."
        if rules.overtrump_when_trumping_partner
        else "If your partner has trumped and is winning the trick, you may play any card, a "
        "lower trump included."
    )


def _worthless_carres(text: Wording) -> str:
    """docs/rules.md 7: the two carrés worth 0 (7s and 8s; Spanish deck 4s and 5s) beat nothing."""
    low, high = (rank for rank in range(8) if not CARRE_POINTS[rank])
    return text.format(
        "A carré of {high_plural} or {low_plural} is worth nothing and beats nothing.",
        high=RankArg(high),
        low=RankArg(low),
    )


def prose_label(rank: int, text: Wording) -> str:
    """A rank in an order written out in prose (:func:`cardavia.words.rank_prose`)."""
    return rank_prose(rank, text.lang, text.deck)


def _carre_order(text: Wording) -> str:
    """The carrés of equal points from the strongest (docs/rules.md 7.4): "A > K > Q > 10"."""
    ranks = sorted((r for r in range(8) if CARRE_POINTS[r] == 100), reverse=True)
    return " > ".join(prose_label(rank, text) for rank in ranks)


def _coinche_contract(text: Wording) -> str:
    """What the takers need at the coinche table (docs/rules.md 8, FFB 10.1.1), and a coinche's
    freeze (docs/rules.md 4), from the coinche preset's knobs."""
    rules = find_rules("coinche")
    return text.gettext(
        "At the coinche table, the takers' points must reach their bid and be greater than "
        "the defenders'."
        if getattr(rules, "contract_must_beat_defence", True)
        else "At the coinche table, the takers' points must reach their bid."
    )


def _order(rules: Rules, strain_suit: bool, text: Wording) -> str:
    table = values_for(rules, Strain.SPADES)
    offset = 0 if strain_suit else 8
    ranks = sorted(range(8), key=lambda r: table.order[offset + r], reverse=True)
    return _spaced([prose_label(r, text) for r in ranks], text)


def _spaced(labels: list[str], text: Wording) -> str:
    """Ranks written in a row: "J 9 A 10"; Arabic separates them with its comma."""
    return ("، " if text.lang == "ar" else " ").join(labels)


def preset_sections(rules: Rules, text: Wording) -> list[Section]:
    """The full rules of a preset, section by section (docs/rules.md 1 to 9)."""
    text = text.with_deck(rules.deck)
    return [section(rules, text) for section in SECTIONS]


def _cards_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 1: the cards, their order and their points; the Spanish deck's names
    beside the French ones."""
    cards = [
        text.format(
            "32 cards: {ranks} in each of the four suits, {suits}.",
            ranks=_ranks_in_order(text),
            suits=_suits(text),
        )
    ]
    table: list[list[str]] = []
    if rules.deck == "spanish":
        cards.append(
            text.gettext(
                "The Spanish-suited deck has the same 32 cards under other names: each card "
                "plays exactly as its French counterpart, shown in this table."
            )
        )
        french = text.with_deck("french")
        for rank in range(8):
            words = rank_words(rank, text.lang, text.deck)
            table.append(
                [
                    SPANISH.rank_labels[rank],
                    words.word or text.expand(r=RankArg(rank))["r"],
                    french.expand(r=RankArg(rank))["r"],
                ]
            )
        for suit in (2, 1, 0, 3):
            table.append(
                [
                    "",
                    text.expand(s=SuitArg(suit))["s"],
                    french.expand(s=SuitArg(suit))["s"],
                ]
            )
    cards.append(
        text.format("Order in trump, strongest first: {order}.", order=_order(rules, True, text))
    )
    cards.append(
        text.format("Order in the other suits: {order}.", order=_order(rules, False, text))
    )
    cards.append(
        text.format(
            "The cards hold {cards}; the last trick adds {last} (dix de der): {total} in all.",
            cards=text.points(USUAL_CARD_TOTAL),
            last=LAST_TRICK_BONUS,
            total=USUAL_CARD_TOTAL + LAST_TRICK_BONUS,
        )
    )
    return Section(text.gettext("The cards"), cards, table)


def _seats_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 2: the seats, the teams and the turn order."""
    seats = [
        text.gettext(
            "Four players in two teams: North and South against East and West; partners sit "
            "opposite each other. Play turns counterclockwise: each player's next is the "
            "player on their right."
        )
    ]
    if not rules.is_match:
        seats.append(
            text.gettext(
                "At the Cardavia table you sit South, with the computer as your partner at "
                "North and two computer opponents."
            )
        )
    return Section(text.gettext("Players and turn order"), seats)


def _dealing_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 3 and 4: dealing and bidding, in two rounds or by auction."""
    if rules.bidding == "classic":
        first, second = rules.first_packets.split("-")
        dealing = [
            text.nformat(
                "The dealer deals {first} card, then {second}, to each player, starting with "
                "their next, and turns the next card face up. Whoever takes gets that card and "
                "2 more, every other player 3: eight cards each.",
                "The dealer deals {first} cards, then {second}, to each player, starting with "
                "their next, and turns the next card face up. Whoever takes gets that card and "
                "2 more, every other player 3: eight cards each.",
                int(first),
                first=first,
                second=second,
            ),
            text.gettext(
                "First round, in turn from the dealer's next: take the suit of the turned card "
                "as trump, or pass. If all four pass, second round: name another suit as "
                "trump, or pass. The first to take ends the bidding; if everybody passes "
                "twice, the deal is cancelled and dealt again."
            ),
        ]
    else:
        dealing = [
            text.format(
                "All eight cards are dealt before the bidding, in packets of {packets}.",
                packets=text.join(rules.auction_packets.split("-")),
            ),
            text.gettext(
                "In turn, pass or bid more than the last bid: 80, 90 … 160, then capot (all "
                "eight tricks), naming the trump suit. An opponent of the last bidder may "
                "coinche (double) in turn. The auction ends after three passes in a row "
                "following a bid; if nobody bids, the deal is cancelled."
            ),
            # docs/rules.md 4 (FFB): a coinche freezes the contract, unless the table's knob says
            # that anyone may still outbid (which cancels the coinche).
            text.gettext(
                "After a coinche any player may still bid higher, which cancels the coinche; "
                "otherwise the bidder's team may surcoinche (redouble), which ends the auction."
                if getattr(rules, "outbid_after_coinche", False)
                else "A coinche freezes the contract: nobody may bid any more. The bidder's "
                "team may only surcoinche (redouble), which ends the auction, or pass."
            ),
        ]
    return Section(text.gettext("Dealing and bidding"), dealing)


def _play_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 5: playing a trick."""
    play = [
        text.gettext(
            "The dealer's next leads the first trick; the winner of a trick leads the next. "
            "You must follow the suit led. If trump is led, you must play a higher trump if "
            "you can, even over your partner's. If you cannot follow and an opponent is "
            "winning the trick, you must trump, higher than any trump already played if you "
            "can; if your partner is winning, you may play any card."
        ),
        _partner_trumped(rules, text),
        text.gettext(
            "If you cannot beat the opponent's trump, you must still play a lower trump if you "
            "hold one."
            if rules.undertrump == "required"
            else "If you cannot beat the opponent's trump, you may play any card."
        ),
        text.gettext(
            "The highest trump wins the trick; without trumps, the highest card of the suit led."
        ),
    ]
    return Section(text.gettext("Playing a trick"), play, link="legal-cards")


def _belote_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 6: belote–rebelote."""
    # The king and queen of the rule set's deck: the Spanish deck has no queen (its 12 and 11).
    king, queen = RankArg(6), RankArg(5)
    belote = [
        text.format(
            "A player who has held the {king} and the {queen} of trump since the deal scores "
            "belote–rebelote, 20 points, automatically when playing the two cards."
            if rules.belote_declaration == "automatic"
            else "A player who holds the {king} and the {queen} of trump says “belote” when "
            "playing the first of the two cards and “rebelote” with the second: 20 points. "
            "Without “belote”, they are worth nothing.",
            king=king,
            queen=queen,
        ),
        text.gettext(
            "The 20 points stay with the team that held them, even when its contract fails."
            if rules.belote_on_failure == "kept"
            else "If the takers fail, their belote goes to the defenders."
        ),
        text.gettext("Belote–rebelote is not an announcement: it takes no part in the comparison."),
    ]
    return Section(text.gettext("Belote–rebelote"), belote)


def _announcements_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 7: announcements, where the table has them."""
    if rules.announcements:
        announcements = [
            text.format(
                "With your first card you may announce your sequences (three cards of a suit "
                "in a row: 20; four: 50; five or more: 100) and your carrés, the four cards of "
                "a rank: {carres}.",
                carres=_carres(text),
            ),
            _worthless_carres(text),
            text.gettext(
                "Only the team with the best announcement scores its announcements, all of them."
            ),
        ]
    else:
        announcements = [
            text.gettext("There are no announcements at this table, only belote–rebelote.")
        ]
    return Section(
        text.gettext("Announcements"),
        announcements,
        link="announcements" if rules.announcements else None,
    )


def _scoring_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 8: scoring a deal."""
    scoring = [
        text.format(
            "Each team counts the points of the cards in its tricks, plus 10 for the last "
            "trick. A team that takes all eight tricks makes capot: {capot}.",
            capot=text.points(rules.capot_points),
        )
    ]
    if rules.announcements:
        # docs/rules.md 8 (FFB): on a capot the capotted team's announcements change hands.
        scoring.append(
            text.gettext(
                "On a capot, the team that made it also scores the announcements of the team "
                "that took no trick."
            )
        )
    if rules.bidding == "classic":
        scoring += _classic_contract(rules, text)
    else:
        scoring += _auction_contract(rules, text)
    if rules.rounding == "nearest_ten":
        scoring.append(text.gettext("Scores are rounded to the nearest ten (5 upward)."))
    return Section(text.gettext("Scoring"), scoring, link="scoring")


def _classic_contract(rules: Rules, text: Wording) -> list[str]:
    """docs/rules.md 8: when a taken contract is made, and what a tie gives (knob ``tie``)."""
    paragraphs: list[str] = []
    if rules.tie == "made":
        paragraphs.append(
            text.gettext(
                "The contract is made when the takers' card points plus their belote are at "
                "least the defenders' total: each team then scores its total. Otherwise the "
                "takers score 0 and the defenders receive all the card points and both teams' "
                "belote."
            )
        )
    else:
        paragraphs.append(
            text.gettext(
                "Each team's total is its card points, its announcements and its belote. The "
                "contract is made when the takers' total is greater than the defenders': each "
                "team then scores its total. If it fails, the takers score nothing but their "
                "belote and the defenders score 162 and every accepted announcement, those the "
                "takers won in the comparison included."
            )
        )
        if rules.tie == "litige":
            paragraphs.append(
                text.gettext(
                    "Equal totals are a litige: the defenders score their points, and the "
                    "takers' points wait in reserve for the team that wins the next deal. The "
                    "belote is never put in reserve: it stays with the team that held it."
                )
            )
    return paragraphs


def _auction_contract(rules: Rules, text: Wording) -> list[str]:
    """docs/rules.md 8: when a bid contract is made, and what made, failed, coinched and
    surcoinched contracts score."""
    paragraphs: list[str] = []
    # docs/rules.md 8 (FFB 10.1.1): the bid reached and, where the knob says so, more points
    # than the defence.
    must_beat = getattr(rules, "contract_must_beat_defence", True)
    paragraphs.append(
        text.gettext(
            "The takers make their contract when their points (cards, last trick and "
            "belote) reach the bid and are greater than the defenders' points, counted the "
            "same way."
            if must_beat
            else "The takers make their contract when their points (cards, last trick and "
            "belote) reach the bid."
        )
    )
    paragraphs.append(
        text.format(
            "Made: they score their points plus the bid, the defenders their own points. "
            "Failed: the takers score only their belote, the defenders {base} plus the bid. "
            "A capot, bid or not, scores {capot} plus the bid. Coinched, the winning side "
            "scores ({base} + the bid) × 2, or ({capot} + the bid) × 2 for a capot; "
            "surcoinched, × 4. The belote always stays with the team that held it.",
            base=rules.failed_base,
            capot=rules.capot_points,
        )
    )
    return paragraphs


def _match_section(rules: Rules, text: Wording) -> Section:
    """docs/rules.md 9: the match."""
    match = (
        text.nformat(
            "Deals follow one another until a team reaches {target} point; the higher total "
            "wins. After each deal, the next player deals.",
            "Deals follow one another until a team reaches {target} points; the higher total "
            "wins. After each deal, the next player deals.",
            rules.target,
            target=rules.target,
        )
        if rules.target is not None
        else text.gettext("A single deal is played.")
    )
    return Section(text.gettext("The match"), [match])


SECTIONS: Final[tuple[Callable[[Rules, Wording], Section], ...]] = (
    _cards_section,
    _seats_section,
    _dealing_section,
    _play_section,
    _belote_section,
    _announcements_section,
    _scoring_section,
    _match_section,
)
"""The sections of a preset's rules, in the order of docs/rules.md."""


# docs/rules.md 10: the knobs that differ between presets, as the comparison table shows them.
KNOB_ROWS: Final = (
    ("Bidding", "bidding", {"classic": "Two rounds", "auction": "Auction 80–160, coinche"}),
    ("Deck", "deck", {"french": "French", "spanish": "Spanish-suited"}),
    (
        "Lower trump when you cannot overtrump",
        "undertrump",
        {"required": "Required", "optional": "Optional"},
    ),
    ("Announcements", "announcements", {True: "Sequences and carrés", False: "None"}),
    (
        "Your partner winning, you trump over a trump",
        "overtrump_when_trumping_partner",
        {True: "Beat it if you can", False: "Any trump"},
    ),
    ("Belote–rebelote", "belote_declaration", {"automatic": "Automatic", "declared": "Said"}),
    (
        "Belote when the contract fails",
        "belote_on_failure",
        {"kept": "Kept", "to_defenders": "To the defenders"},
    ),
    ("Equal totals", "tie", {"litige": "Litige", "made": "Made", "failed": "Failed"}),
    ("Scores", "rounding", {"exact": "Exact", "nearest_ten": "Rounded to the ten"}),
)


def knob_table(text: Wording) -> list[list[str]]:
    """The comparison of the four presets (docs/rules.md 10): a header row, then one row a knob."""
    rows = [[""] + [preset_title(name, text) for name in PRESETS]]
    for label, knob, values in KNOB_ROWS:
        row = [text.gettext(label)]
        for rules in PRESETS.values():
            value = getattr(rules, knob)
            if knob == "tie" and rules.bidding == "auction":
                row.append("—")  # docs/rules.md 10: no tie rule at the coinche table
            else:
                row.append(text.gettext(values[value]))
        rows.append(row)
    row = [text.gettext("Match")]
    for rules in PRESETS.values():
        row.append(
            text.nformat(
                "To {target} point", "To {target} points", rules.target, target=rules.target
            )
            if rules.target is not None
            else text.gettext("One deal")
        )
    rows.append(row)
    return rows


PRESET_SUMMARIES: Final[dict[str, tuple[str, str]]] = {
    "cardavia": (
        "A single deal: you partner the computer against two computer opponents. Two rounds of "
        "bidding, belote–rebelote only.",
    )
    * 2,
    "maison": (
        "Two rounds of bidding, announcements, a match to {target} point.",
        "Two rounds of bidding, announcements, a match to {target} points.",
    ),
    "coinche": (
        "An auction with coinche and surcoinche, a match to {target} point.",
        "An auction with coinche and surcoinche, a match to {target} points.",
    ),
    "maghreb": (
        "Two rounds of bidding and announcements with the Spanish-suited deck, a match to "
        "{target} point.",
        "Two rounds of bidding and announcements with the Spanish-suited deck, a match to "
        "{target} points.",
    ),
}
"""Each preset's line on the rules' index, a plural message by its target (a single deal's
reads the same either way)."""


def _summary(name: str, rules: Rules, text: Wording) -> str:
    """A preset's line on the index: a match's by its target, a single deal's as it is."""
    singular, plural = PRESET_SUMMARIES[name]
    if rules.target is None:
        return text.gettext(singular)
    return text.nformat(singular, plural, rules.target, target=rules.target)


def index_page(text: Wording) -> dict[str, Any]:
    """The index of the rules pages."""
    return {
        "title": text.gettext("Rules of belote"),
        "intro": text.gettext(
            "Belote is played by four players in two teams with 32 cards. Cardavia plays "
            "several sets of rules: choose one to read its full rules, or read the worked "
            "examples."
        ),
        "presets": [
            {
                "key": name,
                "title": preset_title(name, text),
                "summary": _summary(name, rules, text),
            }
            for name, rules in PRESETS.items()
        ],
        "topics": [{"key": key, "title": text.gettext(TOPIC_TITLES[key])} for key in TOPICS],
        "knobs": knob_table(text),
        "knobs_caption": text.gettext("What differs from one set of rules to another"),
        "presets_heading": text.gettext("Sets of rules"),
        "topics_heading": text.gettext("Worked examples"),
    }


def preset_page(name: str, text: Wording) -> dict[str, Any]:
    """The full rules of a preset."""
    rules = find_rules(name)
    return {
        "title": text.format("Full rules: {preset}", preset=preset_title(rules, text)),
        "preset": name,
        "sections": preset_sections(rules, text),
        "points": card_point_rows(rules, text.with_deck(rules.deck)),
        "points_caption": text.gettext("Card points"),
        "points_headers": [
            text.gettext("Card"),
            text.gettext("Trump"),
            text.gettext("Other suits"),
        ],
        "deck_headers": [
            text.gettext("Number"),
            text.gettext("Spanish-suited deck"),
            text.gettext("French deck"),
        ],
        "summary": _summary(name, rules, text),
        "see_examples": text.gettext("Worked examples:"),
        "topic_titles": {key: text.gettext(title) for key, title in TOPIC_TITLES.items()},
    }


def legal_cards_page(text: Wording) -> dict[str, Any]:
    """ "Which card may I play?": the summary and the nine examples of docs/rules.md 11."""
    return {
        "title": text.gettext(TOPIC_TITLES["legal-cards"]),
        "summary_title": text.gettext("In short"),
        "summary": [
            text.gettext("If you hold the suit led, you must play it."),
            text.gettext(
                "If trump is led, you must play a higher trump if you can, even over your "
                "partner's."
            ),
            text.gettext(
                "If you do not hold the suit led: when your partner is winning the trick, you "
                "may play any card; otherwise you must trump, higher than the opponent if you "
                "can."
            ),
            text.gettext(
                "When your partner is winning and you choose to trump over a trump already in "
                "the trick, house and Maghreb rules make you beat it if you can; coinche with "
                "the official rules lets you play any card, a lower trump included."
            ),
            text.gettext(
                "If you cannot beat the opponent's trump, house rules still make you play a "
                "lower trump; coinche with the official rules lets you play any card."
            ),
            text.gettext("In no trump, follow the suit led if you can; otherwise any card."),
        ],
        "intro": text.gettext(
            "The app applies these rules by itself: it only lets you put down a legal card. "
            "Every example below is computed by the app's engine and checked a second time by "
            "an independent implementation of the rules."
        ),
        "examples": legal_views(text),
        "labels": _example_labels(text),
    }


def _announcement_rules(text: Wording, spanish: Wording) -> list[str]:
    """docs/rules.md 7: sequences and carrés, in both decks, and when they are made."""
    return [
        text.format(
            "A sequence is three or more cards of one suit in a row, in the order {french}. "
            "With the Spanish-suited deck the order is {spanish}: there is no 8 or 9, so the "
            "7 and the 10 are in a row, and the 1 comes after the 12.",
            french=_spaced([prose_label(r, text.with_deck("french")) for r in range(8)], text),
            spanish=_spaced(list(SPANISH.rank_labels), text),
        ),
        text.gettext(
            "A sequence of three cards (tierce) is worth 20, of four (fifty) 50, of five or "
            "more (hundred) 100."
        ),
        text.format(
            "A carré is the four cards of one rank: {carres}. A carré of eights or sevens "
            "is worth nothing and beats nothing.",
            carres=_carres(text),
        ),
        text.format(
            "With the Spanish-suited deck: {carres}; the 4s and 5s are worth nothing and "
            "beat nothing.",
            carres=_carres(spanish),
        ),
        text.gettext(
            "A card serves in one announcement only: when several combinations are "
            "possible, announce the one worth most points (the app proposes it). The king "
            "and queen of trump may serve in an announcement and in belote–rebelote as "
            "well."
        ),
        text.gettext(
            "Announcements are made during the first trick, as you play your first card; "
            "after that it is too late. Announcing is optional. At first only the kind and "
            "the value are said; the cards are shown at the comparison, and only if the "
            "announcement counts."
        ),
    ]


def _comparison_steps(text: Wording, spanish: Wording) -> list[str]:
    """docs/rules.md 7.4: how the two teams' best announcements are compared, step by step."""
    return [
        text.gettext("the one worth more points;"),
        text.gettext("at equal points (100 against 100), the carré over the sequence;"),
        text.format(
            "between two sequences of equal points: the longer, then the one ending on the "
            "higher card (in the order {french}; with the Spanish-suited deck {spanish}), "
            "then the one in trump;",
            french=_spaced([prose_label(r, text) for r in range(8)], text),
            spanish=_spaced([prose_label(r, spanish) for r in range(8)], spanish),
        ),
        text.format(
            "between two carrés of equal points: the higher rank in sequence order "
            "({french}; with the Spanish-suited deck {spanish});",
            french=_carre_order(text),
            spanish=_carre_order(spanish),
        ),
        text.gettext(
            "in a complete tie, no announcement counts for either team, and none is shown."
        ),
    ]


def _belote_rules(text: Wording, spanish: Wording) -> list[str]:
    """docs/rules.md 6: belote–rebelote, in both decks."""
    return [
        text.format(
            "The player who holds the {king} and the {queen} of trump (with the "
            "Spanish-suited deck, {spanish_king} and {spanish_queen}) says “belote” with the "
            "first of the two cards and “rebelote” with the second: 20 points. At the "
            "Cardavia table it is automatic, for the player who has held both since the "
            "deal.",
            king=RankArg(6),
            queen=RankArg(5),
            spanish_king=spanish.expand(r=RankArg(6))["r_the"],
            spanish_queen=spanish.expand(r=RankArg(5))["r_the"],
        ),
        text.gettext("Belote–rebelote is not an announcement: it takes no part in the comparison."),
    ]


def announcements_page(text: Wording) -> dict[str, Any]:
    """Sequences, carrés, belote–rebelote and the comparison (docs/rules.md 6 and 7, seed 002)."""
    spanish = text.with_deck("spanish")
    return {
        "title": text.gettext(TOPIC_TITLES["announcements"]),
        "paragraphs": _announcement_rules(text, spanish),
        "comparison_title": text.gettext("The comparison"),
        "comparison_intro": text.gettext(
            "At the start of the second trick, each team's single best announcement is "
            "compared. The better one is:"
        ),
        "comparison": _comparison_steps(text, spanish),
        "comparison_after": text.gettext(
            "The winning team shows its cards and scores all its announcements, its partner's "
            "too, even those weaker than the other team's best. The other team shows nothing "
            "and scores nothing. A team that alone announced wins the comparison."
        ),
        "belote_title": text.gettext("Belote–rebelote"),
        "belote": _belote_rules(text, spanish),
        "examples_title": text.gettext("Worked examples"),
        "examples": announcement_views(text),
        "labels": _example_labels(text),
    }


def scoring_page(text: Wording) -> dict[str, Any]:
    """Worked calculations of docs/rules.md 8."""
    return {
        "title": text.gettext(TOPIC_TITLES["scoring"]),
        "paragraphs": [
            text.format(
                "Each team counts the points of the cards in its tricks; the last trick adds 10 "
                "(dix de der): 162 in all. A team that takes all eight tricks makes capot: "
                "{capot} at the classic tables; at the coinche table a capot scores "
                "{capot_coinche} plus the bid, bid or not. On a capot, the team that made it "
                "also scores the announcements of the team that took no trick.",
                capot=find_rules("maison").capot_points,
                capot_coinche=find_rules("coinche").capot_points,
            ),
            text.gettext(
                "At the classic tables, each team's total is its card points, its accepted "
                "announcements and its belote; the takers must have more than the defenders. "
                "If they fail, the defenders score 162 and every accepted announcement, those "
                "the takers won in the comparison included. In a litige the belote is never "
                "put in reserve: it stays with the team that held it."
            ),
            _coinche_contract(text),
        ],
        "examples": scoring_views(text),
        "labels": _example_labels(text)
        | {
            "tricks": text.gettext("The eight tricks"),
            "trick": text.gettext("Trick"),
            "leader": text.gettext("Led by"),
            "cards": text.gettext("Cards"),
            "winner": text.gettext("Won by"),
            "points": text.gettext("Points"),
            "calculation": text.gettext("The calculation"),
        },
    }


def _example_labels(text: Wording) -> dict[str, str]:
    return {
        "example": text.gettext("Example"),
        "trick_so_far": text.gettext("The trick so far"),
        "verified": text.gettext("Verified: computed by the engine and checked a second time."),
        "unverified": text.gettext(
            "Not verified: the two checks of the rules disagree on this example."
        ),
        "ns": text.gettext("N–S"),
        "ew": text.gettext("E–W"),
    }
