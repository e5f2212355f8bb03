"""Charts: Chinese names render without missing glyphs, PNGs stay Telegram-sized."""

from __future__ import annotations

import struct
import warnings
from collections.abc import Iterator
from decimal import Decimal

import matplotlib
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from charts import fonts
from charts.bracket import bracket_figure, bracket_png
from charts.canvas import PNG_SIGNATURE, display_width, fmt_value, shorten
from charts.progression import TOP_N, progression_figure, progression_png
from charts.standings import (
    MAX_ROWS,
    OUT_COLOUR,
    PODIUM_COLOURS,
    StandingRow,
    standings_figure,
    standings_png,
)

CHINESE = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "赵敏", "黄强"]
ZH_STANDINGS = {"points": "积分", "more": "…… 另有 {n} 人"}
EN_STANDINGS = {"points": "Points", "more": "… and {n} more"}
ZH_PROGRESS = {"round": "轮次", "points": "累计积分"}
ZH_BRACKET = {"round": "第{n}轮", "final": "决赛", "champion": "冠军", "bye": "轮空"}
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


def rows(count: int, eliminated_from: int | None = None) -> list[StandingRow]:
    cut = count if eliminated_from is None else eliminated_from
    return [
        StandingRow(i + 1, f"{CHINESE[i % len(CHINESE)]}{i}", Decimal(100 - i) / 2, i < cut)
        for i in range(count)
    ]


# fonts


def test_setup_fonts_puts_a_cjk_family_after_latin_in_the_fallback_list() -> None:
    family = fonts.setup_fonts()
    assert matplotlib.rcParams["font.family"] == [fonts.LATIN_FAMILY, family]
    assert matplotlib.get_backend().lower() == "agg"


def test_missing_cjk_font_names_the_debian_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "CJK_FONT_CANDIDATES", ("/nonexistent/font.ttc",))
    monkeypatch.setattr(fonts, "CJK_FONT_GLOBS", ("/nonexistent/**/*.ttc",))
    with pytest.raises(RuntimeError, match="fonts-wqy-microhei"):
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


# standings


def test_standings_with_chinese_names_is_a_png_without_missing_glyphs() -> None:
    png = standings_png(rows(8, eliminated_from=5), "锄大地 积分榜", ZH_STANDINGS)
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < TELEGRAM_PHOTO_LIMIT


def test_standings_labels_show_rank_and_name_in_given_order() -> None:
    fig = standings_figure(rows(4), "积分榜", ZH_STANDINGS)
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == ["1. 张伟0", "2. 李娜1", "3. 王芳2", "4. 刘洋3"]
    assert "积分" in fig.axes[0].get_xlabel()


def test_eliminated_players_are_drawn_grey() -> None:
    fig = standings_figure(rows(6, eliminated_from=4), "积分榜", ZH_STANDINGS)
    bars = fig.axes[0].patches
    grey = matplotlib.colors.to_rgba(OUT_COLOUR)
    assert [bar.get_facecolor() == grey for bar in bars] == [False] * 4 + [True] * 2


def test_no_medal_colours_before_the_event_is_over() -> None:
    """Issue 8 §2: mid-round the picture hands out no medals; at the end the top three."""
    medals = [matplotlib.colors.to_rgba(c) for c in PODIUM_COLOURS]
    during = standings_figure(rows(5), "积分榜", ZH_STANDINGS, podium=False)
    assert not any(bar.get_facecolor() in medals for bar in during.axes[0].patches)
    after = standings_figure(rows(5), "积分榜", ZH_STANDINGS)
    assert [bar.get_facecolor() for bar in after.axes[0].patches[:3]] == medals


def test_standings_value_labels_include_negative_points_and_notes() -> None:
    data = [
        StandingRow(1, "张伟", Decimal("57"), True),
        StandingRow(2, "李娜", Decimal("-7.5"), True, note="DQ"),
    ]
    texts = all_text(standings_figure(data, "积分榜", ZH_STANDINGS))
    assert "57" in texts
    assert "-7.5  DQ" in texts


def test_standings_figure_grows_with_players_then_stops_growing() -> None:
    small = png_size(standings_png(rows(4), "t", EN_STANDINGS))[1]
    medium = png_size(standings_png(rows(40), "t", EN_STANDINGS))[1]
    at_cap = png_size(standings_png(rows(MAX_ROWS + 1), "t", EN_STANDINGS))[1]
    huge = png_size(standings_png(rows(200), "t", EN_STANDINGS))[1]
    assert small < medium < at_cap
    assert huge == at_cap


def test_two_hundred_players_show_top_rows_and_how_many_more() -> None:
    fig = standings_figure(rows(200), "Standings", EN_STANDINGS)
    assert len(fig.axes[0].patches) == MAX_ROWS
    assert f"… and {200 - MAX_ROWS} more" in all_text(fig)
    png = standings_png(rows(200), "Standings", EN_STANDINGS)
    width, height = png_size(png)
    assert width + height < 10000
    assert len(png) < 2 * 1024 * 1024


def test_no_more_line_when_everyone_fits() -> None:
    assert not any("more" in t for t in all_text(standings_figure(rows(10), "t", EN_STANDINGS)))


def test_missing_chart_label_is_named() -> None:
    with pytest.raises(KeyError, match="more"):
        standings_png(rows(4), "t", {"points": "积分"})


# progression


def test_progression_draws_only_the_first_ten_players_in_caller_order() -> None:
    series = {f"{CHINESE[i % 8]}{i}": [float(i), float(2 * i)] for i in range(15)}
    fig = progression_figure(series, "积分走势", ZH_PROGRESS)
    legend = fig.axes[0].get_legend()
    assert legend is not None
    names = [t.get_text() for t in legend.get_texts()]
    assert names == list(series)[:TOP_N]
    assert len(fig.axes[0].get_lines()) == TOP_N + 1  # + the zero line


def test_progression_png_renders_chinese_and_short_series() -> None:
    series = {"张伟": [10, 25, 40], "李娜": [-5, 3], "王芳": [7]}
    png = progression_png(series, "积分走势", ZH_PROGRESS)
    assert png.startswith(PNG_SIGNATURE)


def test_progression_with_no_data_still_renders() -> None:
    assert progression_png({}, "积分走势", ZH_PROGRESS).startswith(PNG_SIGNATURE)


# bracket

FIRST = [
    ("张伟", "李娜", "张伟"),
    ("王芳", "", "王芳"),
    ("刘洋", "Alice", "Alice"),
    ("陈静", "杨磊", ""),
]


def test_bracket_marks_byes_in_decided_matches_only() -> None:
    rounds = [FIRST, [("张伟", "王芳", ""), ("Alice", "", "")]]
    texts = all_text(bracket_figure(rounds, "象棋 单败淘汰", ZH_BRACKET))
    assert texts.count("轮空") == 1  # 王芳's bye; the open slot after 陈静–杨磊 stays blank
    assert "决赛" not in texts  # the last round shown still has two matches
    assert "第2轮" in texts


def test_bracket_with_decided_final_shows_the_champion() -> None:
    rounds = [FIRST[:2], [("张伟", "王芳", "王芳")]]
    texts = all_text(bracket_figure(rounds, "象棋", ZH_BRACKET))
    assert "决赛" in texts
    assert "冠军" in texts
    assert texts.count("王芳") == 3  # round 1, final, champion box


def test_bracket_png_is_a_png_with_chinese_names() -> None:
    png = bracket_png([FIRST], "象棋 单败淘汰", ZH_BRACKET)
    assert png.startswith(PNG_SIGNATURE)


def test_bracket_for_128_players_stays_within_telegram_limits() -> None:
    names = [f"{CHINESE[i % 8]}{i}" for i in range(128)]
    rounds: list[list[tuple[str, str, str]]] = []
    current = names
    while len(current) > 1:
        matches = [(current[i], current[i + 1], current[i]) for i in range(0, len(current), 2)]
        rounds.append(matches)
        current = [m[2] for m in matches]
    png = bracket_png(rounds, "Bracket", ZH_BRACKET)
    width, height = png_size(png)
    assert width + height < 10000
    assert max(width, height) / min(width, height) < 20
    assert len(png) < TELEGRAM_PHOTO_LIMIT
