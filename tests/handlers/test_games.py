"""Every game's small tournament (``tests/e2e/test_games.py``'s cases), driven in memory.

The end-to-end file's own steps and assertions (``run_case``) through ``Core`` without
HTTP: a knob set and a bad one refused, /rules, sign-ups, the draw, an impossible report
refused in Chinese and then English, reports typed and tapped, the winner, /standings
and /export. The end-to-end file keeps one case per backend (and one on PostgreSQL).
"""

from __future__ import annotations

import pytest

from engine.games import GAMES, find_game
from tests.e2e.test_games import CASES, Case, run_case
from tests.handlers.harness import MemoryHarness


def test_every_game_has_a_case() -> None:
    assert sorted(find_game(c.game).key for c in CASES) == sorted(g.key for g in GAMES)


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
async def test_game_tournament_runs_from_new_to_winner(
    memory_bot: MemoryHarness, case: Case
) -> None:
    await run_case(memory_bot, case)  # the e2e body, on the in-memory harness
