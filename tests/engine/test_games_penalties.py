"""Penalties: 0.5-step deductions, the ladder and per-card fines of docs/rules/penalties.md."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.games.penalties import Rung, deduction, ladder, per_card


@pytest.mark.parametrize(
    ("raw", "points"), [("0.5", "0.5"), ("1", "1"), ("-1.5", "1.5"), ("−2", "2"), (3, "3")]
)
def test_deductions_are_positive_half_steps(raw: str | int, points: str) -> None:
    assert deduction(raw) == Decimal(points)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("0.3", "penalty-step"),
        ("0", "penalty-out-of-range"),
        ("1e9", "penalty-out-of-range"),
        ("nan", "penalty-out-of-range"),
        ("one", "penalty-not-a-number"),
    ],
)
def test_impossible_deductions_are_refused(raw: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        deduction(raw)
    assert err.value.code == code


def test_seed_001_ladder_warning_then_minus_one_then_disqualification() -> None:
    assert [ladder(n).rung for n in (1, 2, 3, 4)] == [
        Rung.WARNING, Rung.DEDUCT, Rung.DISQUALIFY, Rung.DISQUALIFY,
    ]  # fmt: skip
    assert ladder(2).points == 1
    with pytest.raises(ReportError):
        ladder(0)


def test_exposed_cards_cost_half_a_point_each() -> None:
    assert per_card(3) == Decimal("1.5")
    with pytest.raises(ReportError):
        per_card(0)


@given(st.text(max_size=12))
def test_any_text_is_a_deduction_or_a_report_error(raw: str) -> None:
    try:
        value = deduction(raw)
    except ReportError:
        return
    assert value > 0 and value % Decimal("0.5") == 0
