"""/rules in the words an organiser uses: every game under every format it can run, in
Chinese and English, read as the chat reads it. No True/False/None, no knob=value, no
placeholder left, no citation of a rule document ("种子 000"), no knob value shown as the
code word the organiser typed, and every report example is the game's own for the size
of table it names."""

from __future__ import annotations

import re

import pytest

from bot.language.i18n import Catalogue
from bot.language.knob_words import value_words
from engine.formats import FORMATS
from engine.games import GAMES, find_game
from engine.model import SEAT_LETTERS
from tests.handlers.memory import Chats

ADMIN = 1
FIRST_CHAT = -700

# A document citation: 种子 000, （种子 001 §八）, seed 004, seeds 000–002.
CITATION = re.compile(r"种子\s*\d{3}|seeds?\s+\d{3}", re.I)
# /report 1 <example>, and the table size it is for when not the game's usual one.
EXAMPLE = re.compile(
    r"(?:(\d) 人桌：|a table of (\d): )?/report 1 ([^（(；;]+?)(?=[（(；;]|$)", re.M
)


async def rules_of_every_event(chats: Chats, lang: str) -> dict[tuple[str, str], str]:
    """/rules of a new event of each game in each format it accepts, in ``lang``."""
    chats.user(ADMIN, "Org", lang=lang)
    out: dict[tuple[str, str], str] = {}
    chat = FIRST_CHAT
    for game in GAMES:
        for fmt in FORMATS:
            chat -= 1
            chats.admins(chat, ADMIN)
            await chats.says(chat, ADMIN, f"/lang {lang}")
            created = await chats.says(chat, ADMIN, f"/new {game.key} {fmt.key} Cup")
            if "Cup" not in created:  # the format does not fit the game's tables
                continue
            out[game.key, fmt.key] = await chats.says(chat, ADMIN, "/rules")
    return out


def code_words(game: str, fmt: str) -> set[str]:
    """The values an organiser types for this game's and format's word knobs."""
    knobs = [*find_game(game).knobs, *next(f for f in FORMATS if f.key == fmt).knobs]
    return {c for k in knobs for c in k.choices if c.isalpha()}


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_rules_of_every_game_and_format_read_as_plain_words(chats: Chats, lang: str) -> None:
    every = await rules_of_every_event(chats, lang)
    assert len(every) >= 40  # every game, every format that fits its tables
    for (game, fmt), text in every.items():
        where = f"{lang} {game} {fmt}:\n{text}"
        assert text.startswith("📋"), where
        assert not re.search(r"\b(True|False|None)\b", text), where
        assert not re.search(r"\b[a-z_0-9]+=", text), where  # last3=robin, per=table
        assert "{" not in text and "}" not in text, where
        assert not CITATION.search(text), where
        assert not re.search(r"前 0 位|first 0 ", text), where
        if lang == "zh":  # an English code word in a Chinese sentence is a knob's value
            prose = re.sub(r"/\w+(?: [a-z0-9_]+)*", "", text)  # a command to type stays
            shown = set(re.findall(r"(?<![A-Za-z])[a-z][a-z0-9]*(?![A-Za-z0-9])", prose))
            assert not shown & code_words(game, fmt), where
        examples = EXAMPLE.findall(text)
        assert examples, where
        usual = find_game(game).seat_counts[0]
        for small_zh, small_en, example in examples:
            seats = int(small_zh or small_en or usual)
            letters = set(re.findall(r"(?<![A-Za-z])([A-D])(?=\d|\b)", example))
            assert letters <= set(SEAT_LETTERS[:seats]), (example, seats, where)
            find_game(game)().parse(example.strip(), seats)  # a report the game takes


async def test_knob_values_read_as_the_organiser_set_them(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="zh")
    chats.admins(-1, ADMIN)
    await chats.says(-1, ADMIN, "/new doudizhu knockout 周赛")
    rules = await chats.says(-1, ADMIN, "/rules")
    assert "本桌一直打到比赛时间结束" in rules and "农民加倍、地主反加倍：不可以" in rules
    await chats.says(-1, ADMIN, "/set end hands")
    await chats.says(-1, ADMIN, "/set doubling on")
    rules = await chats.says(-1, ADMIN, "/rules")
    assert "本桌打满 10 局结束" in rules and "农民加倍、地主反加倍：可以" in rules
    assert "先到" not in rules  # the target is not the rule while hands end a table

    chats.admins(-2, ADMIN)
    await chats.says(-2, ADMIN, "/new guandan pairs 双人赛")
    assert "抽到大王的组轮空" in await chats.says(-2, ADMIN, "/rules")
    await chats.says(-2, ADMIN, "/set lucky on")
    assert "幸运组直接入围总决赛" in await chats.says(-2, ADMIN, "/rules")

    chats.admins(-3, ADMIN)
    await chats.says(-3, ADMIN, "/new xiangqi bracket 象棋赛")
    assert "种子" not in await chats.says(-3, ADMIN, "/rules")  # no seeds: not said
    await chats.says(-3, ADMIN, "/set seeds 4")
    assert "报名最早的 4 位为种子选手" in await chats.says(-3, ADMIN, "/rules")


async def test_report_usage_shows_the_games_own_example(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="zh")
    chats.admins(-4, ADMIN)
    await chats.says(-4, ADMIN, "/new paodekuai 跑得快")
    for uid in (11, 12, 13):
        chats.user(uid, f"P{uid}", lang="zh")
        await chats.says(-4, uid, "/join")
    await chats.says(-4, ADMIN, "/draw")
    opened = await chats.says(-4, ADMIN, "/round")
    assert "/report 1 A0 B5 C16" in opened  # the round's own example, three seats
    usage = await chats.says(-4, 11, "/report 1")
    assert "例如 /report 3 A0 B5 C16" in usage and "D" not in usage


def test_a_switch_without_words_reads_on_or_off_and_other_values_as_set() -> None:
    """A knob another change adds reads as its value until it has words of its own."""
    catalogue = Catalogue()
    zh, en = catalogue["zh"], catalogue["en"]
    assert value_words(zh, "knockout", "new_switch", True, {}) == "开"
    assert value_words(en, "knockout", "new_switch", False, {}) == "off"
    assert value_words(zh, "knockout", "new_number", 7, {}) == "7"
    assert value_words(zh, "pairs", "forfeits", 0, {}) == "弃权不会取消成绩"
