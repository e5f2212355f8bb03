"""Free-text deadlines in Chinese or English (SPEC.md "Deadlines"; issue 11).

Organisers write deadlines the way they talk: ``20号之前上报`` (seed 000, 第一轮 item 3),
``下周五 18:00``, ``周日晚八点``, ``3天内``, ``by the 20th``, ``tomorrow at 9``, ``EOW``.
:func:`resolve_deadline` turns such text into an aware datetime in the chat's zone, and
the bot echoes it back with :func:`format_deadline` (weekday, time, zone, the year when it
is not this year, and how long is left) so a misreading is caught at once.

The parser is a small hand-written grammar and pure: ``now`` is passed in, nothing reads
the clock. It takes an exact offset, a time part and a date part independently, then
refuses if anything unrecognised is left over (guessing a deadline from half-understood
text is worse than asking again). A refusal always says why (``DeadlineError.code``).

Resolution rules:

- a date without a time means the end of that day, 23:59; a part of the day alone means
  the end of that part (上午/morning 12:00, 下午/afternoon 18:00, 晚上/evening/night 23:59,
  早上 09:00, 中午/noon 12:00);
- 24点, 24:00, 晚上12点, 半夜 and ``midnight`` are the midnight that ends that day;
- ranges mean the end of the span: ``3天内``/``within 3 days`` the end of the third day
  from today, ``一周内``/``in a week`` seven days, ``一个月内`` the same day next month,
  ``48小时内``/``in 48 hours`` exactly 48 hours from now;
- 周末/本周末/``this weekend``/``EOW`` are this week's Sunday 23:59, 下周末 and
  ``next week`` next week's; 月底, X月底, 下个月底 and 年底 the month's or year's last day;
  元旦 is 1 January;
- a day of the month that has passed means next month, but a month without that day is
  refused (``30号`` in February), never moved to the month after; a month/day that has
  passed this year means next year; a bare weekday means the next such day (today only
  if the time is still ahead); a bare time means its next occurrence;
- ``下周五``/``next friday`` are Friday of next week (weeks start on Monday);
  ``这周五``/``本周五``/``this friday`` Friday of this week;
- ``晚上``/``下午``/``pm`` move 1-11 o'clock to the afternoon; ``上午``/``早上``/``am``
  keep the morning (12 am is midnight);
- ``a/b`` with both parts 12 or less is ambiguous (3/4: 4 March or 3 April) and both
  readings are offered; other numeric ``a/b`` dates are month/day unless only day/month
  is possible (``20/12``);
- a wall time a clock change skips moves forward to the first valid minute
  (:attr:`Resolved.skipped` says so); a wall time that happens twice is the earlier
  instant; "ahead of now" is judged in absolute time;
- anything explicit (a year, ``本月``, ``今天``, ``昨天``, ``上周五``) that is not in the
  future is refused with ``deadline-past`` rather than silently moved.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

END_OF_DAY = time(23, 59)
CN_DIGITS = {
    "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
    "九": 9,
}  # fmt: skip
CN_NUM = "[零一二两三四五六七八九十]{1,3}"
NUM = rf"\d{{1,2}}|{CN_NUM}"  # a small number, in digits or Chinese
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH_NAME = (  # whole words only: "maybe" is not May
    r"(?:january|february|march|april|may|june|july|august|september|sept|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\b\.?"
)
EN_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4,
    "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
CN_WEEKDAYS = "一二三四五六日"  # index = Monday-based weekday; 天 and 7 also mean Sunday
WEEK_OFFSETS = {
    "": None, "this": 0, "这": 0, "这个": 0, "本": 0, "next": 1, "下": 1, "下个": 1, "下下": 2,
    "last": -1, "上": -1, "上个": -1,
}  # fmt: skip
ZH_WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
EN_WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_MONTH_NAMES = tuple(m.capitalize() for m in MONTHS)
AFTER = r"\s*(?:后|之后|以后)"
WITHIN = r"\s*(?:内|之内|以内)"
# Words that may surround a deadline without changing it ("20号之前报成绩", "by the 20th").
FILLER = re.compile(
    r"\b(?:by|before|until|till|due|on|at|the|of|deadline|report|results?|please|pls)\b"
    r"|之前|以前|为止|截止到?|截至|最迟|最|前|到|在|上报|报告|报成绩|成绩|结果|比赛|完成|结束|的|请|报"
    r"|[,，.。:;；!！\s]"
)
# A part of the day written alone ("明天上午") means its end; 半夜 is midnight.
PERIOD_ENDS = {
    "凌晨": time(6, 0), "早上": time(9, 0), "早晨": time(9, 0), "早": time(9, 0),
    "上午": time(12, 0), "中午": time(12, 0), "下午": time(18, 0), "傍晚": time(19, 0),
    "晚上": END_OF_DAY, "晚": END_OF_DAY, "夜里": END_OF_DAY, "夜": END_OF_DAY,
    "深夜": END_OF_DAY,
}  # fmt: skip
_PERIODS = "凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|深夜|半夜|晚|早|夜"
_PM_PERIODS = ("下午", "傍晚", "晚上", "晚", "夜里", "夜", "深夜", "半夜")
_AM_PERIODS = ("凌晨", "早上", "早晨", "早", "上午")
_MIDNIGHT_PERIODS = ("晚上", "晚", "夜里", "夜", "深夜", "半夜")  # 晚上12点: the day's end


class DeadlineError(Exception):
    """The text is not a usable deadline: ``code`` names the catalogue message.

    Codes (the caller adds ``text``):
    ``deadline-unparsed`` (no params);
    ``deadline-past`` (``when``: the resolved moment, formatted);
    ``deadline-no-such-date`` (``date``: e.g. ``2月30日``);
    ``deadline-weekday-clash`` (``date``: the date with its real weekday; ``written``);
    ``deadline-ambiguous`` (``first``, ``second``: the two readings).
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, object] = params


@dataclass(frozen=True)
class Resolved:
    """A deadline read from text. ``skipped`` is the written wall time (``02:30``) when a
    clock change skips it and ``when`` is the first valid minute after it."""

    when: datetime
    skipped: str | None = None


Missing = tuple[int, int, int]  # a year, month and day that do not make a date


@dataclass(frozen=True)
class _Date:
    """A date part. ``pick(k)`` is the k-th candidate day: rolling forms ("20号", "Friday")
    try k = 0, 1, … until the moment is ahead; fixed forms only ever use k = 0. A
    :data:`Missing` candidate (31 April) is refused, or skipped where ``skip`` (2月29日
    rolls on to a leap year)."""

    pick: Callable[[int], date | Missing]
    rolls: bool
    skip: bool = False


@dataclass(frozen=True)
class _Clock:
    """A time part; ``next_day`` marks the midnight that ends the day (24点)."""

    at: time
    next_day: bool = False


def _cn_int(text: str) -> int:
    """``8`` → 8, ``八`` → 8, ``十二`` → 12, ``二十五`` → 25, ``两`` → 2."""
    if text.isascii() and text.isdigit():
        return int(text)
    tens, ten, ones = text.partition("十")
    if not ten:
        if len(text) != 1 or text not in CN_DIGITS:
            raise DeadlineError("deadline-unparsed")
        return CN_DIGITS[text]
    if len(tens) > 1 or len(ones) > 1 or not {tens, ones} <= {"", *CN_DIGITS}:
        raise DeadlineError("deadline-unparsed")  # 十十, 三十十: not a number
    return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)


_SYNONYMS = (
    ("今晚", "今天晚上"),
    ("明晚", "明天晚上"),
    ("明早", "明天早上"),
    ("今早", "今天早上"),
    ("星期", "周"),
    ("礼拜", "周"),
    ("點", "点"),
    ("時", "时"),
    ("號", "号"),
    ("週", "周"),
    ("周末", "周日"),  # 周末 = Sunday 23:59 (本周末, 下周末 follow)
    ("元旦", "1月1日"),
)
_EN_SYNONYMS = (  # whole words, applied in order
    (r"day after tomorrow", "后天"),
    (r"tonight", "today 晚上"),
    (r"tmrw?|tmw|tomorow|2moro", "tomorrow"),
    (r"next weekend|end of next week", "下周日"),
    (r"(?:this )?weekend|eow|end of (?:the )?week", "本周日"),
    (r"next week(?!\s*(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun))", "下周日"),
    (r"eod|cob|end of (?:the )?day", "23:59"),
    (r"end of (?:the )?year|eoy", "年底"),
    (r"end of next month", "下个月底"),
    (r"midnight", "24点"),
    (r"noon|midday", "中午12点"),
    (r"(?:in the )?morning", "上午"),
    (r"(?:in the )?afternoon", "下午"),
    (r"(?:in the )?evening|night", "晚上"),
    (r"new year'?s day|new year", "1月1日"),
    (r"within", "in"),
)


def _normalise(text: str) -> str:
    """Full-width to ASCII, lower case, one spelling per synonym."""
    out = unicodedata.normalize("NFKC", text).lower()
    for old, new in _SYNONYMS:
        out = out.replace(old, new)
    for pattern, new in _EN_SYNONYMS:
        out = re.sub(rf"\b(?:{pattern})\b", f" {new} ", out)
    return re.sub(r"(?<=\d)t(?=\d)", " ", out)  # ISO 2026-12-20T18:00


_TIME_RE = re.compile(
    rf"(?P<period>{_PERIODS})?\s*"
    r"(?:(?P<h1>\d{1,2}):(?P<m1>\d{2})"
    rf"|(?<!周)(?P<h2>{NUM})\s*[点时]\s*(?:(?P<half>半)|(?P<m2>{NUM})\s*分?|整)?"
    r"|(?P<h3>\d{1,2})(?=\s*[ap]\.?m\b)"
    r"|\bat\s+(?P<h4>\d{1,2})\b(?!\s*[-/.号日]))"
    r"\s*(?:(?P<ampm>[ap])\.?m\b\.?)?"
)
_PERIOD_RE = re.compile(rf"(?P<period>{_PERIODS})(?!于)")


def _take_time(text: str) -> tuple[_Clock | None, str]:
    """Find at most one time of day; return it and the text without it."""
    found = [m for m in _TIME_RE.finditer(text) if m.group("h1", "h2", "h3", "h4") != (None,) * 4]
    if not found:
        return _take_period(text)
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    hour = _cn_int(m.group("h1") or m.group("h2") or m.group("h3") or m.group("h4"))
    minute = 30 if m.group("half") else _cn_int(m.group("m1") or m.group("m2") or "0")
    period, ampm = m.group("period"), m.group("ampm")
    rest = text[: m.start()] + " " + text[m.end() :]
    if ampm and not 1 <= hour <= 12:  # "13pm", "0am"
        raise DeadlineError("deadline-unparsed")
    if minute > 59:
        raise DeadlineError("deadline-unparsed")
    if (hour == 24 and minute == 0) or (hour == 12 and minute == 0 and period in _MIDNIGHT_PERIODS):
        return _Clock(time(0, 0), next_day=True), rest
    afternoon = period in _PM_PERIODS or ampm == "p"
    if (afternoon and 1 <= hour < 12) or (period == "中午" and 1 <= hour < 6):
        hour += 12
    elif (period in _AM_PERIODS or ampm == "a") and hour == 12:
        hour = 0
    if hour > 23:
        raise DeadlineError("deadline-unparsed")
    return _Clock(time(hour, minute)), rest


def _take_period(text: str) -> tuple[_Clock | None, str]:
    """A part of the day written alone: the end of that part."""
    found = list(_PERIOD_RE.finditer(text))
    if not found:
        return None, text
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    rest = text[: m.start()] + " " + text[m.end() :]
    if m.group("period") == "半夜":
        return _Clock(time(0, 0), next_day=True), rest
    return _Clock(PERIOD_ENDS[m.group("period")]), rest


_DELTA_RE = re.compile(
    rf"(?P<n>\d{{1,3}}|{CN_NUM}|半)\s*(?:个)?\s*(?P<unit>小时|钟头|分钟)(?:{AFTER}|{WITHIN})"
    r"|\bin\s+(?P<n2>\d{1,3}|an?|half an?)\s+(?P<unit2>hours?|hrs?|h|minutes?|mins?)\b"
)


def _take_delta(text: str) -> tuple[timedelta | None, str]:
    """An exact offset from now: "2小时后", "48小时内", "in 2 hours", "within 30 minutes"."""
    m = _DELTA_RE.search(text)
    if m is None:
        return None, text
    raw = m.group("n") or m.group("n2")
    unit = m.group("unit") or m.group("unit2")
    if raw in ("半", "half a", "half an"):
        amount = 0.5
    elif raw in ("a", "an"):
        amount = 1.0
    else:
        amount = float(_cn_int(raw))
    minutes = amount if unit.startswith(("分", "min")) else amount * 60
    return timedelta(minutes=minutes), text[: m.start()] + " " + text[m.end() :]


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
    return date(year, month, calendar.monthrange(year, month)[1])


def _month_day(today: date, month: int, day: int, year: str | None = None) -> _Date:
    if month > 12 and day <= 12:  # "20/12": only day/month is possible
        month, day = day, month
    if year:
        return _Date(lambda _: _valid(int(year), month, day), rolls=False)
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
    offset = WEEK_OFFSETS[week]
    if offset is None:  # the next such day, today included while the time is ahead
        ahead = (weekday - today.weekday()) % 7
        return _Date(lambda k: today + timedelta(days=ahead + 7 * k), rolls=True)
    monday = today - timedelta(days=today.weekday())
    return _Date(lambda _: monday + timedelta(days=7 * offset + weekday), rolls=False)


def _days(today: date, days: int) -> _Date:
    return _Date(lambda _: today + timedelta(days=days), rolls=False)


def _months(today: date, months: int) -> _Date:
    """The same day ``months`` later, or that month's last day when it is shorter."""
    year, month = _month_index(today, months)
    last = _last_of(year, month)
    return _Date(lambda _: last if today.day > last.day else last.replace(day=today.day), False)


def _month_end(today: date, months_ahead: int) -> _Date:
    return _Date(lambda _: _last_of(*_month_index(today, months_ahead)), rolls=False)


def _num(m: re.Match[str], *groups: str) -> int:
    """The first of ``groups`` that matched, as an int."""
    return _cn_int(next(m.group(g) for g in groups if m.group(g)))


def _cn_weekday(m: re.Match[str]) -> int:
    ch = m.group("wd")
    return 6 if ch in "天7" else int(ch) - 1 if ch.isdigit() else CN_WEEKDAYS.index(ch)


_DateRule = tuple[re.Pattern[str], Callable[[re.Match[str], date, str], _Date]]
_EN_WEEKDAY = "|".join(EN_WEEKDAYS)
_N = rf"(?P<n>\d{{1,3}}|{CN_NUM})"
_DATE_RULES: tuple[_DateRule, ...] = tuple(
    (re.compile(pattern), build)
    for pattern, build in (
        (  # 2026-12-20, 2026/12/20, 2026年12月20日
            r"(?P<y>\d{4})\s*[-/.年]\s*(?P<mo>\d{1,2})\s*[-/.月]\s*(?P<d>\d{1,2})\s*[日号]?",
            lambda m, t, _: _month_day(t, _num(m, "mo"), _num(m, "d"), m.group("y")),
        ),
        (r"下个?月[底末]", lambda m, t, _: _month_end(t, 1)),
        (  # 12月底, end of december
            rf"(?P<mo>{NUM})\s*月\s*[底末]|\bend of (?P<mon>{MONTH_NAME})",
            lambda m, t, _: (lambda mo: _Date(lambda k: _last_of(t.year + k, mo), rolls=True))(
                _num(m, "mo") if m.group("mo") else MONTHS.index(m.group("mon")[:3]) + 1
            ),
        ),
        (
            r"(?:本|这个)?月[底末]|\bend of (?:the |this )?month\b",
            lambda m, t, _: _month_end(t, 0),
        ),
        (r"年[底末]", lambda m, t, _: _Date(lambda _: date(t.year, 12, 31), rolls=False)),
        (  # 本月20号, 下个月5日, 上个月5号
            rf"(?P<which>本月|这个月|下个?月|上个?月)\s*(?P<d>{NUM})\s*[号日]?",
            lambda m, t, _: (
                lambda ahead: _Date(lambda _: _in_month(t, ahead, _num(m, "d")), rolls=False)
            )({"下": 1, "上": -1}.get(m.group("which")[0], 0)),
        ),
        (  # 11月20日, 12-20, 12/20
            rf"(?P<mo>{NUM})\s*月\s*(?P<d>{NUM})\s*[日号]?",
            lambda m, t, _: _month_day(t, _num(m, "mo"), _num(m, "d")),
        ),
        (
            r"(?<![\d:])(?P<mo2>\d{1,2})\s*(?P<sep>[-/.])\s*(?P<d2>\d{1,2})(?![\d:])",
            _numeric,
        ),
        (  # Dec 20, December 20th 2026, 20 Dec, 20th of December
            rf"\b(?P<mon>{MONTH_NAME})\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{{4}}))?"
            rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:of\s+)?(?P<mon2>{MONTH_NAME})"
            r"(?:,?\s*(?P<y2>\d{4}))?",
            lambda m, t, _: _month_day(
                t,
                MONTHS.index((m.group("mon") or m.group("mon2"))[:3]) + 1,
                _num(m, "d", "d2"),
                m.group("y") or m.group("y2"),
            ),
        ),
        (  # 3天后, 3天内, in 3 days, within 3 days
            rf"{_N}\s*天(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,3}})\s+days?\b",
            lambda m, t, _: _days(t, _num(m, "n", "n2")),
        ),
        (  # 2周后, 一周内, in 2 weeks, in a week
            rf"{_N}\s*个?周(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,2}}|an?)\s+weeks?\b",
            lambda m, t, _: _days(
                t, 7 * (1 if m.group("n2") in ("a", "an") else _num(m, "n", "n2"))
            ),
        ),
        (  # 一个月内, 2个月后, in a month, within 2 months
            rf"{_N}\s*个\s*月(?:{AFTER}|{WITHIN})|\bin\s+(?P<n2>\d{{1,2}}|an?)\s+months?\b",
            lambda m, t, _: _months(t, 1 if m.group("n2") in ("a", "an") else _num(m, "n", "n2")),
        ),
        (  # 20号, 20日, 二十号, the 20th
            rf"(?P<d>{NUM})\s*[号日]|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)\b",
            lambda m, t, _: _Date(lambda k: _in_month(t, k, _num(m, "d", "d2")), rolls=True),
        ),
        (r"大后天", lambda m, t, _: _days(t, 3)),
        (r"后天", lambda m, t, _: _days(t, 2)),
        (r"前天", lambda m, t, _: _days(t, -2)),
        (r"明天|明日|\btomorrow\b", lambda m, t, _: _days(t, 1)),
        (r"今天|今日|\btoday\b", lambda m, t, _: _days(t, 0)),
        (r"昨天|昨日|\byesterday\b", lambda m, t, _: _days(t, -1)),
        (  # 周五, 下周五, 这周日, 星期天, 上周五
            r"(?P<w>下下|下个|下|这个|这|本|上个|上)?\s*周\s*(?P<wd>[一二三四五六日天1-7])",
            lambda m, t, _: _weekday(t, _cn_weekday(m), m.group("w") or ""),
        ),
        (  # friday, next fri, this sunday, last friday
            rf"\b(?:(?P<w>next|this|last)\s+)?(?P<wd>{_EN_WEEKDAY})\b",
            lambda m, t, _: _weekday(t, EN_WEEKDAYS[m.group("wd")], m.group("w") or ""),
        ),
    )
)


def _take_date(text: str, today: date, lang: str) -> tuple[_Date | None, int | None, str]:
    """Find the date part; return it, a weekday written beside it, and the rest.

    A weekday may accompany a date ("12月20日 周日", the way the bot echoes deadlines)
    and is then checked, not used. Any other pair ("20号 21号") is refused.
    """
    found: list[tuple[re.Match[str], _Date]] = []
    for pattern, build in _DATE_RULES:
        m = pattern.search(text)
        if m is not None:
            found.append((m, build(m, today, lang)))
            text = text[: m.start()] + " " + text[m.end() :]
    if len(found) < 2:
        return (found[0][1] if found else None), None, text
    plain_weekdays = [d for m, d in found if "wd" in m.re.groupindex and not m.group("w")]
    if len(found) > 2 or len(plain_weekdays) != 1:
        raise DeadlineError("deadline-unparsed")
    other = next(d for _, d in found if d is not plain_weekdays[0])
    first = plain_weekdays[0].pick(0)
    assert isinstance(first, date)  # weekday candidates always exist
    return other, first.weekday(), text


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


def _resolve(
    day: _Date, clock: _Clock, now: datetime, tz: ZoneInfo, lang: str
) -> tuple[date, datetime, str | None]:
    """The first candidate moment ahead of ``now`` (or the only one, for fixed forms)."""
    best: tuple[date, datetime, str | None] | None = None
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


_ECHO_HINT = re.compile(r"[(（][^()（）]*(?:还有|已过|\bleft\b|\bago\b)[^()（）]*[)）]")


def resolve_deadline(text: str, now: datetime, tz: ZoneInfo, lang: str = "zh") -> Resolved:
    """Read a deadline; the moment as an aware datetime in ``tz``, minute precision.

    ``now`` is the current moment (a naive ``now`` is taken to be in ``tz``); ``lang``
    words the parameters of a refusal."""
    local_now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    rest = _ECHO_HINT.sub(" ", unicodedata.normalize("NFKC", text).lower())
    for label in {tz.key.lower(), zone_label(tz).lower()}:
        rest = rest.replace(f"({label})", " ")
    rest = _normalise(rest)
    delta, rest = _take_delta(rest)
    clock, rest = _take_time(rest)
    day, weekday, rest = _take_date(rest, local_now.date(), lang)
    if FILLER.sub("", rest) or (delta is None and clock is None and day is None):
        raise DeadlineError("deadline-unparsed")
    if delta is not None:
        if clock is not None or day is not None:
            raise DeadlineError("deadline-unparsed")
        exact = (_utc(local_now) + delta).astimezone(tz)
        return Resolved(exact.replace(second=0, microsecond=0))
    if day is None:  # a bare time: its next occurrence
        today = local_now.date()
        day = _Date(lambda k: today + timedelta(days=k), rolls=True)
    on, moment, skipped = _resolve(day, clock or _Clock(END_OF_DAY), local_now, tz, lang)
    if weekday is not None and on.weekday() != weekday:
        raise DeadlineError(
            "deadline-weekday-clash",
            date=_date_words(on, local_now, lang, weekday=True),
            written=_weekday_name(weekday, lang),
        )
    if _utc(moment) <= _utc(local_now):
        raise DeadlineError("deadline-past", when=format_deadline(moment, tz, lang, local_now))
    return Resolved(moment, skipped)


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
