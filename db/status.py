"""Every status a stored row can be in, as string enums.

The columns stay plain strings in the schema (no migration, readable in SQL), but the
code names each value once here, so a typo is a type error instead of a silent miss.
``StrEnum`` members compare equal to their strings, so rows read back compare as before.
"""

from __future__ import annotations

from enum import StrEnum


class EventStatus(StrEnum):
    """A tournament: signing up, then running from the draw, then finished (or cancelled
    at any point before that: no longer the chat's active event)."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # called off by /cancel: kept for /export and history


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    LEFT = "left"  # withdrew before the draw: not counted at all
    REMOVED = "removed"  # disqualified (or struck): kept in the history
    WAITING = "waiting"  # beyond the cap, on the waiting list: not counted until promoted
    DROPPED = "dropped"  # dropped out between rounds: never drawn again, kept in the standings
    SUBSTITUTED = "substituted"  # replaced by a substitute (/sub): the place plays on


class RoundStatus(StrEnum):
    DRAWN = "drawn"  # tables known, not yet opened
    OPEN = "open"  # playing
    CLOSED = "closed"  # every table settled


class TableState(StrEnum):
    """A table of a round (the engine's ``TableStatus`` has the same three values)."""

    PENDING = "pending"
    CONFIRMED = "confirmed"
    FORFEIT = "forfeit"


class ReportStatus(StrEnum):
    PENDING = "pending"  # waits for a tablemate's /confirm
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    REPLACED = "replaced"  # a /fix took its place
    UNDONE = "undone"  # taken back with /undo


class PenaltyKind(StrEnum):
    POINTS = "points"  # a deduction in 0.5 steps
    CARDS = "cards"  # 0.5 for each exposed or misplayed card
    LADDER = "ladder"  # warning → −1 → disqualification (docs/rules/penalties.md#ladder)


class ExportStatus(StrEnum):
    """The ``status`` column of /export (docs/guide.en.md#end): how one player's row ended."""

    CONFIRMED = "confirmed"
    PENDING = "pending"
    PLAYING = "playing"  # a level match's games so far are confirmed; the next is to play
    DISPUTED = "disputed"
    FORFEIT = "forfeit"
    BYE = "bye"
    DQ = "dq"
    PENALTY = "penalty"  # a penalty given where the player has no row (before the draw)


class OutboxStatus(StrEnum):
    QUEUED = "queued"
    SENDING = "sending"  # claimed by a sender until its lease runs out
    SENT = "sent"
    FAILED = "failed"
    SUPERSEDED = "superseded"  # a later edit of the same message shows more
