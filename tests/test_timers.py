"""Timer planning (``bot.application.timers``) and time-zone lookup
(``bot.language.zones``), without a bot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.application.timers import remind_offsets, reminder_moments, tournament_timers
from bot.application.tournament import POLICY_KNOBS
from bot.language.zones import ZoneError, find_zone
from db.models import Round, TableRow, Tournament
from engine.errors import ConfigError

T0 = datetime(2026, 11, 18, 6, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("text", "offsets"),
    [
        ("24h,1h", (24 * H, H)),
        ("1h, 24h", (24 * H, H)),
        ("2d 3h 10m", (48 * H, 3 * H, timedelta(minutes=10))),
        ("30分钟，2小时", (2 * H, timedelta(minutes=30))),
        ("off", ()),
    ],
)
def test_remind_offsets_read_the_knob(text: str, offsets: tuple[timedelta, ...]) -> None:
    assert remind_offsets(text) == offsets


@pytest.mark.parametrize("text", ["", "soon", "0h", "1h,x", "-1h"])
def test_remind_knob_refuses_what_it_cannot_read(text: str) -> None:
    knob = next(k for k in POLICY_KNOBS if k.name == "remind")
    with pytest.raises(ConfigError) as caught:
        knob.coerce(text)
    assert caught.value.code == "remind-value"


def test_reminders_that_fit_after_the_deadline_was_set() -> None:
    offsets = remind_offsets("24h,1h")
    assert reminder_moments(T0 + 48 * H, T0, offsets) == [T0 + 24 * H, T0 + 47 * H]
    assert reminder_moments(T0 + 3 * H, T0, offsets) == [T0 + 2 * H]  # 24 h is before it


def test_a_round_shorter_than_every_offset_gets_the_ten_minute_call() -> None:
    """docs/rules/deadlines.md#last-call: 结束前10分钟大会统一提醒."""
    offsets = remind_offsets("24h,1h")
    assert reminder_moments(T0 + 40 * timedelta(minutes=1), T0, offsets) == [
        T0 + 30 * timedelta(minutes=1)
    ]
    assert reminder_moments(T0 + 5 * timedelta(minutes=1), T0, offsets) == []  # no room
    assert reminder_moments(T0 + 48 * H, T0, ()) == []  # remind off
    assert reminder_moments(T0 + 48 * H, None, offsets) == []  # set before reminders existed


def running(deadline: datetime, extended: datetime | None = None) -> Tournament:
    """A running tournament, round 1 open with two tables (table 2 maybe extended)."""
    r = Round(number=1, status="open", deadline=deadline, deadline_set_at=T0, checkin_until=None)
    r.tables = [
        TableRow(number=1, seats=[1, 2], status="pending", deadline=None),
        TableRow(number=2, seats=[3, 4], status="pending", deadline=extended, deadline_set_at=T0),
    ]
    t = Tournament(id=7, status="running", options={}, signup_until=None)
    t.rounds = [r]
    return t


def test_the_plan_has_a_deadline_and_reminders_per_distinct_deadline() -> None:
    t = running(T0 + 48 * H, extended=T0 + 72 * H)
    plan = [(timer.kind, timer.at - T0) for timer in tournament_timers(t)]
    assert plan == [
        ("remind", 24 * H),
        ("remind", 47 * H),
        ("deadline", 48 * H),
        ("remind", 48 * H),
        ("remind", 71 * H),
        ("deadline", 72 * H),
    ]
    t.rounds[0].tables[1].status = "confirmed"  # a settled table waits for nothing
    assert [timer.at - T0 for timer in tournament_timers(t)] == [24 * H, 47 * H, 48 * H]


def test_timer_keys_name_kind_tournament_round_and_moment() -> None:
    [first, *_] = tournament_timers(running(T0 + 48 * H))
    assert first.key == f"remind:7:1:{int((T0 + 24 * H).timestamp())}"
    assert first.arg == f"7:1:{int((T0 + 24 * H).timestamp())}"


def test_signup_deadline_is_a_timer_until_the_draw() -> None:
    t = Tournament(id=3, status="signup", options={}, signup_until=T0)
    t.rounds = []
    assert [(x.kind, x.round, x.at) for x in tournament_timers(t)] == [("signup", 0, T0)]
    t.status = "running"
    assert tournament_timers(t) == []


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("asia/shanghai", "Asia/Shanghai"),
        ("ASIA/SHANGHAI", "Asia/Shanghai"),
        ("北京", "Asia/Shanghai"),
        ("上海", "Asia/Shanghai"),
        ("香港", "Asia/Hong_Kong"),
        ("台北", "Asia/Taipei"),
        ("New York", "America/New_York"),
        ("new_york", "America/New_York"),
        ("London", "Europe/London"),
        ("tokyo", "Asia/Tokyo"),
        ("+8", "Etc/GMT-8"),
        ("UTC+8", "Etc/GMT-8"),
        ("utc-5", "Etc/GMT+5"),
        ("GMT+0", "UTC"),
        ("utc", "UTC"),
    ],
)
def test_tz_accepts_names_in_any_case_cities_and_offsets(text: str, zone: str) -> None:
    assert find_zone(text) == zone


def test_etc_gmt_zones_are_refused_with_what_they_mean() -> None:
    with pytest.raises(ZoneError) as caught:
        find_zone("Etc/GMT+8")
    assert caught.value.code == "etc-tz"
    assert caught.value.params == {"zone": "Etc/GMT+8", "means": "UTC-8", "write": "-8"}


@pytest.mark.parametrize("text", ["", "Mars/Base", "+20", "火星"])
def test_unknown_zones_are_refused(text: str) -> None:
    with pytest.raises(ZoneError) as caught:
        find_zone(text)
    assert caught.value.code == "bad-tz"
