"""Make matplotlib draw Chinese and Latin text in every chart.

Player names in these tournaments are mostly Chinese (张伟, 李娜…) mixed with Latin
nicknames and digits. Matplotlib's bundled DejaVu Sans has no CJK glyphs, so without a
CJK font every name turns into empty boxes and a "Glyph … missing" warning. We register
a CJK font file explicitly (the font cache may have been built before the font package
was installed) and list it after DejaVu Sans: matplotlib (>= 3.6) falls back glyph by
glyph along the ``font.family`` list, so Latin keeps DejaVu's look and CJK comes from the
second font.

The Agg backend is selected here because the bot renders off-screen in a server process.
"""

from __future__ import annotations

import glob
from pathlib import Path

import matplotlib
from matplotlib import font_manager

matplotlib.use("Agg")

# Well-known locations first (Debian/Ubuntu packages), then globs for other layouts.
CJK_FONT_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/source-han-sans/SourceHanSansSC-Regular.otf",
)
CJK_FONT_GLOBS: tuple[str, ...] = (
    "/usr/share/fonts/**/NotoSansCJK*.ttc",
    "/usr/share/fonts/**/NotoSansSC*.otf",
    "/usr/share/fonts/**/SourceHanSans*.otf",
    "/usr/share/fonts/**/SourceHanSans*.ttc",
    "/usr/share/fonts/**/wqy-*.ttc",
)
LATIN_FAMILY = "DejaVu Sans"  # bundled with matplotlib, so always present

_family: str | None = None


def find_cjk_font() -> Path:
    """Return the first CJK font file on this machine, or raise naming what to install."""
    for candidate in CJK_FONT_CANDIDATES:
        if Path(candidate).is_file():
            return Path(candidate)
    for pattern in CJK_FONT_GLOBS:
        hits = sorted(glob.glob(pattern, recursive=True))
        if hits:
            return Path(hits[0])
    raise RuntimeError(
        "No CJK font found, so Chinese names cannot be drawn in charts. "
        "Install the Debian package fonts-wqy-microhei (or fonts-noto-cjk)."
    )


def setup_fonts() -> str:
    """Register the CJK font once and make it the fallback after DejaVu Sans.

    Returns the CJK family name. Safe to call before every render: the work is done once.
    """
    global _family
    if _family is None:
        path = find_cjk_font()
        font_manager.fontManager.addfont(str(path))
        family = font_manager.FontProperties(fname=str(path)).get_name()
        # Fallback works along an explicit family list only: the generic "sans-serif"
        # resolves to a single font, which would drop the CJK fallback.
        matplotlib.rcParams["font.family"] = [LATIN_FAMILY, family]
        matplotlib.rcParams["axes.unicode_minus"] = True  # DejaVu has U+2212
        _family = family
    return _family
