"""Ratings: every table shape against openskill called directly, and the ledger's
incremental replay against a replay from scratch."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from engine.formats.seeding import snake
from engine.games import find_game
from engine.ratings import (
    NEW,
    Encounter,
    EventResult,
    Ledger,
    Rating,
    fold,
    leaderboard,
    rate,
    replay,
    sides,
)
from engine.seasons import parse_scoring, place_points, season_table

D = Decimal
MODEL = PlackettLuce()


def direct(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[float]]:
    """openskill itself, on plain (mu, sigma) pairs: the reference for each shape."""
    objs = [[MODEL.rating(mu=m, sigma=s) for m, s in team] for team in teams]
    return [[r.mu for r in team] for team in MODEL.rate(objs, ranks=ranks)]


def test_bigtwo_hand_is_four_sides_ranked_by_score() -> None:
    # seed 001 example: A5 B8 C0 D12 → +37 -7 +57 -87
    game = find_game("bigtwo")()
    outcome = game.parse("A5 B8 C0 D12", 4)
    enc = sides((1, 2, 3, 4), outcome.per_hand[0])
    assert enc == Encounter(((1,), (2,), (3,), (4,)), (2, 3, 1, 4))
    after = rate({}, enc)
    ref = direct([[(25, 25 / 3)]] * 4, [2, 3, 1, 4])
    assert [after[p].mu for p in (1, 2, 3, 4)] == [ref[i][0] for i in range(4)]
    assert after[3].mu > after[1].mu > after[2].mu > after[4].mu


def test_doudizhu_landlord_stands_alone_against_the_farmers() -> None:
    game = find_game("doudizhu")()
    hand = game.parse("B bid3 bombs1 win", 3).per_hand[0]
    enc = sides((10, 20, 30), hand, by_score=game.rating_by_score)
    assert enc is not None
    assert sorted(enc.teams, key=len) == [(20,), (10, 30)]
    landlord_rank = enc.ranks[enc.teams.index((20,))]
    assert landlord_rank == 1
    ref = direct([[(25, 25 / 3)], [(25, 25 / 3), (25, 25 / 3)]], [1, 2])
    after = rate({}, enc)
    assert after[20].mu == ref[0][0]
    assert after[10].mu == after[30].mu == ref[1][0]


def test_partners_play_as_sides_a_c_against_b_d() -> None:
    game = find_game("guandan")()
    hand = game.parse("A C", 4).per_hand[0]
    enc = sides((1, 2, 3, 4), hand, partners=game.partners)
    assert enc == Encounter(((1, 3), (2, 4)), (1, 2))
    after = rate({2: Rating(30.0, 5.0, 12)}, enc)
    ref = direct([[(25, 25 / 3), (25, 25 / 3)], [(30.0, 5.0), (25, 25 / 3)]], [1, 2])
    assert after[1].mu == ref[0][0] and after[2].mu == ref[1][0] and after[4].mu == ref[1][1]
    assert after[2].games == 13


def test_two_player_win_and_draw() -> None:
    game = find_game("xiangqi")()
    win, draw = game.parse("1-0; 0.5-0.5", 2).per_hand
    assert sides((7, 8), win) == Encounter(((7,), (8,)), (1, 2))
    assert sides((7, 8), draw) == Encounter(((7,), (8,)), (1, 1))
    ref = direct([[(25, 25 / 3)], [(25, 25 / 3)]], [1, 1])
    assert rate({}, sides((7, 8), draw))[7].mu == ref[0][0]  # type: ignore[arg-type]


def test_a_hand_nobody_played_is_not_rated() -> None:
    assert sides((1, 2, 3, 4), (D(0),) * 4, by_score=True) is None


def test_display_is_conservative_and_newcomers_provisional() -> None:
    assert NEW.display == 1500 and NEW.provisional
    sure = Rating(25.0, 1.0, 40)
    assert sure.display == 1500 + 40 * 22 and not sure.provisional


encounters = st.builds(
    lambda order, n: Encounter(tuple((p,) for p in order[:n]), tuple(range(1, n + 1))),
    st.permutations(range(1, 7)),
    st.integers(2, 4),
)
ops = st.lists(
    st.tuples(st.integers(1, 6), st.lists(encounters, max_size=3), st.booleans()),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_incremental_ledger_equals_replay_from_scratch(steps: list) -> None:  # type: ignore[type-arg]
    """Any sequence of new events, fixes (an event replaced) and undos (removed)."""
    ledger = Ledger()
    current: dict[int, EventResult] = {}
    for event, encs, drop in steps:
        if drop and event in current:
            ledger.remove(event)
            del current[event]
        else:
            current[event] = EventResult(event, tuple(encs))
            ledger.put(current[event])
        assert ledger.ratings() == replay(current.values())
        assert ledger.events == tuple(sorted(current))


def test_around_and_history_follow_the_events() -> None:
    e1 = EventResult(1, (Encounter(((1,), (2,)), (1, 2)),))
    e2 = EventResult(2, (Encounter(((2,), (3,)), (1, 2)),))
    ledger = Ledger()
    ledger.put(e2)
    ledger.put(e1)
    before, after = ledger.around(2)
    assert before == fold({}, e1.encounters) and after == ledger.ratings()
    assert [ev for ev, _ in ledger.history(2)] == [1, 2]
    assert [ev for ev, _ in ledger.history(1)] == [1]
    assert leaderboard(ledger.ratings())[0][0] in (1, 2)


def test_snake_spreads_the_strongest() -> None:
    assert snake([1, 2, 3, 4, 5, 6, 7, 8], (4, 4)) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake(list(range(1, 10)), (3, 3, 3)) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_season_scoring_and_table() -> None:
    assert parse_scoring("") == "10/7/5/3/1"
    assert parse_scoring("等级分") == "rating"
    assert place_points("10/7/5", 2) == 7 and place_points("10/7/5", 4) == 0
    table = season_table([{1: (1, D(10)), 2: (2, D(7))}, {2: (1, D(10)), 3: (2, D(7))}])
    assert [(ln.player, ln.points) for ln in table] == [(2, 17), (1, 10), (3, 7)]


def test_bracket_seeds_by_rating_keep_the_two_strongest_apart() -> None:
    from engine.formats import find_format
    from engine.model import RoundPlan, TournamentState

    fmt = find_format("bracket")(find_game("xiangqi")(), {"seeds": "等级分"})
    assert fmt.options["seeds"] == "rating"
    state = TournamentState(players=tuple(range(1, 9)), seed="s", seeding=(8, 3, 5, 1))
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan)
    pairs = [set(t.players) for t in plan.tables]
    top, bottom = set().union(*pairs[:2]), set().union(*pairs[2:])
    assert 8 in top and 3 in bottom  # seeds 1 and 2 in opposite halves
    assert not any({8, 3} <= p or {5, 1} <= p or {8, 5} <= p for p in pairs)


def test_swiss_first_round_by_rating_deals_the_strongest_to_different_tables() -> None:
    from engine.formats import find_format
    from engine.model import RoundPlan, TournamentState

    fmt = find_format("swiss")(find_game("bigtwo")(), {"seeds": "rating"})
    state = TournamentState(players=tuple(range(1, 13)), seed="s", seeding=(12, 11, 10, 9, 8, 7))
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan)
    first_three = [next(t.number for t in plan.tables if p in t.players) for p in (12, 11, 10)]
    assert sorted(first_three) == [1, 2, 3]
    assert sorted(p for t in plan.tables for p in t.players) == list(range(1, 13))
