"""Ranking by a tie-break chain, and the sums every format needs.

Each format describes a player by a chain of criteria, most important first, each a
``(code, value)`` pair where a larger value ranks higher (``points``, ``head-to-head``,
``previous-stage``, ``best-individual``, ``buchholz``, ``wins``, ``flip``…). Ranking sorts
by the chain; the code of the first criterion where a player differs from the next one
down is stored in ``Standing.tiebreak``, so ``/standings`` can say *why* a place was won.
A chain ends with a verifiable card flip (翻牌, docs/rules/tiebreaks.md) where the rules
want places strict at the end; formats that want an extra game instead ask for it before
finishing. Lines the whole chain leaves level (no flip for them: the losers of one
knockout round) share one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.draw import flip_order
from engine.model import (
    PlayerId,
    RoundRecord,
    Standing,
    TableResult,
    TableStatus,
    TournamentState,
)

Key = tuple[str, Decimal]

# Criteria that say how far a line got rather than how well it did there: the figure a
# ranking line shows is the first criterion after these (``Standing.figure``).
# A line's stage while a groups stage is still played (multistage): in, neither through
# nor out, nor placed in its group before the group's last round
# (docs/rules/multistage.md#ranking).
IN_GROUP = "in-group"
STAGE_CODES = frozenset({"removed", "reached", "forfeit", "group-place", "flip"})
# A line's figure when no result has made one yet (a final not played): it shows none.
NO_FIGURE: Key = ("", Decimal(0))


@dataclass(frozen=True)
class Line:
    """A player's unranked line: displayed points, alive flag and the criteria chain."""

    player: PlayerId
    points: Decimal
    alive: bool
    keys: tuple[Key, ...]
    stage: str = ""
    stage_round: int = 0
    unit: int = 0
    figure: Key | None = None  # the shown figure, when not the first non-stage criterion


def shown(line: Line) -> Key | None:
    """The figure a line shows: the format's choice, else its first non-stage criterion."""
    if line.figure is not None:
        return None if line.figure == NO_FIGURE else line.figure
    return next(((c, v) for c, v in line.keys if c not in STAGE_CODES), None)


def rank(lines: Iterable[Line]) -> tuple[Standing, ...]:
    """Sort by the chains (larger first) and name the criterion that split each pair.

    Lines of one unit (``unit`` > 0, a pair) must share every criterion so they stand
    together; they share the unit's place, counted over units, and what separated the
    unit from the next one (every member says it)."""
    ordered = sorted(lines, key=lambda ln: tuple(-v for _, v in ln.keys))
    out: list[Standing] = []
    unit_rank: dict[int, int] = {}
    for i, line in enumerate(ordered):
        decided: tuple[str, ...] = ()
        lot = False
        j = i + 1
        while line.unit and j < len(ordered) and ordered[j].unit == line.unit:
            j += 1  # a partner: the next line below the unit is another unit's
        if j < len(ordered):
            below = ordered[j]
            for k, ((code, value), (_, other)) in enumerate(
                zip(line.keys, below.keys, strict=False)
            ):
                if value != other:
                    decided, lot = (code,), k == len(line.keys) - 1 and code == "flip"
                    break
        place = i + 1
        if line.unit:  # partners and teammates share their unit's place
            place = unit_rank.setdefault(line.unit, len(unit_rank) + 1)
        if i and (not line.unit or ordered[i - 1].unit != line.unit) and not out[-1].tiebreak:
            place = out[-1].rank  # nothing separated it from the line above: one place
            if line.unit:
                unit_rank[line.unit] = place
        figure = shown(line) if line.stage != "removed" else None  # no figure ranks them
        out.append(
            Standing(
                place,
                line.player,
                line.points,
                line.alive,
                decided,
                line.stage,
                line.stage_round,
                figure[1] if figure else None,
                figure[0] if figure else "",
                line.unit,
                lot,
            )
        )
    return tuple(out)


def flips(state: TournamentState, label: str = "standings-flip") -> dict[PlayerId, Decimal]:
    """The last link of every chain: one verifiable flip over all signed-up players."""
    return {p: Decimal(v) for p, v in flip_order(state.players, state.seed, label).items()}


def penalties_by_round(state: TournamentState) -> dict[tuple[int, PlayerId], Decimal]:
    """Penalty points per (round, player), to deduct from that round's table score."""
    out: dict[tuple[int, PlayerId], Decimal] = defaultdict(Decimal)
    for pen in state.penalties:
        out[pen.round_number, pen.player] += pen.points
    return out


def net_scores(
    record: RoundRecord, result: TableResult, pens: Mapping[tuple[int, PlayerId], Decimal]
) -> dict[PlayerId, Decimal]:
    """A confirmed table's scores per player, that round's penalties deducted."""
    if result.status is not TableStatus.CONFIRMED or not result.scores:
        return {}
    return {
        p: s - pens.get((record.number, p), Decimal(0))
        for p, s in zip(result.table.players, result.scores, strict=True)
    }


def totals(
    state: TournamentState, rounds: Sequence[RoundRecord] | None = None
) -> dict[PlayerId, Decimal]:
    """Sum of confirmed scores minus all penalties (over ``rounds``, default all)."""
    pens = penalties_by_round(state)
    chosen = state.rounds if rounds is None else rounds
    numbers = {r.number for r in chosen}
    out: dict[PlayerId, Decimal] = {p: Decimal(0) for p in state.players}
    for rec in chosen:
        for res in rec.results:
            for p, s in net_scores(rec, res, {}).items():
                out[p] = out.get(p, Decimal(0)) + s
    for (rnd, p), pts in pens.items():
        if rnd in numbers or rounds is None:
            out[p] = out.get(p, Decimal(0)) - pts
    return out


def opponents(rounds: Iterable[RoundRecord]) -> dict[PlayerId, list[PlayerId]]:
    """Everyone each player has shared a table with, once per meeting (for Buchholz)."""
    out: dict[PlayerId, list[PlayerId]] = defaultdict(list)
    for rec in rounds:
        for table in rec.plan.tables:
            for p in table.players:
                out[p].extend(q for q in table.players if q != p)
    return out


def table_wins(state: TournamentState) -> dict[PlayerId, Decimal]:
    """Tables topped (a shared top counts for each): the ``wins`` criterion
    (docs/rules/tiebreaks.md)."""
    pens = penalties_by_round(state)
    out: dict[PlayerId, Decimal] = defaultdict(Decimal)
    for rec in state.rounds:
        for res in rec.results:
            net = net_scores(rec, res, pens)
            if net:
                best = max(net.values())
                for p, s in net.items():
                    if s == best:
                        out[p] += 1
            elif res.status is TableStatus.FORFEIT:
                for p in res.table.players:
                    if p not in res.forfeited and res.forfeited:
                        out[p] += 1
    return out
