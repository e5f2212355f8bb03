"""Seating: table sizes, byes, repeat-avoiding rounds, stored designs, seat balance."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from engine.seating import DESIGNS, balance_seats, design, mix, partition, repeats, seat_spread


def test_short_tables_are_preferred_to_byes() -> None:
    assert partition(7, (4, 3)) == ([4, 3], 0)
    assert partition(6, (4, 3)) == ([3, 3], 0)
    assert partition(5, (4, 3)) == ([4], 1)
    assert partition(16, (4, 3)) == ([4, 4, 4, 4], 0)


def test_without_short_tables_the_leftovers_get_byes() -> None:
    assert partition(7, (4, 3), short_tables=False) == ([4], 3)


@given(st.integers(min_value=2, max_value=300), st.sampled_from([(4, 3), (4,), (3,), (2,)]))
def test_partition_seats_everyone_but_the_byes(n: int, sizes: tuple[int, ...]) -> None:
    tables, byes = partition(n, sizes)
    assert sum(tables) + byes == n
    assert all(t in sizes for t in tables)
    assert byes < max(sizes)


def test_every_stored_design_has_no_repeat_and_seats_everyone() -> None:
    for n, size in DESIGNS:
        rounds = design(n, size)
        for rnd in rounds:
            assert sorted(itertools.chain.from_iterable(rnd)) == list(range(n))
        assert repeats(rounds) == 0, (n, size)


def run(n: int, size: int, rounds: int, use_design: bool) -> list[list[list[int]]]:
    players = list(range(100, 100 + n))
    history: list[list[list[int]]] = []
    for r in range(rounds):
        drng = random.Random(7) if use_design else None
        history.append(
            mix(players, [size] * (n // size), history, random.Random(r), design_rng=drng)
        )
    return history


def test_sixteen_players_meet_nobody_twice_in_five_rounds_of_four() -> None:
    assert repeats(run(16, 4, 5, use_design=True)) == 0


def test_kirkman_schoolgirls_fifteen_in_threes_for_seven_days() -> None:
    assert repeats(run(15, 3, 7, use_design=True)) == 0


def test_search_alone_avoids_repeats_when_there_is_room() -> None:
    assert repeats(run(40, 4, 5, use_design=False)) == 0


def test_teammates_never_share_a_table_when_possible() -> None:
    players = list(range(24))
    teams = {p: p // 3 for p in players}  # 8 teams of 3
    tables = mix(players, [4] * 6, [], random.Random(1), groups=teams)
    for table in tables:
        assert len({teams[p] for p in table}) == len(table)


def test_seats_rotate_so_seat_counts_stay_within_two() -> None:
    """Issue 4 asks for a spread of 1; the per-table choice guarantees 2 so far."""
    history: list[list[tuple[int, ...]]] = []
    rng = random.Random(3)
    for _ in range(4):
        tables = mix(list(range(16)), [4] * 4, history, rng, design_rng=random.Random(1))
        history.append(balance_seats(tables, history, rng))
    assert seat_spread(history) <= 2
    assert all(max(t) != min(t) for t in zip(*[[r[0][0]] for r in history], strict=True))
