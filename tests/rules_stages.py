"""Rewrite the generated stage sections of docs/rules from the formats' declarations.

``.venv/bin/python -m tests.rules_stages`` after a format's stages change (its
``Format.course``, ``engine/formats/stage.py``); ``tests/test_rules_stages_docs.py`` fails
until it is run. Each preset page (``docs/rules/<format>.md#stages``) lists the stages its
format declares for a few games and field sizes, and each stage kind's page
(``docs/rules/kinds/<kind>.md``) where that kind is played: both read ``Format.course``
through the public API and say it in /rules' own English words
(``bot/language/stage_words.py``), so the docs cannot drift from what the code plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.language.i18n import Catalogue, Translator
from bot.language.stage_words import stage_goes, stage_length
from engine.formats import FORMATS, find_format, preset
from engine.formats.base import Format
from engine.formats.stage import Kind, Stage
from engine.games import GAMES

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
BEGIN = "<!-- stages:begin (generated: python -m tests.rules_stages) -->\n"
END = "<!-- stages:end -->"
SIZES = (4, 6, 9, 12, 18)  # entrants signed up: players, or pairs where partners share a line


@dataclass(frozen=True)
class Shown:
    """One event a preset page shows: a game, the format or preset it names, knobs set."""

    game: str
    format: str
    knobs: tuple[tuple[str, str], ...] = ()

    def build(self) -> Format:
        key, knobs = preset(self.format)
        game = next(g for g in GAMES if g.key == self.game)
        return find_format(key)(game(), {**knobs, **dict(self.knobs)})


# Per format page, the events shown: a game of tables of three (斗地主), a two-player game
# (象棋), and the partner games where the unit is a pair; knob variants where a knob
# changes the stages (a third-place match, the last three's round robin, more groups).
SHOWN: Mapping[str, tuple[Shown, ...]] = {
    "knockout": (Shown("doudizhu", "knockout"), Shown("xiangqi", "knockout")),
    "swiss": (Shown("doudizhu", "swiss"), Shown("xiangqi", "swiss")),
    "bracket": (
        Shown("xiangqi", "bracket"),
        Shown("xiangqi", "bracket", (("last3", "off"), ("third", "on"))),
    ),
    "groups": (
        Shown("doudizhu", "groups"),
        Shown("xiangqi", "groups"),
        Shown("xiangqi", "groups", (("groups", "4"), ("third", "on"))),
    ),
    "stages": (Shown("doudizhu", "stages"), Shown("xiangqi", "stages")),
    "teams": (Shown("doudizhu", "teams"), Shown("xiangqi", "teams")),
    "pairs": (Shown("guandan", "pairs"), Shown("shengji", "pairs-groups")),
    "multistage": (Shown("doudizhu", "multistage"), Shown("xiangqi", "multistage")),
}


def chain(t: Translator, stage: Stage, up: str) -> str:
    """The stage's tie-break chain, each criterion linked to its docs/rules/tiebreaks.md
    anchor."""
    return " → ".join(f"[{t(f'tiebreak.{c}')}]({up}tiebreaks.md#{c})" for c in stage.tiebreaks)


def title(en: Translator, zh: Translator, shown: Shown) -> str:
    """How the shown event is set up: game names, then the commands."""
    key, knobs = preset(shown.format)
    sets = [f"`/set {k} {v}`" for k, v in (*knobs.items(), *shown.knobs)]
    how = f"`/new {shown.game} {key}`" + (", then " + ", ".join(sets) if sets else "")
    return f"**{en(f'game.{shown.game}')}** ({zh(f'game.{shown.game}')}), {how}"


def stage_cells(en: Translator, zh: Translator, stage: Stage, played: bool) -> str:
    """A stage's cells after the players column: the stage, its kind, then its match,
    who goes on and ties, or that the field skips it."""
    name = f"{en(f'stage_name.{stage.name}')} ({zh(f'stage_name.{stage.name}')})"
    kind = f"[{stage.kind}](kinds/{stage.kind}.md)"
    if not played:
        return f"{name} | {kind} | *skipped: too few players reach it* | | |"
    goes = stage_goes(en, stage)
    return f"{name} | {kind} | {stage_length(en, stage.length)} | {goes} | {chain(en, stage, '')} |"


def by_size(fmt: Format) -> Iterator[tuple[tuple[int, ...], tuple[tuple[Stage, bool], ...]]]:
    """The field sizes (entrants: pairs where partners share a line) that play the same
    course, and that course, smallest first."""
    seen: dict[tuple[tuple[Stage, bool], ...], list[int]] = {}
    for n in SIZES:
        seen.setdefault(fmt.course(n * fmt.team_size() if fmt.sits_in_pairs else n), []).append(n)
    for course, sizes in seen.items():
        yield tuple(sizes), course


def event_table(en: Translator, zh: Translator, shown: Shown) -> str:
    fmt = shown.build()
    entrants = "pairs" if fmt.sits_in_pairs else "players"
    rows = [
        f"| {entrants} | stage | kind | match | who goes on | ties |",
        "|---|---|---|---|---|---|",
    ]
    for sizes, course in by_size(fmt):
        for i, (stage, played) in enumerate(course):
            players = ", ".join(map(str, sizes)) if i == 0 else ""
            rows.append(f"| {players} | {i + 1}. {stage_cells(en, zh, stage, played)}")
    return f"{title(en, zh, shown)}:\n\n" + "\n".join(rows)


def size_choices(en: Translator, zh: Translator, key: str) -> list[str]:
    """The games whose rules choose this format by the field's size (``/new <game>``
    naming no format)."""
    out = []
    for game in GAMES:
        if game.formats_by_size is None:
            continue
        most, small, large = game.formats_by_size
        if key not in (preset(small)[0], preset(large)[0]):
            continue
        unit = find_format(preset(game.default_format)[0])(game()).team_size()
        entrants = "pairs" if unit == 2 else "players"
        out.append(
            f"- {en(f'game.{game.key}')} ({zh(f'game.{game.key}')}), `/new {game.key}` naming "
            f"no format: up to {most} {entrants} play `{small}`, more play `{large}`."
        )
    return out


def preset_section(en: Translator, zh: Translator, key: str) -> str:
    """A format page's generated stages: the size-dependent choices, then a table per
    shown event."""
    sizes = ", ".join(map(str, SIZES))
    head = [
        "The stages as the code declares them (default knobs unless shown), for fields of",
        f"{sizes} entrants (players, or pairs); `/rules` says the same for the event's knobs",
        "and the players signed up. Each kind links to its page.",
    ]
    choices = size_choices(en, zh, key)
    if choices:
        head += ["", "Chosen by the field's size:", "", *choices]
    tables = [event_table(en, zh, shown) for shown in SHOWN[key]]
    return "\n\n".join(["\n".join(head), *tables])


def kind_section(en: Translator, zh: Translator, kind: Kind) -> str:
    """Where a kind is played: every shown event's stage of this kind, once each."""
    rows = ["| format | game | stage | match | who goes on | ties |", "|---|---|---|---|---|---|"]
    seen: set[tuple[str, str, Stage]] = set()
    for key, events in SHOWN.items():
        for shown in events:
            for _, course in by_size(shown.build()):
                for stage, played in course:
                    if stage.kind is not kind or not played or (key, shown.game, stage) in seen:
                        continue
                    seen.add((key, shown.game, stage))
                    name = f"{en(f'stage_name.{stage.name}')} ({zh(f'stage_name.{stage.name}')})"
                    rows.append(
                        f"| [{key}](../{key}.md#stages) | {en(f'game.{shown.game}')} | {name} | "
                        f"{stage_length(en, stage.length)} | {stage_goes(en, stage)} | "
                        f"{chain(en, stage, '../')} |"
                    )
    return "\n".join(rows)


def generated() -> dict[Path, str]:
    """Every page's generated block, by page."""
    catalogue = Catalogue()
    en, zh = catalogue["en"], catalogue["zh"]
    pages = {RULES / f"{fmt.key}.md": preset_section(en, zh, fmt.key) for fmt in FORMATS}
    pages |= {RULES / "kinds" / f"{kind}.md": kind_section(en, zh, kind) for kind in Kind}
    return pages


def block_in(text: str) -> str:
    """The generated block as a page has it now (empty where it has none)."""
    if BEGIN not in text:
        return ""
    return text.split(BEGIN, 1)[1].split(END, 1)[0].removesuffix("\n")


def main() -> None:
    for page, block in generated().items():
        text = page.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        page.write_text(head + BEGIN + block + "\n" + END + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
