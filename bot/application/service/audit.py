"""Typed audit entries for the rulings /undo can take back, and the ones it reads.

Each entry is a dataclass that writes itself as the audit row's ``old``/``new`` JSON and
reads itself back from a row, so the shape of an entry is written once, here, and /undo
works on fields instead of string keys. The JSON shapes are those earlier versions
stored, so entries written before this module still undo.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar

from db.models import AuditEntry
from db.status import (
    EventStatus,
    PenaltyKind,
    PlayerStatus,
    ReportStatus,
    RoundStatus,
    TableState,
)

Json = dict[str, Any]


class Action(StrEnum):
    """The audit log's ``action`` for the entries below."""

    REPORT = "report"  # a player's report, waiting for a tablemate
    ORGANISER_REPORT = "report-by-organiser"  # counts at once; /undo-able
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    FIX = "fix"
    FORFEIT = "forfeit"
    DQ = "dq"
    PENALTY = "penalty"
    NOSHOW = "noshow"
    SET = "set"
    SET_FORMAT = "set-format"
    ROUND_DEADLINE = "deadline-round"
    TABLE_DEADLINE = "deadline-table"
    SIGNUP_DEADLINE = "deadline-signup"
    DROP = "drop"
    SUB = "sub"
    UNDO = "undo"
    DRAW = "draw"
    ROUND_OPEN = "round-open"
    HELD = "held"
    ROUND_CLOSED = "round-closed"
    FINISHED = "finished"
    CANCEL = "cancel"
    # Changes kept for the record, which /undo does not take back.
    NEW = "new"
    JOIN = "join"
    LEAVE = "leave"
    PARTNERS = "partners"
    PROMOTE = "promote"
    JOIN_LATE = "join-late"
    WALKOVER = "walkover"
    CHECKIN = "checkin"
    CHECKIN_CLOSED = "checkin-closed"
    DEADLINE = "deadline"
    REMINDER = "reminder"
    SIGNUP_CLOSED = "signup-closed"
    FORMAT_BY_SIZE = "format-by-size"
    DEPARTMENT = "department"
    REFEREE_CALL = "referee-call"
    PRINT = "print"
    LIVE_PAGE = "live-page"
    GRANT = "grant"
    LANG = "lang"
    TZ = "tz"
    MIGRATE = "migrate"
    REFUSED = "refused"  # Telegram refuses the bot something in a chat: organisers told
    UNREACHABLE = "unreachable"  # a person the bot can no longer write to privately
    REACHABLE = "reachable"  # … and can again
    SEASON_START = "season-start"


@dataclass(frozen=True)
class Entry:
    """Base of the typed entries: ``action`` names it in the log."""

    action: ClassVar[Action]

    def rows(self) -> tuple[Json | None, Json | None]:
        """The ``old`` and ``new`` JSON of the audit row."""
        raise NotImplementedError

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        raise NotImplementedError


@dataclass(frozen=True)
class Noted(Entry):
    """An entry that is its fields, stored under their own names as the row's ``new``
    (nothing was there before it)."""

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(*(new[f.name] for f in fields(cls)))


@dataclass(frozen=True)
class Filed(Entry):
    """A report stored on a table (by a player, or by an organiser when ``organiser``)."""

    action: ClassVar[Action] = Action.REPORT
    table_id: int
    table: int
    round: int
    report_id: int
    text: str
    status: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {
            "table": self.table,
            "round": self.round,
            "text": self.text,
            "status": self.status,
            "report_id": self.report_id,
            "table_id": self.table_id,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(
            new["table_id"],
            new["table"],
            new["round"],
            new["report_id"],
            new["text"],
            new["status"],
        )


@dataclass(frozen=True)
class OrganiserFiled(Filed):
    action: ClassVar[Action] = Action.ORGANISER_REPORT


@dataclass(frozen=True)
class Confirmed(Entry):
    action: ClassVar[Action] = Action.CONFIRM
    table: int

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"table": self.table, "status": ReportStatus.PENDING}, {
            "status": ReportStatus.CONFIRMED
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["table"])


@dataclass(frozen=True)
class Disputed(Entry):
    action: ClassVar[Action] = Action.DISPUTE
    table: int
    reason: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"table": self.table, "status": ReportStatus.PENDING}, {
            "status": ReportStatus.DISPUTED,
            "reason": self.reason,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["table"], new.get("reason", ""))


@dataclass(frozen=True)
class TableBefore:
    """A table's state before a ruling changed it: what /undo puts back."""

    table_id: int
    status: str
    forfeited: list[int]

    def json(self) -> Json:
        return {"table_id": self.table_id, "status": self.status, "forfeited": self.forfeited}

    @classmethod
    def read(cls, data: Json) -> TableBefore:
        return cls(int(data["table_id"]), data["status"], list(data["forfeited"]))


@dataclass(frozen=True)
class Fixed(Entry):
    """/fix: the table before, the live report it replaced (if any), and the new one."""

    action: ClassVar[Action] = Action.FIX
    table: int
    before: TableBefore
    replaced_id: int | None
    replaced_status: str | None
    replaced_text: str | None
    report_id: int
    text: str

    def rows(self) -> tuple[Json | None, Json | None]:
        old = self.before.json() | {
            "table": self.table,
            "report_id": self.replaced_id,
            "report_status": self.replaced_status,
            "text": self.replaced_text,
        }
        return old, {
            "text": self.text,
            "status": ReportStatus.CONFIRMED,
            "report_id": self.report_id,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(
            old["table"],
            TableBefore.read(old),
            old["report_id"],
            old["report_status"],
            old["text"],
            int(new["report_id"]),
            new["text"],
        )


@dataclass(frozen=True)
class Forfeited(Entry):
    """/forfeit of a table or of players at it."""

    action: ClassVar[Action] = Action.FORFEIT
    table: int
    before: TableBefore
    status: str
    forfeited: list[int]

    def rows(self) -> tuple[Json | None, Json | None]:
        return self.before.json() | {"table": self.table}, {
            "status": self.status,
            "forfeited": self.forfeited,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["table"], TableBefore.read(old), new["status"], list(new["forfeited"]))


@dataclass(frozen=True)
class Disqualified(Entry):
    """/dq or the ladder's last rung: the player's status before, and their table still
    to be played as it was before the disqualification made it a walkover (when they
    had one). Entries stored before walkovers settled the table read as a table that
    was pending."""

    action: ClassVar[Action] = Action.DQ
    user: int
    status: str
    table: TableBefore | None = None
    reason: str = ""  # the organiser's words (/dq <player> [reason])

    def rows(self) -> tuple[Json | None, Json | None]:
        old: Json = {"user": self.user, "status": self.status}
        if self.table is not None:
            before = self.table
            old |= {
                "table_id": before.table_id,
                "forfeited": before.forfeited,
                "table_status": before.status,
            }
        new: Json = {"status": PlayerStatus.REMOVED}
        if self.reason:
            new |= {"reason": self.reason}
        return old, new

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        table = None
        if old.get("table_id") is not None:
            status = old.get("table_status", TableState.PENDING)
            table = TableBefore(int(old["table_id"]), status, list(old.get("forfeited") or []))
        return cls(old["user"], old["status"], table, (new or {}).get("reason", ""))


@dataclass(frozen=True)
class Penalised(Entry):
    action: ClassVar[Action] = Action.PENALTY
    penalty_id: int
    user: int
    points: Decimal
    kind: str
    reason: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {
            "penalty_id": self.penalty_id,
            "user": self.user,
            "points": str(self.points),
            "kind": self.kind,
            "reason": self.reason,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(
            int(new["penalty_id"]),
            new["user"],
            Decimal(new["points"]),
            new.get("kind", PenaltyKind.POINTS),
            new.get("reason", ""),
        )


@dataclass(frozen=True)
class NoShows(Entry):
    """The check-in cut-off's ruling: each forfeited table before, and who was absent."""

    action: ClassVar[Action] = Action.NOSHOW
    round: int
    checkin_until: str
    tables: list[TableBefore]
    absent: list[Json]

    def rows(self) -> tuple[Json | None, Json | None]:
        return {
            "round": self.round,
            "checkin_until": self.checkin_until,
            "tables": [t.json() for t in self.tables],
        }, {"tables": self.absent}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        tables = [TableBefore.read(t) for t in old["tables"]]
        return cls(old["round"], old["checkin_until"], tables, list(new["tables"]))


@dataclass(frozen=True)
class FormatSet(Entry):
    """/set format: the format and the options before and after (the new format's knobs
    start from their defaults, so the options change with it)."""

    action: ClassVar[Action] = Action.SET_FORMAT
    before_format: str
    before: Json
    after_format: str
    after: Json

    def rows(self) -> tuple[Json | None, Json | None]:
        return (
            {"format": self.before_format, "options": self.before},
            {"format": self.after_format, "options": self.after},
        )

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["format"], old["options"], new["format"], new["options"])


@dataclass(frozen=True)
class RuleSet(Entry):
    """/set: the options before and after, and the knob changed."""

    action: ClassVar[Action] = Action.SET
    before: Json
    after: Json
    knob: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"options": self.before}, {"options": self.after, "knob": self.knob}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["options"], new.get("options", {}), new.get("knob", ""))


@dataclass(frozen=True)
class Moment:
    """A deadline as it was before a /deadline (``None``: there was none) and when it
    had been set (reminders count from then)."""

    deadline: datetime | None
    set_at: datetime | None

    def json(self) -> Json:
        return {
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "set_at": self.set_at.isoformat() if self.set_at else None,
        }

    @classmethod
    def read(cls, data: Json) -> Moment:
        def when(key: str) -> datetime | None:
            value = data.get(key)
            return datetime.fromisoformat(value) if value else None

        return cls(when("deadline"), when("set_at"))


@dataclass(frozen=True)
class RoundDeadline(Entry):
    """/deadline <when>: the open round's deadline moved to ``deadline``."""

    action: ClassVar[Action] = Action.ROUND_DEADLINE
    round: int
    before: Moment
    deadline: datetime

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"round": self.round} | self.before.json(), {"deadline": self.deadline.isoformat()}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["round"], Moment.read(old), datetime.fromisoformat(new["deadline"]))


@dataclass(frozen=True)
class TableDeadline(Entry):
    """/deadline <table> <when>: one table of the open round given its own deadline."""

    action: ClassVar[Action] = Action.TABLE_DEADLINE
    round: int
    table_id: int
    table: int
    before: Moment
    deadline: datetime

    def rows(self) -> tuple[Json | None, Json | None]:
        old = {"round": self.round, "table_id": self.table_id} | self.before.json()
        return old, {"table": self.table, "deadline": self.deadline.isoformat()}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        deadline = datetime.fromisoformat(new["deadline"])
        return cls(old["round"], old["table_id"], new["table"], Moment.read(old), deadline)


@dataclass(frozen=True)
class SignupDeadline(Entry):
    """/deadline signup <when>: sign-up closes and the draw is made then."""

    action: ClassVar[Action] = Action.SIGNUP_DEADLINE
    before: datetime | None
    deadline: datetime

    def rows(self) -> tuple[Json | None, Json | None]:
        return Moment(self.before, None).json(), {"deadline": self.deadline.isoformat()}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(Moment.read(old).deadline, datetime.fromisoformat(new["deadline"]))


@dataclass(frozen=True)
class Dropped(Entry):
    """/drop: the player's status before and the round they dropped after; when they
    dropped during a round, their table before it became their forfeit."""

    action: ClassVar[Action] = Action.DROP
    user: int
    status: str
    round: int
    table: TableBefore | None = None

    def rows(self) -> tuple[Json | None, Json | None]:
        old: Json = {"user": self.user, "status": self.status, "round": self.round}
        if self.table is not None:
            old |= {"table": self.table.json()}
        return old, {"status": PlayerStatus.DROPPED, "round": self.round}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        table = TableBefore.read(old["table"]) if "table" in old else None
        return cls(old["user"], old["status"], old["round"], table)


@dataclass(frozen=True)
class Substituted(Entry):
    """/sub: ``sub`` plays ``out``'s place from round ``round`` on; their statuses before."""

    action: ClassVar[Action] = Action.SUB
    out: int
    sub: int
    round: int
    out_status: str
    sub_status: str

    def rows(self) -> tuple[Json | None, Json | None]:
        old = {"out": self.out, "status": self.out_status, "sub_status": self.sub_status}
        return old, {"sub": self.sub, "round": self.round}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["out"], new["sub"], new["round"], old["status"], old["sub_status"])


@dataclass(frozen=True)
class Undone(Entry):
    """/undo of the entry with id ``undone`` (its action and old state kept for history)."""

    action: ClassVar[Action] = Action.UNDO
    undone: int
    what: str
    entry: Json | None

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"action": self.what, "entry": self.entry}, {"undone": self.undone}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(int(new["undone"]), old["action"], old.get("entry"))


@dataclass(frozen=True)
class Drawn(Entry):
    """Sign-up closed and round 1 seated: its tables."""

    action: ClassVar[Action] = Action.DRAW
    tables: list[list[int]]

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"status": EventStatus.SIGNUP}, {
            "status": EventStatus.RUNNING,
            "tables": self.tables,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(new["tables"])


@dataclass(frozen=True)
class RoundOpened(Noted):
    """A round opened, with its deadline (``None``: none)."""

    action: ClassVar[Action] = Action.ROUND_OPEN
    round: int
    deadline: str


@dataclass(frozen=True)
class Held(Noted):
    """A round that would end the event with whole tables forfeited waits for the
    organiser's ruling (docs/rules/deadlines.md#late)."""

    action: ClassVar[Action] = Action.HELD
    round: int
    tables: list[int]


@dataclass(frozen=True)
class Closed(Entry):
    """Every table of the round settled: the round is over."""

    action: ClassVar[Action] = Action.ROUND_CLOSED
    round: int

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"round": self.round, "status": RoundStatus.OPEN}, {"status": RoundStatus.CLOSED}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["round"])


@dataclass(frozen=True)
class Finished(Entry):
    """The format has finished: the event is over."""

    action: ClassVar[Action] = Action.FINISHED

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"status": EventStatus.RUNNING}, {"status": EventStatus.FINISHED}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls()


@dataclass(frozen=True)
class Cancelled(Entry):
    """/cancel: the event's status and sign-up deadline before it was called off."""

    action: ClassVar[Action] = Action.CANCEL
    status: str
    signup_until: str | None

    def rows(self) -> tuple[Json | None, Json | None]:
        old = {"status": self.status, "signup_until": self.signup_until}
        return old, {"status": EventStatus.CANCELLED}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["status"], old.get("signup_until"))


# --- changes kept for the record (no /undo) ---------------------------------------------------
@dataclass(frozen=True)
class Created(Noted):
    """/new: the event made, for ``game`` in ``format`` under ``title``."""

    action: ClassVar[Action] = Action.NEW
    game: str
    format: str
    title: str


@dataclass(frozen=True)
class Joined(Entry):
    """A sign-up; ``waiting``: on the waiting list, beyond the cap."""

    action: ClassVar[Action] = Action.JOIN
    user: int
    name: str
    waiting: bool = False

    def rows(self) -> tuple[Json | None, Json | None]:
        new: Json = {"user": self.user, "name": self.name}
        return None, new | {"waiting": True} if self.waiting else new

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(new["user"], new["name"], bool(new.get("waiting", False)))


@dataclass(frozen=True)
class Left(Entry):
    """/leave before the draw: the status and partners the player had."""

    action: ClassVar[Action] = Action.LEAVE
    user: int
    status: str
    partners: list[int | str]

    def rows(self) -> tuple[Json | None, Json | None]:
        old = {"user": self.user, "status": self.status, "partners": self.partners}
        return old, {"status": PlayerStatus.LEFT, "partners": []}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["user"], old["status"], list(old["partners"]))


@dataclass(frozen=True)
class PartnersNamed(Entry):
    """``user``'s partners before and after (docs/rules/teams.md#teams-by-lot)."""

    action: ClassVar[Action] = Action.PARTNERS
    user: int
    before: list[int | str]
    after: list[int | str]

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"user": self.user, "partners": self.before}, {"partners": self.after}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["user"], list(old["partners"]), list(new["partners"]))


@dataclass(frozen=True)
class Promoted(Entry):
    """From the waiting list into the event."""

    action: ClassVar[Action] = Action.PROMOTE
    user: int

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"user": self.user, "status": PlayerStatus.WAITING}, {"status": PlayerStatus.ACTIVE}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["user"])


@dataclass(frozen=True)
class EnteredLate(Noted):
    """A late entrant, playing from ``round`` on (docs/rules/people.md)."""

    action: ClassVar[Action] = Action.JOIN_LATE
    user: int
    round: int


@dataclass(frozen=True)
class WalkedOver(Entry):
    """Players who dropped out were drawn at ``table``: ``out`` forfeit it."""

    action: ClassVar[Action] = Action.WALKOVER
    round: int
    table: int
    out: list[int]

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {"round": self.round, "table": self.table, "out": self.out}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(new["round"], new["table"], list(new["out"]))


@dataclass(frozen=True)
class CheckedIn(Noted):
    """``user`` is present at ``table`` of ``round`` (docs/rules/deadlines.md)."""

    action: ClassVar[Action] = Action.CHECKIN
    round: int
    table: int
    user: int


@dataclass(frozen=True)
class CheckinClosed(NoShows):
    """The check-in cut-off found everyone there: nothing ruled (the shape of
    :class:`NoShows`, with no tables)."""

    action: ClassVar[Action] = Action.CHECKIN_CLOSED


@dataclass(frozen=True)
class DeadlinePassed(Entry):
    """A deadline passed: the tables whose report stood, forfeited, still waiting."""

    action: ClassVar[Action] = Action.DEADLINE
    round: int
    deadline: str
    accepted: list[int]
    forfeited: list[int]
    waiting: list[int]

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"round": self.round, "deadline": self.deadline}, {
            "accepted": self.accepted,
            "forfeited": self.forfeited,
            "waiting": self.waiting,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(
            old["round"],
            old["deadline"],
            list(new["accepted"]),
            list(new["forfeited"]),
            list(new["waiting"]),
        )


@dataclass(frozen=True)
class Reminded(Entry):
    """A deadline reminder for ``tables`` of ``round``."""

    action: ClassVar[Action] = Action.REMINDER
    round: int
    tables: list[int]

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {"round": self.round, "tables": self.tables}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(new["round"], list(new["tables"]))


@dataclass(frozen=True)
class SignupClosed(Entry):
    """The sign-up deadline passed and the draw could not be made: sign-up stays open,
    with no deadline."""

    action: ClassVar[Action] = Action.SIGNUP_CLOSED
    deadline: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"deadline": self.deadline}, {"drawn": False}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["deadline"])


@dataclass(frozen=True)
class FormatBySize(Entry):
    """At the draw, the format chosen for the field's size (docs/rules/two-player.md)."""

    action: ClassVar[Action] = Action.FORMAT_BY_SIZE
    before_format: str
    before: Json
    format: str
    players: int

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"format": self.before_format, "options": self.before}, {
            "format": self.format,
            "players": self.players,
        }

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["format"], old["options"], new["format"], new["players"])


@dataclass(frozen=True)
class DepartmentSet(Entry):
    """/dept: ``user``'s department before and after (``None``: none)."""

    action: ClassVar[Action] = Action.DEPARTMENT
    user: int
    before: str | None
    after: str | None

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"user": self.user, "department": self.before}, {"department": self.after}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["user"], old["department"], new["department"])


@dataclass(frozen=True)
class RefereeCalled(Noted):
    """A table called the referee; ``organisers``: how many were reached in private."""

    action: ClassVar[Action] = Action.REFEREE_CALL
    round: int
    table: int
    organisers: int


@dataclass(frozen=True)
class Printed(Entry):
    """/print of ``round``; ``new_slip_secret``: the event's slip secret was made then."""

    action: ClassVar[Action] = Action.PRINT
    round: int
    new_slip_secret: bool

    def rows(self) -> tuple[Json | None, Json | None]:
        return None, {"round": self.round, "new_slip_secret": self.new_slip_secret}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(new["round"], bool(new["new_slip_secret"]))


@dataclass(frozen=True)
class LivePage(Entry):
    """/live made the page's link; ``revoked``: an older one stopped working."""

    action: ClassVar[Action] = Action.LIVE_PAGE
    revoked: bool

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"link": "revoked"} if self.revoked else None, {"link": "new"}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old.get("link") == "revoked")


@dataclass(frozen=True)
class Granted(Noted):
    """/grant: ``user`` is an organiser of the chat."""

    action: ClassVar[Action] = Action.GRANT
    user: int


@dataclass(frozen=True)
class LangSet(Entry):
    """/lang: the chat's language before (``None``: the default) and after."""

    action: ClassVar[Action] = Action.LANG
    before: str | None
    after: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"lang": self.before}, {"lang": self.after}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old.get("lang"), new["lang"])


@dataclass(frozen=True)
class ZoneSet(Entry):
    """/tz: the chat's time zone before (``None``: the default) and after."""

    action: ClassVar[Action] = Action.TZ
    before: str | None
    after: str

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"tz": self.before}, {"tz": self.after}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old.get("tz"), new["tz"])


@dataclass(frozen=True)
class Refused(Noted):
    """Telegram refuses the bot ``reason`` in the chat (``bot.transport.refusals``); the
    organisers were told, ``told`` of them in private."""

    action: ClassVar[Action] = Action.REFUSED
    reason: str
    told: int


@dataclass(frozen=True)
class Unreachable(Noted):
    """Telegram refuses the bot's private messages to ``user`` (``reason``: blocked,
    deactivated…): none is queued for them until they write to the bot again."""

    action: ClassVar[Action] = Action.UNREACHABLE
    user: int
    reason: str


@dataclass(frozen=True)
class Reachable(Noted):
    """``user`` wrote to the bot, or unblocked it: it may write to them again."""

    action: ClassVar[Action] = Action.REACHABLE
    user: int


@dataclass(frozen=True)
class Migrated(Entry):
    """The group became a supergroup: its rows moved from one chat id to the other."""

    action: ClassVar[Action] = Action.MIGRATE
    before: int
    after: int

    def rows(self) -> tuple[Json | None, Json | None]:
        return {"chat_id": self.before}, {"chat_id": self.after}

    @classmethod
    def read(cls, old: Json, new: Json) -> Entry:
        return cls(old["chat_id"], new["chat_id"])


@dataclass(frozen=True)
class SeasonStarted(Noted):
    """/season start: the season's row, name and scoring."""

    action: ClassVar[Action] = Action.SEASON_START
    season: int
    name: str
    scoring: str


KINDS: dict[str, type[Entry]] = {
    kind.action: kind
    for kind in (
        Filed,
        OrganiserFiled,
        Confirmed,
        Disputed,
        Fixed,
        Forfeited,
        Disqualified,
        Penalised,
        NoShows,
        RuleSet,
        FormatSet,
        RoundDeadline,
        TableDeadline,
        SignupDeadline,
        Dropped,
        Substituted,
        Undone,
        Drawn,
        RoundOpened,
        Held,
        Closed,
        Finished,
        Cancelled,
        Created,
        Joined,
        Left,
        PartnersNamed,
        Promoted,
        EnteredLate,
        WalkedOver,
        CheckedIn,
        CheckinClosed,
        DeadlinePassed,
        Reminded,
        SignupClosed,
        FormatBySize,
        DepartmentSet,
        RefereeCalled,
        Printed,
        LivePage,
        Granted,
        LangSet,
        ZoneSet,
        Migrated,
        SeasonStarted,
    )
}


def read(row: AuditEntry) -> Entry:
    """The typed entry an audit row holds (its ``action`` must be one of :data:`KINDS`)."""
    return KINDS[row.action].read(row.old or {}, row.new or {})
