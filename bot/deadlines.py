"""Free-text deadlines in Chinese or English, simplified or traditional.

Organisers write deadlines the way they talk: ``20号之前上报``, ``下周五 18:00``,
``禮拜日晚八點``, ``3天内``, ``by the 20th``, ``friday at 6:30pm``, ``EOW``, ``4pm CET``.
:func:`resolve_deadline` turns such text into an aware datetime in the chat's zone, and
the bot echoes it back with :func:`format_deadline` (weekday, time, zone, the year when it
is not this year, and how long is left) so a misreading is caught at once.

The parser is a small hand-written grammar and pure: ``now`` is passed in, nothing reads
the clock. Text is first brought to one spelling (traditional characters to simplified,
Cantonese and Taiwan words, English number and ordinal words to digits, the start of a
range dropped so its end remains); then it takes an exact offset, a time part and a date
part independently, and refuses if anything unrecognised is left over (guessing a
deadline from half-understood text is worse than asking again). A refusal always says
why (``DeadlineError.code``).

Resolution rules:

- a date without a time means the end of that day, 23:59; a part of the day alone means
  the end of that part (上午/morning 12:00, 下午/afternoon 18:00, 晚上/evening/night 23:59,
  早上 09:00, 中午/noon 12:00);
- a period means its end: 这周/本周/``this week``/周末/EOW this week's Sunday 23:59,
  下周/``next week`` next week's; 这个月/月底/EOM, 下个月, 3月/``March``, 上中下旬,
  本季度/``next quarter``, 今年, 明年 the last day of that span; ``3天内``/``下三天``/
  ``next 3 days`` the end of the third day from today, ``一个月内`` the same day next
  month;
- holidays on a fixed date (圣诞节, ``halloween``) or weekday (母亲节, ``thanksgiving``),
  and ``the 2nd sunday of may``, ``last friday of next month``, ``friday after next``;
- ``48小时内``/``后三小时``/``in 1h``/``in half an hour``/``1小时30分钟后`` are exact
  offsets from now; seconds are refused (``in a second`` is not the 2nd);
- 24点, 24:00, 晚上12点, 半夜 and ``midnight`` are the midnight that ends that day; 半夜/
  深夜/晚上 1-4点 are the small hours after that day;
- a range means its end (``3-4pm``, ``July 13-15``, ``周五到周日``);
- a bare hour (1-12 o'clock without 上午/下午/晚上/am/pm, not written ``09:00``) is read on a
  12-hour clock: of its two readings only those ahead count, and a small-hours reading
  (00:00-06:59) only when no day is written and it is the very next one (or the only one
  ahead); 12's night reading is the midnight ending the day; if two readings remain,
  :class:`AmbiguousHour` carries both and the caller asks which is meant;
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
- anything explicit (a year, ``本月``, ``今天``, ``昨天``, ``上周五``) that is not in the
  future is refused with ``deadline-past`` rather than silently moved.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.zones import CITIES, ZoneError, find_zone

END_OF_DAY = time(23, 59)
CN_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
    "八": 8, "九": 9,
}  # fmt: skip
CN_NUM = "[零〇一二两三四五六七八九十]{1,3}"
NUM = rf"\d{{1,2}}|{CN_NUM}"  # a small number, in digits or Chinese
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH_NAME = (  # whole words only: "maybe" is not May
    r"(?:january|february|march|april|may|june|july|august|september|sept|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![a-z])\.?"
)
EN_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4,
    "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
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
    r"|matches?|finished|complete|round|for|more)\b|@"
    r"|之前|以前|为止|截止到?|截至|最迟|前|到|在|上报|报告|报成绩|成绩|结果|比赛|完成|结束|的|请|报"
    r"|之内|以内|内|之间|时间|日期|为|是|要|需要|必须|须|交|提交|打完|比完|搞定|ddl"
    r"|[,，.。:;；!！、\s]"
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
_NIGHT_PERIODS = ("晚上", "晚", "夜里", "夜", "深夜", "半夜")  # 12点: the day's end; 1-4点 after it
SMALL_HOURS_END = 7  # a reading before 07:00 is "in the small hours"


class DeadlineError(Exception):
    """The text is not a usable deadline: ``code`` names the catalogue message.

    Codes (the caller adds ``text``):
    ``deadline-unparsed`` (no params);
    ``deadline-past`` (``when``: the resolved moment, formatted);
    ``deadline-no-such-date`` (``date``: e.g. ``2月30日``);
    ``deadline-weekday-clash`` (``date``: the date with its real weekday; ``written``);
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
    rolls on to a leap year). ``period`` marks the last day of a named span."""

    pick: Callable[[int], date | Missing]
    rolls: bool
    skip: bool = False
    period: bool = False


@dataclass(frozen=True)
class _Clock:
    """A time part; ``next_day`` marks a time after the day's end (24点, 半夜两点);
    ``bare`` an hour of 1-12 written without am/pm: ``at`` is its morning reading."""

    at: time
    next_day: bool = False
    bare: bool = False


def _cn_int(text: str) -> int:
    """``8`` → 8, ``八`` → 8, ``十二`` → 12, ``二十五`` → 25, ``两`` → 2, ``零五`` → 5."""
    if text.isascii() and text.isdigit():
        return int(text)
    if len(text) == 2 and text[0] in "零〇" and text[1] in CN_DIGITS:
        return CN_DIGITS[text[1]]  # 三点零五: the 零 holds the tens place
    tens, ten, ones = text.partition("十")
    if not ten:
        if len(text) != 1 or text not in CN_DIGITS:
            raise DeadlineError("deadline-unparsed")
        return CN_DIGITS[text]
    if len(tens) > 1 or len(ones) > 1 or not {tens, ones} <= {"", *CN_DIGITS}:
        raise DeadlineError("deadline-unparsed")  # 十十, 三十十: not a number
    return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)


# --- one spelling ----------------------------------------------------------------------------
# Traditional characters that deadlines use, to simplified: one grammar reads both.
_TRADITIONAL = str.maketrans(
    "後這週時個兩點號鐘內禮間來頭為報結東請數幾於過與曆開當從鬆準聽緊晝聖誕國慶勞動兒萬親師軍節婦",
    "后这周时个两点号钟内礼间来头为报结东请数几于过与历开当从松准听紧昼圣诞国庆劳动儿万亲师军节妇",
)
_SYNONYMS = (  # applied in order, on simplified text
    # holidays on a fixed date, or on the n-th weekday of a month
    ("元旦", "1月1日"),
    ("圣诞节", "12月25日"),
    ("圣诞", "12月25日"),
    ("平安夜", "12月24日"),
    ("跨年夜", "12月31日"),
    ("情人节", "2月14日"),
    ("国庆节", "10月1日"),
    ("国庆", "10月1日"),
    ("劳动节", "5月1日"),
    ("儿童节", "6月1日"),
    ("妇女节", "3月8日"),
    ("万圣节", "10月31日"),
    ("愚人节", "4月1日"),
    ("教师节", "9月10日"),
    ("建军节", "8月1日"),
    ("青年节", "5月4日"),
    ("植树节", "3月12日"),
    ("母亲节", " 2nd sunday of may "),
    ("父亲节", " 3rd sunday of june "),
    ("感恩节", " 4th thursday of november "),
    ("廿", "二十"),
    ("卅", "三十"),
    ("听日", "明天"),
    ("听晚", "明天晚上"),
    ("后日", "后天"),
    ("今个", "这个"),
    ("呢个", "这个"),
    ("嚟紧", ""),
    ("下个礼拜", "下周"),
    ("星期", "周"),
    ("礼拜", "周"),
    ("周天", "周日"),
    ("零晨", "凌晨"),
    ("朝早", "早上"),
    ("晏昼", "下午"),
    ("下昼", "下午"),
    ("上昼", "上午"),
    ("听朝", "明天早上"),
    ("今朝", "今天早上"),
    ("后晚", "后天晚上"),
    ("明天这个时候", "24小时后"),
    ("明天此时", "24小时后"),
    ("夜晚", "晚上"),
    ("下班", "下午"),
    ("最晚", "最迟"),
    ("不晚于", "前"),
    ("月尾", "月底"),
    ("年尾", "年底"),
    ("今晚", "今天晚上"),
    ("明晚", "明天晚上"),
    ("明早", "明天早上"),
    ("今早", "今天早上"),
    ("今日", "今天"),
    ("明日", "明天"),
    ("个钟头", "小时"),
    ("钟头", "小时"),
    ("个钟", "小时"),
    ("个小时", "小时"),
    ("一刻钟", "15分钟"),
    ("半个月", "15天"),
    ("周末", "周日"),  # 周末 = Sunday 23:59 (本周末, 下周末 follow)
    ("午夜", "24点"),
    ("今年年底", "年底"),
    ("明年年底", "明年底"),
)
_CN_NEXT_SPAN = re.compile(  # 下三天, 后三小时, 未来两周, 接下来3天: a span counted from now
    rf"(?:接下来|未来|之后|往后|下|后)\s*(?P<n>\d{{1,3}}|{CN_NUM}|半)\s*(?P<unit>个?半?\s*"
    r"(?:天|日|小时|分钟|周|个月))(?!\s*(?:后|之后|以后|内|之内|以内))"
)
_EN_UNITS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
_EN_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
    "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_EN_NUMBER = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_EN_TENS)})(?:[- ]?(?:(?P<ones>{'|'.join(list(_EN_UNITS)[:9])})"
    rf"|(?P<ord>{'|'.join(list(_EN_ORDINALS)[:9])})))?"
    rf"|(?P<unit>{'|'.join(_EN_UNITS)})|(?P<ordinal>{'|'.join(_EN_ORDINALS)}))\b"
)


def _en_number(m: re.Match[str]) -> str:
    if m.group("tens"):
        tens = _EN_TENS[m.group("tens")]
        if m.group("ord"):
            return f"{tens + _EN_ORDINALS[m.group('ord')]}th"
        return str(tens + (_EN_UNITS[m.group("ones")] if m.group("ones") else 0))
    if m.group("unit"):
        return str(_EN_UNITS[m.group("unit")])
    return f"{_EN_ORDINALS[m.group('ordinal')]}th"


_EN_WEEKDAY = "|".join(EN_WEEKDAYS)
_EN_SYNONYMS = (  # whole words, applied in order
    (r"christmas eve|xmas eve", "dec 24"),
    (r"christmas(?: day)?|xmas(?: day)?", "dec 25"),
    (r"boxing day", "dec 26"),
    (r"new year'?s eve", "dec 31"),
    (r"valentine'?s(?: day)?|valentine day", "feb 14"),
    (r"halloween", "oct 31"),
    (r"independence day", "jul 4"),
    (r"april fools'?(?: day)?", "apr 1"),
    (r"mother'?s day", "2nd sunday of may"),
    (r"father'?s day", "3rd sunday of june"),
    (r"thanksgiving(?: day)?", "4th thursday of november"),
    (r"memorial day", "last monday of may"),
    (r"(?:this|same) time tomorrow", "in 24 hours"),
    (r"12 (noon|midnight)", r"\1"),
    (r"a couple of|a couple|couple of", "2"),
    (r"(?:a )?fortnight", "2 weeks"),
    (r"(\d+) more (minutes?|hours?|days?|weeks?)", r"\1 \2"),
    (r"(?:an?|1) hour and a half|1\.5 hours?", "90 minutes"),
    (r"(\d+) and an? half hours?", r"\1.5 hours"),
    (r"half an? hour|1/2 an? hour|1/2 hours?|half hour|0\.5 hours?", "30 minutes"),
    (r"(?:a )?quarter of an hour|a quarter hour|quarter hour", "15 minutes"),
    (r"3[- ]quarters of an hour", "45 minutes"),
    (
        r"((?:\d+(?:\.\d+)?|an?)\s*\w+?)'?s?\s+(?:from now|from right now|from today|later|time"
        r"|hence)",
        r"in \1",
    ),
    (r"after (\d+ (?:days?|weeks?|months?|hours?|minutes?))", r"in \1"),
    (
        r"(?:over )?(?:the )?next (\d+(?:\.\d+)?|a|an) (minutes?|hours?|days?|weeks?|months?)",
        r"in \1 \2",
    ),
    (r"within the (?:next )?hour", "in 1 hour"),
    (r"half past (\d{1,2})", r"\1:30"),
    (r"(?:a )?quarter past (\d{1,2})", r"\1:15"),
    (r"(\d{1,2})\s*o'?clock", r"\1:00"),
    (r"day after tomorrow", "后天"),
    (r"tonight", "today 晚上"),
    (r"tmrw?|tmw|tomorow|tomorrrow|2moro", "tomorrow"),
    (r"(?:the )?day before yesterday", "前天"),
    (r"week-end", "weekend"),
    (r"(?:the )?(?:coming|following|upcoming) week", "next week"),
    (r"(?:the )?following (month|year)", r"next \1"),
    (r"current (week|month|year|quarter)", r"this \1"),
    (r"this coming|coming", ""),
    (r"lunch(?:time)?", "中午"),
    (r"at (\d{1,2}) (\d{2})", r"\1:\2"),
    (r"last day of (?:the |this )?month", "月底"),
    (r"last day of next month", "下个月底"),
    (r"last day (?:of|in) ", "end of "),
    (r"(\d{1,2})th day (?:of|in)", r"\1th of"),
    (rf"({_EN_WEEKDAY})\s+(?:of\s+|in\s+)?next week", r"next \1"),
    (rf"next week(?:'s)?\s+(?:on\s+)?({_EN_WEEKDAY})", r"next \1"),
    (rf"({_EN_WEEKDAY})\s+(?:of\s+)?this week", r"this \1"),
    (rf"this week(?:'s)?\s+(?:on\s+)?({_EN_WEEKDAY})", r"this \1"),
    (r"next weekend|end of next week", "下周日"),
    (r"(?:this )?weekend|eow|(?:the )?end of (?:the |this )?week", "本周日"),
    (r"this week", "本周"),
    (r"next week", "下周"),
    (r"eod|cob|close of business|end of (?:the )?day", "23:59"),
    (r"eoq|(?:the )?end of (?:the |this )?quarter|this quarter|this qtr", "本季度"),
    (r"next quarter|next qtr", "下季度"),
    (r"(?:the )?end of (?:the |this )?year|eoy|this year", "年底"),
    (r"end of next month", "下个月底"),
    (r"next month", "下个月"),
    (r"eom", "月底"),
    (r"this month", "本月"),
    (r"next year", "明年"),
    (r"midnight", "24点"),
    (r"noon|midday", "中午12点"),
    (r"this morning", "today 上午"),
    (r"this afternoon", "today 下午"),
    (r"this evening", "today 晚上"),
    (r"(?:in the )?morning", "上午"),
    (r"(?:in the )?afternoon", "下午"),
    (r"(?:in the )?evening|night", "晚上"),
    (r"new year'?s day|new year", "1月1日"),
    (r"within", "in"),
)
_RANGE_SEP = r"\s*(?:-|–|—|~|～|到|至|\bto\b|\bthrough\b|\bthru\b)\s*"
_RANGES = (  # the start of a range, dropped: its end is the deadline
    (
        rf"(?<![\d/.:-])(?:{NUM})(?:\s*[点时](?:半|{NUM}分?)?)?{_RANGE_SEP}(?=(?:{NUM})\s*[点时])",
        "",
    ),
    (rf"(?<![\d/.:-])(?:{NUM})\s*[号日]?{_RANGE_SEP}(?=(?:{NUM})\s*[号日])", ""),
    (
        rf"(?<![\d/.:-])\d{{1,2}}(?::\d{{2}})?\s*(?:[ap]\.?m?\.?)?{_RANGE_SEP}"
        r"(?=\d{1,2}(?::\d{2})?\s*[ap](?:\.?m)?\b)",
        "",
    ),
    (r"\bbetween\s+(?:\S+\s+){0,2}?\S*\d\S*\s+and\s+(?=\S*\d)", ""),
    (rf"(?<![\d/.:-])\d{{1,2}}:\d{{2}}{_RANGE_SEP}(?=\d{{1,2}}:\d{{2}})", ""),
    (rf"(?<![\d/.:-])(\d{{1,2}})(?:st|nd|rd|th)?{_RANGE_SEP}(?=\d{{1,2}}(?:st|nd|rd|th)\b)", ""),
    (
        rf"\b({MONTH_NAME})\s*\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}(\d{{1,2}}(?:st|nd|rd|th)?)\b",
        r"\1 \2",
    ),
    (rf"\b\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}(?=\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH_NAME})", ""),
    (rf"\b{MONTH_NAME}\s*\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}(?={MONTH_NAME})", ""),
    (rf"((?:{NUM})\s*月)\s*(?:{NUM})\s*[日号]?{_RANGE_SEP}(?=(?:{NUM})\s*[日号])", r"\1"),
    (rf"(?:{NUM})\s*月\s*(?:{NUM})\s*[日号]?{_RANGE_SEP}(?=(?:{NUM})\s*月)", ""),
    (r"周\s*[一二三四五六日天1-7]" + _RANGE_SEP + r"(?=周)", ""),
    (rf"(?<![\d/.:-])(?:{NUM}){_RANGE_SEP}(?=(?:{NUM})\s*个?\s*(?:天|小时|分钟|周|月))", ""),
    (
        r"(?<![\d/.:-])\d{1,3}" + _RANGE_SEP + r"(?=\d{1,3}\s*(?:days?|hours?|weeks?|minutes?)\b)",
        "",
    ),
    (r"周\s*[一二三四五六日天1-7]" + _RANGE_SEP + r"(?=[一二三四五六日天])", "周"),
    (rf"\b(?:{_EN_WEEKDAY})\b{_RANGE_SEP}(?=(?:{_EN_WEEKDAY})\b)", ""),
)


_EN_COMPILED = tuple((re.compile(rf"\b(?:{p})\b"), f" {new} ") for p, new in _EN_SYNONYMS)
_RANGES_COMPILED = tuple((re.compile(p), new) for p, new in _RANGES)
_SPACES = re.compile(r"\s+")
_COMPOUND = re.compile(  # 1 hour 30 minutes, 2h30m, 1小时30分钟: one count of minutes
    rf"(?P<h>\d{{1,2}}|{CN_NUM})\s*(?:个)?\s*(?:小时|h|hours?|hrs?)\s*(?:and\s*)?"
    rf"(?P<m>\d{{1,2}}|{CN_NUM})\s*(?P<unit>分钟|m\b|mins?\b|minutes?\b)"
)


def _compound(m: re.Match[str]) -> str:
    minutes = 60 * _cn_int(m.group("h")) + _cn_int(m.group("m"))
    return f" {minutes}{'分钟' if m.group('unit') == '分钟' else ' minutes'} "


_MINUTES_PAST = re.compile(
    r"\b(?:(?P<m>\d{1,2})(?: minutes?)?|(?P<q>(?:a )?quarter)|(?P<h>half)) (?:past|after) "
    r"(?P<hour>\d{1,2})(?![\d:])"
)
_MINUTES_TO = re.compile(
    r"\b(?:(?P<m>\d{1,2})(?P<word> minutes?)?|(?P<q>(?:a )?quarter)) (?:to|before|till|til) "
    r"(?P<hour>\d{1,2}(?![\d:])|noon|midnight)"
)


def _minutes_past(m: re.Match[str]) -> str:
    """``20 past 3`` → ``3:20``, ``a quarter past 3`` → ``3:15``, ``half past 3`` → ``3:30``."""
    minutes = 15 if m.group("q") else 30 if m.group("h") else int(m.group("m"))
    if minutes > 59 or not 1 <= int(m.group("hour")) <= 12:
        return m.group(0)
    return f" {m.group('hour')}:{minutes:02d} "


def _minutes_to(m: re.Match[str]) -> str:
    """``a quarter to noon`` → ``11:45am``, ``20 minutes to 4`` → ``3:40``; ``10 to 4`` and
    ``July 13 to 15`` are left alone (ranges)."""
    minutes = 15 if m.group("q") else int(m.group("m"))
    hour = m.group("hour")
    explicit = m.group("q") or m.group("word") or not hour.isdigit()
    if not explicit or minutes > 59 or (hour.isdigit() and not 1 <= int(hour) <= 12):
        return m.group(0)
    if hour == "noon":
        return f" 11:{60 - minutes:02d}am "
    if hour == "midnight":
        return f" 11:{60 - minutes:02d}pm "
    return f" {(int(hour) - 1) or 12}:{60 - minutes:02d} "


def _normalise(text: str) -> str:
    """Full-width to ASCII, lower case, simplified characters, one spelling per synonym,
    English number words as digits, and only the end of a range."""
    out = unicodedata.normalize("NFKC", text).lower().translate(_TRADITIONAL)
    for old, new in _SYNONYMS:
        out = out.replace(old, new)
    out = _CN_NEXT_SPAN.sub(lambda m: f"{m.group('n')}{m.group('unit')}内", out)
    out = re.sub(r"\bfirst thing\b", " 早上 ", out)
    # seconds are not a deadline's unit ("in a second" is not the 2nd): refused, never read
    out = re.sub(r"\b(\d+|an?|one|few)\s+sec(?:ond)?s?\b|\bin a sec\b", " 秒 ", out)
    out = re.sub(r"\b(?:about|around|approximately|approx|roughly)\b|(?<=[\dm])ish\b", " ", out)
    out = _COMPOUND.sub(_compound, out)
    out = _EN_NUMBER.sub(_en_number, out)
    out = _MINUTES_TO.sub(_minutes_to, _MINUTES_PAST.sub(_minutes_past, out))
    out = re.sub(r"\bhalf (\d{1,2})(?![\d:])", r" \1:30 ", out)  # half three: 3:30
    out = re.sub(r"\b(?:an?|one|1)\s*/\s*2(?!\d)", "0.5", out)
    out = re.sub(
        r"\b([1-3])\s*/\s*4\s*(?=h\b|hours?\b|hrs?\b)", lambda m: f"0.{25 * int(m.group(1))} ", out
    )
    for compiled, new in _EN_COMPILED:
        out = _SPACES.sub(" ", compiled.sub(new, out))
    for compiled, new in _RANGES_COMPILED:
        out = compiled.sub(new, out)
    return re.sub(r"(?<=\d)t(?=\d)", " ", out)  # ISO 2026-12-20T18:00


# --- zones -----------------------------------------------------------------------------------
# Written zone abbreviations, as the fixed offsets they name (``EST`` is UTC-5 even in July).
_ZONE_OFFSETS = {
    "utc": 0, "gmt": 0, "wet": 0, "bst": 1, "cet": 1, "west": 1, "cest": 2, "eet": 2,
    "eest": 3, "msk": 3, "hkt": 8, "sgt": 8, "awst": 8, "jst": 9, "kst": 9, "aest": 10,
    "aedt": 11, "nzst": 12, "nzdt": 13, "edt": -4, "est": -5, "cdt": -5, "mdt": -6,
    "mst": -7, "pdt": -7, "pst": -8, "akst": -9, "hst": -10,
}  # fmt: skip
_ZONE_NAMES = {"et": "America/New_York", "pt": "America/Los_Angeles", "ct": "America/Chicago"}
_CN_ZONES = {
    **{k: v for k, v in CITIES.items() if not k.isascii()},
    "美东": "America/New_York", "美西": "America/Los_Angeles", "日本": "Asia/Tokyo",
    "韩国": "Asia/Seoul", "英国": "Europe/London", "欧洲中部": "Europe/Berlin",
}  # fmt: skip
_ZONE_RE = re.compile(
    r"(?:\b(?:utc|gmt)\s*(?P<sign>[+-])\s*(?P<hours>\d{1,2})(?::?00)?\b"
    r"|(?<=\d:\d\d)\s*(?P<sign2>[+-])(?P<hours2>\d{2}):?00\b"
    rf"|\b(?P<abbr>{'|'.join(_ZONE_OFFSETS)}|{'|'.join(_ZONE_NAMES)})\b"
    rf"|(?P<cn>{'|'.join(_CN_ZONES)})时间"
    r"|(?P<east>[东西])(?P<cnhours>[一二三四五六七八九十]{1,3}|\d{1,2})区(?:时间)?"
    r"|\(?\b(?P<iana>[a-z]+/[a-z_]+(?:/[a-z_]+)?)\b\)?)"
)


def _fixed(hours: int) -> ZoneInfo:
    if hours > 14:
        raise DeadlineError("deadline-unparsed")
    return ZoneInfo("UTC" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}")


def _take_zone(text: str) -> tuple[ZoneInfo | None, str, str]:
    """A zone the time is written in: the zone, the label it was written as, the rest."""
    found = list(_ZONE_RE.finditer(text))
    if not found:
        return None, "", text
    if len(found) > 1:
        raise DeadlineError("deadline-unparsed")
    m = found[0]
    rest = text[: m.start()] + " " + text[m.end() :]
    label = m.group(0).strip("() ").upper()
    if m.group("sign") or m.group("sign2"):
        sign = -1 if (m.group("sign") or m.group("sign2")) == "-" else 1
        return _fixed(sign * int(m.group("hours") or m.group("hours2"))), label, rest
    if m.group("abbr"):
        abbr = m.group("abbr")
        if abbr in _ZONE_NAMES:
            return ZoneInfo(_ZONE_NAMES[abbr]), label, rest
        return _fixed(_ZONE_OFFSETS[abbr]), label, rest
    if m.group("cn"):
        return ZoneInfo(_CN_ZONES[m.group("cn")]), m.group(0), rest
    if m.group("east"):
        hours = _cn_int(m.group("cnhours"))
        return _fixed(hours if m.group("east") == "东" else -hours), m.group(0), rest
    try:
        zone = ZoneInfo(find_zone(m.group("iana")))
    except (ZoneError, ZoneInfoNotFoundError):
        raise DeadlineError("deadline-unparsed") from None
    return zone, zone.key, rest


# --- time of day -----------------------------------------------------------------------------
_TIME_RE = re.compile(
    r"(?:(?P<h1>\d{1,2})\s*(?::|h(?=\d{2}))\s*(?P<m1>\d{2})(?!\d)"
    rf"|(?<!周)(?P<h2>{NUM})\s*[点时]钟?\s*(?:(?P<half>半)|(?P<quarter>一刻|三刻)"
    rf"|(?P<m2>{NUM})\s*(?P<fen>分钟?)?|整)?"
    r"|(?P<h3>\d{1,2})(?:\.(?P<m3>\d{2}))?(?=\s*[ap]\.?\s?m\b|[ap]\b)"
    r"|\bat\s+(?P<h4>\d{1,2})\b(?![-/.:号日]))"
    r"(?:\s*(?P<ampm>[ap])\.?\s?m\b\.?|(?<=\d)(?P<ampm2>[ap])\b)?"
)
_PERIOD_RE = re.compile(rf"(?P<period>{_PERIODS})(?!于)")
_LONE_HOUR = re.compile(r"(?<![\d.:/-])(?<!\bthe )\b(?P<h>\d{1,2})\b(?![\d.:/-])")


@dataclass(frozen=True)
class _Written:
    """A time of day as written: the hour and minute, am/pm, and whether it is on a
    24-hour clock (a leading zero, ``09:00``, or the bot's own echo pasted back)."""

    hour: int
    minute: int
    ampm: str | None = None
    clock24: bool = False


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
    return _Written(hour, minute, ampm, padded), text[: m.start()] + " " + text[m.end() :]


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
    if (hour == 24 and minute == 0) or (hour == 12 and minute == 0 and period in _NIGHT_PERIODS):
        return _Clock(time(0, 0), next_day=True)
    if ampm == "p" and hour < 12:
        hour += 12
    elif ampm == "a" and hour == 12:
        hour = 0
    elif ampm is None and period in _NIGHT_PERIODS and 1 <= hour <= 4:
        return _Clock(time(hour, minute), next_day=True)  # 半夜两点: the night after that day
    elif ampm is None and (
        (period in _PM_PERIODS and 1 <= hour < 12) or (period == "中午" and 1 <= hour < 6)
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
    if minutes <= 0:
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
    return date(year, month, calendar.monthrange(year, month)[1])


def _year(text: str) -> int:
    """``2027`` or ``二〇二七``."""
    return int("".join(str(CN_DIGITS[c]) if c in CN_DIGITS else c for c in text))


def _month_day(today: date, month: int, day: int, year: str | None = None) -> _Date:
    if month > 12 and day <= 12:  # "20/12": only day/month is possible
        month, day = day, month
    if year:
        return _Date(lambda _: _valid(_year(year), month, day), rolls=False)
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


def _num(m: re.Match[str], *groups: str) -> int:
    """The first of ``groups`` that matched, as an int."""
    return _cn_int(next(m.group(g) for g in groups if m.group(g)))


def _count(m: re.Match[str], *groups: str) -> int:
    """A count that may be written ``a``/``an``."""
    raw = next(m.group(g) for g in groups if m.group(g))
    return 1 if raw in ("a", "an") else _cn_int(raw)


def _month_of(m: re.Match[str], *groups: str) -> int:
    return MONTHS.index(next(m.group(g) for g in groups if m.group(g))[:3]) + 1


def _cn_weekday(m: re.Match[str]) -> int:
    ch = m.group("wd")
    return 6 if ch in "天7" else int(ch) - 1 if ch.isdigit() else CN_WEEKDAYS.index(ch)


def _month_ahead(which: str) -> int:
    return 1 if which.startswith("下") else -1 if which.startswith("上") else 0


def _month_of_year(m: re.Match[str], today: date, lang: str) -> _Date:
    """A month of this, next or last year; its end, or a day of it."""
    year = today.year + {"今年": 0, "明年": 1, "去年": -1}[m.group("which")]
    month = _num(m, "mo")
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
    named = m.group("n") or m.group("q") or m.group("cn")
    if named is None:
        ahead = 1 if (m.group("which") or "").startswith("下") else 0
        year, month = _month_index(today, 3 * (current + ahead) - today.month + 3)
        return _Date(lambda _: _last_of(year, month), rolls=False, period=True)
    end = 3 * _cn_int(named)
    if m.group("y"):
        return _Date(lambda _: _last_of(int(m.group("y")), end), rolls=False, period=True)
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
            rf"\b(?:(?P<nth>[1-5])(?:st|nd|rd|th)|(?P<last>last))\s+(?P<nwd>{_EN_WEEKDAY})\s+"
            rf"(?:of|in)\s+(?:(?P<mon>{MONTH_NAME})(?:,?\s*(?P<y>\d{{4}}))?|(?P<which>{_WHICH_MONTH}))",
            _nth_weekday,
        ),
        (  # wednesday after next
            rf"\b(?P<awd>{_EN_WEEKDAY})\s+after\s+next\b",
            lambda m, t, _: _days(t, ((EN_WEEKDAYS[m.group("awd")] - t.weekday()) % 7 or 7) + 7),
        ),
        (  # 3/3/2015, 10/31/74, 31.10.2027: day and month told apart only when one is > 12
            r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/.-])",
            _numeric_with_year,
        ),
        (  # this quarter, next quarter, 3rd quarter, q3 2027, 本季度, 第三季度
            r"(?P<which>本|这个?|下个?)季度|季度?[末底]"
            r"|\b(?:(?P<n>[1-4])(?:st|nd|rd|th) quarter|q(?P<q>[1-4]))(?:\s*(?P<y>\d{4}))?"
            r"|第(?P<cn>[一二三四1-4])季度",
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
        (  # 今年3月5号, 明年一月, 明年3月底: a month (and day) of this or next year
            rf"(?P<which>今年|明年|去年)\s*(?P<mo>{NUM})\s*月(?:份)?\s*(?:[底末]|(?P<d>{NUM})\s*[日号]?)?",
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
            rf"\b(?:(?P<w>next|this|last)\s+)?(?P<wd>{_EN_WEEKDAY})\b",
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
        (  # 3月, 三月份, March, by march
            rf"(?P<mo>{NUM})\s*月份?|\b(?P<mon>{MONTH_NAME})",
            lambda m, t, _: _named_month_end(
                _num(m, "mo") if m.group("mo") else _month_of(m, "mon"), t
            ),
        ),
        (r"今年", lambda m, t, _: _Date(lambda _: date(t.year, 12, 31), False, period=True)),
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
    plain_weekdays = [
        d for m, d in found if "wd" in m.re.groupindex and m.group("wd") and not m.group("w")
    ]
    if len(found) > 2 or len(plain_weekdays) != 1:
        raise DeadlineError("deadline-unparsed")
    other = next(d for _, d in found if d is not plain_weekdays[0])
    first = plain_weekdays[0].pick(0)
    assert isinstance(first, date)  # weekday candidates always exist
    return other, first.weekday(), text


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
    rest = _normalise(rest)
    written_in, label, rest = _take_zone(rest)
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
    rest: str, local_now: datetime, tz: ZoneInfo, lang: str, english: bool, echo: bool
) -> Resolved:
    """:func:`resolve_deadline` on normalised text, in the zone it is written in."""
    delta, rest = _take_delta(rest)
    written, rest = _take_time(rest)
    period, rest = _take_period(rest)
    day, weekday, rest = _take_date(rest, local_now.date(), lang)
    anchored = day is not None or period is not None or re.search(r"\b(?:at|by|before)\b", rest)
    if english and written is None and anchored:
        lone = _LONE_HOUR.search(rest)  # "9 tomorrow", "8 tonight", "tomorrow by 5"
        if lone and 1 <= int(lone.group("h")) <= 12 and not FILLER.sub("", _cut(rest, lone)):
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
    readings = _readings(day, clock or _Clock(END_OF_DAY), dated, local_now, tz, lang)
    if len(readings) > 1:
        raise AmbiguousHour((readings[0][1], readings[1][1]), tz, lang)
    on, moment, skipped = readings[0]
    if weekday is not None and on.weekday() != weekday:
        raise DeadlineError(
            "deadline-weekday-clash",
            date=_date_words(on, local_now, lang, weekday=True),
            written=_weekday_name(weekday, lang),
        )
    if _utc(moment) <= _utc(local_now):
        raise DeadlineError("deadline-past", when=format_deadline(moment, tz, lang, local_now))
    return Resolved(moment, skipped, period=day.period and clock is None)


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
