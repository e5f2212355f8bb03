"""Every preset declares its stages (``Format.course``, engine/formats/stage.py) as the
code applies them: /rules renders these lines, so a declaration that drifted from the
planner's notes or the format's own tie chain would promise organisers something else."""

from __future__ import annotations

import pytest

from engine.errors import FormatError
from engine.formats import Groups, find_format
from engine.formats.stage import ACROSS, Goes, Kind, match_length
from engine.games import find_game
from engine.model import RoundPlan, TournamentState
from tests.engine.test_simulation import cases

FIELDS = (0, 5, 12, 40)  # 0: nobody signed up yet


@pytest.mark.parametrize(("game_key", "format_key"), list(cases()))
def test_course_is_what_the_format_applies(game_key: str, format_key: str) -> None:
    fmt = find_format(format_key)(find_game(game_key)())
    allowed = set(fmt.tiebreaks) | set(fmt.team_tiebreaks)
    for players in FIELDS:
        course = fmt.course(players)
        assert course, f"{format_key} declares no stage for {players} players"
        last, played = course[-1]
        assert played
        assert last.goes is (Goes.CHAMPION if fmt.eliminates else Goes.STANDINGS)
        for stage, _ in course:
            assert stage.tiebreaks, f"{stage.name} names no tie-break"
            # a group table is ranked by ``Groups``' chain wherever groups are played
            chain = set(Groups.tiebreaks) if stage.kind is Kind.GROUPS else allowed
            assert set(stage.tiebreaks) <= chain - set(ACROSS), (stage.name, stage.tiebreaks)
            assert stage.length.best_of >= 1


@pytest.mark.parametrize(("game_key", "format_key"), list(cases()))
def test_first_stage_plays_the_length_it_declares(game_key: str, format_key: str) -> None:
    """The first round's plan carries the match length (its series notes, or ``hands``)
    that the first stage the field plays declares."""
    fmt = find_format(format_key)(find_game(game_key)())
    players = 12
    try:
        plan = fmt.plan(TournamentState(players=tuple(range(1, players + 1)), seed="course"))
    except FormatError:
        pytest.skip(f"{format_key} takes no field of {game_key}")
    assert isinstance(plan, RoundPlan)
    first = next(stage for stage, played in fmt.course(players) if played)
    hands = fmt.options.get("hands")
    assert hands is None or isinstance(hands, int)
    assert first.length == match_length(plan.notes, hands), (first, plan.notes)


@pytest.mark.parametrize("game_key", ["xiangqi", "doudizhu"])
def test_the_knobs_set_the_declared_stages(game_key: str) -> None:
    """A knob the planner reads changes the stage /rules prints for it."""
    game = find_game(game_key)({"series": "stages"} if game_key == "xiangqi" else {})
    groups = find_format("groups")(game, {"final_best_of": "3"}).course(12)
    if game.seat_counts == (2,):  # the stages' own lengths: the final as long as the knob
        assert groups[-1][0].length.best_of == 3
    swiss = find_format("swiss")(game, {"rounds": "7"}).course(12)
    assert swiss[0][0].k == 7
    knockout = find_format("knockout")(game, {}).course(game.seat_counts[0])
    assert not knockout[0][1]  # a field that fits one table plays the final only
    one_loss = find_format("knockout")(game, {"best_losers": "off"}).course(12)
    assert not one_loss[0][0].best_losers


def test_third_place_and_pairs_in_groups_are_declared() -> None:
    """``third`` adds the semi-final losers' match before the final; pairs with ``groups``
    play the groups' stages, a table of two pairs its session."""
    chess = find_game("xiangqi")()
    kinds = [s.kind for s, _ in find_format("bracket")(chess, {"third": "on"}).course(8)]
    assert kinds == [Kind.BRACKET, Kind.THIRD, Kind.FINAL]
    kinds = [s.kind for s, _ in find_format("bracket")(chess, {"third": "on"}).course(5)]
    assert kinds == [Kind.BRACKET, Kind.ROBIN]  # five halve to the last three: no semis
    pairs = find_format("pairs")(find_game("shengji")(), {"groups": "2"})
    course = pairs.course(16)
    assert [s.kind for s, _ in course] == [Kind.GROUPS, Kind.CROSSOVER, Kind.FINAL]
    plan = pairs.plan(TournamentState(players=tuple(range(1, 17)), seed="course"))
    assert isinstance(plan, RoundPlan)
    assert course[0][0].length == match_length(plan.notes)


@pytest.mark.parametrize(
    ("game_key", "format_key", "settles", "never"),
    [
        ("doudizhu", "knockout", "flip", "extra"),  # a level table's place: flipped for
        # a level match: played again; the closing flip only ranks those out in one round,
        # and the flip of a tie for first no table seats is the final's alone
        ("xiangqi", "knockout", "extra", "final-flip"),
        ("guandan", "pairs", "flip", "extra"),  # a level table of two pairs: flipped for
    ],
)
def test_a_knockout_round_declares_how_it_really_settles_a_level_table(
    game_key: str, format_key: str, settles: str, never: str
) -> None:
    """/rules promised an extra game in the rounds before the final, where a level table
    goes to the flip: the extra game is the final's alone (docs/rules/knockout.md#flip)."""
    stage, _ = find_format(format_key)(find_game(game_key)()).course(40)[0]
    assert settles in stage.tiebreaks and never not in stage.tiebreaks, stage.tiebreaks
