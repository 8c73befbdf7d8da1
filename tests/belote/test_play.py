"""Which card may I play, who wins the trick, what it is worth (docs/rules.md 1, 5 and 11).

Each case is checked twice: through the pure functions of :mod:`cardavia.belote.play`
(``constraint`` / ``legal_mask``) and through a full state made with
``DealState.from_position``, whose refusals carry a reason (code, arguments, English words).
"""

from __future__ import annotations

import pytest

from cardavia.belote import (
    CardSet,
    Contract,
    DealState,
    IllegalActionError,
    Play,
    Reason,
    Rules,
    Seat,
    Strain,
    find_rules,
    parse_card,
)
from cardavia.belote.play import (
    REFUSAL_MESSAGES,
    constraint,
    legal_mask,
    strain_values,
    trick_points,
    trick_winner,
    values_for,
)

MAISON = find_rules("maison")
COINCHE = find_rules("coinche")


def parse_trick(text: str) -> tuple[tuple[Seat, int], ...]:
    """``"W AD, N 8S"`` → ((W, AD), (N, 8S))."""
    if not text.strip():
        return ()
    plays = [part.split() for part in text.split(",")]
    return tuple((Seat[seat], parse_card(card)) for seat, card in plays)


def position(
    rules: Rules, strain: Strain, trick: str, seat: Seat, hand: str, *, taker: Seat = Seat.N
) -> DealState:
    """A state in the middle of a trick: ``seat`` holds ``hand`` and is to play to
    ``trick``; the other seats hold as many other cards as the count requires."""
    plays = parse_trick(trick)
    held = CardSet.parse(hand)
    size = len(held)
    played = {s for s, _ in plays}
    spare = iter(~(held | CardSet(c for _, c in plays)))
    hands = [
        held if s == seat else CardSet(next(spare) for _ in range(size - (s in played)))
        for s in Seat
    ]
    state = DealState.from_position(
        rules,
        contract=Contract(taker, strain),
        hands=hands,
        trick=plays,
        leader=plays[0][0] if plays else seat,
    )
    assert state.to_move == seat
    return state


def legal(rules: Rules, strain: Strain, trick: str, seat: Seat, hand: str) -> CardSet:
    """The legal cards through :func:`legal_mask`."""
    return CardSet(legal_mask(rules, strain, parse_trick(trick), seat, CardSet.parse(hand).mask))


def refusal(rules: Rules, strain: Strain, trick: str, seat: Seat, hand: str, card: str) -> Reason:
    """The reason a full state gives for refusing ``card``; the state is left unchanged."""
    state = position(rules, strain, trick, seat, hand)
    before = state
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(seat, parse_card(card)))
    assert state == before
    assert state.refusal(Play(seat, parse_card(card))) == info.value.reason
    assert str(info.value) == info.value.reason.message
    return info.value.reason


# ---------------------------------------------------------------------------------------------
# docs/rules.md 11: the nine worked examples
# ---------------------------------------------------------------------------------------------

WORKED_EXAMPLES = [
    # (#, rules, trump, trick so far, player, hand, legal)
    (1, MAISON, Strain.HEARTS, "W AS", Seat.N, "KS 7S JH 9C TD", "KS 7S"),
    (2, MAISON, Strain.DIAMONDS, "N 8D, E 9C", Seat.S, "QS 9D 7D TH", "9D"),
    (3, MAISON, Strain.HEARTS, "E AC", Seat.S, "8H QH KS 9D 7S", "8H QH"),
    (4, MAISON, Strain.HEARTS, "N AC, E 7C", Seat.S, "8H QH KS 9D", "8H QH KS 9D"),
    (5, MAISON, Strain.SPADES, "W AD, N 8S", Seat.E, "7S 9S KH", "9S"),
    (6, MAISON, Strain.SPADES, "W AD, N JS", Seat.E, "7S 9S KH QC", "7S 9S"),
    (7, COINCHE, Strain.SPADES, "W AD, N JS", Seat.E, "7S 9S KH QC", "7S 9S KH QC"),
    (8, MAISON, Strain.NO_TRUMP, "S KD", Seat.W, "7D AS AC", "7D"),
    (9, MAISON, Strain.HEARTS, "S AS, W TS, N 7S", Seat.E, "JH KD", "JH"),
]
EXAMPLE_IDS = [f"example-{row[0]}" for row in WORKED_EXAMPLES]


@pytest.mark.parametrize(
    ("number", "rules", "strain", "trick", "seat", "hand", "expected"),
    WORKED_EXAMPLES,
    ids=EXAMPLE_IDS,
)
def test_worked_example_through_legal_mask(
    number: int, rules: Rules, strain: Strain, trick: str, seat: Seat, hand: str, expected: str
) -> None:
    """docs/rules.md 11: each example's legal cards, exactly, from the pure functions."""
    assert legal(rules, strain, trick, seat, hand) == CardSet.parse(expected), number
    values = values_for(rules, strain)
    rule = constraint(rules, values, parse_trick(trick), seat, CardSet.parse(hand).mask)
    assert CardSet(rule.allowed) == CardSet.parse(expected)


@pytest.mark.parametrize(
    ("number", "rules", "strain", "trick", "seat", "hand", "expected"),
    WORKED_EXAMPLES,
    ids=EXAMPLE_IDS,
)
def test_worked_example_through_a_state(
    number: int, rules: Rules, strain: Strain, trick: str, seat: Seat, hand: str, expected: str
) -> None:
    """docs/rules.md 11: the same examples in a full state: the legal cards, the legal actions,
    and every other card of the hand refused."""
    state = position(rules, strain, trick, seat, hand)
    assert state.legal_cards() == CardSet.parse(expected), number
    played = {a.card for a in state.legal_actions if isinstance(a, Play)}
    assert CardSet(played) == CardSet.parse(expected)
    assert all(a.seat == seat for a in state.legal_actions)
    for card in CardSet.parse(hand):
        assert state.is_legal(Play(seat, card)) == (card in CardSet.parse(expected))


@pytest.mark.parametrize(
    ("number", "card", "code", "args", "message"),
    [
        (1, "JH", "must_follow", {"suit": "S"}, "you must follow suit: spades"),
        (1, "TD", "must_follow", {"suit": "S"}, "you must follow suit: spades"),
        (
            2,
            "7D",
            "must_overtrump",
            {"card": "8D"},
            "you must play a trump higher than the eight of diamonds",
        ),
        (
            2,
            "QS",
            "must_overtrump",
            {"card": "8D"},
            "you must play a trump higher than the eight of diamonds",
        ),
        (3, "KS", "must_trump", {"suit": "H"}, "you must trump (hearts)"),
        (
            5,
            "7S",
            "must_overtrump",
            {"card": "8S"},
            "you must play a trump higher than the eight of spades",
        ),
        (
            6,
            "KH",
            "must_undertrump",
            {"card": "JS", "suit": "S"},
            "you cannot beat the jack of spades, but you must still play a trump (spades)",
        ),
        (8, "AS", "must_follow", {"suit": "D"}, "you must follow suit: diamonds"),
        (9, "KD", "must_trump", {"suit": "H"}, "you must trump (hearts)"),
    ],
)
def test_worked_example_refusals(
    number: int, card: str, code: str, args: dict[str, str], message: str
) -> None:
    """docs/rules.md 5: "every refusal carries a reason that the app can show in the player's
    language": a code, its arguments as card and suit codes, and English words."""
    _, rules, strain, trick, seat, hand, _ = WORKED_EXAMPLES[number - 1]
    reason = refusal(rules, strain, trick, seat, hand, card)
    assert reason.code == code
    assert dict(reason.args) == args
    assert reason.message == message
    # The pure function names the same rule.
    values = values_for(rules, strain)
    rule = constraint(rules, values, parse_trick(trick), seat, CardSet.parse(hand).mask)
    assert (rule.code, rule.reason_args()) == (code, args)
    assert not rule.allowed >> parse_card(card) & 1


def test_worked_example_9_east_wins_41() -> None:
    """docs/rules.md 11 #9: East trumps with the JH and wins; the trick is worth
    11 (AS) + 10 (TS) + 0 (7S) + 20 (JH) = 41, and East leads the next trick."""
    state = position(MAISON, Strain.HEARTS, "S AS, W TS, N 7S", Seat.E, "JH KD")
    after = state.apply(Play(Seat.E, parse_card("JH")))
    done = after.tricks[-1]
    assert done.winner == Seat.E
    assert done.points == 11 + 10 + 0 + 20
    assert done.leader == Seat.S
    assert after.to_move == Seat.E
    assert after.trick == ()
    assert after.points == (0, 41)  # E–W took it
    # The same through the pure functions.
    trick = (*parse_trick("S AS, W TS, N 7S"), (Seat.E, parse_card("JH")))
    values = values_for(MAISON, Strain.HEARTS)
    assert trick_winner(values, trick) == Seat.E
    assert trick_points(values, [card for _, card in trick]) == 41


# ---------------------------------------------------------------------------------------------
# docs/rules.md 5: the leader, the other refusal reasons
# ---------------------------------------------------------------------------------------------


def test_leader_plays_anything() -> None:
    """docs/rules.md 5: the first card of a trick is free."""
    hand = "7S JH 9C TD"
    assert legal(MAISON, Strain.HEARTS, "", Seat.N, hand) == CardSet.parse(hand)
    rule = constraint(
        MAISON, values_for(MAISON, Strain.HEARTS), (), Seat.N, CardSet.parse(hand).mask
    )
    assert rule.code == "free"
    assert rule.reason_args() == {}


def test_trump_led_without_trumps_is_free() -> None:
    """docs/rules.md 5.1-5.2: trump led and no trump in hand: any card."""
    assert legal(MAISON, Strain.HEARTS, "N 8H", Seat.E, "7S AD 9C") == CardSet.parse("7S AD 9C")


def test_trump_led_cannot_beat_any_trump() -> None:
    """docs/rules.md 5.1: trump led, no higher trump: any trump, never a side card."""
    assert legal(MAISON, Strain.HEARTS, "N 9H", Seat.E, "AH 8H AS") == CardSet.parse("AH 8H")
    reason = refusal(MAISON, Strain.HEARTS, "N 9H", Seat.E, "AH 8H AS", "AS")
    assert (reason.code, dict(reason.args)) == ("must_follow", {"suit": "H"})
    assert reason.message == "you must follow suit: hearts"


def test_must_overtrump_an_opponent_who_trumped() -> None:
    """docs/rules.md 5.2: an opponent is master with a trump: trump higher if you can."""
    trick = "N AD, E 8S, S 9S"  # S trumped over E: S is master, W's opponent
    assert legal(MAISON, Strain.SPADES, trick, Seat.W, "7S JS KH") == CardSet.parse("JS")
    reason = refusal(MAISON, Strain.SPADES, trick, Seat.W, "7S JS KH", "7S")
    assert (reason.code, dict(reason.args)) == ("must_overtrump", {"card": "9S"})
    assert reason.message == "you must play a trump higher than the nine of spades"


def test_overtrump_if_trumping_over_the_partner() -> None:
    """docs/rules.md 5.2: the partner is master with a trump: any card, but a trump must beat
    the partner's if it can (overtrump_when_trumping_partner, seed 004)."""
    trick = "W AS, N 8H, E 7S"  # N (partner of S) trumped and is master
    hand = "7H JH 9D"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("JH 9D")
    reason = refusal(MAISON, Strain.HEARTS, trick, Seat.S, hand, "7H")
    assert (reason.code, dict(reason.args)) == ("overtrump_if_trumping", {"card": "8H"})
    assert reason.message == "if you trump, you must play higher than the eight of hearts"


def test_partner_master_cannot_beat_the_partners_trump() -> None:
    """docs/rules.md 5.2: partner master with a trump the hand cannot beat: any card, a lower trump
    included."""
    trick = "W AS, N JH, E 7S"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, "7H 8H 9D") == CardSet.parse("7H 8H 9D")


def test_partner_master_every_trump_beats_it() -> None:
    """docs/rules.md 5.2: partner master with a small trump, every trump in hand
    higher: any card."""
    trick = "W AS, N 7H, E 8S"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, "JH 9H 9D") == CardSet.parse("JH 9H 9D")


def test_no_trump_follow_or_anything() -> None:
    """docs/rules.md 5.3: no-trump: follow the suit led if you can, otherwise any card; nobody
    trumps, and the highest card of the suit led wins."""
    assert legal(MAISON, Strain.NO_TRUMP, "S KD", Seat.W, "7D AS AC") == CardSet.parse("7D")
    assert legal(MAISON, Strain.NO_TRUMP, "S KD", Seat.W, "JH AS AC") == CardSet.parse("JH AS AC")
    # Following does not require beating: 7D may go under the KD.
    assert legal(MAISON, Strain.NO_TRUMP, "S KD", Seat.W, "7D AD AC") == CardSet.parse("7D AD")
    values = values_for(MAISON, Strain.NO_TRUMP)
    trick = parse_trick("S KD, W JH, N AS, E 7D")
    assert trick_winner(values, trick) == Seat.S  # no card of another suit can win
    reason = refusal(MAISON, Strain.NO_TRUMP, "S KD", Seat.W, "7D AS AC", "AC")
    assert (reason.code, dict(reason.args)) == ("must_follow", {"suit": "D"})


def test_all_trump_must_beat() -> None:
    """docs/rules.md 5.4: all-trump: follow and beat the highest card of the suit led (in trump
    order J 9 A 10 K Q 8 7) if you can."""
    # KS led: the AS beats it, the QS does not.
    assert legal(MAISON, Strain.ALL_TRUMP, "N KS", Seat.E, "QS AS 7H") == CardSet.parse("AS")
    reason = refusal(MAISON, Strain.ALL_TRUMP, "N KS", Seat.E, "QS AS 7H", "QS")
    assert (reason.code, dict(reason.args)) == ("must_beat", {"card": "KS"})
    assert reason.message == "you must play higher than the king of spades"
    # The master is the 9S (not the led card): only the JS beats it.
    trick = "N KS, E 9S"
    assert legal(MAISON, Strain.ALL_TRUMP, trick, Seat.S, "JS AS 7H") == CardSet.parse("JS")
    # Cannot beat: follow with any card of the suit.
    assert legal(MAISON, Strain.ALL_TRUMP, "N JS", Seat.E, "QS AS 7H") == CardSet.parse("QS AS")
    reason = refusal(MAISON, Strain.ALL_TRUMP, "N JS", Seat.E, "QS AS 7H", "7H")
    assert (reason.code, dict(reason.args)) == ("must_follow", {"suit": "S"})
    # Void in the suit led: any card (no suit trumps another).
    assert legal(MAISON, Strain.ALL_TRUMP, "N JS", Seat.E, "JH 9D AC") == CardSet.parse("JH 9D AC")
    values = values_for(MAISON, Strain.ALL_TRUMP)
    assert trick_winner(values, parse_trick("N KS, E JH, S 9S, W AS")) == Seat.S


def test_all_trump_beat_applies_over_the_partner_too() -> None:
    """docs/rules.md 5.4 has no partner exception: beat the partner's card if you can."""
    assert legal(MAISON, Strain.ALL_TRUMP, "N KS, E 7S", Seat.S, "QS AS") == CardSet.parse("AS")


def test_refusal_messages_cover_every_code() -> None:
    """docs/rules.md 5: an English message for every refusal code that the play can give."""
    assert set(REFUSAL_MESSAGES) == {
        "must_follow",
        "must_overtrump",
        "must_beat",
        "must_trump",
        "must_undertrump",
        "overtrump_if_trumping",
    }


# ---------------------------------------------------------------------------------------------
# docs/rules.md 5: each play knob both ways
# ---------------------------------------------------------------------------------------------


def test_knob_overtrump_partner_on_trump_lead() -> None:
    """docs/rules.md 5.1: trump led and the partner master: overtrump the partner too (on, every
    preset), or any trump (off)."""
    trick = "N QH, E 7H"  # N (partner of S) leads the QH and is master
    hand = "8H JH AS"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("JH")
    reason = refusal(MAISON, Strain.HEARTS, trick, Seat.S, hand, "8H")
    assert (reason.code, dict(reason.args)) == ("must_overtrump", {"card": "QH"})
    off = MAISON.replace(overtrump_partner_on_trump_lead=False)
    assert legal(off, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("8H JH")
    reason = refusal(off, Strain.HEARTS, trick, Seat.S, hand, "AS")
    assert (reason.code, dict(reason.args)) == ("must_follow", {"suit": "H"})
    # Off only spares the partner: an opponent master must still be beaten.
    trick = "N QH, E 7H, S 7C"  # N, an opponent of W, is master
    assert legal(off, Strain.HEARTS, trick, Seat.W, hand) == CardSet.parse("JH")
    reason = refusal(off, Strain.HEARTS, trick, Seat.W, hand, "8H")
    assert (reason.code, dict(reason.args)) == ("must_overtrump", {"card": "QH"})


def test_knob_must_trump_partner() -> None:
    """docs/rules.md 5.2: the partner master and no card of the suit led: any card (off), or trump
    anyway (on)."""
    trick = "N AS, E 7S"  # N (partner of S) is master with the AS
    hand = "8H 9D KC"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse(hand)
    on = MAISON.replace(must_trump_partner=True)
    assert legal(on, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("8H")
    reason = refusal(on, Strain.HEARTS, trick, Seat.S, hand, "9D")
    assert (reason.code, dict(reason.args)) == ("must_trump", {"suit": "H"})


def test_knob_overtrump_when_trumping_partner() -> None:
    """docs/rules.md 5.2: the partner master with a trump: choosing to trump, beat it if you can
    (on, seed 004), or any trump (off)."""
    trick = "W AS, N 8H, E 7S"
    hand = "7H JH 9D"
    assert legal(MAISON, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("JH 9D")
    off = MAISON.replace(overtrump_when_trumping_partner=False)
    assert legal(off, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("7H JH 9D")


def test_coinche_preset_any_card_over_a_trumping_partner() -> None:
    """docs/rules.md 5.2 (FFB contrée 2016, 5.2.3: when the partner has trumped and holds the trick,
    "on peut se défausser de n'importe quelle carte sans exception (y compris un atout
    inférieur au sien)"): in the coinche preset the 7 of hearts under N's 8 is allowed; the
    other presets still ask to beat the 8 when trumping (seed 004)."""
    trick = "W AS, N 8H, E 7S"
    hand = "7H JH 9D"
    assert not COINCHE.overtrump_when_trumping_partner
    assert legal(COINCHE, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("7H JH 9D")
    for name in ("cardavia", "maison", "maghreb"):
        assert legal(find_rules(name), Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("JH 9D")
    on = COINCHE.replace(overtrump_when_trumping_partner=True)
    assert legal(on, Strain.HEARTS, trick, Seat.S, hand) == CardSet.parse("JH 9D")


def test_knob_undertrump() -> None:
    """docs/rules.md 5.2: an opponent's trump that cannot be beaten: play a lower trump anyway
    (required: Maison, docs/rules.md 11 #6) or any card (optional: coinche, #7)."""
    trick = "W AD, N JS"
    hand = "7S 9S KH QC"
    assert legal(MAISON, Strain.SPADES, trick, Seat.E, hand) == CardSet.parse("7S 9S")
    assert legal(COINCHE, Strain.SPADES, trick, Seat.E, hand) == CardSet.parse(hand)
    assert legal(MAISON.replace(undertrump="optional"), Strain.SPADES, trick, Seat.E, hand) == (
        CardSet.parse(hand)
    )
    # Optional undertrumping still obliges to overtrump when one can (docs/rules.md 11 #5).
    assert legal(COINCHE, Strain.SPADES, "W AD, N 8S", Seat.E, "7S 9S KH") == CardSet.parse("9S")
    # ... and to trump when no trump is in the trick yet.
    assert legal(COINCHE, Strain.HEARTS, "E AC", Seat.S, "8H QH KS 9D 7S") == CardSet.parse("8H QH")


def test_knob_must_trump_partner_with_the_partner_trumped() -> None:
    """docs/rules.md 5.2 with must_trump_partner on: the partner master with a trump is treated as
    an opponent: beat it, or (undertrump required) a lower trump."""
    on = MAISON.replace(must_trump_partner=True)
    trick = "W AS, N 9H, E 7S"  # N (partner of S) trumped with the 9H
    assert legal(on, Strain.HEARTS, trick, Seat.S, "JH 7H 9D") == CardSet.parse("JH")
    assert legal(on, Strain.HEARTS, trick, Seat.S, "8H 7H 9D") == CardSet.parse("8H 7H")


# ---------------------------------------------------------------------------------------------
# docs/rules.md 1 and 5.5: strength, points, who wins
# ---------------------------------------------------------------------------------------------


def test_trick_winner_highest_trump_else_highest_of_suit_led() -> None:
    """docs/rules.md 5.5: the highest trump if any trump was played, otherwise the highest card of
    the suit led; strength trump J 9 A 10 K Q 8 7, plain A 10 K Q J 9 8 7."""
    values = values_for(MAISON, Strain.HEARTS)
    assert trick_winner(values, parse_trick("N TS, E AS, S KS, W 7S")) == Seat.E
    assert trick_winner(values, parse_trick("N AS, E 7H, S TS, W AC")) == Seat.E
    assert trick_winner(values, parse_trick("N AS, E 7H, S 8H, W AC")) == Seat.S
    assert trick_winner(values, parse_trick("N AH, E 9H, S TH, W JS")) == Seat.E
    assert trick_winner(values, parse_trick("N 9H, E JH, S AH, W TH")) == Seat.E
    assert trick_winner(values, parse_trick("N 9S, E JS, S 8S, W 7S")) == Seat.E
    assert trick_winner(values, parse_trick("N 7S, E AD, S AC, W 8S")) == Seat.W


@pytest.mark.parametrize(
    ("strain", "knob", "cards", "points"),
    [
        # docs/rules.md 1, trump: J 20, 9 14, A 11, 10 10 -- plain A 11, 10 10, K 4, Q 3.
        (Strain.HEARTS, {}, "JH 9H AH TH", 20 + 14 + 11 + 10),
        (Strain.HEARTS, {}, "AS TS KS QS", 11 + 10 + 4 + 3),
        (Strain.HEARTS, {}, "JS 9S 8S 7S", 2 + 0 + 0 + 0),
        # No-trump, scaled: A 19, 10 10, K 4, Q 3; plain: A 11.
        (Strain.NO_TRUMP, {}, "AS TS KS QS", 19 + 10 + 4 + 3),
        (Strain.NO_TRUMP, {"no_trump_points": "plain"}, "AS TS KS QS", 11 + 10 + 4 + 3),
        # All-trump, scaled: J 14, 9 9, A 6, 10 5; trump: J 20, 9 14, A 11, 10 10.
        (Strain.ALL_TRUMP, {}, "JS 9S AS TS", 14 + 9 + 6 + 5),
        (Strain.ALL_TRUMP, {"all_trump_points": "trump"}, "JS 9S AS TS", 20 + 14 + 11 + 10),
        (Strain.ALL_TRUMP, {}, "KD QD 8D 7D", 3 + 1 + 0 + 0),
    ],
)
def test_card_points(strain: Strain, knob: dict[str, str], cards: str, points: int) -> None:
    """docs/rules.md 1: the card points of each contract kind and scale."""
    values = values_for(MAISON.replace(**knob), strain)
    assert trick_points(values, list(CardSet.parse(cards))) == points


@pytest.mark.parametrize(
    ("strain", "knobs", "total"),
    [
        (Strain.SPADES, {}, 152),  # 62 in trump + 3 × 30 plain
        (Strain.NO_TRUMP, {"no_trump_points": "scaled"}, 152),  # 4 × (19 + 10 + 4 + 3 + 2)
        (Strain.NO_TRUMP, {"no_trump_points": "plain"}, 120),  # 4 × 30
        (Strain.ALL_TRUMP, {"all_trump_points": "scaled"}, 152),  # 4 × (14 + 9 + 6 + 5 + 3 + 1)
        (Strain.ALL_TRUMP, {"all_trump_points": "trump"}, 248),  # 4 × 62
    ],
)
def test_points_in_the_cards(strain: Strain, knobs: dict[str, str], total: int) -> None:
    """docs/rules.md 1: 152 in the cards (120 plain no-trump, 248 all-trump on the trump scale)."""
    assert strain_values(strain, **knobs).total_points == total


def test_trick_points_through_a_state_follow_the_scale() -> None:
    """docs/rules.md 1: a no-trump trick AS TS KS QS is worth 36 on the scaled scale and 28 on the
    plain one, as the state counts it."""
    for knob, points in (("scaled", 19 + 10 + 4 + 3), ("plain", 11 + 10 + 4 + 3)):
        rules = MAISON.replace(no_trump_points=knob)
        state = position(rules, Strain.NO_TRUMP, "N AS, E TS, S KS", Seat.W, "QS 7D")
        after = state.apply(Play(Seat.W, parse_card("QS")))
        assert after.tricks[-1].winner == Seat.N
        assert after.tricks[-1].points == points
        assert after.points == (points, 0)


def test_strain_codes() -> None:
    """docs/rules-decisions.md "Contracts": S H D C NT AT (SA / TA accepted)."""
    assert [s.code for s in Strain] == ["S", "H", "D", "C", "NT", "AT"]
    assert Strain.parse("sa") is Strain.NO_TRUMP
    assert Strain.parse("TA") is Strain.ALL_TRUMP
    assert Strain.parse(" h ") is Strain.HEARTS
    assert Strain.HEARTS.suit is not None and Strain.NO_TRUMP.suit is None
    with pytest.raises(ValueError, match="unknown contract"):
        Strain.parse("X")
