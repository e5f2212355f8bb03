"""docs/rules documents every stage once, from the declarations the code plays
(docs/rules/README.md#stage-kinds): each format page's stages and each kind page's uses
are generated from ``Format.course`` by ``tests/rules_stages.py``, and a declaration
changed without regenerating the docs fails here."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.formats import FORMATS, PRESETS
from engine.formats.knockout import Knockout
from engine.formats.stage import Kind, Stage
from tests.rules_stages import RULES, SHOWN, block_in, generated

HINT = "docs/rules is out of date: run .venv/bin/python -m tests.rules_stages"


@pytest.mark.parametrize("page", sorted(generated()), ids=lambda p: str(p.relative_to(RULES)))
def test_each_generated_section_is_what_the_declarations_say(page: Path) -> None:
    assert block_in(page.read_text(encoding="utf-8")) == generated()[page], HINT


def test_every_format_and_every_kind_has_its_page() -> None:
    assert set(SHOWN) == {fmt.key for fmt in FORMATS}
    assert set(PRESETS) <= {shown.format for events in SHOWN.values() for shown in events}
    assert {p for p in generated() if p.parent.name == "kinds"} == {
        RULES / "kinds" / f"{kind}.md" for kind in Kind
    }
    assert all(p.is_file() for p in generated())


def test_a_changed_declaration_leaves_the_docs_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A knockout whose final becomes best of 3: the knockout page and the final's kind
    page no longer match what is written, so the first test would fail."""
    declared = Knockout.course

    def longer(self: Knockout, players: int) -> tuple[tuple[Stage, bool], ...]:
        return tuple(
            (replace(s, length=replace(s.length, best_of=3, session=False)), on)
            if s.kind is Kind.FINAL
            else (s, on)
            for s, on in declared(self, players)
        )

    monkeypatch.setattr(Knockout, "course", longer)
    stale = [p for p, block in generated().items() if block_in(p.read_text("utf-8")) != block]
    assert sorted(p.relative_to(RULES).as_posix() for p in stale) == [
        "kinds/final.md",
        "knockout.md",
    ]
    assert "best of 3" in generated()[RULES / "knockout.md"]


def test_the_rules_index_links_every_kind_and_every_format_page() -> None:
    index = (RULES / "README.md").read_text(encoding="utf-8")
    missing = [f"kinds/{kind}.md" for kind in Kind if f"(kinds/{kind}.md)" not in index]
    missing += [f"{f.key}.md#stages" for f in FORMATS if f"({f.key}.md#stages)" not in index]
    assert missing == []
