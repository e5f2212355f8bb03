"""Plain facts the engine reasons about; the bot stores them, the engine derives the rest.

A tournament is a list of rounds; a round is a set of tables with seats in order
(A, B, C, D); each table ends with per-seat scores or a forfeit. Formats read this history
to plan the next round or to declare the final ranking, and standings are recomputed from
it every time, so a correction (``/fix``) or a penalty changes everything downstream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

PlayerId = int
SEAT_LETTERS = "ABCD"


class TableStatus(StrEnum):
    """How a table's round ended, as far as scoring goes."""

    PENDING = "pending"  # no confirmed result yet
    CONFIRMED = "confirmed"  # scores count
    FORFEIT = "forfeit"  # the players in ``forfeited`` lose; the others may advance


@dataclass(frozen=True)
class Table:
    """One table of a round: ``players[i]`` sits in seat ``SEAT_LETTERS[i]``."""

    number: int
    players: tuple[PlayerId, ...]


@dataclass(frozen=True)
class RoundPlan:
    """What a format decided for a round: tables, and players who sit out with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()
    stage: str = ""  # e.g. "final", "extra", "group", free for the format to name
    seed_label: str = ""  # which derived random stream drew it (for /verify)
    notes: tuple[str, ...] = ()  # codes of decisions worth telling (e.g. "tiebreak-flip")


@dataclass(frozen=True)
class TableResult:
    """The outcome of one table: scores per seat (same order as ``Table.players``)."""

    table: Table
    status: TableStatus
    scores: tuple[Decimal, ...] = ()
    forfeited: frozenset[PlayerId] = frozenset()


@dataclass(frozen=True)
class RoundRecord:
    """A played (or being played) round: its plan and the results so far."""

    number: int
    plan: RoundPlan
    results: tuple[TableResult, ...]


@dataclass(frozen=True)
class Penalty:
    """A deduction of ``points`` (positive) from ``player`` in ``round_number``."""

    player: PlayerId
    points: Decimal
    round_number: int


@dataclass(frozen=True)
class TournamentState:
    """Everything a format or the standings need; built by the bot from its tables.

    ``seed`` is the revealed draw seed (hex string); every random choice derives from it
    with a label (see ``engine.draw``), so anyone holding it can replay the draw.
    """

    players: tuple[PlayerId, ...]  # in sign-up order
    seed: str
    rounds: tuple[RoundRecord, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    removed: frozenset[PlayerId] = frozenset()  # withdrew or disqualified
    teams: Mapping[PlayerId, int] = field(default_factory=dict)  # player -> team number
    # Rated players strongest first, when the organiser seeds by rating (engine.formats.seeding)
    seeding: tuple[PlayerId, ...] = ()
    # Dropped out after round N (docs/rules/people.md): also in ``removed``, so no format
    # draws them again; a format that ranks on points keeps them where their points are.
    dropped: Mapping[PlayerId, int] = field(default_factory=dict)
    # Late entrants and the round they entered (their missed rounds count 0, as a bye).
    entered: Mapping[PlayerId, int] = field(default_factory=dict)
    # Pairs the organiser keeps apart: never at one table when a seating allows it.
    apart: tuple[tuple[PlayerId, PlayerId], ...] = ()


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank, points, and why it ranks there.

    The members of one team or pair share their unit's rank (``unit`` > 0 names it);
    units share a rank only where their whole chain is level (no flip for them).
    ``stage``/``stage_round`` say how far the line got where a format eliminates
    (``final``, ``out`` in round N, ``playing`` round N, ``group``…); ``figure`` is the
    number that ordered it within that stage (its code in ``figure_code``), so a text or a
    picture can show a figure that agrees with the place.
    """

    rank: int
    player: PlayerId
    points: Decimal
    alive: bool  # still in the event (not eliminated / removed)
    tiebreak: tuple[str, ...] = ()  # codes of the criteria that separated it from the next
    stage: str = ""
    stage_round: int = 0
    figure: Decimal | None = None
    figure_code: str = ""
    unit: int = 0
    # The closing card flip of the chain (not play) separated it from the next line: a
    # lot drawn for the final ranking, so before the end the two places are shared.
    lot: bool = False


@dataclass(frozen=True)
class Finished:
    """The format has nothing more to play: the final ranking."""

    ranking: tuple[Standing, ...]
