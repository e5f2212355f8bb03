"""Four-player Dou Dizhu 四人斗地主 (docs/rules/doudizhu.md#four-players): +3/−1, open ×2,
two declines."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ReportError
from engine.games import find_game
from engine.games.doudizhu4 import DouDizhu4


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def test_spec_example_open_hand_win_is_plus_six_minus_two() -> None:
    assert DouDizhu4().parse("C win open", 4).scores == pts(-2, -2, 6, -2)
    assert DouDizhu4().parse("地主C 胜 明牌", 4).text == "C win open"


def test_landlord_loss_pays_one_to_each() -> None:
    assert DouDizhu4().parse("A lose", 4).scores == pts(-3, 1, 1, 1)
    assert DouDizhu4().parse("A lose open", 4).scores == pts(-6, 2, 2, 2)


def test_two_declines_cost_the_decliners_one_each() -> None:
    assert DouDizhu4().parse("不叫 B A", 4).scores == pts(-1, -1, 1, 1)


def test_six_hands_end_the_round_and_redeals_do_not_count() -> None:
    game = DouDizhu4()
    five = game.parse("; ".join(["A win"] * 5) + "; decline B C", 4)
    assert game.match_winner([five], 4) is None
    assert game.match_winner([five, game.parse("B lose", 4)], 4) == (0,)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("win", "no-landlord"),
        ("A B win", "two-landlords"),
        ("A open", "no-result"),
        ("A win lose", "repeated-word"),
        ("decline A", "decline-needs-two"),
        ("decline A B win", "decline-with-result"),
        ("E win", "unknown-seat"),
    ],
)
def test_impossible_hands_are_refused(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        DouDizhu4().parse(text, 4)
    assert err.value.code == code


def test_chinese_name_finds_the_four_player_game() -> None:
    assert find_game("四人斗地主") is DouDizhu4
