"""``python -m benchmarks.history --quick`` runs through on SQLite and prints its whole
table (docs/performance.md#history): every command's warm and fresh figures for each N,
the ratio, the bytes per event, the same for CPU time, the rows of every table. The
figures themselves are the benchmark's business, not a test's: only that each is there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.history import COLUMNS, QUICK
from db.models import Base

ROOT = Path(__file__).resolve().parent.parent
TIMES = re.compile(r"^[\d,]+ / [\d,]+$")
RATIO = re.compile(r"^[\d.]+× / [\d.]+×$")


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@pytest.mark.timeout(900)  # eleven events played, two sizes measured: minutes
def test_the_quick_history_prints_every_column_for_each_size() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.history",
            "--quick",
            "--samples",
            "1",
            "--dbs",
            "sqlite",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.split("## sqlite")[-1]  # the tables once every N is measured
    lines = [line for line in last.splitlines() if line.startswith("|")]
    header, _, *rows = lines[: len(QUICK) + 3]
    assert cells(header) == [
        "N events",
        *(f"{command} warm / fresh ms" for command in COLUMNS),
        "KB per event",
        "KB per event since the previous N",
    ]
    *sizes, ratio = rows
    assert [cells(row)[0] for row in sizes] == [str(n) for n in QUICK]
    for row in sizes:
        figures = cells(row)
        assert all(TIMES.match(cell) for cell in figures[1:-2]), row
        assert float(figures[-2].replace(",", "")) > 0
    assert cells(sizes[-1])[-1] != "—"  # the bytes of the events since N=1
    assert cells(ratio)[0] == f"N={QUICK[-1]} / N={QUICK[0]}"
    assert all(RATIO.match(cell) for cell in cells(ratio)[1 : len(COLUMNS) + 1]), ratio
    cpu = lines[len(QUICK) + 3 : 2 * (len(QUICK) + 3)]
    assert cells(cpu[0]) == ["N events", *(f"{command} warm / fresh CPU ms" for command in COLUMNS)]
    assert [cells(row)[0] for row in cpu[2:-1]] == [str(n) for n in QUICK]
    assert all(TIMES.match(cell) for row in cpu[2:-1] for cell in cells(row)[1:]), cpu
    assert all(RATIO.match(cell) for cell in cells(cpu[-1])[1:]), cpu[-1]
    counted = {cells(line)[0]: cells(line)[1:] for line in lines[2 * (len(QUICK) + 3) :]}
    assert set(Base.metadata.tables) <= set(counted)
    assert [int(n) for n in counted["tournaments"]] == list(QUICK)
