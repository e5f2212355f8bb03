"""Seating quality benchmark (docs/performance.md#seating-quality): prints every target with
its figure.

Repeats = Σ over pairs of max(0, meetings − 1). Each instance seats ``n`` players in
tables of ``s`` for ``R`` rounds, one round at a time with the history so far, exactly as
the ``swiss`` format with ``by=mix`` does (:func:`engine.seating.seat_round`, told the
planned number of rounds). Seat spread
is the largest gap, over players, between their most and least used seat (target ≤ 1,
marked ``seats ok`` / ``seats MISSED``).
Then players in groups (teams, departments) that must never share a table: the count of
groupmate pairs seated together (target 0). The last lines time a 1,000-player round 10
and a 200-player Swiss-by-score round.
Not a timed test: run ``python -m benchmarks.seating``.
"""

from __future__ import annotations

import random
import time
from decimal import Decimal
from math import comb

from engine.draw import stream
from engine.formats.swiss import Swiss
from engine.games import find_game
from engine.model import RoundPlan, RoundRecord, TableResult, TableStatus, TournamentState
from engine.seating import apart_clashes, repeats, seat_round, seat_spread

EXACT = [
    (16, 4, 5, 0),
    (20, 4, 5, 0),
    (24, 4, 7, 0),
    (28, 4, 9, 0),
    (32, 4, 10, 0),
    (9, 3, 4, 0),
    (15, 3, 7, 0),
    (21, 3, 10, 0),
    (12, 4, 4, 13),
]
OTHERS = [(40, 4, 12), (50, 4, 8), (60, 3, 12), (100, 4, 12), (200, 4, 12), (13, 4, 6)]
# Players in groups (teams, departments) of ``size`` who must never share a table; every
# instance leaves that possible (at least as many groups as seats at a table).
APART = [
    (12, 4, 4, 3),
    (16, 4, 5, 4),
    (24, 4, 6, 3),
    (27, 3, 6, 3),
    (30, 3, 8, 5),
    (40, 4, 8, 4),
    (60, 4, 6, 6),
]


def schedule(
    n: int, s: int, rounds: int, seed: str, groups: dict[int, int] | None = None
) -> list[list[tuple[int, ...]]]:
    players = list(range(1, n + 1))
    history: list[list[tuple[int, ...]]] = []
    g = n // s
    for r in range(rounds):
        rng = stream(seed, f"round{r + 1}")
        sitting = players if g * s == n else rng.sample(players, g * s)
        history.append(
            seat_round(
                sitting,
                [s] * g,
                history,
                rng,
                groups=groups,
                design_rng=stream(seed, "design"),
                rounds=rounds,
            )
        )
    return history


def seats(hist: list[list[tuple[int, ...]]]) -> str:
    return "seats ok" if seat_spread(hist) <= 1 else "seats MISSED"


def random_repeats(n: int, s: int, rounds: int) -> float:
    total = 0
    for seed in range(20):
        rng = random.Random(seed)
        hist = []
        for _ in range(rounds):
            order = rng.sample(range(n), (n // s) * s)
            hist.append([tuple(order[i : i + s]) for i in range(0, len(order), s)])
        total += repeats(hist)
    return total / 20


def main() -> None:
    print(f"{'instance':<18}{'target':>10}{'repeats':>9}{'seat spread':>13}{'secs':>7}")
    for n, s, rounds, target in EXACT:
        t0 = time.perf_counter()
        hist = schedule(n, s, rounds, "bench")
        dt = time.perf_counter() - t0
        ok = "ok" if repeats(hist) <= target else "MISSED"
        label = f"{n}x{rounds} (tables of {s})"
        print(
            f"{label:<18}{'≤' + str(target):>10}{repeats(hist):>9}"
            f"{seat_spread(hist):>13}{dt:>7.2f} {ok} {seats(hist)}"
        )
    for n, s, rounds in OTHERS:
        g = n // s
        bound = rounds * g * comb(s, 2) - comb(n, 2)
        target = max(1.1 * bound, random_repeats(n, s, rounds) / 5)
        t0 = time.perf_counter()
        hist = schedule(n, s, rounds, "bench")
        dt = time.perf_counter() - t0
        ok = "ok" if repeats(hist) <= target else "MISSED"
        label = f"{n}x{rounds} (tables of {s})"
        print(
            f"{label:<18}{'≤' + format(target, '.1f'):>10}{repeats(hist):>9}"
            f"{seat_spread(hist):>13}{dt:>7.2f} {ok} {seats(hist)}"
        )
    for n, s, rounds, size in APART:
        groups = {p: (p - 1) // size for p in range(1, n + 1)}
        t0 = time.perf_counter()
        hist = schedule(n, s, rounds, "bench", groups)
        dt = time.perf_counter() - t0
        shared = sum(
            groups[p] == groups[q]
            for r in hist
            for t in r
            for i, p in enumerate(t)
            for q in t[i + 1 :]
        )
        label = f"{n}x{rounds} (tables of {s}, groups of {size})"
        print(
            f"{label:<36} groupmates at one table {shared} (target 0) "
            f"{'ok' if shared == 0 else 'MISSED'}, repeats {repeats(hist)}, "
            f"seat spread {seat_spread(hist)} {seats(hist)}, {dt:.2f} s"
        )
    for n, rounds in ((1000, 10),):
        players = list(range(n))
        history: list[list[tuple[int, ...]]] = []
        for r in range(rounds):
            rng = stream("bench", f"round{r + 1}")
            t0 = time.perf_counter()
            history.append(seat_round(players, [4] * (n // 4), history, rng))
            dt = time.perf_counter() - t0
        print(
            f"1000 players, round 10: {dt:.2f} s (target < 2 s), repeats so far {repeats(history)}"
        )
    swiss_round(200, 6)
    swiss_apart(40, 6, 10)


def swiss_apart(n: int, rounds: int, pairs: int) -> None:
    """/apart: a Swiss by score of ``n`` Big Two players with ``pairs`` pairs kept apart
    (chained, so some players are in two pairs): pairs at one table (target 0) and what
    it costs in repeats; then three players pairwise apart at two tables, which no
    seating can keep apart: the plan must say so."""
    fmt = Swiss(find_game("bigtwo")(), {"rounds": str(rounds)})
    apart = tuple((p, p + 3) for p in range(1, 2 * pairs, 2))
    for kept in ((), apart):
        state = TournamentState(players=tuple(range(1, n + 1)), seed="bench", apart=kept)
        t0 = time.perf_counter()
        for number in range(1, rounds + 1):
            plan = fmt.plan(state)
            assert isinstance(plan, RoundPlan)
            rng = random.Random(number)
            results = tuple(
                TableResult(
                    t,
                    TableStatus.CONFIRMED,
                    tuple(Decimal(rng.randint(-20, 20)) for _ in t.players),
                )
                for t in plan.tables
            )
            record = RoundRecord(number, plan, results)
            state = TournamentState(state.players, state.seed, (*state.rounds, record), apart=kept)
        dt = time.perf_counter() - t0
        history = [[t.players for t in r.plan.tables] for r in state.rounds]
        together = sum(apart_clashes(r, apart) for r in history)
        label = f"{n}x{rounds} Swiss, {len(kept)} pairs apart"
        print(
            f"{label:<36} pairs at one table {together} (target 0 with the pairs) "
            f"{'ok' if not kept or together == 0 else 'MISSED'}, repeats {repeats(history)}, "
            f"{dt:.2f} s"
        )
    triangle = ((1, 2), (1, 3), (2, 3))
    plan = fmt.plan(TournamentState(tuple(range(1, 9)), "bench", apart=triangle))
    assert isinstance(plan, RoundPlan)
    said = "apart-impossible" in plan.notes
    print(f"3 pairwise apart at 2 tables: impossible, said so: {'ok' if said else 'MISSED'}")


def swiss_round(n: int, rounds: int) -> None:
    """Time the ``swiss`` format planning round ``rounds`` of ``n`` Big Two players by score."""
    fmt = Swiss(find_game("bigtwo")(), {"rounds": str(rounds)})
    state = TournamentState(players=tuple(range(1, n + 1)), seed="bench")
    dt = 0.0
    for number in range(1, rounds + 1):
        t0 = time.perf_counter()
        plan = fmt.plan(state)
        dt = time.perf_counter() - t0
        assert isinstance(plan, RoundPlan)
        rng = random.Random(number)
        results = tuple(
            TableResult(
                t, TableStatus.CONFIRMED, tuple(Decimal(rng.randint(-20, 20)) for _ in t.players)
            )
            for t in plan.tables
        )
        state = TournamentState(
            players=state.players,
            seed=state.seed,
            rounds=(*state.rounds, RoundRecord(number, plan, results)),
        )
    history = [[t.players for t in r.plan.tables] for r in state.rounds]
    print(
        f"{n}-player Swiss round {rounds} (by score): {dt:.2f} s (target < 1 s), "
        f"repeats {repeats(history)}, seat spread {seat_spread(history)}"
    )


if __name__ == "__main__":
    main()
