"""Whole events with people coming and going between rounds (``PeopleSim``): random
drop-outs, late entrants where the format takes them, two pairs kept apart; each event
played to its champion with the simulation's invariants and those of people checked
after every round (``tests.engine.simulation.check_people``)."""

from __future__ import annotations

import zlib

import pytest

from engine.formats import find_format
from engine.games import find_game
from tests.engine.simulation import Broken, play_people

CASES = [
    ("xiangqi", "swiss", (6, 9, 14, 21)),
    ("bigtwo", "swiss", (9,)),
    ("doudizhu", "swiss", (10,)),
    ("bigtwo", "knockout", (8, 13, 20)),
    ("doudizhu", "stages", (9, 14)),
    ("xiangqi", "bracket", (6, 11)),
]


@pytest.mark.parametrize(("game_key", "format_key", "fields"), CASES)
def test_events_with_drops_late_entries_and_pairs_apart_end_with_a_champion(
    game_key: str, format_key: str, fields: tuple[int, ...]
) -> None:
    fmt = find_format(format_key)(find_game(game_key)())
    ended = []
    for count in fields:
        for run in range(2):
            seed = zlib.crc32(f"people/{game_key}/{format_key}/{count}/{run}".encode())
            try:
                state = play_people(fmt, count, seed)
            except Broken as broken:
                pytest.fail(f"{game_key} {format_key}, {count} players, seed {seed}: {broken}")
            ended += [state] if state is not None else []
    assert ended
    assert any(state.dropped for state in ended)  # the cases do see people come and go
    if fmt.late_entry is not None:
        assert any(state.entered for state in ended)
