"""Two-player games 象棋 / 五子棋 / 军棋: match points and the deciding-game rule
(docs/rules/two-player.md)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ReportError
from engine.games import find_game
from engine.games.twoplayer import Gomoku, Junqi, Xiangqi


def pts(*values: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


@pytest.mark.parametrize(
    ("text", "scores"),
    [
        ("1-0", ("1", "0")),
        ("0-1", ("0", "1")),
        ("0.5-0.5", ("0.5", "0.5")),
        ("½-½", ("0.5", "0.5")),
        ("1:0", ("1", "0")),
        ("A胜", ("1", "0")),
        ("B win", ("0", "1")),
        ("A 负", ("0", "1")),
        ("和", ("0.5", "0.5")),
    ],
)
def test_one_game_scores_one_half_zero(text: str, scores: tuple[str, ...]) -> None:
    assert Xiangqi().parse(text, 2).scores == pts(*scores)


def test_two_one_zero_knob_doubles_match_points() -> None:
    assert Xiangqi({"points": "2/1/0"}).parse("1-0; 0.5-0.5", 2).scores == pts("3", "1")


def test_two_games_level_then_deciders_until_someone_wins() -> None:
    game = Xiangqi()
    level = game.parse("1-0; 0-1", 2)
    assert game.match_winner([level], 2) is None
    assert game.match_winner([level, game.parse("0.5-0.5", 2)], 2) is None
    assert game.match_winner([level, game.parse("0.5-0.5; 0-1", 2)], 2) == (1,)


def test_a_single_win_does_not_end_the_two_game_match() -> None:
    game = Gomoku()
    assert game.match_winner([game.parse("1-0", 2)], 2) is None
    assert game.match_winner([game.parse("1-0; 0.5-0.5", 2)], 2) == (0,)


@pytest.mark.parametrize("text", ["2-0", "1-1", "win", "A", "A B win", "C胜", "1-0-0"])
def test_impossible_results_are_refused(text: str) -> None:
    with pytest.raises(ReportError):
        Junqi().parse(text, 2)


def test_four_seats_is_not_a_two_player_table() -> None:
    with pytest.raises(ReportError) as err:
        Xiangqi().parse("1-0", 4)
    assert err.value.code == "bad-table-size"


@pytest.mark.parametrize(("name", "game"), [("象棋", Xiangqi), ("五子棋", Gomoku), ("军棋", Junqi)])
def test_chinese_names_find_the_board_games(name: str, game: type) -> None:
    assert find_game(name) is game
