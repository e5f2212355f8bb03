"""Deadlines typed through the bot, one phrase of each kind the parser learned
(docs/rules/deadlines.md#phrases), in an English and a Chinese chat: the echo names the
moment meant, and a written date with its year and a two-digit hour is never asked about.
The chat's clock: Monday 2 November 2026, 09:00 in Asia/Shanghai."""

from __future__ import annotations

import pytest

from tests.handlers.memory import Chats

GROUP = -108700
ADMIN = 1
PLAYERS = (801, 802, 803, 804)

EN = [
    ("2026-11-05 11:09", "Thu 5 Nov 11:09"),  # ISO 8601: 24-hour
    ("3 fridays from now", "Fri 20 Nov 23:59"),
    ("from the 13th to the 15th of november", "Sun 15 Nov 23:59"),
    ("a quarter past noon", "Mon 2 Nov 12:15"),
    ("nine fifty nine p m", "Mon 2 Nov 21:59"),
    ("9:01:10 PM", "Mon 2 Nov 21:01"),
    ("in 15", "Mon 2 Nov 09:15"),
    ("monday early morning", "Mon 9 Nov 09:00"),
    ("15 minutes from 1pm", "Mon 2 Nov 13:15"),
    ("the week of nov 11", "Sun 15 Nov 23:59"),
    ("next march", "Wed 31 Mar 2027 23:59"),
    ("3rd qtr", "Thu 30 Sep 2027 23:59"),
    ("next few days", "Thu 5 Nov 23:59"),
]
ZH = [
    ("2026年11月5日 11:09", "11月5日 周四 11:09"),
    ("往后第三个周五", "11月20日 周五 23:59"),
    ("从13号到15号", "11月15日 周日 23:59"),
    ("中午12点过一刻", "11月2日 周一 12:15"),
    ("晚上九点五十九分", "11月2日 周一 21:59"),
    ("下午3点20分10秒", "11月2日 周一 15:20"),
    ("再过15分钟", "11月2日 周一 09:15"),
    ("周一一大早", "11月9日 周一 09:00"),
    ("下午1点后15分钟", "11月2日 周一 13:15"),
    ("11月11日那周", "11月15日 周日 23:59"),
    ("下个三月", "2027年3月31日 周三 23:59"),
    ("第三季度", "2027年9月30日 周四 23:59"),
    ("未来几天", "11月5日 周四 23:59"),
    ("十二月第一个星期一", "12月7日 周一 23:59"),
    ("今星期五", "11月6日 周五 23:59"),
    ("下年3月", "2027年3月31日 周三 23:59"),
]


@pytest.mark.parametrize(("lang", "phrases"), [("en", EN), ("zh", ZH)])
async def test_each_kind_of_phrase_sets_the_deadline_it_names(
    chats: Chats, lang: str, phrases: list[tuple[str, str]]
) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, f"/lang {lang}")
    await chats.says(GROUP, ADMIN, "/round")
    moved = "deadline is now" if lang == "en" else "截止时间改为"
    for phrase, echo in phrases:
        said = await chats.says(GROUP, ADMIN, f"/deadline {phrase}")
        assert moved in said and echo in said, (phrase, said)
