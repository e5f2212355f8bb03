"""The service layer: typed audit entries read back as written (also the shapes stored
before they were typed), and the rulings /undo takes back, driven in memory."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from bot.application.service.audit import (
    KINDS,
    Cancelled,
    CheckedIn,
    CheckinClosed,
    Closed,
    Confirmed,
    Created,
    DeadlinePassed,
    DepartmentSet,
    Disputed,
    Disqualified,
    Drawn,
    Dropped,
    EnteredLate,
    Entry,
    Filed,
    Finished,
    Fixed,
    Forfeited,
    FormatBySize,
    FormatSet,
    Granted,
    Held,
    Joined,
    LangSet,
    Left,
    LivePage,
    Migrated,
    Moment,
    NoShows,
    OrganiserFiled,
    PartnersNamed,
    Penalised,
    Printed,
    Promoted,
    RefereeCalled,
    Reminded,
    RoundDeadline,
    RoundOpened,
    RuleSet,
    SeasonStarted,
    SignupClosed,
    SignupDeadline,
    Substituted,
    TableBefore,
    TableDeadline,
    Undone,
    WalkedOver,
    ZoneSet,
    read,
)
from db.models import AuditEntry
from tests.handlers.memory import CATALOGUE, Chats

GROUP, ADMIN, PLAYERS = -2001, 1, (401, 402, 403, 404)
CONFIRM_OWN = CATALOGUE["en"]("refuse.confirm-own", table=1)
WHEN = datetime(2026, 12, 20, 10, 0, tzinfo=UTC)

ENTRIES: list[Entry] = [
    Filed(7, 1, 1, 9, "A5 B8 C0 D12", "pending"),
    OrganiserFiled(7, 1, 1, 9, "A5 B8 C0 D12", "confirmed"),
    Confirmed(1),
    Disputed(1, "wrong count"),
    Fixed(1, TableBefore(7, "confirmed", []), 9, "confirmed", "A5 B8 C0 D12", 10, "A0 B1 C2 D3"),
    Fixed(2, TableBefore(8, "pending", [401]), None, None, None, 11, "total A+1 B-1 C0 D0"),
    Forfeited(1, TableBefore(7, "pending", []), "forfeit", [401, 402, 403, 404]),
    Disqualified(401, "active"),
    Disqualified(401, "active", TableBefore(7, "pending", [402])),
    Penalised(3, 401, Decimal("1.5"), "points", "late"),
    NoShows(1, "2026-11-02T01:15:00+00:00", [TableBefore(7, "pending", [])], [{"table": 1}]),
    RuleSet({"game": {}}, {"game": {"spade2": "off"}}, "spade2"),
    FormatSet("knockout", {"format": {"advance": "2"}}, "swiss", {}),
    RoundDeadline(2, Moment(None, None), WHEN),
    RoundDeadline(2, Moment(WHEN, WHEN - timedelta(days=1)), WHEN + timedelta(hours=3)),
    TableDeadline(2, 17, 3, Moment(None, None), WHEN),
    SignupDeadline(None, WHEN),
    SignupDeadline(WHEN, WHEN + timedelta(days=1)),
    Dropped(401, "active", 2),
    Dropped(401, "active", 2, TableBefore(7, "pending", [402])),
    Substituted(401, 409, 3, "active", "waiting"),
    Undone(12, "penalty", None),
    Drawn([[401, 402], [403, 404]]),
    RoundOpened(2, "None"),
    RoundOpened(3, str(WHEN)),
    Held(3, [1, 2]),
    Closed(2),
    Finished(),
    Cancelled("running", None),
    Cancelled("signup", WHEN.isoformat()),
    Created("doudizhu", "swiss", "Friday night"),
    Joined(401, "Ann"),
    Joined(409, "Zed", waiting=True),
    Left(401, "active", [402, "@bob"]),
    PartnersNamed(401, [], [402]),
    Promoted(409),
    EnteredLate(409, 3),
    WalkedOver(2, 1, [401]),
    CheckedIn(1, 2, 401),
    CheckinClosed(1, "2026-11-02T01:15:00+00:00", [], []),
    DeadlinePassed(2, WHEN.isoformat(), [1], [2], [3]),
    Reminded(2, [1, 3]),
    SignupClosed(WHEN.isoformat()),
    FormatBySize("knockout", {"auto": {"format": "size"}}, "groups", 8),
    DepartmentSet(401, None, "Sales"),
    DepartmentSet(401, "Sales", None),
    RefereeCalled(1, 2, 0),
    Printed(1, True),
    LivePage(False),
    LivePage(True),
    Granted(401),
    LangSet(None, "en"),
    ZoneSet("Asia/Shanghai", "Europe/London"),
    Migrated(-2001, -1002001),
    SeasonStarted(1, "Spring", "rating"),
]


def test_the_entries_kept_for_the_record_write_the_json_they_always_wrote() -> None:
    """The rows written by ``ctx.uow.audit`` before these were typed (see git history)."""
    assert Joined(401, "Ann").rows() == (None, {"user": 401, "name": "Ann"})
    assert Joined(409, "Zed", True).rows()[1] == {"user": 409, "name": "Zed", "waiting": True}
    assert LivePage(False).rows() == (None, {"link": "new"})
    assert CheckinClosed(1, "", [], []).rows() == (
        {"round": 1, "checkin_until": "", "tables": []},
        {"tables": []},
    )
    # A disqualification stored before it settled the table as a walkover: it was pending.
    old_dq = AuditEntry(
        action="dq",
        old={"user": 401, "status": "active", "table_id": 7, "forfeited": [402]},
        new={"status": "removed"},
    )
    assert read(old_dq) == Disqualified(401, "active", TableBefore(7, "pending", [402]))
    assert FormatBySize("knockout", {}, "groups", 8).rows() == (
        {"format": "knockout", "options": {}},
        {"format": "groups", "players": 8},
    )


def test_every_typed_entry_reads_back_as_written() -> None:
    assert {type(e) for e in ENTRIES} == set(KINDS.values())
    for entry in ENTRIES:
        old, new = entry.rows()
        row = AuditEntry(action=entry.action, old=old, new=new)
        assert read(row) == entry
        # An anonymous admin's ruling is marked as such (Ctx.audit); it reads the same.
        marked = AuditEntry(action=entry.action, old=old, new={**new, "by": "anonymous admin"})
        assert read(marked) == entry


def test_every_change_is_audited_through_a_typed_entry() -> None:
    """``ctx.uow.record`` with an entry of ``service/audit.py``; the untyped
    ``ctx.uow.audit(action, …)`` is only what ``record`` calls."""
    root = Path(__file__).parents[2] / "bot"
    untyped = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        if "uow.audit(" in path.read_text(encoding="utf-8")
    ]
    assert untyped == []


def test_handlers_change_an_event_only_through_its_verbs() -> None:
    """A handler records only the chat's own changes; an event's go through ``Event``
    (docs/development.md#one-update)."""
    handlers = Path(__file__).parents[2] / "bot" / "application" / "handlers"
    recorded = {
        m.group(1)
        for path in handlers.rglob("*.py")
        for m in re.finditer(r"ctx\.uow\.record\([^,]+, (\w+)\(", path.read_text("utf-8"))
    }
    chat_changes = {"LangSet", "ZoneSet", "Granted", "Migrated", "SeasonStarted"}
    delivery = {"Refused", "Unreachable", "Reachable"}  # what Telegram refused, who is gone
    assert recorded <= chat_changes | delivery
    assert recorded  # the pattern still finds them


def test_a_deadline_change_stored_before_entries_were_typed_still_reads() -> None:
    """The JSON /deadline <table> wrote in bot/application/handlers/deadlines.py (see git
    history)."""
    row = AuditEntry(
        action="deadline-table",
        old={"round": 2, "table_id": 17, "deadline": None, "set_at": None},
        new={"table": 3, "deadline": WHEN.isoformat()},
    )
    assert read(row) == TableDeadline(2, 17, 3, Moment(None, None), WHEN)


def test_an_entry_stored_before_entries_were_typed_still_reads() -> None:
    """The JSON a /fix wrote before bot/application/service existed (see git history)."""
    row = AuditEntry(
        action="fix",
        old={
            "table_id": 7,
            "table": 1,
            "status": "confirmed",
            "forfeited": [],
            "report_id": 9,
            "report_status": "confirmed",
            "text": "A5 B8 C0 D12",
        },
        new={"text": "A0 B1 C2 D3", "status": "confirmed", "report_id": 10},
    )
    assert read(row) == ENTRIES[4]


def export_rows(chats: Chats) -> list[dict[str, str]]:
    document = chats.last(GROUP).file
    assert document is not None
    return list(csv.DictReader(io.StringIO(document.decode("utf-8"))))


async def test_confirm_fix_and_undo_go_through_one_path(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    assert "round 1 draw" in chats.last(GROUP).text
    await chats.says(GROUP, ADMIN, "/round")
    table = chats.last(GROUP).text
    captain = next(u for u in PLAYERS if f"A P{u}" in table)
    mate = next(u for u in PLAYERS if f"B P{u}" in table)

    pending = await chats.says(GROUP, captain, "/report 1 A5 B8 C0 D12")
    assert "Another player at the table" in pending
    assert CONFIRM_OWN in await chats.says(GROUP, captain, "/confirm")
    confirmed = await chats.says(GROUP, mate, "/confirm")
    assert "Table 1 confirmed" in confirmed and "is over" in confirmed

    assert "corrected table 1" in await chats.says(GROUP, ADMIN, "/fix 1 total A-3 B+3 C0 D0")
    await chats.says(GROUP, ADMIN, "/export")
    assert sorted(r["score"] for r in export_rows(chats)) == ["-3", "0", "0", "3"]
    assert "the last correction" in await chats.says(GROUP, ADMIN, "/undo")
    await chats.says(GROUP, ADMIN, "/export")
    rows = export_rows(chats)
    assert sorted(r["score"] for r in rows) == ["-7", "-87", "37", "57"]  # the report is back
    assert {r["status"] for r in rows} == {"confirmed"}
    # The player's own report is not an organiser ruling: nothing further to undo.
    assert "no organiser action to undo" in await chats.says(GROUP, ADMIN, "/undo")
