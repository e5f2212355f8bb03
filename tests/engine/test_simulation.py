"""Whole events played to the champion, for every game × preset × player count.

Each case plays seeded events of one game under one format with random legal results,
ties, forfeits, withdrawals and whole tables forfeited at the deadline (see
``tests.engine.simulation``), from the smallest field the format takes to 40 players (and
64 for swiss and knockout), and checks the invariants after every plan, after the draw
and each table's result (the mid-event ones, at every field size) and at the end.
The seating search makes Swiss-style events of 3–4 seats the slow ones, so they are
sampled at a few counts; everything else runs at every count. The count of events played
is printed at the end of the run.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.errors import ConfigError
from engine.formats import FORMATS, Format, find_format
from engine.games import GAMES, find_game
from tests.engine.simulation import Broken, Chances, play

PLAYED: list[int] = []
SAMPLED = (3, 4, 5, 9, 17, 40)  # Swiss-style events at tables of 3–4: a few fields
# ``SIM_EXHAUSTIVE=<n>``: every field of every format, ``n`` seeds each (minutes; the
# default run plays one seed per field and samples the slow Swiss-style ones, < 60 s).
EXHAUSTIVE = int(os.environ.get("SIM_EXHAUSTIVE", "0") or 0)


def cases() -> Iterator[tuple[str, str]]:
    for game in GAMES:
        for fmt in FORMATS:
            try:
                fmt(game())
            except ConfigError:
                continue
            yield game.key, fmt.key


def counts(fmt: Format) -> list[int]:
    """Fields to play: all from 2 to 40, fewer where seating is slow, 64 where asked."""
    slow = fmt.key in ("swiss", "teams") and fmt.sizes != (2,) and not EXHAUSTIVE
    out = list(SAMPLED) if slow else list(range(2, 41))
    if fmt.key in ("swiss", "knockout"):
        out.append(64)
    return out


@dataclass(frozen=True)
class Fields:
    """A variant played on a few fields only (a slow format): ``runs`` seeds each, with
    players withdrawing between rounds ``withdraw`` of the time (what re-judges a stage)."""

    counts: tuple[int, ...]
    runs: int
    withdraw: float


# Knobs that change a format's structure, each played like the defaults (issue 39), on
# every field unless ``Fields`` says which.
VARIANTS: tuple[tuple[str, dict[str, str], Fields | None], ...] = (
    ("knockout", {"best_losers": "off"}, None),
    ("bracket", {"third": "on"}, None),
    ("groups", {"third": "on"}, None),
    ("pairs", {"groups": "2"}, None),
    ("pairs", {"groups": "2", "third": "on"}, None),  # the crossover losers play for third
    # the cut over the whole stage, scores carried into the final
    ("stages", {"per": "overall", "advance": "2", "base": "0"}, None),
    # one goes on from the whole stage: the best losers fill its final (not crowned at once)
    ("stages", {"per": "overall"}, None),
    # a groups stage the smaller fields skip (its winners cannot fill a table)
    (
        "multistage",
        {"stages": "groups top1 knockout bo3 final bo1"},
        Fields((5, 7, 10, 13, 16), 20, 0.3),
    ),
)


def variant_cases() -> Iterator[tuple[str, str, dict[str, str], Fields | None]]:
    """Each variant with one game of each kind of table (its sizes, partners or not)
    whose format takes it (象棋, 五子棋 and 军棋 plan alike; a third-place match needs
    semi-finals of two: groups of 斗地主 refuse it)."""
    seen: set[tuple[str, str, tuple[int, ...], bool]] = set()
    for game_key, format_key in cases():
        game = find_game(game_key)
        for key, options, fields in VARIANTS:
            try:
                find_format(key)(game(), options)
            except ConfigError:
                continue
            kind = (key, str(options), game.seat_counts, bool(game.partners))
            if key == format_key and kind not in seen:
                seen.add(kind)
                yield game_key, format_key, options, fields


@pytest.mark.parametrize(("game_key", "format_key"), list(cases()))
def test_every_event_ends_with_one_right_champion(game_key: str, format_key: str) -> None:
    play_every_field(game_key, format_key, {})


@pytest.mark.parametrize(("game_key", "format_key", "options", "fields"), list(variant_cases()))
def test_every_structural_knob_ends_with_one_right_champion(
    game_key: str, format_key: str, options: dict[str, str], fields: Fields | None
) -> None:
    play_every_field(game_key, format_key, options, fields)


def play_every_field(
    game_key: str, format_key: str, options: dict[str, str], fields: Fields | None = None
) -> None:
    """Every field of ``format_key`` with ``options``, one seeded event each (or more);
    only ``fields``' counts, with its runs and withdrawals, where given."""
    fmt = find_format(format_key)(find_game(game_key)(), options)
    chances = Chances(withdraw=fields.withdraw) if fields else Chances()
    played = 0
    for count in fields.counts if fields else counts(fmt):
        for run in range(max(fields.runs if fields else 1, EXHAUSTIVE)):
            tail = f"/{run}" if run else ""
            knobs = "".join(f"/{k}={v}" for k, v in options.items())
            seed = zlib.crc32(f"{game_key}/{format_key}{knobs}/{count}{tail}".encode())
            try:
                done = play(fmt, count, seed, chances=chances)
            except Broken as broken:
                pytest.fail(f"{game_key} {format_key}, {count} players, seed {seed}: {broken}")
            played += done is not None
    PLAYED.append(played)
    if not played:
        pytest.skip(f"{format_key} takes no field of {game_key}")
