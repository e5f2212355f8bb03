"""Small pieces of the bot that the end-to-end tests only brush against."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.application.commands import parse_command
from bot.application.context import TELEGRAM_TEXT_LIMIT, paginate
from bot.language.i18n import Catalogue


def test_long_text_is_cut_into_pages_telegram_accepts_without_losing_lines() -> None:
    lines = [f"{i}. 选手{i} +{i}" for i in range(2000)]
    pages = paginate("\n".join(lines))
    assert len(pages) > 1
    assert all(len(p) <= TELEGRAM_TEXT_LIMIT for p in pages)
    assert "\n".join(pages).split("\n") == lines


def test_a_single_overlong_line_is_split_too() -> None:
    pages = paginate("x" * (TELEGRAM_TEXT_LIMIT * 2 + 5))
    assert [len(p) for p in pages] == [TELEGRAM_TEXT_LIMIT, TELEGRAM_TEXT_LIMIT, 5]


def test_command_for_another_bot_is_not_ours() -> None:
    assert parse_command("/join@other_bot", "tourbot_bot") is None
    assert parse_command("/JOIN@TourBot_Bot", "tourbot_bot") == ("join", "")
    assert parse_command("/report 3 A5 B8\nC0 D12", "x") == ("report", "3 A5 B8\nC0 D12")
    assert parse_command("hello /join", "x") is None


def test_every_message_exists_in_both_languages() -> None:
    catalogue = Catalogue()
    assert set(catalogue["zh"].messages) == set(catalogue["en"].messages)


def test_run_without_token_explains_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "BOT_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr


def test_every_message_key_the_bot_uses_is_in_the_catalogue() -> None:
    import re

    pattern = re.compile(r'(?:ctx\.t|ctx\.reply|UserError|\bt)\(\s*"([a-z][a-z0-9.\-]+)"')
    used = {
        key
        for path in (Path(__file__).parents[1] / "bot").rglob("*.py")
        for key in pattern.findall(path.read_text(encoding="utf-8"))
    }
    assert len(used) > 50
    messages = Catalogue()["zh"].messages
    assert sorted(k for k in used if k not in messages) == []


def test_both_languages_fill_in_the_same_blanks() -> None:
    """A message's placeholders agree across languages, so no reply shows a raw {name}
    in one language only."""
    import string

    def blanks(template: str) -> set[str]:
        return {field for _, field, _, _ in string.Formatter().parse(template) if field}

    zh, en = Catalogue()["zh"].messages, Catalogue()["en"].messages
    assert [k for k in zh if blanks(zh[k]) != blanks(en[k])] == []


def test_the_live_page_status_drops_the_emoji_its_web_font_cannot_draw() -> None:
    from bot.transport.live_page import without_emoji

    assert without_emoji("⏳ 第 1 轮进行中，名次尚未确定") == "第 1 轮进行中，名次尚未确定"
    assert without_emoji("🏁 Final standings") == "Final standings"
    assert without_emoji("第 2 轮 · 2/3") == "第 2 轮 · 2/3"
