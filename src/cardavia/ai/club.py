"""The club player: sound rule-based belote, as a regular of a card club plays it.

It bids from a hand evaluation (trump jack and nine, aces, length, belote, announcements),
chooses its suit in the second round, bids auction values from the same evaluation and
coinches a bid that its hand says the opponents cannot make. In play it counts the cards:
it knows what has been played, who has shown out of a suit or of trumps, the turned card the
taker picked up and the cards shown with announcements and belote, so it pulls trumps as the
taker, cashes its masters, smears points on a partner sure to win, wins tricks cheaply,
discards low and keeps its trumps for when they matter. It always declares its best
announcements and belote.

Everything it knows comes from the :class:`~cardavia.belote.Observation`; a decision takes a
few tens of microseconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from cardavia.ai.player import with_declarations
from cardavia.belote import (
    CAPOT,
    Action,
    Bid,
    Card,
    CardValues,
    Coinche,
    Observation,
    Pass,
    Phase,
    Play,
    Rank,
    Seat,
    Strain,
    Surcoinche,
    Take,
    best_announcements,
    mask_cards,
    trick_points,
    values_for,
)
from cardavia.belote.search import FULL_MASK, RANK_MASKS, SUIT_MASKS, auction_status, winning_index

JACK: Final = int(Rank.JACK)
NINE: Final = int(Rank.NINE)
ACE: Final = int(Rank.ACE)
TEN: Final = int(Rank.TEN)
KING: Final = int(Rank.KING)
QUEEN: Final = int(Rank.QUEEN)

PARTNER_SHARE: Final = 38
"""Auction: what the partner's cards are counted for on top of the hand value. The takers'
points average the hand value + 48 among club players; bidding from + 38 did best."""
BID_MARGIN: Final = 15
"""Auction: bid this much below the expected points, to make the contract most times."""
COINCHE_DEFENCE: Final = 70
"""Auction: the defence value from which a bid of 100 is coinched (10 less per 10 more)."""
CLASSIC_TAKE: Final = 44
"""Classic tables: the hand value (six known cards) from which the club player takes."""
AUCTION_FLOOR: Final = 80
"""The lowest auction bid."""


def _bit(card: Card) -> int:
    return 1 << card


# -- the hand evaluation -------------------------------------------------------------------


def trump_suit_value(hand: int, trump: int) -> int:
    """The value of ``hand`` with ``trump`` as trump, in card points it should bring home:
    the trump jack and nine, the other trumps and their length, aces and guarded tens on the
    side, short suits to ruff and belote (docs/rules.md 1 and 6)."""
    trumps = hand & SUIT_MASKS[trump]
    count = trumps.bit_count()
    base = trump * 8
    has_jack = bool(trumps >> (base + JACK) & 1)
    has_nine = bool(trumps >> (base + NINE) & 1)
    value = 0
    if has_jack:
        value += 22
    if has_nine:
        value += 16 if (has_jack or count >= 3) else 9
    if trumps >> (base + ACE) & 1:
        value += 11 if (has_jack or has_nine or count >= 3) else 7
    if trumps >> (base + TEN) & 1:
        value += 7 if count >= 3 else 4
    small = count - has_jack - has_nine - bool(trumps >> (base + ACE) & 1)
    small -= bool(trumps >> (base + TEN) & 1)
    value += 3 * small
    value += (0, -12, 0, 6, 16, 26, 36, 46, 56)[count]
    if hand & _belote_pair(trump) == _belote_pair(trump):
        value += 20
    for suit in range(4):
        if suit == trump:
            continue
        value += _side_value(hand, suit)
        if count >= 3:
            length = (hand & SUIT_MASKS[suit]).bit_count()
            value += (6, 3, 0, 0, 0, 0, 0, 0, 0)[length]
    return value


def _side_value(hand: int, suit: int) -> int:
    """Aces and tens of a plain suit: an ace is a trick, a ten is one with its ace or a guard."""
    cards = hand & SUIT_MASKS[suit]
    base = suit * 8
    value = 0
    has_ace = cards >> (base + ACE) & 1
    if has_ace:
        value += 11
    if cards >> (base + TEN) & 1:
        value += 9 if has_ace else (4 if cards.bit_count() >= 2 else 0)
    if has_ace and cards >> (base + KING) & 1 and cards >> (base + TEN) & 1:
        value += 3
    return value


def no_trump_value(hand: int) -> int:
    """The value of ``hand`` in a no-trump contract: aces, tens behind them, long suits."""
    value = 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        base = suit * 8
        if cards >> (base + ACE) & 1:
            value += 19
            if cards >> (base + TEN) & 1:
                value += 10
                if cards >> (base + KING) & 1:
                    value += 4
                value += 3 * max(0, cards.bit_count() - 3)
    return value - 10


def all_trump_value(hand: int) -> int:
    """The value of ``hand`` in an all-trump contract: jacks, nines behind them, length."""
    value = 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        base = suit * 8
        if cards >> (base + JACK) & 1:
            value += 16
            if cards >> (base + NINE) & 1:
                value += 10
        elif cards >> (base + NINE) & 1 and cards.bit_count() >= 3:
            value += 5
    return value - 10


def _belote_pair(suit: int) -> int:
    return 1 << (suit * 8 + KING) | 1 << (suit * 8 + QUEEN)


def strain_value(hand: int, strain: Strain, obs: Observation) -> int:
    """The value of ``hand`` for a contract of ``strain``, with the announcements it holds
    counted at half (they may lose the comparison)."""
    if strain == Strain.NO_TRUMP:
        value = no_trump_value(hand)
    elif strain == Strain.ALL_TRUMP:
        value = all_trump_value(hand)
    else:
        value = trump_suit_value(hand, int(strain))
    if obs.rules.announcements:
        value += sum(a.points for a in best_announcements(hand, strain)) // 2
    return value


# -- what the table knows ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat can work out about the cards during the play."""

    seat: Seat
    values: CardValues
    trumps: int
    """The mask of the trump suit (0 in no-trump and all-trump: nothing cuts another suit)."""
    hand: int
    played: int
    unseen: int
    """The cards in the other three hands."""
    possible: tuple[int, int, int, int]
    """``possible[seat]``: the cards that seat may still hold (for this seat: its hand)."""

    @property
    def partner(self) -> Seat:
        """This seat's partner."""
        return self.seat.partner

    @property
    def opponents_possible(self) -> int:
        """The cards either opponent may hold."""
        return self.possible[(self.seat + 1) & 3] | self.possible[(self.seat + 3) & 3]

    def is_master(self, card: Card) -> bool:
        """Whether no opponent may hold a card of its suit that beats it."""
        return not self.values.beats[card] & self.opponents_possible

    def may_ruff(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` may cut ``suit``: it may hold trumps and is (or is likely) void."""
        if not self.trumps or self.trumps >> (suit * 8) & 1:
            return False
        if not self.possible[seat] & self.trumps:
            return False
        left = self.possible[seat] & SUIT_MASKS[suit]
        return not left or (self.unseen & SUIT_MASKS[suit]).bit_count() <= 1

    def could_beat(self, seat: Seat, best: Card, led: int) -> bool:
        """Whether ``seat``, still to play, may beat ``best`` in a trick led in ``led``."""
        cards = self.possible[seat]
        # A higher card of the best card's suit (that suit is led, or trump when it is void).
        if cards & self.values.beats[best] and (best >> 3 == led or not cards & SUIT_MASKS[led]):
            return True
        if self.trumps and not self.trumps >> best & 1:
            return self.may_ruff(seat, led)
        return False


def read_table(obs: Observation) -> Knowledge:
    """Work out who may hold what, from the plays (docs/rules.md 5 says what each play reveals),
    the turned card (the taker's), belote said and the announcements shown."""
    contract = obs.contract
    assert contract is not None
    rules = obs.rules
    values = values_for(rules, contract.strain)
    trumps = values.trump_mask
    beats = values.beats
    me = obs.seat
    hand = obs.hand.mask
    excluded = [0, 0, 0, 0]
    played = 0
    all_plays = [t.plays for t in obs.tricks]
    all_plays.append(obs.trick)
    for plays in all_plays:
        cards: list[Card] = []
        for seat, card in plays:
            if cards:
                led = cards[0] >> 3
                best_index = winning_index(values, cards)
                best = cards[best_index]
                partner_master = plays[best_index][0] == seat.partner
                suit = card >> 3
                if suit != led:
                    excluded[seat] |= SUIT_MASKS[led]
                    if trumps and not trumps >> card & 1:
                        # A discard while an opponent was master: no trump, or none that
                        # may be played (docs/rules.md 5.2).
                        if not partner_master or rules.must_trump_partner:
                            if not trumps >> best & 1 or rules.undertrump == "required":
                                excluded[seat] |= trumps
                            else:
                                excluded[seat] |= beats[best]
                    elif (
                        trumps >> card & 1
                        and trumps >> best & 1
                        and not beats[best] >> card & 1
                        and (not partner_master or rules.overtrump_when_trumping_partner)
                    ):
                        excluded[seat] |= beats[best]  # trumped under: no higher trump
                elif not beats[best] >> card & 1 and best >> 3 == led:
                    ranked = values.ranked_as_trump >> card & 1
                    if ranked and (not partner_master or rules.overtrump_partner_on_trump_lead):
                        excluded[seat] |= beats[best]  # followed under: no higher card
            cards.append(card)
            played |= _bit(card)
    unseen = FULL_MASK & ~(hand | played)
    known = [0, 0, 0, 0]
    turned = obs.turned_card
    if turned is not None and rules.bidding == "classic":
        known[contract.taker] |= _bit(turned)
    for seat, announcement in obs.revealed:
        known[seat] |= announcement.cards
    for event in obs.belote_events:
        if event.word == "belote":
            known[event.seat] |= _belote_pair(event.card >> 3) & ~_bit(event.card)
    for declaration in obs.declarations:
        if declaration.name.startswith("carr") and declaration.points in (200, 150):
            known[declaration.seat] |= RANK_MASKS[JACK if declaration.points == 200 else NINE]
    possible = [0, 0, 0, 0]
    for seat in Seat:
        if seat == me:
            possible[seat] = hand
            continue
        elsewhere = 0
        for other in Seat:
            if other != seat:
                elsewhere |= known[other]
        possible[seat] = (unseen & ~excluded[seat] & ~elsewhere) | (known[seat] & unseen)
    # A card only one other seat may hold is that seat's.
    others = [s for s in Seat if s != me]
    for seat in others:
        rest = 0
        for other in others:
            if other != seat:
                rest |= possible[other]
        only = unseen & ~rest
        possible[seat] |= only
    return Knowledge(
        seat=me,
        values=values,
        trumps=trumps,
        hand=hand,
        played=played,
        unseen=unseen,
        possible=(possible[0], possible[1], possible[2], possible[3]),
    )


# -- the player --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubPlayer:
    """A solid rule-based player (see the module's docstring)."""

    take_threshold: int = CLASSIC_TAKE
    """Classic tables: take from this hand value on."""
    partner_share: int = PARTNER_SHARE
    """Auction: what the partner is expected to bring, added to the hand's value."""
    coinche_defence: int = COINCHE_DEFENCE
    """Auction: the defence value from which a bid of 100 is coinched."""

    def decide(self, observation: Observation, rng: random.Random) -> Action:
        """The club player's action (one of ``observation.legal_actions``)."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError("it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if observation.phase == Phase.BIDDING:
            if observation.rules.bidding == "classic":
                return self._classic_bid(observation)
            return self._auction_bid(observation)
        card = choose_card(observation, read_table(observation))
        return with_declarations(observation, card)

    # -- bidding -------------------------------------------------------------------------

    def _classic_bid(self, obs: Observation) -> Action:
        """docs/rules.md 4, classic: take the turned suit (round 1) or the best other strain
        (round 2) when the hand with the turned card is worth it."""
        turned = obs.turned_card
        assert turned is not None
        hand = obs.hand.mask | _bit(turned)
        takes = [a for a in obs.legal_actions if isinstance(a, Take)]
        best: Take | None = None
        best_value = -1000
        for take in takes:
            value = strain_value(hand, take.strain, obs)
            if take.strain != Strain(turned >> 3):
                value -= 4  # round 2: the turned card is a side card, and bidding goes on
            if value > best_value:
                best, best_value = take, value
        if best is not None and best_value >= self.take_threshold:
            return best
        return Pass(obs.seat)

    def _auction_bid(self, obs: Observation) -> Action:
        """docs/rules.md 4, coinche auction: bid the hand's value with the partner's share, raise
        the partner once with support, outbid the opponents when the hand is worth more,
        coinche a bid the hand says they cannot make."""
        me = obs.seat
        legal = obs.legal_actions
        hand = obs.hand.mask
        status = auction_status(obs.history)
        best = status.best
        floor = best.value if best is not None else 0
        if best is not None and best.seat.team != me.team:
            coinche = Coinche(me)
            if coinche in legal and self._defence(hand, best) >= self.coinche_defence + 100 - floor:
                return coinche
        values = {s: strain_value(hand, s, obs) for s in _bid_strains(legal)}
        if best is not None and best.seat.team == me.team and status.coinche == 1:
            surcoinche = Surcoinche(me)
            own = values.get(best.strain, 0) + self.partner_share
            if surcoinche in legal and best.seat == me and own >= best.value + 40:
                return surcoinche
        if not values:
            return Pass(me)
        my_bids = any(isinstance(a, Bid) and a.seat == me for a in obs.history)
        partner_bid = _last_bid_by(obs, me.partner)
        if partner_bid is not None and not my_bids and partner_bid.strain in values:
            # Raise the partner once: its bid says what it holds, this hand adds the rest.
            mine = values[partner_bid.strain]
            expected = 1.27 * partner_bid.value - 23 + 1.17 * mine
            target = int(expected - BID_MARGIN) // 10 * 10
            if target > floor:
                choice = _bid_at(legal, me, partner_bid.strain, target, floor)
                if choice is not None:
                    return choice
        strain = max(values, key=lambda s: values[s])
        share = self.partner_share
        if partner_bid is None and any(
            isinstance(a, Pass) and a.seat == me.partner for a in obs.history
        ):
            share -= 6  # the partner passed: no great hand there
        target = int(values[strain] + share - BID_MARGIN) // 10 * 10
        if (
            best is not None
            and best.seat.team == me.team
            and (strain == best.strain or target < floor + 30)
        ):
            return Pass(me)  # the partnership already holds the contract
        if target >= AUCTION_FLOOR and target > floor:
            choice = _bid_at(legal, me, strain, target, floor)
            if choice is not None:
                return choice
        return Pass(me)

    @staticmethod
    def _defence(hand: int, bid: Bid) -> int:
        """The card points this hand should take in defence against ``bid``."""
        if not bid.strain.is_suit:
            return no_trump_value(hand) // 2 + 10
        trump = int(bid.strain)
        trumps = hand & SUIT_MASKS[trump]
        base = trump * 8
        value = 0
        if trumps >> (base + JACK) & 1:
            value += 25
        if trumps >> (base + NINE) & 1 and trumps.bit_count() >= 2:
            value += 18
        if trumps.bit_count() >= 3:
            value += 10
        for suit in range(4):
            if suit != trump:
                value += _side_value(hand, suit)
        return value


def _bid_strains(legal: tuple[Action, ...]) -> list[Strain]:
    seen: list[Strain] = []
    for action in legal:
        if isinstance(action, Bid) and action.strain not in seen:
            seen.append(action.strain)
    return seen


def _last_bid_by(obs: Observation, seat: Seat) -> Bid | None:
    for action in reversed(obs.history):
        if isinstance(action, Bid) and action.seat == seat:
            return action
    return None


def _bid_at(
    legal: tuple[Action, ...], seat: Seat, strain: Strain, value: int, floor: int
) -> Bid | None:
    """The bid of ``value`` in ``strain`` (to the ten below; at least the lowest allowed),
    or, for a hand worth more than the top numbered bid, that top bid: a hand worth 170
    bids 160 where 160 is the highest before capot (docs/rules.md 4). Capot and générale are
    left to hands that say so (:mod:`cardavia.ai.bidding`). ``None`` when no such bid is
    legal (the auction is already higher)."""
    value = max(value // 10 * 10, floor + 10, AUCTION_FLOOR)
    numbered = [
        a.value
        for a in legal
        if isinstance(a, Bid) and a.strain == strain and a.value < CAPOT and a.value <= value
    ]
    return Bid(seat, max(numbered), strain) if numbered else None


# -- the play ----------------------------------------------------------------------------


def choose_card(obs: Observation, know: Knowledge) -> Card:
    """The card to play (docs/rules.md 5 has already narrowed the choice to the legal ones)."""
    legal = 0
    for action in obs.legal_actions:
        if isinstance(action, Play):
            legal |= _bit(action.card)
    cards = list(mask_cards(legal))
    if len(cards) == 1:
        return cards[0]
    if not obs.trick:
        return _lead(obs, know, legal)
    return _follow(obs, know, legal)


def _keep_cost(know: Knowledge, card: Card) -> int:
    """What giving ``card`` away costs: its points, more for trumps and masters, more for a
    card that guards a ten."""
    values = know.values
    cost = values.points[card] * 2
    if know.trumps >> card & 1:
        cost += 30 + values.order[card] * 3
    if know.is_master(card):
        cost += 12
    suit_cards = know.hand & SUIT_MASKS[card >> 3]
    ten = (card >> 3) * 8 + TEN
    if (
        not values.ranked_as_trump >> card & 1
        and card != ten
        and suit_cards >> ten & 1
        and not know.is_master(ten)
        and suit_cards.bit_count() == 2
    ):
        cost += 9  # the last guard of an unmastered ten
    if suit_cards.bit_count() == 1 and not know.trumps >> card & 1 and know.hand & know.trumps:
        cost -= 3  # throwing a singleton makes a void to ruff later
    return cost


def _cheapest(know: Knowledge, mask: int) -> Card:
    return min(mask_cards(mask), key=lambda c: (_keep_cost(know, c), know.values.order[c]))


def _lowest(know: Knowledge, mask: int) -> Card:
    """The weakest card of a mask (least strength, then fewest points)."""
    return min(mask_cards(mask), key=lambda c: (know.values.order[c], know.values.points[c]))


def _highest(know: Knowledge, mask: int) -> Card:
    return max(mask_cards(mask), key=lambda c: (know.values.order[c], know.values.points[c]))


def _lead(obs: Observation, know: Knowledge, legal: int) -> Card:
    """Leading a trick: pull trumps as the takers, cash masters, then lead low to the
    partner."""
    contract = obs.contract
    assert contract is not None
    me = obs.seat
    takers = contract.team == me.team
    trumps = know.trumps
    my_trumps = legal & trumps
    opponents = know.opponents_possible
    opp_trumps = opponents & trumps
    # Pull trumps: the takers lead their master trump while the opponents hold trumps.
    if takers and my_trumps and opp_trumps:
        top = _highest(know, my_trumps)
        if know.is_master(top):
            return top
        if contract.taker == me and my_trumps.bit_count() >= 3:
            low = _lowest(know, my_trumps)
            if know.values.points[low] < 10:
                return low
    # Cash the masters that no opponent can ruff.
    masters = [
        c
        for c in mask_cards(legal & ~trumps)
        if know.is_master(c)
        and not any(know.may_ruff(Seat(s), c >> 3) for s in (me.next, me.partner.next))
    ]
    if masters:
        return max(masters, key=lambda c: (know.values.points[c], -know.values.order[c]))
    if my_trumps and not opp_trumps:
        top = _highest(know, my_trumps)
        if know.is_master(top) and (takers or (legal & ~trumps) == 0):
            return top
    # Lead a suit the partner can ruff (not when the opponents are out of trumps: no gain).
    partner = me.partner
    if trumps and (know.possible[partner] & trumps) and opp_trumps:
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit] & ~trumps
            if mine and not know.possible[partner] & SUIT_MASKS[suit]:
                return _lowest(know, mine)
    # Otherwise lead low in a plain suit, keeping tens and aces; trumps last for defenders.
    side = legal & ~trumps
    if side:
        return min(mask_cards(side), key=lambda c: _lead_cost(know, c))
    return _lowest(know, legal)


def _lead_cost(know: Knowledge, card: Card) -> tuple[int, int]:
    """How bad a low lead is: points and strength given up, a ten led under an ace still out
    is worst, and a suit the opponents may cut is poor."""
    values = know.values
    cost = _keep_cost(know, card)
    suit = card >> 3
    if values.points[card] >= 10 and not know.is_master(card):
        cost += 20
    me = know.seat
    if any(know.may_ruff(Seat(s), suit) for s in (me.next, me.partner.next)):
        cost += 8
    return cost, values.order[card]


def _follow(obs: Observation, know: Knowledge, legal: int) -> Card:
    """Following in a trick: smear on a partner sure to win, win cheaply, else discard low."""
    values = know.values
    me = obs.seat
    trick = obs.trick
    cards = [c for _, c in trick]
    led = cards[0] >> 3
    best_index = winning_index(values, cards)
    best = cards[best_index]
    best_seat = trick[best_index][0]
    still_to_play = [Seat((me + i) & 3) for i in range(1, 4 - len(trick))]
    opponents_after = [s for s in still_to_play if s.team != me.team]
    points_now = trick_points(values, cards)
    last_trick = len(obs.tricks) == 7

    def beats(card: Card, other: Card) -> bool:
        if card >> 3 == other >> 3:
            return values.order[card] > values.order[other]
        return bool(know.trumps >> card & 1)

    def secure(card: Card) -> bool:
        return not any(know.could_beat(s, card, led) for s in opponents_after)

    winners = [c for c in mask_cards(legal) if beats(c, best)]

    if best_seat == me.partner:
        if secure(best):
            # Smear: the partner wins; give the most points, not trumps.
            plain = legal & ~know.trumps
            pool = plain if plain else legal
            if plain:
                return max(
                    mask_cards(pool),
                    key=lambda c: (
                        values.points[c] + (4 if not know.is_master(c) else -6),
                        -values.order[c],
                    ),
                )
            return _lowest(know, pool)
        sure = [c for c in winners if secure(c) and not know.trumps >> c & 1]
        if sure:
            return max(sure, key=lambda c: values.points[c])
        return _cheapest(know, legal)

    # An opponent is master (or the trick is the partner's and we try to win it anyway).
    if winners:
        if not opponents_after:
            following = [c for c in winners if c >> 3 == led and not know.trumps >> c & 1]
            if following:
                return max(
                    following,
                    key=lambda c: (
                        values.points[c] - (8 if know.is_master(c) and len(following) > 1 else 0),
                        -values.order[c],
                    ),
                )
            cheapest = min(winners, key=lambda c: (values.order[c], values.points[c]))
            if (
                points_now + 10 * last_trick >= 4
                or values.points[cheapest] == 0
                or legal & ~know.trumps == 0
            ):
                return cheapest
            return _cheapest(know, legal & ~_winner_mask(winners) or legal)
        sure = [c for c in winners if secure(c)]
        if sure:
            return min(sure, key=lambda c: (know.trumps >> c & 1, values.order[c]))
        if winners[0] >> 3 == led and not know.trumps >> winners[0] & 1:
            cheap = [c for c in winners if values.points[c] <= 4]
            if cheap:
                return min(cheap, key=lambda c: values.order[c])
        else:
            # Cutting with opponents still to play: high enough to stay master if possible.
            ruff = [c for c in winners if know.trumps >> c & 1]
            if ruff:
                safe = [c for c in ruff if secure(c)]
                return min(safe or ruff, key=lambda c: values.order[c])
    return _cheapest(know, legal)


def _winner_mask(cards: list[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= _bit(card)
    return mask
