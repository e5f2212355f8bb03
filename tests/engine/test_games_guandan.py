"""Guandan 掼蛋 (docs/rules/guandan.md): upgrade tables, A must be passed, best of three."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ReportError
from engine.games import find_game
from engine.games.guandan import Guandan
from engine.games.levels import LEVELS


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


@pytest.mark.parametrize(
    ("text", "scores", "canonical"),
    [
        ("A C", (3, 0, 3, 0), "A C"),  # double down 双下
        ("A B C", (2, 0, 2, 0), "A B C"),
        ("A B D C", (1, 0, 1, 0), "A B D C"),
        ("A B D", (1, 0, 1, 0), "A B D C"),  # partner implied last
        ("B D A C", (0, 3, 0, 3), "B D"),
        ("南 北", (0, 3, 0, 3), "B D"),
    ],
)
def test_partner_place_sets_the_levels_gained(
    text: str, scores: tuple[int, ...], canonical: str
) -> None:
    outcome = Guandan().parse(text, 4)
    assert outcome.scores == pts(*scores)
    assert outcome.text == canonical


def test_seed_five_three_one_table() -> None:
    game = Guandan({"upgrade": "5/3/1"})
    assert tuple(game.parse(t, 4).scores[0] for t in ("A C", "A B C", "A B D")) == pts(5, 3, 1)


@pytest.mark.parametrize(
    ("text", "code"),
    [("A B", "partner-place-missing"), ("A A C", "seat-twice"), ("A E", "unknown-seat")],
)
def test_impossible_orders_are_refused(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        Guandan().parse(text, 4)
    assert err.value.code == code


def climb_to_a(game: Guandan) -> str:
    """A&C go 2 → A in four double-downs (3+3+3+3 = 12 steps)."""
    return "; ".join(["A C"] * 4)


def test_levels_stop_at_a_until_it_is_passed() -> None:
    game = Guandan()
    state, winner = game.state([game.parse(climb_to_a(game), 4)])
    assert LEVELS[state.levels[0]] == "A"
    assert winner is None


def test_winning_on_a_with_partner_last_does_not_pass_a() -> None:
    game = Guandan({"games": "1"})
    reports = [game.parse(climb_to_a(game) + "; A B D", 4)]
    assert game.match_winner(reports, 4) is None
    assert game.match_winner([*reports, game.parse("C B A", 4)], 4) == (0, 2)


def test_three_failed_tries_send_the_side_back_to_two_with_the_knob() -> None:
    fails = "; ".join(["A B D"] * 3)
    stays, back = Guandan(), Guandan({"a_fail": "3"})
    assert stays.state([stays.parse(climb_to_a(stays) + "; " + fails, 4)])[0].levels[0] == 12
    assert back.state([back.parse(climb_to_a(back) + "; " + fails, 4)])[0].levels[0] == 0


def test_best_of_three_needs_two_games_and_scores_match_points() -> None:
    game = Guandan()
    one_game = game.parse(climb_to_a(game) + "; A C", 4)
    assert game.match_winner([one_game], 4) is None
    assert game.match_points([one_game]) == pts(2, 0, 2, 0)  # at time: ahead on games
    assert game.match_winner([one_game, one_game], 4) == (0, 2)


def test_level_tie_at_time_is_a_draw() -> None:
    game = Guandan()
    assert game.match_points([game.parse("A C; B D", 4)]) == pts(1, 1, 1, 1)


def test_small_score_counts_level_difference_and_passing_a() -> None:
    game = Guandan()
    state, _ = game.state([game.parse(climb_to_a(game) + "; A C; B D", 4)])
    assert state.small_score(0) == -3 + 1
    assert state.small_score(1) == 3 - 1


def test_chinese_name_finds_guandan() -> None:
    assert find_game("掼蛋") is Guandan


@pytest.mark.parametrize("game", ["guandan", "shengji"])
@pytest.mark.parametrize(
    "total",
    [
        "total A+2 B-2 C+2 D-2",
        "total A+4 B-2 C-1 D-1",
        "total A+2 B0 C+1 D0",
        "total A0 B-1 C0 D-1",
    ],
)
def test_a_total_that_is_no_sides_climb_is_refused(game: str, total: str) -> None:
    """A climbing game's total is each side's levels: anything else used to count as a
    draw nobody reported (every seat the draw's match points)."""
    with pytest.raises(ReportError) as err:
        find_game(game)().parse(total, 4)
    assert err.value.code == "level-total"


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_a_sides_climb_as_a_total_wins_the_match_at_time(game: str) -> None:
    played = find_game(game)()
    assert played.round_scores(played.parse("total A+2 B0 C+2 D0", 4), 4) == pts(2, 0, 2, 0)
    assert played.round_scores(played.parse("total A0 B0 C0 D0", 4), 4) == pts(1, 1, 1, 1)
    # both sides climbed in the session (it used to read as a draw): the one further up leads
    assert played.round_scores(played.parse("total A+3 B+5 C+3 D+5", 4), 4) == pts(0, 2, 0, 2)
