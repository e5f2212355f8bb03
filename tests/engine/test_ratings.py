"""Ratings: each table shape's worked numbers, the properties people check a rating by
(the winner of every hand gains, the loser of every hand loses, an event adds up to 0),
and an event's tables added one by one, as the bot keeps them, against its fold."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats.seeding import snake
from engine.games import find_game
from engine.ratings import (
    BASE,
    NEW,
    PROVISIONAL_HANDS,
    Encounter,
    K,
    Rating,
    changes,
    fold,
    moves,
    sides,
)
from engine.seasons import parse_scoring, place_points, season_table

D = Decimal


def test_bigtwo_hand_is_four_sides_ranked_by_score() -> None:
    # A5 B8 C0 D12: C first, A second, B third, D last; each meets three opponents.
    game = find_game("bigtwo")()
    outcome = game.parse("A5 B8 C0 D12", 4)
    enc = sides((1, 2, 3, 4), outcome.per_hand[0])
    assert enc == Encounter(((1,), (2,), (3,), (4,)), (2, 3, 1, 4))
    moved = changes({}, enc)
    w = K / 3  # per opponent, all level at 1500 (expected ½)
    assert moved == pytest.approx({3: 3 * w / 2, 1: w / 2, 2: -w / 2, 4: -3 * w / 2})


def test_doudizhu_landlord_stands_alone_and_moves_twice_a_farmer() -> None:
    game = find_game("doudizhu")()
    hand = game.parse("B bid3 bombs1 win", 3).per_hand[0]
    enc = sides((10, 20, 30), hand, by_score=game.rating_by_score)
    assert enc is not None
    assert sorted(enc.teams, key=len) == [(20,), (10, 30)]
    assert enc.ranks[enc.teams.index((20,))] == 1
    moved = changes({}, enc)
    assert moved == pytest.approx({20: K / 2, 10: -K / 4, 30: -K / 4})


def test_partners_play_as_sides_a_c_against_b_d() -> None:
    game = find_game("guandan")()
    hand = game.parse("A C", 4).per_hand[0]
    enc = sides((1, 2, 3, 4), hand, partners=game.partners)
    assert enc == Encounter(((1, 3), (2, 4)), (1, 2))
    strong = {2: Rating(1700.0, 30)}
    moved = changes(strong, enc)
    # Beating a stronger side gives more than beating a level one; the sum stays 0.
    assert moved[1] > K / 2 and moved[2] < -K / 4
    assert sum(moved.values()) == pytest.approx(0)
    assert fold(strong, [enc])[2].games == 31


def test_two_player_win_and_draw() -> None:
    game = find_game("xiangqi")()
    win, draw = game.parse("1-0; 0.5-0.5", 2).per_hand
    assert sides((7, 8), win) == Encounter(((7,), (8,)), (1, 2))
    assert sides((7, 8), draw) == Encounter(((7,), (8,)), (1, 1))
    assert changes({}, sides((7, 8), win)) == {7: K / 2, 8: -K / 2}  # type: ignore[arg-type]
    assert changes({}, sides((7, 8), draw)) == {7: 0, 8: 0}  # type: ignore[arg-type]


def test_a_hand_nobody_played_is_not_rated() -> None:
    assert sides((1, 2, 3, 4), (D(0),) * 4, by_score=True) is None


def test_a_rating_is_shown_only_after_enough_hands() -> None:
    assert NEW.display == BASE and NEW.provisional
    win = Encounter(((1,), (2,)), (1, 2))
    almost = fold({}, [win] * (PROVISIONAL_HANDS - 1))
    assert almost[1].provisional and almost[2].provisional
    rated = fold(almost, [win])
    assert not rated[1].provisional and rated[1].games == PROVISIONAL_HANDS


def test_nine_player_doudizhu_event_cannot_take_everyone_down() -> None:
    """Three tables of three, six hands each: the landlord's side wins by turns. Today's
    figures add up to 0, so the champion (who won every hand) gains and some go down."""
    tables = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    hands = []
    for n in range(6):
        for seats in tables:
            landlord = seats[n % 3]
            farmers = tuple(p for p in seats if p != landlord)
            won = landlord == 1 or (1 not in seats and n % 2 == 0)
            hands.append(Encounter(((landlord,), farmers), (1, 2) if won else (2, 1)))
    after = fold({}, hands)
    moved = {p: after[p].value - BASE for p in after}
    assert moved[1] > 0 and min(moved.values()) < 0
    assert sum(moved.values()) == pytest.approx(0, abs=1e-9)


def test_two_hands_of_a_team_event_move_nobody_by_hundreds() -> None:
    hands = [Encounter(((1, 3), (2, 4)), (1, 2))] * 2
    after = fold({}, hands)
    assert all(abs(r.value - BASE) <= 2 * K for r in after.values())


# --- the properties, over random events of every shape ---------------------------------

WINNER, LOSER = 0, 1
SHAPES = {
    "free-for-all (锄大地, 跑得快)": (4, "ffa"),
    "free-for-all of three (跑得快)": (3, "ffa"),
    "two players (象棋)": (2, "ffa"),
    "pairs (掼蛋, 升级)": (4, "pairs"),
    "landlord against two farmers (斗地主)": (3, "landlord"),
    "landlord against three (四人斗地主)": (4, "landlord"),
}


def table(draw: st.DrawFn, sat: list[int], shape: str) -> Encounter:
    """One table's hand: WINNER (if seated) on the side ranked first alone, LOSER (if
    seated) on the side ranked last alone, everyone else placed at random (ties too)."""
    if shape == "ffa":
        teams = [[p] for p in sat]
    elif shape == "pairs":
        teams = [[sat[0], sat[2]], [sat[1], sat[3]]]
    else:
        landlord = draw(st.sampled_from(sat))
        teams = [[landlord], [p for p in sat if p != landlord]]
    side = {p: i for i, team in enumerate(teams) for p in team}
    if WINNER in side and LOSER in side and side[WINNER] == side[LOSER]:
        other = next(t for t in teams if WINNER not in t)  # swap LOSER across
        mine = teams[side[LOSER]]
        mine[mine.index(LOSER)], other[0] = other[0], LOSER
        side = {p: i for i, team in enumerate(teams) for p in team}
    n = len(teams)
    ranks = [draw(st.integers(2, max(2, n))) for _ in teams]
    if WINNER in side:
        ranks[side[WINNER]] = 1
    if LOSER in side:
        ranks[side[LOSER]] = n + 1
    return Encounter(tuple(tuple(t) for t in teams), tuple(ranks))


@st.composite
def event(draw: st.DrawFn, seats: int, shape: str) -> tuple[dict[int, Rating], list[Encounter]]:
    """Rounds of hands: every round deals everyone to tables afresh; some players come
    with a rating from earlier events, the others are new."""
    players = seats * draw(st.integers(1, 3))
    before = {
        p: Rating(draw(st.floats(1100, 1900)), draw(st.integers(0, 40)))
        for p in range(players)
        if draw(st.booleans())
    }
    hands = []
    for _ in range(draw(st.integers(1, 6))):
        order = draw(st.permutations(range(players)))
        for at in range(0, players, seats):
            hands.append(table(draw, list(order[at : at + seats]), shape))
    return before, hands


@pytest.mark.parametrize("shape", SHAPES, ids=list(SHAPES))
def test_whoever_wins_every_hand_gains_and_whoever_loses_every_hand_loses(shape: str) -> None:
    seats, kind = SHAPES[shape]

    @settings(max_examples=150, deadline=None)
    @given(event(seats, kind))
    def check(drawn: tuple[dict[int, Rating], list[Encounter]]) -> None:
        before, hands = drawn
        after = fold(before, hands)

        def moved(p: int) -> float:
            return after[p].value - before.get(p, NEW).value

        played = {p for h in hands for t in h.teams for p in t}
        if WINNER in played:
            assert moved(WINNER) > 0
            assert after[WINNER].display >= before.get(WINNER, NEW).display
        if LOSER in played:
            assert moved(LOSER) < 0
            assert after[LOSER].display <= before.get(LOSER, NEW).display
        # An event's changes add up to 0; its displayed changes average about 0.
        assert sum(moved(p) for p in played) == pytest.approx(0, abs=1e-6)
        shown = [after[p].display - before.get(p, NEW).display for p in played]
        assert abs(sum(shown) / len(shown)) <= 1
        # Nobody moves by more than K a hand they played.
        seated = Counter(p for h in hands for t in h.teams for p in t)
        assert all(abs(moved(p)) <= K * seated[p] + 1e-9 for p in played)

    check()


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
def test_an_events_tables_added_one_by_one_equal_its_fold(steps: list) -> None:  # type: ignore[type-arg]
    """What the bot keeps: each table's moves, reckoned from the ratings the event began
    with and added as it is confirmed (in any order), end where the event's fold does."""
    start = fold({}, [enc for _, encs, _ in steps[:2] for enc in encs])
    tables = [encs for _, encs, _ in steps[2:]]
    moved: dict[int, float] = {}
    played: dict[int, int] = {}
    for table in reversed(tables):
        more, hands = moves(start, table)
        for p in more:
            moved[p] = moved.get(p, 0.0) + more[p]
            played[p] = played.get(p, 0) + hands[p]
    whole = fold(start, [enc for table in tables for enc in table])
    for p, r in whole.items():
        was = start.get(p, NEW)
        assert r.games == was.games + played.get(p, 0)
        assert r.value == pytest.approx(was.value + moved.get(p, 0.0), abs=1e-9)


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
