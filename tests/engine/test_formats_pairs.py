"""Pairs 双人赛 (docs/rules/pairs.md): pairs by lot, opponents by cards, the joker, partners
opposite."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.draw import card_colour
from engine.errors import FormatError
from engine.formats import find_format
from engine.formats.pairs import Pairs, card_draw
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
from tests.engine.simulation import Sim
from tests.engine.test_formats_support import by_id, play, record, seated_once

GUANDAN = find_game("guandan")()


def sides(table: Table) -> set[frozenset[int]]:
    return {frozenset(table.players[0::2]), frozenset(table.players[1::2])}


def test_pairs_is_found_by_its_chinese_name() -> None:
    assert find_format("双人赛") is Pairs


def test_holders_of_the_same_rank_and_colour_meet() -> None:
    matches, joker, held = card_draw(list(range(1, 10)), random.Random(5))
    assert joker is not None and held[joker] == "大王"
    assert len(matches) == 4
    for a, b in matches:
        assert held[a][1:] == held[b][1:]  # same rank
        assert card_colour(held[a]) == card_colour(held[b])  # same colour
        assert held[a][0] in "♦♣"  # the ♦/♣ holder is listed first (seats A and C)


def test_partners_always_sit_opposite() -> None:
    fmt = Pairs(GUANDAN)
    state = TournamentState(players=tuple(range(1, 17)), seed="s")
    pairs = {frozenset(p) for p in fmt.pairs(state)}
    final, _ = play(fmt, state)
    for rec in final.rounds:
        for table in rec.plan.tables:
            assert sides(table) <= pairs


def test_fourteen_pairs_follow_the_seed_with_a_lucky_joker_pair() -> None:
    """docs/rules/pairs.md: 14 pairs → 7; the joker's pair goes to the final; 6 → 3; final of 4."""
    fmt = Pairs(GUANDAN, {"lucky": "on"})
    final, done = play(fmt, TournamentState(players=tuple(range(1, 29)), seed="s"))
    stages = [(len(r.plan.tables), len(r.plan.byes), r.plan.stage) for r in final.rounds]
    assert stages == [(7, 0, ""), (3, 2, ""), (2, 0, "final"), (2, 0, "final")]
    assert "lucky-pair" in final.rounds[1].plan.notes
    lucky = set(final.rounds[1].plan.byes)
    assert lucky <= set(seated_once(final.rounds[2].plan))
    met = [
        frozenset(frozenset(s) for s in sides(t)) for r in final.rounds[2:] for t in r.plan.tables
    ]
    assert len(set(met)) == 4  # the final's two rounds repeat no pairing
    assert done.ranking[0].alive and not done.ranking[2].alive


def test_without_lucky_the_joker_is_a_bye_into_the_next_draw() -> None:
    fmt = Pairs(GUANDAN, {"final": "2", "final_rounds": "1"})
    state = TournamentState(players=tuple(range(1, 11)), seed="s")  # five pairs
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan) and len(plan.byes) == 2 and "bye" in plan.notes
    after = record(state, plan, by_id)
    second = fmt.plan(after)
    assert isinstance(second, RoundPlan) and set(plan.byes) <= set(seated_once(second))


def one_table(plan: RoundPlan, result: TableResult) -> TournamentState:
    """Round 1 of eight players: ``result`` at table 1, A&C win table 2."""
    other = plan.tables[1]
    rec = RoundRecord(
        1, plan, (result, TableResult(other, TableStatus.CONFIRMED, (Decimal(1), 0, 1, 0)))
    )
    return TournamentState(players=tuple(range(1, 9)), seed="s", rounds=(rec,))


def first_round(fmt: Pairs) -> RoundPlan:
    plan = fmt.plan(TournamentState(players=tuple(range(1, 9)), seed="s"))
    assert isinstance(plan, RoundPlan)
    return plan


def test_a_pair_with_a_forfeited_member_loses_and_both_forfeited_are_both_out() -> None:
    fmt = Pairs(GUANDAN, {"final": "2", "final_rounds": "1"})
    first = first_round(fmt)
    table = first.tables[0]
    a = table.players[0]
    forfeited = frozenset({a})
    lost = one_table(first, TableResult(table, TableStatus.CONFIRMED, (3, 0, 3, 0), forfeited))
    plan = fmt.plan(lost)
    assert isinstance(plan, RoundPlan) and plan.stage == "final"
    assert set(table.players[1::2]) <= set(seated_once(plan))
    assert a not in seated_once(plan)
    both = one_table(first, TableResult(table, TableStatus.FORFEIT, (), frozenset(table.players)))
    plan = fmt.plan(both)
    assert isinstance(plan, Finished)  # only the other table's winner is left


def test_a_tied_table_is_decided_by_a_flip_and_noted() -> None:
    fmt = Pairs(GUANDAN, {"final": "2", "final_rounds": "1"})
    first = first_round(fmt)
    table = first.tables[0]
    tied = one_table(first, TableResult(table, TableStatus.CONFIRMED, (Decimal(0),) * 4))
    plan = fmt.plan(tied)
    assert isinstance(plan, RoundPlan) and "tiebreak-flip" in plan.notes
    assert len(sides(table) & sides(plan.tables[0])) == 1
    assert fmt.plan(tied) == plan  # the flip is the seed's, not chance


def test_a_withdrawn_player_takes_the_pair_out_and_the_opponents_go_on() -> None:
    fmt = Pairs(GUANDAN, {"final": "2", "final_rounds": "1"})
    first = first_round(fmt)
    table = first.tables[0]
    a = table.players[0]
    won = one_table(first, TableResult(table, TableStatus.CONFIRMED, (3, 0, 3, 0)))
    plan = fmt.plan(replace(won, removed=frozenset({a})))  # withdrew after winning
    assert isinstance(plan, RoundPlan)
    assert a not in seated_once(plan) and set(table.players[1::2]) <= set(seated_once(plan))
    ranking = fmt.standings(replace(won, removed=frozenset({a})))
    assert {s.player for s in ranking[-2:]} == {a, table.players[2]}  # the pair, last
    assert ranking[-1].rank == ranking[-2].rank  # partners on one place
    assert {s.player for s in ranking if s.stage == "removed"} == {a}  # the partner is out


def test_two_forfeits_remove_a_player_and_cancel_their_results() -> None:
    fmt = Pairs(GUANDAN, {"final": "4", "final_rounds": "3"})
    state = TournamentState(players=tuple(range(1, 9)), seed="s")
    for _ in range(2):
        plan = fmt.plan(state)
        assert isinstance(plan, RoundPlan)

        def scorer(_n: int, _p: RoundPlan, t: Table) -> TableResult:
            base = by_id(_n, _p, t)
            return replace(base, forfeited=frozenset({1} & set(t.players)))

        state = record(state, plan, scorer)
    ranking = fmt.standings(state)
    assert ranking[-1].player == 1 and ranking[-1].points == 0
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan) and 1 not in seated_once(plan)


def test_an_odd_number_of_players_cannot_be_paired() -> None:
    with pytest.raises(FormatError) as err:
        Pairs(GUANDAN).plan(TournamentState(players=tuple(range(1, 8)), seed="s"))
    assert err.value.code == "pairs-odd"


def play_off_decided(number: int, plan: RoundPlan, table: Table) -> TableResult:
    """``by_id``, but a play-off goes to the pair at seats A and C: the same two pairs
    level again would play it off for ever."""
    if plan.stage != "extra":
        return by_id(number, plan, table)
    won = (Decimal(3), Decimal(0), Decimal(3), Decimal(0))
    return TableResult(table, TableStatus.CONFIRMED, won)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=4, max_value=20), st.text(min_size=1, max_size=6), st.booleans())
def test_any_even_field_finishes_and_every_pair_is_placed_once_per_round(
    n_pairs: int, seed: str, lucky: bool
) -> None:
    fmt = Pairs(GUANDAN, {"lucky": "on" if lucky else "off"})
    state = TournamentState(players=tuple(range(1, 2 * n_pairs + 1)), seed=seed)
    pairs = {frozenset(p) for p in fmt.pairs(state)}
    final, done = play(fmt, state, play_off_decided)
    for rec in final.rounds:
        placed = seated_once(rec.plan)
        assert len(placed) == len(set(placed))
        assert {frozenset(rec.plan.byes)} <= pairs | {frozenset()}
    assert len(done.ranking) == 2 * n_pairs


def test_pairs_signed_up_together_come_first_and_the_lot_pairs_the_rest() -> None:
    """第三篇: 自由组队 or by lot, in one event: 3 and 8 signed up together, 5 and 6 too."""
    players = tuple(range(1, 11))
    state = TournamentState(players=players, seed="s", teams={3: 7, 8: 7, 5: 9, 6: 9})
    pairs = Pairs(GUANDAN).pairs(state)
    assert pairs[:2] == [(3, 8), (5, 6)]
    lot = Pairs(GUANDAN).pairs(TournamentState(players=(1, 2, 4, 7, 9, 10), seed="s"))
    assert pairs[2:] == lot  # the others: the plain lot over just them


def test_a_lone_player_left_by_pairs_signed_up_together_cannot_be_paired() -> None:
    state = TournamentState(players=tuple(range(1, 8)), seed="s", teams={1: 1, 2: 1, 3: 2})
    with pytest.raises(FormatError) as err:
        Pairs(GUANDAN).pairs(state)
    assert err.value.code == "pair-size"


def test_a_pair_removed_after_it_went_on_keeps_the_table_it_won() -> None:
    """掼蛋, six pairs (a seed the oracle's scan found): pair 9 & 3 wins its round-1 table
    against 12 & 1, plays the final, and 9 is removed there for a second forfeit. The
    table it won stays won (the opponents keep what they scored, nothing more,
    docs/rules/penalties.md#forfeits): 12 & 1 stay out in round 1, not finalists who
    never sat at the final."""
    fmt = find_format("pairs")(find_game("guandan")(), {})
    sim = Sim(fmt, 12, 1471773114)
    sim.run()  # the oracle: nobody shown out is later shown through
    rounds = sim.state.rounds
    assert rounds[0].plan.tables[1].players == (12, 9, 1, 3)
    assert 9 in fmt.disciplined(sim.state).removed
    line = {s.player: s for s in fmt.standings(sim.state)}
    assert all((line[p].stage, line[p].stage_round) == ("out", 1) for p in (12, 1))
