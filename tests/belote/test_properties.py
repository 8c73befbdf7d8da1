"""The engine against the second check, on many random deals.

Each deal is dealt by the engine (:mod:`cardavia.belote`), bid and played with random legal
actions (the announce and belote flags included), and checked against the second check
(:mod:`cardavia.verify`), which reads nothing of the engine but plain card codes:

- at every play, the engine's legal cards equal ``verify.legal_cards``, and the flag variants
  offered are exactly those the hand allows (announce: the hand has announcements and it is the
  first trick; belote: declared belote, the first of a trump K–Q held together);
- the announcements the engine proposes and declares are ``verify.best_announcements``;
- every completed trick has verify's winner and points;
- every finished deal has verify's scores, contract outcome, reserve and capot, its card points
  add up to the contract's total, verify finds nothing wrong in its record, and it replays to
  the same state from its initial state and actions.

Volume: :func:`test_preset_deals` plays ``DEALS_PER_PRESET`` finished deals for each preset
(in ``CHUNKS`` seeded tests, so that ``pytest -n 2`` shares them out; each asserts its share),
with the preset as it is and four knob variants (no-trump and all-trump contracts on, then
most knobs turned away from the preset); about 2.3 ms of CPU a deal, 90 s in all. Then
hypothesis: :func:`test_random_knobs` draws every knob, :func:`test_presets_uniform_actions`
draws every action uniformly, and :func:`test_capot_and_generale_bids` stacks the deck so
that capot and générale bids are made.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia import verify
from cardavia.belote import (
    Action,
    Bid,
    CardSet,
    Coinche,
    DealState,
    Pass,
    Phase,
    Play,
    Rules,
    Seat,
    Surcoinche,
    Take,
    card_code,
    find_rules,
    parse_card,
)
from cardavia.belote.rules import _CHOICES
from cardavia.verify.scoring import (
    read_announcements,
    read_belote_declared,
    read_tricks,
    team_announcements,
    team_belote,
    team_card_points,
)

PRESET_NAMES: tuple[str, ...] = ("cardavia", "maison", "coinche", "maghreb")
DEALS_PER_PRESET = int(os.environ.get("CARDAVIA_DEALS_PER_PRESET", "2500"))
"""Finished (not cancelled) deals played and checked for each preset: 2,500 on every run of
the suite (each chunk from its own fixed seed, so a run is repeatable), more on demand
(``CARDAVIA_DEALS_PER_PRESET=10000`` before a release: about four times as long)."""
CHUNKS = 2
"""Each preset's deals are split into this many tests, for ``pytest -n``."""
STRAIN_CODES: tuple[str, ...] = ("S", "H", "D", "C", "NT", "AT")
BOOLEAN_KNOBS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if isinstance(f.default, bool)
)

Knobs = Mapping[str, object]


# ---------------------------------------------------------------------------------------------
# What was played, for the coverage checks
# ---------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the deals of one test covered."""

    deals: int = 0
    cancelled: int = 0
    strains: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    coinches: Counter[int] = field(default_factory=Counter)
    capots: int = 0
    announced: int = 0
    belotes_said: int = 0

    def add(self, state: DealState) -> None:
        """Count one deal that is over."""
        if state.phase == Phase.CANCELLED:
            self.cancelled += 1
            return
        assert state.result is not None and state.contract is not None
        self.deals += 1
        self.strains[state.contract.strain.code] += 1
        self.outcomes[{True: "made", False: "failed", None: "litige"}[state.result.made]] += 1
        self.coinches[state.contract.coinche] += 1
        self.capots += state.result.capot is not None
        self.announced += any(state.declared)
        self.belotes_said += any(event.word == "rebelote" for event in state.belote_events)


# ---------------------------------------------------------------------------------------------
# Translating the engine's values into the second check's plain data
# ---------------------------------------------------------------------------------------------


def codes(cards: CardSet) -> list[str]:
    """The card codes of a set of cards."""
    return [card_code(card) for card in cards]


def trick_codes(state: DealState) -> list[tuple[str, str]]:
    """The trick on the table as (seat, card code)."""
    return [(seat.name, card_code(card)) for seat, card in state.trick]


def announcement_sets(cards: Sequence[int] | Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """Announcements as sorted card-code sets (engine masks or verify's sets)."""
    sets = [
        frozenset(codes(CardSet(item))) if isinstance(item, int) else frozenset(item)
        for item in cards
    ]
    return sorted(sets, key=sorted)


def deal_record(state: DealState, *, belote_by_seat: bool = False) -> dict[str, object]:
    """The finished deal as the second check reads it (see ``verify.score_deal``).

    ``belote_declared`` lists the cards played with the belote flag, or with
    ``belote_by_seat`` the seats that played them.
    """
    contract = state.contract
    assert contract is not None
    announcements = {
        seat.name: [codes(CardSet(item.cards)) for item in state.declared[seat]]
        for seat in Seat
        if state.declared[seat]
    }
    said = [
        action.seat.name if belote_by_seat else card_code(action.card)
        for action in state.history
        if isinstance(action, Play) and action.belote
    ]
    return {
        "contract": {
            "taker": contract.taker.name,
            "trump": contract.strain.code,
            "bid": {250: "capot", 500: "generale"}.get(contract.bid or 0, contract.bid),
            "coinche": contract.coinche,
        },
        "tricks": [
            {"leader": trick.leader.name, "cards": [card_code(card) for card in trick.cards]}
            for trick in state.tricks
        ],
        "announcements": announcements,
        "belote_declared": said,
    }


def card_total(rules: Rules, strain: str, capot: bool) -> int:
    """What the card points of a deal add up to (docs/rules.md 1 and 8, with the point knobs; the
    capot keeps its bonus over the scale's total, docs/rules-decisions.md)."""
    total = 152 + 10
    if strain == "NT" and rules.no_trump_points == "plain":
        total = 120 + 10
    if strain == "AT" and rules.all_trump_points == "trump":
        total = 248 + 10
    return total + (rules.capot_points - 162 if capot else 0)


def belote_suits(rules: Rules, strain: str) -> str:
    """The suits whose K–Q pair is a belote in this contract (docs/rules.md 6)."""
    if strain == "NT":
        return ""
    if strain == "AT":
        return "SHDC" if rules.belote_in_all_trump else ""
    return strain


# ---------------------------------------------------------------------------------------------
# Checking one play, one trick, one deal
# ---------------------------------------------------------------------------------------------


def check_play_options(state: DealState, knobs: Knobs) -> dict[str, tuple[Play, ...]]:
    """Check the engine's legal actions at a play against the second check; answers the
    actions for each legal card code."""
    seat = state.to_move
    assert seat is not None and state.contract is not None
    rules = state.rules
    strain = state.contract.strain.code
    hand = codes(state.hand(seat))
    expected = verify.legal_cards(knobs, strain, trick_codes(state), seat.name, hand)

    by_card: dict[str, list[Play]] = {}
    for action in state.legal_actions:
        assert isinstance(action, Play) and action.seat == seat, action
        by_card.setdefault(card_code(action.card), []).append(action)
    assert set(by_card) == expected, (seat.name, strain, trick_codes(state), hand)
    assert set(codes(state.legal_cards())) == expected
    for card in state.hand(seat):
        if card_code(card) not in expected:
            assert state.refusal(Play(seat, card)) is not None

    # The flag variants: announce with the first card when the hand has announcements;
    # belote with the first of a trump K-Q held together, when it must be declared.
    may_announce = (
        rules.announcements
        and not state.tricks
        and bool(verify.best_announcements(hand, strain)[0])
    )
    belote_firsts = set()
    if rules.belote_declaration == "declared":
        for suit in belote_suits(rules, strain):
            if "K" + suit in hand and "Q" + suit in hand:
                belote_firsts |= {"K" + suit, "Q" + suit}
    for code, actions in by_card.items():
        flags = {(action.announce, action.belote) for action in actions}
        announce = (False, True) if may_announce else (False,)
        belote = (False, True) if code in belote_firsts else (False,)
        assert flags == {(a, b) for a in announce for b in belote}, (code, flags)
        assert len(actions) == len(flags)
    return {code: tuple(actions) for code, actions in by_card.items()}


def check_announcements(state: DealState, seat: Seat) -> None:
    """The announcements the engine proposes to ``seat`` are verify's best set."""
    assert state.contract is not None
    if not state.rules.announcements:
        assert state.best_announcements(seat) == ()
        return
    best, total = verify.best_announcements(codes(state.hand(seat)), state.contract.strain.code)
    proposed = state.best_announcements(seat)
    assert announcement_sets([item.cards for item in proposed]) == announcement_sets(best)
    assert sum(item.points for item in proposed) == total


def check_trick(before: DealState, after: DealState, knobs: Knobs) -> None:
    """The trick just completed has verify's winner and points."""
    assert before.contract is not None
    strain = before.contract.strain.code
    done = after.tricks[-1]
    plays = [(seat.name, card_code(card)) for seat, card in done.plays]
    assert plays == [*trick_codes(before), plays[-1]]
    assert done.winner.name == verify.trick_winner(strain, plays)
    assert done.points == verify.trick_points(knobs, strain, [card for _, card in plays])
    assert after.to_move == done.winner or after.is_over


def check_deal(state: DealState, knobs: Knobs) -> None:
    """A finished deal: verify's score, its card points, a clean record, the same replay."""
    assert state.phase == Phase.OVER and state.result is not None
    assert state.contract is not None
    result = state.result
    strain = state.contract.strain.code
    record = deal_record(state)
    assert verify.deal_problems(knobs, record) == []

    # The parts of the score, each recounted by the second check from the record.
    tricks = read_tricks(record, strain)
    cards = team_card_points(knobs, strain, tricks)
    assert result.card_points == (cards["NS"], cards["EW"])
    assert sum(result.card_points) == card_total(state.rules, strain, result.capot is not None)
    said = read_belote_declared(record)
    belote = team_belote(knobs, strain, tricks, said)
    assert result.belote == (belote["NS"], belote["EW"])
    declared = read_announcements(record)
    announcements = team_announcements(knobs, strain, tricks, declared)
    assert result.announcements == (announcements["NS"], announcements["EW"])
    if state.rules.announcements:
        winner = result.announcement_winner
        assert (winner.name if winner is not None else None) == verify.announcement_winner(
            strain, declared
        )

    # The score itself.
    records = [record]
    if state.contract.strain.is_suit:
        # One belote pair at most per seat: saying it by seat is the same.
        records.append(deal_record(state, belote_by_seat=True))
    for each in records:
        score = verify.score_deal(knobs, each)
        assert (result.scores[0], result.scores[1]) == (score["NS"], score["EW"]), (
            str(result),
            score,
        )
        assert result.made == score["made"]
        assert result.reserve == score["reserve"]
        assert (result.capot.name if result.capot is not None else None) == score["capot"]

    replayed = state.initial().replay(state.history)
    assert replayed == state
    assert replayed.result == result


# ---------------------------------------------------------------------------------------------
# Random bidding and play
# ---------------------------------------------------------------------------------------------


def classic_bid(state: DealState, plan: tuple[int, str] | None) -> Action:
    """Classic bidding: everybody passes but the bidder of the plan (its place in the two
    rounds, and the strain it takes); no plan, everybody passes (the deal is cancelled)."""
    assert state.to_move is not None
    actions = state.legal_actions
    assert Pass(state.to_move) in actions
    if plan is not None and len(state.bids) == plan[0]:
        takes = [a for a in actions if isinstance(a, Take) and a.strain.code == plan[1]]
        assert len(takes) == 1, (plan, actions)
        return takes[0]
    return Pass(state.to_move)


def classic_plan(state: DealState, rng: random.Random) -> tuple[int, str] | None:
    """Who takes what in a classic bidding: a strain drawn among those the rules allow (NT and
    AT only with ``round2_contracts``), taken by a random bidder of the round where it may be
    named; now and then nobody takes."""
    if rng.random() < 0.02:
        return None
    strains = STRAIN_CODES if state.rules.round2_contracts else STRAIN_CODES[:4]
    strain = rng.choice(strains)
    turned = state.turned_card
    assert turned is not None
    first_round = strain == "SHDC"[turned >> 3]
    return (rng.randrange(4) + (0 if first_round else 4), strain)


def auction_move(action: Action) -> tuple[object, ...]:
    """An auction action as the second check writes it: (seat, word[, value, contract])."""
    if isinstance(action, Bid):
        value = {250: "capot", 500: "generale"}.get(action.value, action.value)
        return (action.seat.name, "bid", value, action.strain.code)
    word = {Pass: "pass", Coinche: "coinche", Surcoinche: "surcoinche"}[type(action)]
    return (action.seat.name, word)


def check_auction(state: DealState) -> None:
    """The engine's legal auction actions are the second check's moves (docs/rules.md 4)."""
    moves = [auction_move(action) for action in state.bids]
    expected = verify.auction_moves(state.rules.as_dict(), state.dealer.name, moves)
    assert {auction_move(action) for action in state.legal_actions} == expected, moves


def auction_bid(state: DealState, rng: random.Random) -> Action:
    """A random move of the auction, among the legal ones: pass, a bid (usually a little
    above the last one), a coinche, a surcoinche."""
    check_auction(state)
    actions = state.legal_actions
    bids = [a for a in actions if isinstance(a, Bid)]
    coinches = [a for a in actions if isinstance(a, Coinche)]
    surcoinches = [a for a in actions if isinstance(a, Surcoinche)]
    passes = [a for a in actions if isinstance(a, Pass)]
    assert len(passes) == 1
    roll = rng.random()
    if surcoinches and roll < 0.4:
        return surcoinches[0]
    if coinches and roll < 0.12:
        return rng.choice(coinches)
    bid_chance = 0.65 if state.bids else 0.85
    if bids and rng.random() < bid_chance * (0.5 if state.bids else 1):
        values = sorted({bid.value for bid in bids})
        value = rng.choice(values[:3]) if rng.random() < 0.93 else rng.choice(values)
        return rng.choice([bid for bid in bids if bid.value == value])
    return passes[0]


def play_deal(rules: Rules, rng: random.Random, *, uniform: bool = False) -> DealState:
    """Deal, bid and play one deal with random legal actions, checking it all the way.

    ``uniform``: every action drawn uniformly among the legal ones (many deals are then
    cancelled, and the contracts are mostly high bids); otherwise a random plan that covers
    every contract kind the rules allow.
    """
    state = DealState.deal(rules, dealer=Seat(rng.randrange(4)), rng=rng)
    plan = classic_plan(state, rng) if rules.bidding == "classic" else None
    while state.phase == Phase.BIDDING:
        if uniform:
            if rules.bidding == "auction":
                check_auction(state)
            action = rng.choice(state.legal_actions)
        elif rules.bidding == "classic":
            action = classic_bid(state, plan)
        else:
            action = auction_bid(state, rng)
        state = state.apply(action)
    if state.phase == Phase.CANCELLED:
        return state
    return play_cards(state, rng)


def play_cards(state: DealState, rng: random.Random) -> DealState:
    """Play the deal out with random legal cards (and random flags), checking every play,
    every trick and the score."""
    knobs = state.rules.as_dict()
    first_card_played: set[Seat] = set()
    while state.phase == Phase.PLAYING:
        seat = state.to_move
        assert seat is not None
        options = check_play_options(state, knobs)
        if seat not in first_card_played:
            first_card_played.add(seat)
            check_announcements(state, seat)
        action = rng.choice(options[rng.choice(sorted(options))])
        after = state.apply(action)
        if action.announce:
            assert after.declared[seat] == tuple(state.best_announcements(seat))
        else:
            assert after.declared[seat] == state.declared[seat]
        if len(state.trick) == 3:
            check_trick(state, after, knobs)
        state = after
    check_deal(state, knobs)
    return state


# ---------------------------------------------------------------------------------------------
# Every preset, with a few knob variants, many deals
# ---------------------------------------------------------------------------------------------


def preset_variants(name: str) -> list[Rules]:
    """The preset as it is, then with no-trump and all-trump contracts, then with more knobs
    changed (every point knob and the play knobs turned away from the preset)."""
    base = find_rules(name)
    contracts = base.replace(round2_contracts=True, auction_contracts=True)
    flipped_undertrump = "optional" if base.undertrump == "required" else "required"
    flipped_declaration = "automatic" if base.belote_declaration == "declared" else "declared"
    return [
        base,
        contracts,
        contracts.replace(
            undertrump=flipped_undertrump,
            no_trump_points="plain",
            all_trump_points="trump",
            belote_in_all_trump=True,
            capot_points=250,
            failed_base=162,
            top_bids="generale",
        ),
        contracts.replace(
            must_trump_partner=True,
            overtrump_partner_on_trump_lead=False,
            belote_declaration=flipped_declaration,
            belote_on_failure="to_defenders" if base.belote_on_failure == "kept" else "kept",
            belote_counts_for_contract=False,
            belote_in_all_trump=True,
            tie="failed",
            coinche_any_time=True,
            outbid_after_coinche=not base.outbid_after_coinche,
            contract_must_beat_defence=not base.contract_must_beat_defence,
            rounding="exact" if base.rounding == "nearest_ten" else "nearest_ten",
        ),
        contracts.replace(
            overtrump_when_trumping_partner=not base.overtrump_when_trumping_partner,
            announcements=not base.announcements,
            tie="litige" if base.tie != "litige" else "made",
            first_packets="2-3",
            auction_packets="4-4",
        ),
    ]


@pytest.mark.slow  # 2,500 random deals a preset
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_deals(name: str, chunk: int) -> None:
    """``DEALS_PER_PRESET / CHUNKS`` finished deals of one preset and its variants."""
    variants = preset_variants(name)
    rng = random.Random(f"{name}-{chunk}")
    tally = Tally()
    target = -(-DEALS_PER_PRESET // CHUNKS)
    while tally.deals < target:
        tally.add(play_deal(variants[(tally.deals + tally.cancelled) % len(variants)], rng))
    assert tally.deals * CHUNKS >= DEALS_PER_PRESET
    # Every contract kind came up, and the deals ended every way they can.
    assert set(tally.strains) == set(STRAIN_CODES)
    assert tally.cancelled > 0
    assert {"made", "failed"} <= set(tally.outcomes)
    assert tally.capots > 0
    base = find_rules(name)
    if base.bidding == "auction":
        assert set(tally.coinches) == {0, 1, 2}
    elif base.tie == "litige":
        assert "litige" in tally.outcomes
    assert tally.announced > 0
    assert tally.belotes_said > 0


# ---------------------------------------------------------------------------------------------
# Random knobs
# ---------------------------------------------------------------------------------------------


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset with every knob drawn among its allowed values (rules.py ``_CHOICES`` and the
    booleans)."""
    base = find_rules(draw(st.sampled_from(PRESET_NAMES)))
    knobs: dict[str, object] = {
        knob: draw(st.sampled_from(values)) for knob, values in _CHOICES.items()
    }
    knobs |= {knob: draw(st.booleans()) for knob in BOOLEAN_KNOBS}
    return base.replace(**knobs)


@pytest.mark.slow  # random deals under random knobs
@settings(max_examples=150, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), uniform=st.booleans())
def test_random_knobs(rules: Rules, seed: int, uniform: bool) -> None:
    """Ten deals under a rule set with random knobs, each checked against the second check."""
    rng = random.Random(seed)
    for _ in range(10):
        play_deal(rules, rng, uniform=uniform)


@pytest.mark.slow  # random deals
@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 2**32 - 1),
    contracts=st.booleans(),
)
def test_presets_uniform_actions(name: str, seed: int, contracts: bool) -> None:
    """Deals of each preset with every action drawn uniformly among the legal ones."""
    rules = find_rules(name).replace(round2_contracts=contracts, auction_contracts=contracts)
    rng = random.Random(seed)
    for _ in range(10):
        play_deal(rules, rng, uniform=True)


# ---------------------------------------------------------------------------------------------
# Capot and générale bids that are made: stacked decks
# ---------------------------------------------------------------------------------------------

MASTER_CARDS: dict[str, tuple[str, ...]] = {
    **{suit: tuple(rank + suit for rank in "789TJQKA") for suit in "SHDC"},
    "NT": tuple(rank + suit for rank in "AT" for suit in "SHDC"),
    "AT": tuple(rank + suit for rank in "J9" for suit in "SHDC"),
}
"""Eight cards that take every trick in each contract: all the trumps, the aces and tens in
no-trump, the jacks and nines in all-trump."""


def stacked_deal(
    rules: Rules, dealer: Seat, holder: Seat, strain: str, rng: random.Random
) -> DealState:
    """A coinche deal where ``holder`` is dealt the eight master cards of ``strain``."""
    masters = [parse_card(code) for code in MASTER_CARDS[strain]]
    rest = [card for card in range(32) if card not in masters]
    rng.shuffle(rest)
    hands = {seat: rest[8 * i : 8 * i + 8] for i, seat in enumerate(s for s in Seat if s != holder)}
    hands[holder] = masters
    deck: list[int] = []
    for size in (int(n) for n in rules.auction_packets.split("-")):
        for offset in range(1, 5):
            seat = Seat((dealer + offset) % 4)
            deck += hands[seat][:size]
            hands[seat] = hands[seat][size:]
    return DealState.from_deck(rules, dealer=dealer, deck=deck)


@settings(max_examples=100, deadline=None)
@given(
    rules=rule_sets(),
    strain=st.sampled_from(STRAIN_CODES),
    partner_holds=st.booleans(),
    coinche=st.sampled_from((0, 1, 2)),
    value=st.integers(0, 100),
    seed=st.integers(0, 2**32 - 1),
)
def test_capot_and_generale_bids(
    rules: Rules, strain: str, partner_holds: bool, coinche: int, value: int, seed: int
) -> None:
    """The first bidder bids (any value, capot, générale) and takes every trick, or its
    partner does: a capot either way, a générale only for the taker."""
    rules = rules.replace(bidding="auction", auction_contracts=True)
    rng = random.Random(seed)
    dealer = Seat(rng.randrange(4))
    taker = dealer.next
    holder = taker.partner if partner_holds else taker
    state = stacked_deal(rules, dealer, holder, strain, rng)
    bids = [a for a in state.legal_actions if isinstance(a, Bid) and a.strain.code == strain]
    state = state.apply(bids[value % len(bids)])
    while state.phase == Phase.BIDDING:
        seat = state.to_move
        assert seat is not None
        wanted: list[Action] = []
        if coinche and seat.team != taker.team:
            wanted = [a for a in state.legal_actions if a == Coinche(seat)]
        elif coinche == 2 and seat.team == taker.team:
            wanted = [a for a in state.legal_actions if a == Surcoinche(seat)]
        state = state.apply(wanted[0] if wanted else Pass(seat))
    contract = state.contract
    assert contract is not None
    assert (contract.taker, contract.coinche) == (taker, coinche)
    state = play_cards(state, rng)
    assert state.result is not None
    assert state.result.capot == taker.team
    assert all(trick.winner == holder for trick in state.tricks)
    if contract.bid == 500:
        assert state.result.made is not partner_holds
    else:
        assert state.result.made
