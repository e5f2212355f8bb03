"""Groups then playoffs 小组循环 (docs/rules/groups.md): groups by lot, round robin, crossover
A1–B2 / B1–A2, the final, best-of-N read from the totals, and the group tie-breaks."""

from __future__ import annotations

import random
from decimal import Decimal
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats import find_format
from engine.formats.groups import Groups, circle
from engine.games import find_game
from engine.model import Finished, RoundPlan, Table, TableResult, TableStatus, TournamentState
from tests.engine.test_formats_support import by_id, play, record, seated_once

XIANGQI = find_game("xiangqi")({"series": "stages"})  # docs/rules/groups.md#best-of


def state(n: int, seed: str = "seed") -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed)


def result(table: Table, *scores: str) -> TableResult:
    return TableResult(table, TableStatus.CONFIRMED, tuple(Decimal(s) for s in scores))


def test_groups_is_the_board_games_usual_format() -> None:
    assert find_format("小组循环") is Groups
    assert XIANGQI.default_format == "groups"


def test_circle_method_pairs_everyone_once_with_one_bye_per_round_when_odd() -> None:
    rounds = circle([1, 2, 3, 4, 5])
    assert len(rounds) == 5 and all(len(byes) == 1 for _, byes in rounds)
    met = [frozenset(t) for tables, _ in rounds for t in tables]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in combinations(range(1, 6), 2)), key=sorted
    )


def test_eight_players_cross_over_a1_b2_and_b1_a2_then_a_final() -> None:
    fmt = Groups(XIANGQI)
    final, finished = play(fmt, state(8))
    groups = fmt.draw_groups(final)
    stages = [r.plan.stage for r in final.rounds]
    assert stages == ["group1", "group2", "group3", "playoff", "final"]
    a, b = (sorted(g, reverse=True) for g in groups)  # by_id: the higher id wins
    playoff = final.rounds[3].plan
    assert [t.players for t in playoff.tables] == [(a[0], b[1]), (b[0], a[1])]
    assert "best-of-5" in playoff.notes and "best-of-7" in final.rounds[4].plan.notes
    assert "best-of-1" in final.rounds[0].plan.notes
    assert finished.ranking[0].player == 8 and finished.ranking[0].alive


def test_two_player_rounds_say_the_games_series_rule() -> None:
    """By default every match is two games then deciders; ``bo3`` makes every stage best of 3."""
    final, _ = play(Groups(find_game("xiangqi")()), state(8))
    assert all(r.plan.notes[:1] == ("sudden",) for r in final.rounds)
    final, _ = play(Groups(find_game("gomoku")({"series": "bo3"})), state(8))
    assert all(r.plan.notes[:1] == ("best-of-3",) for r in final.rounds)


def test_series_is_won_by_more_games_and_an_equal_series_is_replayed() -> None:
    fmt = Groups(XIANGQI, {"groups": "1"})
    s = state(2)
    group = fmt.plan(s)
    assert isinstance(group, RoundPlan)
    s = record(s, group, by_id)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    s = record(s, final, lambda _n, _p, t: result(t, "3.5", "3.5"))  # 7 games, level
    again = fmt.plan(s)
    assert isinstance(again, RoundPlan) and again.stage == "extra"
    s = record(s, again, lambda _n, _p, t: result(t, "1", "2"))  # b won more games
    done = fmt.plan(s)
    assert isinstance(done, Finished) and done.ranking[0].player == again.tables[0].players[1]


def test_group_tie_on_wins_and_games_goes_to_head_to_head() -> None:
    beats = {(1, 2), (2, 3), (2, 4), (3, 1), (3, 4), (4, 1)}  # 2 and 3: two wins each

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        a, b = table.players
        return result(table, "1", "0") if (a, b) in beats else result(table, "0", "1")

    fmt = Groups(XIANGQI, {"groups": "1"})
    s = state(4)
    for _ in range(3):
        plan = fmt.plan(s)
        assert isinstance(plan, RoundPlan)
        s = record(s, plan, scorer)
    ranking = fmt.standings(s)
    assert [x.player for x in ranking[:2]] == [2, 3]
    assert ranking[0].tiebreak == ("head-to-head",)
    playoff = fmt.plan(s)
    assert isinstance(playoff, RoundPlan) and set(playoff.tables[0].players) == {2, 3}


def test_three_seat_game_sends_group_winners_and_best_runner_up_to_one_final_table() -> None:
    fmt = Groups(find_game("doudizhu")())
    final, finished = play(fmt, state(6))
    assert [r.plan.stage for r in final.rounds] == ["group1", "final"]
    groups = fmt.draw_groups(final)
    finalists = set(final.rounds[1].plan.tables[0].players)
    assert {max(g) for g in groups} <= finalists and len(finalists) == 3
    assert finished.ranking[0].player == 6


def random_scorer(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        if rng.random() < 0.1:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players[:1]))
        if len(table.players) == 2:
            a = rng.choice(("1", "0", "0.5", "2", "1.5"))
            return result(table, a, str(2 - Decimal(a)))
        return result(table, *(str(rng.randrange(-5, 6)) for _ in table.players))

    return scorer


@settings(max_examples=30, deadline=None)
@given(
    st.integers(4, 20),
    st.integers(0, 10**6),
    st.sampled_from(("xiangqi", "doudizhu", "bigtwo")),
)
def test_every_round_seats_each_player_at_most_once_and_the_event_ends(
    n: int, seed: int, game: str
) -> None:
    fmt = Groups(find_game(game)())
    s = state(n, str(seed))
    if n < 2 * max(2, min(fmt.sizes)):
        return
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


def test_the_chain_names_a_match_for_third_only_where_one_is_played() -> None:
    """The standings picture's footer read 「晋级轮次 → 三四名决赛 → …」 for 斗地主 groups,
    which can have no match for third; it names it only with ``third on``."""
    assert "third-place" not in Groups(find_game("doudizhu")()).tiebreaks
    assert "third-place" not in Groups(find_game("xiangqi")()).tiebreaks
    assert "third-place" in Groups(find_game("xiangqi")(), {"third": "on"}).tiebreaks
