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


def test_a_player_knocked_out_shares_no_place_with_those_still_waiting() -> None:
    """象棋 12 players, single elimination, after table 1 only: the ten still waiting
    share 2=, and the one who lost is below all of them, not "2=" beside them."""
    fmt = fmt_of("xiangqi", "bracket")
    st = state(12)
    plan = plan_of(fmt, st)
    first = plan.tables[0]
    loser = first.players[1]
    b = board(fmt, with_results(st, plan, confirmed(first, 2, 0)), over=False)
    lost = b.of(loser)
    assert lost is not None and lost.status == Status.OUT
    still_in = [e for e in b.entries if e.still_in]
    assert {e.place for e in still_in if e.status == Status.WAITING} == {2}
    assert lost.place > max(e.place for e in still_in) and not lost.shared


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


def test_a_loser_who_may_still_be_the_best_loser_is_not_out_before_the_round_is() -> None:
    """锄大地 knockout of 8, table 1 in: its winner and table 2's make two, fewer than a Big
    Two table, so the best loser fills the final. Table 1's second (3 points) may still
    be that loser until table 2 reports; its last two are out already. Table 2's second
    scoring more puts table 1's out; scoring less calls them back."""
    fmt = fmt_of("bigtwo", "knockout")
    st = state(8)
    plan = plan_of(fmt, st)
    one, two = plan.tables
    mid = with_results(st, plan, confirmed(one, 5, 3, -2, -6))
    b = board(fmt, mid, over=False)
    second, *last_two = (b.of(p) for p in one.players[1:])
    assert second is not None and second.status == Status.WAITING
    assert second.stage == "may-go-on" and second.still_in
    assert all(e is not None and e.status == Status.OUT for e in last_two)
    beaten = board(
        fmt,
        with_results(st, plan, confirmed(one, 5, 3, -2, -6), confirmed(two, 5, 4, -3, -6)),
        over=False,
    )
    out = beaten.of(one.players[1])
    assert out is not None and out.status == Status.OUT and out.stage == "out"
    called = board(
        fmt,
        with_results(st, plan, confirmed(one, 5, 3, -2, -6), confirmed(two, 5, 2, -3, -4)),
        over=False,
    )
    back = called.of(one.players[1])
    assert back is not None and back.status == Status.THROUGH


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


def test_of_a_cycle_of_wins_the_two_left_after_a_withdrawal_go_by_their_meeting() -> None:
    """Round robin of three, each beating one (1 beat 2, 2 beat 3, 3 beat 1, all 1–0):
    level, a flip would part them. Then 3 withdraws and ranks last; 1 and 2 are level
    with each other alone, and 1 beat 2: 1 is champion by head-to-head, not by the flip
    (docs/rules/tiebreaks.md#head-to-head)."""
    fmt = fmt_of("xiangqi", "bracket")
    games = {
        frozenset((1, 2)): {1: 1, 2: 0},
        frozenset((2, 3)): {2: 1, 3: 0},
        frozenset((1, 3)): {3: 1, 1: 0},
    }
    st = replace(play_robin(fmt, games), removed=frozenset({3}))
    b = board(fmt, st, over=True)
    assert [e.player for e in b.entries] == [1, 2, 3], b.entries
    one = b.of(1)
    assert one is not None and one.decided == ("head-to-head",)


# --- groups: a table per group while the groups play, then one ranking ----------------
# 五子棋 groups of 8 (seed b0a2d001): A = 8, 7, 5, 2 and B = 1, 4, 3, 6; round 1 seats
# A at tables 1 (8–2) and 2 (7–5), B at tables 3 (1–6) and 4 (4–3). Every match is two
# games, then one more until someone wins; a level match waits with no result.


def gomoku_groups() -> tuple[Format, TournamentState, RoundPlan]:
    fmt = fmt_of("gomoku", "groups")
    st = state(8)
    assert fmt.draw_groups(st) == [[8, 7, 5, 2], [1, 4, 3, 6]]
    plan = plan_of(fmt, st)
    assert [t.players for t in plan.tables] == [(8, 2), (7, 5), (1, 6), (4, 3)]
    return fmt, st, plan


def test_a_group_that_has_played_nothing_shares_its_places() -> None:
    """After round 1's first table (8 beat 2 2–0; group B has played nothing): the
    standings are a table per group, A then B; nobody in B is first or fourth."""
    fmt, st, plan = gomoku_groups()
    st = with_results(st, plan, confirmed(plan.tables[0], 2, 0))
    b = board(fmt, st, over=False)
    assert b.by_group
    assert [e.group for e in b.entries] == [1, 1, 1, 1, 2, 2, 2, 2]
    group_b = [e for e in b.entries if e.group == 2]
    assert {(e.place, e.shared) for e in group_b} == {(1, True)}
    assert all(e.stage == "waiting" and e.status is Status.WAITING for e in group_b)
    first = b.entries[0]
    assert (first.player, first.place, first.shared, first.status) == (8, 1, False, Status.IN)
    assert first.stage == "group" and first.stage_round == 1
    no_lot_claimed(b)


def test_a_level_match_is_not_split_below_the_one_who_lost() -> None:
    """Table 2 (7–5) level 1–1, waiting for its third game; 2 lost 0–2 to 8. 7 and 5 are
    not put 2nd and 4th of their group with the loser between them: all three share 2."""
    fmt, st, plan = gomoku_groups()
    st = with_results(st, plan, confirmed(plan.tables[0], 2, 0))
    b = board(fmt, st, over=False)
    seven, five, two = b.of(7), b.of(5), b.of(2)
    assert seven is not None and five is not None and two is not None
    assert seven.place == five.place == two.place == 2
    assert seven.shared and five.shared and two.shared
    assert (seven.status, seven.table) == (Status.WAITING, 2)
    assert (two.status, two.stage, two.stage_round) == (Status.IN, "group-tied", 2)


def test_a_shared_group_place_claims_no_tie_break() -> None:
    """After round 1: 8 beat 2 and 7 beat 5, both 2–0: level on matches and games, and
    not yet met, so only the group's flip, not drawn before the groups end, could order
    them. Both are 1= with the same words; neither line says a tie-break placed it."""
    fmt, st, plan = gomoku_groups()
    one, two, three, four = plan.tables
    results = (confirmed(one, 2, 0), confirmed(two, 2, 0), confirmed(three, 2, 1))
    st = with_results(st, plan, *results, confirmed(four, 2, 0))
    b = board(fmt, st, over=False)
    assert b.by_group
    top = [b.of(8), b.of(7)]
    assert all(e is not None and (e.place, e.shared) == (1, True) for e in top)
    assert all(e is not None and (e.stage, e.stage_round) == ("group-tied", 1) for e in top)
    assert all(e is not None and e.decided == () for e in top)
    no_lot_claimed(b)


def play_groups(fmt: Format, st: TournamentState) -> TournamentState:
    """Every group match won 2–0 by seat A."""
    while True:
        plan = plan_of(fmt, st)
        if not plan.stage.startswith("group"):
            return st
        st = with_results(st, plan, *(confirmed(t, 2, 0) for t in plan.tables))


def test_after_the_groups_the_ones_not_going_on_are_out_in_the_groups() -> None:
    """After the group stage: one overall ranking; 3rd and 4th of a group are out
    (小组赛出局), not "小组第3名" as if still in."""
    fmt, st, _ = gomoku_groups()
    st = play_groups(fmt, st)
    b = board(fmt, st, over=False)
    assert not b.by_group
    going = set(fmt.plan(st).tables[0].players) | set(fmt.plan(st).tables[1].players)  # type: ignore[union-attr]
    for e in b.entries:
        if e.player in going:
            assert e.still_in and e.stage != "group-out"
        else:
            assert (e.status, e.stage) == (Status.OUT, "group-out") and e.stage_round in (3, 4)
    no_lot_claimed(b)


def test_the_final_ranking_says_runner_up_and_what_split_the_semi_final_losers() -> None:
    """After the final: the runner-up is 亚军, not still "决赛"; the two crossover losers
    (one lost 1–2, the other 0–2) are split by their match's score, and the line says so."""
    fmt, st, _ = gomoku_groups()
    st = play_groups(fmt, st)
    cross = plan_of(fmt, st)
    first, second = cross.tables
    st = with_results(st, cross, confirmed(first, 2, 1), confirmed(second, 2, 0))
    final = plan_of(fmt, st)
    assert final.stage == "final"
    st = with_results(st, final, confirmed(final.tables[0], 2, 0))
    b = board(fmt, st, over=True)
    stages = [(e.place, e.stage) for e in b.entries[:4]]
    assert stages == [(1, "champion"), (2, "runner-up"), (3, "playoff"), (4, "playoff")]
    third = b.entries[2]
    assert third.player == first.players[1] and "round-score" in third.decided
    assert b.entries[3].decided == () or "round-score" not in b.entries[3].decided


def test_card_game_groups_share_the_places_of_a_table_not_reported() -> None:
    """锄大地 groups of 8 (two groups, one table each): group A's table in, B's not. B
    shares one place, waits for its table, and is listed after A."""
    fmt = fmt_of("bigtwo", "groups")
    st = state(8)
    plan = plan_of(fmt, st)
    one = plan.tables[0]
    st = with_results(st, plan, confirmed(one, 5, 1, -2, -4))
    b = board(fmt, st, over=False)
    assert b.by_group
    groups = [e.group for e in b.entries]
    assert groups == sorted(groups)
    waiting = [e for e in b.entries if e.player not in one.players]
    assert {(e.place, e.shared, e.status) for e in waiting} == {(1, True, Status.WAITING)}
    played = [e for e in b.entries if e.player in one.players]
    assert [e.place for e in played] == [1, 2, 3, 4] and not any(e.shared for e in played)
    no_lot_claimed(b)


def test_players_of_different_groups_are_never_split_by_head_to_head() -> None:
    """象棋 groups of 8 played out, every match 2–1 one way or the other: two crossover
    losers of different groups, level on their match's score, on group place, matches
    and games won, were said to be split by 相互胜负, though they never met. Between
    lines of different groups head-to-head says nothing (docs/rules/groups.md#ranking)."""
    import hashlib

    fmt = fmt_of("xiangqi", "groups")
    for seed in ("5eed" * 16, "b0a2d001", "c0ffee"):
        st = state(8, seed)
        while isinstance(plan := fmt.plan(st), RoundPlan):
            won = [
                int(hashlib.sha256(f"{seed}{len(st.rounds)}{t.number}".encode()).hexdigest(), 16)
                % 2
                for t in plan.tables
            ]
            st = with_results(
                st,
                plan,
                *(
                    confirmed(t, *((2, 1) if w else (1, 2)))
                    for t, w in zip(plan.tables, won, strict=True)
                ),
            )
        b = board(fmt, st, over=True)
        for e, below in zip(b.entries, b.entries[1:], strict=False):
            if "head-to-head" in e.decided:
                assert e.group == below.group, (seed, e, below)


def test_the_group_flip_drawn_at_the_end_of_the_groups_is_not_shared_after_them() -> None:
    """Every group match won 2–0 by seat A: three of group A level on everything, the
    group's flip (drawn when the groups end) decided who goes on. After the groups
    nobody going on shares a place with someone out in the groups (they were "1=" all
    the way down, as if that flip were still to come)."""
    fmt, st, _ = gomoku_groups()
    st = play_groups(fmt, st)
    b = board(fmt, st, over=False)
    going = [e for e in b.entries if e.still_in]
    out = [e for e in b.entries if not e.still_in]
    assert len(going) == 4 and max(e.place for e in going) < min(e.place for e in out)
