"""Swiss rounds 瑞士移位: re-seated by score, fewest repeats, Buchholz tie-break."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from engine.formats import find_format
from engine.formats.swiss import Swiss
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
from engine.seating import repeats
from engine.standings import Line, rank
from tests.engine.test_formats_support import Scorer, by_id, play, record, seated_once

BIGTWO = find_game("bigtwo")()


def test_swiss_is_found_by_its_chinese_name() -> None:
    assert find_format("瑞士移位") is Swiss


def test_mixed_swiss_of_sixteen_meets_nobody_twice_in_five_rounds() -> None:
    fmt = Swiss(BIGTWO, {"by": "mix", "rounds": "5"})
    final, done = play(fmt, TournamentState(players=tuple(range(1, 17)), seed="s"))
    assert len(final.rounds) == 5
    assert repeats([[t.players for t in r.plan.tables] for r in final.rounds]) == 0
    assert done.ranking[0].player == 16


def test_score_swiss_gives_the_bye_to_someone_who_has_not_had_one() -> None:
    fmt = Swiss(BIGTWO, {"rounds": "2"})
    st0 = TournamentState(players=tuple(range(1, 6)), seed="s")  # 4 + a bye
    final, _ = play(fmt, st0)
    second = final.rounds[1].plan
    assert sorted(seated_once(second)) == list(range(1, 6))
    assert len(second.byes) == 1 and second.byes[0] not in final.rounds[0].plan.byes


def test_removed_players_are_not_seated() -> None:
    fmt = Swiss(BIGTWO)
    plan = fmt.plan(TournamentState(players=tuple(range(1, 10)), seed="s", removed=frozenset({3})))
    assert isinstance(plan, RoundPlan) and 3 not in seated_once(plan)


def test_equal_points_are_split_by_opponents_points() -> None:
    t1 = Table(1, (1, 2))
    t2 = Table(2, (3, 4))

    rec = RoundRecord(
        1,
        RoundPlan((t1, t2)),
        (
            TableResult(t1, TableStatus.CONFIRMED, (Decimal(5), Decimal(-5))),
            TableResult(t2, TableStatus.CONFIRMED, (Decimal(5), Decimal(-9))),
        ),
    )
    st = TournamentState(players=(1, 2, 3, 4), seed="s", rounds=(rec,))
    ranking = Swiss(find_game("bigtwo")()).standings(st)
    assert [s.player for s in ranking[:2]] == [1, 3]
    assert ranking[0].tiebreak == ("buchholz",)


def test_rank_names_the_first_criterion_that_differs() -> None:
    lines = [
        Line(1, Decimal(3), True, (("points", Decimal(3)), ("flip", Decimal(1)))),
        Line(2, Decimal(3), True, (("points", Decimal(3)), ("flip", Decimal(2)))),
        Line(3, Decimal(1), True, (("points", Decimal(1)), ("flip", Decimal(3)))),
    ]
    out = rank(lines)
    assert [(s.player, s.rank, s.tiebreak) for s in out] == [
        (2, 1, ("flip",)),
        (1, 2, ("points",)),
        (3, 3, ()),
    ]


def forfeiting(victim: int) -> Scorer:
    """Tables scored by id, with ``victim`` forfeiting wherever they sit."""

    def scorer(number: int, plan: RoundPlan, table: Table) -> TableResult:
        return replace(
            by_id(number, plan, table), forfeited=frozenset({victim} & set(table.players))
        )

    return scorer


def test_two_forfeits_remove_the_player_and_cancel_all_their_results() -> None:
    """docs/rules/penalties.md#forfeits: 弃权 2 局者取消全部比赛成绩."""
    fmt = Swiss(BIGTWO, {"rounds": "4"})
    state = TournamentState(players=tuple(range(1, 9)), seed="s")
    for _ in range(2):
        plan = fmt.plan(state)
        assert isinstance(plan, RoundPlan)
        state = record(state, plan, forfeiting(8))  # the top scorer forfeits twice
    last = fmt.standings(state)[-1]
    assert (last.player, last.points, last.alive) == (8, Decimal(0), False)
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan) and 8 not in seated_once(plan)


def test_one_forfeit_keeps_the_player_and_the_knob_can_turn_the_rule_off() -> None:
    state = TournamentState(players=tuple(range(1, 9)), seed="s")
    for knob in ("2", "0"):
        fmt = Swiss(BIGTWO, {"rounds": "4", "forfeits": knob})
        st = state
        for _ in range(1 if knob == "2" else 2):
            plan = fmt.plan(st)
            assert isinstance(plan, RoundPlan)
            st = record(st, plan, forfeiting(8))
        top = fmt.standings(st)[0]
        assert top.player == 8 and top.points > 0


def test_a_withdrawal_mid_event_shrinks_the_draw_and_finishes_when_no_table_is_left() -> None:
    fmt = Swiss(BIGTWO, {"rounds": "5"})
    state = TournamentState(players=tuple(range(1, 5)), seed="s")
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan)
    state = replace(record(state, plan, by_id), removed=frozenset({2, 3}))
    assert isinstance(fmt.plan(state), Finished)  # two left: no Big Two table
    assert [s.player for s in fmt.standings(state)][-2:] in ([2, 3], [3, 2])
