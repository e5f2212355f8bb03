"""Make matplotlib draw Chinese, Japanese, Cyrillic and Latin text in every chart.

Player names in these tournaments are mostly Chinese (张伟, 李娜…) mixed with Latin
nicknames, the odd Cyrillic or Japanese name, and digits. Matplotlib's bundled DejaVu Sans
has Latin and Cyrillic but no CJK glyphs, so without a CJK font every Chinese name turns
into empty boxes and a "Glyph … missing" warning.

The CJK font travels with the package: the dependency ``paperang-p2-fonts-cjk`` ships
WenQuanYi Micro Hei (文泉驿微米黑, Apache-2.0/GPLv3-with-font-exception, 5 MB; Chinese,
kana, Hangul, Latin, Cyrillic), so ``make run`` on a fresh machine draws Chinese without
apt. A system font found in :data:`FONT_DIRS` is used first when there is one.

We register the font file explicitly (the font cache may have been built before the
font was installed) and list it after DejaVu Sans: matplotlib (>= 3.6) falls back glyph by
glyph along the ``font.family`` list, so Latin keeps DejaVu's look and CJK comes from the
second font. When no font can be found :class:`NoCJKFont` is raised, and the bot sends
the text ranking instead of the picture.

The Agg backend is selected here because the bot renders off-screen in a server process.
"""

from __future__ import annotations

import dataclasses
import os
from importlib import resources
from pathlib import Path

import matplotlib
from matplotlib import font_manager

matplotlib.use("Agg")

# Where system CJK fonts live (Debian/Ubuntu and most Linux layouts); the environment
# variable TOURBOT_FONT_DIRS (``:``-separated) replaces the list.
FONT_DIRS: tuple[str, ...] = tuple(
    filter(None, os.environ.get("TOURBOT_FONT_DIRS", "/usr/share/fonts").split(":"))
)
# File-name patterns of CJK fonts, best first.
CJK_FONT_PATTERNS: tuple[str, ...] = (
    "wqy-microhei.ttc",
    "NotoSansCJK-Regular.ttc",
    "NotoSansCJK*.ttc",
    "NotoSansSC*.otf",
    "SourceHanSans*.otf",
    "SourceHanSans*.ttc",
    "wqy-*.ttc",
)
# The font that ships as a Python dependency: (package, path inside it).
PACKAGED_FONT: tuple[str, str] | None = ("paperang_p2_fonts_cjk", "fonts/wqy-microhei.ttc")
LATIN_FAMILY = "DejaVu Sans"  # bundled with matplotlib, so always present

_family: str | None = None


class NoCJKFont(RuntimeError):
    """No CJK font anywhere: a picture would show boxes instead of Chinese names."""


def packaged_font() -> Path | None:
    """The CJK font file that came with the package, if it is installed."""
    if PACKAGED_FONT is None:
        return None
    package, inside = PACKAGED_FONT
    try:
        path = Path(str(resources.files(package).joinpath(inside)))
    except ModuleNotFoundError:
        return None
    return path if path.is_file() else None


def find_cjk_font() -> Path:
    """The first CJK font in :data:`FONT_DIRS`, else the packaged one; or raise."""
    for pattern in CJK_FONT_PATTERNS:
        for folder in FONT_DIRS:
            hits = sorted(Path(folder).rglob(pattern)) if Path(folder).is_dir() else []
            if hits:
                return hits[0]
    packaged = packaged_font()
    if packaged is not None:
        return packaged
    raise NoCJKFont(
        "No CJK font found, so Chinese names cannot be drawn in charts. "
        "Reinstall tourbot (its dependency paperang-p2-fonts-cjk brings one) "
        "or install the Debian package fonts-wqy-microhei."
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
        _bold_from_regular(family)
        # Fallback works along an explicit family list only: the generic "sans-serif"
        # resolves to a single font, which would drop the CJK fallback.
        matplotlib.rcParams["font.family"] = [LATIN_FAMILY, family]
        matplotlib.rcParams["axes.unicode_minus"] = True  # DejaVu has U+2212
        _family = family
    return _family


def _bold_from_regular(family: str) -> None:
    """Let bold text in ``family`` use its regular face when it has no bold one.

    WenQuanYi Micro Hei has a single weight; without this every bold heading logs
    "findfont: Failed to find font weight bold" and matplotlib picks a face by score.
    """
    faces = [f for f in font_manager.fontManager.ttflist if f.name == family]
    if faces and all(f.weight in (400, "normal", "regular") for f in faces):
        font_manager.fontManager.ttflist.append(dataclasses.replace(faces[0], weight=700))


def reset() -> None:
    """Forget the chosen font (tests point the lookup elsewhere and look again)."""
    global _family
    _family = None
