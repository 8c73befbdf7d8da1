"""A player's statistics (docs/players.md, "My statistics"): the figures of a store filled
with known deals, added up here from the engine's own scores deal by deal; the period; the
curves; whose statistics one may read; a deal in play never counted; a deleted player's
gone with them."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from cardavia.belote import Match, Record, Seat, find_rules
from cardavia.players.statistics import (
    DealLine,
    Statistics,
    StatisticsRefusedError,
    add_up,
    deal_line,
)
from cardavia.store.db import GameRow, GameStore, new_token
from cardavia.store.players import PlayerGameRow
from cardavia.store.ratings import RatingChange


def played_match(
    rules: str, deals: int, rng: random.Random, *, last_in_play: bool = False
) -> Match:
    """A match of ``deals`` deals played out with random legal actions (the last one left
    half played with ``last_in_play``)."""
    match = Match.start(replace(find_rules(rules), target=100_000), rng=rng)
    for number in range(deals):
        steps = 0
        while not match.deal.is_over:
            if last_in_play and number == deals - 1 and steps == 12:
                return match
            match = match.apply(rng.choice(match.deal.legal_actions))
            steps += 1
        if number < deals - 1:
            match = match.next_deal(rng=rng)
    return match


def saved(store: GameStore, player: str, match: Match, *, rules: str, seat: str = "S") -> str:
    game = store.create(
        rules=rules,
        level="club",
        lang="fr",
        token=new_token(),
        record=Record.from_match(match).to_json(),
        seat=seat,
    )
    store.players.link_game(player, game.id, seat)
    return game.id


@pytest.fixture(name="store")
def store_fixture() -> GameStore:
    return GameStore("sqlite://")


NOW = datetime.now(UTC)


def test_the_figures_are_the_sums_of_the_engines_scores(store: GameStore) -> None:
    rng = random.Random(40)
    player = store.players.create(new_token()).id
    matches = [played_match("cardavia", 6, rng), played_match("coinche", 8, rng)]
    saved(store, player, matches[0], rules="cardavia", seat="S")
    saved(store, player, matches[1], rules="coinche", seat="E")
    shown = {f.family: f for f in Statistics(store).of(player, player, period="all", now=NOW)}
    assert sorted(shown) == ["classic", "coinche"]
    for family, match, seat in (("classic", matches[0], Seat.S), ("coinche", matches[1], Seat.E)):
        results = [deal.result for deal in match.deals if deal.result is not None]
        us = seat.team
        figures = shown[family]
        assert figures.deals == len(results)
        assert figures.points_ours == sum(r.scores[us] for r in results)
        assert figures.points_theirs == sum(r.scores[1 - us] for r in results)
        assert figures.taken == sum(r.contract.taker == seat for r in results)
        assert figures.taken_made == sum(
            r.contract.taker == seat and r.made is True for r in results
        )
        assert figures.defended == sum(r.contract.taker.team != us for r in results)
        assert figures.defeated == sum(
            r.contract.taker.team != us and r.made is False for r in results
        )
        assert figures.belotes == sum(r.belote[us] > 0 for r in results)
        assert figures.announcement_points == sum(r.announcements[us] for r in results)
        assert figures.capots_made == sum(r.capot == us for r in results)
        assert figures.coinches == sum(
            r.contract.taker.team != us and r.contract.coinche > 0 for r in results
        )
        assert figures.analysed == 0 and figures.mistakes_per_deal is None
    # The deals are varied enough for the sums to say something.
    assert shown["classic"].taken and shown["coinche"].defended and shown["coinche"].coinches
    assert shown["classic"].average_ours == shown["classic"].points_ours / shown["classic"].deals


def line(**changes: object) -> DealLine:
    fields: dict[str, object] = {
        "family": "coinche",
        "at": NOW,
        "ours": 0,
        "theirs": 0,
        "took": False,
        "defended": False,
        "made": True,
        "belote": False,
        "announced": 0,
        "capot_ours": False,
        "capot_theirs": False,
        "coinched": False,
    }
    return DealLine(**(fields | changes))  # type: ignore[arg-type]


def test_three_deals_counted_by_hand() -> None:
    """A taken 110 made (ours 130 with the belote, theirs 30), a defended 90 coinched and
    beaten (ours 320, theirs 0), a capot suffered (ours 0, theirs 250, a 50 announced):
    3 deals, 1 taken and made, 2 defended and 1 beaten, 150 points a deal on average
    (450 / 3), 1 belote, 1 coinche won, 1 capot suffered, 50 announced."""
    lines = [
        line(ours=130, theirs=30, took=True, belote=True),
        line(ours=320, theirs=0, defended=True, made=False, coinched=True),
        line(ours=0, theirs=250, defended=True, capot_theirs=True, announced=50),
        line(family="classic", ours=162, theirs=0, took=True),
    ]
    figures = add_up("coinche", lines)
    assert (figures.deals, figures.taken, figures.taken_made) == (3, 1, 1)
    assert (figures.defended, figures.defeated) == (2, 1)
    assert figures.average_ours == 150 and figures.average_theirs == pytest.approx(280 / 3)
    assert (figures.belotes, figures.coinches, figures.coinches_won) == (1, 1, 1)
    assert (figures.capots_made, figures.capots_suffered) == (0, 1)
    assert (figures.announcements, figures.announcement_points) == (1, 50)


def test_a_deal_in_play_or_passed_out_is_not_counted(store: GameStore) -> None:
    rng = random.Random(7)
    player = store.players.create(new_token()).id
    match = played_match("cardavia", 3, rng, last_in_play=True)
    assert not match.deal.is_over
    saved(store, player, match, rules="cardavia")
    (figures,) = Statistics(store).of(player, player, period="all", now=NOW)
    played = [d for d in match.deals if d.is_over and d.result is not None]
    assert figures.deals == len(played) < 3
    assert deal_line(match.deal, Seat.S, family="classic", at=NOW) is None


def test_the_period_counts_the_deals_of_its_days(store: GameStore) -> None:
    rng = random.Random(3)
    player = store.players.create(new_token()).id
    old = saved(store, player, played_match("cardavia", 1, rng), rules="cardavia")
    saved(store, player, played_match("cardavia", 1, rng), rules="cardavia")
    twenty_days_ago = NOW - timedelta(days=20)
    with store.engine.begin() as connection:
        connection.execute(
            update(GameRow).where(GameRow.id == old).values(updated_at=twenty_days_ago)
        )
        connection.execute(
            update(PlayerGameRow)
            .where(PlayerGameRow.game_id == old)
            .values(created_at=twenty_days_ago)
        )
    statistics = Statistics(store)

    def deals(period: str) -> int:
        return sum(f.deals for f in statistics.of(player, player, period=period, now=NOW))

    assert (deals("7"), deals("30"), deals("all")) == (1, 2, 2)
    with pytest.raises(ValueError, match="unknown period"):
        statistics.of(player, player, period="90", now=NOW)


def test_only_the_player_sees_their_statistics(store: GameStore) -> None:
    rng = random.Random(5)
    guest = store.players.create(new_token()).id
    other = store.players.create(new_token()).id
    saved(store, guest, played_match("cardavia", 1, rng), rules="cardavia")
    statistics = Statistics(store)
    assert statistics.of(guest, guest, period="all", now=NOW)[0].deals == 1
    for viewer in (other, None):
        with pytest.raises(StatisticsRefusedError):
            statistics.of(viewer, guest, period="all", now=NOW)


def test_the_analysis_gives_mistakes_and_their_cost(store: GameStore) -> None:
    rng = random.Random(11)
    player = store.players.create(new_token()).id
    game = saved(store, player, played_match("cardavia", 2, rng), rules="cardavia", seat="W")
    reviews = {
        (game, 1): {"seats": {"W": {"mistakes": 2, "seat_view_cost": 31.5}}},
        (game, 2): {"seats": {"W": {"mistakes": 1, "seat_view_cost": 10.0}}},
    }
    (figures,) = Statistics(store, reviewed=lambda g, n: reviews.get((g, n))).of(
        player, player, period="all", now=NOW
    )
    assert figures.deals == figures.analysed == 2
    assert figures.mistakes_per_deal == 1.5 and figures.cost_per_deal == 20.75


def test_the_curves_and_a_deleted_players_statistics(store: GameStore) -> None:
    rng = random.Random(9)
    player = store.players.create(new_token()).id
    saved(store, player, played_match("coinche", 1, rng), rules="coinche")
    for deal, mu in enumerate((25.0, 26.0, 24.5), start=1):
        store.ratings.record(
            [RatingChange(player, mu, 8.0)],
            family="coinche",
            room_code="ABCD",
            game_id="g1",
            deal=deal,
        )
    (figures,) = Statistics(store).of(player, player, period="all", now=NOW)
    assert [point.value for point in figures.ratings] == [1500, 1540, 1480]
    store.players.erase(player)
    assert Statistics(store).of(player, player, period="all", now=NOW) == ()
