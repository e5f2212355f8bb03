"""Shengji 升级/80分: the level table and kitty multiplier of
docs/rules/shengji.md."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ReportError
from engine.games import find_game
from engine.games.shengji import Shengji


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


@pytest.mark.parametrize(
    ("total", "change"),
    [
        (0, (False, 3)),
        (5, (False, 2)),
        (35, (False, 2)),
        (40, (False, 1)),
        (75, (False, 1)),
        (80, (True, 0)),
        (115, (True, 0)),
        (120, (True, 1)),
        (160, (True, 2)),
        (195, (True, 2)),
        (200, (True, 3)),
        (280, (True, 3)),
    ],
)
def test_seed_004_level_table(total: int, change: tuple[bool, int]) -> None:
    assert Shengji().level_change(total) == change


def test_keep_climbing_every_forty_above_two_hundred() -> None:
    assert Shengji({"climb": "every40"}).level_change(280) == (True, 5)


def test_spec_example_kitty_doubled_lifts_defenders_over_120() -> None:
    outcome = Shengji().parse("pts85 kitty20x2", 4)
    assert outcome.text == "A pts85 kitty20x2"
    assert outcome.scores == pts(0, 1, 0, 1)


def test_kitty_with_a_tractor_of_two_multiplies_by_eight() -> None:
    assert Shengji().parse("C 分80 底10x8", 4).scores == pts(0, 2, 0, 2)  # 80 + 10 × 8 = 160


def test_dealer_follows_from_the_previous_hand() -> None:
    outcome = Shengji().parse("pts85; pts40; pts0", 4)
    assert outcome.text == "A pts85; B pts40; B pts0"
    assert outcome.per_hand[2] == pts(0, 3, 0, 3)


def test_first_side_past_ten_wins_and_a_in_the_final() -> None:
    game, final = Shengji(), Shengji({"target": "A"})
    climb = "; ".join(["A pts0"] * 3)  # 2 → 5 → 8 → J
    assert game.match_winner([game.parse(climb, 4)], 4) == (0, 2)
    assert final.match_winner([final.parse(climb, 4)], 4) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A", "no-points"),
        ("A pts83", "points-not-multiple-of-5"),
        ("A pts150 kitty60x2", "too-many-points"),
        ("A pts20 kitty85x2", "kitty-too-big"),
        ("A pts20 kitty20x3", "bad-kitty-multiplier"),
        ("A C pts20", "two-dealers"),
        ("A pts20 pts30", "repeated-word"),
        ("A ptsx", "bad-token"),
    ],
)
def test_impossible_hands_are_refused(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        Shengji().parse(text, 4)
    assert err.value.code == code


@pytest.mark.parametrize("name", ["升级", "80分", "双升", "拖拉机"])
def test_chinese_names_find_shengji(name: str) -> None:
    assert find_game(name) is Shengji
