"""The phrase table: what organisers type, against several "now"s, including both clock
changes in America/New_York and Europe/London, month ends and 29 Feb 2028; simplified
and traditional Chinese, Cantonese and Taiwan words, English; bare hours, periods,
ranges and written zones.

Each row: the moment it is, the phrase, and the expected deadline: local ``YYYY-MM-DD
HH:MM`` in the row's zone, an instant ``…Z`` in UTC (where a clock change makes the local
reading ambiguous), ``!code`` for a refusal with its specific reason, or
``?first|second`` for a bare hour whose two plausible readings are asked about.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.language.deadlines import (
    AmbiguousHour,
    DeadlineError,
    format_deadline,
    relative_hint,
    resolve_deadline,
)

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")
LDN = ZoneInfo("Europe/London")
NOWS = {
    "wed": datetime(2026, 11, 18, 14, 30, tzinfo=SH),  # a Wednesday afternoon
    "early": datetime(2026, 11, 18, 4, 30, tzinfo=SH),  # the small hours of that Wednesday
    "eve": datetime(2026, 11, 18, 16, 0, tzinfo=SH),  # that Wednesday, 3 pm has passed
    "tue": datetime(2026, 11, 17, 10, 0, tzinfo=SH),  # the Tuesday before: Monday has passed
    "tue-early": datetime(2026, 11, 17, 4, 30, tzinfo=SH),  # that Tuesday, in the small hours
    "dec25": datetime(2026, 12, 25, 9, 0, tzinfo=SH),  # a Friday, the year's last week
    "feb3": datetime(2027, 2, 3, 10, 0, tzinfo=SH),  # February has no 30th
    "jan31": datetime(2027, 1, 31, 12, 0, tzinfo=SH),  # a Sunday, a month's last day
    "leap": datetime(2028, 2, 27, 10, 0, tzinfo=SH),  # two days before 29 Feb 2028
    "ny-fall": datetime(2026, 11, 1, 1, 30, fold=1, tzinfo=NY),  # 01:30 EST, after 02:00 EDT
    "ny-fall-before": datetime(2026, 11, 1, 0, 30, tzinfo=NY),  # 00:30 EDT
    "ny-spring": datetime(2027, 3, 14, 1, 0, tzinfo=NY),  # 02:00 EST becomes 03:00 EDT
    "ldn-spring": datetime(2026, 3, 29, 0, 30, tzinfo=LDN),  # 01:00 GMT becomes 02:00 BST
    "ldn-fall": datetime(2026, 10, 25, 1, 30, fold=1, tzinfo=LDN),  # 01:30 GMT, the 2nd one
}

PHRASES = [
    # the Chinese list, on a Wednesday afternoon
    ("wed", "周日晚八点", "2026-11-22 20:00"),
    ("wed", "20号晚8点", "2026-11-20 20:00"),
    ("wed", "明早9点", "2026-11-19 09:00"),
    ("wed", "后天中午", "2026-11-20 12:00"),
    ("wed", "明天上午", "2026-11-19 12:00"),
    ("wed", "3天内", "2026-11-21 23:59"),
    ("wed", "一周内", "2026-11-25 23:59"),
    ("wed", "一个星期内", "2026-11-25 23:59"),
    ("wed", "48小时内", "2026-11-20 14:30"),
    ("wed", "一个月内", "2026-12-18 23:59"),
    ("wed", "今天24点", "2026-11-19 00:00"),
    ("wed", "今晚24:00", "2026-11-19 00:00"),
    ("wed", "晚12点", "2026-11-19 00:00"),
    ("wed", "今晚12点", "2026-11-19 00:00"),
    ("wed", "晚上12点", "2026-11-19 00:00"),
    ("wed", "周末", "2026-11-22 23:59"),
    ("wed", "本周末", "2026-11-22 23:59"),
    ("wed", "这周末", "2026-11-22 23:59"),
    ("wed", "下周末", "2026-11-29 23:59"),
    ("wed", "12月底", "2026-12-31 23:59"),
    ("wed", "下个月底", "2026-12-31 23:59"),
    ("wed", "年底", "2026-12-31 23:59"),
    ("wed", "元旦前", "2027-01-01 23:59"),
    ("wed", "20号前报成绩", "2026-11-20 23:59"),
    ("wed", "昨天", "!deadline-past"),
    ("wed", "上周五", "!deadline-past"),
    ("wed", "12月20日 周六", "!deadline-weekday-clash"),
    ("wed", "2025-12-20", "!deadline-past"),
    # more Chinese
    ("wed", "两小时后", "2026-11-18 16:30"),
    ("wed", "半小时内", "2026-11-18 15:00"),
    ("wed", "30分钟后", "2026-11-18 15:00"),
    ("wed", "24小时内", "2026-11-19 14:30"),
    ("wed", "下周三下午3点", "2026-11-25 15:00"),
    ("wed", "这周五晚上", "2026-11-20 23:59"),
    ("wed", "周五晚", "2026-11-20 23:59"),
    ("wed", "星期六中午12点", "2026-11-21 12:00"),
    ("wed", "礼拜天晚上九点半", "2026-11-22 21:30"),
    ("wed", "明天凌晨3点", "2026-11-19 03:00"),
    ("wed", "今天下午", "2026-11-18 18:00"),
    ("wed", "今天上午", "!deadline-past"),
    ("wed", "今天中午", "!deadline-past"),
    ("wed", "大后天", "2026-11-21 23:59"),
    ("wed", "下下周一", "2026-11-30 23:59"),
    ("wed", "11月30日", "2026-11-30 23:59"),
    ("wed", "11月31日", "!deadline-no-such-date"),
    ("wed", "2月30日", "!deadline-no-such-date"),
    ("wed", "十二月一号", "2026-12-01 23:59"),
    ("wed", "本月底", "2026-11-30 23:59"),
    ("wed", "月底前", "2026-11-30 23:59"),
    ("wed", "月末", "2026-11-30 23:59"),
    ("wed", "下月5号", "2026-12-05 23:59"),
    ("wed", "本月10号", "!deadline-past"),
    ("wed", "上个月5号", "!deadline-past"),
    ("wed", "3/4", "!deadline-ambiguous"),
    ("wed", "12/25", "2026-12-25 23:59"),
    ("wed", "12.24", "2026-12-24 23:59"),
    ("wed", "2026/12/31 23:00", "2026-12-31 23:00"),
    ("wed", "2027年1月5日", "2027-01-05 23:59"),
    ("wed", "周三 14:00", "2026-11-25 14:00"),
    ("wed", "周三 18:00", "2026-11-18 18:00"),
    ("wed", "18点", "2026-11-18 18:00"),
    ("wed", "9点", "?2026-11-18 21:00|2026-11-19 09:00"),
    ("wed", "晚上8点前", "2026-11-18 20:00"),
    ("wed", "截止到周五", "2026-11-20 23:59"),
    ("wed", "最晚周日", "2026-11-22 23:59"),
    ("wed", "两周后", "2026-12-02 23:59"),
    ("wed", "5天后", "2026-11-23 23:59"),
    ("wed", "10天内", "2026-11-28 23:59"),
    ("wed", "二十号", "2026-11-20 23:59"),
    ("wed", "下周五 18:00", "2026-11-27 18:00"),
    ("wed", "明天", "2026-11-19 23:59"),
    ("wed", "今晚", "2026-11-18 23:59"),
    ("wed", "明晚8点", "2026-11-19 20:00"),
    ("wed", "半夜", "2026-11-19 00:00"),
    ("wed", "前天", "!deadline-past"),
    ("wed", "下午", "2026-11-18 18:00"),
    ("wed", "早上", "2026-11-19 09:00"),
    ("wed", "傍晚", "2026-11-18 19:00"),
    ("wed", "周日晚上十点", "2026-11-22 22:00"),
    ("wed", "20号晚上前", "2026-11-20 23:59"),
    ("wed", "明天中午前", "2026-11-19 12:00"),
    ("wed", "下周一上午10点", "2026-11-23 10:00"),
    ("wed", "12月20日 周日", "2026-12-20 23:59"),
    ("wed", "看情况", "!deadline-unparsed"),
    ("wed", "20号 21号", "!deadline-unparsed"),
    ("wed", "25点", "!deadline-unparsed"),
    # the English list
    ("wed", "midnight", "2026-11-19 00:00"),
    ("wed", "EOD", "2026-11-18 23:59"),
    ("wed", "EOW", "2026-11-22 23:59"),
    ("wed", "Sunday night", "2026-11-22 23:59"),
    ("wed", "tomorrow evening", "2026-11-19 23:59"),
    ("wed", "tomorrow at 9", "?2026-11-19 09:00|2026-11-19 21:00"),
    ("wed", "within 3 days", "2026-11-21 23:59"),
    ("wed", "in a week", "2026-11-25 23:59"),
    ("wed", "next week", "2026-11-29 23:59"),
    ("wed", "end of week", "2026-11-22 23:59"),
    ("wed", "this weekend", "2026-11-22 23:59"),
    ("wed", "tmr", "2026-11-19 23:59"),
    ("wed", "yesterday", "!deadline-past"),
    ("wed", "last friday", "!deadline-past"),
    # more English
    ("wed", "tomorrow morning", "2026-11-19 12:00"),
    ("wed", "friday afternoon", "2026-11-20 18:00"),
    ("wed", "by noon tomorrow", "2026-11-19 12:00"),
    ("wed", "end of month", "2026-11-30 23:59"),
    ("wed", "end of next month", "2026-12-31 23:59"),
    ("wed", "end of year", "2026-12-31 23:59"),
    ("wed", "end of december", "2026-12-31 23:59"),
    ("wed", "within 48 hours", "2026-11-20 14:30"),
    ("wed", "in 30 minutes", "2026-11-18 15:00"),
    ("wed", "within a month", "2026-12-18 23:59"),
    ("wed", "next weekend", "2026-11-29 23:59"),
    ("wed", "tmrw 6pm", "2026-11-19 18:00"),
    ("wed", "Dec 31 11:59pm", "2026-12-31 23:59"),
    ("wed", "1 Jan 2027", "2027-01-01 23:59"),
    ("wed", "new year's day", "2027-01-01 23:59"),
    ("wed", "Friday 6:30pm", "2026-11-20 18:30"),
    ("wed", "sat noon", "2026-11-21 12:00"),
    ("wed", "next mon 10am", "2026-11-23 10:00"),
    ("wed", "in 2 weeks", "2026-12-02 23:59"),
    ("wed", "Nov 31", "!deadline-no-such-date"),
    ("wed", "Feb 30", "!deadline-no-such-date"),
    ("wed", "5/6", "!deadline-ambiguous"),
    ("wed", "13/12", "2026-12-13 23:59"),
    ("wed", "tonight", "2026-11-18 23:59"),
    ("wed", "at 8", "?2026-11-18 20:00|2026-11-19 08:00"),
    ("wed", "10pm", "2026-11-18 22:00"),
    ("wed", "by the 25th", "2026-11-25 23:59"),
    ("wed", "Wednesday 2pm", "2026-11-25 14:00"),
    ("wed", "by Friday EOD", "2026-11-20 23:59"),
    ("wed", "someday", "!deadline-unparsed"),
    ("wed", "2026-11-18 14:00", "!deadline-past"),
    # the last week of the year: the year shows, and next year is meant
    ("dec25", "12月20日", "2027-12-20 23:59"),
    ("dec25", "2025-12-20", "!deadline-past"),
    ("dec25", "20号", "2027-01-20 23:59"),
    ("dec25", "元旦", "2027-01-01 23:59"),
    ("dec25", "年底", "2026-12-31 23:59"),
    ("dec25", "下个月底", "2027-01-31 23:59"),
    ("dec25", "一个月内", "2027-01-25 23:59"),
    ("dec25", "周末", "2026-12-27 23:59"),
    ("dec25", "new year", "2027-01-01 23:59"),
    ("dec25", "1月1日 周五", "2027-01-01 23:59"),
    ("dec25", "1月1日 周四", "!deadline-weekday-clash"),
    ("dec25", "next week", "2027-01-03 23:59"),
    ("dec25", "12月底", "2026-12-31 23:59"),
    # February: 30号 is refused, not moved to March
    ("feb3", "30号", "!deadline-no-such-date"),
    ("feb3", "28号", "2027-02-28 23:59"),
    ("feb3", "月底", "2027-02-28 23:59"),
    ("feb3", "2月29日", "2028-02-29 23:59"),
    ("feb3", "一个月内", "2027-03-03 23:59"),
    ("feb3", "下个月底", "2027-03-31 23:59"),
    ("feb3", "3月31日", "2027-03-31 23:59"),
    # month ends
    ("jan31", "一个月内", "2027-02-28 23:59"),
    ("jan31", "月底", "2027-01-31 23:59"),
    ("jan31", "31号", "2027-01-31 23:59"),
    ("jan31", "下个月底", "2027-02-28 23:59"),
    ("jan31", "下月31号", "!deadline-no-such-date"),
    ("jan31", "周末", "2027-01-31 23:59"),
    ("jan31", "下周末", "2027-02-07 23:59"),
    ("jan31", "本周六", "2027-02-06 23:59"),  # this week's has passed: next week's
    ("jan31", "上周六", "!deadline-past"),
    # 29 February 2028
    ("leap", "2月29日", "2028-02-29 23:59"),
    ("leap", "29号", "2028-02-29 23:59"),
    ("leap", "月底", "2028-02-29 23:59"),
    ("leap", "后天", "2028-02-29 23:59"),
    ("leap", "Feb 29 2028", "2028-02-29 23:59"),
    ("leap", "30号", "!deadline-no-such-date"),
    ("leap", "2029年2月29日", "!deadline-no-such-date"),
    ("leap", "2月29日 周二", "2028-02-29 23:59"),
    # New York, clocks go back (01:00-02:00 happens twice): the earlier instant, judged
    # in absolute time
    ("ny-fall", "01:45", "2026-11-02T06:45Z"),
    ("ny-fall", "today 01:45", "!deadline-past"),
    ("ny-fall", "02:30", "2026-11-01T07:30Z"),
    ("ny-fall", "in 3 hours", "2026-11-01T09:30Z"),
    ("ny-fall", "今天 01:15", "!deadline-past"),
    ("ny-fall", "tomorrow 01:30", "2026-11-02T06:30Z"),
    ("ny-fall", "23:00", "2026-11-02T04:00Z"),
    ("ny-fall-before", "01:30", "2026-11-01T05:30Z"),
    ("ny-fall-before", "in 2 hours", "2026-11-01T06:30Z"),
    # New York, clocks go forward (02:00-03:00 does not exist): the first valid minute
    ("ny-spring", "02:30", "2027-03-14T07:00Z"),
    ("ny-spring", "今天02:30", "2027-03-14T07:00Z"),
    ("ny-spring", "03:30", "2027-03-14T07:30Z"),
    ("ny-spring", "01:59", "2027-03-14T06:59Z"),
    ("ny-spring", "in 2 hours", "2027-03-14T08:00Z"),
    ("ny-spring", "tomorrow 02:30", "2027-03-15T06:30Z"),
    # London, both changes
    ("ldn-spring", "01:30", "2026-03-29T01:00Z"),
    ("ldn-spring", "02:30", "2026-03-29T01:30Z"),
    ("ldn-spring", "midnight", "2026-03-29T23:00Z"),
    ("ldn-spring", "in 1 hour", "2026-03-29T01:30Z"),
    ("ldn-fall", "01:45", "2026-10-26T01:45Z"),
    ("ldn-fall", "01:15", "2026-10-26T01:15Z"),
    ("ldn-fall", "02:00", "2026-10-25T02:00Z"),
    ("ldn-fall", "today 01:45", "!deadline-past"),
    ("ldn-fall", "周日晚八点", "2026-10-25T20:00Z"),
    ("ny-spring", "2:30", "?2027-03-14T07:00Z|2027-03-14T18:30Z"),  # a bare hour: asked
    # a bare hour is never read on a 24-hour clock
    ("early", "三点", "2026-11-18 15:00"),
    ("early", "三點", "2026-11-18 15:00"),
    ("early", "3:30", "2026-11-18 15:30"),
    ("early", "两点半", "2026-11-18 14:30"),
    ("early", "下午三点", "2026-11-18 15:00"),
    ("early", "凌晨5点", "2026-11-18 05:00"),
    ("early", "5点", "?2026-11-18 05:00|2026-11-18 17:00"),
    ("eve", "3点", "?2026-11-19 03:00|2026-11-19 15:00"),
    ("eve", "3:30", "?2026-11-19 03:30|2026-11-19 15:30"),
    ("wed", "周五3点", "2026-11-20 15:00"),
    ("wed", "周五三點", "2026-11-20 15:00"),
    ("wed", "明天3点", "2026-11-19 15:00"),
    ("wed", "今天3点", "2026-11-18 15:00"),
    ("eve", "今天3点", "!deadline-past"),
    ("wed", "8点", "?2026-11-18 20:00|2026-11-19 08:00"),
    ("wed", "9点前", "?2026-11-18 21:00|2026-11-19 09:00"),
    ("wed", "12点", "?2026-11-19 00:00|2026-11-19 12:00"),
    ("wed", "明天12点", "2026-11-19 12:00"),
    ("wed", "周六10点", "?2026-11-21 10:00|2026-11-21 22:00"),
    ("wed", "周六10:00", "?2026-11-21 10:00|2026-11-21 22:00"),
    ("wed", "20号8点", "?2026-11-20 08:00|2026-11-20 20:00"),
    ("wed", "9:00", "?2026-11-18 21:00|2026-11-19 09:00"),
    ("wed", "8 tomorrow", "?2026-11-19 08:00|2026-11-19 20:00"),
    ("wed", "at 11", "?2026-11-18 23:00|2026-11-19 11:00"),
    ("wed", "by 5", "2026-11-18 17:00"),
    ("wed", "by 10", "?2026-11-18 22:00|2026-11-19 10:00"),
    ("wed", "friday at 3", "2026-11-20 15:00"),
    ("wed", "tmrw at 9", "?2026-11-19 09:00|2026-11-19 21:00"),
    ("wed", "明天九点", "?2026-11-19 09:00|2026-11-19 21:00"),
    ("wed", "礼拜六早上九点", "2026-11-21 09:00"),
    ("wed", "周日 晚上 9:30", "2026-11-22 21:30"),
    ("wed", "下礼拜一中午", "2026-11-23 12:00"),
    ("eve", "at 3", "?2026-11-19 03:00|2026-11-19 15:00"),
    ("wed", "12月1日 6点", "2026-12-01 18:00"),
    ("wed", "11:30", "?2026-11-18 23:30|2026-11-19 11:30"),
    ("early", "11:30", "?2026-11-18 11:30|2026-11-18 23:30"),
    # traditional characters, Cantonese and Taiwan words
    ("wed", "後天", "2026-11-20 23:59"),
    ("wed", "禮拜一", "2026-11-23 23:59"),
    ("wed", "這週末", "2026-11-22 23:59"),
    ("wed", "三小時後", "2026-11-18 17:30"),
    ("wed", "三個月後", "2027-02-18 23:59"),
    ("wed", "下個月", "2026-12-31 23:59"),
    ("wed", "兩點", "?2026-11-19 02:00|2026-11-19 14:00"),
    ("wed", "兩點半", "?2026-11-19 02:30|2026-11-19 14:30"),
    ("wed", "下週五", "2026-11-27 23:59"),
    ("wed", "這週五晚上", "2026-11-20 23:59"),
    ("wed", "禮拜天晚上九點", "2026-11-22 21:00"),
    ("wed", "星期日下午四點", "2026-11-22 16:00"),
    ("wed", "下個禮拜三", "2026-11-25 23:59"),
    ("wed", "下禮拜", "2026-11-29 23:59"),
    ("wed", "今個禮拜五", "2026-11-20 23:59"),
    ("wed", "聽日", "2026-11-19 23:59"),
    ("wed", "聽晚八點", "2026-11-19 20:00"),
    ("wed", "後日", "2026-11-20 23:59"),
    ("wed", "兩個禮拜內", "2026-12-02 23:59"),
    ("wed", "一個鐘頭後", "2026-11-18 15:30"),
    ("wed", "半個鐘頭內", "2026-11-18 15:00"),
    ("wed", "三天之內", "2026-11-21 23:59"),
    ("wed", "十二月廿號", "2026-12-20 23:59"),
    ("wed", "月尾", "2026-11-30 23:59"),
    ("wed", "年尾", "2026-12-31 23:59"),
    ("wed", "週日之前", "2026-11-22 23:59"),
    ("wed", "明天下午兩點前", "2026-11-19 14:00"),
    ("wed", "下個月五號", "2026-12-05 23:59"),
    ("wed", "兩週後", "2026-12-02 23:59"),
    ("wed", "兩天後", "2026-11-20 23:59"),
    ("wed", "這個月底", "2026-11-30 23:59"),
    # Chinese numerals everywhere
    ("wed", "2026年十二月二十号", "2026-12-20 23:59"),
    ("wed", "2027年二月十五号", "2027-02-15 23:59"),
    ("wed", "2027年3月三号", "2027-03-03 23:59"),
    ("wed", "二〇二七年一月五日", "2027-01-05 23:59"),
    ("wed", "十二月三十一日晚上十一点", "2026-12-31 23:00"),
    ("wed", "下午三点零五", "2026-11-18 15:05"),
    ("wed", "八点零五分", "?2026-11-18 20:05|2026-11-19 08:05"),
    ("wed", "晚上八点零五", "2026-11-18 20:05"),
    ("wed", "下午两点一刻", "2026-11-19 14:15"),
    ("wed", "下午两点三刻", "2026-11-18 14:45"),
    ("wed", "晚上十一点五十九分", "2026-11-18 23:59"),
    ("wed", "明天上午十点半", "2026-11-19 10:30"),
    ("wed", "十五点", "2026-11-18 15:00"),
    ("wed", "十八点三十分", "2026-11-18 18:30"),
    ("wed", "三点五", "!deadline-unparsed"),
    # periods as deadlines
    ("wed", "下周", "2026-11-29 23:59"),
    ("wed", "这周", "2026-11-22 23:59"),
    ("wed", "本周", "2026-11-22 23:59"),
    ("wed", "下下周", "2026-12-06 23:59"),
    ("wed", "下个月", "2026-12-31 23:59"),
    ("wed", "这个月", "2026-11-30 23:59"),
    ("wed", "本月", "2026-11-30 23:59"),
    ("wed", "今年", "2026-12-31 23:59"),
    ("wed", "明年", "2027-12-31 23:59"),
    ("wed", "3月", "2027-03-31 23:59"),
    ("wed", "三月份", "2027-03-31 23:59"),
    ("wed", "12月", "2026-12-31 23:59"),
    ("wed", "十一月", "2026-11-30 23:59"),
    ("wed", "2027年3月", "2027-03-31 23:59"),
    ("wed", "2027年", "2027-12-31 23:59"),
    ("wed", "月底之前", "2026-11-30 23:59"),
    ("wed", "本周内", "2026-11-22 23:59"),
    ("wed", "今年内", "2026-12-31 23:59"),
    ("wed", "下周之内", "2026-11-29 23:59"),
    ("dec25", "下周", "2027-01-03 23:59"),
    ("dec25", "今年", "2026-12-31 23:59"),
    ("dec25", "1月", "2027-01-31 23:59"),
    # word order
    ("wed", "下三天", "2026-11-21 23:59"),
    ("wed", "后三小时", "2026-11-18 17:30"),
    ("wed", "未来三天", "2026-11-21 23:59"),
    ("wed", "接下来两天", "2026-11-20 23:59"),
    ("wed", "下两周", "2026-12-02 23:59"),
    ("wed", "后30分钟", "2026-11-18 15:00"),
    ("wed", "一个半小时后", "2026-11-18 16:00"),
    ("wed", "一刻钟后", "2026-11-18 14:45"),
    ("wed", "半个月内", "2026-12-03 23:59"),
    ("tue", "这周一", "2026-11-23 23:59"),
    ("tue", "这周二", "2026-11-17 23:59"),
    ("tue", "本周一", "2026-11-23 23:59"),
    ("tue", "这周一下午", "2026-11-23 18:00"),
    # ranges
    ("wed", "下午3-4点", "2026-11-18 16:00"),
    ("wed", "3点到5点", "2026-11-18 17:00"),
    ("wed", "周五到周日", "2026-11-22 23:59"),
    ("wed", "12月13日到15日", "2026-12-15 23:59"),
    ("wed", "25-27号", "2026-11-27 23:59"),
    # zones in Chinese
    ("wed", "北京时间周五晚8点", "2026-11-20 20:00"),
    ("wed", "东八区明天中午", "2026-11-19 12:00"),
    ("wed", "伦敦时间明天下午3点", "2026-11-19 23:00"),
    ("wed", "东京时间周五晚上8点", "2026-11-20 19:00"),
    # English clock forms
    ("wed", "at 1:30pm", "2026-11-19 13:30"),
    ("wed", "at 13h30", "2026-11-19 13:30"),
    ("wed", "at 6:30pm", "2026-11-18 18:30"),
    ("wed", "friday at 6:30pm", "2026-11-20 18:30"),
    ("wed", "tomorrow at 18:00", "2026-11-19 18:00"),
    ("wed", "8 tonight", "2026-11-18 20:00"),
    ("wed", "at 5 tomorrow afternoon", "2026-11-19 17:00"),
    ("wed", "this evening", "2026-11-18 23:59"),
    ("eve", "this afternoon", "2026-11-18 18:00"),
    ("early", "this morning", "2026-11-18 12:00"),
    ("early", "this afternoon at 2", "2026-11-18 14:00"),
    ("wed", "tonight at 11", "2026-11-18 23:00"),
    ("wed", "tomorrow night at 10", "2026-11-19 22:00"),
    ("wed", "half past 3 tomorrow", "2026-11-19 15:30"),
    ("wed", "5 o'clock", "2026-11-18 17:00"),
    ("wed", "6.30pm", "2026-11-18 18:30"),
    ("wed", "friday 9:15am", "2026-11-20 09:15"),
    # English quantities and days
    ("wed", "in one hour", "2026-11-18 15:30"),
    ("wed", "in 1h", "2026-11-18 15:30"),
    ("wed", "in three minutes", "2026-11-18 14:33"),
    ("wed", "in a day", "2026-11-19 23:59"),
    ("wed", "in an hour", "2026-11-18 15:30"),
    ("wed", "in 1/2 hour", "2026-11-18 15:00"),
    ("wed", "in half an hour", "2026-11-18 15:00"),
    ("wed", "in 2h", "2026-11-18 16:30"),
    ("wed", "in 45 min", "2026-11-18 15:15"),
    ("wed", "in 1.5 hours", "2026-11-18 16:00"),
    ("wed", "an hour and a half from now", "2026-11-18 16:00"),
    ("wed", "two hours from now", "2026-11-18 16:30"),
    ("wed", "3 days from now", "2026-11-21 23:59"),
    ("wed", "in two weeks", "2026-12-02 23:59"),
    ("wed", "in a fortnight", "2026-12-02 23:59"),
    ("wed", "within the hour", "2026-11-18 15:30"),
    ("wed", "wednesday next week", "2026-11-25 23:59"),
    ("wed", "friday next week", "2026-11-27 23:59"),
    ("wed", "next week on monday", "2026-11-23 23:59"),
    ("wed", "thursday this week", "2026-11-19 23:59"),
    ("wed", "first of march", "2027-03-01 23:59"),
    ("wed", "march first", "2027-03-01 23:59"),
    ("wed", "20 of next month", "2026-12-20 23:59"),
    ("wed", "the twentieth", "2026-11-20 23:59"),
    ("wed", "the 5th of next month", "2026-12-05 23:59"),
    ("wed", "next month on the 5th", "2026-12-05 23:59"),
    ("wed", "twenty-first of december", "2026-12-21 23:59"),
    ("tue", "this monday", "2026-11-23 23:59"),
    ("wed", "this monday", "2026-11-23 23:59"),
    ("wed", "this wednesday", "2026-11-18 23:59"),
    # English periods
    ("wed", "this week", "2026-11-22 23:59"),
    ("wed", "by next week", "2026-11-29 23:59"),
    ("wed", "next month", "2026-12-31 23:59"),
    ("wed", "this month", "2026-11-30 23:59"),
    ("wed", "this year", "2026-12-31 23:59"),
    ("wed", "next year", "2027-12-31 23:59"),
    ("wed", "next 3 days", "2026-11-21 23:59"),
    ("wed", "the next two days", "2026-11-20 23:59"),
    ("wed", "EOM", "2026-11-30 23:59"),
    ("wed", "by end of this week", "2026-11-22 23:59"),
    ("wed", "by the end of the month", "2026-11-30 23:59"),
    ("wed", "by march", "2027-03-31 23:59"),
    ("wed", "in march", "2027-03-31 23:59"),
    # ranges and zones in English
    ("wed", "3-4pm", "2026-11-18 16:00"),
    ("wed", "July 13-15", "2027-07-15 23:59"),
    ("wed", "13-15 July", "2027-07-15 23:59"),
    ("wed", "monday to friday", "2026-11-20 23:59"),
    ("wed", "6pm to 8pm", "2026-11-18 20:00"),
    ("wed", "18:00-20:00", "2026-11-18 20:00"),
    ("wed", "Thursday 8pm GMT", "2026-11-20 04:00"),
    ("wed", "Thursday 8:00 GMT", "?2026-11-19 16:00|2026-11-20 04:00"),
    ("wed", "4pm CET", "2026-11-18 23:00"),
    ("wed", "friday 5pm EST", "2026-11-21 06:00"),
    ("wed", "friday 10am PT", "2026-11-21 02:00"),
    ("wed", "tomorrow 9am UTC+8", "2026-11-19 09:00"),
    ("wed", "tomorrow 9am UTC-5", "2026-11-19 22:00"),
    ("wed", "2026-12-20 18:00+00:00", "2026-12-21 02:00"),
    # still refused, with the reason
    ("wed", "this morning", "!deadline-past"),
    ("wed", "20号还是21号", "!deadline-unparsed"),
    ("wed", "soon", "!deadline-unparsed"),
    ("wed", "asap", "!deadline-unparsed"),
    ("wed", "八点五", "!deadline-unparsed"),
    ("wed", "30号 in 2 hours", "!deadline-unparsed"),
    # holidays, in both languages
    ("wed", "圣诞节", "2026-12-25 23:59"),
    ("wed", "聖誕節前", "2026-12-25 23:59"),
    ("wed", "平安夜晚上8点", "2026-12-24 20:00"),
    ("wed", "情人节", "2027-02-14 23:59"),
    ("wed", "国庆节", "2027-10-01 23:59"),
    ("wed", "劳动节", "2027-05-01 23:59"),
    ("wed", "儿童节", "2027-06-01 23:59"),
    ("wed", "万圣节", "2027-10-31 23:59"),
    ("wed", "跨年夜", "2026-12-31 23:59"),
    ("wed", "母亲节", "2027-05-09 23:59"),
    ("wed", "父亲节", "2027-06-20 23:59"),
    ("wed", "感恩节", "2026-11-26 23:59"),
    ("wed", "christmas", "2026-12-25 23:59"),
    ("wed", "xmas eve", "2026-12-24 23:59"),
    ("wed", "new year's eve", "2026-12-31 23:59"),
    ("wed", "valentine's day", "2027-02-14 23:59"),
    ("wed", "halloween", "2027-10-31 23:59"),
    ("wed", "mother's day", "2027-05-09 23:59"),
    ("wed", "thanksgiving", "2026-11-26 23:59"),
    ("wed", "4th of july", "2027-07-04 23:59"),
    # the n-th or last weekday of a month; the last day of a month
    ("wed", "first tuesday of december", "2026-12-01 23:59"),
    ("wed", "second wednesday of january", "2027-01-13 23:59"),
    ("wed", "last friday of december", "2026-12-25 23:59"),
    ("wed", "last monday of may 2027", "2027-05-31 23:59"),
    ("wed", "1st friday of next month", "2026-12-04 23:59"),
    ("wed", "last day of this month", "2026-11-30 23:59"),
    ("wed", "last day of next month", "2026-12-31 23:59"),
    ("wed", "last day of february", "2027-02-28 23:59"),
    ("wed", "third day of december", "2026-12-03 23:59"),
    ("wed", "20th of the next month", "2026-12-20 23:59"),
    # quarters, years, month and year
    ("wed", "this quarter", "2026-12-31 23:59"),
    ("wed", "next quarter", "2027-03-31 23:59"),
    ("wed", "EOQ", "2026-12-31 23:59"),
    ("wed", "q1 2027", "2027-03-31 23:59"),
    ("wed", "3rd quarter", "2027-09-30 23:59"),
    ("wed", "本季度", "2026-12-31 23:59"),
    ("wed", "下季度", "2027-03-31 23:59"),
    ("wed", "第一季度", "2027-03-31 23:59"),
    ("wed", "一年后", "2027-11-18 23:59"),
    ("wed", "December 2026", "2026-12-31 23:59"),
    ("wed", "March 2027", "2027-03-31 23:59"),
    ("wed", "下个月中旬", "2026-12-20 23:59"),
    ("wed", "12月上旬", "2026-12-10 23:59"),
    ("wed", "下旬", "2026-11-30 23:59"),
    # 12 o'clock: noon, or the midnight that ends the day
    ("wed", "今天12点前", "2026-11-19 00:00"),
    ("early", "今天12点前", "2026-11-18 12:00"),
    ("wed", "明天十二點", "2026-11-19 12:00"),
    ("wed", "上午十点到十二点", "2026-11-19 12:00"),
    ("wed", "凌晨12点", "2026-11-19 00:00"),
    # English clock forms, numbers and minutes
    ("wed", "a quarter past 5pm", "2026-11-18 17:15"),
    ("wed", "20 past 6pm", "2026-11-18 18:20"),
    ("wed", "twenty after 7pm", "2026-11-18 19:20"),
    ("wed", "half past seven tonight", "2026-11-18 19:30"),
    ("wed", "a quarter to noon", "2026-11-19 11:45"),
    ("wed", "15 to midnight", "2026-11-18 23:45"),
    ("wed", "20 minutes to 6pm", "2026-11-18 17:40"),
    ("wed", "half seven tonight", "2026-11-18 19:30"),
    ("wed", "at three twenty pm", "2026-11-18 15:20"),
    ("wed", "9:45p", "2026-11-18 21:45"),
    ("wed", "6p", "2026-11-18 18:00"),
    ("wed", "@ 5pm", "2026-11-18 17:00"),
    ("wed", "at about 5pm", "2026-11-18 17:00"),
    ("wed", "5ish pm", "2026-11-18 17:00"),
    ("wed", "on friday for 9am", "2026-11-20 09:00"),
    ("wed", "12 noon tomorrow", "2026-11-19 12:00"),
    ("wed", "this time tomorrow", "2026-11-19 14:30"),
    ("wed", "same time tomorrow", "2026-11-19 14:30"),
    ("wed", "明天这个时候", "2026-11-19 14:30"),
    ("wed", "in 2 more hours", "2026-11-18 16:30"),
    ("wed", "in 1/4 hour", "2026-11-18 14:45"),
    ("wed", "in 3/4h", "2026-11-18 15:15"),
    ("wed", "in three-quarters of an hour", "2026-11-18 15:15"),
    ("wed", "in 2 and a half hours", "2026-11-18 17:00"),
    ("wed", "a day from now", "2026-11-19 23:59"),
    ("wed", "a week from now", "2026-11-25 23:59"),
    ("wed", "10 days hence", "2026-11-28 23:59"),
    ("wed", "wednesday after next", "2026-12-02 23:59"),
    ("wed", "friday after next", "2026-11-27 23:59"),
    ("wed", "the coming week", "2026-11-29 23:59"),
    ("wed", "the following week", "2026-11-29 23:59"),
    ("wed", "current month", "2026-11-30 23:59"),
    ("wed", "this week-end", "2026-11-22 23:59"),
    ("wed", "tomorrow lunch", "2026-11-19 12:00"),
    ("wed", "by lunchtime", "2026-11-19 12:00"),
    ("wed", "3/3/2027", "2027-03-03 23:59"),
    ("wed", "12/25/2026", "2026-12-25 23:59"),
    ("wed", "25/12/2026", "2026-12-25 23:59"),
    ("wed", "12/25/26", "2026-12-25 23:59"),
    ("wed", "Wed, Nov25", "2026-11-25 23:59"),
    ("wed", "Nov 20 - Nov 22", "2026-11-22 23:59"),
    ("wed", "Dec 1 - 3", "2026-12-03 23:59"),
    ("wed", "between 3pm and 5pm friday", "2026-11-20 17:00"),
    ("wed", "friday from 9a to 11a", "2026-11-20 11:00"),
    # Cantonese and Taiwan words
    ("wed", "一個鐘後", "2026-11-18 15:30"),
    ("wed", "聽朝九點", "2026-11-19 09:00"),
    ("wed", "禮拜五下晝三點", "2026-11-20 15:00"),
    ("wed", "後晚", "2026-11-20 23:59"),
    ("wed", "下個禮拜五中午十二點", "2026-11-27 12:00"),
    ("wed", "週六中午", "2026-11-21 12:00"),
    ("wed", "這個禮拜天晚上十二點", "2026-11-23 00:00"),
    # Duckling-style "now": the small hours of a Tuesday
    ("tue-early", "三点", "2026-11-17 15:00"),
    ("tue-early", "3:15", "2026-11-17 15:15"),
    ("tue-early", "下午三点十五", "2026-11-17 15:15"),
    ("tue-early", "三点一刻", "2026-11-17 15:15"),
    ("tue-early", "这周一", "2026-11-23 23:59"),
    ("tue-early", "两点", "2026-11-17 14:00"),
    ("tue-early", "8点", "?2026-11-17 08:00|2026-11-17 20:00"),
    ("tue-early", "五点之前", "?2026-11-17 05:00|2026-11-17 17:00"),
    ("tue-early", "this monday", "2026-11-23 23:59"),
    ("tue-early", "at 3pm", "2026-11-17 15:00"),
    ("tue-early", "3:30", "2026-11-17 15:30"),
    ("tue-early", "half three", "2026-11-17 15:30"),
    ("tue-early", "9 tomorrow", "?2026-11-18 09:00|2026-11-18 21:00"),
    ("tue-early", "8 tonight", "2026-11-17 20:00"),
    ("tue-early", "tuesday", "2026-11-17 23:59"),
    ("tue-early", "周二", "2026-11-17 23:59"),
    # seconds and vague words are refused, never misread
    ("wed", "in one second", "!deadline-unparsed"),
    ("wed", "in a sec", "!deadline-unparsed"),
    ("wed", "30秒后", "!deadline-unparsed"),
    ("wed", "early next week", "!deadline-unparsed"),
    ("wed", "年初", "!deadline-unparsed"),
    ("wed", "10 to 4", "!deadline-unparsed"),
    # compound durations, ranges of counts, and month counts that could be month names
    ("wed", "in 1 hour 30 minutes", "2026-11-18 16:00"),
    ("wed", "in 2h30m", "2026-11-18 17:00"),
    ("wed", "1小时30分钟后", "2026-11-18 16:00"),
    ("wed", "一个小时三十分钟后", "2026-11-18 16:00"),
    ("wed", "2-3天内", "2026-11-21 23:59"),
    ("wed", "1-2周内", "2026-12-02 23:59"),
    ("wed", "in 2-3 days", "2026-11-21 23:59"),
    ("wed", "in 2 to 3 hours", "2026-11-18 17:30"),
    ("wed", "两月后", "2027-01-18 23:59"),
    ("wed", "一月内", "!deadline-unparsed"),
    ("wed", "三月后", "!deadline-unparsed"),
    ("wed", "by the 3", "!deadline-unparsed"),
    ("wed", "by the 3rd", "2026-12-03 23:59"),
    # a month of this or next year
    ("wed", "今年3月", "!deadline-past"),
    ("wed", "明年3月5号", "2027-03-05 23:59"),
    ("wed", "明年一月", "2027-01-31 23:59"),
    ("wed", "今年12月20日晚上8点", "2026-12-20 20:00"),
    ("wed", "明年3月底", "2027-03-31 23:59"),
    # how deadlines are announced in English chats
    ("wed", "due by friday 5pm", "2026-11-20 17:00"),
    ("wed", "submit results by sunday night", "2026-11-22 23:59"),
    ("wed", "results due 11:59pm sunday", "2026-11-22 23:59"),
    ("wed", "before the weekend", "2026-11-22 23:59"),
    ("wed", "no later than friday noon", "2026-11-20 12:00"),
    ("wed", "monday 9am sharp", "2026-11-23 09:00"),
    ("wed", "end of business friday", "2026-11-20 23:59"),
    ("wed", "by COB tomorrow", "2026-11-19 23:59"),
    ("wed", "sunday at 8", "?2026-11-22 08:00|2026-11-22 20:00"),
    ("wed", "next sat at 2", "2026-11-28 14:00"),
    ("wed", "11/25 6pm", "2026-11-25 18:00"),
    ("wed", "2026.11.25", "2026-11-25 23:59"),
    ("wed", "within 48h", "2026-11-20 14:30"),
    ("wed", "a week today", "2026-11-25 23:59"),
    ("wed", "a week tomorrow", "2026-11-26 23:59"),
    ("wed", "monday week", "2026-11-30 23:59"),
    ("wed", "thursday next", "2026-11-26 23:59"),
    ("wed", "midnight sunday", "2026-11-23 00:00"),
    ("wed", "12am sunday", "2026-11-22 00:00"),
    ("wed", "Sunday 12:00", "2026-11-22 12:00"),
    ("wed", "tomorrow 6", "2026-11-19 18:00"),
    ("wed", "in 5 days at noon", "2026-11-23 12:00"),
    ("wed", "end of this month", "2026-11-30 23:59"),
    ("wed", "month end", "2026-11-30 23:59"),
    ("wed", "year end", "2026-12-31 23:59"),
    ("wed", "end of the next week", "2026-11-29 23:59"),
    # how deadlines are announced in Chinese group chats
    ("wed", "本周日晚10点前上报成绩", "2026-11-22 22:00"),
    ("wed", "这周六下午两点前打完", "2026-11-21 14:00"),
    ("wed", "下周二中午12点之前", "2026-11-24 12:00"),
    ("wed", "今晚十点半前必须报", "2026-11-18 22:30"),
    ("wed", "周五24点", "2026-11-21 00:00"),
    ("wed", "周六0点", "2026-11-21 00:00"),
    ("wed", "截止时间：12月20日 20:00", "2026-12-20 20:00"),
    ("wed", "截止日期是下周三", "2026-11-25 23:59"),
    ("wed", "ddl 周五", "2026-11-20 23:59"),
    ("wed", "三天以内完成", "2026-11-21 23:59"),
    ("wed", "一个星期之内", "2026-11-25 23:59"),
    ("wed", "月底之前比完", "2026-11-30 23:59"),
    ("wed", "十二月三十一号之前", "2026-12-31 23:59"),
    ("wed", "30号晚上九点", "2026-11-30 21:00"),
    ("wed", "今天晚上之前", "2026-11-18 23:59"),
    ("wed", "明天白天", "2026-11-19 18:00"),
    ("wed", "下周一早九点", "2026-11-23 09:00"),
    ("wed", "八点半前", "?2026-11-18 20:30|2026-11-19 08:30"),
    ("wed", "两点前", "?2026-11-19 02:00|2026-11-19 14:00"),
    ("wed", "十点前", "?2026-11-18 22:00|2026-11-19 10:00"),
    ("wed", "中午前", "2026-11-19 12:00"),
    ("wed", "周三12点", "2026-11-25 12:00"),
    ("wed", "双休日", "2026-11-22 23:59"),
    ("wed", "下下个礼拜五", "2026-12-04 23:59"),
    ("wed", "三号之前", "2026-12-03 23:59"),
    ("wed", "晚上11点59分", "2026-11-18 23:59"),
    ("wed", "明天23:59", "2026-11-19 23:59"),
    ("wed", "这两天", "!deadline-unparsed"),
    ("wed", "尽快", "!deadline-unparsed"),
    ("wed", "12月初", "!deadline-unparsed"),
    # words around a deadline that do not change it; 后 before 晚上 is not 後晚
    ("wed", "三天后晚上8点", "2026-11-21 20:00"),
    ("wed", "三天後晚上8點", "2026-11-21 20:00"),
    ("wed", "后晚八点", "2026-11-20 20:00"),
    ("wed", "两天后的下午三点", "2026-11-20 15:00"),
    ("wed", "between monday and friday", "2026-11-20 23:59"),
    ("wed", "later today", "2026-11-18 23:59"),
    ("wed", "sometime tomorrow", "2026-11-19 23:59"),
    ("wed", "anytime before friday", "2026-11-20 23:59"),
    ("wed", "any time before 5pm friday", "2026-11-20 17:00"),
    ("wed", "some time next week", "2026-11-29 23:59"),
    # a weekday in brackets beside a date is checked, with its week; more shorthand
    ("wed", "本周五（11月20日）", "2026-11-20 23:59"),
    ("wed", "下周五（11月20日）", "!deadline-week-clash"),
    ("wed", "next friday (27 nov)", "2026-11-27 23:59"),
    ("wed", "11月20日（周五）", "2026-11-20 23:59"),
    ("wed", "20日（星期五）晚上8点", "2026-11-20 20:00"),
    ("wed", "over the weekend", "2026-11-22 23:59"),
    ("wed", "end of Q1", "2027-03-31 23:59"),
    ("wed", "end of 2026", "2026-12-31 23:59"),
    ("wed", "12:00 noon", "2026-11-19 12:00"),
    ("wed", "at 1700", "2026-11-18 17:00"),
    ("wed", "1700 hrs", "2026-11-18 17:00"),
    ("wed", "nxt wk", "2026-11-29 23:59"),
    ("wed", "2day 5pm", "2026-11-18 17:00"),
    ("wed", "weds 5pm", "2026-11-18 17:00"),
    ("wed", "tonite 9pm", "2026-11-18 21:00"),
    ("wed", "tmrw nite", "2026-11-19 23:59"),
    # 这一/下一, and more words for parts of the day
    ("wed", "这一周", "2026-11-22 23:59"),
    ("wed", "這一週", "2026-11-22 23:59"),
    ("wed", "下一个星期五", "2026-11-27 23:59"),
    ("wed", "下一個月", "2026-12-31 23:59"),
    ("wed", "今夜十点", "2026-11-18 22:00"),
    ("wed", "明天正午", "2026-11-19 12:00"),
    ("wed", "明天清晨", "2026-11-19 09:00"),
    ("wed", "明年元旦", "2027-01-01 23:59"),
    ("wed", "今年圣诞节", "2026-12-25 23:59"),
    ("wed", "二零二七年三月", "2027-03-31 23:59"),
    # A date written with its year (ISO 8601 and the like) and a two-digit hour, or any
    # zero-padded or 13h30-style time: a 24-hour clock, never asked about
    ("wed", "2026-12-04 11:09", "2026-12-04 11:09"),
    ("wed", "2026-12-04T10:30", "2026-12-04 10:30"),
    ("wed", "2026/12/04 12:00", "2026-12-04 12:00"),
    ("wed", "on 2026-11-19 at 11:45", "2026-11-19 11:45"),
    ("wed", "Dec 4 2026 11:09", "2026-12-04 11:09"),
    ("wed", "2026年12月4日 11:09", "2026-12-04 11:09"),
    ("wed", "2026年11月19日 10:00前", "2026-11-19 10:00"),
    ("wed", "明天 07:45", "2026-11-19 07:45"),
    ("wed", "friday 08:00", "2026-11-20 08:00"),
    ("wed", "9h30", "2026-11-19 09:30"),
    ("wed", "周五 8h15", "2026-11-20 08:15"),
    ("wed", "2026-12-04 3:00", "2026-12-04 15:00"),  # one digit: 12-hour, 03:00 unlikely
    ("wed", "12月4日 11:09", "?2026-12-04 11:09|2026-12-04 23:09"),  # no year: both fit
    ("wed", "3:30", "2026-11-18 15:30"),  # 12-hour, but 03:30 tomorrow is no round's end
    ("wed", "三点", "2026-11-18 15:00"),
    ("wed", "at 3", "2026-11-18 15:00"),
    ("wed", "at a few", "!deadline-unparsed"),  # words that are no time at all
    ("wed", "three twenty", "!deadline-unparsed"),
    ("wed", "two sixty pm", "!deadline-unparsed"),
    # "N <weekday>s from now": the N-th such day after today
    ("wed", "3 fridays from now", "2026-12-04 23:59"),
    ("wed", "two sundays from now", "2026-11-29 23:59"),
    ("wed", "four tuesdays from now", "2026-12-15 23:59"),
    ("wed", "1 wednesday from now", "2026-11-25 23:59"),
    ("wed", "2 fridays from now at 6pm", "2026-11-27 18:00"),
    ("dec25", "3 fridays from now", "2027-01-15 23:59"),
    ("wed", "往后第三个周五", "2026-12-04 23:59"),
    ("wed", "三个星期五后", "2026-12-04 23:59"),
    ("wed", "再过两个周日", "2026-11-29 23:59"),
    ("wed", "接下来第四个礼拜二", "2026-12-15 23:59"),
    # ranges: the end is the deadline
    ("wed", "from the 13th to the 15th of December", "2026-12-15 23:59"),
    ("wed", "from 13 to 15 july", "2027-07-15 23:59"),
    ("wed", "from 2 to 4 in the afternoon", "2026-11-18 16:00"),
    ("wed", "Friday from 9:30 until 11:30am", "2026-11-20 11:30"),
    ("wed", "9h30 - 11h00 on friday", "2026-11-20 11:00"),
    ("wed", "3pm until 5pm tomorrow", "2026-11-19 17:00"),
    ("wed", "later than 3:30pm but before 6pm", "2026-11-18 18:00"),
    ("wed", "从12月13日到15日", "2026-12-15 23:59"),
    ("wed", "从13号到15号", "2026-12-15 23:59"),
    ("wed", "周五上午9:30至11:30", "2026-11-20 11:30"),
    ("wed", "明天下午两点到四点", "2026-11-19 16:00"),
    ("wed", "自周五至周日", "2026-11-22 23:59"),
    # minutes past noon or midnight
    ("wed", "a quarter past noon", "2026-11-19 12:15"),
    ("wed", "20 past noon tomorrow", "2026-11-19 12:20"),
    ("wed", "half past midnight", "2026-11-19 00:30"),
    ("wed", "10 minutes past noon on friday", "2026-11-20 12:10"),
    ("wed", "中午12点过一刻", "2026-11-19 12:15"),
    ("wed", "中午十二点过二十分", "2026-11-19 12:20"),
    ("wed", "下午三点过十分", "2026-11-18 15:10"),
    ("wed", "半夜十二点半", "2026-11-19 00:30"),
    # a time in words, the minutes spoken after the hour
    ("wed", "nine fifty nine pm", "2026-11-18 21:59"),
    ("wed", "ten thirty a m", "2026-11-19 10:30"),
    ("wed", "seven forty five p.m. tomorrow", "2026-11-19 19:45"),
    ("wed", "eleven fifteen in the morning", "2026-11-19 11:15"),
    ("wed", "330 pm", "2026-11-18 15:30"),
    ("wed", "at 730 in the evening", "2026-11-18 19:30"),
    ("wed", "早上七点四十五", "2026-11-19 07:45"),
    ("wed", "下午三点三十五分", "2026-11-18 15:35"),
    ("wed", "晚上九点五十九分", "2026-11-18 21:59"),
    # seconds in a time of day: the deadline is kept to the minute
    ("wed", "9:01:10 AM", "2026-11-19 09:01"),
    ("wed", "18:30:00", "2026-11-18 18:30"),
    ("wed", "6:45:30 pm friday", "2026-11-20 18:45"),
    ("wed", "2026-12-04 11:09:30", "2026-12-04 11:09"),
    ("wed", "今天18:30:15", "2026-11-18 18:30"),
    ("wed", "下午3点20分10秒", "2026-11-18 15:20"),
    ("wed", "明天晚上8点30分45秒", "2026-11-19 20:30"),
    # minutes without the word, and 再过 (after another …)
    ("wed", "in 15", "2026-11-18 14:45"),
    ("wed", "in 45", "2026-11-18 15:15"),
    ("wed", "in 15'", "2026-11-18 14:45"),
    ("wed", "in 90", "2026-11-18 16:00"),
    ("wed", "再过15分钟", "2026-11-18 14:45"),
    ("wed", "过半小时", "2026-11-18 15:00"),
    ("wed", "再过两小时", "2026-11-18 16:30"),
    ("wed", "再过三天", "2026-11-21 23:59"),
    # a part of the day narrowed: early morning, the small hours, late at night
    ("wed", "monday early morning", "2026-11-23 09:00"),
    ("wed", "early tomorrow morning", "2026-11-19 09:00"),
    ("wed", "tomorrow in the early hours", "2026-11-19 06:00"),
    ("wed", "late tonight", "2026-11-18 23:59"),
    ("wed", "friday late at night", "2026-11-20 23:59"),
    ("wed", "周一一大早", "2026-11-23 09:00"),
    ("wed", "明天大清早", "2026-11-19 09:00"),
    ("wed", "周五清早", "2026-11-20 09:00"),
    ("wed", "今天深夜", "2026-11-18 23:59"),
    # an offset from a named moment (not from now)
    ("wed", "15 minutes from 1pm", "2026-11-19 13:15"),
    ("wed", "2 hours after 3pm", "2026-11-18 17:00"),
    ("wed", "3 days after christmas", "2026-12-28 23:59"),
    ("wed", "a week from friday", "2026-11-27 23:59"),
    ("wed", "4pm for 30 mins", "2026-11-18 16:30"),
    ("wed", "for 10 days from 1 dec", "2026-12-11 23:59"),
    ("wed", "下午1点后15分钟", "2026-11-19 13:15"),
    ("wed", "圣诞节后三天", "2026-12-28 23:59"),
    ("wed", "周五之后两天", "2026-11-22 23:59"),
    ("wed", "元旦以后一周", "2027-01-08 23:59"),
    ("wed", "下午3点以后两小时", "2026-11-18 17:00"),
    ("wed", "8点后15分钟", "?2026-11-18 20:15|2026-11-19 08:15"),
    ("wed", "45 minutes from 2pm", "2026-11-18 14:45"),  # 2pm has passed, 14:45 not
    ("wed", "15 minutes from 2pm", "2026-11-19 14:15"),
    ("wed", "下午2点后一小时", "2026-11-18 15:00"),
    ("dec25", "3 days after christmas", "2026-12-28 23:59"),  # this Christmas, just past
    ("wed", "3 days after yesterday", "2026-11-20 23:59"),
    # "the week of …": that week's end (weeks run Monday to Sunday)
    ("wed", "the week of november 25th", "2026-11-29 23:59"),
    ("wed", "week of dec 14", "2026-12-20 23:59"),
    ("wed", "the week of the 20th", "2026-11-22 23:59"),
    ("wed", "the week of nov 16", "2026-11-22 23:59"),  # its Monday has passed, not its end
    ("wed", "12月14日那周", "2026-12-20 23:59"),
    ("wed", "25号那一周", "2026-11-29 23:59"),
    ("wed", "12月3日所在的那一周", "2026-12-06 23:59"),
    ("wed", "20号那个礼拜", "2026-11-22 23:59"),
    ("wed", "the week of sunday dec 13", "2026-12-20 23:59"),  # a Sunday begins a week
    ("wed", "12月13日那周", "2026-12-13 23:59"),  # 周日 ends one
    ("wed", "first week of december", "!deadline-unparsed"),
    ("wed", "all week", "2026-11-22 23:59"),
    # next March, March after next: the first such month after this one, the one after
    ("wed", "next march", "2027-03-31 23:59"),
    ("wed", "March after next", "2028-03-31 23:59"),
    ("wed", "next december", "2026-12-31 23:59"),
    ("wed", "next november", "2027-11-30 23:59"),
    ("wed", "february after next", "2028-02-29 23:59"),
    ("wed", "下个三月", "2027-03-31 23:59"),
    ("wed", "下下个三月", "2028-03-31 23:59"),
    ("wed", "下个十二月", "2026-12-31 23:59"),
    ("wed", "下个11月", "2027-11-30 23:59"),
    # quarters, however written: the quarter's last day
    ("wed", "3rd qtr", "2027-09-30 23:59"),
    ("wed", "2027Q2", "2027-06-30 23:59"),
    ("wed", "27q1", "2027-03-31 23:59"),
    ("wed", "the fourth quarter of 2026", "2026-12-31 23:59"),
    ("wed", "Q4", "2026-12-31 23:59"),
    ("wed", "第三季度", "2027-09-30 23:59"),
    ("wed", "2027年第二季度", "2027-06-30 23:59"),
    ("wed", "四季度", "2026-12-31 23:59"),
    ("wed", "2027年Q1", "2027-03-31 23:59"),
    ("wed", "第一季度末", "2027-03-31 23:59"),
    # a few (几): three
    ("wed", "next few days", "2026-11-21 23:59"),
    ("wed", "in a few days", "2026-11-21 23:59"),
    ("wed", "in a few hours", "2026-11-18 17:30"),
    ("wed", "the next few weeks", "2026-12-09 23:59"),
    ("wed", "未来几天", "2026-11-21 23:59"),
    ("wed", "接下来几天", "2026-11-21 23:59"),
    ("wed", "几天内", "2026-11-21 23:59"),
    ("wed", "几个小时后", "2026-11-18 17:30"),
    ("wed", "这几天", "!deadline-unparsed"),
    # the n-th weekday of a month in Chinese; 今 for this week; 下年 for next year
    ("wed", "十二月第一个星期一", "2026-12-07 23:59"),
    ("wed", "十月的第二个周五", "2027-10-08 23:59"),
    ("wed", "下个月最后一个周日", "2026-12-27 23:59"),
    ("wed", "2027年3月第一个礼拜一", "2027-03-01 23:59"),
    ("wed", "今星期五", "2026-11-20 23:59"),
    ("wed", "今礼拜日", "2026-11-22 23:59"),
    ("wed", "下年9月", "2027-09-30 23:59"),
    ("wed", "下年", "2027-12-31 23:59"),
    ("wed", "这一年", "2026-12-31 23:59"),
    ("wed", "september next year", "2027-09-30 23:59"),
    ("wed", "last sunday of next month", "2026-12-27 23:59"),
    # days ago are past; 两 never names a month or a day of the month
    ("wed", "两日前", "!deadline-past"),
    ("wed", "3天前", "!deadline-past"),
    ("wed", "前两月", "!deadline-unparsed"),
    # a month of a year, a year; words that name no hour
    ("wed", "2/2027", "2027-02-28 23:59"),
    ("wed", "2027-03", "2027-03-31 23:59"),
    ("wed", "in 2027", "2027-12-31 23:59"),
    ("wed", "two upcoming week", "!deadline-unparsed"),
    ("wed", "end of around next week", "2026-11-29 23:59"),
]


def test_the_table_is_large_enough() -> None:
    assert len(PHRASES) >= 500
    assert len({(now, phrase) for now, phrase, _ in PHRASES}) == len(PHRASES)


@pytest.mark.parametrize(("now", "phrase", "expected"), PHRASES)
def test_phrase(now: str, phrase: str, expected: str) -> None:
    moment = NOWS[now]
    tz = moment.tzinfo
    assert isinstance(tz, ZoneInfo)
    if expected.startswith("!"):
        with pytest.raises(DeadlineError) as caught:
            resolve_deadline(phrase, moment, tz)
        assert caught.value.code == expected[1:]
        return
    if expected.startswith("?"):
        with pytest.raises(AmbiguousHour) as asked:
            resolve_deadline(phrase, moment, tz)
        choices = asked.value.choices
        for found, wanted in zip(choices, expected[1:].split("|"), strict=True):
            _check(found, wanted, moment, tz)
        return
    _check(resolve_deadline(phrase, moment, tz).when, expected, moment, tz)


def _check(found: datetime, expected: str, moment: datetime, tz: ZoneInfo) -> None:
    assert found.tzinfo == tz
    if expected.endswith("Z"):
        assert found.astimezone(UTC) == datetime.fromisoformat(expected[:-1]).replace(tzinfo=UTC)
    else:
        assert found.strftime("%Y-%m-%d %H:%M") == expected
    assert found.astimezone(UTC) > moment.astimezone(UTC)


DAYS = ["", "明天", "後天", "周五", "這週一", "下周三", "20号", "12月1日", "下個月", "3月", "月底"]
DAYS += ["", "tomorrow", "friday", "this monday", "friday next week", "march first", "EOM"]
DAYS += ["圣诞节", "this quarter", "2nd sunday of may", "friday after next", "今天", "下旬"]
DAYS += ["3 fridays from now", "往后第三个周五", "the week of dec 14", "12月14日那周", "2027Q2"]
DAYS += ["march after next", "下下个三月", "第三季度", "十月第一个星期一", "next few days"]
DAYS += [
    "未来几天",
    "今星期二",
    "下年9月",
    "2026-12-04",
    "2027年3月5日",
    "from the 13th to the 15th",
]
TIMES = ["", "3点", "三點零五", "下午兩點", "晚上8点", "凌晨2点", "半夜", "12点", "9:30", "09:30"]
TIMES += ["", "at 8", "6:30pm", "at 5 tomorrow afternoon", "tonight", "12am", "noon"]
TIMES += ["a quarter to noon", "half past 3", "白天3点", "in 2h30m", "十点前"]
TIMES += ["11:09", "a quarter past noon", "nine fifty nine a m", "9:01:10 am", "下午3点20分10秒"]
TIMES += ["early morning", "一大早", "9h30", "9:30 until 11:00", "半夜十二点半", "中午12点过一刻"]
TIMES += ["for 30 mins", "后15分钟", "in 15", "later than 3pm but before 6pm"]
ZONES = ["", "", "", "GMT", "CET", "UTC+8", "北京时间"]


TRADITIONAL = str.maketrans(
    "后这周时个两点号钟内礼间来头为报结东请数几于过与历开当从听紧昼圣诞国庆劳动儿万亲师军节妇",
    "後這週時個兩點號鐘內禮間來頭為報結東請數幾於過與曆開當從聽緊晝聖誕國慶勞動兒萬親師軍節婦",
)


@pytest.mark.parametrize(
    ("now", "phrase"),
    [(now, p) for now, p, _ in PHRASES if p != p.translate(TRADITIONAL)],
)
def test_traditional_characters_read_as_simplified(now: str, phrase: str) -> None:
    """One grammar: the same phrase in traditional characters means the same."""
    moment = NOWS[now]
    tz = moment.tzinfo
    assert isinstance(tz, ZoneInfo)

    def read(text: str) -> object:
        try:
            return resolve_deadline(text, moment, tz).when
        except AmbiguousHour as asked:
            return asked.choices
        except DeadlineError as refused:
            return refused.code

    assert read(phrase.translate(TRADITIONAL)) == read(phrase)


@given(
    day=st.sampled_from(DAYS),
    clock=st.sampled_from(TIMES),
    zone=st.sampled_from(ZONES),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2029, 12, 31)),
    tz=st.sampled_from([SH, NY, LDN]),
)
def test_whatever_is_read_is_in_the_future(
    day: str, clock: str, zone: str, now: datetime, tz: ZoneInfo
) -> None:
    """Never a past moment: a reading is ahead of now, and so is each of two asked about."""
    moment = now.replace(tzinfo=tz)
    try:
        found: tuple[datetime, ...] = (resolve_deadline(f"{day} {clock} {zone}", moment, tz).when,)
    except AmbiguousHour as asked:
        found = asked.choices
        assert found[0] < found[1]
    except DeadlineError:
        return
    for when in found:
        assert when.astimezone(UTC) > moment.astimezone(UTC)
        assert when.tzinfo == tz


ISO_FORMS = ["{:%Y-%m-%d %H:%M}", "{:%Y-%m-%dT%H:%M}", "{:%Y/%m/%d %H:%M}", "{:%b %-d %Y %H:%M}"]
ISO_FORMS += ["{:%Y年%-m月%-d日 %H:%M}", "{:%Y.%m.%d %H:%M}前"]


@given(
    when=st.datetimes(datetime(2026, 1, 1), datetime(2029, 12, 31)),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2029, 12, 31)),
    form=st.sampled_from(ISO_FORMS),
    tz=st.sampled_from([SH, NY, LDN]),
)
def test_a_date_with_its_year_and_a_two_digit_hour_is_never_asked_about(
    when: datetime, now: datetime, form: str, tz: ZoneInfo
) -> None:
    """ISO 8601 and the like: ``2026-12-04 11:09`` is 11:09, on a 24-hour clock."""
    moment, text = now.replace(tzinfo=tz), form.format(when)
    try:
        found = resolve_deadline(text, moment, tz)
    except AmbiguousHour:
        pytest.fail(f"{text} was asked about")
    except DeadlineError as refused:
        assert refused.code == "deadline-past", text
        return
    assert found.skipped or found.when.strftime("%Y-%m-%d %H:%M") == f"{when:%Y-%m-%d %H:%M}"


@given(
    day=st.sampled_from(DAYS),
    hour=st.integers(0, 9),
    minute=st.integers(0, 59),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2029, 12, 31)),
)
def test_a_zero_padded_hour_is_never_asked_about(
    day: str, hour: int, minute: int, now: datetime
) -> None:
    """``09:30`` is half past nine in the morning, whatever is written beside it."""
    text = f"{day} {hour:02d}:{minute:02d}"
    try:
        found = resolve_deadline(text, now.replace(tzinfo=SH), SH).when
    except AmbiguousHour:
        pytest.fail(f"{text} was asked about")
    except DeadlineError:
        return
    assert (found.hour, found.minute) == (hour, minute), text


WORDS = [
    "3",
    "12",
    "20",
    "2027",
    "1/2",
    "3/4",
    "5-6",
    "10:30",
    "09:00",
    "8点",
    "三点",
    "十二点",
    "零五",
    "半",
    "一刻",
    "号",
    "日",
    "月",
    "年",
    "周",
    "周五",
    "下",
    "下个",
    "这",
    "本",
    "上",
    "天",
    "小时",
    "分钟",
    "后",
    "内",
    "前",
    "到",
    "-",
    "~",
    "to",
    "in",
    "a",
    "the",
    "of",
    "at",
    "by",
    "next",
    "this",
    "last",
    "week",
    "month",
    "year",
    "q3",
    "monday",
    "fri",
    "march",
    "may",
    "1st",
    "third",
    "am",
    "pm",
    "p",
    "tonight",
    "tomorrow",
    "noon",
    "midnight",
    "half",
    "quarter",
    "past",
    "after",
    "before",
    "between",
    "and",
    "GMT",
    "CET",
    "UTC+8",
    "北京时间",
    "东八区",
    "元旦",
    "圣诞节",
    "母亲节",
    "christmas",
    "上旬",
    "本季度",
    "今年",
    "明年",
    "后晚",
    "聽日",
    "禮拜",
    "兩",
    "點",
    "後",
    "晚上",
    "下午",
    "凌晨",
    "半夜",
    "白天",
    "中午",
    ",",
    "：",
    "@",
    "ish",
    "eom",
    "eow",
    "h",
    "m",
    "秒",
    "second",
    "hence",
    "from",
    "now",
    "fridays",
    "week of",
    "那周",
    "所在",
    "几",
    "过",
    "再过",
    "+",
    "个",
    "第一个",
    "最后",
    "季度",
    "qtr",
    "2027q3",
    "下年",
    "'",
    ":15",
    "until",
    "for",
    "early",
    "late",
    "few",
]


@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    joined=st.sampled_from(["", " "]),
    now=st.datetimes(datetime(2026, 1, 1), datetime(2029, 12, 31)),
)
def test_any_words_are_read_into_the_future_or_refused_with_a_reason(
    words: list[str], joined: str, now: datetime
) -> None:
    """Whatever is typed: a moment ahead, a question, or a refusal; never an exception."""
    moment = now.replace(tzinfo=SH)
    try:
        assert resolve_deadline(joined.join(words), moment, SH).when > moment
    except AmbiguousHour as asked:
        assert all(when > moment for when in asked.choices)
    except DeadlineError:
        pass


@pytest.mark.parametrize(
    ("now", "phrase", "params"),
    [
        ("wed", "12月20日 周六", {"date": "12月20日 周日", "written": "周六"}),
        ("wed", "下周五（11月20日）", {"date": "11月20日 周五", "written": "11月27日 周五"}),
        ("wed", "3/4", {"first": "3月4日", "second": "4月3日"}),
        ("feb3", "30号", {"date": "2月30日"}),
        ("leap", "2029年2月29日", {"date": "2029年2月29日"}),
        (
            "wed",
            "2025-12-20",
            {"when": "2025年12月20日 周六 23:59 (Asia/Shanghai)（已过 332 天 14 小时）"},
        ),
    ],
)
def test_refusals_say_why(now: str, phrase: str, params: dict[str, str]) -> None:
    moment = NOWS[now]
    assert isinstance(moment.tzinfo, ZoneInfo)
    with pytest.raises(DeadlineError) as caught:
        resolve_deadline(phrase, moment, moment.tzinfo)
    assert caught.value.params == params


def test_english_refusals_are_worded_in_english() -> None:
    with pytest.raises(DeadlineError) as caught:
        resolve_deadline("5/6", NOWS["wed"], SH, lang="en")
    assert caught.value.params == {"first": "6 May", "second": "5 Jun"}
    with pytest.raises(DeadlineError) as caught:
        resolve_deadline("Saturday 20 Dec", NOWS["wed"], SH, lang="en")
    assert caught.value.params == {"date": "Sun 20 Dec", "written": "Sat"}


def test_a_skipped_wall_time_moves_to_the_first_valid_minute_and_says_so() -> None:
    found = resolve_deadline("02:30", NOWS["ny-spring"], NY)
    assert found.skipped == "02:30"
    assert found.when.strftime("%H:%M %Z") == "03:00 EDT"
    assert resolve_deadline("03:30", NOWS["ny-spring"], NY).skipped is None


def test_the_echo_has_weekday_time_zone_year_when_not_this_year_and_how_long_is_left() -> None:
    now = NOWS["dec25"]
    when = resolve_deadline("1月5日 18:00", now, SH).when
    assert format_deadline(when, SH, "zh", now) == (
        "2027年1月5日 周二 18:00 (Asia/Shanghai)（还有 11 天 9 小时）"
    )
    assert format_deadline(when, SH, "en", now) == (
        "Tue 5 Jan 2027 18:00 (Asia/Shanghai) (11 days 9 hours left)"
    )
    same_year = resolve_deadline("周日 20:00", now, SH).when
    assert format_deadline(same_year, SH, "zh", now) == (
        "12月27日 周日 20:00 (Asia/Shanghai)（还有 2 天 11 小时）"
    )
    for lang in ("zh", "en"):  # the echo can be pasted back
        assert resolve_deadline(format_deadline(when, SH, lang, now), now, SH).when == when


@pytest.mark.parametrize(
    ("minutes", "zh", "en"),
    [
        (1, "还有 1 分钟", "1 minute left"),
        (45, "还有 45 分钟", "45 minutes left"),
        (60, "还有 1 小时", "1 hour left"),
        (125, "还有 2 小时 5 分钟", "2 hours 5 minutes left"),
        (3 * 1440 + 300, "还有 3 天 5 小时", "3 days 5 hours left"),
        (-120, "已过 2 小时", "2 hours ago"),
    ],
)
def test_relative_hint(minutes: int, zh: str, en: str) -> None:
    now = NOWS["wed"]
    from datetime import timedelta

    when = now + timedelta(minutes=minutes)
    assert relative_hint(when, now, "zh") == zh
    assert relative_hint(when, now, "en") == en


def test_offset_zones_show_as_utc_offsets() -> None:
    zone = ZoneInfo("Etc/GMT-8")
    when = datetime(2026, 12, 20, 18, 0, tzinfo=zone)
    assert format_deadline(when, zone, "en") == "Sun 20 Dec 18:00 (UTC+8)"
    assert resolve_deadline("Sun 20 Dec 18:00 (UTC+8)", NOWS["wed"], zone).when == when
