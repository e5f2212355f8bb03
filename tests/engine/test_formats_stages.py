"""Score stages 积分晋级 (docs/rules/stages.md): base 30 per stage or carried
scores, the top of each table (or overall) advance, ties to the previous stage, then an
extra hand among the tied only."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ConfigError
from engine.formats import find_format
from engine.formats.stages import Stages
from engine.games import find_game
from engine.model import (
    Finished,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.engine.test_formats_support import by_id, play, record, seated_once

DOUDIZHU = find_game("doudizhu")()
BIGTWO = find_game("bigtwo")()


def state(n: int, seed: str = "seed") -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed)


def result(table: Table, *scores: int) -> TableResult:
    return TableResult(table, TableStatus.CONFIRMED, tuple(Decimal(s) for s in scores))


def level(_n: int, _p: RoundPlan, table: Table) -> TableResult:
    return result(table, *(0 for _ in table.players))


def test_stages_by_chinese_name_and_advance_must_leave_someone_out() -> None:
    assert find_format("积分晋级") is Stages
    with pytest.raises(ConfigError):
        Stages(DOUDIZHU, {"advance": "3"})


def test_hands_is_refused_where_the_games_series_sets_every_match() -> None:
    """docs/rules/two-player.md#formats: 象棋's tables play its series, not ``hands``, so
    /set hands is refused as unread, unless the series is left to the stage."""
    xiangqi = find_game("xiangqi")
    with pytest.raises(ConfigError) as unread:
        Stages(xiangqi()).check_knob("hands", 8)
    assert unread.value.code == "knob-unread-series"
    Stages(xiangqi({"series": "stages"})).check_knob("hands", 8)
    Stages(xiangqi()).check_knob("hands", 8, drawing=True)  # set before the series changed
    Stages(DOUDIZHU).check_knob("hands", 8)


def test_nine_players_three_tables_then_the_winners_final_from_base_thirty() -> None:
    fmt = Stages(DOUDIZHU)
    final, finished = play(fmt, state(9))
    assert [r.plan.stage for r in final.rounds] == ["stage", "final"]
    winners = {max(t.players) for t in final.rounds[0].plan.tables}
    assert set(final.rounds[1].plan.tables[0].players) == winners
    top = finished.ranking[0]
    assert top.player == 9 and top.points == Decimal(30 + 9)  # the base is reset each stage


def test_base_zero_carries_scores_into_the_next_stage() -> None:
    fmt = Stages(DOUDIZHU, {"base": "0"})
    _, finished = play(fmt, state(9))
    assert finished.ranking[0].points == Decimal(9 + 9)


def test_tie_at_the_cut_goes_to_an_extra_hand_among_the_tied_only() -> None:
    fmt = Stages(DOUDIZHU)
    s = state(9)
    first = fmt.plan(s)
    assert isinstance(first, RoundPlan)
    s = record(s, first, level)  # every table level: 30, 30, 30
    extra = fmt.plan(s)
    assert isinstance(extra, RoundPlan) and extra.stage == "extra"
    assert extra.notes == ("extra-hands", "hands-5")
    assert sorted(set(t.players) for t in extra.tables) == sorted(
        set(t.players) for t in first.tables
    )
    s = record(s, extra, by_id)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert set(final.tables[0].players) == {max(t.players) for t in first.tables}


def test_final_tie_goes_to_the_previous_stage_score() -> None:
    fmt = Stages(DOUDIZHU)

    def scorer(n: int, plan: RoundPlan, table: Table) -> TableResult:
        return by_id(n, plan, table) if plan.stage == "stage" else level(n, plan, table)

    _, finished = play(fmt, state(9), scorer)
    top = finished.ranking[0]
    assert top.player == 9 and top.tiebreak == ("previous-stage",)


def test_a_tie_two_cannot_seat_is_played_off_by_their_whole_table() -> None:
    """Two tied for the second place at a Big Two table of four: no table seats two, so
    the four play the five extra hands (再进行五局加赛) and only the tied compare."""
    fmt = Stages(BIGTWO, {"advance": "2"})
    s = state(8)
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan)
    s = record(s, plan, lambda _n, _p, t: result(t, 5, 1, 1, -7))  # B and C tie for 2nd
    extra = fmt.plan(s)
    assert isinstance(extra, RoundPlan) and extra.stage == "extra"
    assert extra.notes == ("extra-hands", "hands-5")
    assert sorted(set(t.players) for t in extra.tables) == sorted(
        set(t.players) for t in plan.tables
    )
    assert set(fmt.playoff(s)) == {p for t in plan.tables for p in t.players[1:3]}
    # the tied finish behind seat A of the play-off, who is through already
    s = record(s, extra, lambda _n, _p, t: result(t, *(-3, 3, 1, -1)[: len(t.players)]))
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert "tiebreak-flip" not in final.notes


def test_a_tie_no_table_can_seat_is_decided_by_a_card_flip() -> None:
    """A 斗地主 table where one forfeited and the two left tie: no table of three can
    be seated for them, so a flip decides, the last resort."""
    fmt = Stages(DOUDIZHU)
    s = state(6)
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan)

    def one_forfeits(_n: int, _p: RoundPlan, t: Table) -> TableResult:
        if t.number == 1:
            return TableResult(
                t, TableStatus.CONFIRMED, (Decimal(0),) * 3, frozenset(t.players[:1])
            )
        return result(t, 2, -1, -1)

    s = record(s, plan, one_forfeits)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert "tiebreak-flip" in final.notes


def test_overall_cut_takes_the_best_of_the_whole_stage() -> None:
    fmt = Stages(DOUDIZHU, {"per": "overall", "advance": "3"})
    s = state(9)
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan)
    s = record(s, plan, by_id)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and set(final.tables[0].players) == {7, 8, 9}


def test_one_who_alone_goes_on_overall_plays_a_final_with_the_best_losers() -> None:
    """``per overall``, ``advance 1``: twelve players' stage sent one on, who was crowned
    without the final /rules promises (不足一桌时由成绩最好的淘汰者递补, then 决赛). The
    two best of the rest fill the final's table."""
    fmt = Stages(DOUDIZHU, {"per": "overall"})
    s = record(state(12), plan_of(fmt, state(12)), by_id)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert set(final.tables[0].players) == {10, 11, 12} and "lucky-loser" in final.notes
    assert fmt.called_back(s) == {10, 11}


def plan_of(fmt: Stages, s: TournamentState) -> RoundPlan:
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan)
    return plan


def test_overall_cut_waits_for_every_table_of_the_stage() -> None:
    """docs/rules/stages.md#advance: with one of three tables in, its level top three are
    neither played off nor shown through (the other tables may outscore them); a line is
    out only once two others stand above it."""
    fmt = Stages(DOUDIZHU, {"per": "overall", "advance": "2", "base": "0"})
    s = state(9)
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan) and len(plan.tables) == 3
    first, second, _ = plan.tables

    def reported(*results: TableResult) -> dict[int, str]:
        got = replace(s, rounds=(RoundRecord(1, plan, results),))
        assert fmt.playoff(got) == ()
        return {x.player: x.stage for x in fmt.standings(got)}

    stage = reported(result(first, 4, 4, 4))
    assert {stage[p] for p in first.players} == {"stage-open"}
    stage = reported(result(first, 4, 4, 4), result(second, 6, 5, 0))
    assert {stage[p] for p in first.players} == {"out"}  # two above them already
    assert [stage[p] for p in second.players] == ["stage-open", "stage-open", "out"]


def random_scorer(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        if rng.random() < 0.1:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players[:1]))
        return result(table, *(rng.randrange(-2, 3) for _ in table.players))

    return scorer


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 40), st.integers(0, 10**6), st.sampled_from(("doudizhu", "bigtwo")))
def test_every_stage_seats_each_player_once_and_the_event_ends(
    n: int, seed: int, game: str
) -> None:
    fmt = Stages(find_game(game)())
    s = state(n, str(seed))
    assert fmt.plan(s) == fmt.plan(s)
    scorer = random_scorer(seed)
    for _ in range(80):
        plan = fmt.plan(s)
        if isinstance(plan, Finished):
            break
        placed = seated_once(plan)
        assert len(placed) == len(set(placed)) and plan.tables
        s = record(s, plan, scorer)
    assert isinstance(plan, Finished)
    assert sorted(x.player for x in plan.ranking) == list(range(1, n + 1))
