"""Best-of-N series at two-player tables (docs/rules/groups.md#best-of)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.formats.series import check_report, check_series, series_length, series_note
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


POINTS = {"1-0": (1, 0), "0-1": (0, 1), "0.5-0.5": (0.5, 0.5)}


@given(
    st.lists(st.sampled_from(GAMES), min_size=1, max_size=8),
    st.integers(min_value=1, max_value=3),
    st.sampled_from(("1/0.5/0", "2/1/0")),
)
def test_sudden_death_is_decided_by_the_first_lead_after_the_set_games(
    games: list[str], minimum: int, points: str
) -> None:
    """Two games (the ``games`` knob), then one at a time: the first lead decides; a game
    after it is refused naming the decisive score; a report short of it leaves the table
    playing on; whatever is accepted names the same winner as the game's own replay."""
    game = find_game("xiangqi")({"games": str(minimum), "points": points})
    outcome = game.parse(series(*games), 2)
    a = b = 0.0
    decided_at = None
    for number, g in enumerate(games, 1):
        a, b = a + POINTS[g][0], b + POINTS[g][1]
        if decided_at is None and number >= minimum and a != b:
            decided_at, score = number, (a, b)
    if decided_at is not None and decided_at < len(games):
        with pytest.raises(ReportError) as refused:
            check_report(("sudden",), game, outcome)
        assert refused.value.code == "match-over"
        assert refused.value.params["after"] == decided_at
        assert refused.value.params["game"] == decided_at + 1
        shown = "–".join(f"{x:g}" for x in score)
        assert refused.value.params["score"] == shown
        return
    level = check_report(("sudden",), game, outcome)
    assert level == (decided_at is None)
    winner = game.match_winner([outcome], 2)
    assert winner == (None if level else ((0,) if a > b else (1,)))


def test_the_reported_three_games_after_two_wins_are_refused() -> None:
    with pytest.raises(ReportError) as refused:
        check_report(("sudden",), XIANGQI, XIANGQI.parse("1-0; 1-0; 1-0", 2))
    assert refused.value.params == {"game": 3, "after": 2, "score": "2–0"}
    assert check_report(("sudden",), XIANGQI, XIANGQI.parse("1-0; 0-1", 2))  # level: on
    assert check_report(("sudden",), XIANGQI, XIANGQI.parse("0.5-0.5; 0.5-0.5", 2))
    assert not check_report(("sudden",), XIANGQI, XIANGQI.parse("1-0; 0-1; 0-1", 2))


@pytest.mark.parametrize(
    ("series_knob", "notes"),
    [("sudden", ("sudden",)), ("bo5", ("best-of-5",)), ("stages", ("best-of-7",))],
)
def test_the_series_knob_names_the_rounds_rule(series_knob: str, notes: tuple[str]) -> None:
    assert series_note(find_game("junqi")({"series": series_knob}), 7) == notes
