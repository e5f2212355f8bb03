"""A table's round score (``Game.round_scores``): what standings add and /export shows.

Points in point games, match points in level games, and in two-player games the games'
1/0.5/0 summed, so the winner of a two-games-then-deciders match goes on
(docs/rules/two-player.md#series).
"""

from __future__ import annotations

from decimal import Decimal

from engine.formats import find_format
from engine.games import find_game
from engine.model import (
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)

D = Decimal


def round_scores(key: str, text: str, seats: int, **options: str) -> tuple[Decimal, ...]:
    game = find_game(key)(options)
    return game.round_scores(game.parse(text, seats), seats)


def test_point_games_add_the_reports_points() -> None:
    assert round_scores("bigtwo", "A5 B8 C0 D12", 4) == (D(37), D(-7), D(57), D(-87))
    assert round_scores("doudizhu", "B bid3 bombs1 win", 3) == (D(-6), D(12), D(-6))


def test_guandan_round_counts_match_points_not_levels() -> None:
    game = find_game("guandan")({"upgrade": "5/3/1"})
    outcome = game.parse("A C", 4)
    assert outcome.scores == (D(5), D(0), D(5), D(0))  # levels gained
    assert game.round_scores(outcome, 4) == (D(2), D(0), D(2), D(0))
    assert round_scores("guandan", "A C", 4, points="3/1/0") == (D(3), D(0), D(3), D(0))


def test_shengji_round_counts_match_points_and_an_even_round_is_a_draw() -> None:
    assert round_scores("shengji", "A pts85 kitty20x4", 4) == (D(0), D(2), D(0), D(2))
    assert round_scores("shengji", "A pts85", 4) == (D(1),) * 4  # deal changes, nobody climbs


def test_xiangqi_match_of_two_games_and_a_decider_advances_its_winner() -> None:
    assert round_scores("xiangqi", "1-0; 0-1; 1-0", 2) == (D(2), D(1))
    game = find_game("xiangqi")()
    fmt = find_format("knockout")(game)
    tables = (Table(1, (11, 12)), Table(2, (13, 14)))
    results = tuple(
        TableResult(table, TableStatus.CONFIRMED, game.round_scores(game.parse(text, 2), 2))
        for table, text in zip(tables, ("1-0; 0-1; 1-0", "0-1; 0.5-0.5"), strict=True)
    )
    state = TournamentState(
        players=(11, 12, 13, 14),
        seed="00" * 32,
        rounds=(RoundRecord(1, RoundPlan(tables), results),),
    )
    final = fmt.plan(state)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert set(final.tables[0].players) == {11, 14}
