"""Dou Dizhu 斗地主 (3 seats): docs/rules/doudizhu.md's scoring, doubling and variants."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ReportError
from engine.games import find_game
from engine.games.doudizhu import DouDizhu


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def test_spec_example_bid3_one_bomb_spring_multiplies_by_four() -> None:
    outcome = DouDizhu().parse("B bid3 bombs1 win spring", 3)
    assert outcome.scores == pts(-12, 24, -12)
    assert outcome.text == "B bid3 bombs1 win spring"


def test_chinese_keywords_give_the_same_report() -> None:
    assert DouDizhu().parse("地主B 叫3 炸1 胜 春天", 3) == DouDizhu().parse(
        "B bid3 bombs1 win spring", 3
    )


def test_landlord_loss_without_bombs_pays_two_bids() -> None:
    assert DouDizhu().parse("A bid2 lose", 3).scores == pts(-4, 2, 2)


def test_issue_doubling_and_redoubling_example() -> None:
    """Bid 3, a bomb, a rocket, anti-spring, farmer 1 doubled, landlord redoubled."""
    game = DouDizhu({"doubling": "on"})
    outcome = game.parse("C bid3 bombs1 rocket lose antispring doubleA redouble", 3)
    assert outcome.scores == pts(96, 24, -120)
    assert game.parse("地主C 叫3 炸1 王炸 负 反春 加倍A 反加倍", 3).scores == pts(96, 24, -120)


def test_cap_limits_each_farmers_multiplier() -> None:
    assert DouDizhu({"cap": "8"}).parse("A bid1 bombs5 win", 3).scores == pts(16, -8, -8)


def test_points_only_variant_landlord_two_farmers_one() -> None:
    game = DouDizhu({"scoring": "points"})
    assert game.parse("A win", 3).scores == pts(2, 0, 0)
    assert game.parse("A lose", 3).scores == pts(0, 1, 1)
    assert game.parse("A bombs1 win", 3).scores == pts(4, 0, 0)
    assert not game.is_zero_sum()


def test_chips_variant_base_two_and_bust_ends_the_table() -> None:
    game = DouDizhu({"scoring": "chips", "chips": "20"})
    first = game.parse("A bombs1 win", 3)
    assert first.scores == pts(8, -4, -4)
    assert game.match_winner([first], 3) is None
    bust = game.parse("A bombs3 win", 3)  # B and C lose 4 then 16 more: their 20 chips are gone
    assert game.match_winner([first, bust], 3) == (0,)


def test_first_to_target_wins_when_end_is_target() -> None:
    game = DouDizhu({"end": "target", "target": "100"})
    hands = game.parse("; ".join(["A bid3 bombs3 win"] * 2), 3)  # +48 each
    assert game.match_winner([hands], 3) is None
    assert game.match_winner([hands, game.parse("A bid1 bombs2 win", 3)], 3) == (0,)


def test_hands_limit_names_the_leader() -> None:
    game = DouDizhu({"end": "hands", "hands": "2"})
    outcome = game.parse("A bid1 win; B bid3 lose", 3)
    assert game.match_winner([outcome], 3) == (0,)


@pytest.mark.parametrize(
    ("options", "text", "refusal"),
    [
        # ``end hands``: no hand after the last (a shorter session: the deadline came first)
        ({"end": "hands", "hands": "3"}, "; ".join(["A bid1 win"] * 3), None),
        ({"end": "hands", "hands": "3"}, "; ".join(["A bid1 win"] * 2), None),
        ({"end": "hands", "hands": "3"}, "; ".join(["A bid1 win"] * 4), ("session-over", 3)),
        ({"end": "hands", "hands": "3"}, "total A+6 B-3 C-3", None),
        # ``end target``: the session is over at the hand that reaches it; fewer is the clock
        ({"end": "target", "target": "90"}, "; ".join(["A bid3 bombs3 win"] * 2), None),
        (
            {"end": "target", "target": "90"},
            "; ".join(["A bid3 bombs3 win"] * 3),
            ("session-over", 2),
        ),
        # chips: a bust ends the table whatever ``end`` says
        (
            {"scoring": "chips", "end": "hands"},
            "A bombs1 win; A bombs3 win; A win",
            ("session-over", 2),
        ),
        ({"end": "time"}, "; ".join(["A bid3 bombs3 win"] * 12), None),
    ],
)
def test_a_report_must_end_where_the_game_ends_the_session(
    options: dict[str, str], text: str, refusal: tuple[str, int] | None
) -> None:
    game = DouDizhu(options)
    outcome = game.parse(text, 3)
    if refusal is None:
        game.check_session(outcome, 3)
        return
    with pytest.raises(ReportError) as refused:
        game.check_session(outcome, 3)
    assert (refused.value.args[0], refused.value.args[1]["hands"]) == refusal


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bid3 win", "no-landlord"),
        ("A bid3", "no-result"),
        ("A win", "no-bid"),
        ("A bid4 win", "bad-bid"),
        ("A B bid3 win", "two-landlords"),
        ("A bid3 lose spring", "spring-needs-win"),
        ("A bid3 win antispring", "antispring-needs-loss"),
        ("A bid3 bombs15 win", "too-many-bombs"),
        ("A bid3 rockets2 win", "too-many-rockets"),
        ("A bid3 win doubleB", "doubling-off"),
        ("A bid3 win win", "repeated-word"),
        ("A bid3 win hooray", "bad-token"),
        ("D bid3 win", "unknown-seat"),
    ],
)
def test_impossible_hands_are_refused(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        DouDizhu().parse(text, 3)
    assert err.value.code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A bid3 win doubleA", "landlord-cannot-double"),
        ("A bid3 win redouble", "redouble-needs-double"),
    ],
)
def test_doubling_rules_are_checked(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        DouDizhu({"doubling": "on"}).parse(text, 3)
    assert err.value.code == code


def test_chinese_name_finds_doudizhu() -> None:
    assert find_game("斗地主") is DouDizhu
