"""The standings' read model (``engine.board``): what is true of each line mid-event.

Each test is a defect players read during a real event: a winner shown out, a table not
yet reported shown through and split by a flip nobody drew, a final's tie said settled
while its play-off waits, a play-off notice naming someone not tied, the last three's
round robin split by a flip although one had beaten the other."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from engine.board import Board, Status, board
from engine.formats import Format, find_format
from engine.games import find_game
from engine.model import RoundPlan, RoundRecord, Table, TableResult, TableStatus, TournamentState

D = Decimal


def fmt_of(game: str, key: str) -> Format:
    return find_format(key)(find_game(game)())


def state(n: int, seed: str = "b0a2d001") -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed)


def plan_of(fmt: Format, st: TournamentState) -> RoundPlan:
    plan = fmt.plan(st)
    assert isinstance(plan, RoundPlan)
    return plan


def with_results(st: TournamentState, plan: RoundPlan, *results: TableResult) -> TournamentState:
    """``plan`` as the next round, with only ``results`` in (the other tables pending)."""
    rec = RoundRecord(len(st.rounds) + 1, plan, results)
    return replace(st, rounds=(*st.rounds, rec))


def confirmed(table: Table, *scores: int | str) -> TableResult:
    return TableResult(table, TableStatus.CONFIRMED, tuple(D(s) for s in scores))


def no_lot_claimed(b: Board) -> None:
    assert all("flip" not in e.decided for e in b.entries), b.entries


def test_a_bracket_winner_is_through_while_the_round_goes_on() -> None:
    """象棋 12 players, single elimination: table 1 confirmed (winner 1-0; 1-0)."""
    fmt = fmt_of("xiangqi", "bracket")
    st = state(12)
    plan = plan_of(fmt, st)
    first = plan.tables[0]
    winner, loser = first.players
    st = with_results(st, plan, confirmed(first, 2, 0))
    line = {s.player: s for s in fmt.standings(st)}
    assert line[winner].alive and line[winner].stage == "through"
    b = board(fmt, st, over=False)
    won, lost = b.of(winner), b.of(loser)
    assert won is not None and lost is not None
    assert (won.status, won.round) == (Status.THROUGH, 1)
    assert (lost.status, lost.round) == (Status.OUT, 1)
    for table in plan.tables[1:]:
        for p in table.players:
            e = b.of(p)
            assert e is not None and (e.status, e.table) == (Status.WAITING, table.number)
    no_lot_claimed(b)


def test_an_unreported_table_waits_and_shares_its_place() -> None:
    """锄大地 knockout of 8: table 1 in, table 2 not reported. Its four players are not
    through, and no flip orders them (they share a place)."""
    fmt = fmt_of("bigtwo", "knockout")
    st = state(8)
    plan = plan_of(fmt, st)
    one, two = plan.tables
    st = with_results(st, plan, confirmed(one, 5, 1, -2, -4))
    b = board(fmt, st, over=False)
    waiting = [e for e in b.entries if e.player in two.players]
    assert {(e.status, e.table, e.stage) for e in waiting} == {(Status.WAITING, 2, "waiting")}
    assert len({e.place for e in waiting}) == 1 and all(e.shared for e in waiting)
    no_lot_claimed(b)


def test_a_final_tie_waits_for_its_playoff_and_the_notice_names_only_the_tied() -> None:
    """锄大地 final of four: two tied on 5 at the top; the other two on 1 and −10. The
    whole table replays it (two is no Big Two table), but only the two are tied."""
    fmt = fmt_of("bigtwo", "knockout")
    st = state(4)
    plan = plan_of(fmt, st)
    final = plan.tables[0]
    a, b_, c, d = final.players
    st = with_results(st, plan, confirmed(final, 5, 5, 1, -10))
    assert set(fmt.playoff(st)) == {a, b_}
    extra = plan_of(fmt, st)
    assert extra.stage == "extra" and set(extra.tables[0].players) == {a, b_, c, d}
    b = board(fmt, st, over=False)
    assert set(b.playoff) == {a, b_}
    tied = [b.of(a), b.of(b_)]
    assert all(e is not None and e.status is Status.PLAYOFF for e in tied)
    assert tied[0] is not None and tied[1] is not None and tied[0].place == tied[1].place
    no_lot_claimed(b)


def test_partners_tied_at_a_table_share_their_place_mid_event() -> None:
    """掼蛋 knockout of 8: partners score alike; the losing pair, out on the same score,
    is split by nothing but the closing flip, not drawn yet: one place for both."""
    fmt = fmt_of("guandan", "knockout")
    st = state(8)
    plan = plan_of(fmt, st)
    one = plan.tables[0]
    st = with_results(st, plan, confirmed(one, 2, -2, 2, -2))
    b = board(fmt, st, over=False)
    a, c = b.of(one.players[1]), b.of(one.players[3])
    assert a is not None and c is not None and a.place == c.place
    no_lot_claimed(b)


def test_a_group_playoff_line_never_says_round_zero() -> None:
    """象棋 groups of 8: through the crossover, waiting for the final: "through round N"
    with N the round they won, never "第0轮进行中"."""
    fmt = fmt_of("xiangqi", "groups")
    st = state(8)
    while True:
        plan = plan_of(fmt, st)
        if plan.stage == "playoff":
            break
        results = tuple(confirmed(t, 1, 0) for t in plan.tables)
        st = with_results(st, plan, *results)
    first = plan.tables[0]
    st = with_results(st, plan, confirmed(first, 3, 1))
    b = board(fmt, st, over=False)
    won = b.of(first.players[0])
    assert won is not None and won.status is Status.THROUGH and won.round == len(st.rounds)
    assert all(e.stage_round or e.stage not in ("through", "playing") for e in b.entries)


def play_robin(fmt: Format, games: dict[frozenset[int], dict[int, int]]) -> TournamentState:
    st = state(3)
    while True:
        plan = fmt.plan(st)
        if not isinstance(plan, RoundPlan):
            return st
        t = plan.tables[0]
        score = games[frozenset(t.players)]
        st = with_results(st, plan, confirmed(t, *(score[p] for p in t.players)))


def test_the_last_three_go_by_head_to_head_before_a_flip() -> None:
    """Round robin of three: 2 beat 3 (2–1), 1 beat 2 (2–1), 3 beat 1 (2–0). All on one
    win; 2 and 3 on three games each, 1 on two: 2 placed over 3 by their meeting."""
    fmt = fmt_of("xiangqi", "bracket")
    games = {
        frozenset((2, 3)): {2: 2, 3: 1},
        frozenset((1, 2)): {1: 2, 2: 1},
        frozenset((1, 3)): {3: 2, 1: 0},
    }
    st = play_robin(fmt, games)
    b = board(fmt, st, over=True)
    order = [e.player for e in b.entries]
    assert order.index(2) < order.index(3), b.entries
    two = b.of(2)
    assert two is not None and two.decided == ("head-to-head",)
