"""People in the engine: pairs kept apart at the tables, and a drop-out's line in Swiss."""

from __future__ import annotations

import itertools
from decimal import Decimal

from engine.formats.knockout import Knockout
from engine.formats.swiss import Swiss
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import (
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.seating import apart_clashes, keep_apart


def together(tables: list[tuple[int, ...]], a: int, b: int) -> bool:
    return any(a in t and b in t for t in tables)


def test_a_pair_at_one_table_is_split_by_a_swap_that_keeps_every_seat_filled() -> None:
    tables = [(1, 2, 3, 4), (5, 6, 7, 8)]
    kept, ok = keep_apart(tables, [(1, 2)], [])
    assert ok and not together(kept, 1, 2)
    assert sorted(p for t in kept for p in t) == list(range(1, 9))
    assert [len(t) for t in kept] == [4, 4]


def test_swaps_prefer_players_not_met_before() -> None:
    """2 must leave 1's table: trading with 5 would seat 5 with 3 again, with 6 would seat
    6 with 1 again; trading with 7 meets nobody twice."""
    history = [[(3, 5), (1, 6), (2, 7)]]
    kept, ok = keep_apart([(1, 2, 3), (5, 6, 7)], [(1, 2)], history)
    assert ok and not together(kept, 1, 2)
    assert sorted(kept[0]) == [1, 3, 7]


def test_the_exact_search_finds_the_seating_swaps_cannot() -> None:
    """A triangle of pairs plus a fourth player kept from all three: four tables of two
    can hold them only one of the four per table. Every seating the search returns keeps
    all apart."""
    pairs = [(1, 2), (1, 3), (2, 3), (1, 4), (2, 4), (3, 4)]
    tables = [(1, 2), (3, 4), (5, 6), (7, 8)]
    kept, ok = keep_apart(tables, pairs, [])
    assert ok and apart_clashes(kept, pairs) == 0


def test_when_no_seating_keeps_them_apart_the_seating_stays_and_says_so() -> None:
    """Three players pairwise apart, two tables: impossible."""
    pairs = [(1, 2), (1, 3), (2, 3)]
    tables = [(1, 2, 5), (3, 4, 6)]
    kept, ok = keep_apart(tables, pairs, [])
    assert not ok and kept == tables


def test_swiss_keeps_apart_pairs_in_every_round_it_can() -> None:
    game = find_game("xiangqi")({})
    fmt = Swiss(game, {"rounds": "4"})
    players = tuple(range(1, 11))
    apart = ((1, 2), (3, 4), (1, 5))
    state = TournamentState(players, "ab" * 32, apart=apart)
    for number in range(1, 5):
        plan = fmt.plan(state)
        assert isinstance(plan, RoundPlan)
        assert "apart-impossible" not in plan.notes
        for a, b in apart:
            assert not together([t.players for t in plan.tables], a, b)
        results = tuple(
            TableResult(t, TableStatus.CONFIRMED, (Decimal(1), Decimal(0))) for t in plan.tables
        )
        state = TournamentState(
            players, state.seed, (*state.rounds, RoundRecord(number, plan, results)), apart=apart
        )


def test_a_knockout_lot_moves_a_pair_apart_and_notes_when_it_cannot() -> None:
    game = find_game("bigtwo")({})
    fmt = Knockout(game, {})
    players = tuple(range(1, 9))
    for seed in ("00", "01", "02", "03"):
        plan = fmt.plan(TournamentState(players, seed * 32, apart=((1, 2),)))
        assert isinstance(plan, RoundPlan)
        assert not together([t.players for t in plan.tables], 1, 2)
    pairs = tuple(itertools.combinations((1, 2, 3), 2))  # three apart, two tables
    plan = fmt.plan(TournamentState(players, "ab" * 32, apart=pairs))
    assert isinstance(plan, RoundPlan) and "apart-impossible" in plan.notes


def test_a_swiss_drop_out_keeps_its_points_and_place_and_is_not_drawn() -> None:
    """4 players, round 1: 1 beats 2, 3 beats 4; 3 drops out after it. 3 keeps its point
    and ranks by it (not at the bottom, as a disqualified player does); round 2 seats the
    three others (one bye)."""
    game = find_game("xiangqi")({})
    fmt = Swiss(game, {"rounds": "3"})
    r1 = RoundPlan((Table(1, (1, 2)), Table(2, (3, 4))), (), "", "round1")
    results = tuple(
        TableResult(t, TableStatus.CONFIRMED, (Decimal(1), Decimal(0))) for t in r1.tables
    )
    state = TournamentState(
        (1, 2, 3, 4),
        "cd" * 32,
        (RoundRecord(1, r1, results),),
        removed=frozenset({3}),
        dropped={3: 1},
        entered={4: 1},
    )
    lines = {s.player: s for s in fmt.standings(state)}
    assert lines[3].points == 1 and lines[3].rank <= 2
    assert (lines[3].stage, lines[3].stage_round) == ("dropped", 1)
    assert (lines[4].stage, lines[4].stage_round) == ("entered", 1)
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan)
    seated = {p for t in plan.tables for p in t.players} | set(plan.byes)
    assert seated == {1, 2, 4}


def test_a_swap_never_seats_colleagues_together_when_another_swap_does_not() -> None:
    """2 must leave 1's table; 2 and 5 are of one department, so 2 trades places with 5
    rather than joining them."""
    kept, ok = keep_apart([(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 2)], [], {2: 1, 5: 1})
    assert ok and 2 in kept[1] and 5 in kept[0]


def test_teams_take_no_late_entrant_their_lot_is_dealt_at_the_draw() -> None:
    assert Teams.late_entry is None and Swiss.late_entry == "2"
