"""Quick play's seating, pure (cardavia.players.matching): balanced teams, language first,
people kept apart and one client's entries never together, the wait before computer players
fill the table, the level of those computer players, and the longer wait of a player who
abandons often."""

from __future__ import annotations

import itertools
import random

from cardavia.belote import Seat
from cardavia.players.matching import (
    DEFAULT_WAIT,
    Formed,
    Waiting,
    extra_wait,
    form_tables,
    seat_table,
)
from cardavia.players.ratings import computer_rating, nearest_level


def person(
    name: str, skill: float = 25.0, lang: str = "fr", since: float = 0.0, **more: object
) -> Waiting:
    return Waiting(name, skill=skill, lang=lang, since=since, **more)  # type: ignore[arg-type]


def teams(table: Formed) -> tuple[float, float]:
    def skill(seat: Seat) -> float:
        who = table.seats[seat]
        return computer_rating(table.level, "classic").mu if who is None else who.skill

    return skill(Seat.N) + skill(Seat.S), skill(Seat.E) + skill(Seat.W)


def test_four_people_form_a_table_at_once_with_balanced_partnerships() -> None:
    people = [person("a", 40), person("b", 30), person("c", 20), person("d", 10)]
    (table,) = form_tables(people, now=0.0)
    assert table.people_count == 4
    assert {w.player for w in table.people.values()} == {"a", "b", "c", "d"}
    # The strongest partners the weakest: 40 + 10 against 30 + 20.
    assert teams(table) in ((50.0, 50.0),)
    partners = {table.seats[Seat.N].player, table.seats[Seat.S].player}  # type: ignore[union-attr]
    assert partners in ({"a", "d"}, {"b", "c"})


def test_any_four_skills_are_split_as_evenly_as_can_be() -> None:
    rng = random.Random(3)
    for _ in range(200):
        skills = [rng.uniform(10, 40) for _ in range(4)]
        table = seat_table([person(str(i), s) for i, s in enumerate(skills)], "club")
        ns, ew = teams(table)
        best = min(
            abs(skills[a] + skills[b] - sum(skills) + skills[a] + skills[b])
            for a, b in itertools.combinations(range(4), 2)
        )
        assert abs(ns - ew) <= best + 1e-9


def test_three_waiting_do_not_form_a_table_before_the_wait() -> None:
    people = [person("a"), person("b"), person("c")]
    assert form_tables(people, now=DEFAULT_WAIT - 0.1) == []
    (table,) = form_tables(people, now=DEFAULT_WAIT)
    assert table.people_count == 3 and sum(w is None for w in table.seats.values()) == 1


def test_the_wait_is_a_setting() -> None:
    people = [person("a"), person("b")]
    assert form_tables(people, now=2.0, wait=3.0) == []
    (table,) = form_tables(people, now=3.0, wait=3.0)
    assert table.people_count == 2


def test_two_people_with_two_computers_are_partners_when_skills_allow() -> None:
    (table,) = form_tables([person("a"), person("b", since=1.0)], now=DEFAULT_WAIT + 1)
    assert table.level == "club"
    people = {seat for seat, who in table.seats.items() if who is not None}
    assert people in ({Seat.N, Seat.S}, {Seat.E, Seat.W})


def test_one_person_alone_sits_with_three_computers_of_the_nearest_level() -> None:
    (strong,) = form_tables([person("a", 29.5)], now=DEFAULT_WAIT)
    assert strong.people_count == 1 and strong.level == "strong"
    (weak,) = form_tables([person("b", 15.0)], now=DEFAULT_WAIT)
    assert weak.level == "beginner"
    assert nearest_level(25.0, "classic") == "club" and nearest_level(100.0, "coinche") == "expert"


def test_language_first_where_there_is_a_choice() -> None:
    french = [person(f"f{i}", lang="fr", since=i) for i in range(4)]
    arabic = [person(f"a{i}", lang="ar", since=i + 0.5) for i in range(4)]
    tables = form_tables(french + arabic, now=10.0)
    assert len(tables) == 2
    for table in tables:
        assert len({w.lang for w in table.people.values()}) == 1
        assert table.lang == next(iter(table.people.values())).lang


def test_skill_second_the_nearest_sit_together() -> None:
    people = [
        person(str(i), skill=s, since=i) for i, s in enumerate([25, 40, 24, 41, 26, 39, 23, 42])
    ]
    tables = form_tables(people, now=1.0 + 10)
    groups = sorted(sorted(w.skill for w in t.people.values()) for t in tables)
    assert groups == [[23, 24, 25, 26], [39, 40, 41, 42]]


def test_a_table_of_mixed_languages_speaks_the_most_common() -> None:
    people = [
        person("a", lang="ar"),
        person("b", lang="fr"),
        person("c", lang="fr"),
        person("d", lang="pl"),
    ]
    (table,) = form_tables(people, now=0.0)
    assert table.lang == "fr"


def test_people_kept_apart_never_share_a_table() -> None:
    a = person("a", apart=frozenset({"b"}))
    b, c, d, e = (person(n, since=1.0) for n in "bcde")
    (table,) = form_tables([a, b, c, d, e], now=2.0)
    seated = {w.player for w in table.people.values()}
    assert not {"a", "b"} <= seated
    # The block is either way: b's own list is empty, a's names b.
    later = form_tables([a, b], now=DEFAULT_WAIT + 5)
    assert sorted(t.people_count for t in later) == [1, 1]


def test_entries_of_one_client_never_share_a_table() -> None:
    one = [person(n, client="203.0.113.7", since=0.1 * i) for i, n in enumerate("abcd")]
    assert form_tables(one, now=1.0) == []
    later = form_tables(one, now=DEFAULT_WAIT + 5)
    assert sorted(t.people_count for t in later) == [1, 1, 1, 1]
    # Beside others: one of them at each table, never two.
    others = [person(n, client=f"198.51.100.{i}", since=1.0) for i, n in enumerate("efghij")]
    tables = form_tables([*one, *others], now=DEFAULT_WAIT + 5)
    for table in tables:
        clients = [w.client for w in table.people.values()]
        assert len(clients) == len(set(clients))
    assert sum(t.people_count for t in tables) == 10
    # No client known (""): kept apart from nobody.
    (table,) = form_tables([person(n) for n in "wxyz"], now=0.0)
    assert table.people_count == 4


def test_nobody_is_seated_twice() -> None:
    rng = random.Random(11)
    people = [
        person(str(i), skill=rng.uniform(15, 35), lang=rng.choice("ab"), since=rng.uniform(0, 30))
        for i in range(37)
    ]
    tables = form_tables(people, now=60.0)
    seated = [w.player for t in tables for w in t.people.values()]
    assert len(seated) == len(set(seated)) == 37


def test_a_player_who_abandons_often_waits_longer() -> None:
    assert extra_wait(4, 0) == 0.0 and extra_wait(0, 4) == 0.0  # fewer than 5 games
    assert extra_wait(8, 2) == 0.0  # 80 %
    assert extra_wait(7, 3) == 10.0  # 70 %
    assert extra_wait(13, 7) == 20.0  # 65 %: two steps begun
    assert extra_wait(0, 10) == 60.0  # capped
    slow = person("s", slower=extra_wait(7, 3))
    others = [person(n) for n in "bcd"]
    assert form_tables([slow, *others], now=5.0) == []
    assert [t.people_count for t in form_tables([slow, *others], now=10.0)] == [4]
    # Alone, the computer players come after the wait and the extra wait both.
    assert form_tables([slow], now=DEFAULT_WAIT + 9.9) == []
    assert len(form_tables([slow], now=DEFAULT_WAIT + 10.0)) == 1
