"""Deadline text → aware datetime, with a fixed ``now`` (docs/rules/deadlines.md#phrases)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.application.handlers.deadlines import HOUR_BUTTON, OPEN_BUTTON, Target
from bot.language.deadlines import AmbiguousHour, DeadlineError, format_deadline, parse_deadline
from bot.language.errors import UserError

SH = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 18, 14, 30, tzinfo=SH)  # a Wednesday afternoon


def at(month: int, day: int, hour: int = 23, minute: int = 59, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=SH)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the documented examples (docs/rules/deadlines.md#phrases) and more
        ("2026-12-20 18:00", at(12, 20, 18, 0)),
        ("2026-12-20", at(12, 20)),
        ("2026-12-20T18:00", at(12, 20, 18, 0)),
        ("2026年12月20日 18:00", at(12, 20, 18, 0)),
        ("12-20 18:00", at(12, 20, 18, 0)),
        ("20号", at(11, 20)),
        ("20日", at(11, 20)),
        ("20号之前上报", at(11, 20)),  # as organisers write it: 20号之前结束第一轮比赛
        ("本月20号18点", at(11, 20, 18, 0)),
        ("11月20日 18:00", at(11, 20, 18, 0)),
        ("下周五 18:00", at(11, 27, 18, 0)),
        ("周五", at(11, 20)),
        ("明天晚上8点", at(11, 19, 20, 0)),
        ("后天", at(11, 20)),
        ("今晚10点", at(11, 18, 22, 0)),
        ("by the 20th", at(11, 20)),
        ("the 20th", at(11, 20)),
        ("Friday 18:00", at(11, 20, 18, 0)),
        ("next friday 6pm", at(11, 27, 18, 0)),
        ("in 3 days", at(11, 21)),
        ("in 2 hours", at(11, 18, 16, 30)),
        ("3天后", at(11, 21)),
        ("Dec 20 18:00", at(12, 20, 18, 0)),
        ("20 Dec", at(12, 20)),
        # more Chinese forms
        ("十二月二十日", at(12, 20)),
        ("二十号", at(11, 20)),
        ("两天后", at(11, 20)),
        ("星期五下午6点", at(11, 20, 18, 0)),
        ("礼拜天", at(11, 22)),
        ("下周一 上午10点", at(11, 23, 10, 0)),
        ("下下周三", at(12, 2)),
        ("这周日", at(11, 22)),
        ("下个月5号", at(12, 5)),
        ("晚上8点半", at(11, 18, 20, 30)),
        ("下午3点15分", at(11, 18, 15, 15)),
        ("明天中午12点", at(11, 19, 12, 0)),
        ("中午1点", at(11, 19, 13, 0)),  # 13:00 today has passed
        ("凌晨2点", at(11, 19, 2, 0)),
        ("早上8点", at(11, 19, 8, 0)),
        ("明天0点", at(11, 19, 0, 0)),
        ("12月20日晚上6点前", at(12, 20, 18, 0)),
        ("截止12月20日", at(12, 20)),
        ("20号18:00", at(11, 20, 18, 0)),
        ("１８：００", at(11, 18, 18, 0)),  # full-width digits and colon
        ("11.20", at(11, 20)),
        ("2小时后", at(11, 18, 16, 30)),
        ("半小时后", at(11, 18, 15, 0)),
        ("2周后", at(12, 2)),
        ("月底", at(11, 30)),
        ("今晚", at(11, 18)),
        # more English forms
        ("at 6pm on friday", at(11, 20, 18, 0)),
        ("by 20th Dec", at(12, 20)),
        ("December 20th, 2026 6:30pm", at(12, 20, 18, 30)),
        ("tomorrow 8am", at(11, 19, 8, 0)),
        ("12am tomorrow", at(11, 19, 0, 0)),
        ("noon tomorrow", at(11, 19, 12, 0)),
        ("this sunday", at(11, 22)),
        ("mon 9am", at(11, 23, 9, 0)),
        ("in 1 week", at(11, 25)),
        ("in an hour", at(11, 18, 15, 30)),
        ("tonight", at(11, 18)),
        ("20/12", at(12, 20)),  # only day/month is possible
        # the bot's own echo can be pasted back
        ("12月20日 周日 18:00 (Asia/Shanghai)", at(12, 20, 18, 0)),
        ("Sun 20 Dec 18:00 (Asia/Shanghai)", at(12, 20, 18, 0)),
    ],
)
def test_parse_deadline_resolves_text_in_the_chat_zone(text: str, expected: datetime) -> None:
    result = parse_deadline(text, NOW, SH)
    assert result == expected
    assert result.tzinfo == SH


def test_date_without_time_means_end_of_that_day() -> None:
    assert parse_deadline("2026-12-20", NOW, SH).time().isoformat() == "23:59:00"


def test_day_of_month_already_passed_means_next_month() -> None:
    assert parse_deadline("10号", NOW, SH) == at(12, 10)


def test_day_of_month_in_december_rolls_into_next_year() -> None:
    now = datetime(2026, 12, 25, 9, 0, tzinfo=SH)
    assert parse_deadline("20号", now, SH) == at(1, 20, year=2027)


def test_day_of_month_missing_from_the_month_it_lands_in_is_refused_not_moved() -> None:
    now = datetime(2027, 1, 31, 23, 59, tzinfo=SH)  # 31号 is now; February has none
    with pytest.raises(DeadlineError) as caught:
        parse_deadline("31号", now, SH)
    assert (caught.value.code, caught.value.params) == (
        "deadline-no-such-date",
        {"date": "2月31日"},
    )


def test_today_as_day_of_month_counts_while_the_time_is_ahead() -> None:
    assert parse_deadline("18号", NOW, SH) == at(11, 18)
    assert parse_deadline("18号 12:00", NOW, SH) == at(12, 18, 12, 0)


def test_month_day_passed_this_year_means_next_year() -> None:
    assert parse_deadline("3月1日", NOW, SH) == at(3, 1, year=2027)


def test_weekday_today_counts_only_if_time_is_still_ahead() -> None:
    assert parse_deadline("周三 18:00", NOW, SH) == at(11, 18, 18, 0)
    assert parse_deadline("周三 14:00", NOW, SH) == at(11, 25, 14, 0)
    assert parse_deadline("Wednesday", NOW, SH) == at(11, 18)


def test_next_week_weekday_uses_monday_start_weeks_even_on_sunday() -> None:
    sunday = datetime(2026, 11, 22, 10, 0, tzinfo=SH)
    assert parse_deadline("周五", sunday, SH) == at(11, 27)
    assert parse_deadline("下周五", sunday, SH) == at(11, 27)
    assert parse_deadline("下周一", sunday, SH) == at(11, 23)


def test_a_time_on_a_24_hour_clock_already_passed_today_means_tomorrow() -> None:
    assert parse_deadline("18:00", NOW, SH) == at(11, 18, 18, 0)
    assert parse_deadline("09:00", NOW, SH) == at(11, 19, 9, 0)


def test_a_bare_hour_with_two_plausible_readings_is_asked_about() -> None:
    with pytest.raises(AmbiguousHour) as asked:
        parse_deadline("10:00", NOW, SH)
    assert asked.value.choices == (at(11, 18, 22, 0), at(11, 19, 10, 0))
    assert asked.value.params == {
        "first": "11月18日 周三 22:00 (Asia/Shanghai)",
        "second": "11月19日 周四 10:00 (Asia/Shanghai)",
    }


@pytest.mark.parametrize(
    "text", ["2025-01-01", "本月10号", "上周一", "今天 09:00", "今晚", "2026-11-18 14:30"]
)
def test_explicit_moment_not_in_future_is_refused_as_past(text: str) -> None:
    now = NOW.replace(hour=23, minute=59) if text == "今晚" else NOW
    with pytest.raises(DeadlineError) as caught:
        parse_deadline(text, now, SH)
    assert caught.value.code == "deadline-past"
    assert "(Asia/Shanghai)" in str(caught.value.params["when"])


def test_past_refusal_words_when_in_the_chat_language() -> None:
    with pytest.raises(DeadlineError) as caught:
        parse_deadline("2026-11-16", NOW, SH, lang="en")
    assert caught.value.params == {"when": "Mon 16 Nov 23:59 (Asia/Shanghai) (1 day 14 hours ago)"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "soon",
        "25:00",
        "13pm",
        "20号 21号",
        "周五 下周五",
        "in 2 hours 18:00",
        "report the 20th maybe",
    ],
)
def test_unreadable_or_contradictory_text_is_refused(text: str) -> None:
    with pytest.raises(DeadlineError) as caught:
        parse_deadline(text, NOW, SH)
    assert caught.value.code == "deadline-unparsed"
    assert "text" not in caught.value.params  # the caller adds it


def test_now_in_another_zone_is_converted_before_resolving() -> None:
    utc_now = datetime(2026, 11, 18, 16, 30, tzinfo=UTC)  # 00:30 on the 19th in Shanghai
    assert parse_deadline("明天", utc_now, SH) == at(11, 20)


def test_naive_now_is_taken_as_chat_local_time() -> None:
    assert parse_deadline("明天", NOW.replace(tzinfo=None), SH) == at(11, 19)


def test_in_hours_is_exact_elapsed_time_across_a_dst_change() -> None:
    ny = ZoneInfo("America/New_York")
    before_change = datetime(2026, 11, 1, 0, 30, tzinfo=ny)  # clocks fall back at 02:00
    result = parse_deadline("in 3 hours", before_change, ny)
    assert result.astimezone(UTC) - before_change.astimezone(UTC) == timedelta(hours=3)
    assert result.astimezone(UTC) == datetime(2026, 11, 1, 7, 30, tzinfo=UTC)


def test_format_deadline_in_chinese_and_english() -> None:
    when = at(12, 20, 18, 0)
    assert format_deadline(when, SH, "zh") == "12月20日 周日 18:00 (Asia/Shanghai)"
    assert format_deadline(when, SH, "en") == "Sun 20 Dec 18:00 (Asia/Shanghai)"


def test_format_deadline_shows_the_chat_zone_not_the_stored_one() -> None:
    stored = datetime(2026, 12, 20, 10, 0, tzinfo=UTC)
    assert format_deadline(stored, SH, "en") == "Sun 20 Dec 18:00 (Asia/Shanghai)"


@given(
    day=st.integers(1, 31),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2030, 12, 31)),
)
def test_day_of_month_always_lands_ahead_on_that_day(day: int, now: datetime) -> None:
    try:
        result = parse_deadline(f"{day}号", now, SH)
    except DeadlineError as refused:  # the month it falls in has no such day: said so
        assert refused.code == "deadline-no-such-date" and day >= 29
        return
    local_now = now.replace(tzinfo=SH)
    assert local_now < result <= local_now + timedelta(days=62)
    assert (result.day, result.hour, result.minute) == (day, 23, 59)


@given(
    weekday=st.sampled_from("一二三四五六日"),
    hour=st.integers(0, 23),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2030, 12, 31)),
)
def test_weekday_is_the_next_one_within_a_week(weekday: str, hour: int, now: datetime) -> None:
    try:
        results: tuple[datetime, ...] = (parse_deadline(f"周{weekday} {hour}:00", now, SH),)
    except AmbiguousHour as asked:  # 10:00: 10:00 or 22:00, both that day
        results = asked.choices
        assert 1 <= hour <= 12
    local_now = now.replace(tzinfo=SH)
    for result in results:
        assert local_now < result <= local_now + timedelta(days=7)
        assert result.weekday() == "一二三四五六日".index(weekday)


@given(minutes=st.integers(1, 364 * 24 * 60))
def test_echo_of_a_deadline_within_a_year_parses_back_to_it(minutes: int) -> None:
    deadline = NOW + timedelta(minutes=minutes)  # the echo has no year: within a year only
    for lang in ("zh", "en"):
        assert parse_deadline(format_deadline(deadline, SH, lang), NOW, SH) == deadline


def test_a_reading_button_carries_its_target_and_minute_and_garbage_is_stale() -> None:
    when = at(11, 19, 9, 0)
    for target, prefix in ((Target("t", 17, 2, 3), HOUR_BUTTON), (Target("o", 5, 1), OPEN_BUTTON)):
        data = target.button(when)
        assert data.startswith(f"{prefix}:") and len(data.encode()) <= 64
        assert Target.pressed(data.partition(":")[2]) == (target, when.astimezone(UTC))
    for garbled in (
        "",
        "x",
        "r1.2.3",
        "r1.2.3.²",
        "rA.1.1.1",
        "q1.1.1.1",
        "r" + "z" * 12 + ".1.1.1",
    ):
        with pytest.raises(UserError) as refused:
            Target.pressed(garbled)
        assert refused.value.key == "refuse.deadline-choice-stale"
