"""Penalties shared by every game: deductions in 0.5 steps, the warning ladder, per-card fines.

As docs/rules/penalties.md has it: prompting another player is met with a warning the first time,
−1 the second and disqualification the third; every exposed card (暴露张), card played out of
turn (越序出牌), wrong card (出错牌) or stuck card (夹牌) costs 0.5; not announcing the last
card (报单) costs 0.5; breaking the deal rules costs 3. Points are always deducted in
multiples of 0.5, as positive numbers (``Penalty.points``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from engine.errors import ReportError
from engine.numbers import tidy

STEP = Decimal("0.5")
PER_CARD = Decimal("0.5")  # docs/rules/penalties.md#per-card
MAX_DEDUCTION = Decimal(1000)
MAX_CARDS = 54 * 2  # two decks


def deduction(raw: str | Decimal | int) -> Decimal:
    """An organiser's deduction (``/penalty @x 1.5``) as a positive multiple of 0.5.

    A leading minus is accepted (``-1`` reads as "deduct 1") since organisers write both.
    """
    try:
        value = abs(Decimal(str(raw).strip().replace("−", "-")))
    except InvalidOperation:
        raise ReportError("penalty-not-a-number", value=str(raw)) from None
    if not value.is_finite() or value == 0 or value > MAX_DEDUCTION:
        raise ReportError("penalty-out-of-range", value=str(raw), limit=MAX_DEDUCTION)
    if value % STEP:
        raise ReportError("penalty-step", value=str(raw), step=STEP)
    return tidy(value)


def per_card(cards: int, rate: Decimal = PER_CARD) -> Decimal:
    """0.5 for each exposed, out-of-turn, wrong or stuck card (docs/rules/penalties.md#per-card)."""
    if cards < 1 or cards > MAX_CARDS:
        raise ReportError("penalty-cards", cards=cards)
    return rate * cards


class Rung(StrEnum):
    """One step of the warning ladder (docs/rules/penalties.md#ladder: 第一次警告，第二次罚1分，
    三次取消比赛资格)."""

    WARNING = "warning"
    DEDUCT = "deduct"
    DISQUALIFY = "dq"


@dataclass(frozen=True)
class LadderStep:
    """What the ``offence``-th offence (1-based) costs: a rung and the points deducted."""

    offence: int
    rung: Rung
    points: Decimal


def ladder(offence: int) -> LadderStep:
    """The penalty for a player's ``offence``-th repeat of the same misconduct."""
    if offence < 1:
        raise ReportError("penalty-offence", offence=offence)
    if offence == 1:
        return LadderStep(offence, Rung.WARNING, Decimal(0))
    if offence == 2:
        return LadderStep(offence, Rung.DEDUCT, Decimal(1))
    return LadderStep(offence, Rung.DISQUALIFY, Decimal(0))
