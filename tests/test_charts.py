"""Charts: Chinese names render without missing glyphs, pictures are 1080 px wide and
Telegram-sized, the font comes with the package, and the layouts say what they should."""

from __future__ import annotations

import struct
import warnings
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import matplotlib
import pytest
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.text import Text

from charts import fonts
from charts.bracket import Match, bracket_figures, bracket_pngs, pages
from charts.canvas import PNG_SIGNATURE, WIDTH_PX, display_width, fmt_value, shorten, to_png
from charts.progression import TOP_N, progression_figure, progression_png
from charts.sheet import ROWS_PER_PAGE, Row, Sheet, sheet_figures, sheet_pngs

CHINESE = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "赵敏", "黄强"]
ZH_PROGRESS = {"round": "轮次", "points": "累计积分"}
ZH_BRACKET = {
    "round": "第{n}轮",
    "final": "决赛",
    "champion": "冠军",
    "bye": "轮空",
    "third-match": "三四名决赛",
}
TELEGRAM_PHOTO_LIMIT = 10 * 1024 * 1024


@pytest.fixture(autouse=True)
def glyph_warnings_fail() -> Iterator[None]:
    """A missing CJK glyph only warns in matplotlib; here it must fail the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def all_text(fig: Figure) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text)]


# fonts


def test_setup_fonts_puts_a_cjk_family_after_latin_in_the_fallback_list() -> None:
    family = fonts.setup_fonts()
    assert matplotlib.rcParams["font.family"] == [fonts.LATIN_FAMILY, family]
    assert matplotlib.get_backend().lower() == "agg"


def test_the_packaged_font_is_found_with_no_system_fonts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    found = fonts.find_cjk_font()
    assert "site-packages" in str(found) or "paperang" in str(found)
    assert found.is_file()


def test_chinese_japanese_and_cyrillic_names_draw_with_the_packaged_font_alone(
    packaged_font_only: Path,
) -> None:
    assert "paperang_p2_fonts_cjk" in packaged_font_only.parts
    # The machine's own CJK fonts are out of sight: naming them draws boxes (and warns).
    with (
        matplotlib.rc_context({"font.family": [fonts.LATIN_FAMILY, "WenQuanYi Micro Hei"]}),
        pytest.warns(UserWarning, match="Glyph .* missing"),
    ):
        fig = Figure()
        fig.text(0, 0, "张伟")
        to_png(fig)
    # With the packaged font every script draws: any "Glyph … missing" fails the test.
    family = fonts.setup_fonts()
    drawn = font_manager.findfont(font_manager.FontProperties(family=family))
    assert Path(drawn).resolve() == packaged_font_only.resolve()
    names = [*CHINESE, "さくら", "山田太郎", "Иван Петров", "Zoë"]
    rows = tuple(Row((str(i + 1), name)) for i, name in enumerate(names))
    sheet = Sheet("春季公开赛 积分榜", "锄大地 · 第 3 轮", ("名次", "选手"), (1, 4), "cl", rows)
    pictures = [
        *sheet_pngs(sheet),
        progression_png({n: [1, 2, 3] for n in names}, "积分走势", ZH_PROGRESS),
        *bracket_pngs([FIRST, [Match("张伟", "王芳", "王芳", "1", "2")]], "对阵图", ZH_BRACKET),
    ]
    assert all(png_size(png)[0] == WIDTH_PX for png in pictures)


def test_no_font_anywhere_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    monkeypatch.setattr(fonts, "PACKAGED_FONT", None)
    with pytest.raises(fonts.NoCJKFont, match="paperang-p2-fonts-cjk"):
        fonts.find_cjk_font()


# text helpers


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("37"), "37"),
        (Decimal("-7.0"), "-7"),
        (Decimal("36.50"), "36.5"),
        (12.5, "12.5"),
        (3, "3"),
        (Decimal("-0"), "0"),
        (Decimal("1E+2"), "100"),
    ],
)
def test_fmt_value_writes_points_without_trailing_zero_or_exponent(
    value: Decimal | float, text: str
) -> None:
    assert fmt_value(value) == text


def test_shorten_counts_chinese_characters_as_two_columns() -> None:
    assert display_width("张伟ab") == 6
    assert shorten("张伟", 4) == "张伟"
    cut = shorten("陈静超级长的名字", 8)
    assert cut.endswith("…")
    assert display_width(cut) <= 8


# sheets


def sheet(rows: int, sub: bool = False) -> Sheet:
    return Sheet(
        "锄大地 积分榜",
        "第 3 轮后",
        ("名次", "选手", "积分"),
        (1, 5, 2),
        "clr",
        tuple(
            Row((str(i + 1), f"{CHINESE[i % 8]}{i}", str(100 - i)), "", "队员" if sub else "")
            for i in range(rows)
        ),
        "排名依据：积分 → 翻牌",
    )


def test_a_sheet_is_1080_px_wide_and_grows_with_its_rows() -> None:
    small, large = sheet_pngs(sheet(4))[0], sheet_pngs(sheet(20))[0]
    assert small.startswith(PNG_SIGNATURE)
    assert png_size(small)[0] == png_size(large)[0] == WIDTH_PX
    assert png_size(small)[1] < png_size(large)[1]


def test_a_long_sheet_is_cut_into_numbered_pages_under_telegram_limits() -> None:
    figures = sheet_figures(sheet(200, sub=True))
    assert len(figures) == -(-200 // ROWS_PER_PAGE)
    assert "1/7" in all_text(figures[0]) and "7/7" in all_text(figures[-1])
    for png in sheet_pngs(sheet(200, sub=True)):
        width, height = png_size(png)
        assert width == WIDTH_PX and height <= 4000 and len(png) < TELEGRAM_PHOTO_LIMIT


def test_long_names_are_cut_to_their_column() -> None:
    long = Sheet("t", "", ("#", "选手"), (1, 2), "cl", (Row(("1", "陈静" * 40)),))
    texts = all_text(sheet_figures(long)[0])
    assert any(t.startswith("陈静") and t.endswith("…") for t in texts)


def test_a_long_stage_word_borrows_room_short_names_leave() -> None:
    """The standings' 晋级到 column was cut to 「小组赛出局（小…」 beside two-character names,
    the group place lost; room the names leave goes to it, while a name too long for any
    column is still cut."""
    stage = "预选赛出局（小组第3名）"
    rows = (Row(("7", "孙强", stage, "1")), Row(("8", "刘洋", stage, "-1")))
    columns = ("名次", "选手", "晋级到", "成绩")
    short = Sheet("t", "", columns, (1, 4.2, 3.2, 1.6), "clrr", rows)
    assert stage in all_text(sheet_figures(short)[0])
    crowded = Sheet(
        "t", "", columns, (1, 4.2, 3.2, 1.6), "clrr", (Row(("7", "陈静" * 40, stage, "1")),)
    )
    texts = all_text(sheet_figures(crowded)[0])
    assert stage not in texts and any(t.startswith("陈静") and t.endswith("…") for t in texts)


# progression


def test_progression_names_the_first_eight_in_caller_order_and_greys_the_rest() -> None:
    series = {f"{CHINESE[i % 8]}{i}": [float(i), float(2 * i)] for i in range(15)}
    fig = progression_figure(series, "积分走势", ZH_PROGRESS)
    labels = [t for t in all_text(fig) if ". " in t]
    assert labels == [f"{i + 1}. {name}" for i, name in enumerate(list(series)[:TOP_N])]
    assert len(fig.axes[0].get_lines()) == 15 + 1  # + the zero line


def test_progression_png_renders_chinese_and_short_series() -> None:
    series = {"张伟": [10, 25, 40], "李娜": [-5, 3], "王芳": [7]}
    png = progression_png(series, "积分走势", ZH_PROGRESS)
    assert png.startswith(PNG_SIGNATURE) and png_size(png)[0] == WIDTH_PX


# bracket

FIRST = [
    Match("张伟", "李娜", "张伟", "2", "0"),
    Match("王芳", "", "王芳"),
    Match("刘洋", "Alice", "Alice", "1", "2"),
    Match("陈静", "杨磊"),
]


def test_bracket_marks_byes_in_decided_matches_only_and_shows_scores() -> None:
    rounds = [FIRST, [Match("张伟", "王芳"), Match("Alice", "")]]
    texts = all_text(bracket_figures(rounds, "象棋 单败淘汰", ZH_BRACKET)[0])
    assert texts.count("轮空") == 1  # 王芳's bye; the open slot after 陈静–杨磊 stays blank
    assert "决赛" not in texts
    assert "第2轮" in texts
    assert texts.count("2") >= 2  # 张伟 2, Alice 2


def test_bracket_with_decided_final_shows_the_champion() -> None:
    rounds = [FIRST[:2], [Match("张伟", "王芳", "王芳", "0", "2")]]
    texts = all_text(bracket_figures(rounds, "象棋", ZH_BRACKET)[-1])
    assert "决赛" in texts and "冠军" in texts
    assert texts.count("王芳") == 3  # round 1, final, champion box


def test_the_match_for_third_stands_under_the_final_on_the_last_page() -> None:
    """Knob ``third``: the semi-final losers' match was only in the caption's words."""
    rounds = [FIRST[:2], [Match("张伟", "王芳", "王芳", "0", "2")]]
    third = Match("李娜", "Alice", "李娜", "2", "1")
    plain, with_third = (bracket_figures(rounds, "象棋", ZH_BRACKET, t)[-1] for t in (None, third))
    texts = all_text(with_third)
    assert "三四名决赛" in texts and "李娜" in texts and "Alice" in texts
    assert texts.count("李娜") == 2  # round 1 and the match for third
    assert "三四名决赛" not in all_text(plain)
    assert with_third.get_figheight() > plain.get_figheight()


def test_feeders_sit_next_to_the_match_they_feed_wherever_the_bye_fell() -> None:
    first = [Match("a", "b", "a"), Match("c", "d", "c"), Match("e", "", "e")]
    second = [Match("c", "e", feeds=(1, 2)), Match("a", "", "a", feeds=(0,))]
    page = pages([first, second])[0]
    assert page.rows == ((1, 2, 0), (0, 1))


def test_bracket_for_128_players_is_pages_1080_px_wide() -> None:
    names = [f"{CHINESE[i % 8]}{i}" for i in range(128)]
    rounds: list[list[Match]] = []
    current = names
    while len(current) > 1:
        matches = [Match(current[i], current[i + 1], current[i]) for i in range(0, len(current), 2)]
        rounds.append(matches)
        current = [m.winner for m in matches]
    pngs = bracket_pngs(rounds, "Bracket", ZH_BRACKET)
    assert len(pngs) == len(pages(rounds)) == 6  # 4 quarters of rounds 1-3, 4-6, the final
    for png in pngs:
        width, height = png_size(png)
        assert width == WIDTH_PX and height <= 4000 and len(png) < TELEGRAM_PHOTO_LIMIT
