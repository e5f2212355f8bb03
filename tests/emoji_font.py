"""The playground's emoji web font (``playground/static/emoji.woff``): which emoji the
bot's messages and the page use, and how the font is cut from Noto Emoji.

Noto Emoji (Google, SIL Open Font License 1.1: ``playground/static/emoji-OFL.txt``) is
the monochrome face, outlines that every browser draws; the whole variable font is 2 MB,
the few dozen emoji tourbot says fit in a few kilobytes. When a message or the page gains
an emoji, ``tests/test_playground_page.py`` says so; cut the font again with

    .venv/bin/python -m tests.emoji_font <NotoEmoji[wght].ttf>

(PyPI's ``manimgx-fonts`` ships that file, unmodified, under the same licence).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "playground" / "static" / "emoji.woff"
# Where the emoji a chat shows come from: the messages (and the bot's reactions), the
# page itself.
SOURCES = (
    *sorted((ROOT / "bot").rglob("*.toml")),
    *sorted((ROOT / "bot").rglob("*.py")),
    *sorted((ROOT / "playground" / "static").glob("*.[hj]*")),  # index.html, app.js
)
# Emoji live in these blocks (arrows, technical, shapes, dingbats, the pictographs)…
BLOCKS = ((0x2190, 0x21FF), (0x2300, 0x23FF), (0x25A0, 0x27BF), (0x2B00, 0x2BFF),
          (0x1F000, 0x1FAFF))  # fmt: skip
# …beside plain symbols that text fonts draw (and Noto Emoji has not).
TEXT_SYMBOLS = frozenset("→✓✗")
JOINERS = "\u200d\ufe0f"  # zero-width joiner, emoji presentation selector
WEIGHT = 400  # the variable font's regular instance


def used_emoji() -> set[str]:
    """Every emoji character the messages and the page contain."""
    found: set[str] = set()
    for path in SOURCES:
        for ch in path.read_text(encoding="utf-8"):
            if ch not in TEXT_SYMBOLS and any(lo <= ord(ch) <= hi for lo, hi in BLOCKS):
                found.add(ch)
    return found


def cut(source: Path) -> bytes:
    """Noto Emoji's regular instance, only the emoji tourbot uses, as WOFF (zlib)."""
    font = instancer.instantiateVariableFont(TTFont(str(source)), {"wght": WEIGHT})
    options = subset.Options()
    options.flavor = "woff"
    options.name_IDs = ["*"]  # the copyright and licence records stay with the font
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in used_emoji() | set(JOINERS)))
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff"
    font.save(out)
    return out.getvalue()


if __name__ == "__main__":
    FONT.write_bytes(cut(Path(sys.argv[1])))
    print(f"{FONT.relative_to(ROOT)}: {FONT.stat().st_size} bytes")
