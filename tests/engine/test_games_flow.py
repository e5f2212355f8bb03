"""The guided /report button flow writes the same report as the text form."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.games import GAMES, find_game
from engine.games.base import Game

EXAMPLES: list[tuple[str, dict[str, str], int, Mapping[str, Sequence[str]], str]] = [
    ("bigtwo", {}, 4, {"cards": ["5", "8s", "0", "12"]}, "A5 B8s C0 D12"),
    (
        "doudizhu",
        {},
        3,
        {"landlord": ["B"], "bid": ["3"], "bombs": ["1"], "result": ["win"], "spring": ["spring"]},
        "B bid3 bombs1 win spring",
    ),
    (
        "doudizhu",
        {"doubling": "on"},
        3,
        {
            "landlord": ["C"],
            "bid": ["3"],
            "bombs": ["2"],
            "result": ["lose"],
            "spring": ["antispring"],
            "double": ["A"],
            "redouble": ["redouble"],
        },
        "C bid3 bombs1 rocket lose antispring doubleA redouble",
    ),
    (
        "doudizhu",
        {"scoring": "points"},
        3,
        {"landlord": ["A"], "bombs": ["0"], "result": ["win"]},
        "A win",
    ),
    ("doudizhu4", {}, 4, {"landlord": ["C"], "result": ["win"], "open": ["open"]}, "C win open"),
    ("guandan", {}, 4, {"order": ["A", "B", "C"]}, "A B C"),
    (
        "shengji",
        {},
        4,
        {"dealer": ["A"], "points": ["85"], "kitty": ["20"], "multiplier": ["2"]},
        "pts85 kitty20x2",
    ),
    ("shengji", {}, 4, {"dealer": ["C"], "points": ["40"]}, "庄C 分40"),
    ("xiangqi", {}, 2, {"result": ["0.5-0.5"]}, "和"),
]


@pytest.mark.parametrize(("key", "options", "seats", "answers", "typed"), EXAMPLES)
def test_buttons_and_text_give_the_same_outcome(
    key: str, options: dict[str, str], seats: int, answers: Mapping[str, Sequence[str]], typed: str
) -> None:
    game = find_game(key)(options)
    assert game.parse(game.compose(answers, seats), seats) == game.parse(typed, seats)


def test_flow_steps_follow_the_knobs() -> None:
    names = [s.name for s in find_game("doudizhu")({"scoring": "chips"}).flow(3)]
    assert "bid" not in names and "double" not in names
    assert "double" in [s.name for s in find_game("doudizhu")({"doubling": "on"}).flow(3)]


@st.composite
def taps(draw: st.DrawFn, game: Game, seats: int) -> dict[str, list[str]]:  # type: ignore[type-arg]
    answers: dict[str, list[str]] = {}
    for step in game.flow(seats):
        if step.per_seat:
            answers[step.name] = [draw(st.sampled_from(step.choices)) for _ in range(seats)]
        elif step.multi:
            answers[step.name] = draw(st.lists(st.sampled_from(step.choices), max_size=3))
        else:
            answers[step.name] = [draw(st.sampled_from(step.choices))]
    return answers


@pytest.mark.parametrize("game_type", GAMES, ids=[g.key for g in GAMES])
def test_any_taps_give_a_report_or_a_report_error(game_type: type) -> None:
    game = game_type({"doubling": "on"} if game_type.key == "doudizhu" else None)
    seats = game_type.seat_counts[0]
    assert game.flow(seats), "every game has a button flow"

    @settings(max_examples=60, deadline=None)
    @given(taps(game, seats))
    def check(answers: dict[str, list[str]]) -> None:
        with contextlib.suppress(ReportError):
            outcome = game.parse(game.compose(answers, seats), seats)
            assert game.parse(outcome.text, seats) == outcome

    check()
