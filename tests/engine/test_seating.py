"""Seating: table sizes, byes, repeat-avoiding rounds, stored designs, seat balance."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from engine.draw import stream
from engine.seating import (
    DESIGNS,
    PLANNED,
    balance_seats,
    design,
    level_mix,
    level_seating,
    mix,
    partition,
    repeats,
    seat_classes,
    seat_counts,
    seat_round,
    seat_spread,
)


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


def seated(
    n: int, size: int, rounds: int, use_design: bool, planned: int | None = None
) -> list[list[tuple[int, ...]]]:
    """Rounds as the formats seat them (:func:`seat_round`), one at a time; ``planned`` is
    the event's length when the caller knows it."""
    history: list[list[tuple[int, ...]]] = []
    for r in range(rounds):
        drng = random.Random(7) if use_design else None
        history.append(
            seat_round(
                list(range(n)),
                [size] * (n // size),
                history,
                random.Random(r),
                design_rng=drng,
                rounds=planned,
            )
        )
    return history


def test_twenty_four_players_meet_nobody_twice_in_seven_rounds_of_four() -> None:
    history = seated(24, 4, 7, use_design=True)
    assert repeats(history) == 0
    assert seat_spread(history) <= 1


def test_stored_designs_keep_every_seat_count_within_one_after_every_round() -> None:
    for n, size, rounds in ((16, 4, 5), (24, 4, 7), (15, 3, 7), (21, 3, 10)):
        history = seated(n, size, rounds, use_design=True)
        assert all(seat_spread(history[:k]) <= 1 for k in range(1, rounds + 1)), (n, size)


def test_searched_rounds_keep_seat_counts_within_one() -> None:
    """Mix alone leaves 9 of 10 tables unlevel in 40 players' round 4; levelling fixes it."""
    for n, size, rounds in ((40, 4, 6), (13 * 3, 3, 6)):
        history = seated(n, size, rounds, use_design=False)
        assert seat_spread(history) <= 1, (n, size)


def test_level_seating_sees_when_two_players_need_the_same_last_seat() -> None:
    counts = {(1, 0): 1, (1, 1): 1, (1, 2): 1, (2, 0): 1, (2, 1): 1, (2, 2): 1}
    assert not level_seating([1, 2, 3, 4], counts)  # both still need seat D
    assert level_seating([1, 3, 4, 5], counts)


def test_balance_seats_rotates_seat_a() -> None:
    history: list[list[tuple[int, ...]]] = []
    rng = random.Random(3)
    for _ in range(4):
        tables = mix(list(range(16)), [4] * 4, history, rng, design_rng=random.Random(1))
        history.append(balance_seats(tables, history, rng))
    assert seat_spread(history) <= 2


def test_seat_classes_give_each_seat_its_tables_and_everyone_a_least_used_seat() -> None:
    history = seated(24, 4, 7, use_design=False)  # round 8: one least-used seat each
    counts = seat_counts(history)
    classes = seat_classes(list(range(24)), 4, 6, counts, random.Random(2))
    assert sorted(classes.values()) == [x for x in range(4) for _ in range(6)]
    for p, x in classes.items():
        assert counts.get((p, x), 0) == min(counts.get((p, i), 0) for i in range(4))


def test_level_mix_chooses_tables_and_seats_together_so_every_table_is_level() -> None:
    history = seated(24, 4, 7, use_design=False)
    counts = seat_counts(history)
    tables = level_mix(list(range(24)), [4] * 6, history, random.Random(2))
    assert sorted(p for t in tables for p in t) == list(range(24))
    for table in tables:  # stored in seat order: each player on a least-used seat
        for i, p in enumerate(table):
            assert counts.get((p, i), 0) == min(counts.get((p, j), 0) for j in range(4))


def test_a_hundred_players_keep_seats_within_one_over_twelve_searched_rounds() -> None:
    """Before seats and tables were chosen together, rounds 8 and 12 left spread 2."""
    history = seated(100, 4, 12, use_design=False)
    assert seat_spread(history) <= 1
    assert repeats(history) == 0


def test_a_round_that_can_be_levelled_trades_a_few_repeats_for_level_seats() -> None:
    """40 players' round 8: every player has one least-used seat left; the benchmark wants both
    targets (≤ 47.5 repeats over 12 rounds, seats within one), so a fully level round wins."""
    history = seated(40, 4, 7, use_design=False)
    chosen = seat_round(list(range(40)), [4] * 10, history, random.Random(8))
    assert seat_spread([*history, chosen]) <= 1
    assert repeats([*history, chosen]) - repeats(history) <= 5


def test_every_planned_schedule_seats_everyone_once_a_round_in_level_seats() -> None:
    for n, size in PLANNED:
        schedule = design(n, size, 1)
        assert len(schedule) > 1
        for rnd in schedule:
            assert sorted(itertools.chain.from_iterable(rnd)) == list(range(n))
        assert all(seat_spread(schedule[:k]) <= 1 for k in range(1, len(schedule) + 1))


def test_twelve_players_known_to_play_four_rounds_get_the_planned_schedule() -> None:
    history = seated(12, 4, 4, use_design=True, planned=4)
    assert [repeats(history[:k]) for k in range(1, 5)] == [0, 3, 6, 13]
    assert seat_spread(history) == 0  # every player in every seat once


def test_the_planned_schedule_is_used_only_when_the_event_fits_in_it() -> None:
    short = seated(12, 4, 3, use_design=True, planned=3)
    assert repeats(short) == 6
    for planned in (None, 5):  # unknown or longer: the round-by-round search
        history = seated(12, 4, 3, use_design=True, planned=planned)
        assert repeats(history) > 6


def test_groupmates_stay_apart_even_where_repeats_cannot_all_be_avoided() -> None:
    """16 players in 4 departments of 4, tables of 4, 5 rounds: every table can hold one
    of each department, but not without repeat meetings (each meets 15, only 12 are from
    other departments). The search must never trade a teammate pair for fewer repeats."""
    groups = {p: (p - 1) // 4 for p in range(1, 17)}
    for seed in ("a", "b", "c"):
        history: list[list[tuple[int, ...]]] = []
        for r in range(5):
            rng = stream(seed, f"round{r + 1}")
            history.append(seat_round(list(groups), [4] * 4, history, rng, groups=groups))
        for tables in history:
            assert all(len({groups[p] for p in t}) == 4 for t in tables)
        assert seat_spread(history) <= 1
