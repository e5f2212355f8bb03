"""One spelling for the deadline grammar of :mod:`bot.language.deadlines`.

Organisers write one deadline many ways: traditional or simplified characters, Cantonese
and Taiwan words (聽日, 禮拜, 下晝), holidays, English number and ordinal words ("in three
hours", "the twentieth"), "half past 3", "a quarter to noon", a range whose end is meant
("3-4pm", "July 13-15", 周五到周日), times spoken in words ("nine fifty nine a m"), the
n-th weekday of a month in Chinese (十月第一个星期一). :func:`normalise` rewrites them all
into the few forms the grammar reads, so that there is one grammar, not one per way of
writing. Four tables, applied in this order: plain synonyms (:data:`_SYNONYMS`), regular
rewrites (:data:`_REWRITES`), English words and phrases (:data:`_EN_SYNONYMS`) and the
starts of ranges (:data:`_RANGES`). Two forms are marks for the grammar, not words:
``+15 minutes`` (an offset from the moment the rest names: "15 minutes from 1pm",
圣诞节后三天) and ``weekof``/``那周`` ("the week of Dec 14", 12月14日那周).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

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
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "weds": 2,
    "wed": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4,
    "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip


def cn_int(text: str) -> int:
    """``8`` → 8, ``八`` → 8, ``十二`` → 12, ``二十五`` → 25, ``两`` → 2, ``零五`` → 5;
    ValueError for what is not a number (``十十``)."""
    if text.isascii() and text.isdigit():
        return int(text)
    if len(text) == 2 and text[0] in "零〇" and text[1] in CN_DIGITS:
        return CN_DIGITS[text[1]]  # 三点零五: the 零 holds the tens place
    tens, ten, ones = text.partition("十")
    if not ten:
        if len(text) != 1 or text not in CN_DIGITS:
            raise ValueError(text)
        return CN_DIGITS[text]
    if len(tens) > 1 or len(ones) > 1 or not {tens, ones} <= {"", *CN_DIGITS}:
        raise ValueError(text)  # 十十, 三十十: not a number
    return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)


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
    ("今周", "这周"),  # 今星期二: this week's
    ("下年", "明年"),  # Cantonese
    ("两日", "两天"),  # 两 counts days, never names the 2nd: 两日前 is two days ago
    ("零晨", "凌晨"),
    ("朝早", "早上"),
    ("晏昼", "下午"),
    ("下昼", "下午"),
    ("上昼", "上午"),
    ("听朝", "明天早上"),
    ("今朝", "今天早上"),
    ("明天这个时候", "24小时后"),
    ("明天此时", "24小时后"),
    ("夜晚", "晚上"),
    ("下班", "下午"),
    ("最晚", "最迟"),
    ("不晚于", "前"),
    ("月尾", "月底"),
    ("年尾", "年底"),
    ("下一个", "下个"),
    ("这一个", "这个"),
    ("下一", "下"),
    ("这一", "这"),
    ("这年", "今年"),
    ("本年", "今年"),
    ("今夜", "今天晚上"),
    ("正午", "中午12点"),
    ("晌午", "中午"),
    ("黄昏", "傍晚"),
    ("一大早", "早上"),
    ("大清早", "早上"),
    ("清晨", "早上"),
    ("清早", "早上"),
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
    ("双休日", "周末"),
    ("周末", "周日"),  # 周末 = Sunday 23:59 (本周末, 下周末 follow)
    ("午夜", "24点"),
    ("今年年底", "年底"),
    ("明年年底", "明年底"),
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


_CN_COUNT = rf"\d{{1,3}}|{CN_NUM}|半"
_CN_UNIT = r"个?半?\s*(?:天|日|小时|分钟|周(?![一二三四五六日天1-7])|个月|年)"  # 周五 is no unit
_EN_SPAN = r"minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?"
_EN_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_HOUR_WORD = "|".join(list(_EN_UNITS)[:12])
_MINUTE_WORD = (
    rf"(?:{'|'.join(_EN_TENS)})(?:[- ](?:{'|'.join(list(_EN_UNITS)[:9])}))?"
    rf"|{'|'.join(list(_EN_UNITS)[9:])}|(?:oh|o) (?:{'|'.join(list(_EN_UNITS)[:9])})"
)
# What makes a pair of numbers a time of day: "nine fifty nine a m", "330 pm".
_CLOCK_NEXT = r"(?=\s*(?:[ap]\s?\.?\s?m\b|in the (?:morning|afternoon|evening)|tonight))"


def _words_number(words: str) -> int:
    """``fifty nine`` → 59, ``oh five`` → 5, ``eleven`` → 11."""
    return sum(_EN_TENS.get(w, 0) + _EN_UNITS.get(w, 0) for w in re.split(r"[- ]", words))


def _spoken_clock(m: re.Match[str]) -> str:
    """``nine fifty nine`` (before am/pm or a part of the day) → ``9:59``."""
    return f" {_words_number(m.group('h'))}:{_words_number(m.group('m')):02d} "


def _cn_nth_weekday(m: re.Match[str]) -> str:
    """``十月第一个周一`` → ``1th monday of oct``: the English form the grammar reads."""
    wd = m.group("wd")
    day = 6 if wd in "日天7" else int(wd) - 1 if wd.isdigit() else "一二三四五六".index(wd)
    nth = "last" if m.group("last") else f"{cn_int(m.group('n'))}th"
    try:
        month = MONTHS[cn_int(m.group("mo")) - 1] if m.group("mo") else m.group("which")
    except (ValueError, IndexError):
        return m.group(0)  # 十三月: not a month, left for the grammar to refuse
    return f" {nth} {_EN_WEEKDAY_NAMES[day]} of {month} {m.group('y') or ''} "


def _compound(m: re.Match[str]) -> str:
    """``1 hour 30 minutes``, ``2h30m``, ``1小时30分钟``: one count of minutes."""
    try:
        minutes = 60 * cn_int(m.group("h")) + cn_int(m.group("m"))
    except ValueError:
        return m.group(0)  # not numbers: left for the grammar to refuse
    return f" {minutes}{'分钟' if m.group('unit') == '分钟' else ' minutes'} "


def _minutes_past(m: re.Match[str]) -> str:
    """``20 past 3`` → ``3:20``, ``a quarter past 3`` → ``3:15``, ``half past 3`` → ``3:30``,
    ``a quarter past noon`` → ``12:15pm``."""
    minutes = 15 if m.group("q") else 30 if m.group("h") else int(m.group("m"))
    hour = m.group("hour")
    if minutes > 59 or (hour.isdigit() and not 1 <= int(hour) <= 12):
        return m.group(0)
    if not hour.isdigit():
        return f" 12:{minutes:02d}{'pm' if hour == 'noon' else 'am'} "
    return f" {hour}:{minutes:02d} "


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


_REWRITES: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    (r"(?<![天日时钟周月年])后晚(?!上)", "后天晚上"),  # Cantonese 後晚
    (  # 十月第一个星期一, 下个月最后一个周日: the n-th weekday of a month, as in English
        rf"(?:(?P<y>\d{{4}})\s*年\s*)?(?:(?P<mo>{NUM})\s*月份?|(?P<which>本月|这个?月|下个?月))"
        r"\s*的?\s*(?:第\s*(?P<n>[一二三四五1-5])|(?P<last>最后))\s*一?\s*个\s*周"
        r"(?P<wd>[一二三四五六日天1-7])",
        _cn_nth_weekday,
    ),
    # a time to the second is kept to the minute: 9:01:10, 3点20分10秒
    (r"(?<![\d:])(\d{1,2}:\d{2}):\d{2}(?![\d:])", r"\1"),
    (rf"(?<=分)\s*(?:\d{{1,2}}|{CN_NUM})\s*秒", ""),
    (  # 几 counts three: 未来几天, 几个小时后 (这几天 stays vague)
        r"(接下来|未来|之后|往后)\s*几"
        r"|几(?=\s*个?\s*(?:天|小时|分钟|周|个月)\s*(?:内|之内|以内|后|之后|以后))",
        r"\g<1>3",
    ),
    (rf"(?<![点时])再?过\s*(?P<n>{_CN_COUNT})\s*(?P<unit>{_CN_UNIT})", r"\g<n>\g<unit>后"),
    (  # 圣诞节后三天, 下午1点后15分钟: an offset from the moment named before it
        rf"(?<=\S)\s*(?:之后|以后|后)\s*(?P<n>{_CN_COUNT})\s*(?P<unit>{_CN_UNIT})"
        r"\s*(?:之内|以内|内)?\s*$",
        r" +\g<n>\g<unit> ",
    ),
    (  # 12月14日那周, 20号那个礼拜, 12月3日所在的那一周: the week of that day
        r"(?:所在的?)?那\s*[一个]?\s*周(?![一二三四五六日天1-7])"
        r"|所在的?一?\s*周(?![一二三四五六日天1-7])",
        " 那周 ",
    ),
    (  # 下三天, 后三小时, 未来两周, 接下来3天: a span counted from now
        rf"(?:接下来|未来|之后|往后|下|后)\s*(?P<n>{_CN_COUNT})\s*(?P<unit>{_CN_UNIT})"
        r"(?!\s*(?:后|之后|以后|内|之内|以内))",
        r"\g<n>\g<unit>内",
    ),
    (r"\bfirst thing\b", " 早上 "),
    (r'(?<=\d)"', " seconds "),  # in 1": a second; in 15': minutes
    (r"(?<=\d)'(?![a-z])", " minutes "),
    # seconds are not a deadline's unit ("in a second" is not the 2nd): refused, never read
    (r"\b(\d+|an?|one|few)\s+sec(?:ond)?s?\b|\bin a sec\b", " 秒 "),
    (rf"\b(?:a )?few(?= (?:{_EN_SPAN})\b)", "3"),  # a few days: three ("at a few" is no time)
    (r"\b(?:about|around|approximately|approx|roughly)\b|(?<=[\dm])ish\b", " "),
    (  # 1 hour 30 minutes, 2h30m, 1小时30分钟: one count of minutes
        rf"(?P<h>\d{{1,2}}|{CN_NUM})\s*(?:个)?\s*(?:小时|h|hours?|hrs?)\s*(?:and\s*)?"
        rf"(?P<m>\d{{1,2}}|{CN_NUM})\s*(?P<unit>分钟|m\b|mins?\b|minutes?\b)",
        _compound,
    ),
    (  # nine fifty nine a m, ten thirty pm: a time spoken in words
        rf"\b(?P<h>{_HOUR_WORD})[- ](?P<m>{_MINUTE_WORD})\b{_CLOCK_NEXT}",
        _spoken_clock,
    ),
    (_EN_NUMBER.pattern, _en_number),
    (r"(?<=\d) ([ap]) m\b", r"\1m"),  # 9:59 a m
    (rf"\b(1[0-2]|[1-9])([0-5]\d){_CLOCK_NEXT}", r" \1:\2 "),  # 330 pm, 730 in the evening
    (
        r"\b(?:(?P<m>\d{1,2})(?: minutes?)?|(?P<q>(?:a )?quarter)|(?P<h>half)) (?:past|after) "
        r"(?P<hour>\d{1,2}(?![\d:])|noon|midnight)",
        _minutes_past,
    ),
    (
        r"\b(?:(?P<m>\d{1,2})(?P<word> minutes?)?|(?P<q>(?:a )?quarter)) (?:to|before|till|til) "
        r"(?P<hour>\d{1,2}(?![\d:])|noon|midnight)",
        _minutes_to,
    ),
    (r"\bhalf (\d{1,2})(?![\d:])", r" \1:30 "),  # half three: 3:30
    (r"\b(?:an?|one|1)\s*/\s*2(?!\d)", "0.5"),
    (r"\b([1-3])\s*/\s*4\s*(?=h\b|hours?\b|hrs?\b)", lambda m: f"0.{25 * int(m.group(1))} "),
    (r"\bin (\d{1,3})\s*$", r"in \1 minutes"),  # in 15: minutes
)


EN_WEEKDAY = "|".join(EN_WEEKDAYS)
_EN_SYNONYMS = (  # whole words, applied in order
    (r"untill", "until"),
    (r"qtrs?", "quarter"),
    (r"yrs?", "year"),
    (r"in the a\.?m\.?", "上午"),
    (r"in the p\.?m\.?", "下午"),
    (r"early (?:in the )?morning|(?:in the )?early morning", "早上"),
    (r"early (today|tomorrow|tmrw?|\w+day) morning", r"\1 早上"),
    (r"(?:in )?the (?:early|small|wee) hours(?: of the morning)?", "凌晨"),
    (r"late (?:tonight|tonite)", "today 深夜"),
    (r"late (?:at )?night|late in the evening", "深夜"),
    (r"(?<!th )(?<!st )(?<!nd )(?<!rd )(?:the |in the |during the )?week of", "weekof"),
    (r"all week|(?:the )?rest of (?:the |this )?week", "本周"),
    (r"wkend", "weekend"),
    (r"last week-?\s?end (?:of|in)", "last sunday of"),
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
    (r"12(?::00)?\s*(noon|midnight)", r"\1"),
    (r"(?:the )?end of (q[1-4]|[1-4](?:st|nd|rd|th) quarter)", r"\1"),
    (r"(?:the )?end of (\d{4})|in (\d{4})(?: a\.?d\.?)?", r"\1\2年底"),
    (r"at ([01]\d|2[0-3])([0-5]\d)|([01]\d|2[0-3])([0-5]\d) ?(?:hrs|hours|h)", r"\1\3:\2\4"),
    (r"a couple of|a couple|couple of", "2"),
    (r"(?:a )?fortnight", "2 weeks"),
    (r"(\d+) more (minutes?|hours?|days?|weeks?)", r"\1 \2"),
    (  # 15 minutes from 1pm, 3 days after christmas, 4pm for 30 mins: from that moment
        rf"(?:for )?(\d+(?:\.\d+)?|an?) ({_EN_SPAN}) (?:from|after) (?!now|today|right now)"
        rf"|for (\d+(?:\.\d+)?|an?) ({_EN_SPAN})",
        r"+\1\3 \2\4",
    ),
    (r"(?:an?|1) hour and a half|1\.5 hours?", "90 minutes"),
    (r"(\d+) and an? half hours?", r"\1.5 hours"),
    (r"half an? hour|1/2 an? hour|1/2 hours?|half hour|0\.5 hours?", "30 minutes"),
    (r"(?:a )?quarter of an hour|a quarter hour|quarter hour", "15 minutes"),
    (r"3[- ]quarters of an hour", "45 minutes"),
    (
        r"((?:\d+(?:\.\d+)?\s*|an?\s+)\w+?)'?s?\s+(?:from now|from right now|from today|later|time"
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
    (r"tonight|tonite|2nite", "today 晚上"),
    (r"nite", "night"),
    (r"tmrw?|tmw|tomorow|tomorrrow|2moro", "tomorrow"),
    (r"2day|tdy", "today"),
    (r"nxt", "next"),
    (r"wk", "week"),
    (r"(?:the )?day before yesterday", "前天"),
    (r"week-end", "weekend"),
    (r"(?:the )?(?:coming|following|upcoming) week", "next week"),
    (r"(?:the )?following (month|year)", r"next \1"),
    (r"current (week|month|year|quarter)", r"this \1"),
    (r"this coming|coming", ""),
    (r"lunch(?:time)?", "中午"),
    (r"at (\d{1,2}) (\d{2})", r"\1:\2"),
    (r"last day of (?:the |this )?month|(?:the )?end of (?:the |this )?month|month end", "月底"),
    (r"year end", "年底"),
    (r"sharp|at the latest", ""),
    (r"last day of next month", "下个月底"),
    (r"last day (?:of|in) ", "end of "),
    (r"(\d{1,2})th day (?:of|in)", r"\1th of"),
    (rf"({EN_WEEKDAY})\s+(?:of\s+|in\s+)?next week", r"next \1"),
    (rf"next week(?:'s)?\s+(?:on\s+)?({EN_WEEKDAY})", r"next \1"),
    (rf"({EN_WEEKDAY})\s+(?:of\s+)?this week", r"this \1"),
    (rf"this week(?:'s)?\s+(?:on\s+)?({EN_WEEKDAY})", r"this \1"),
    (rf"({EN_WEEKDAY}) next\b", r"next \1"),
    (rf"({EN_WEEKDAY}) week\b", r"\1 after next"),
    (r"(?:a|1) week (?:today|from today)", "in 1 week"),
    (r"(?:a|1) week tomorrow", "in 8 days"),
    (r"next weekend|end of (?:the )?next week", "下周日"),
    (r"(?:this )?weekend|eow|(?:the )?end of (?:the |this )?week", "本周日"),
    (r"this week", "本周"),
    (r"next week", "下周"),
    (r"eod|cob|eob|close of business|end of business|end of (?:the )?day", "23:59"),
    (r"eoq|(?:the )?end of (?:the |this )?quarter|this quarter|this qtr", "本季度"),
    (r"next quarter|next qtr", "下季度"),
    (r"(?:the )?end of (?:the |this )?year|eoy|this year", "年底"),
    (r"end of next month", "下个月底"),
    (r"next month", "下个月"),
    (r"eom", "月底"),
    (r"this month", "本月"),
    (r"next year", "明年"),
    (rf"({MONTH_NAME}) (?:of |in )?明年", r"明年 \1"),
    (r"midnight", "24点"),
    (r"noon|mid-?\s?day", "中午12点"),
    (r"this morning", "today 上午"),
    (r"this afternoon", "today 下午"),
    (r"this evening", "today 晚上"),
    (r"(?:in the )?morning", "上午"),
    (r"(?:in the )?afternoon", "下午"),
    (r"(?:in the )?evening|night", "晚上"),
    (r"new year'?s day|new year", "1月1日"),
    (r"within", "in"),
)
_RANGE_SEP = r"\s*(?:-|–|—|~|～|到|至|\b(?:to|through|thru|until|till|til)\b)\s*"
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
    (  # from 2 to 4 in the afternoon (下午, by now)
        rf"(?<![\d/.:-])\d{{1,2}}{_RANGE_SEP}(?=\d{{1,2}}(?::\d{{2}})?\s*(?:上午|下午|晚上|早上))",
        "",
    ),
    (r"\bbetween\s+(?:\S+\s+){0,2}?\S+\s+and\s+(?=\S)", ""),
    (r"\b(?:later than|after)\s+.+?\s+(?:but|and)\s+(?=before\b)", ""),
    (  # 9:30 - 11:00, 9h30 - 11h00, 15:00 gmt - 18:00 gmt
        rf"(?<![\d/.:-])\d{{1,2}}[:h]\d{{2}}(?:\s*[a-z]{{2,5}})?{_RANGE_SEP}(?=\d{{1,2}}[:h]\d{{2}})",
        "",
    ),
    (
        rf"(?<![\d/.:-])(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}"
        r"(?=(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b)",
        "",
    ),
    (
        rf"\b({MONTH_NAME})\s*\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}(\d{{1,2}}(?:st|nd|rd|th)?)\b",
        r"\1 \2",
    ),
    (
        rf"\b(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?{_RANGE_SEP}"
        rf"(?=(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_NAME})",
        "",
    ),
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
    (rf"\b(?:{EN_WEEKDAY})\b{_RANGE_SEP}(?=(?:{EN_WEEKDAY})\b)", ""),
)


_REWRITES_COMPILED = tuple((re.compile(p), new) for p, new in _REWRITES)
_EN_COMPILED = tuple((re.compile(rf"\b(?:{p})\b"), f" {new} ") for p, new in _EN_SYNONYMS)
_RANGES_COMPILED = tuple((re.compile(p), new) for p, new in _RANGES)
_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Full-width to ASCII, lower case, simplified characters, one spelling per synonym,
    English number words as digits, and only the end of a range."""
    out = unicodedata.normalize("NFKC", text).lower().translate(_TRADITIONAL)
    for old, new in _SYNONYMS:
        out = out.replace(old, new)
    for compiled, rewrite in _REWRITES_COMPILED:
        out = compiled.sub(rewrite, out)
    out = _SPACES.sub(" ", out)
    for compiled, new in _EN_COMPILED:
        out, found = compiled.subn(new, out)
        if found:
            out = _SPACES.sub(" ", out)
    for compiled, new in _RANGES_COMPILED:
        out = compiled.sub(new, out)
    return re.sub(r"(?<=\d)t(?=\d)", " ", out)  # ISO 2026-12-20T18:00
