"""Table knockout 分桌淘汰 (docs/rules/knockout.md): draws, advancing, byes, forfeits, final."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.draw import flip_order
from engine.errors import ConfigError, FormatError
from engine.formats import FORMATS, find_format
from engine.formats.knockout import Knockout
from engine.games import find_game
from engine.model import (
    Finished,
    Penalty,
    RoundPlan,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.engine.test_formats_support import by_id, play, record, seated_once

BIGTWO = find_game("bigtwo")()


def state(n: int, seed: str = "seed", **kw: object) -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed, **kw)  # type: ignore[arg-type]


def first(fmt: Knockout, st_: TournamentState) -> RoundPlan:
    plan = fmt.plan(st_)
    assert isinstance(plan, RoundPlan)
    return plan


def test_find_format_by_key_or_chinese_alias() -> None:
    assert find_format("knockout") is Knockout
    assert find_format("分桌淘汰") is Knockout
    with pytest.raises(ConfigError) as err:
        find_format("nope")
    assert err.value.code == "unknown-format"
    assert "knockout" in err.value.params["known"]  # type: ignore[operator]
    assert Knockout in FORMATS


def test_sixteen_big_two_players_play_four_tables_then_a_final_of_four() -> None:
    fmt = Knockout(BIGTWO)
    final_state, finished = play(fmt, state(16))
    r1, r2 = final_state.rounds
    assert [len(t.players) for t in r1.plan.tables] == [4, 4, 4, 4]
    assert r1.plan.seed_label == "round1" and r1.plan.byes == ()
    assert r2.plan.stage == "final" and len(r2.plan.tables) == 1
    winners_r1 = {max(t.players) for t in r1.plan.tables}
    assert set(r2.plan.tables[0].players) == winners_r1
    assert finished.ranking[0].player == 16 and finished.ranking[0].alive
    assert [s.rank for s in finished.ranking] == list(range(1, 17))
    assert not any(s.alive for s in finished.ranking[1:])


def test_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    fmt = Knockout(BIGTWO)
    assert first(fmt, state(16, "a")) == first(fmt, state(16, "a"))
    assert first(fmt, state(16, "a")).tables != first(fmt, state(16, "b")).tables


def test_advance_knob_sends_the_top_two_of_each_table() -> None:
    fmt = Knockout(BIGTWO, {"advance": "2"})
    st2 = record(state(16), first(fmt, state(16)), by_id)
    plan = first(fmt, st2)
    assert len(seated_once(plan)) == 8
    with pytest.raises(ConfigError) as err:
        Knockout(BIGTWO, {"advance": "3"})  # a short table of 3 could not eliminate anyone
    assert err.value.code == "knob-range"


def test_leftover_players_sit_at_a_short_table_rather_than_out() -> None:
    plan = first(Knockout(BIGTWO), state(7))
    assert sorted(len(t.players) for t in plan.tables) == [3, 4] and plan.byes == ()


def test_leftover_bye_rule_of_seed_000_gives_byes_into_the_next_draw() -> None:
    fmt = Knockout(BIGTWO, {"leftover": "bye"})
    plan = first(fmt, state(7))
    assert [len(t.players) for t in plan.tables] == [4] and len(plan.byes) == 3
    assert "bye" in plan.notes
    nxt = first(fmt, record(state(7), plan, by_id))
    assert set(plan.byes) <= set(seated_once(nxt))


def tie_at_the_top(_n: int, _plan: RoundPlan, table: Table) -> TableResult:
    """Seats A and B tie for first: 10, 10, -10, -10."""
    scores = tuple(Decimal(v) for v in (10, 10, -10, -10)[: len(table.players)])
    return TableResult(table, TableStatus.CONFIRMED, scores)


def test_tie_for_the_advancing_place_is_decided_by_a_verifiable_flip() -> None:
    fmt = Knockout(BIGTWO)
    st1 = record(state(16), first(fmt, state(16)), tie_at_the_top)
    plan = first(fmt, st1)
    assert "tiebreak-flip" in plan.notes
    for table in st1.rounds[0].plan.tables:
        a, b = table.players[:2]
        flip = flip_order([a, b], "seed", f"round1-table{table.number}-flip")
        winner = a if flip[a] > flip[b] else b
        assert winner in seated_once(plan)


def test_tie_of_two_at_the_top_of_a_big_two_final_is_played_off_by_the_whole_table() -> None:
    """docs/rules/knockout.md#final-ties (总决赛…进行加时赛): two tied at the top of a Big Two
    final are not flipped; the four play one more game and only the two tied count."""
    fmt = Knockout(BIGTWO)
    st1 = record(state(16), first(fmt, state(16)), by_id)
    final = first(fmt, st1)
    st2 = record(st1, final, tie_at_the_top)
    extra = first(fmt, st2)
    assert extra.stage == "extra" and "extra-game" in extra.notes
    assert set(extra.tables[0].players) == set(final.tables[0].players)
    top_two = set(final.tables[0].players[:2])
    other = max(set(final.tables[0].players) - top_two)

    def the_others_win(_n: int, _plan: RoundPlan, table: Table) -> TableResult:
        """The non-tied score most; of the tied, the lower id does better."""
        low = min(top_two)
        scores = tuple(
            Decimal(9 if p == other else 3 if p == low else 1 if p in top_two else 0)
            for p in table.players
        )
        return TableResult(table, TableStatus.CONFIRMED, scores)

    done = fmt.plan(record(st2, extra, the_others_win))
    assert isinstance(done, Finished)
    assert [s.player for s in done.ranking[:2]] == [min(top_two), max(top_two)]
    assert done.ranking[0].tiebreak == ("extra",)
    # the champion's line names the title, the runner-up's the stage it reached
    assert [s.stage for s in done.ranking[:2]] == ["champion", "final"]
    assert [s.player for s in done.ranking if s.alive] == [min(top_two)]


def three_tied(_n: int, _plan: RoundPlan, table: Table) -> TableResult:
    scores = tuple(Decimal(v) for v in (5, 5, 5, -15))
    return TableResult(table, TableStatus.CONFIRMED, scores)


def test_tie_of_three_at_the_top_of_the_final_needs_an_extra_game() -> None:
    fmt = Knockout(BIGTWO)
    st1 = record(state(16), first(fmt, state(16)), by_id)
    final = first(fmt, st1)
    st2 = record(st1, final, three_tied)
    extra = first(fmt, st2)
    assert extra.stage == "extra" and "extra-game" in extra.notes
    assert set(extra.tables[0].players) == set(final.tables[0].players[:3])
    st3 = record(st2, extra, by_id)
    done = fmt.plan(st3)
    assert isinstance(done, Finished)
    assert done.ranking[0].player == max(extra.tables[0].players)
    assert done.ranking[0].tiebreak == ("extra",)


def test_unreported_table_forfeits_all_four_and_nobody_of_them_is_seated_again() -> None:
    fmt = Knockout(BIGTWO)
    plan = first(fmt, state(16))
    lost = plan.tables[0]

    def forfeit_first(n: int, p: RoundPlan, table: Table) -> TableResult:
        if table == lost:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players))
        return by_id(n, p, table)

    st1 = record(state(16), plan, forfeit_first)
    nxt = first(fmt, st1)
    assert not set(lost.players) & set(seated_once(nxt))
    assert len(seated_once(nxt)) == 3
    ranking = fmt.standings(st1)
    assert {s.player for s in ranking[-4:]} == set(lost.players)


def test_a_no_show_forfeits_alone_and_the_others_at_the_table_go_on() -> None:
    fmt = Knockout(BIGTWO)
    plan = first(fmt, state(16))
    table0 = plan.tables[0]
    late = table0.players[0]

    def one_late(n: int, p: RoundPlan, table: Table) -> TableResult:
        if table == table0:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset({late}))
        return by_id(n, p, table)

    nxt = first(fmt, record(state(16), plan, one_late))
    assert set(table0.players[1:]) <= set(seated_once(nxt))
    assert late not in seated_once(nxt)


def test_everyone_out_by_forfeits_finishes_with_the_standings_as_they_are() -> None:
    fmt = Knockout(BIGTWO)

    def all_forfeit(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players))

    done = fmt.plan(record(state(8), first(fmt, state(8)), all_forfeit))
    assert isinstance(done, Finished)
    assert len(done.ranking) == 8 and not any(s.alive for s in done.ranking)


def test_removed_players_are_never_seated_and_rank_last() -> None:
    fmt = Knockout(BIGTWO)
    st0 = state(17, removed=frozenset({5}))
    plan = first(fmt, st0)
    assert 5 not in seated_once(plan) and len(seated_once(plan)) == 16
    assert fmt.standings(st0)[-1].player == 5
    assert not fmt.standings(st0)[-1].alive


def test_penalties_are_deducted_before_choosing_who_advances() -> None:
    fmt = Knockout(BIGTWO)
    plan = first(fmt, state(16))
    top = max(plan.tables[0].players)
    second = sorted(plan.tables[0].players)[-2]
    gap = Decimal(top - second)
    st1 = record(replace(state(16), penalties=(Penalty(top, gap + 1, 1),)), plan, by_id)
    nxt = seated_once(first(fmt, st1))
    assert second in nxt and top not in nxt


def test_planning_refuses_while_a_table_is_pending() -> None:
    fmt = Knockout(BIGTWO)
    plan = first(fmt, state(8))

    def pending(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        return TableResult(table, TableStatus.PENDING)

    with pytest.raises(FormatError) as err:
        fmt.plan(record(state(8), plan, pending))
    assert err.value.code == "round-open"


def test_too_few_players_for_one_table_is_refused() -> None:
    with pytest.raises(FormatError) as err:
        Knockout(BIGTWO).plan(state(2))
    assert err.value.code == "too-few-players"


def test_two_winners_left_are_joined_by_the_best_loser_for_a_final() -> None:
    fmt = Knockout(BIGTWO)
    st1 = record(state(8), first(fmt, state(8)), by_id)
    final = first(fmt, st1)
    assert final.stage == "final" and "lucky-loser" in final.notes
    assert set(final.tables[0].players) == {8, 7, 6}
    # Between the round's end and the final's draw the standings already have the lucky
    # loser in, ranked with the winners, not as out in round 1 with the other losers.
    ranked = fmt.standings(st1)
    assert {s.player for s in ranked if s.alive} == {8, 7, 6}
    assert {s.player for s in ranked[:3]} == {8, 7, 6}
    assert {s.stage for s in ranked if s.alive} == {"through"}  # 第1轮晋级, waiting


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=60),
    removed=st.sets(st.integers(min_value=1, max_value=60), max_size=5),
    seed=st.text(min_size=1, max_size=8),
    bye=st.booleans(),
)
def test_every_active_player_is_seated_once_or_has_a_bye_every_round(
    n: int, removed: set[int], seed: str, bye: bool
) -> None:
    fmt = Knockout(BIGTWO, {"leftover": "bye" if bye else "table"})
    st0 = state(n, seed, removed=frozenset(r for r in removed if r <= n))
    if len(fmt.active(st0)) < 3:
        return
    plan = fmt.plan(st0)
    assert isinstance(plan, RoundPlan)
    placed = seated_once(plan)
    assert sorted(placed) == sorted(fmt.active(st0))
    assert all(len(t.players) in BIGTWO.seat_counts for t in plan.tables)
    assert plan == fmt.plan(st0)
    final_state, done = play(fmt, st0)
    assert sorted(s.player for s in done.ranking) == list(range(1, n + 1))
    for rec in final_state.rounds:
        assert not set(seated_once(rec.plan)) & st0.removed
        assert len(set(seated_once(rec.plan))) == len(seated_once(rec.plan))


def test_a_winner_who_withdraws_after_the_round_is_replaced_by_the_next_at_the_table() -> None:
    fmt = Knockout(BIGTWO)
    st0 = state(16)
    after = record(st0, first(fmt, st0), by_id)
    table = after.rounds[0].plan.tables[0]
    winner, runner_up = sorted(table.players, reverse=True)[:2]
    plan = fmt.plan(replace(after, removed=frozenset({winner})))
    assert isinstance(plan, RoundPlan)
    assert winner not in seated_once(plan) and runner_up in seated_once(plan)


def test_a_withdrawal_that_empties_the_final_finishes_without_a_crash() -> None:
    fmt = Knockout(BIGTWO)
    st0 = state(4)
    plan = first(fmt, st0)
    assert plan.stage == "final"
    done = fmt.plan(replace(record(st0, plan, by_id), removed=frozenset(plan.tables[0].players)))
    assert isinstance(done, Finished) and not any(s.alive for s in done.ranking)
