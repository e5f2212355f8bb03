"""What a tournament waits for, planned from its stored rows (no clock, no I/O).

Every moment lives in our tables: a round's ``deadline`` (and the moment it was set), a
table's own ``deadline`` (later or earlier than the round's), the check-in cut-off, the
sign-up deadline. From them
:func:`tournament_timers` derives the timers; the scheduler rebuilds them at every start
and whenever a use-case changes a moment. A timer's :attr:`Timer.key` names it uniquely,
and the fired-timer record keyed by it makes each run at most once.

Reminders (knob ``remind``, default ``24h,1h``): one before each deadline for every
offset that falls after the moment the deadline was set. A round shorter than all the
offsets gets the last call instead, 结束前10分钟大会统一提醒 (docs/rules/deadlines.md#last-call).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.application.types import Timer
from db.models import Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus, TableState

REMIND_DEFAULT = "24h,1h"
REMIND_OFF = ("off", "关", "0")
LAST_CALL = timedelta(minutes=10)  # docs/rules/deadlines.md#last-call
_UNITS = {"d": 1440, "day": 1440, "days": 1440, "天": 1440, "h": 60, "小时": 60, "m": 1,
          "min": 1, "分钟": 1}  # fmt: skip
_OFFSET = re.compile(r"(\d{1,4})\s*(days?|d|h|min|m|天|小时|分钟)")


def remind_offsets(value: str) -> tuple[timedelta, ...]:
    """``"24h,1h"`` → (24 h, 1 h); ``off`` → (). Raises ValueError on anything else."""
    text = value.strip().lower()
    if text in REMIND_OFF:
        return ()
    offsets = []
    for part in re.split(r"[,，;；\s]+", text):
        m = _OFFSET.fullmatch(part)
        if m is None or int(m.group(1)) == 0:
            raise ValueError(part)
        offsets.append(timedelta(minutes=int(m.group(1)) * _UNITS[m.group(2)]))
    return tuple(sorted(set(offsets), reverse=True))


def reminder_moments(
    deadline: datetime, set_at: datetime | None, offsets: Iterable[timedelta]
) -> list[datetime]:
    """When to remind about ``deadline``: each offset that falls after ``set_at``; when
    none does, the 10-minute last call (if even that fits)."""
    offsets = tuple(offsets)
    if set_at is None or not offsets:
        return []
    span = deadline - set_at
    fitting = [deadline - o for o in offsets if o < span]
    if not fitting and span > LAST_CALL:
        fitting = [deadline - LAST_CALL]
    return sorted(fitting)


def epoch(moment: datetime | None) -> int | None:
    """A moment to the second: how timers (``Timer.arg``) are matched to stored moments."""
    return None if moment is None else int(moment.timestamp())


def remind_setting(t: Tournament) -> str:
    return str(t.options.get("policy", {}).get("remind", REMIND_DEFAULT))


def table_deadline(r: Round, row: TableRow) -> datetime | None:
    """The moment this table must have its result by: its own, else the round's."""
    return row.deadline or r.deadline


def deadlines_of(r: Round) -> dict[datetime, datetime | None]:
    """Each distinct deadline of the open round's unsettled tables → when it was set."""
    found: dict[datetime, datetime | None] = {}
    for row in r.tables:
        if row.status != TableState.PENDING:
            continue
        if row.deadline is not None:
            found[row.deadline] = row.deadline_set_at
        elif r.deadline is not None:
            found[r.deadline] = r.deadline_set_at
    return found


def reminders_for(t: Tournament, r: Round) -> dict[datetime, list[datetime]]:
    """Reminder moment → the deadlines it reminds about."""
    offsets = remind_offsets(remind_setting(t))
    planned: dict[datetime, list[datetime]] = {}
    for deadline, set_at in deadlines_of(r).items():
        for moment in reminder_moments(deadline, set_at, offsets):
            planned.setdefault(moment, []).append(deadline)
    return planned


def tournament_timers(t: Tournament) -> list[Timer]:
    """Every timer the tournament waits for now, fired or not (the record decides)."""
    if t.status == EventStatus.SIGNUP:
        return [Timer("signup", t.id, 0, t.signup_until)] if t.signup_until else []
    if t.status != EventStatus.RUNNING or not t.rounds:
        return []
    r = t.rounds[-1]
    timers = []
    if t.live_due is not None:  # the live standings behind (``bot.presentation.live``)
        timers.append(live_timer(t, r.number, t.live_due))
    if r.status != RoundStatus.OPEN:
        return timers
    timers += [Timer("deadline", t.id, r.number, d) for d in deadlines_of(r)]
    timers += [Timer("remind", t.id, r.number, m) for m in reminders_for(t, r)]
    if r.checkin_until is not None:
        timers.append(Timer("noshow", t.id, r.number, r.checkin_until))
    return sorted(timers, key=lambda timer: timer.at)


def live_timer(t: Tournament, round_number: int, due: datetime) -> Timer:
    """The planned refresh of the live standings (``bot.presentation.live.later``)."""
    return Timer("live", t.id, round_number, due)
