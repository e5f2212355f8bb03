"""Every knob ``/set`` accepts changes what is played; every knob it refuses as unread is
unread (issue 39: 「/set playoff_best_of 5」 answered 已设置 and changed nothing).

For each game × format, each of the format's knobs is set to each other value it takes,
and small seeded events (``tests.engine.simulation``: random results, ties, forfeits,
withdrawals) are played with it and with the defaults. Where ``check_knob`` accepts the
value for a field, some event of the fields tried must play differently: another draw,
another round's notes (a match's length), another ranking. Where it refuses the knob as
one no stage reads (``knob-unread-*``), no event of that field may differ. The state
carries a rating order, so seeding by rating has something to seed.
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable, Iterator
from dataclasses import replace

import pytest

from engine.errors import ConfigError, FormatError
from engine.formats import Format, find_format
from engine.formats.groups import Groups
from engine.games import find_game
from engine.games.base import Knob
from engine.model import Finished, RoundRecord
from tests.engine.simulation import ROUND_LIMIT, Chances, Sim
from tests.engine.test_simulation import cases as every_event

FIELDS = (4, 6, 8, 9, 10, 12, 17)
RUNS = 2
# Trouble more often than in the whole-event suite: the knobs of forfeits and best losers
# need a forfeit or a loser to act on within a few small events.
TROUBLE = Chances(forfeit=0.3, lapse=0.05, withdraw=0.05, tie=0.3)
# Values tried where the knob lists none: a sequence of stages, seeds by rating or a count.
OTHER = {"stages": ("groups top1 final bo3",), "seeds": ("rating", "4")}
# A refusal that says the knob is unread for this event (rather than a value that cannot work).
UNREAD = "knob-unread"


def values(knob: Knob) -> tuple[str, ...]:
    """The values other than the default an organiser could set (a number's neighbours)."""
    if knob.name in OTHER:
        return OTHER[knob.name]
    if knob.choices:
        return tuple(c for c in knob.choices if c != knob.default)
    if knob.kind is bool:
        return ("off" if knob.coerce(knob.default) else "on",)
    below = int(knob.default) - 1
    return (*((str(below),) if below >= knob.minimum else ()), str(below + 2))


def played(fmt: Format, players: int, seed: int) -> tuple[Hashable, ...]:
    """What an event shows: each round's draw, stage and notes, then the final ranking
    (or the refusal that stopped it). The results come from the seeded stream, so two
    events differ only where the format planned or ranked differently."""
    sim = Sim(fmt, players, seed, TROUBLE)
    sim.state = replace(sim.state, seeding=tuple(reversed(sim.state.players)))
    seen: list[Hashable] = []
    for _ in range(ROUND_LIMIT):
        try:
            outcome = fmt.plan(sim.state)
        except FormatError as refused:
            return (*seen, refused.code)
        if isinstance(outcome, Finished):
            ranking = tuple(
                (s.rank, s.player, s.tiebreak, s.stage, s.points, s.figure) for s in outcome.ranking
            )
            return (*seen, ranking)
        tables = tuple(t.players for t in outcome.tables)
        seen.append((outcome.stage, outcome.notes, tables, outcome.byes))
        results = tuple(sim.result(outcome, t) for t in outcome.tables)
        record = RoundRecord(len(sim.state.rounds) + 1, outcome, results)
        sim.state = replace(sim.state, rounds=(*sim.state.rounds, record))
        sim.withdraw()
    return tuple(seen)


def refusal(fmt: Format, knob: str, players: int) -> str:
    """Why ``/set`` (or the draw) refuses ``knob`` for a field of ``players``; "" if not."""
    try:
        fmt.check_knob(knob, players)
        fmt.check_knob(knob, players, drawing=True)
    except ConfigError as refused:
        return refused.code
    return ""


class Events:
    """The events of the fields tried under the defaults, each played once."""

    def __init__(self, default: Format) -> None:
        self.default = default
        self.seen: dict[tuple[int, int], tuple[Hashable, ...]] = {}

    def seed(self, players: int, run: int) -> int:
        return zlib.crc32(f"knobs/{self.default.key}/{players}/{run}".encode())

    def of(self, players: int, run: int) -> tuple[Hashable, ...]:
        if (players, run) not in self.seen:
            self.seen[players, run] = played(self.default, players, self.seed(players, run))
        return self.seen[players, run]

    def differ(self, changed: Format, players: int) -> bool:
        """Whether some event of ``players`` plays differently under ``changed``."""
        return any(
            played(changed, players, self.seed(players, run)) != self.of(players, run)
            for run in range(RUNS)
        )

    def any_played(self) -> bool:
        """Whether the format takes any field tried (pairs need tables of four)."""
        return any(len(self.of(n, 0)) > 1 for n in FIELDS)


def idle_knobs(game_key: str, format_key: str, game_options: dict[str, str]) -> list[str]:
    """The knob values of ``format_key`` under ``game_key`` (with ``game_options``) that
    ``/set`` accepts and no event tried plays differently with, or that it refuses as
    unread at a field where an event does."""
    game, kind = find_game(game_key), find_format(format_key)
    events = Events(kind(game(game_options)))
    if not events.any_played():
        return []
    out = []
    for knob in kind.knobs:
        for value in values(knob):
            try:
                changed = kind(game(game_options), {knob.name: value})
            except ConfigError:
                continue  # refused outright: never played
            why = {n: refusal(changed, knob.name, n) for n in FIELDS}
            accepted = [n for n in FIELDS if not why[n]]
            if accepted and not any(events.differ(changed, n) for n in accepted):
                out.append(f"{knob.name}={value}")
            read = [n for n in FIELDS if why[n].startswith(UNREAD) and events.differ(changed, n)]
            out += [f"{knob.name}={value} refused as unread but read at {n}" for n in read]
    return out


def cases() -> Iterator[tuple[str, dict[str, str], str]]:
    """Every game × format, and the two-player games again with their ``series`` knob at
    ``stages`` (the formats' best-of knobs then set each match's length)."""
    for game_key, format_key in every_event():
        yield game_key, {}, format_key
        if "series" in find_game(game_key).knob_names():
            yield game_key, {"series": "stages"}, format_key


@pytest.mark.parametrize(
    ("game_key", "game_options", "format_key"),
    [
        pytest.param(g, o, f, id="-".join((g, *(f"{k}={v}" for k, v in o.items()), f)))
        for g, o, f in cases()
    ],
)
def test_every_knob_set_changes_an_event_and_every_unread_one_none(
    game_key: str, game_options: dict[str, str], format_key: str
) -> None:
    assert idle_knobs(game_key, format_key, game_options) == []


def test_a_knob_made_inert_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """「/set playoff_best_of 5」 answered 已设置 while the play-offs kept their length: the
    knob put back to being read as its default."""
    real = Groups.int_option

    def fixed(self: Groups, name: str) -> int:
        return 5 if name == "playoff_best_of" else real(self, name)

    monkeypatch.setattr(Groups, "int_option", fixed)
    assert "playoff_best_of=3" in idle_knobs("xiangqi", "groups", {"series": "stages"})
