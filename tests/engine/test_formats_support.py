"""Shared helpers for the format tests: drive a format round by round without the bot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from engine.formats.base import Format
from engine.model import (
    Finished,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)

Scorer = Callable[[int, RoundPlan, Table], TableResult]


def by_id(_round: int, _plan: RoundPlan, table: Table) -> TableResult:
    """Higher player id scores more; zero-sum-ish, no ties."""
    scores = tuple(Decimal(p) for p in table.players)
    return TableResult(table, TableStatus.CONFIRMED, scores)


def record(state: TournamentState, plan: RoundPlan, scorer: Scorer) -> TournamentState:
    """Append one closed round played with ``scorer``."""
    number = len(state.rounds) + 1
    results = tuple(scorer(number, plan, t) for t in plan.tables)
    return replace(state, rounds=(*state.rounds, RoundRecord(number, plan, results)))


def play(
    fmt: Format, state: TournamentState, scorer: Scorer = by_id, limit: int = 40
) -> tuple[TournamentState, Finished]:
    """Plan and play until the format finishes; return the final state and ranking."""
    for _ in range(limit):
        plan = fmt.plan(state)
        if isinstance(plan, Finished):
            return state, plan
        state = record(state, plan, scorer)
    raise AssertionError("format did not finish")


def seated_once(plan: RoundPlan) -> list[int]:
    """Every player placed by a plan (tables then byes), for exactly-once checks."""
    return [p for t in plan.tables for p in t.players] + list(plan.byes)
