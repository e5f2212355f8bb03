"""Big Two 锄大地: the worked examples of docs/rules/bigtwo.md and the report's refusals."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.errors import ConfigError, ReportError
from engine.games import find_game
from engine.games.bigtwo import BigTwo


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def test_seed_001_example_scores_37_minus7_57_minus87() -> None:
    outcome = BigTwo().parse("A5 B8 C0 D12", 4)
    assert outcome.scores == pts(37, -7, 57, -87)
    assert outcome.text == "A5 B8 C0 D12"


def test_spade_two_at_b_doubles_its_eight_cards() -> None:
    assert BigTwo().parse("A5 B8s C0 D12", 4).scores == pts(53, -55, 73, -71)


def test_card_point_bands_follow_seed_001() -> None:
    game = BigTwo()
    assert [game.card_points(n, False) for n in (1, 7, 8, 9, 10, 12, 13)] == [
        1, 7, 16, 18, 30, 36, 52,
    ]  # fmt: skip


def test_spade_two_with_fewer_than_eight_cards_does_not_double() -> None:
    assert BigTwo().parse("A7s B1 C0 D2", 4).scores == BigTwo().parse("A7 B1 C0 D2", 4).scores


def test_spade_two_knob_off_ignores_the_mark() -> None:
    game = BigTwo({"spade2": "off"})
    assert game.parse("A5 B8s C0 D12", 4).scores == pts(37, -7, 57, -87)


def test_any2_rule_doubles_every_marked_seat() -> None:
    game = BigTwo({"spade2": "any2"})
    # card points 5, 32, 0, 72 (total 109): each seat scores 109 − 4 × its own
    assert game.parse("A5 B8s C0 D12s", 4).scores == pts(89, -19, 109, -179)


def test_winner_collects_settlement() -> None:
    game = BigTwo({"settle": "winner"})
    assert game.parse("A5 B8 C0 D12", 4).scores == pts(-5, -16, 57, -36)


def test_several_hands_add_up_and_keep_their_order() -> None:
    outcome = BigTwo().parse("A5 B8 C0 D12; A0 B1 C1 D1\nA1 B0 C2 D3", 4)
    assert outcome.hands == 3
    assert outcome.per_hand[1] == pts(3, -1, -1, -1)
    assert outcome.scores == tuple(sum(h[i] for h in outcome.per_hand) for i in range(4))


def test_winds_are_seat_aliases() -> None:
    assert BigTwo().parse("东5 南8 西0 北12", 4).text == "A5 B8 C0 D12"


def test_total_form_must_be_zero_sum() -> None:
    assert BigTwo().parse("total A+37 B-7 C+57 D-87", 4).scores == pts(37, -7, 57, -87)
    with pytest.raises(ReportError) as err:
        BigTwo().parse("total A+37 B-7 C+57 D-86", 4)
    assert err.value.code == "not-zero-sum"


def test_three_seat_table_scores_pairwise() -> None:
    assert BigTwo().parse("A0 B2 C4", 3).scores == pts(6, 0, -6)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A5 B8 C0 D0", "two-winners"),
        ("A5 B8 C1 D12", "no-winner"),
        ("A5 B8 C0", "seat-missing"),
        ("A5 B8 C0 D14", "too-many-cards"),
        ("A5 A8 C0 D12", "seat-twice"),
        ("A5s B8s C0 D12", "spade-two-twice"),
        ("A5 B8 C0s D12", "winner-holds-spade-two"),
        ("A5 B8 C0 E12", "unknown-seat"),
        ("A5 B8 C0 Dx", "bad-token"),
        ("", "empty-report"),
    ],
)
def test_impossible_reports_are_refused_with_the_rule(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        BigTwo().parse(text, 4)
    assert err.value.code == code


def test_five_seat_table_is_refused() -> None:
    with pytest.raises(ReportError) as err:
        BigTwo().parse("A0 B1 C1 D1", 5)
    assert err.value.code == "bad-table-size"


def test_bad_knob_values_are_config_errors() -> None:
    with pytest.raises(ConfigError) as err:
        BigTwo({"spade2": "maybe"})
    assert err.value.code == "knob-choice"
    with pytest.raises(ConfigError) as err:
        BigTwo({"jokers": "on"})
    assert err.value.code == "unknown-knob"


def test_chinese_name_finds_big_two() -> None:
    assert find_game("锄大地") is BigTwo
