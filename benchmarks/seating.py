"""Seating quality benchmark (issue 4): prints every target with its figure.

Repeats = Σ over pairs of max(0, meetings − 1). Each instance seats ``n`` players in
tables of ``s`` for ``R`` rounds, one round at a time with the history so far, exactly as
the ``swiss`` format with ``by=mix`` does. Not a timed test: run ``python -m benchmarks.seating``.
"""

from __future__ import annotations

import random
import time
from math import comb

from engine.draw import stream
from engine.seating import balance_seats, mix, repeats, seat_spread

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


def schedule(n: int, s: int, rounds: int, seed: str) -> list[list[tuple[int, ...]]]:
    players = list(range(1, n + 1))
    history: list[list[tuple[int, ...]]] = []
    g = n // s
    for r in range(rounds):
        rng = stream(seed, f"round{r + 1}")
        sitting = players if g * s == n else rng.sample(players, g * s)
        tables = mix(sitting, [s] * g, history, rng, design_rng=stream(seed, "design"))
        history.append(balance_seats(tables, history, rng))
    return history


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
            f"{seat_spread(hist):>13}{dt:>7.2f} {ok}"
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
            f"{seat_spread(hist):>13}{dt:>7.2f} {ok}"
        )
    for n, rounds in ((1000, 10),):
        players = list(range(n))
        history: list[list[tuple[int, ...]]] = []
        for r in range(rounds):
            rng = stream("bench", f"round{r + 1}")
            t0 = time.perf_counter()
            tables = mix(players, [4] * (n // 4), history, rng)
            history.append(balance_seats(tables, history, rng))
            dt = time.perf_counter() - t0
        print(
            f"1000 players, round 10: {dt:.2f} s (target < 2 s), repeats so far {repeats(history)}"
        )


if __name__ == "__main__":
    main()
