"""The fuzz suite in CI: a few thousand hostile updates over every stage of an
event, on both backends, through the real stack; no apology, no write from a refusal.
More with ``python -m benchmarks.fuzz`` (nightly)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.fuzz import fuzz

UPDATES = int(os.environ.get("FUZZ_UPDATES", "1500"))  # per backend: 3,000 in all


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
async def test_no_input_gets_the_apology_or_writes_when_refused(
    backend: str, tmp_path: Path
) -> None:
    found = await fuzz(backend, f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}", UPDATES, seed=10)
    print(found.line(backend))
    assert found.updates >= UPDATES
    assert found.refusals > found.updates // 3  # the fuzz does reach the use-cases
    assert found.apologies == []
    assert found.refused_writes == []
