"""An iCalendar file (RFC 5545) of an event's deadlines, for players' calendar apps.

Each moment keeps one UID for the life of the event, so importing the file again after
a deadline moved updates the calendar entry instead of adding a second one; SEQUENCE and
LAST-MODIFIED grow with each move, which is how calendar apps tell the newer copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

PRODUCT = "-//tourbot//deadlines//EN"
SEQUENCE_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)  # SEQUENCE counts minutes from here


@dataclass(frozen=True)
class Moment:
    """One point in time to put in the calendar: a deadline or a cut-off."""

    uid: str  # stable across re-exports: the same moment keeps it when it moves
    summary: str
    at: datetime  # timezone-aware
    changed: datetime | None = None  # when it was last set (None: never moved)
    description: str = ""


def sequence(changed: datetime | None) -> int:
    """A revision number that only grows as a moment is set again later."""
    if changed is None:
        return 0
    return max(0, int((changed - SEQUENCE_EPOCH).total_seconds() // 60))


def calendar_file(name: str, moments: Sequence[Moment], zone: ZoneInfo, now: datetime) -> bytes:
    """The ``.ics`` bytes: one VEVENT per moment, in ``zone`` (with its VTIMEZONE)."""
    cal = Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", zone.key)
    for moment in moments:
        event = Event()
        event.add("uid", moment.uid)
        event.add("summary", moment.summary)
        event.add("dtstamp", now.astimezone(UTC))
        event.add("dtstart", moment.at.astimezone(zone))
        event.add("sequence", sequence(moment.changed))
        if moment.changed is not None:
            event.add("last-modified", moment.changed.astimezone(UTC))
        if moment.description:
            event.add("description", moment.description)
        event.add("transp", "TRANSPARENT")  # a deadline does not make anyone busy
        cal.add_component(event)
    cal.add_missing_timezones()
    return bytes(cal.to_ical())
