"""/calendar: the event's deadlines as an .ics file that re-imports as an update."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from icalendar import Calendar

from tests.handlers.memory import Chats

GROUP, ADMIN, PLAYERS = -700, 1, (11, 12, 13, 14, 15, 16, 17, 18)
SHANGHAI = ZoneInfo("Asia/Shanghai")


def events(chats: Chats) -> dict[str, tuple[datetime, int, str]]:
    """The last document's VEVENTs: UID → (start, sequence, summary)."""
    sent = chats.last(GROUP)
    assert sent.kind == "document" and sent.file is not None
    cal = Calendar.from_ical(sent.file)
    return {
        str(e["uid"]): (e.decoded("dtstart"), int(e["sequence"]), str(e["summary"]))
        for e in cal.walk("VEVENT")
    }


async def test_calendar_holds_each_deadline_and_a_moved_one_keeps_its_uid(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    refused = await chats.says(GROUP, PLAYERS[0], "/calendar")
    assert "no deadline yet" in refused
    assert chats.last(GROUP).kind == "text"

    await chats.says(GROUP, ADMIN, "/round Friday 18:00")
    await chats.says(GROUP, ADMIN, "/deadline 2 Saturday 20:00")
    caption = await chats.says(GROUP, PLAYERS[0], "/calendar")  # anyone may ask
    assert "2 deadlines" in caption and "Asia/Shanghai" in caption
    first = events(chats)
    (round_uid,) = [uid for uid, (_, _, summary) in first.items() if "table" not in summary]
    (table_uid,) = [uid for uid in first if uid != round_uid]
    start, sequence, summary = first[round_uid]
    assert start == datetime(2026, 11, 6, 18, 0, tzinfo=SHANGHAI)
    assert start.tzinfo is not None and str(start.tzinfo) == "Asia/Shanghai"  # the chat's zone
    assert summary == "Cup: round 1 results due"
    assert first[table_uid][0] == datetime(2026, 11, 7, 20, 0, tzinfo=SHANGHAI)

    chats.later(hours=2)
    await chats.says(GROUP, ADMIN, "/deadline Sunday 12:00")  # the round's deadline moves
    await chats.says(GROUP, ADMIN, "/calendar")
    moved = events(chats)
    assert set(moved) == set(first)  # the same entries, updated on re-import
    assert moved[round_uid][0] == datetime(2026, 11, 8, 12, 0, tzinfo=SHANGHAI)
    assert moved[round_uid][1] > sequence
