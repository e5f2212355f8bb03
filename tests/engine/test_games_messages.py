"""Every game, knob and refusal the games raise has words in both zh and en."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from bot.language.i18n import load_messages
from engine.errors import ConfigError, EngineError, ReportError
from engine.games import GAMES, find_game
from engine.games.doudizhu import DouDizhu
from engine.games.penalties import deduction, ladder, per_card
from tests.engine.test_games_properties import random_text

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("zh", "en")


def catalogue(lang: str) -> dict[str, str]:
    """Every message file of the language (an area's own file may word engine errors),
    read as the bot reads them: a message with plural forms is one key."""
    return load_messages(lang)[0]


def raised_codes() -> set[str]:
    pattern = re.compile(r'(?:Report|Config)Error\(\s*"([a-z0-9-]+)"')
    source = "".join(p.read_text() for p in (ROOT / "engine" / "games").glob("*.py"))
    return set(pattern.findall(source))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_zh_and_en_have_the_same_keys() -> None:
    assert catalogue("zh").keys() == catalogue("en").keys()


@pytest.mark.parametrize("lang", LANGS)
def test_every_raised_code_has_a_message(lang: str) -> None:
    codes = raised_codes()
    assert "two-winners" in codes and "bad-kitty-multiplier" in codes
    missing = {c for c in codes if f"error.{c}" not in catalogue(lang)}
    assert not missing


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_has_a_name_rules_and_knob_help(lang: str) -> None:
    words = catalogue(lang)
    for game in GAMES:
        assert f"game.{game.key}" in words
        for knob in game.knobs:
            assert f"knob.{game.key}.{knob.name}" in words


@pytest.mark.parametrize("lang", LANGS)
def test_rules_fill_from_the_games_default_knobs(lang: str) -> None:
    words = catalogue(lang)
    for game in GAMES:
        template = words[f"rules.{game.key}"]
        # Besides its knobs, a game's rules line may show its own report example.
        assert fields(template) <= {*game.knob_names(), "example"}
        example = game({}).example(game.seat_counts[0])
        text = template.format(**{k.name: k.default for k in game.knobs}, example=example)
        assert "{" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_of_random_reports_format_with_their_params(lang: str) -> None:
    """Every refusal met while parsing junk fills its message from the error's params."""
    words = catalogue(lang)
    rng = random.Random(lang)
    seen: set[str] = set()
    for game_type in GAMES:
        game = game_type({"doubling": "on"} if game_type.key == "doudizhu" else None)
        for _ in range(3000):
            try:
                game.parse(random_text(rng), game_type.seat_counts[0])
            except ReportError as err:
                seen.add(err.code)
                assert "{" not in words[f"error.{err.code}"].format(**err.params)
    assert len(seen) >= 15


BAD = [
    ("bigtwo", 4, "A5 B8 C0 D0"), ("bigtwo", 4, "A5 B8 C1 D12"), ("bigtwo", 4, "A5 B8 C0"),
    ("bigtwo", 4, "A5 B8 C0 D14"), ("bigtwo", 4, "A5 A8 C0 D12"), ("bigtwo", 4, "A5s B8s C0 D1"),
    ("bigtwo", 4, "A5 B8 C0s D12"), ("bigtwo", 4, "A5 B8 C0 E12"), ("bigtwo", 4, "A5 B8 C0 Dx"),
    ("bigtwo", 4, ""), ("bigtwo", 5, "A0"), ("bigtwo", 4, "total A+1 B-2 C0 D0"),
    ("doudizhu", 3, "bid3 win"), ("doudizhu", 3, "A bid3"), ("doudizhu", 3, "A win"),
    ("doudizhu", 3, "A bid4 win"), ("doudizhu", 3, "A B bid3 win"),
    ("doudizhu", 3, "A bid3 lose spring"), ("doudizhu", 3, "A bid3 win antispring"),
    ("doudizhu", 3, "A bid3 bombs15 win"), ("doudizhu", 3, "A bid3 rockets2 win"),
    ("doudizhu", 3, "A bid3 win win"), ("doudizhu", 3, "A bid3 win doubleA"),
    ("doudizhu", 3, "A bid3 win redouble"), ("doudizhu4", 4, "decline A"),
    ("doudizhu4", 4, "decline A B win"), ("guandan", 4, "A B"), ("shengji", 4, "A"),
    ("shengji", 4, "A pts83"), ("shengji", 4, "A pts150 kitty60x2"),
    ("shengji", 4, "A pts20 kitty85x2"), ("shengji", 4, "A pts20 kitty20x3"),
    ("shengji", 4, "A C pts20"), ("shengji", 4, "A pts20 x4"), ("xiangqi", 2, "2-0"),
    ("paodekuai", 3, "A0 B0 C5"), ("paodekuai", 3, "A0 B5 C17"), ("paodekuai", 3, "A1 B5 C16"),
    ("bigtwo", 4, "total A+1000000001 B-1000000001 C0 D0"),
    ("guandan", 4, "total A+2 B-2 C+2 D-2"),
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_every_report_refusal_formats_with_its_params(lang: str) -> None:
    words = catalogue(lang)
    seen: set[str] = set()
    for key, seats, text in BAD:
        game = find_game(key)({"doubling": "on"} if key == "doudizhu" else None)
        with pytest.raises(ReportError) as err:
            game.parse(text, seats)
        seen.add(err.value.code)
        assert "{" not in words[f"error.{err.value.code}"].format(**err.value.params)
    assert DouDizhu().parse("A bid3 win", 3)  # doubling-off is the default's refusal
    with pytest.raises(ReportError) as off:
        DouDizhu().parse("A bid3 win doubleB", 3)
    seen.add(off.value.code)
    ended = DouDizhu({"end": "hands", "hands": "2"})  # a session of two hands: 3 refused
    with pytest.raises(ReportError) as session:
        ended.check_session(ended.parse("A bid1 win; A bid1 win; A bid1 win", 3), 3)
    seen.add(session.value.code)
    assert "{" not in words[f"error.{session.value.code}"].format(**session.value.params)
    report_codes = {
        c for c in raised_codes() if not c.startswith(("knob-", "unknown-g", "penalty"))
    }
    assert report_codes - {"unknown-knob"} <= seen


@pytest.mark.parametrize("lang", LANGS)
def test_config_and_penalty_refusals_format_with_their_params(lang: str) -> None:
    words = catalogue(lang)
    attempts = [
        lambda: find_game("mahjong"),
        lambda: DouDizhu({"jokers": "on"}),
        lambda: DouDizhu({"scoring": "bingo"}),
        lambda: DouDizhu({"cap": "lots"}),
        lambda: DouDizhu({"hands": "0"}),
        lambda: deduction("0.3"),
        lambda: deduction("x"),
        lambda: deduction("0"),
        lambda: per_card(0),
        lambda: ladder(0),
    ]
    for attempt in attempts:
        with pytest.raises(EngineError) as err:
            attempt()
        assert "{" not in words[f"error.{err.value.code}"].format(**err.value.params)


@pytest.mark.parametrize("lang", LANGS)
def test_every_flow_step_has_a_prompt_and_every_word_button_a_label(lang: str) -> None:
    words = catalogue(lang)
    for game_type in GAMES:
        options = {"doubling": "on"} if game_type.key == "doudizhu" else None
        for step in game_type(options).flow(game_type.seat_counts[0]):
            prompt = words[f"flow.{game_type.key}.{step.name}"]
            assert fields(prompt) <= {"seat"}
            for choice in step.choices:
                if choice.isalpha() and len(choice) > 1:  # seat letters stay as they are
                    assert f"choice.{choice}" in words


def test_a_huge_total_is_refused_with_its_bound_even_when_it_sums_to_zero() -> None:
    """29 digits overflowed Decimal's 28-digit context and a zero sum read as +1."""
    big = "1" + "0" * 28
    for text in (
        f"total A+{big} B-{big} C0 D0",  # sums to zero, still past the bound
        f"total A+{big} B+1 C-{big} D0",
        "total A+1000000000000000000000000000000 B+1 C-1000000000000000000000000000000 D0",
    ):
        with pytest.raises(ReportError) as err:
            find_game("bigtwo")().parse(text, 4)
        assert err.value.code == "total-too-large"
        assert err.value.params["limit"] == 10**9
    at_bound = find_game("bigtwo")().parse("total A+1000000000 B-1000000000 C0 D0", 4)
    assert at_bound.scores[0] == 10**9


def test_a_knob_past_its_range_is_refused_with_the_bound() -> None:
    """/set noshow 99999999999 was accepted and broke every later /round."""
    game = find_game("doudizhu")
    knob = next(k for k in game.knobs if k.name == "hands")
    refusals = (("99999999999", "knob-too-large"), ("²", "knob-value"), ("1_0", "knob-value"))
    for raw, code in refusals:
        with pytest.raises(ConfigError) as err:
            knob.coerce(raw)
        assert err.value.code == code
    assert knob.coerce("1000") == 1000
