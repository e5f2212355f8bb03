"""Best-of-N series at two-player tables (seed 000: 一局定胜负 / 五局三胜制 / 七局四胜制)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.formats.series import check_series, series_length
from engine.games import find_game

XIANGQI = find_game("xiangqi")()
GAMES = ("1-0", "0-1", "0.5-0.5")


def series(*games: str) -> str:
    return "; ".join(games)


def test_the_round_notes_say_how_long_a_series_is() -> None:
    assert series_length(("bye", "best-of-5")) == 5
    assert series_length(("bye",)) is None


@pytest.mark.parametrize(
    ("best_of", "report"),
    [
        (1, "1-0"),
        (1, "0.5-0.5"),
        (5, series("1-0", "1-0", "1-0")),  # 3-0: decided, nothing after
        (5, series("1-0", "0-1", "0.5-0.5", "1-0", "0.5-0.5")),  # 3-2 over five games
        (5, series("1-0", "0-1")),  # stopped early by the clock: the score so far
        (7, series("1-0", "1-0", "1-0", "0-1")),
        (5, "total A+3 B+2"),
    ],
)
def test_series_that_the_length_allows_stand(best_of: int, report: str) -> None:
    check_series(best_of, XIANGQI.parse(report, 2))


@pytest.mark.parametrize(
    ("best_of", "report", "code"),
    [
        (1, series("1-0", "0-1"), "series-too-long"),
        (5, series("1-0", "0-1", "1-0", "0-1", "0.5-0.5", "1-0"), "series-too-long"),
        (5, "total A+4 B+2", "series-too-long"),
        (5, series("1-0", "1-0", "1-0", "0-1"), "series-over"),
        (3, series("0-1", "0-1", "1-0"), "series-over"),
    ],
)
def test_series_longer_than_the_length_or_played_on_after_the_decision_are_refused(
    best_of: int, report: str, code: str
) -> None:
    with pytest.raises(ReportError) as err:
        check_series(best_of, XIANGQI.parse(report, 2))
    assert err.value.code == code


@given(st.sampled_from((1, 3, 5, 7)), st.lists(st.sampled_from(GAMES), min_size=1, max_size=9))
def test_a_series_played_until_decided_stands_and_one_more_game_does_not(
    best_of: int, games: list[str]
) -> None:
    """Play games until one side has more than half of N points or N games are played:
    that series is accepted; any game after it is refused."""
    played: list[str] = []
    first = second = 0.0
    for game in games:
        if max(first, second) * 2 > best_of or len(played) == best_of:
            break
        played.append(game)
        a, b = (float(x) for x in game.split("-"))
        first, second = first + a, second + b
    check_series(best_of, XIANGQI.parse(series(*played), 2))
    if max(first, second) * 2 > best_of or len(played) == best_of:
        with pytest.raises(ReportError):
            check_series(best_of, XIANGQI.parse(series(*played, games[0]), 2))
