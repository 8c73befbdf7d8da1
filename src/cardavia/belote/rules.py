"""Rule sets: every knob of docs/rules.md as one frozen value, and the four presets
(docs/rules.md 10).

Where docs/rules.md is silent the choice is written in ``docs/rules-decisions.md`` and recalled in
each knob's docstring.

>>> find_rules("coinche").undertrump
'optional'
>>> find_rules("maison").replace(tie="made").tie
'made'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, Literal

from cardavia.belote.cards import DECKS, Deck

DeckName = Literal["french", "spanish"]
Bidding = Literal["classic", "auction"]
Undertrump = Literal["required", "optional"]
NoTrumpPoints = Literal["scaled", "plain"]
AllTrumpPoints = Literal["scaled", "trump"]
BeloteDeclaration = Literal["automatic", "declared"]
BeloteOnFailure = Literal["kept", "to_defenders"]
Tie = Literal["litige", "made", "failed"]
Rounding = Literal["nearest_ten", "exact"]
TopBids = Literal["capot", "generale"]

_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "deck": ("french", "spanish"),
    "bidding": ("classic", "auction"),
    "first_packets": ("3-2", "2-3"),
    "auction_packets": ("3-2-3", "3-3-2", "2-3-3", "4-4"),
    "top_bids": ("capot", "generale"),
    "undertrump": ("required", "optional"),
    "no_trump_points": ("scaled", "plain"),
    "all_trump_points": ("scaled", "trump"),
    "belote_declaration": ("automatic", "declared"),
    "belote_on_failure": ("kept", "to_defenders"),
    "tie": ("litige", "made", "failed"),
    "capot_points": (252, 250),
    "failed_base": (160, 162),
    "rounding": ("nearest_ten", "exact"),
}
MATCH_TARGETS: Final = (501, 701, 1000, 1500, 2000)
"""The match targets of docs/rules.md 9."""


CHANGED_MARK: Final = "+"
"""Ends the name of a rule set whose knobs differ from its preset's (``maison+``)."""


def preset_name(name: str) -> str:
    """The preset a rule set's name was made from: the name without its changed mark.

    >>> preset_name("maison+"), preset_name("coinche")
    ('maison', 'coinche')
    """
    return name.removesuffix(CHANGED_MARK)


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set: every point that real tables play differently (docs/rules.md), as one value.

    Build one from a preset with :func:`find_rules` and change knobs with :meth:`replace`;
    the constructor checks every value.
    """

    name: str = "cardavia"
    """The preset the set was made from (with ``+`` when knobs were changed)."""

    deck: DeckName = "french"
    """The deck shown: French suits, or the Spanish-suited deck of the Maghreb tables
    (docs/rules.md 1). A presentation choice only: the game is the same."""

    bidding: Bidding = "classic"
    """``classic``: two rounds with a turned card (docs/rules.md 4, seed 004); ``auction``: the
    coinche auction with coinche and surcoinche (FFB contrée)."""

    first_packets: Literal["3-2", "2-3"] = "3-2"
    """Classic tables: the packets of the first distribution (docs/rules.md 3; 3 then
    2, seed 004)."""

    auction_packets: Literal["3-2-3", "3-3-2", "2-3-3", "4-4"] = "3-2-3"
    """Coinche tables: the packets of the whole distribution (docs/rules.md 3: 3-2-3)."""

    round2_contracts: bool = False
    """Classic round 2 may also name no-trump or all-trump (docs/rules.md 4; off by default)."""

    auction_contracts: bool = False
    """The auction may also bid no-trump or all-trump (docs/rules.md 4; off by default)."""

    top_bids: TopBids = "capot"
    """After 160: ``capot`` only; or ``generale``: 170, 180, capot and générale
    (docs/rules.md 4)."""

    coinche_any_time: bool = False
    """An opponent may coinche out of turn (docs/rules.md 4; FFB: in turn only)."""

    outbid_after_coinche: bool = False
    """After a coinche, any player may still outbid, which cancels the coinche (a house
    practice). Off (FFB contrée: "le fait de coincher fige le contrat"): the coinche freezes
    the contract, and the bidder's team may only surcoinche or pass (docs/rules.md 4)."""

    overtrump_partner_on_trump_lead: bool = True
    """On a trump lead, overtrump even the partner's trump (docs/rules.md 5.1; on in every preset,
    seeds 000–003)."""

    must_trump_partner: bool = False
    """Trump even when the partner is master (docs/rules.md 5.2; off: the card is free)."""

    overtrump_when_trumping_partner: bool = True
    """Choosing to trump over a master partner, overtrump if possible (docs/rules.md 5.2; seed 004:
    Cardavia, Maison, Maghreb). Off in the coinche preset (FFB contrée 2016, 5.2.3: when the
    partner has trumped and holds the trick, any card, a lower trump included)."""

    undertrump: Undertrump = "required"
    """An opponent's trump that cannot be beaten: ``required``, play a lower trump anyway
    (Maison, Cardavia, Maghreb: "pisser"); ``optional``, any card (coinche, official rules,
    seeds 000/001/003)."""

    no_trump_points: NoTrumpPoints = "scaled"
    """Card values in no-trump: ``scaled`` (A 19 … : 152 in the cards) or ``plain`` (A 11 … :
    120). docs/rules.md 1; scaled is the usual coinche scale."""

    all_trump_points: AllTrumpPoints = "scaled"
    """Card values in all-trump: ``scaled`` (J 14, 9 9, A 6, 10 5, K 3, Q 1: 152) or ``trump``
    (J 20 … in every suit: 248). docs/rules.md 1."""

    announcements: bool = False
    """Sequences and carrés are announced in the first trick (docs/rules.md 7, seed 002)."""

    belote_declaration: BeloteDeclaration = "automatic"
    """``automatic``: playing the trump K and Q scores 20 by itself (seed 004); ``declared``:
    the holder must say "belote" with the first card, or it is worth 0 (seed 002). The
    rebelote follows by itself with the second card (docs/rules-decisions.md)."""

    belote_on_failure: BeloteOnFailure = "kept"
    """On a failed contract the takers' belote is ``kept`` by them (seed 002, FFB) or goes
    ``to_defenders`` (seed 004)."""

    belote_counts_for_contract: bool = True
    """The belote counts toward making the contract (docs/rules.md 6; seed 004)."""

    belote_in_all_trump: bool = False
    """In all-trump, every suit's K–Q pair is a belote (docs/rules.md 6; off). Never in no-trump."""

    tie: Tie = "litige"
    """Classic tables, the takers' total equal to the defenders': ``litige`` (the takers'
    points wait in reserve for the winner of the next deal), ``made`` or ``failed``
    (docs/rules.md 8)."""

    capot_points: Literal[252, 250] = 252
    """Card points of a team that takes all eight tricks under the usual scales (docs/rules.md 8:
    252, the last-trick 10 replaced by 100; 250 in the coinche preset, FFB "250 points si
    capot réalisé, même non demandé"). Under the ``plain`` and ``trump`` scales the capot is
    that scale's total less 162 more (docs/rules-decisions.md)."""

    contract_must_beat_defence: bool = True
    """Coinche tables: the takers' points must reach the bid and also be greater than the
    defenders' points counted the same way (docs/rules.md 8; FFB contrée rule book 10.1.1). Off:
    reaching the bid is enough (a house practice)."""

    failed_base: Literal[160, 162] = 160
    """Coinche: the base scored on a failed or coinched contract, with the bid (docs/rules.md 8)."""

    rounding: Rounding = "exact"
    """Deal scores ``exact``, or rounded to the ``nearest_ten`` (5 upward; coinche preset).
    Rounding never decides whether a contract is made (docs/rules.md 8)."""

    target: int | None = None
    """``None``: a single deal (the Cardavia table, seed 004); otherwise the match target
    (docs/rules.md 9)."""

    def __post_init__(self) -> None:
        for knob, choices in _CHOICES.items():
            value = getattr(self, knob)
            if value not in choices or isinstance(value, bool):
                raise ValueError(f"rules knob {knob!r}: {value!r} is not one of {choices}")
        for knob in (
            "round2_contracts",
            "auction_contracts",
            "coinche_any_time",
            "outbid_after_coinche",
            "overtrump_partner_on_trump_lead",
            "must_trump_partner",
            "overtrump_when_trumping_partner",
            "announcements",
            "belote_counts_for_contract",
            "belote_in_all_trump",
            "contract_must_beat_defence",
        ):
            if not isinstance(getattr(self, knob), bool):
                raise ValueError(f"rules knob {knob!r} must be true or false")
        if self.target is not None and (
            not isinstance(self.target, int) or isinstance(self.target, bool) or self.target <= 0
        ):
            raise ValueError(f"rules knob 'target': {self.target!r} is not a positive number")

    @property
    def deck_names(self) -> Deck:
        """The :class:`~cardavia.belote.cards.Deck` that names the cards."""
        return DECKS[self.deck]

    @property
    def preset(self) -> str:
        """The name of the preset this set was made from (its name says, with a ``+``,
        whether knobs were changed since: :func:`preset_name`)."""
        return preset_name(self.name)

    @property
    def is_match(self) -> bool:
        """Whether deals go on to a target (otherwise a single deal)."""
        return self.target is not None

    def replace(self, **knobs: Any) -> Rules:
        """A copy with some knobs changed (checked); the name records the change."""
        unknown = set(knobs) - set(KNOBS)
        if unknown:
            raise ValueError(f"unknown rules knob(s): {', '.join(sorted(unknown))}")
        changed = {k: v for k, v in knobs.items() if getattr(self, k) != v}
        rules = dataclasses.replace(self, **changed)
        base = self.preset
        if "name" not in knobs and base in PRESETS:
            # The name says whether the set still is the preset it was made from.
            name = base + (CHANGED_MARK if rules.differences() else "")
            rules = dataclasses.replace(rules, name=name)
        return rules

    def as_dict(self) -> dict[str, object]:
        """The knobs as plain data, by the names of docs/rules-decisions.md."""
        return {knob: getattr(self, knob) for knob in KNOBS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The rule set of :meth:`as_dict`'s data: a preset's name plus any changed knobs."""
        base = find_rules(preset_name(str(data.get("name", "cardavia"))))
        knobs = {k: v for k, v in data.items() if k != "name"}
        rules = base.replace(**knobs)
        return dataclasses.replace(rules, name=str(data.get("name", rules.name)))

    def differences(self) -> dict[str, object]:
        """The knobs that differ from the preset this set was made from."""
        base = find_rules(self.preset)
        return {
            k: getattr(self, k)
            for k in KNOBS
            if k != "name" and getattr(self, k) != getattr(base, k)
        }


KNOBS: Final = tuple(f.name for f in dataclasses.fields(Rules))
"""Every knob's name, in declaration order."""

PRESETS: Final[dict[str, Rules]] = {
    # The Cardavia single-deal table (seed 004).
    "cardavia": Rules(
        name="cardavia",
        undertrump="required",
        belote_declaration="automatic",
        belote_on_failure="to_defenders",
        tie="made",
    ),
    # House rules (seeds 000–003).
    "maison": Rules(
        name="maison",
        announcements=True,
        belote_declaration="declared",
        belote_on_failure="kept",
        tie="litige",
        target=1000,
    ),
    # Coinche, official rules (FFB contrée; seeds 000–003).
    "coinche": Rules(
        name="coinche",
        bidding="auction",
        # FFB contrée 2016, 5.2.3: over a partner who trumped and holds the trick, any card.
        overtrump_when_trumping_partner=False,
        undertrump="optional",
        belote_declaration="declared",
        belote_on_failure="kept",
        # FFB contrée: "250 points si capot réalisé, même non demandé".
        capot_points=250,
        rounding="nearest_ten",
        target=2000,
    ),
    # The Maghreb tables with the Spanish-suited deck (seed 002).
    "maghreb": Rules(
        name="maghreb",
        deck="spanish",
        announcements=True,
        belote_declaration="declared",
        belote_on_failure="kept",
        tie="litige",
        target=1000,
    ),
}
ALIASES: Final = {
    "table": "cardavia",
    "house": "maison",
    "contree": "coinche",
    "contrée": "coinche",
    "official": "coinche",
    "spanish": "maghreb",
}


def find_rules(name: str) -> Rules:
    """The preset of that name or alias (case-insensitive): ``cardavia``, ``maison``,
    ``coinche``, ``maghreb``.

    >>> find_rules("Contrée").name
    'coinche'
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(f"unknown rules {name!r}: expected one of {', '.join(PRESETS)}") from None
