"""Single elimination 单败淘汰 (docs/rules/bracket.md): halving, byes by lot, seeds, the last
three's round robin, replays of drawn matches, forfeits, and the bracket tree."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ConfigError
from engine.formats import find_format
from engine.formats.bracket import Bracket, seed_order
from engine.games import find_game
from engine.model import (
    Finished,
    RoundPlan,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.engine.test_formats_support import by_id, play, record, seated_once

XIANGQI = find_game("xiangqi")()


def state(n: int, seed: str = "seed") -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed)


def result(table: Table, *scores: str) -> TableResult:
    return TableResult(table, TableStatus.CONFIRMED, tuple(Decimal(s) for s in scores))


def test_bracket_is_found_by_its_chinese_name_and_refuses_four_seat_games() -> None:
    assert find_format("单败淘汰") is Bracket
    with pytest.raises(ConfigError) as err:
        Bracket(find_game("bigtwo")())
    assert err.value.code == "needs-two-seats"


def test_twelve_players_halve_to_six_then_three_who_play_a_round_robin() -> None:
    final, finished = play(Bracket(XIANGQI), state(12))
    shapes = [(r.plan.stage, len(r.plan.tables), len(r.plan.byes)) for r in final.rounds]
    assert shapes == [("", 6, 0), ("", 3, 0), ("robin", 1, 1), ("robin", 1, 1), ("robin", 1, 1)]
    robin = [set(r.plan.tables[0].players) for r in final.rounds[2:]]
    assert len({frozenset(m) for m in robin}) == 3  # everyone meets everyone once
    assert finished.ranking[0].player == 12 and finished.ranking[0].tiebreak == ("robin-wins",)


def test_odd_field_gets_one_bye_and_the_next_round_keeps_bracket_order() -> None:
    fmt = Bracket(XIANGQI)
    plan = fmt.plan(state(7))
    assert isinstance(plan, RoundPlan) and len(plan.tables) == 3 and len(plan.byes) == 1
    assert "bye" in plan.notes
    nxt = fmt.plan(record(state(7), plan, by_id))
    assert isinstance(nxt, RoundPlan)
    winners = [max(t.players) for t in plan.tables] + list(plan.byes)
    assert [p for t in nxt.tables for p in t.players] == winners


def test_seeds_meet_the_lowest_and_seeds_one_and_two_only_in_the_final() -> None:
    plan = Bracket(XIANGQI, {"seeds": "8"}).plan(state(8))
    assert isinstance(plan, RoundPlan)
    pairs = [t.players for t in plan.tables]
    assert pairs == [(1, 8), (4, 5), (2, 7), (3, 6)]  # 1 and 2 in opposite halves
    assert seed_order(4) == [1, 4, 2, 3]
    odd = Bracket(XIANGQI, {"seeds": "2"}).plan(state(5))
    assert isinstance(odd, RoundPlan) and odd.byes == (1,)  # seed 1 takes the bye


def test_drawn_match_is_replayed_in_an_extra_round_before_the_bracket_goes_on() -> None:
    fmt = Bracket(XIANGQI)
    plan = fmt.plan(state(4))
    assert isinstance(plan, RoundPlan)
    tied = plan.tables[0]
    results = (result(tied, "1", "1"), *(by_id(1, plan, t) for t in plan.tables[1:]))
    from engine.model import RoundRecord

    st1 = replace(state(4), rounds=(RoundRecord(1, plan, results),))
    extra = fmt.plan(st1)
    assert isinstance(extra, RoundPlan) and extra.stage == "extra"
    assert [t.players for t in extra.tables] == [tied.players]
    st2 = record(st1, extra, by_id)
    final = fmt.plan(st2)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert max(tied.players) in final.tables[0].players


def test_both_players_forfeiting_sends_nobody_on() -> None:
    fmt = Bracket(XIANGQI, {"last3": "off"})
    plan = fmt.plan(state(4))
    assert isinstance(plan, RoundPlan)

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        if table.number == 1:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players))
        return by_id(_n, _p, table)

    after = record(state(4), plan, scorer)
    finished = fmt.plan(after)
    assert isinstance(finished, Finished)  # one player left: the champion
    champion = max(plan.tables[1].players)
    assert finished.ranking[0].player == champion and finished.ranking[0].alive
    assert not any(s.alive for s in finished.ranking[1:])


def test_last3_off_plays_a_match_and_a_bye_then_a_final() -> None:
    final, _ = play(Bracket(XIANGQI, {"last3": "off"}), state(3))
    assert [r.plan.stage for r in final.rounds] == ["", "final"]


def test_round_robin_tie_on_wins_goes_to_games_won() -> None:
    """Three players each win one match (胜负关系相似): games won decide
    (docs/rules/bracket.md#last-three)."""
    wins = {(1, 2): ("2", "0"), (1, 3): ("0", "2"), (2, 3): ("1.5", "0.5")}

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        a, b = table.players
        if (a, b) in wins:
            return result(table, *wins[a, b])
        return result(table, *reversed(wins[b, a]))

    _, finished = play(Bracket(XIANGQI), state(3), scorer)
    top = finished.ranking
    # games: 1 → 2+0 = 2, 2 → 0+1.5 = 1.5, 3 → 2+0.5 = 2.5
    assert [s.player for s in top] == [3, 1, 2]
    assert top[0].tiebreak == ("robin-points",)


def test_bracket_tree_marks_byes_and_winners_for_the_picture() -> None:
    final, _ = play(Bracket(XIANGQI, {"last3": "off"}), state(5))
    rounds = Bracket(XIANGQI, {"last3": "off"}).bracket(final)
    assert [len(r) for r in rounds] == [3, 2, 1]
    bye = rounds[0][-1]
    assert bye[1] is None and bye[2] == bye[0]
    assert rounds[-1][0][2] == 5


def random_scorer(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        if rng.random() < 0.1:
            return TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players[:1]))
        a = rng.choice(("1", "0", "0.5"))
        return result(table, a, str(1 - Decimal(a)))

    return scorer


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6), st.sampled_from(("robin", "off")))
def test_every_round_seats_each_survivor_once_and_the_event_ends(
    n: int, seed: int, last3: str
) -> None:
    fmt = Bracket(XIANGQI, {"last3": last3})
    s = state(n, str(seed))
    assert fmt.plan(s) == fmt.plan(s)  # same seed, same draw
    scorer = random_scorer(seed)
    for _ in range(60):
        plan = fmt.plan(s)
        if isinstance(plan, Finished):
            break
        placed = seated_once(plan)
        assert len(placed) == len(set(placed))
        s = record(s, plan, scorer)
    assert isinstance(plan, Finished)
    assert sorted(x.player for x in plan.ranking) == list(range(1, n + 1))
    assert sum(x.alive for x in plan.ranking) <= 1
