"""A behaviour fingerprint of engine/formats, for refactors that must change nothing.

It plays seeded events of every game × format × knob variant × field size (the oracle of
``tests.engine.simulation`` switched off) and records at every step every read a surface
makes: the plan, standings, current ranking, play-off, called-back losers, bracket, group
places and team table; also each format's declared course and knob checks. One digest per
game and format is printed. Run it before and after a change and compare::

    python -m tests.engine.fingerprint --quick > before.txt   # about three minutes
    python -m tests.engine.fingerprint --quick > after.txt && diff before.txt after.txt

``--seeds N`` plays N seeds per field; without ``--quick`` every field 2–24, 30, 33, 40.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine.errors import ConfigError, FormatError
from engine.formats import FORMATS, Format
from engine.games import GAMES
from engine.games.base import Game
from engine.model import Finished, RoundRecord, TournamentState
from tests.engine import simulation
from tests.engine.test_simulation import VARIANTS

QUICK = (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 16, 18, 24)
FULL = (*range(2, 25), 30, 33, 40)
SLOW_FIELDS = (3, 4, 5, 9, 17)  # Swiss-style events at tables of 3–4: seating is slow
# Knob settings played besides the defaults and the simulation's variants.
MORE: tuple[tuple[str, dict[str, str]], ...] = (
    ("groups", {"groups": "4"}),
    ("groups", {"groups": "1"}),
    ("groups", {"group_best_of": "3", "playoff_best_of": "3", "final_best_of": "5"}),
    ("knockout", {"advance": "2"}),
    ("knockout", {"leftover": "bye"}),
    ("stages", {"per": "overall"}),
    ("multistage", {"stages": "groups top1 groups top2 knockout bo3 final bo5"}),
)


def read(reads: list[str], ask: Callable[[], object]) -> None:
    """One read's answer, or the refusal it met."""
    try:
        reads.append(repr(ask()))
    except (FormatError, ConfigError) as e:
        reads.append(f"refused {type(e).__name__} {e.args!r}")


def every_read(fmt: Format, state: TournamentState, reads: list[str]) -> None:
    for ask in (
        lambda: fmt.plan(state),
        lambda: fmt.standings(state),
        lambda: fmt.current(state),
        lambda: fmt.playoff(state),
        lambda: sorted(fmt.called_back(state)),
        lambda: fmt.bracket(state),
        lambda: fmt.group_places(state),
        lambda: fmt.in_group_stage(state),
        lambda: fmt.draw_groups(state),
        lambda: fmt.team_standings(state),
        lambda: fmt.groups(state),
        lambda: fmt.unsettled(state),
    ):
        read(reads, ask)


@dataclass
class Recorded(simulation.Sim):
    """A simulated event that records every read instead of checking invariants."""

    reads: list[str] = field(default_factory=list)

    def run(self) -> Finished:
        for _ in range(simulation.ROUND_LIMIT):
            outcome = self.fmt.plan(self.state)
            if isinstance(outcome, Finished) and self.rule_on_held():
                continue
            self.reads.append(repr(outcome))
            if isinstance(outcome, Finished):
                return outcome
            self.reads.append(repr(self.fmt.drawn_cards(outcome)))
            number = len(self.state.rounds) + 1
            results = tuple(self.result(outcome, t) for t in outcome.tables)
            for given in range(len(results) + 1):
                rec = RoundRecord(number, outcome, results[:given])
                self.state = replace(self.state, rounds=(*self.state.rounds[: number - 1], rec))
                every_read(self.fmt, self.state, self.reads)
            self.withdraw()
        raise simulation.Broken("never-finishes", f"{simulation.ROUND_LIMIT} rounds")


def declared(fmt: Format) -> bytes:
    """The course at every field size and every knob's check, as /rules and /set ask."""
    out = [repr([fmt.course(n) for n in range(41)]), fmt.rules_variant]
    for knob in fmt.knobs:
        for players in (0, 3, 4, 8, 9, 10, 18):
            for drawing in (False, True):
                read(out, lambda: fmt.check_knob(knob.name, players, drawing))  # noqa: B023
    return "\n".join(out).encode()


def digest(make: Callable[[], Format], fields: tuple[int, ...], seeds: int) -> str:
    fmt = make()
    h = hashlib.sha256(declared(fmt))
    slow = fmt.key in ("swiss", "teams") and fmt.sizes != (2,)
    for players in fields:
        if slow and players not in SLOW_FIELDS:
            continue
        for s in range(seeds):
            sim = Recorded(
                make(), players, (players * 7919 + s * 104729 + len(fmt.key)) & 0xFFFFFFF
            )
            try:
                sim.run()
            except FormatError as e:
                sim.reads.append(f"refused {e.args!r}")
            h.update("\n".join(sim.reads).encode())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fourteen field sizes")
    parser.add_argument("--seeds", type=int, default=1)
    args = parser.parse_args()
    fields = QUICK if args.quick else FULL
    cases: list[tuple[str, dict[str, str]]] = (
        [(f.key, {}) for f in FORMATS] + [(k, o) for k, o, _ in VARIANTS] + list(MORE)
    )
    by_key = {f.key: f for f in FORMATS}
    for game in GAMES:
        for key, options in cases:

            def make(
                game: type[Game] = game,  # type: ignore[type-arg]
                key: str = key,
                options: dict[str, str] = options,
            ) -> Format:
                return by_key[key](game(), options)

            try:
                make()
            except ConfigError as e:
                print(game.key, key, options, "refused", e.args)
                continue
            print(game.key, key, options, digest(make, fields, args.seeds), flush=True)


if __name__ == "__main__":
    main()
