"""Free-text deadlines in Chinese or English, simplified or traditional.

Organisers write deadlines the way they talk: ``20号之前上报``, ``下周五 18:00``,
``禮拜日晚八點``, ``3天内``, ``by the 20th``, ``friday at 6:30pm``, ``EOW``, ``4pm CET``.
:func:`resolve_deadline` turns such text into an aware datetime in the chat's zone, and
the bot echoes it back with :func:`format_deadline` (weekday, time, zone, the year when it
is not this year, and how long is left) so a misreading is caught at once.

The parser is a small hand-written grammar and pure: ``now`` is passed in, nothing reads
the clock. Text is first brought to one spelling (traditional characters to simplified,
Cantonese and Taiwan words, English number and ordinal words to digits, the start of a
range dropped so its end remains); then it takes an offset (from now, or from the moment
the rest names), a time part and a date part independently, and refuses if anything
unrecognised is left over (guessing a deadline from half-understood text is worse than
asking again). A refusal always says why (``DeadlineError.code``).

Resolution rules:

- a date without a time means the end of that day, 23:59; a part of the day alone means
  the end of that part (上午/morning 12:00, 下午/afternoon 18:00, 晚上/evening/night 23:59,
  早上 09:00, 中午/noon 12:00);
- a period means its end: 这周/本周/``this week``/周末/EOW this week's Sunday 23:59,
  下周/``next week`` next week's, ``the week of Dec 14``/12月14日那周 the Sunday ending
  that day's week (in English a Sunday names the week it begins); 这个月/月底/EOM,
  下个月, 3月/``March``, ``next March``/下个三月 (the first after this month), ``March
  after next``/下下个三月, 上中下旬, 本季度/``next quarter``/``3rd qtr``/``2027Q3``/
  2027年第三季度, 今年, 明年/下年 the last day of that span; ``3天内``/``下三天``/
  ``next 3 days`` the end of the third day from today (``a few``/几 is three), ``一个月内``
  the same day next month;
- holidays on a fixed date (圣诞节, ``halloween``) or weekday (母亲节, ``thanksgiving``),
  and ``the 2nd sunday of may``/五月第二个周日, ``last friday of next month``, ``friday
  after next``; ``3 fridays from now``/往后第三个周五 is the third Friday after today;
- ``48小时内``/``后三小时``/``in 1h``/``in 15``/``in half an hour``/``1小时30分钟后``/
  再过15分钟 are exact offsets from now; ``15 minutes from 1pm``/下午1点后15分钟 and ``3
  days after christmas``/圣诞节后三天 are offsets from the moment named (minutes and
  hours exact, days and more on the calendar); seconds are refused (``in a second`` is
  not the 2nd), and dropped from a time of day (``9:01:10``, 3点20分10秒);
- 24点, 24:00, 晚上12点, 半夜 and ``midnight`` are the midnight that ends that day; 半夜/
  深夜/晚上 1-4点 are the small hours after that day;
- a range means its end (``3-4pm``, ``July 13-15``, ``周五到周日``, ``from the 13th to
  the 15th``, ``9:30 until 11:00``, ``later than 3pm but before 6pm``, 从13号到15号);
- a time on a 24-hour clock is read as written: an hour of 13-23, a zero-padded hour
  (``09:30``), the ``9h30`` form, and a two-digit hour beside a date written with its
  year (``2026-12-04 11:09``, ``Dec 4 2026 11:09``: ISO 8601 and the like);
- any other bare hour (1-12 o'clock without 上午/下午/晚上/am/pm: 三点, ``at 3``,
  ``3:30``, ``11:30``) is read on a 12-hour clock: of its two readings only those ahead
  count, and a small-hours reading (00:00-06:59) only when no day is written and it is
  the very next one (or the only one ahead); 12's night reading is the midnight ending
  the day; if two readings remain, :class:`AmbiguousHour` carries both and the caller
  asks which is meant;
- a time in a named zone (``GMT``, ``CET``, ``UTC+8``, ``北京时间``) is read in that zone
  and converted into the chat's (:attr:`Resolved.converted` says so);
- a day of the month that has passed means next month, but a month without that day is
  refused (``30号`` in February), never moved to the month after; a month/day that has
  passed this year means next year; a bare weekday means the next such day (today only
  if the time is still ahead); a bare time means its next occurrence;
- ``下周五``/``next friday``/``friday next week`` are Friday of next week (weeks start on
  Monday); ``这周五``/``this friday`` Friday of this week, or of next week once this
  week's has passed (这周一 said on a Tuesday is next Monday);
- ``a/b`` with both parts 12 or less is ambiguous (3/4: 4 March or 3 April) and both
  readings are offered; other numeric ``a/b`` dates are month/day unless only day/month
  is possible (``20/12``);
- a wall time a clock change skips moves forward to the first valid minute
  (:attr:`Resolved.skipped` says so); a wall time that happens twice is the earlier
  instant; "ahead of now" is judged in absolute time;
- anything explicit (a year, ``本月``, ``今天``, ``昨天``, ``上周五``, ``3天前``) that is
  not in the future is refused with ``deadline-past`` rather than silently moved.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import MAXYEAR, MINYEAR, UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.language.deadline_spelling import (
    CN_DIGITS,
    CN_NUM,
    EN_WEEKDAY,
    EN_WEEKDAYS,
    MONTH_NAME,
    MONTHS,
    NUM,
    cn_int,
    normalise,
)
from bot.language.zones import ZoneError, take_zone

END_OF_DAY = time(23, 59)
CN_WEEKDAYS = "一二三四五六日"  # index = Monday-based weekday; 天 and 7 also mean Sunday
WEEK_OFFSETS = {
    "": None, "this": 0, "这": 0, "这个": 0, "本": 0, "next": 1, "下": 1, "下个": 1, "下下": 2,
    "下下个": 2, "last": -1, "上": -1, "上个": -1,
}  # fmt: skip
ZH_WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
EN_WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_MONTH_NAMES = tuple(m.capitalize() for m in MONTHS)
AFTER = r"\s*(?:后|之后|以后)"
WITHIN = r"\s*(?:内|之内|以内)"
# Words that may surround a deadline without changing it ("20号之前报成绩", "by the 20th").
FILLER = re.compile(
    r"\b(?:by|before|until|till|til|due|on|at|the|of|in|from|deadline|report|results?|please"
    r"|pls|latest|no later than|not later than|prior to|is|it|submit|send|be|done|games?"
    r"|matches?|finished|complete|round|for|more|some\s*time|any\s*time|later|over|through"
    r"|thru|during)\b|@"
    r"|之前|以前|为止|截止到?|截至|最迟|前|到|在|上报|报告|报成绩|成绩|结果|比赛|完成|结束|的|请|报|从|自"
    r"|之内|以内|内|之间|时间|日期|为|是|要|需要|必须|须|交|提交|打完|比完|搞定|ddl"
    r"|[,，.。:;；!！、()（）\s]"
)
# A part of the day written alone ("明天上午") means its end; 半夜 is midnight.
PERIOD_ENDS = {
    "凌晨": time(6, 0), "早上": time(9, 0), "早晨": time(9, 0), "早": time(9, 0),
    "上午": time(12, 0), "中午": time(12, 0), "下午": time(18, 0), "白天": time(18, 0),
    "傍晚": time(19, 0),
    "晚上": END_OF_DAY, "晚": END_OF_DAY, "夜里": END_OF_DAY, "夜": END_OF_DAY,
    "深夜": END_OF_DAY,
}  # fmt: skip
_PERIODS = "凌晨|早上|早晨|上午|中午|下午|白天|傍晚|晚上|夜里|深夜|半夜|晚|早|夜"
_PM_PERIODS = ("下午", "傍晚", "晚上", "晚", "夜里", "夜", "深夜", "半夜")
_NIGHT_PERIODS = ("晚上", "晚", "夜里", "夜", "深夜", "半夜")  # 12点: the day's end; 1-4点 after it
SMALL_HOURS_END = 7  # a reading before 07:00 is "in the small hours"


class DeadlineError(Exception):
    """The text is not a usable deadline: ``code`` names the catalogue message.

    Codes (the caller adds ``text``):
    ``deadline-unparsed`` (no params);
    ``deadline-past`` (``when``: the resolved moment, formatted);
    ``deadline-no-such-date`` (``date``: e.g. ``2月30日``);
    ``deadline-weekday-clash`` (``date``: the date with its real weekday; ``written``);
    ``deadline-week-clash`` (``date``; ``written``: the day the named weekday is);
    ``deadline-ambiguous`` (``first``, ``second``: the two readings);
    ``deadline-which-hour`` (``first``, ``second``: see :class:`AmbiguousHour`).
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, object] = params


class AmbiguousHour(DeadlineError):
    """A bare hour whose morning and evening readings are both plausible (``8点`` typed at
    14:30: 20:00 today or 08:00 tomorrow). ``choices`` are the two moments, earlier first,
    in the chat's zone; the caller asks which one is meant rather than guess."""

    def __init__(self, choices: tuple[datetime, datetime], tz: ZoneInfo, lang: str) -> None:
        super().__init__(
            "deadline-which-hour",
            first=format_deadline(choices[0], tz, lang),
            second=format_deadline(choices[1], tz, lang),
        )
        self.choices = choices


@dataclass(frozen=True)
class Resolved:
    """A deadline read from text. ``skipped`` is the written wall time (``02:30``) when a
    clock change skips it and ``when`` is the first valid minute after it; ``period`` is
    set when a span was named (下周, ``next month``) and ``when`` is its end;
    ``converted`` is the written time in the zone it named (``Thu 08:00 GMT``) when that
    differs from the chat's."""

    when: datetime
    skipped: str | None = None
    period: bool = False
    converted: str | None = None


Missing = tuple[int, int, int]  # a year, month and day that do not make a date


@dataclass(frozen=True)
class _Date:
    """A date part. ``pick(k)`` is the k-th candidate day: rolling forms ("20号", "Friday")
    try k = 0, 1, … until the moment is ahead; fixed forms only ever use k = 0. A
    :data:`Missing` candidate (31 April) is refused, or skipped where ``skip`` (2月29日
    rolls on to a leap year). ``period`` marks the last day of a named span; ``clock24``
    a date written with its year (``2026-12-04``), beside which ``11:09`` is 24-hour."""

    pick: Callable[[int], date | Missing]
    rolls: bool
    skip: bool = False
    period: bool = False
    clock24: bool = False


@dataclass(frozen=True)
class _Clock:
    """A time part; ``next_day`` marks a time after the day's end (24点, 半夜两点);
    ``bare`` an hour of 1-12 written without am/pm: ``at`` is its morning reading."""

    at: time
    next_day: bool = False
    bare: bool = False


def _cn_int(text: str) -> int:
    """A small number in digits or Chinese; a malformed one (十十) is unreadable."""
    try:
        return cn_int(text)
    except ValueError:
        raise DeadlineError("deadline-unparsed") from None


# --- time of day -----------------------------------------------------------------------------
_TIME_RE = re.compile(
    r"(?:(?P<h1>\d{1,2})\s*(?::|(?P<hsep>h)(?=\d{2}))\s*(?P<m1>\d{2})(?!\d)"
    rf"|(?<!周)(?P<h2>{NUM})\s*[点时]钟?\s*(?:过?\s*(?:(?P<half>半)|(?P<quarter>一刻|三刻)"
    rf"|(?P<m2>{NUM})\s*(?P<fen>分钟?)?)|整)?"
    r"|(?P<h3>\d{1,2})(?:\.(?P<m3>\d{2}))?(?=\s*[ap]\.?\s?m\b|[ap]\b)"
    r"|\bat\s+(?P<h4>\d{1,2})\b(?![-/.:号日]))"
    r"(?:\s*(?P<ampm>[ap])\.?\s?m\b\.?|(?<=\d)(?P<ampm2>[ap])\b)?"
)
_PERIOD_RE = re.compile(rf"(?P<period>{_PERIODS})(?!于)")
_LONE_HOUR = re.compile(r"(?<![\d.:/-])(?<!\bthe )\b(?P<h>\d{1,2})\b(?![\d.:/-])")


@dataclass(frozen=True)
class _Written:
    """A time of day as written: the hour and minute, am/pm, whether it is on a 24-hour
    clock (a leading zero, ``09:00``; ``9h30``; the bot's own echo pasted back), and
    whether its hour has two digits before a colon (``11:09``: 24-hour beside a date
    written with its year)."""

    hour: int
    minute: int
    ampm: str | None = None
    clock24: bool = False
    wide: bool = False


def _take_time(text: str) -> tuple[_Written | None, str]:
    """Find at most one written time of day; return it and the text without it."""
    found = [m for m in _TIME_RE.finditer(text) if m.group("h1", "h2", "h3", "h4") != (None,) * 4]
    if not found:
        return None, text
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    raw_hour = m.group("h1") or m.group("h2") or m.group("h3") or m.group("h4")
    hour = _cn_int(raw_hour)
    if m.group("half"):
        minute = 30
    elif m.group("quarter"):
        minute = 15 if m.group("quarter") == "一刻" else 45
    else:
        raw_minute = m.group("m1") or m.group("m2") or m.group("m3") or "0"
        single = m.group("m2") and len(raw_minute) == 1 and not raw_minute.isascii()
        if single and not m.group("fen"):  # 八点五: 8:05 or (in Cantonese) 8:25? Not guessed.
            raise DeadlineError("deadline-unparsed")
        minute = _cn_int(raw_minute)
    ampm = m.group("ampm") or m.group("ampm2")
    if (ampm and not 1 <= hour <= 12) or minute > 59:  # "13pm", "0am"
        raise DeadlineError("deadline-unparsed")
    padded = len(raw_hour) == 2 and raw_hour.startswith("0")
    wide = m.group("h1") is not None and len(raw_hour) == 2
    written = _Written(hour, minute, ampm, padded or m.group("hsep") is not None, wide)
    return written, text[: m.start()] + " " + text[m.end() :]


def _take_period(text: str) -> tuple[str | None, str]:
    """A part of the day (上午, 晚上, …): at most one."""
    found = list(_PERIOD_RE.finditer(text))
    if not found:
        return None, text
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    return m.group("period"), text[: m.start()] + " " + text[m.end() :]


def _clock(written: _Written | None, period: str | None) -> _Clock | None:
    """The time meant by a written time and a part of the day, either possibly absent."""
    if written is None:
        if period is None:
            return None
        if period == "半夜":
            return _Clock(time(0, 0), next_day=True)
        return _Clock(PERIOD_ENDS[period])
    hour, minute, ampm = written.hour, written.minute, written.ampm
    if (hour == 24 and minute == 0) or (hour == 12 and period in _NIGHT_PERIODS):
        return _Clock(time(0, minute), next_day=True)  # 半夜十二点半: 00:30 after that day
    if ampm == "p" and hour < 12:
        hour += 12
    elif ampm == "a" and hour == 12:
        hour = 0
    elif ampm is None and period in _NIGHT_PERIODS and 1 <= hour <= 4:
        return _Clock(time(hour, minute), next_day=True)  # 半夜两点: the night after that day
    elif ampm is None and (
        (period in _PM_PERIODS and 1 <= hour < 12)
        or (period == "中午" and 1 <= hour < 6)
        or (period == "白天" and 1 <= hour < 7)
    ):
        hour += 12
    elif ampm is None and period == "凌晨" and hour == 12:
        hour = 0
    if hour > 23:
        raise DeadlineError("deadline-unparsed")
    bare = ampm is None and period is None and 1 <= hour <= 12 and not written.clock24
    return _Clock(time(hour % 12 if bare else hour, minute), bare=bare)


# --- offsets from now ------------------------------------------------------------------------
_DELTA_RE = re.compile(
    rf"(?P<n>\d{{1,3}}(?:\.\d+)?|{CN_NUM}|半)\s*(?P<half>个半)?\s*个?\s*(?P<unit>小时|分钟)"
    rf"(?:{AFTER}|{WITHIN})"
    r"|\bin\s+(?P<n2>\d{1,3}(?:\.\d+)?|an?)\s*(?P<unit2>hours?|hrs?|h|minutes?|mins?|m)\b"
)


def _take_delta(text: str) -> tuple[timedelta | None, str]:
    """An exact offset from now: "2小时后", "48小时内", "in 2 hours", "in 1h"."""
    m = _DELTA_RE.search(text)
    if m is None:
        return None, text
    raw = m.group("n") or m.group("n2")
    unit = m.group("unit") or m.group("unit2")
    if raw == "半":
        amount = 0.5
    elif raw in ("a", "an"):
        amount = 1.0
    elif re.fullmatch(r"\d+\.\d+", raw):
        amount = float(raw)
    else:
        amount = float(_cn_int(raw))
    if m.group("half"):
        amount += 0.5
    minutes = amount if unit.startswith(("分", "m")) else amount * 60
    if minutes < 1:  # under a minute (半分钟) is no deadline
        raise DeadlineError("deadline-unparsed")
    return timedelta(minutes=round(minutes)), text[: m.start()] + " " + text[m.end() :]


# --- dates -----------------------------------------------------------------------------------
def _valid(year: int, month: int, day: int) -> date | Missing:
    try:
        return date(year, month, day)
    except ValueError:
        return (year, month, day)


def _month_index(today: date, months_ahead: int) -> tuple[int, int]:
    index = today.year * 12 + today.month - 1 + months_ahead
    return index // 12, index % 12 + 1


def _in_month(today: date, months_ahead: int, day: int) -> date | Missing:
    return _valid(*_month_index(today, months_ahead), day)


def _last_of(year: int, month: int) -> date:
    """The month's last day; a month that does not exist ("20月底") is unreadable."""
    if not (1 <= month <= 12 and MINYEAR <= year <= MAXYEAR):
        raise DeadlineError("deadline-unparsed")
    return date(year, month, calendar.monthrange(year, month)[1])


def _year(text: str) -> int:
    """``2027`` or ``二〇二七``."""
    return int("".join(str(CN_DIGITS[c]) if c in CN_DIGITS else c for c in text))


def _month_day(today: date, month: int, day: int, year: str | None = None) -> _Date:
    if month > 12 and day <= 12:  # "20/12": only day/month is possible
        month, day = day, month
    if year:
        return _Date(lambda _: _valid(_year(year), month, day), rolls=False, clock24=True)
    return _Date(lambda k: _valid(today.year + k, month, day), rolls=True, skip=True)


def _numeric(m: re.Match[str], today: date, lang: str) -> _Date:
    """``12-20``, ``11.20``, ``3/4``: a slash with two parts of 12 or less is ambiguous."""
    a, b = _num(m, "mo2"), _num(m, "d2")
    if m.group("sep") == "/" and a != b and a <= 12 and b <= 12:
        raise DeadlineError(
            "deadline-ambiguous",
            first=_month_day_words(a, b, lang),
            second=_month_day_words(b, a, lang),
        )
    return _month_day(today, a, b)


def _weekday(today: date, weekday: int, week: str) -> _Date:
    """A weekday, alone (the next one), in this week (this week's, or next week's once it
    has passed: 这周一 said on a Tuesday), or in a week before or after this one."""
    offset = WEEK_OFFSETS[week]
    monday = today - timedelta(days=today.weekday())
    if offset is None:  # the next such day, today included while the time is ahead
        ahead = (weekday - today.weekday()) % 7
        return _Date(lambda k: today + timedelta(days=ahead + 7 * k), rolls=True)
    if offset == 0:
        return _Date(lambda k: monday + timedelta(days=weekday + 7 * k), rolls=True)
    return _Date(lambda _: monday + timedelta(days=7 * offset + weekday), rolls=False)


def _week_end(today: date, weeks_ahead: int) -> _Date:
    sunday = today + timedelta(days=6 - today.weekday() + 7 * weeks_ahead)
    return _Date(lambda _: sunday, rolls=False, period=True)


def _days(today: date, days: int, period: bool = False) -> _Date:
    return _Date(lambda _: today + timedelta(days=days), rolls=False, period=period)


def _months(today: date, months: int) -> _Date:
    """The same day ``months`` later, or that month's last day when it is shorter."""
    year, month = _month_index(today, months)
    last = _last_of(year, month)
    day = last if today.day > last.day else last.replace(day=today.day)
    return _Date(lambda _: day, rolls=False, period=True)


def _month_end(today: date, months_ahead: int) -> _Date:
    return _Date(lambda _: _last_of(*_month_index(today, months_ahead)), rolls=False, period=True)


def _named_month_end(month: int, today: date) -> _Date:
    """The end of a month named without a year: this year's, or next year's once past."""
    return _Date(lambda k: _last_of(today.year + k, month), rolls=True, period=True)


def _next_month_named(m: re.Match[str], today: date, lang: str) -> _Date:
    """``next March``/下个三月: the first March after this month; ``March after
    next``/下下个三月: the one after that."""
    month = _num(m, "mo") if m.group("mo") else _month_of(m, "mon", "mon2")
    after = 1 if m.group("after") or m.group("w") == "下下个" else 0
    year = today.year + (month <= today.month) + after
    return _Date(lambda _: _last_of(year, month), rolls=False, period=True)


def _weekdays_on(m: re.Match[str], today: date, lang: str) -> _Date:
    """``3 fridays from now``/往后第三个周五: the n-th such weekday after today."""
    if m.group("ewd"):
        weekday, count = EN_WEEKDAYS[m.group("ewd")], _count(m, "n")
    else:
        weekday = _cn_weekday(m, "cwd" if m.group("cwd") else "cwd2")
        count = _num(m, "n2", "n3")
    if count < 1:
        raise DeadlineError("deadline-unparsed")
    return _days(today, (weekday - today.weekday() - 1) % 7 + 1 + 7 * (count - 1))


def _week_of(day: _Date, sunday_begins: bool) -> _Date:
    """``the week of Dec 14``/12月14日那周: the Sunday ending that day's week (Monday to
    Sunday). In English a week is named by its first day, and a Sunday may be one: ``the
    week of Sunday 13 Dec`` ends on the 20th, 12月13日那周 on the 13th."""

    def sunday(k: int) -> date | Missing:
        found = day.pick(k)
        if not isinstance(found, date):
            return found
        return found + timedelta(days=6 - found.weekday() or (7 if sunday_begins else 0))

    return replace(day, pick=sunday, period=True)


# The spelling's marks for "the week of …" (bot.language.deadline_spelling): whether a
# Sunday names the week it begins, as an English week of Sunday to Saturday does.
_WEEK_OF = {"那周": False, "weekof": True}


def _num(m: re.Match[str], *groups: str) -> int:
    """The first of ``groups`` that matched, as an int."""
    return _cn_int(next(m.group(g) for g in groups if m.group(g)))


def _count(m: re.Match[str], *groups: str) -> int:
    """A count that may be written ``a``/``an``."""
    raw = next(m.group(g) for g in groups if m.group(g))
    return 1 if raw in ("a", "an") else _cn_int(raw)


def _month_of(m: re.Match[str], *groups: str) -> int:
    return MONTHS.index(next(m.group(g) for g in groups if m.group(g))[:3]) + 1


def _cn_weekday(m: re.Match[str], group: str = "wd") -> int:
    ch = m.group(group)
    return 6 if ch in "天7" else int(ch) - 1 if ch.isdigit() else CN_WEEKDAYS.index(ch)


def _month_ahead(which: str) -> int:
    return 1 if which.startswith("下") else -1 if which.startswith("上") else 0


def _month_of_year(m: re.Match[str], today: date, lang: str) -> _Date:
    """A month of this, next or last year; its end, or a day of it."""
    year = today.year + {"今年": 0, "明年": 1, "去年": -1}[m.group("which")]
    month = _num(m, "mo") if m.group("mo") else _month_of(m, "mon")
    if m.group("d"):
        return _month_day(today, month, _num(m, "d"), str(year))
    return _Date(lambda _: _last_of(year, month), rolls=False, period=True)


def _refuse() -> _Date:
    raise DeadlineError("deadline-unparsed")


def _ten_days(m: re.Match[str], today: date, lang: str) -> _Date:
    """上旬, 中旬, 下旬: the end of the first, second or last third of a month."""

    def end(year: int, month: int) -> date:
        last = _last_of(year, month)
        return (
            last
            if m.group("part") == "下"
            else last.replace(day=10 if m.group("part") == "上" else 20)
        )

    if m.group("mo"):
        month = _num(m, "mo")
        return _Date(lambda k: end(today.year + k, month), rolls=True, period=True)
    year, month = _month_index(today, _month_ahead(m.group("which") or ""))
    return _Date(lambda _: end(year, month), rolls=False, period=True)


def _nth_weekday(m: re.Match[str], today: date, lang: str) -> _Date:
    """The n-th (or last) weekday of a month: of a named month this year (next year once
    it has passed, unless a year is written), or of this or next month."""
    weekday = EN_WEEKDAYS[m.group("nwd")]

    def of(year: int, month: int) -> date | Missing:
        if m.group("last"):
            last = _last_of(year, month)
            return last - timedelta(days=(last.weekday() - weekday) % 7)
        first = date(year, month, 1)
        day = 1 + (weekday - first.weekday()) % 7 + 7 * (int(m.group("nth")) - 1)
        return _valid(year, month, day)

    if m.group("which"):
        year, month = _month_index(today, _month_ahead(m.group("which")))
        return _Date(lambda _: of(year, month), rolls=False)
    month = _month_of(m, "mon")
    if m.group("y"):
        return _Date(lambda _: of(int(m.group("y")), month), rolls=False)
    return _Date(lambda k: of(today.year + k, month), rolls=True)


def _numeric_with_year(m: re.Match[str], today: date, lang: str) -> _Date:
    """``3/3/2015``: month/day/year, unless only day/month/year is possible; two parts of
    12 or less that differ are ambiguous (``3/4/2027``)."""
    a, b = int(m.group("a")), int(m.group("b"))
    year = m.group("y") if len(m.group("y")) == 4 else f"20{m.group('y')}"
    if a != b and a <= 12 and b <= 12:
        raise DeadlineError(
            "deadline-ambiguous",
            first=_month_day_words(a, b, lang),
            second=_month_day_words(b, a, lang),
        )
    return _month_day(today, a, b, year)


def _quarter(m: re.Match[str], today: date, lang: str) -> _Date:
    """The last day of a quarter: this one, the next, or the n-th (this year's, or next
    year's once it has passed, unless a year is written)."""
    current = (today.month - 1) // 3
    named = next((m.group(g) for g in ("n", "q", "q2", "q3", "cn", "cn2") if m.group(g)), None)
    if named is None:
        ahead = 1 if (m.group("which") or "").startswith("下") else 0
        year, month = _month_index(today, 3 * (current + ahead) - today.month + 3)
        return _Date(lambda _: _last_of(year, month), rolls=False, period=True)
    end = 3 * _cn_int(named)
    written = next((m.group(g) for g in ("y", "y2", "y3", "y4") if m.group(g)), None)
    if written:
        y = _year(written) if len(written) == 4 else 2000 + int(written)  # 27q1: 2027
        return _Date(lambda _: _last_of(y, end), rolls=False, period=True)
    return _Date(lambda k: _last_of(today.year + k, end), rolls=True, period=True)


_DateRule = tuple[re.Pattern[str], Callable[[re.Match[str], date, str], _Date]]
_N = rf"(?P<n>\d{{1,3}}|{CN_NUM})"
_YEAR = r"\d{4}|[〇零一二三四五六七八九]{4}"
_ORD = r"(?:st|nd|rd|th)"
_WHICH_MONTH = "本月|这个?月|下个?月|上个?月"
_DATE_RULES: tuple[_DateRule, ...] = tuple(
    (re.compile(pattern), build)
    for pattern, build in (
        (  # 2nd sunday of may, last monday of march 2027, 1st friday of next month
            rf"\b(?:(?P<nth>[1-5])(?:st|nd|rd|th)|(?P<last>last))\s+(?P<nwd>{EN_WEEKDAY})\s+"
            rf"(?:of|in)\s+(?:(?P<mon>{MONTH_NAME})(?:,?\s*(?P<y>\d{{4}}))?|(?P<which>{_WHICH_MONTH}))",
            _nth_weekday,
        ),
        (  # 3 fridays from now (by now "in 3 friday"), 往后第三个周五, 三个周五后, 再过两个周日
            rf"\bin\s+(?P<n>\d{{1,2}}|an?)\s+(?P<ewd>{EN_WEEKDAY})s?\b"
            rf"|(?:往后数?|接下来的?|再过)\s*第?\s*(?P<n2>{NUM})\s*个\s*周(?P<cwd>[一二三四五六日天1-7])"
            rf"|(?P<n3>{NUM})\s*个\s*周(?P<cwd2>[一二三四五六日天1-7])\s*(?:后|之后|以后)",
            _weekdays_on,
        ),
        (  # next march, march after next, 下个三月, 下下个三月
            rf"\b(?:next\s+)?(?P<mon>{MONTH_NAME})\s+(?P<after>after\s+next)\b"
            rf"|\bnext\s+(?P<mon2>{MONTH_NAME})|(?P<w>下下个|下个)\s*(?P<mo>{NUM})\s*月份?",
            _next_month_named,
        ),
        (  # wednesday after next
            rf"\b(?P<awd>{EN_WEEKDAY})\s+after\s+next\b",
            lambda m, t, _: _days(t, ((EN_WEEKDAYS[m.group("awd")] - t.weekday()) % 7 or 7) + 7),
        ),
        (  # 3/3/2015, 10/31/74, 31.10.2027: day and month told apart only when one is > 12
            r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/.-])",
            _numeric_with_year,
        ),
        (  # this quarter, next quarter, 3rd quarter of 2027, q3, 2027q3, 本季度, 2027年第三季度
            r"(?P<which>本|这个?|下个?)季度|季度?[末底]"
            r"|\b(?:(?P<n>[1-4])(?:st|nd|rd|th) quarter|q(?P<q>[1-4]))"
            r"(?:\s*(?:of\s+)?(?P<y>\d{4}))?"
            r"|\b(?P<y2>\d{4}|\d{2})\s*q(?P<q2>[1-4])\b|(?P<y4>\d{4})\s*年\s*q(?P<q3>[1-4])\b"
            rf"|(?:(?P<y3>{_YEAR})\s*年\s*)?(?:第\s*(?P<cn>[一二三四1-4])|(?P<cn2>[一二三四]))\s*季度[末底]?",
            _quarter,
        ),
        (  # in 2 years, 一年后, 两年内
            rf"{_N}\s*年(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,2}}|an?)\s+years?\b",
            lambda m, t, _: _months(t, 12 * _count(m, "n", "n2")),
        ),
        (  # 2026-12-20, 2026/12/20, 2026年12月20日, 2026年二月十五号
            r"(?P<y>\d{4})\s*[-/.]\s*(?P<mo>\d{1,2})\s*[-/.]\s*(?P<d>\d{1,2})"
            rf"|(?P<y2>{_YEAR})\s*年\s*(?P<mo2>{NUM})\s*月\s*(?P<d2>{NUM})\s*[日号]?",
            lambda m, t, _: _month_day(
                t, _num(m, "mo", "mo2"), _num(m, "d", "d2"), m.group("y") or m.group("y2")
            ),
        ),
        (  # 2027-10, 2027/3, 3/2027: a month of a year
            r"(?<![\d/.-])(?:(?P<y>\d{4})\s*[-/.]\s*(?P<mo>\d{1,2})|(?P<mo2>\d{1,2})\s*/\s*"
            r"(?P<y2>\d{4}))(?![\d/.-])",
            lambda m, t, _: _Date(
                lambda _: _last_of(int(m.group("y") or m.group("y2")), _num(m, "mo", "mo2")),
                False,
                period=True,
            ),
        ),
        (  # 今年3月5号, 明年一月, 明年3月底, september next year: a month of this or next year
            rf"(?P<which>今年|明年|去年)\s*(?:(?P<mo>{NUM})\s*月(?:份)?\s*(?:[底末]|(?P<d>{NUM})\s*[日号]?)?"
            rf"|\s(?P<mon>{MONTH_NAME}))",
            _month_of_year,
        ),
        (  # 2027年3月, 2027年3月底
            rf"(?P<y>{_YEAR})\s*年\s*(?P<mo>{NUM})\s*月份?\s*[底末]?",
            lambda m, t, _: (lambda y, mo: _Date(lambda _: _last_of(y, mo), False, period=True))(
                _year(m.group("y")), _num(m, "mo")
            ),
        ),
        (  # 2027年, 2027年底
            rf"(?P<y>{_YEAR})\s*年\s*[底末]?",
            lambda m, t, _: (lambda y: _Date(lambda _: date(y, 12, 31), False, period=True))(
                _year(m.group("y"))
            ),
        ),
        (r"下个?月[底末]", lambda m, t, _: _month_end(t, 1)),
        (  # 3月中旬, 下个月上旬, 下旬: the 10th, the 20th, the month's last day
            rf"(?:(?P<mo>{NUM})\s*月|(?P<which>{_WHICH_MONTH}))?\s*(?P<part>[上中下])旬",
            _ten_days,
        ),
        (  # 12月底, end of december
            rf"(?P<mo>{NUM})\s*月\s*[底末]|\bend of (?P<mon>{MONTH_NAME})(?:,?\s*(?P<y>\d{{4}}))?",
            lambda m, t, _: (
                _named_month_end(_num(m, "mo") if m.group("mo") else _month_of(m, "mon"), t)
                if not m.group("y")
                else _Date(lambda _: _last_of(int(m.group("y")), _month_of(m, "mon")), False)
            ),
        ),
        (
            r"(?:本|这个|这)?月[底末]|\bend of (?:the |this )?month\b",
            lambda m, t, _: _month_end(t, 0),
        ),
        (
            r"明年(?:[底末])?",
            lambda m, t, _: _Date(lambda _: date(t.year + 1, 12, 31), False, period=True),
        ),
        (r"今?年[底末]", lambda m, t, _: _Date(lambda _: date(t.year, 12, 31), False, period=True)),
        (  # 本月20号, 下个月5日, 上个月5号, 20 of next month, next month on the 5th
            rf"(?P<which>{_WHICH_MONTH})\s*(?:on\s+)?(?:the\s+)?(?P<d>{NUM}){_ORD}?\s*[号日]?"
            rf"|\b(?P<d2>\d{{1,2}}){_ORD}?\s+(?:of\s+)?(?:the\s+)?(?P<which2>{_WHICH_MONTH})",
            lambda m, t, _: (lambda ahead, d: _Date(lambda _: _in_month(t, ahead, d), rolls=False))(
                _month_ahead(m.group("which") or m.group("which2")),
                _num(m, "d", "d2"),
            ),
        ),
        (  # 11月20日, 十二月一号
            rf"(?P<mo>{NUM})\s*月\s*(?P<d>{NUM})\s*[日号]?",
            lambda m, t, _: _month_day(t, _num(m, "mo"), _num(m, "d")),
        ),
        (
            r"(?<![\d:])(?P<mo2>\d{1,2})\s*(?P<sep>[-/.])\s*(?P<d2>\d{1,2})(?![\d:])",
            _numeric,
        ),
        (  # Dec 20, December 20th 2026, 20 Dec, 20th of December, march 1st
            rf"\b(?P<mon>{MONTH_NAME})\s*(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}?\b(?:,?\s*(?P<y>\d{{4}}))?"
            rf"|\b(?P<d2>\d{{1,2}}){_ORD}?\s*(?:of\s+)?(?P<mon2>{MONTH_NAME})"
            r"(?:,?\s*(?P<y2>\d{4}))?",
            lambda m, t, _: _month_day(
                t, _month_of(m, "mon", "mon2"), _num(m, "d", "d2"), m.group("y") or m.group("y2")
            ),
        ),
        (  # October 2027, march, 2027
            rf"\b(?P<mon>{MONTH_NAME})\s*,?\s*(?P<y>\d{{4}})\b",
            lambda m, t, _: (lambda y, mo: _Date(lambda _: _last_of(y, mo), False, period=True))(
                int(m.group("y")), _month_of(m, "mon")
            ),
        ),
        (  # 3天前, 两天前: days ago, in the past
            rf"{_N}\s*天\s*(?:之前|以前|前)",
            lambda m, t, _: _days(t, -_count(m, "n")),
        ),
        (  # 3天后, 3天内, in 3 days, in a day, in 3d
            rf"{_N}\s*[天日](?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,3}}|an?)\s*(?:days?|d)\b",
            lambda m, t, _: _days(t, _count(m, "n", "n2"), period=True),
        ),
        (  # 2周后, 一周内, in 2 weeks, in a week
            rf"{_N}\s*个?周(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,2}}|an?)\s*(?:weeks?|wks?|w)\b",
            lambda m, t, _: _days(t, 7 * _count(m, "n", "n2"), period=True),
        ),
        (  # 三月后, 3月内: after March, or three months? Refused, unless 两月 (two months)
            rf"(?P<n>{NUM})\s*月\s*(?:后|之后|以后|内|之内|以内)",
            lambda m, t, _: _months(t, 2) if m.group("n") == "两" else _refuse(),
        ),
        (  # 一个月内, 2个月后, in a month, within 2 months
            rf"{_N}\s*个\s*月(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,2}}|an?)\s+months?\b",
            lambda m, t, _: _months(t, _count(m, "n", "n2")),
        ),
        (  # 20号, 20日, 二十号, the 20th
            rf"(?P<d>{NUM})\s*[号日]|\b(?P<d2>\d{{1,2}}){_ORD}\b",
            lambda m, t, _: _Date(lambda k: _in_month(t, k, _num(m, "d", "d2")), rolls=True),
        ),
        (r"大后天", lambda m, t, _: _days(t, 3)),
        (r"后天", lambda m, t, _: _days(t, 2)),
        (r"前天", lambda m, t, _: _days(t, -2)),
        (r"明天|\btomorrow\b", lambda m, t, _: _days(t, 1)),
        (r"今天|\btoday\b", lambda m, t, _: _days(t, 0)),
        (r"昨天|\byesterday\b", lambda m, t, _: _days(t, -1)),
        (  # 周五, 下周五, 这周日, 星期天, 上周五
            r"(?P<w>下下个?|下个|下|这个|这|本|上个|上)?\s*周\s*(?P<wd>[一二三四五六日天1-7])",
            lambda m, t, _: _weekday(t, _cn_weekday(m), m.group("w") or ""),
        ),
        (  # friday, next fri, this sunday, last friday
            rf"\b(?:(?P<w>next|this|last)\s+)?(?P<wd>{EN_WEEKDAY})\b",
            lambda m, t, _: _weekday(t, EN_WEEKDAYS[m.group("wd")], m.group("w") or ""),
        ),
        (  # 下周, 这周, 本周, 下下周: the week's Sunday
            r"(?P<w>下下个?|下个|下|这个|这|本)\s*周",
            lambda m, t, _: _week_end(t, WEEK_OFFSETS[m.group("w")] or 0),
        ),
        (  # 下个月, 这个月, 本月, 下月
            r"(?P<which>本月|这个?月|下个?月)",
            lambda m, t, _: _month_end(t, _month_ahead(m.group("which"))),
        ),
        (  # 3月, 三月份, March, by march; 两月 is two months, not February
            rf"(?!两)(?P<mo>{NUM})\s*月份?|\b(?P<mon>{MONTH_NAME})",
            lambda m, t, _: _named_month_end(
                _num(m, "mo") if m.group("mo") else _month_of(m, "mon"), t
            ),
        ),
        (r"今年", lambda m, t, _: _Date(lambda _: date(t.year, 12, 31), False, period=True)),
    )
)


@dataclass(frozen=True)
class _Companion:
    """A weekday written beside a date, to be checked: ``days`` are the dates it can be
    when a week was named too (本周五（11月20日）), None when any week will do."""

    weekday: int
    days: frozenset[date] | None


def _take_date(text: str, today: date, lang: str) -> tuple[_Date | None, _Companion | None, str]:
    """Find the date part; return it, a weekday written beside it, and the rest.

    A weekday may accompany a date ("12月20日 周日", the way the bot echoes deadlines;
    "本周五（11月20日）") and is then checked, not used. Any other pair ("20号 21号") is
    refused.
    """
    found: list[tuple[re.Match[str], _Date]] = []
    for pattern, build in _DATE_RULES:
        m = pattern.search(text)
        if m is not None:
            found.append((m, build(m, today, lang)))
            text = text[: m.start()] + " " + text[m.end() :]
    if len(found) < 2:
        return (found[0][1] if found else None), None, text
    weekdays = [(m, d) for m, d in found if "wd" in m.re.groupindex and m.group("wd")]
    if len(found) > 2 or len(weekdays) != 1:
        raise DeadlineError("deadline-unparsed")
    match, written = weekdays[0]
    other = next(d for _, d in found if d is not written)
    first = written.pick(0)
    assert isinstance(first, date)  # weekday candidates always exist
    if not match.group("w"):
        return other, _Companion(first.weekday(), None), text
    days = (written.pick(k) for k in range(2 if written.rolls else 1))
    return (
        other,
        _Companion(first.weekday(), frozenset(d for d in days if isinstance(d, date))),
        text,
    )


# --- resolving -------------------------------------------------------------------------------
def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _local(day: date, clock: _Clock, tz: ZoneInfo) -> tuple[datetime, str | None]:
    """The wall time on that day in ``tz``: the earlier instant of a repeated hour; a
    skipped one moved to the first valid minute after the gap (and its text returned)."""
    naive = datetime.combine(day + timedelta(days=1) if clock.next_day else day, clock.at)
    moment = naive.replace(tzinfo=tz)  # fold=0: the earlier of two
    if _utc(moment).astimezone(tz).replace(tzinfo=None) == naive:
        return moment, None
    instant = _utc(naive.replace(tzinfo=tz, fold=1))  # the gap's start, or before it
    while instant.astimezone(tz).replace(tzinfo=None) < naive:
        instant += timedelta(minutes=1)
    return instant.astimezone(tz), f"{clock.at:%H:%M}"


_Found = tuple[date, datetime, str | None]


def _resolve(day: _Date, clock: _Clock, now: datetime, tz: ZoneInfo, lang: str) -> _Found:
    """The first candidate moment ahead of ``now`` (or the only one, for fixed forms)."""
    best: _Found | None = None
    first_missing: Missing | None = None
    for k in range(14 if day.rolls else 1):  # 14 years covers 2月29日
        candidate = day.pick(k)
        if not isinstance(candidate, date):
            if not day.skip:
                raise DeadlineError(
                    "deadline-no-such-date", date=_missing_words(candidate, now, lang)
                )
            first_missing = first_missing or candidate
            continue
        moment, skipped = _local(candidate, clock, tz)
        best = (candidate, moment, skipped)
        if _utc(moment) > _utc(now):
            return best
    if best is None:
        assert first_missing is not None
        raise DeadlineError("deadline-no-such-date", date=_missing_words(first_missing, now, lang))
    return best


def _readings(
    day: _Date, clock: _Clock, dated: bool, now: datetime, tz: ZoneInfo, lang: str
) -> list[_Found]:
    """The readings of a clock that count: one for a written am/pm, 24-hour or padded
    time; for a bare hour, its morning and evening readings that are ahead, without a
    small-hours one unless no day is written and it is the very next occurrence (or the
    only one ahead: 今天12点 said at 14:30 is tonight's midnight). The night reading of
    12 o'clock is the midnight that ends the day, not the one that starts it."""
    if not clock.bare:
        return [_resolve(day, clock, now, tz, lang)]
    morning = _resolve(day, replace(clock, next_day=clock.at.hour == 0), now, tz, lang)
    evening_at = time(clock.at.hour + 12, clock.at.minute)
    evening = _resolve(day, replace(clock, at=evening_at), now, tz, lang)
    ahead = sorted((r for r in (morning, evening) if _utc(r[1]) > _utc(now)), key=lambda r: r[1])
    if not ahead:
        return [evening]  # both past: refused as past, the later reading named
    plausible = [r for r in ahead if r[1].hour >= SMALL_HOURS_END or (not dated and r is ahead[0])]
    return plausible or ahead[:1]


_ECHO_HINT = re.compile(r"[(（][^()（）]*(?:还有|已过|\bleft\b|\bago\b)[^()（）]*[)）]")


def resolve_deadline(text: str, now: datetime, tz: ZoneInfo, lang: str = "zh") -> Resolved:
    """Read a deadline; the moment as an aware datetime in ``tz``, minute precision.

    ``now`` is the current moment (a naive ``now`` is taken to be in ``tz``); ``lang``
    words the parameters of a refusal. A bare hour with two plausible readings raises
    :class:`AmbiguousHour`."""
    local_now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    rest = _ECHO_HINT.sub(" ", unicodedata.normalize("NFKC", text).lower())
    echo = False  # the bot's own echo, pasted back: its times are on a 24-hour clock
    for label in {tz.key.lower(), zone_label(tz).lower()}:
        echo = echo or f"({label})" in rest
        rest = rest.replace(f"({label})", " ")
    english = not re.search(r"[\u3400-\u9fff]", rest)  # "9 tomorrow": a lone hour
    rest = normalise(rest)
    try:
        written_in, label, rest = take_zone(rest)
    except ZoneError:
        raise DeadlineError("deadline-unparsed") from None
    if written_in is None or written_in.utcoffset(local_now) == tz.utcoffset(local_now):
        return _resolve_in(rest, local_now, tz, lang, english, echo)
    try:
        found = _resolve_in(rest, local_now.astimezone(written_in), written_in, lang, english, echo)
    except AmbiguousHour as asked:
        choices = (asked.choices[0].astimezone(tz), asked.choices[1].astimezone(tz))
        raise AmbiguousHour(choices, tz, lang) from None
    there = found.when
    shown = f"{_date_words(there.date(), None, lang, weekday=True)} {there:%H:%M} {label}"
    return replace(found, when=there.astimezone(tz), converted=shown)


def _resolve_in(
    rest: str,
    local_now: datetime,
    tz: ZoneInfo,
    lang: str,
    english: bool,
    echo: bool,
    ahead_of: datetime | None = None,
) -> Resolved:
    """:func:`resolve_deadline` on normalised text, in the zone it is written in. The
    moment must be after ``ahead_of`` (now, unless the moment is an offset's anchor)."""
    after = local_now if ahead_of is None else ahead_of
    offset, rest = _take_offset(rest)
    if offset is not None:
        return _offset_from(offset, rest, local_now, tz, lang, english, echo)
    week_of = [mark for mark in _WEEK_OF if mark in rest]
    for mark in week_of:
        rest = rest.replace(mark, " ")
    delta, rest = _take_delta(rest)
    written, rest = _take_time(rest)
    period, rest = _take_period(rest)
    day, companion, rest = _take_date(rest, local_now.date(), lang)
    if week_of:
        if day is None or len(week_of) > 1:
            raise DeadlineError("deadline-unparsed")
        day = _week_of(day, _WEEK_OF[week_of[0]])
    if written is not None and written.wide and day is not None and day.clock24:
        written = replace(written, clock24=True)  # 2026-12-04 11:09: ISO 8601, 24-hour
    anchored = day is not None or period is not None or re.search(r"\b(?:at|by|before)\b", rest)
    if english and written is None and anchored:
        lone = _LONE_HOUR.search(rest)  # "9 tomorrow", "8 tonight", "tomorrow by 5"
        spans = day is not None and day.period  # "2 next week" names no hour
        if (
            lone
            and not spans
            and 1 <= int(lone.group("h")) <= 12
            and not FILLER.sub("", _cut(rest, lone))
        ):
            written, rest = _Written(int(lone.group("h")), 0), _cut(rest, lone)
    if FILLER.sub("", rest) or (
        delta is None and written is None and period is None and day is None
    ):
        raise DeadlineError("deadline-unparsed")
    clock = _clock(replace(written, clock24=True) if written and echo else written, period)
    if delta is not None:
        if clock is not None or day is not None:
            raise DeadlineError("deadline-unparsed")
        exact = (_utc(local_now) + delta).astimezone(tz)
        return Resolved(exact.replace(second=0, microsecond=0))
    dated = day is not None
    if day is None:  # a bare time: its next occurrence
        today = local_now.date()
        day = _Date(lambda k: today + timedelta(days=k), rolls=True)
    readings = _readings(day, clock or _Clock(END_OF_DAY), dated, after, tz, lang)
    if len(readings) > 1:
        raise AmbiguousHour((readings[0][1], readings[1][1]), tz, lang)
    on, moment, skipped = readings[0]
    if companion is not None and on.weekday() != companion.weekday:
        raise DeadlineError(
            "deadline-weekday-clash",
            date=_date_words(on, local_now, lang, weekday=True),
            written=_weekday_name(companion.weekday, lang),
        )
    if companion is not None and companion.days is not None and on not in companion.days:
        raise DeadlineError(
            "deadline-week-clash",
            date=_date_words(on, local_now, lang, weekday=True),
            written=" / ".join(
                _date_words(d, local_now, lang, weekday=True) for d in sorted(companion.days)
            ),
        )
    if _utc(moment) <= _utc(after):
        raise DeadlineError("deadline-past", when=format_deadline(moment, tz, lang, local_now))
    return Resolved(moment, skipped, period=day.period and clock is None)


# --- offsets from a named moment ---------------------------------------------------------------
_OFFSET_RE = re.compile(  # the spelling's mark for "15 minutes from 1pm", 圣诞节后三天
    rf"\+(?P<n>\d{{1,3}}(?:\.\d+)?|an?|{CN_NUM}|半)\s*(?P<half>个半)?\s*个?\s*"
    r"(?P<unit>分钟|小时|天|日|周|月|年|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)"
)
# A span's unit → (minutes, days, months): minutes and hours are exact, the rest calendar.
_SPANS = {
    "分钟": (1, 0, 0), "minute": (1, 0, 0), "min": (1, 0, 0),
    "小时": (60, 0, 0), "hour": (60, 0, 0), "hr": (60, 0, 0),
    "天": (0, 1, 0), "日": (0, 1, 0), "day": (0, 1, 0),
    "周": (0, 7, 0), "week": (0, 7, 0),
    "月": (0, 0, 1), "month": (0, 0, 1),
    "年": (0, 0, 12), "year": (0, 0, 12),
}  # fmt: skip
_Offset = tuple[float, int, int]  # minutes, days, months


def _take_offset(text: str) -> tuple[_Offset | None, str]:
    """A span counted from a moment named beside it (not from now)."""
    m = _OFFSET_RE.search(text)
    if m is None:
        return None, text
    raw, words = m.group("n"), {"半": 0.5, "a": 1.0, "an": 1.0}
    amount = words.get(raw) or float(raw if raw[0].isdigit() else _cn_int(raw))
    amount += 0.5 if m.group("half") else 0
    minutes, days, months = _SPANS[m.group("unit").removesuffix("s")]
    if not minutes and amount != int(amount):  # 1.5 days: not a calendar span
        raise DeadlineError("deadline-unparsed")
    return (minutes * amount, int(days * amount), int(months * amount)), _cut(text, m)


def _shifted(moment: datetime, offset: _Offset, tz: ZoneInfo) -> datetime:
    """``moment`` plus an offset: exact minutes, or days and months on the calendar (the
    wall time kept; a month's missing day is its last)."""
    minutes, days, months = offset
    if minutes:
        return (_utc(moment) + timedelta(minutes=round(minutes))).astimezone(tz)
    local = moment.astimezone(tz)
    year, month = _month_index(local.date(), months)
    day = min(local.day, _last_of(year, month).day)
    on = date(year, month, day) + timedelta(days=days)
    return _local(on, _Clock(local.time().replace(second=0, microsecond=0)), tz)[0]


def _offset_from(
    offset: _Offset,
    rest: str,
    local_now: datetime,
    tz: ZoneInfo,
    lang: str,
    english: bool,
    echo: bool,
) -> Resolved:
    """A span after the moment ``rest`` names, or after now when it names none (``for 3
    days``: the end of the third day, as ``in 3 days``). The moment named is the first
    whose sum is ahead (``15 minutes from 1pm`` typed at 13:05 is 13:15 today). Both
    readings of a bare hour are shifted and asked about."""
    if not FILLER.sub("", rest):
        anchor = Resolved(local_now.replace(second=0, microsecond=0))
        if not offset[0]:
            anchor = Resolved(datetime.combine(local_now.date(), END_OF_DAY, tz), period=True)
    else:
        try:
            back = (-offset[0], -offset[1], -offset[2])
            anchor = _resolve_in(
                rest, local_now, tz, lang, english, echo, _shifted(local_now, back, tz)
            )
        except AmbiguousHour as asked:
            first, second = (_shifted(c, offset, tz) for c in asked.choices)
            raise AmbiguousHour((first, second), tz, lang) from None
    moment = _shifted(anchor.when, offset, tz)
    if _utc(moment) <= _utc(local_now):
        raise DeadlineError("deadline-past", when=format_deadline(moment, tz, lang, local_now))
    return Resolved(moment, period=anchor.period)


def _cut(text: str, m: re.Match[str]) -> str:
    return text[: m.start()] + " " + text[m.end() :]


def parse_deadline(text: str, now: datetime, tz: ZoneInfo, lang: str = "zh") -> datetime:
    """:func:`resolve_deadline`, just the moment."""
    return resolve_deadline(text, now, tz, lang).when


# --- showing -------------------------------------------------------------------------------
def zone_label(tz: ZoneInfo) -> str:
    """The zone as people read it: ``Etc/GMT-8`` (whose sign is inverted) is ``UTC+8``."""
    m = re.fullmatch(r"Etc/GMT([+-])(\d{1,2})", tz.key)
    if m is None:
        return tz.key
    return f"UTC{'-' if m.group(1) == '+' else '+'}{m.group(2)}"


def _weekday_name(weekday: int, lang: str) -> str:
    return ZH_WEEKDAY_NAMES[weekday] if lang == "zh" else EN_WEEKDAY_NAMES[weekday]


def _date_words(day: date, now: datetime | None, lang: str, weekday: bool = False) -> str:
    """``12月20日`` / ``20 Dec``, with the year when it is not ``now``'s, and the weekday."""
    year = now is None or day.year == now.year
    if lang == "zh":
        text = ("" if year else f"{day.year}年") + f"{day.month}月{day.day}日"
        return f"{text} {_weekday_name(day.weekday(), lang)}" if weekday else text
    text = f"{day.day} {EN_MONTH_NAMES[day.month - 1]}" + ("" if year else f" {day.year}")
    return f"{_weekday_name(day.weekday(), lang)} {text}" if weekday else text


def _month_day_words(month: int, day: int, lang: str) -> str:
    return f"{month}月{day}日" if lang == "zh" else f"{day} {EN_MONTH_NAMES[month - 1]}"


def _missing_words(missing: Missing, now: datetime, lang: str) -> str:
    year, month, day = missing
    if not 1 <= month <= 12:
        return f"{month}/{day}"
    if lang == "zh":
        return ("" if year == now.year else f"{year}年") + f"{month}月{day}日"
    return f"{day} {EN_MONTH_NAMES[month - 1]}" + ("" if year == now.year else f" {year}")


def relative_hint(when: datetime, now: datetime, lang: str) -> str:
    """How far away: ``还有 3 天 5 小时`` / ``3 days 5 hours left``, or how long ago:
    ``已过 2 小时`` / ``2 hours ago``."""
    seconds = (when - now).total_seconds()
    minutes = int(-(-seconds // 60)) if seconds > 0 else int(-seconds // 60)
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    if days:
        parts = [(days, "day"), (hours, "hour")]
    elif hours:
        parts = [(hours, "hour"), (mins, "minute")]
    else:
        parts = [(max(mins, 0 if seconds <= 0 else 1), "minute")]
    shown = [(n, unit) for n, unit in parts if n] or [(0, "minute")]
    if lang == "zh":
        zh_units = {"day": "天", "hour": "小时", "minute": "分钟"}
        amount = " ".join(f"{n} {zh_units[unit]}" for n, unit in shown)
        return f"还有 {amount}" if seconds > 0 else f"已过 {amount}"
    amount = " ".join(f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in shown)
    return f"{amount} left" if seconds > 0 else f"{amount} ago"


def format_deadline(
    dt: datetime, tz: ZoneInfo, lang: str, now: datetime | None = None, hint: bool = True
) -> str:
    """The deadline as the bot echoes it: zh ``12月20日 周日 18:00 (Asia/Shanghai)``,
    en ``Sun 20 Dec 18:00 (Asia/Shanghai)``. With ``now``: the year when it is not the
    current one, and (unless ``hint`` is False) how long is left (``（还有 3 天 5 小时）`` /
    ``(3 days 5 hours left)``);
    the echo can be pasted back into /deadline."""
    local = dt.astimezone(tz)
    local_now = now.astimezone(tz) if now is not None else None
    day = _date_words(local.date(), local_now, lang, weekday=True)
    text = f"{day} {local:%H:%M} ({zone_label(tz)})"
    if local_now is None or not hint:
        return text
    left = relative_hint(dt, local_now, lang)
    return f"{text}（{left}）" if lang == "zh" else f"{text} ({left})"
