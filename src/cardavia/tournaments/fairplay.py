"""The fair-play screen (issue 22, item 9): play improbably close to double-dummy, for review.

The same deals for everyone invite a second look at the hands. A player who knew them would
play, more often than the field, the card that is best with all four hands visible but not
the best from what the seat could see. The analysis (:mod:`cardavia.ai.analysis`) already
tells the two lights apart; this screen counts, for each player of the tournament deals
covered and from the records only:

- the **telling decisions**: the player's cards (not forced) where every card best
  double-dummy looked worse from the seat's own view than the seat-view best by more than
  :data:`SIGHT_MARGIN` (the analysis' margin: each would have been called a "mistake" or
  "unclear" from the seat's view), so that only sight of the hidden cards, or luck, would
  choose one;
- the **sighted** ones among them: the card played was one of those (double-dummy cost 0):
  the analysis' "bad luck" turned around, a card that looked wrong and was right.

Each player's sighted count is set against the rest of the field's rate (the others'
sighted over their telling decisions) by the binomial upper tail: the chance that a player
of the field's rate chooses that well that often. A player whose tail is below
``alpha`` divided by the number of players screened (Bonferroni: a large field does not list
players by chance), with at least :data:`MIN_TELLING` telling decisions, is **listed for
review**: a person looks at the deals. Nobody is accused, warned or ranked differently by
this screen (:data:`NOTE`, written in every report).

Beside it, two signs of one person behind several entries
(:mod:`cardavia.tournaments.second_accounts`): the accounts of one client that started deals
of the same tournament, and the deals played with the very line of an earlier entry.

Cost: each card of the player's seat is reviewed in both lights, the seat's view over at
most ``worlds`` worlds and ``node_budget`` solver nodes (work, not time: the same report on
every machine). With the defaults (:data:`WORLDS`, :data:`NODE_BUDGET`) a deal costs about
0.25 s of one core (``tests/tournaments/test_fairplay.py`` prints it), so a tournament of
10,000 players × 12 deals costs some 8 core-hours: run it on a quiet machine, or on one
tournament at a time (docs/tournament-robots.md).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import select

from cardavia.ai.analysis import MISTAKE_MARGIN, CardReview, DealFacts, review_card
from cardavia.belote import Play, Record, Seat
from cardavia.store.db import GameStore
from cardavia.store.tournaments import DealPlayedRow, TournamentRow
from cardavia.tournaments.deals import PLAYER_SEAT
from cardavia.tournaments.second_accounts import (
    PlayedDeal,
    RepeatedLine,
    SharedClient,
    repeated_lines,
    shared_clients,
)

WORLDS: Final = 4
"""Worlds drawn for a card's seat-view light, early in the deal (more later, as cheaper)."""

NODE_BUDGET: Final = 200_000
"""The solver's work for one card's seat-view light, in nodes (at least four worlds)."""

ALPHA: Final = 0.001
"""The chance of listing a player of the field's own rate, over the whole report."""

SIGHT_MARGIN: Final = float(MISTAKE_MARGIN)
"""Deal-score points by which the double-dummy best cards must look worse from the seat's
view for a decision to be telling: the analysis' margin. About one card in twenty of a
player's is then telling, and fair players choose the double-dummy card in some 15 % of
them; with no margin, one card in twelve, but fair players' rate rises to some 40 % (the
worlds' noise and the close calls), which tells a player who sees the hands apart more
slowly."""

MIN_TELLING: Final = 6
"""Telling decisions a player needs before being listed: fewer say nothing."""

NOTE: Final = (
    "A screen, not a verdict: the players listed chose the card that is best with all hands "
    "visible, but not from their own seat's view, more often than the field would by "
    "chance. Strong players and luck do that too. Review their deals; accuse nobody on this "
    "report alone."
)


@dataclass(frozen=True, slots=True)
class DealSight:
    """One deal as one player played it, seen by the screen."""

    cards: int
    """The player's cards that were a choice (not forced)."""
    telling: int
    sighted: int


@dataclass(frozen=True, slots=True)
class PlayerScreen:
    """One player's figures against the rest of the field."""

    player_id: str
    deals: int
    cards: int
    telling: int
    sighted: int
    rate: float
    """:attr:`sighted` over :attr:`telling` (0 without a telling decision)."""
    field_rate: float
    """The rest of the field's rate: the others' sighted over their telling decisions."""
    z: float
    """How many standard deviations the player's sighted count lies above the field's."""
    tail: float
    """The chance of so many sighted decisions or more at the field's rate."""
    listed: bool


@dataclass(frozen=True, slots=True)
class FairPlayReport:
    """The screen of the tournament deals covered."""

    tournaments: tuple[str, ...]
    deals: int
    """Deals analysed (one player's deal each)."""
    field_rate: float
    threshold: float
    """The tail below which a player is listed (``alpha`` over the players screened)."""
    worlds: int
    node_budget: int
    cpu_seconds: float
    """The analysis' CPU time (this process), all deals together."""
    players: tuple[PlayerScreen, ...]
    """Every player screened, the lowest tail first."""
    shared_clients: tuple[SharedClient, ...] = ()
    """Players who started deals of one tournament from one client."""
    repeated_lines: tuple[RepeatedLine, ...] = ()
    """Deals played with the very line of an earlier entry on the same deal."""
    note: str = NOTE

    @property
    def listed(self) -> tuple[PlayerScreen, ...]:
        """The players listed for review."""
        return tuple(player for player in self.players if player.listed)

    @property
    def seconds_per_deal(self) -> float:
        return self.cpu_seconds / self.deals if self.deals else 0.0


def is_telling(review: CardReview, margin: float = SIGHT_MARGIN) -> bool:
    """Whether only sight of the hidden cards would choose the double-dummy best card here:
    every card best double-dummy looks worse than the seat-view best by more than
    ``margin``."""
    if len(review.values) < 2:
        return False
    best_dd = max(value.double_dummy for value in review.values)
    best_view = max(value.seat_view for value in review.values)
    return all(
        best_view - value.seat_view > margin
        for value in review.values
        if value.double_dummy == best_dd
    )


def is_sighted(review: CardReview, margin: float = SIGHT_MARGIN) -> bool:
    """Whether the card played, in a telling decision, was a double-dummy best one."""
    return is_telling(review, margin) and review.double_dummy_cost == 0


def screen_deal(
    record: Record,
    *,
    seat: Seat = PLAYER_SEAT,
    seed: int = 0,
    worlds: int = WORLDS,
    node_budget: int = NODE_BUDGET,
    margin: float = SIGHT_MARGIN,
) -> DealSight:
    """The screen of ``seat``'s cards in a record's last deal (a deal all four passed, or
    unfinished: nothing to count)."""
    final = record.replay().deal
    if not final.is_over or final.contract is None or final.result is None:
        return DealSight(0, 0, 0)
    facts = DealFacts.of_result(final)
    state = final.initial()
    cards = telling = sighted = number = 0
    for action in final.history:
        if isinstance(action, Play):
            if action.seat == seat:
                review = review_card(
                    state, action.card, number=number, facts=facts, seed=seed,
                    worlds=worlds, node_budget=node_budget,
                )  # fmt: skip
                cards += review.verdict != "forced"
                telling += is_telling(review, margin)
                sighted += is_sighted(review, margin)
            number += 1
        state = state.apply(action)
    return DealSight(cards, telling, sighted)


def binomial_tail(successes: int, trials: int, rate: float) -> float:
    """P(X ≥ ``successes``) for X binomial over ``trials`` at ``rate`` (log-space terms).

    >>> round(binomial_tail(3, 3, 0.5), 6)
    0.125
    >>> binomial_tail(0, 10, 0.2)
    1.0
    """
    if successes <= 0:
        return 1.0
    if rate <= 0.0:
        return 0.0
    if rate >= 1.0:
        return 1.0
    total = 0.0
    for k in range(successes, trials + 1):
        log_term = (
            math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
            + k * math.log(rate) + (trials - k) * math.log1p(-rate)
        )  # fmt: skip
        total += math.exp(log_term)
    return min(1.0, total)


def judge(
    sights: dict[str, list[DealSight]], *, alpha: float = ALPHA, min_telling: int = MIN_TELLING
) -> tuple[float, float, tuple[PlayerScreen, ...]]:
    """The field's rate, the listing threshold and each player's figures."""
    totals = {
        player: (
            len(deals),
            sum(d.cards for d in deals),
            sum(d.telling for d in deals),
            sum(d.sighted for d in deals),
        )
        for player, deals in sights.items()
    }
    all_telling = sum(t for _, _, t, _ in totals.values())
    all_sighted = sum(s for _, _, _, s in totals.values())
    threshold = alpha / max(1, len(totals))
    screens = []
    for player, (deals, cards, telling, sighted) in totals.items():
        others_telling = all_telling - telling
        # The rest of the field's rate, as if it had one more decision of each kind (a field
        # too small to have chosen the double-dummy card yet is not taken for one that never
        # does).
        rate = (all_sighted - sighted + 1) / (others_telling + 2)
        expected, spread = telling * rate, math.sqrt(telling * rate * (1 - rate))
        z = (sighted - expected) / spread if spread > 0 else 0.0
        tail = binomial_tail(sighted, telling, rate)
        screens.append(
            PlayerScreen(
                player_id=player,
                deals=deals,
                cards=cards,
                telling=telling,
                sighted=sighted,
                rate=sighted / telling if telling else 0.0,
                field_rate=rate,
                z=round(z, 3),
                tail=tail,
                listed=telling >= min_telling and tail < threshold,
            )
        )
    screens.sort(key=lambda screen: (screen.tail, screen.player_id))
    field = all_sighted / all_telling if all_telling else 0.0
    return field, threshold, tuple(screens)


@dataclass(frozen=True, slots=True)
class CoveredDeal:
    """A tournament deal the screen covers, as its row holds it."""

    tournament_id: str
    number: int
    player_id: str
    game_id: str
    client: str | None
    finished_at: datetime | None
    """``None``: started, not finished (only its client is read)."""


def deals_covered(
    store: GameStore,
    *,
    tournaments: Sequence[str] = (),
    since: datetime | None = None,
    until: datetime | None = None,
    finished: bool = True,
) -> list[CoveredDeal]:
    """The tournament deals covered (``finished`` ones only, unless ``False``): those of
    ``tournaments`` (none given: every tournament) whose tournament opened at or after
    ``since`` and before ``until``."""
    row = DealPlayedRow
    query = (
        select(
            row.tournament_id, row.number, row.player_id, row.game_id, row.client, row.finished_at
        )
        .join(TournamentRow, TournamentRow.id == row.tournament_id)
        .order_by(row.id)
    )
    if finished:
        query = query.where(row.finished_at.is_not(None))
    if tournaments:
        query = query.where(row.tournament_id.in_(list(tournaments)))
    if since is not None:
        query = query.where(TournamentRow.opens_at >= since)
    if until is not None:
        query = query.where(TournamentRow.opens_at < until)
    with store.engine.connect() as connection:
        return [CoveredDeal(*found) for found in connection.execute(query)]


def screen(
    store: GameStore,
    *,
    tournaments: Sequence[str] = (),
    since: datetime | None = None,
    until: datetime | None = None,
    worlds: int = WORLDS,
    node_budget: int = NODE_BUDGET,
    alpha: float = ALPHA,
    min_telling: int = MIN_TELLING,
) -> FairPlayReport:
    """The fair-play screen of the tournament deals covered (:func:`deals_covered`), from
    the games' records in the store; with the signs of one person behind several entries
    (:mod:`cardavia.tournaments.second_accounts`)."""
    started = time.process_time()
    sights: dict[str, list[DealSight]] = {}
    lines: list[PlayedDeal] = []
    covered = deals_covered(store, tournaments=tournaments, since=since, until=until)
    for deal in covered:
        stored = store.load(deal.game_id)
        if stored is None:
            continue
        record = Record.from_json(stored.record)
        sight = screen_deal(record, worlds=worlds, node_budget=node_budget)
        sights.setdefault(deal.player_id, []).append(sight)
        assert deal.finished_at is not None
        lines.append(
            PlayedDeal(
                deal.tournament_id,
                deal.number,
                deal.player_id,
                deal.client,
                record.deals[0].actions,
                deal.finished_at,
            )
        )
    every = deals_covered(store, tournaments=tournaments, since=since, until=until, finished=False)
    field, threshold, players = judge(sights, alpha=alpha, min_telling=min_telling)
    return FairPlayReport(
        tournaments=tuple(sorted({deal.tournament_id for deal in covered})),
        deals=sum(len(deals) for deals in sights.values()),
        field_rate=field,
        threshold=threshold,
        worlds=worlds,
        node_budget=node_budget,
        cpu_seconds=round(time.process_time() - started, 3),
        players=players,
        shared_clients=shared_clients(
            (deal.tournament_id, deal.player_id, deal.client) for deal in every
        ),
        repeated_lines=repeated_lines(lines),
    )


def report_data(report: FairPlayReport) -> dict[str, Any]:
    """The report as JSON-ready data."""
    data = asdict(report)
    data["listed"] = [player.player_id for player in report.listed]
    data["seconds_per_deal"] = round(report.seconds_per_deal, 4)
    return data


def report_json(report: FairPlayReport) -> str:
    return json.dumps(report_data(report), indent=2, sort_keys=True) + "\n"


def report_text(report: FairPlayReport) -> str:
    """The report in plain text, the players listed first."""
    lines = [
        "Cardavia fair-play screen",
        report.note,
        "",
        f"Tournaments: {', '.join(report.tournaments) or 'none'}",
        f"Deals analysed: {report.deals} ({report.worlds} worlds, {report.node_budget} nodes "
        f"a card; {report.seconds_per_deal:.2f} CPU seconds a deal)",
        f"Field: {report.field_rate:.1%} of telling decisions played double-dummy; a player "
        f"is listed below a tail of {report.threshold:.2g}",
        "",
        f"Listed for review: {len(report.listed)}",
    ]
    lines += [_player_line(player) for player in report.listed]
    lines += ["", "Every player screened:"]
    lines += [_player_line(player) for player in report.players]
    lines += ["", f"Accounts of one client in one tournament: {len(report.shared_clients)}"]
    lines += [
        f"  {shared.tournament_id} from {shared.client}: {', '.join(shared.players)}"
        for shared in report.shared_clients
    ]
    lines += ["", f"Lines repeated from an earlier entry: {len(report.repeated_lines)}"]
    lines += [
        f"  {line.tournament_id} deal {line.number}: {line.again} played {line.first}'s line "
        f"({line.own_actions} actions of their own)" + (", from the same client" * line.same_client)
        for line in report.repeated_lines
    ]
    return "\n".join(lines) + "\n"


def _player_line(player: PlayerScreen) -> str:
    return (
        f"  {player.player_id}: {player.sighted}/{player.telling} telling decisions "
        f"double-dummy ({player.rate:.0%}, field {player.field_rate:.0%}), z {player.z:+.1f}, "
        f"tail {player.tail:.2g}; {player.deals} deals, {player.cards} cards chosen"
    )


__all__ = [
    "ALPHA",
    "MIN_TELLING",
    "NODE_BUDGET",
    "NOTE",
    "SIGHT_MARGIN",
    "WORLDS",
    "CoveredDeal",
    "DealSight",
    "FairPlayReport",
    "PlayerScreen",
    "binomial_tail",
    "deals_covered",
    "is_sighted",
    "is_telling",
    "judge",
    "report_data",
    "report_json",
    "report_text",
    "screen",
    "screen_deal",
]
