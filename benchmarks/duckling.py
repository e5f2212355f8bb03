"""How much of Duckling's time corpus the deadline parser reads as Duckling does
(docs/performance.md#deadline-phrases), and how fast it reads the phrase table.

Duckling (github.com/facebook/duckling) is a peer's parser with a public test corpus no
one here wrote: ``Duckling/Time/EN/Corpus.hs`` and ``Duckling/Time/ZH/Corpus.hs``. Give
their paths (or a checkout's root); nothing of the corpus is kept here. Each example is
a phrase and the moment or span Duckling reads, at its reference time (Tuesday 12 Feb
2013 04:30, UTC-2). As a deadline it is right when:

- Duckling's reading ends before the reference time or within a minute of it (``now``,
  ``in a second``), and ours refuses it (a deadline is never in the past);
- Duckling reads a moment of some grain (a day, an hour, a minute) and ours falls in it:
  ``friday`` is any minute of that Friday, 23:59 for us; ``3pm`` is 15:00;
- Duckling reads a span (``3pm - 6pm``, ``this morning``, ``the week of october 6th``) and
  ours falls in its last grain: the end of a span is the deadline;
- ours asks which of two readings is meant and one of them is right.

Deadlines are kept to the minute, so a grain of a second counts as a minute. A span open
at its end (``after 5pm``) names no deadline and is left out.

Run ``python -m benchmarks.duckling PATH…`` (``--show`` lists what is refused or read
otherwise). Not a timed test.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.language.deadlines import AmbiguousHour, DeadlineError, resolve_deadline

ZONE = ZoneInfo("Etc/GMT+2")  # Duckling's test zone, UTC-2
REFERENCE = datetime(2013, 2, 12, 4, 30, tzinfo=ZONE)
DIFF_REFERENCE = datetime(2013, 2, 15, 4, 30, tzinfo=ZONE)  # its diffCorpus
GRAINS = {
    "Second": timedelta(seconds=1),
    "Minute": timedelta(minutes=1),
    "Hour": timedelta(hours=1),
    "Day": timedelta(days=1),
    "Week": timedelta(days=7),
}
_TUPLE = r"\(\s*-?\d+(?:\s*,\s*-?\d+){5}\s*\)"
_SPEC = re.compile(
    rf"(?P<kind>datetime\w*)\s*(?:(?P<open>After|Before)\s*)?"
    rf"(?P<a>{_TUPLE}|\(\s*{_TUPLE}\s*,\s*{_TUPLE}\s*\))\s*(?P<grain>\w+)",
    re.S,
)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass(frozen=True)
class Example:
    """A phrase, the span it must fall in as a deadline (None: it must be refused), and
    the moment it is read at."""

    phrase: str
    span: tuple[datetime, datetime] | None
    now: datetime
    holiday: bool


def _moment(numbers: str) -> datetime:
    y, mo, d, h, mi, s = (int(n) for n in re.findall(r"-?\d+", numbers))
    return datetime(max(y, 1), max(mo, 1), max(d, 1), h, mi, s, tzinfo=ZONE)  # B.C.: long past


def _add(moment: datetime, grain: str, count: int = 1) -> datetime:
    """``count`` grains on (months, quarters and years by the calendar)."""
    months = {"Month": 1, "Quarter": 3, "Year": 12}.get(grain)
    if months is None:
        return moment + count * GRAINS[grain]
    index = moment.year * 12 + moment.month - 1 + months * count
    return moment.replace(year=index // 12, month=index % 12 + 1)


def _span(spec: re.Match[str], now: datetime) -> tuple[datetime, datetime] | None:
    """Where a right deadline lies: the reading's last grain, or None for a refusal."""
    grain = "Minute" if spec.group("grain") == "Second" else spec.group("grain")
    moments = [_moment(m) for m in re.findall(_TUPLE, spec.group("a"))]
    if len(moments) == 2:  # an interval: its end is exclusive
        end = moments[1]
        start = _add(end, grain, -1)
    elif spec.group("open") == "Before":
        start = end = moments[0]
    else:
        start, end = moments[0], _add(moments[0], grain)
    if grain == "Minute":  # 9:01:10 is the minute 9:01
        start = start.replace(second=0)
    return None if end <= now + GRAINS["Minute"] else (start, end)


def examples(path: Path) -> Iterator[Example]:
    """Every example of a Corpus.hs: ``examples (datetime… (…) Grain) ["…", …]``; the
    negative corpus (which names no moment) is left out."""
    text = path.read_text(encoding="utf-8")
    if "negativeCorpus ::" in text:  # the negative and the latent corpus name no deadline
        text = text.split("negativeCorpus ::", 1)[0] + text.split("diffContext ::", 1)[-1]
    diff, main = text.find("diffCorpus ::"), text.find("allExamples ::")
    for m in re.finditer(r"examples\s*\(", text):
        spec = _SPEC.match(text, m.end())
        if spec is None or spec.group("open") == "After":  # "after 5pm" names no deadline
            continue
        start = text.index("[", spec.end())
        depth, end = 0, start
        for end in range(start, len(text)):  # the list ends at its matching bracket
            if text[end] == '"':
                continue
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
        now = DIFF_REFERENCE if -1 < diff < m.start() < main else REFERENCE
        span = _span(spec, now)
        for literal in _STRING.findall(text[start : end + 1]):
            holiday = "Holiday" in spec.group("kind")
            yield Example(ast.literal_eval(literal), span, now, holiday)


def verdict(example: Example, lang: str) -> str:
    """``right``, ``asked`` (two readings, one right), ``refused`` or ``wrong``."""
    span = example.span
    try:
        found: tuple[datetime, ...] = (
            resolve_deadline(example.phrase, example.now, ZONE, lang).when,
        )
        asked = False
    except AmbiguousHour as question:
        found, asked = question.choices, True
    except DeadlineError:
        return "right" if span is None else "refused"
    if span is None:
        return "wrong"
    inside = any(span[0] <= when <= span[1] for when in found)
    return ("asked" if asked else "right") if inside else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="Corpus.hs files or a checkout")
    parser.add_argument("--show", action="store_true", help="list what is refused or wrong")
    args = parser.parse_args()
    files = []
    for path in args.paths:
        if path.is_dir():
            files += [path / f"Duckling/Time/{lang}/Corpus.hs" for lang in ("EN", "ZH")]
        else:
            files.append(path)
    for path in files:
        lang = "zh" if "Duckling.Time.ZH" in path.read_text(encoding="utf-8") else "en"
        found = [(example, verdict(example, lang)) for example in examples(path)]
        if args.show:
            for example, said in found:
                if said in ("refused", "wrong"):
                    end = example.span[1] if example.span else None
                    print(f"  {said:8} {example.phrase!r} (Duckling: {end or 'refused'})")
        _report(lang, [said for _, said in found])
        _report(f"{lang} without named holidays", [s for e, s in found if not e.holiday])
    _speed()


def _report(label: str, verdicts: list[str]) -> None:
    good = sum(v in ("right", "asked") for v in verdicts)
    print(
        f"{label}: {good}/{len(verdicts)} right ({100 * good / len(verdicts):.0f} %; "
        f"{verdicts.count('asked')} of them asked between two readings), "
        f"{verdicts.count('refused')} refused, {verdicts.count('wrong')} read otherwise"
    )


def _speed() -> None:
    """Phrases a second over the phrase table (tests/test_deadline_phrases.py)."""
    from tests.test_deadline_phrases import NOWS, PHRASES

    started = time.perf_counter()
    for _ in range(5):
        for now, phrase, _expected in PHRASES:
            moment = NOWS[now]
            assert isinstance(moment.tzinfo, ZoneInfo)
            with contextlib.suppress(DeadlineError):
                resolve_deadline(phrase, moment, moment.tzinfo)
    took = time.perf_counter() - started
    print(f"phrase table: {5 * len(PHRASES) / took:,.0f} phrases/s ({len(PHRASES)} phrases)")


if __name__ == "__main__":
    main()
