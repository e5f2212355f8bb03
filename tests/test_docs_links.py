"""The documentation stands on its own: links resolve, the README fits on a screen, and
no comment sends a maintainer to a document outside the repository.

Relative links (``[text](path#anchor)``, ``![alt](path)``, ``<img src=…>``) in README.md
and docs/ must name a file or folder of the repository, and an anchor must be an explicit
``<a id="…">`` or a heading of the target page (GitHub's slug). Comments and docstrings in
the application's packages and benchmarks cite ``docs/…`` pages instead of the seed documents, the
specification or issue numbers, which are not in the repository.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "engine/games/KNOBS.md", *(ROOT / "docs").rglob("*.md")])
PACKAGES = ("bot", "engine", "db", "charts", "playground", "paper", "benchmarks")
CITING = (*PACKAGES, "tests")  # where a comment may name a docs page
README_MAX_LINES = 200

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\bsrc=\"([^\"]+)\"")
ANCHOR = re.compile(r"<a\s+id=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
CITED = re.compile(r"\b(docs/[\w./-]*?\.md)(?:#([\w-]+))?")
# ``#card-points`` alone in a docstring that names one page: an anchor of that page.
BARE_ANCHOR = re.compile(r"(?<![\w/#`])#([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z]{3,})\b")
# What points outside the repository: the seed documents (seed 001, seeds 000-002, the
# seed-001 ladder, their § sections), the product specification, issue numbers.
OUTSIDE = re.compile(
    r"\bseeds?[ -]?0\d\d|\b00\d\s*§|§|\bSPEC\b|\bissues?\s+\d+",
    re.IGNORECASE,
)


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


def remarks(source: str) -> list[tuple[int, str]]:
    """Every comment and docstring of a module, with its line number."""
    out = [
        (tok.start[0], tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                out.append((node.body[0].lineno, doc))
    return out


def citations_outside(text: str, toml: bool = False) -> list[tuple[int, str]]:
    """(line, 'seed 001') for each comment or docstring (of Python; TOML has comments only,
    after any quoted text) that cites a document outside the repository."""
    if toml:
        bare = [
            (n, re.sub(r'"(?:[^"\\]|\\.)*"', "", line))
            for n, line in enumerate(text.splitlines(), 1)
        ]
        said = [(n, line[line.index("#") :]) for n, line in bare if "#" in line]
    else:
        said = remarks(text)
    return [(line, m.group(0)) for line, remark in said if (m := OUTSIDE.search(remark))]


def test_no_comment_in_the_code_cites_a_document_outside_the_repository() -> None:
    found = [
        hit
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*"))
        if path.suffix in (".py", ".toml")
        for line, cited in citations_outside(path.read_text("utf-8"), path.suffix == ".toml")
        for hit in [f"{path.relative_to(ROOT)}:{line}: {cited!r}"]
    ]
    hint = "cite docs/rules/… (or docs/guide, docs/operations) instead:\n"
    assert found == [], hint + "\n".join(found)


def test_the_comment_check_sees_comments_and_docstrings_only() -> None:
    source = '"""Big Two (seed 001)."""\nX = "issue 3"  # issue 3\nY = "SPEC.md"\n'
    assert citations_outside(source) == [(2, "issue 3"), (1, "seed 001")]
    toml = '# Penalties (seed 001 §七)\nkey = "seed 004 # not a comment"  # issue 9\n'
    assert citations_outside(toml, toml=True) == [(1, "seed 001"), (2, "issue 9")]


def unresolved_citations(text: str, python: bool = True) -> list[str]:
    """``docs/…md#anchor`` named in a file (comments, docstrings, catalogue text) that does
    not exist; in a docstring naming one page, a bare ``#anchor`` is that page's."""
    out = [
        page + (f"#{anchor}" if anchor else "")
        for page, anchor in CITED.findall(text)
        if not (ROOT / page).is_file() or (anchor and anchor not in anchors(ROOT / page))
    ]
    for _, remark in remarks(text) if python else ():
        pages = {page for page, _ in CITED.findall(remark)}
        if len(pages) == 1 and (ROOT / (page := pages.pop())).is_file():
            out += [
                f"{page}#{anchor} (written #{anchor})"
                for anchor in BARE_ANCHOR.findall(remark)
                if anchor not in anchors(ROOT / page)
            ]
    return out


def test_every_docs_page_and_anchor_the_code_cites_exists() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {miss}"
        for folder in CITING
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".toml") and path.name != Path(__file__).name
        for miss in unresolved_citations(path.read_text(encoding="utf-8"), path.suffix == ".py")
    ]
    assert found == []


def test_the_citation_check_catches_a_missing_page_or_anchor() -> None:
    source = (
        '"""Big Two: docs/rules/bigtwo.md (#card-points, #no-such-rule).\n\n'
        'Also docs/rules/nowhere.md and docs/rules/bigtwo.md#gone."""\n'
    )
    assert sorted(unresolved_citations(source)) == [
        "docs/rules/bigtwo.md#gone",
        "docs/rules/nowhere.md",
    ]
    one_page = '"""Big Two: docs/rules/bigtwo.md (#card-points, #no-such-rule)."""\n'
    assert unresolved_citations(one_page) == [
        "docs/rules/bigtwo.md#no-such-rule (written #no-such-rule)"
    ]


def test_every_knob_is_documented_where_organisers_look() -> None:
    """Each game knob has a row in both guides' knob tables; each format knob a row in its
    rules page (a new knob without words for organisers fails here)."""
    from engine.formats import FORMATS
    from engine.games import GAMES

    missing = [
        f"{guide}: `{game.key}` `{knob.name}`"
        for guide in ("guide.en.md", "guide.zh.md")
        for game in GAMES
        for knob in game.knobs
        if f"| `{game.key}` | `{knob.name}` |"
        not in (ROOT / "docs" / guide).read_text(encoding="utf-8")
    ]
    missing += [
        f"rules/{fmt.key}.md: `{knob.name}`"
        for fmt in FORMATS
        for knob in fmt.knobs
        if f"| `{knob.name}` |" not in (ROOT / "docs/rules" / f"{fmt.key}.md").read_text("utf-8")
    ]
    assert missing == []


def test_every_setting_is_in_the_operations_table() -> None:
    """Each variable ``Settings.from_env`` reads has a row in docs/operations.md (a new
    setting nobody can find fails here)."""
    source = (ROOT / "bot/config.py").read_text(encoding="utf-8")
    names = set(re.findall(r"env(?:\.get\(|\[)\"([A-Z_]+)\"", source))
    table = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    assert len(names) > 20
    assert sorted(n for n in names if f"| `{n}` |" not in table) == []
