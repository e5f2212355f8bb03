"""The documentation stands on its own: links resolve, the README fits on a screen, and
no comment sends a maintainer to a document outside the repository.

Relative links (``[text](path#anchor)``, ``![alt](path)``, ``<img src=…>``) in README.md
and docs/ must name a file or folder of the repository, and an anchor must be an explicit
``<a id="…">`` or a heading of the target page (GitHub's slug). Comments and docstrings in
the application's packages cite ``docs/…`` pages instead of the seed documents, the
specification or issue numbers, which are not in the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
README_MAX_LINES = 200

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\bsrc=\"([^\"]+)\"")
ANCHOR = re.compile(r"<a\s+id=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def prose(path: Path) -> list[str]:
    """The page's lines outside fenced code blocks."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append(line)
    return out


def anchors(path: Path) -> set[str]:
    lines = prose(path)
    found = {m for line in lines for m in ANCHOR.findall(line)}
    seen: dict[str, int] = {}
    for line in lines:
        m = HEADING.match(line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    return [a or b for line in prose(path) for a, b in LINK.findall(line)]


def broken(page: Path) -> list[str]:
    """This page's relative links whose file or anchor does not exist."""
    out = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …
            continue
        name, _, anchor = target.partition("#")
        dest = (page.parent / name).resolve() if name else page
        if not dest.exists():
            out.append(f"{target}: no such file")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            out.append(f"{target}: no such anchor in {dest.name}")
    return out


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_checker_catches_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text('# Title here\n<a id="kept"></a>\n', encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text(
        "[ok](b.md#kept) [ok](b.md#title-here) [x](c.md) [y](b.md#gone)\n"
        "```\n[in code](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert [b.split(":")[0] for b in broken(page)] == ["c.md", "b.md#gone"]


def test_readme_fits_on_a_screen_or_two() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail to docs/"
