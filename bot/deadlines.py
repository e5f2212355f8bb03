"""Free-text round deadlines in Chinese or English (SPEC.md "Deadlines").

Organisers write deadlines the way they talk: ``20号之前上报`` (seed 000, 第一轮 item 3),
``下周五 18:00``, ``by the 20th``, ``in 3 days``. :func:`parse_deadline` turns such text
into an aware datetime in the chat's zone, and the bot echoes it back with
:func:`format_deadline` so a misreading is caught at once.

The parser is pure: ``now`` is passed in, nothing reads the clock. It finds a time part
and a date part independently, then refuses if anything unrecognised is left over
(guessing a deadline from half-understood text is worse than asking again).

Resolution rules:

- a date without a time means the end of that day, 23:59;
- a day of the month that has passed means next month; a month/day that has passed
  this year means next year; a bare weekday means the next such day (today only if the
  time is still ahead); a bare time means its next occurrence;
- ``下周五`` and ``next friday`` are Friday of next week (weeks start on Monday);
  ``这周五``/``本周五``/``this friday`` are Friday of this week;
- ``in 3 days``/``3天后`` are a date (end of that day); ``in 2 hours``/``2小时后`` are an
  exact moment;
- ``晚上``/``下午``/``pm`` move 1-11 o'clock to the afternoon; ``上午``/``早上``/``am``
  keep the morning (12 am is midnight);
- numeric ``a/b`` dates are month/day, unless only day/month is possible (``20/12``);
- anything explicit (a year, ``本月``, ``今天``, ``这周``) that is not in the future is
  refused with ``deadline-past`` rather than silently moved.
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
}  # fmt: skip
ZH_WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
EN_WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_MONTH_NAMES = tuple(m.capitalize() for m in MONTHS)
AFTER = r"\s*(?:后|之后|以后)"
# Words that may surround a deadline without changing it ("20号之前上报", "by the 20th").
FILLER = re.compile(
    r"\b(?:by|before|until|till|due|on|at|the|of|deadline|report|results?)\b"
    r"|之前|以前|为止|截止到?|截至|前|到|在|上报|报告|结果|比赛|完成|结束|的|晚上|[,，.。:;；!！\s]"
)


class DeadlineError(Exception):
    """The text is not a usable deadline: ``code`` names the catalogue message.

    Codes: ``deadline-unparsed`` (no params; the caller adds the text) and
    ``deadline-past`` (``when``: the resolved moment, already formatted).
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, object] = params


@dataclass(frozen=True)
class _Date:
    """A date part. ``pick(k)`` is the k-th candidate day: rolling forms ("20号", "Friday")
    try k = 0, 1, … until the moment is ahead; fixed forms only ever use k = 0. ``None``
    means that candidate does not exist (31 April) and the next one is tried."""

    pick: Callable[[int], date | None]
    rolls: bool


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


def _normalise(text: str) -> str:
    """Full-width to ASCII, lower case, one spelling per synonym."""
    out = unicodedata.normalize("NFKC", text).lower()
    for old, new in (
        ("今晚", "今天晚上"),
        ("明晚", "明天晚上"),
        ("tonight", "today 晚上"),
        ("day after tomorrow", "后天"),
        ("星期", "周"),
        ("礼拜", "周"),
        ("點", "点"),
        ("時", "时"),
        ("號", "号"),
    ):
        out = out.replace(old, new)
    return re.sub(r"(?<=\d)t(?=\d)", " ", out)  # ISO 2026-12-20T18:00


_TIME_RE = re.compile(
    r"(?P<period>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?\s*"
    r"(?:(?P<h1>\d{1,2}):(?P<m1>\d{2})"
    rf"|(?<!周)(?P<h2>{NUM})\s*[点时]\s*(?:(?P<half>半)|(?P<m2>{NUM})\s*分?|整)?"
    r"|(?P<h3>\d{1,2})(?=\s*[ap]\.?m\b)"
    r"|(?P<noon>noon|midday))"
    r"\s*(?:(?P<ampm>[ap])\.?m\b\.?)?"
)
_PM_PERIODS = ("下午", "傍晚", "晚上", "夜里")
_AM_PERIODS = ("凌晨", "早上", "早晨", "上午")


def _take_time(text: str) -> tuple[time | None, str]:
    """Find at most one time of day; return it and the text without it."""
    found = [m for m in _TIME_RE.finditer(text) if m.group("h1", "h2", "h3", "noon") != (None,) * 4]
    if not found:
        return None, text
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    hour = 12 if m.group("noon") else _cn_int(m.group("h1") or m.group("h2") or m.group("h3"))
    minute = 30 if m.group("half") else _cn_int(m.group("m1") or m.group("m2") or "0")
    period, ampm = m.group("period"), m.group("ampm")
    if ampm and not 1 <= hour <= 12:  # "13pm", "0am"
        raise DeadlineError("deadline-unparsed")
    afternoon = period in _PM_PERIODS or ampm == "p"
    if (afternoon and 1 <= hour < 12) or (period == "中午" and 1 <= hour < 6):
        hour += 12
    elif (period in _AM_PERIODS or ampm == "a") and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        raise DeadlineError("deadline-unparsed")
    return time(hour, minute), text[: m.start()] + " " + text[m.end() :]


_DELTA_RE = re.compile(
    rf"(?P<n>\d{{1,3}}|{CN_NUM}|半)\s*(?:个)?\s*(?P<unit>小时|钟头|分钟){AFTER}"
    r"|\bin\s+(?P<n2>\d{1,3}|an?|half an?)\s+(?P<unit2>hours?|hrs?|minutes?|mins?)\b"
)


def _take_delta(text: str) -> tuple[timedelta | None, str]:
    """An exact offset from now: "2小时后", "in 2 hours", "30分钟后"."""
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


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _in_month(today: date, months_ahead: int, day: int) -> date | None:
    index = today.year * 12 + today.month - 1 + months_ahead
    return _valid(index // 12, index % 12 + 1, day)


def _month_day(today: date, month: int, day: int, year: str | None = None) -> _Date:
    if month > 12 and day <= 12:  # "20/12": only day/month is possible
        month, day = day, month
    if year:
        return _Date(lambda _: _valid(int(year), month, day), rolls=False)
    return _Date(lambda k: _valid(today.year + k, month, day), rolls=True)


def _weekday(today: date, weekday: int, week: str) -> _Date:
    offset = WEEK_OFFSETS[week]
    if offset is None:  # the next such day, today included while the time is ahead
        ahead = (weekday - today.weekday()) % 7
        return _Date(lambda k: today + timedelta(days=ahead + 7 * k), rolls=True)
    monday = today - timedelta(days=today.weekday())
    return _Date(lambda _: monday + timedelta(days=7 * offset + weekday), rolls=False)


def _days(today: date, days: int) -> _Date:
    return _Date(lambda _: today + timedelta(days=days), rolls=False)


def _month_end(today: date) -> _Date:
    last = calendar.monthrange(today.year, today.month)[1]
    return _Date(lambda _: today.replace(day=last), rolls=False)


def _num(m: re.Match[str], *groups: str) -> int:
    """The first of ``groups`` that matched, as an int."""
    return _cn_int(next(m.group(g) for g in groups if m.group(g)))


def _cn_weekday(m: re.Match[str]) -> int:
    ch = m.group("wd")
    return 6 if ch in "天7" else int(ch) - 1 if ch.isdigit() else CN_WEEKDAYS.index(ch)


_DateRule = tuple[re.Pattern[str], Callable[[re.Match[str], date], _Date]]
_EN_WEEKDAY = "|".join(EN_WEEKDAYS)
_DATE_RULES: tuple[_DateRule, ...] = tuple(
    (re.compile(pattern), build)
    for pattern, build in (
        (  # 2026-12-20, 2026/12/20, 2026年12月20日
            r"(?P<y>\d{4})\s*[-/.年]\s*(?P<mo>\d{1,2})\s*[-/.月]\s*(?P<d>\d{1,2})\s*[日号]?",
            lambda m, t: _month_day(t, _num(m, "mo"), _num(m, "d"), m.group("y")),
        ),
        (  # 本月20号, 下个月5日
            rf"(?P<which>本月|这个月|下个?月)\s*(?P<d>{NUM})\s*[号日]?",
            lambda m, t: _Date(
                lambda _: _in_month(t, 1 if m.group("which").startswith("下") else 0, _num(m, "d")),
                rolls=False,
            ),
        ),
        (  # 11月20日, 12-20, 12/20
            rf"(?P<mo>{NUM})\s*月\s*(?P<d>{NUM})\s*[日号]?|(?P<mo2>\d{{1,2}})\s*[-/.]\s*(?P<d2>\d{{1,2}})",
            lambda m, t: _month_day(t, _num(m, "mo", "mo2"), _num(m, "d", "d2")),
        ),
        (  # Dec 20, December 20th 2026, 20 Dec, 20th of December
            rf"\b(?P<mon>{MONTH_NAME})\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{{4}}))?"
            rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:of\s+)?(?P<mon2>{MONTH_NAME})"
            r"(?:,?\s*(?P<y2>\d{4}))?",
            lambda m, t: _month_day(
                t,
                MONTHS.index((m.group("mon") or m.group("mon2"))[:3]) + 1,
                _num(m, "d", "d2"),
                m.group("y") or m.group("y2"),
            ),
        ),
        (r"月底|\bend of (?:the )?month\b", lambda m, t: _month_end(t)),
        (  # 3天后, in 3 days; 2周后, in 2 weeks
            rf"(?P<n>\d{{1,3}}|{CN_NUM})\s*天{AFTER}|\bin\s+(?P<n2>\d{{1,3}})\s+days?\b",
            lambda m, t: _days(t, _num(m, "n", "n2")),
        ),
        (
            rf"(?P<n>{NUM})\s*个?周{AFTER}|\bin\s+(?P<n2>\d{{1,2}})\s+weeks?\b",
            lambda m, t: _days(t, 7 * _num(m, "n", "n2")),
        ),
        (  # 20号, 20日, 二十号, the 20th
            rf"(?P<d>{NUM})\s*[号日]|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)\b",
            lambda m, t: _Date(lambda k: _in_month(t, k, _num(m, "d", "d2")), rolls=True),
        ),
        (r"大后天", lambda m, t: _days(t, 3)),
        (r"后天", lambda m, t: _days(t, 2)),
        (r"明天|明日|\btomorrow\b", lambda m, t: _days(t, 1)),
        (r"今天|今日|\btoday\b", lambda m, t: _days(t, 0)),
        (  # 周五, 下周五, 这周日, 星期天
            r"(?P<w>下下|下个|下|这个|这|本)?\s*周\s*(?P<wd>[一二三四五六日天1-7])",
            lambda m, t: _weekday(t, _cn_weekday(m), m.group("w") or ""),
        ),
        (  # friday, next fri, this sunday
            rf"\b(?:(?P<w>next|this)\s+)?(?P<wd>{_EN_WEEKDAY})\b",
            lambda m, t: _weekday(t, EN_WEEKDAYS[m.group("wd")], m.group("w") or ""),
        ),
    )
)


def _take_date(text: str, today: date) -> tuple[_Date | None, int | None, str]:
    """Find the date part; return it, a weekday written beside it, and the rest.

    A weekday may accompany a date ("12月20日 周日", the way the bot echoes deadlines)
    and is then checked, not used. Any other pair ("20号 21号") is ambiguous: refused.
    """
    found: list[tuple[re.Match[str], _Date]] = []
    for pattern, build in _DATE_RULES:
        m = pattern.search(text)
        if m is not None:
            found.append((m, build(m, today)))
            text = text[: m.start()] + " " + text[m.end() :]
    if len(found) < 2:
        return (found[0][1] if found else None), None, text
    plain_weekdays = [d for m, d in found if "wd" in m.re.groupindex and not m.group("w")]
    if len(found) > 2 or len(plain_weekdays) != 1:
        raise DeadlineError("deadline-unparsed")
    other = next(d for _, d in found if d is not plain_weekdays[0])
    first = plain_weekdays[0].pick(0)
    assert first is not None  # weekday candidates always exist
    return other, first.weekday(), text


def _resolve(day: _Date, at: time, now: datetime, tz: ZoneInfo) -> datetime:
    """The first candidate moment ahead of ``now`` (or the only one, for fixed forms)."""
    moment: datetime | None = None
    for k in range(14 if day.rolls else 1):  # 14 months covers "31号" after a short month
        candidate = day.pick(k)
        if candidate is None:
            continue
        moment = datetime.combine(candidate, at, tzinfo=tz)
        if moment > now:
            return moment
    if moment is None:  # 30 February and the like
        raise DeadlineError("deadline-unparsed")
    return moment


def parse_deadline(text: str, now: datetime, tz: ZoneInfo, lang: str = "zh") -> datetime:
    """Read a deadline; return it as an aware datetime in ``tz``, minute precision.

    ``now`` is the current moment (a naive ``now`` is taken to be in ``tz``); ``lang`` is
    only used to word the ``when`` of a ``deadline-past`` refusal.
    """
    local_now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    rest = _normalise(text)
    delta, rest = _take_delta(rest)
    at, rest = _take_time(rest)
    day, weekday, rest = _take_date(rest.replace(f"({tz.key.lower()})", " "), local_now.date())
    if FILLER.sub("", rest) or (delta is None and at is None and day is None):
        raise DeadlineError("deadline-unparsed")
    if delta is not None:
        if at is not None or day is not None:
            raise DeadlineError("deadline-unparsed")
        exact = (local_now.astimezone(UTC) + delta).astimezone(tz)
        return exact.replace(second=0, microsecond=0)
    if day is None:  # a bare time: its next occurrence
        today = local_now.date()
        day = _Date(lambda k: today + timedelta(days=k), rolls=True)
    moment = _resolve(day, at or END_OF_DAY, local_now, tz)
    if weekday is not None and moment.weekday() != weekday:
        raise DeadlineError("deadline-unparsed")
    if moment <= local_now:
        raise DeadlineError("deadline-past", when=format_deadline(moment, tz, lang))
    return moment


def format_deadline(dt: datetime, tz: ZoneInfo, lang: str) -> str:
    """The deadline as the bot echoes it: zh ``12月20日 周日 18:00 (Asia/Shanghai)``,
    en ``Sun 20 Dec 18:00 (Asia/Shanghai)``."""
    local = dt.astimezone(tz)
    clock = f"{local:%H:%M} ({tz.key})"
    if lang == "zh":
        return f"{local.month}月{local.day}日 {ZH_WEEKDAY_NAMES[local.weekday()]} {clock}"
    weekday, month = EN_WEEKDAY_NAMES[local.weekday()], EN_MONTH_NAMES[local.month - 1]
    return f"{weekday} {local.day} {month} {clock}"
