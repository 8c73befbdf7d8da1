"""A tournament's scoring on hand-worked examples (tests/tournaments/worked.py): matchpoints
with ties, Neuberg's correction on the English Bridge Union's own examples, unplayed deals at
25 %, a field of one, places shared by equal scores, the par as a second view."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from tests.tournaments.worked import ALONE as ALONE_EXAMPLE
from tests.tournaments.worked import CLUB, Worked

from cardavia.tournaments.scoring import (
    ALONE,
    UNPLAYED,
    Result,
    against_par,
    matchpoints,
    neuberg,
    percentages,
    places,
    score,
    standings,
)


def scored(worked: Worked) -> dict[str, tuple[Fraction, bool, int | None]]:
    results = [
        Result(name, number, margin)
        for name, margins in worked.played.items()
        for number, margin in margins.items()
        if margin is not None
    ]
    table = standings(worked.deals, results, list(worked.played), worked.keyed)
    return {entry.player_id: (entry.percent, entry.ranked, entry.place) for entry in table.entries}


# -- One deal ------------------------------------------------------------------------------------


def test_a_result_scores_one_per_result_beaten_and_a_half_per_tie() -> None:
    assert matchpoints(20, [100, 20, 20, -50]) == Fraction(2)
    assert matchpoints(100, [20, 20, -50]) == 3
    assert matchpoints(-50, [100, 20]) == 0
    assert percentages([100, 20, 20, -50]) == {100: 100, 20: 50, -50: 0}


def test_a_deal_everyone_made_alike_is_an_average_for_all() -> None:
    assert percentages([62, 62, 62, 62, 62]) == {62: 50}


def test_a_field_of_one_scores_fifty_percent() -> None:
    assert percentages([-80]) == {-80: ALONE}
    assert percentages([-80], field=9) == {-80: Fraction(50)}  # Neuberg agrees


def test_neuberg_on_the_english_bridge_unions_examples() -> None:
    # Ten results where eleven were expected: a top is 19.9 of 20 (half-points), 99.5 %;
    # each result below it 2.2 half-points less; the bottom 0.1 of 20.
    ten = percentages(list(range(10)), field=11)
    assert ten[9] == Fraction(995, 10)
    assert ten[8] == Fraction(995, 10) - 11
    assert ten[0] == Fraction(5, 10)
    # Eight results where sixteen were expected: as if each had happened twice; a top is 29
    # of 30 half-points, the second 25 of 30.
    eight = percentages(list(range(8)), field=16)
    assert eight[7] == Fraction(29, 30) * 100
    assert eight[6] == Fraction(25, 30) * 100


def test_neuberg_keeps_a_full_field_and_the_deals_average() -> None:
    assert neuberg(Fraction(3, 2), results=4, field=4) == Fraction(3, 2)
    for margins, field in (([5, 3, 3, 0, -1], 9), ([1, 1, 2], 40), ([7, 7], 2)):
        scoring = percentages(margins, field=field)
        # Every deal's results average 50 % however few there are.
        assert sum(scoring[margin] for margin in margins) / len(margins) == 50
    with pytest.raises(ValueError, match="5 results on a field of 4"):
        neuberg(Fraction(0), results=5, field=4)


def test_a_deals_table_is_each_results_matchpoints_factored() -> None:
    # percentages() counts a deal's margins once; each result's definition agrees with it.
    draw = random.Random(22)
    for _ in range(50):
        margins = [draw.choice(range(-60, 70, 10)) for _ in range(draw.randint(2, 15))]
        field = draw.randint(len(margins), 20)
        table = percentages(margins, field=field)
        for index, margin in enumerate(margins):
            others = margins[:index] + margins[index + 1 :]
            points = neuberg(matchpoints(margin, others), results=len(margins), field=field)
            assert table[margin] == points * 100 / (field - 1)


# -- A tournament --------------------------------------------------------------------------------


def test_an_unplayed_or_unfinished_deal_scores_a_quarter() -> None:
    assert UNPLAYED == 25
    assert score([], deals=6) == 25
    assert score([Fraction(100), None], deals=4) == (100 + 25 + 25 + 25) / Fraction(4)
    with pytest.raises(ValueError, match="3 deals' results in a tournament of 2"):
        score([Fraction(50)] * 3, deals=2)
    with pytest.raises(ValueError, match="a tournament of 0 deals"):
        standings(0, [], [], set())


def test_equal_scores_share_a_place_and_the_next_counts_past_them() -> None:
    ranked = places({"a": Fraction(40), "b": Fraction(70), "c": Fraction(40), "d": Fraction(10)})
    assert ranked == {"b": 1, "a": 2, "c": 2, "d": 4}
    assert places({}) == {}


def test_the_worked_club_tournament() -> None:
    table = standings(
        CLUB.deals,
        [
            Result(name, number, margin)
            for name, margins in CLUB.played.items()
            for number, margin in margins.items()
            if margin is not None
        ],
        list(CLUB.played),
        CLUB.keyed,
    )
    assert table.field == 5
    for number, by_player in CLUB.percents.items():
        for name, percent in by_player.items():
            assert table.deals[number][CLUB.played[name][number] or 0] == percent, (name, number)
    assert scored(CLUB) == {
        name: (CLUB.scores[name], name in CLUB.keyed, CLUB.places[name]) for name in CLUB.played
    }
    assert [entry.player_id for entry in table.entries] == [
        "ana",
        "bob",
        "cleo",
        "gus",
        "dan",
        "eve",
    ]


def test_a_tournament_of_one_player() -> None:
    assert scored(ALONE_EXAMPLE) == {"solo": (Fraction(325, 12), True, 1)}


def test_a_guest_is_scored_unplaced_and_counts_in_the_field() -> None:
    alone = standings(1, [Result("ana", 1, 10)], ["ana"], {"ana"})
    with_guest = standings(1, [Result("ana", 1, 10), Result("gus", 1, 50)], ["ana", "gus"], {"ana"})
    assert [(e.percent, e.place) for e in alone.entries] == [(50, 1)]
    assert [(e.player_id, e.percent, e.ranked, e.place) for e in with_guest.entries] == [
        ("gus", 100, False, None),
        ("ana", 0, True, 1),
    ]


def test_the_par_is_a_second_view() -> None:
    assert against_par(100, 30) == 70
    assert against_par(-50, 30) == -80
