"""Two-player matches: best-of-N series (docs/rules/groups.md#best-of) and two games then
sudden death (docs/rules/two-player.md#series), in every format a two-player game plays in
(docs/rules/two-player.md#formats), and how a Swiss counts them (#swiss there)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import FormatError, ReportError
from engine.formats import find_format
from engine.formats.series import (
    HALF,
    SERIES_NOTES,
    check_report,
    check_series,
    match_points,
    matches_won,
    point_unit,
    series_length,
    series_note,
)
from engine.games import find_game
from engine.games.base import Game, Outcome
from engine.model import (
    Finished,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.standings import totals
from tests.engine.test_formats_support import play

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


# --- every format a two-player game plays in (docs/rules/two-player.md#formats) -----------

TWO_PLAYER_FORMATS = ("bracket", "groups", "swiss", "teams", "knockout", "stages")


def play_match(game: Game[Any], notes: tuple[str, ...], table: Table, rng: Random) -> TableResult:
    """Games by lot at one table, played exactly as long as the round's series allows: the
    report is accepted and decided, and one more game would be refused."""
    games: list[str] = []
    while True:
        games.append(rng.choice(GAMES))
        outcome = game.parse(series(*games), 2)
        best_of = series_length(notes)
        if best_of is not None and (len(games) == best_of or _decided(best_of, game, outcome)):
            break
        if best_of is None and not check_report(notes, game, outcome):
            break
    assert not check_report(notes, game, outcome)
    with pytest.raises(ReportError):
        check_report(notes, game, game.parse(series(*games, rng.choice(GAMES)), 2))
    return TableResult(table, TableStatus.CONFIRMED, game.round_scores(outcome, 2))


def _decided(best_of: int, game: Game[Any], outcome: Outcome) -> bool:
    won = max(sum(side, Decimal(0)) for side in zip(*outcome.per_hand, strict=True))
    return won * 2 > best_of * point_unit(game)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(TWO_PLAYER_FORMATS),
    st.integers(min_value=4, max_value=12),
    st.sampled_from(("sudden", "bo1", "bo3", "bo5")),
    st.sampled_from(("1/0.5/0", "2/1/0")),
    st.randoms(use_true_random=False),
)
def test_every_format_plays_two_player_matches_under_the_series_rule(
    key: str, players: int, length: str, points: str, rng: Random
) -> None:
    """Whatever the format, every round of two-player tables carries the series note, so
    each match is played as the rule says and a game after the decision is refused; a
    sudden-death match always ends with a winner who won more games; the event ends."""
    game = find_game("xiangqi")({"series": length, "points": points})
    fmt = find_format(key)(game)
    state = TournamentState(players=tuple(range(1, players + 1)), seed=f"s{players}")
    for _ in range(60):
        plan = fmt.plan(state)
        if isinstance(plan, Finished):
            break
        assert plan.notes and set(plan.notes) & set(SERIES_NOTES), (key, plan.stage, plan.notes)
        results = []
        for table in plan.tables:
            result = play_match(game, plan.notes, table, rng)
            if length == "sudden":
                assert result.scores[0] != result.scores[1]
            results.append(result)
        number = len(state.rounds) + 1
        state = replace(state, rounds=(*state.rounds, RoundRecord(number, plan, tuple(results))))
    else:
        raise AssertionError(f"{key} did not finish")
    assert isinstance(plan, Finished) and plan.ranking
    if key in ("swiss", "teams"):  # matches ranked: match points, then game points
        games = totals(state)
        won = match_points(state, game)
        matches = sum(len(rec.plan.tables) for rec in state.rounds)
        assert sum(won.values()) == matches * point_unit(game)
        order = [(won[s.player], games[s.player]) for s in plan.ranking]
        assert order == sorted(order, reverse=True)
        assert [s.points for s in plan.ranking] == [o[0] for o in order]


def test_a_swiss_counts_matches_then_games() -> None:
    """Four players, best of three, one round: 1 beats 2 2–1, 3 and 4 draw 1.5–1.5 (a level
    best-of match: half a match point each). The winner of a match ranks above anyone who
    won more games but no match; game points split level match points."""
    game = find_game("xiangqi")({"series": "bo3"})
    fmt = find_format("swiss")(game, {"rounds": "1"})
    plan = RoundPlan((Table(1, (1, 2)), Table(2, (3, 4))), (), "", "round1", ("best-of-3",))
    one = game.round_scores(game.parse("1-0; 0-1; 1-0", 2), 2)
    two = game.round_scores(game.parse("1-0; 0-1; 0.5-0.5", 2), 2)
    state = TournamentState(
        players=(1, 2, 3, 4),
        seed="s",
        rounds=(
            RoundRecord(
                1,
                plan,
                (
                    TableResult(plan.tables[0], TableStatus.CONFIRMED, one),
                    TableResult(plan.tables[1], TableStatus.CONFIRMED, two),
                ),
            ),
        ),
    )
    ranking = fmt.standings(state)
    assert [(s.player, s.points) for s in ranking] == [
        (1, Decimal(1)),
        (3, Decimal("0.5")),
        (4, Decimal("0.5")),
        (2, Decimal(0)),
    ]
    assert ranking[0].tiebreak == ("match-points",) and ranking[0].figure_code == "match-points"
    assert ranking[1].tiebreak == ("flip",)  # the level pair: the same in every criterion
    assert fmt.tiebreaks[1:3] == ("match-points", "game-points")


def test_a_swiss_match_point_is_two_under_2_1_0_and_a_walkover_is_won() -> None:
    game = find_game("gomoku")({"points": "2/1/0"})
    fmt = find_format("swiss")(game, {"rounds": "1"})
    plan = fmt.plan(TournamentState(players=(1, 2, 3, 4), seed="s"))
    assert isinstance(plan, RoundPlan) and plan.notes[0] == "sudden"
    first, second = plan.tables
    scores = game.round_scores(game.parse("1-0; 0-1; 0-1", 2), 2)
    results = (
        TableResult(first, TableStatus.CONFIRMED, scores),
        TableResult(second, TableStatus.FORFEIT, (), frozenset({second.players[0]})),
    )
    state = TournamentState(players=(1, 2, 3, 4), seed="s", rounds=(RoundRecord(1, plan, results),))
    points = {s.player: s.points for s in fmt.standings(state)}
    assert points[first.players[1]] == 2 and points[first.players[0]] == 0
    assert points[second.players[1]] == 2 and points[second.players[0]] == 0


def test_a_level_sudden_match_counts_nothing_until_its_next_game() -> None:
    """The bot keeps a level match's table open (its result pending): the standings count
    no match points for it, and the next round waits for it."""
    game = find_game("junqi")()
    fmt = find_format("swiss")(game, {"rounds": "2"})
    plan = fmt.plan(TournamentState(players=(1, 2), seed="s"))
    assert isinstance(plan, RoundPlan)
    pending = TableResult(plan.tables[0], TableStatus.PENDING)
    state = TournamentState(players=(1, 2), seed="s", rounds=(RoundRecord(1, plan, (pending,)),))
    assert all(s.points == 0 for s in fmt.standings(state))
    with pytest.raises(FormatError):
        fmt.plan(state)


@pytest.mark.parametrize("key", ["knockout", "stages"])
def test_in_table_knockout_and_score_stages_the_match_winner_goes_on(key: str) -> None:
    """Eight players, sudden death: the player who wins every match (the highest id here,
    always winning 2–0 or after a deciding game) is champion, and every round said the rule."""
    game = find_game("xiangqi")()
    fmt = find_format(key)(game)

    def higher_wins(_number: int, plan: RoundPlan, table: Table) -> TableResult:
        a, b = table.players
        games = "1-0; 0-1; 1-0" if a > b else "0-1; 1-0; 0-1"
        outcome = game.parse(games, 2)
        assert not check_report(plan.notes, game, outcome)  # decided at game 3
        return TableResult(table, TableStatus.CONFIRMED, game.round_scores(outcome, 2))

    final, done = play(fmt, TournamentState(players=tuple(range(1, 9)), seed="k"), higher_wins)
    assert done.ranking[0].player == 8
    assert all("sudden" in rec.plan.notes for rec in final.rounds)


def test_matches_won_leaves_out_a_level_match_and_counts_a_walkover() -> None:
    game = find_game("xiangqi")({"series": "bo1"})
    plan = RoundPlan((Table(1, (1, 2)), Table(2, (3, 4)), Table(3, (5, 6))), ())
    draw = game.round_scores(game.parse("0.5-0.5", 2), 2)
    win = game.round_scores(game.parse("0-1", 2), 2)
    results = (
        TableResult(plan.tables[0], TableStatus.CONFIRMED, draw),
        TableResult(plan.tables[1], TableStatus.CONFIRMED, win),
        TableResult(plan.tables[2], TableStatus.FORFEIT, (), frozenset({5})),
    )
    state = TournamentState(tuple(range(1, 7)), "s", rounds=(RoundRecord(1, plan, results),))
    assert matches_won(state) == {1: 0, 2: 0, 3: 0, 4: 1, 5: 0, 6: 1}
    assert match_points(state, game) == {1: HALF, 2: HALF, 3: 0, 4: 1, 5: 0, 6: 1}


def test_a_best_of_three_under_2_1_0_counts_games_not_points() -> None:
    """2/1/0 gives a game two points to share: a best of three is still three games (a
    2–0 worth 4–0 points stands, a third game after it is refused)."""
    game = find_game("gomoku")({"series": "bo3", "points": "2/1/0"})
    assert not check_report(("best-of-3",), game, game.parse("1-0; 1-0", 2))
    assert not check_report(("best-of-3",), game, game.parse("1-0; 0-1; 0.5-0.5", 2))
    with pytest.raises(ReportError) as refused:
        check_report(("best-of-3",), game, game.parse("1-0; 1-0; 0-1", 2))
    assert refused.value.code == "series-over"
    with pytest.raises(ReportError) as refused:
        check_report(("best-of-1",), game, game.parse("0.5-0.5; 1-0", 2))
    assert refused.value.params["games"] == "2"


def test_a_level_best_of_match_in_a_table_knockout_is_played_again_not_flipped() -> None:
    """分桌淘汰 of 象棋 at best of one: a drawn match (½–½) sends neither player on nor out;
    the next round is that match again (the other winner waits), then the draw goes on."""
    game = find_game("xiangqi")({"series": "bo1"})
    fmt = find_format("knockout")(game)
    state = TournamentState(players=(1, 2, 3, 4), seed="k")
    first = fmt.plan(state)
    assert isinstance(first, RoundPlan) and "best-of-1" in first.notes
    level, decided = first.tables
    draw = game.round_scores(game.parse("0.5-0.5", 2), 2)
    a_wins = game.round_scores(game.parse("1-0", 2), 2)
    state = replace(
        state,
        rounds=(
            RoundRecord(
                1,
                first,
                (
                    TableResult(level, TableStatus.CONFIRMED, draw),
                    TableResult(decided, TableStatus.CONFIRMED, a_wins),
                ),
            ),
        ),
    )
    replay = fmt.plan(state)
    assert isinstance(replay, RoundPlan) and replay.stage == "extra"
    assert [set(t.players) for t in replay.tables] == [set(level.players)]
    assert "tiebreak-flip" not in replay.notes and "best-of-1" in replay.notes
    assert set(fmt.playoff(state)) == set(level.players)
    still = {s.player for s in fmt.standings(state) if s.alive}
    assert still == {*level.players, decided.players[0]}
    # Drawn again, then won by seat B: B meets the other winner in the final.
    for number, report in ((2, "0.5-0.5"), (3, "0-1")):
        plan = fmt.plan(state)
        assert isinstance(plan, RoundPlan) and plan.stage == "extra"
        scores = game.round_scores(game.parse(report, 2), 2)
        result = TableResult(plan.tables[0], TableStatus.CONFIRMED, scores)
        state = replace(state, rounds=(*state.rounds, RoundRecord(number, plan, (result,))))
    final = fmt.plan(state)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    assert set(final.tables[0].players) == {plan.tables[0].players[1], decided.players[0]}
