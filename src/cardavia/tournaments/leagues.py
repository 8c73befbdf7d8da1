"""The weekly leagues (docs/tournaments.md, "Leagues"): the ranked players (a passkey) in
divisions — 1 the top, :data:`DIVISIONS` the lowest — each of groups of about
:data:`GROUP_SIZE` players of similar rating; a season is an ISO week (Monday 00:00 UTC to
the next), scored from the tournaments played in it; at its end the top of each group goes
up a division and the bottom down.

- **Points**: the sum of the player's best :data:`BEST` tournament percentages of the week
  (the tournaments that close within it): playing more can only help, up to five.
- **Places** in a group: by points, then by tournaments played, then by lot (the player's
  id: the same order for everyone, every time).
- **Movements** (:func:`group_outcomes`): the first :func:`moves` of a group who played at
  least one tournament go ``up`` (but in division 1), the last :func:`moves` go ``down`` (but
  in the lowest division), as does every member who played no tournament; a member of the
  lowest division who played none is ``out`` (back as a newcomer when they play again); the
  others ``stay``.
- **The next season** (:func:`regroup`): each division's members, moved, are dealt into
  groups of about :data:`GROUP_SIZE` by rating (the closest ratings together).
- **A newcomer** — a ranked player who plays a tournament and is in no group this week —
  enters the lowest division (:func:`newcomers`): the first of its groups with room, else a
  new group.
- **The hall of fame**: each season's winner of each group of division 1.

:func:`season_due` does it in the store: closes a season whose week is over (places,
movements, the next season opened with everyone placed; one transaction, one process
does it), then scores the week under way and brings its newcomers in.

>>> week_of(datetime(2026, 12, 2, 1, 0, tzinfo=UTC)).id
'2026-W49'
>>> season_points([50.0, 62.5, 40.0, 71.0, 55.0, 30.0, 45.0])
283.5
>>> moves(30), moves(7), moves(2), moves(1)
(5, 1, 1, 0)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Final

from cardavia.players.ratings import FAMILIES, MU
from cardavia.store.db import GameStore
from cardavia.store.leagues import Member, Season

GROUP_SIZE: Final = 30
"""The players of a group, about."""
DIVISIONS: Final = 5
"""How many divisions: 1 the top, 5 the lowest, where newcomers enter."""
BEST: Final = 5
"""The tournaments of a week that count: the best five."""
MOVING_SHARE: Final = 6
"""One member in six of a group goes up, one in six down (5 of 30)."""
UP: Final = "up"
DOWN: Final = "down"
STAY: Final = "stay"
OUT: Final = "out"


def week_of(moment: datetime) -> Season:
    """The season (ISO week, in UTC) ``moment`` falls in, not closed."""
    day = moment.astimezone(UTC)
    year, week, weekday = day.isocalendar()
    start = datetime(day.year, day.month, day.day, tzinfo=UTC) - timedelta(days=weekday - 1)
    return Season(f"{year}-W{week:02d}", start, start + timedelta(days=7), None)


def season_points(percents: Sequence[float]) -> float:
    """A week's points: the sum of the best :data:`BEST` tournament percentages."""
    return round(sum(sorted(percents, reverse=True)[:BEST]), 2)


def moves(size: int) -> int:
    """How many of a group of ``size`` go up (and how many down): one in
    :data:`MOVING_SHARE`, at least one of a group of two or more."""
    if size < 2:
        return 0
    return max(1, round(size / MOVING_SHARE))


def ordered(members: Sequence[Member]) -> list[Member]:
    """A group's members in the order of its standings: points, then tournaments played,
    then the player's id."""
    return sorted(members, key=lambda one: (-one.points, -one.tournaments, one.player_id))


def group_outcomes(members: Sequence[Member], *, lowest: int = DIVISIONS) -> list[Member]:
    """A group's members at the season's end, in order, with their place and movement."""
    count = moves(len(members))
    outcomes = []
    for place, member in enumerate(ordered(members), start=1):
        if member.tournaments == 0:
            movement = OUT if member.division >= lowest else DOWN
        elif place <= count and member.division > 1:
            movement = UP
        elif place > len(members) - count and member.division < lowest:
            movement = DOWN
        else:
            movement = STAY
        outcomes.append(
            Member(
                member.player_id,
                member.division,
                member.group,
                member.points,
                member.tournaments,
                place,
                movement,
            )
        )
    return outcomes


def season_outcomes(members: Sequence[Member], *, lowest: int = DIVISIONS) -> list[Member]:
    """Every group's :func:`group_outcomes`."""
    groups: dict[tuple[int, int], list[Member]] = defaultdict(list)
    for member in members:
        groups[member.division, member.group].append(member)
    return [
        outcome for key in sorted(groups) for outcome in group_outcomes(groups[key], lowest=lowest)
    ]


def next_division(outcome: Member) -> int | None:
    """The division a member plays next season in (``None``: out of the leagues)."""
    if outcome.movement == OUT:
        return None
    if outcome.movement == UP:
        return outcome.division - 1
    if outcome.movement == DOWN:
        return outcome.division + 1
    return outcome.division


def regroup(
    divisions: Mapping[str, int], skills: Mapping[str, float]
) -> list[tuple[str, int, int]]:
    """The groups of a new season: each division's players (``divisions``: player →
    division) dealt by skill (the highest first; a player without one at the rating's mean)
    into as few groups of at most :data:`GROUP_SIZE` as can be, of even sizes. Answers
    (player, division, group)."""
    by_division: dict[int, list[str]] = defaultdict(list)
    for player, division in divisions.items():
        by_division[division].append(player)
    placed = []
    for division, players in sorted(by_division.items()):
        players.sort(key=lambda player: (-skills.get(player, MU), player))
        count = math.ceil(len(players) / GROUP_SIZE)
        size, extra = divmod(len(players), count)
        start = 0
        for group in range(1, count + 1):
            end = start + size + (1 if group <= extra else 0)
            placed += [(player, division, group) for player in players[start:end]]
            start = end
    return placed


def newcomers(
    sizes: Mapping[int, int], players: Sequence[str], *, division: int = DIVISIONS
) -> list[tuple[str, int, int]]:
    """Where newcomers enter the division (``sizes``: its groups' sizes now): the first
    group with room, in order, else a new one. Answers (player, division, group)."""
    sizes = dict(sizes)
    placed = []
    for player in sorted(players):
        group = next((g for g in sorted(sizes) if sizes[g] < GROUP_SIZE), None)
        if group is None:
            group = max(sizes, default=0) + 1
        sizes[group] = sizes.get(group, 0) + 1
        placed.append((player, division, group))
    return placed


def _scored(store: GameStore, season: Season) -> list[Member]:
    """The season's members with their points from the week's tournaments, written."""
    results = store.leagues.week_results(season.starts_at, season.ends_at)
    members = store.leagues.members(season.id)
    scored = []
    changed = []
    for member in members:
        percents = results.get(member.player_id, [])
        points, played = season_points(percents), len(percents)
        if (points, played) != (member.points, member.tournaments):
            changed.append((member.player_id, points, played))
        scored.append(Member(member.player_id, member.division, member.group, points, played))
    store.leagues.score(season.id, changed)
    return scored


def _skills(store: GameStore, players: Sequence[str]) -> dict[str, float]:
    """Each player's best rating mean of the two families (a player never rated: none)."""
    skills: dict[str, float] = {}
    for family in FAMILIES:
        for player, rating in store.ratings.of_players(players, family).items():
            skills[player] = max(skills.get(player, rating.mu), rating.mu)
    return skills


def _bring_in(store: GameStore, season: Season) -> bool:
    """The season's newcomers — ranked players of its week's tournaments in no group — put
    in the lowest division's groups. ``False``: some could not be (another process was
    putting them in: the next call will)."""
    members = store.leagues.members(season.id)
    present = {member.player_id for member in members}
    results = store.leagues.week_results(season.starts_at, season.ends_at)
    new = [player for player in results if player not in present]
    if new:
        sizes: dict[int, int] = defaultdict(int)
        for member in members:
            if member.division == DIVISIONS:
                sizes[member.group] += 1
        return store.leagues.enrol(season.id, newcomers(sizes, new)) == len(new)
    return True


def close(store: GameStore, season: Season, *, now: datetime) -> bool:
    """Close ``season`` (its week over): its last newcomers brought in, its places and
    movements, and the season of ``now``'s week opened with everyone who stays in the leagues
    placed. ``False``: closed already (here or by another process)."""
    _bring_in(store, season)
    outcomes = season_outcomes(_scored(store, season))
    moved = {
        one.player_id: division for one in outcomes if (division := next_division(one)) is not None
    }
    placed = regroup(moved, _skills(store, list(moved)))
    following = week_of(max(now, season.ends_at))
    return store.leagues.close_season(
        season.id, outcomes, following=following, placed=placed, at=now
    )


def season_due(store: GameStore, *, now: datetime) -> list[str]:
    """Close every season whose week is over, open this week's, score it from the
    tournaments ranked so far and bring in its newcomers (only when a tournament of the week
    was ranked since this process last did: it runs after every closing pass). Idempotent;
    two processes at once: one closes, the other finds it closed. Answers the seasons this
    call closed."""
    closed = [
        season.id for season in store.leagues.due_seasons(now) if close(store, season, now=now)
    ]
    current = week_of(now)
    if store.leagues.season(current.id) is None:
        store.leagues.open_season(current)
    mark = store.leagues.week_mark(current.starts_at, current.ends_at)
    if store.leagues.scored.get(current.id) != mark:
        complete = _bring_in(store, current)
        _scored(store, current)
        if complete:
            store.leagues.scored[current.id] = mark
    return closed


__all__ = [
    "BEST",
    "DIVISIONS",
    "DOWN",
    "GROUP_SIZE",
    "MOVING_SHARE",
    "OUT",
    "STAY",
    "UP",
    "close",
    "group_outcomes",
    "moves",
    "newcomers",
    "next_division",
    "ordered",
    "regroup",
    "season_due",
    "season_outcomes",
    "season_points",
    "week_of",
]
