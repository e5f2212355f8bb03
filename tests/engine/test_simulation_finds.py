"""The simulation suite finds earlier defects: each is put back into the engine (a
monkeypatch restoring the old behaviour) and the suite must fail with the invariant that
names it. A suite that passes on a broken engine would prove nothing.

``/join @partner`` and the bot's half of a held round live in the bot and
are covered by ``tests/e2e/test_signup_together.py`` and ``tests/e2e/test_outcomes.py``.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import pytest

from engine.formats import Format, find_format
from engine.formats.groups import Groups
from engine.formats.pairs import Pairs
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import PlayerId
from engine.standings import Key, Line
from tests.engine.simulation import Broken, play


def broken_code(game: str, fmt: str, counts: range, runs: int = 6) -> str:
    """The first invariant the suite reports over ``counts`` × ``runs`` seeded events."""
    format_ = find_format(fmt)(find_game(game)())
    for count in counts:
        for run in range(runs):
            try:
                play(format_, count, zlib.crc32(f"finds/{game}/{fmt}/{count}/{run}".encode()))
            except Broken as broken:
                return broken.code
    return "nothing found"


def test_s1_a_final_tie_flipped_instead_of_played_off(monkeypatch: pytest.MonkeyPatch) -> None:
    for where in ("engine.formats.elimination", "engine.formats.knockout"):
        monkeypatch.setattr(f"{where}.extra_table", lambda *_a, **_k: None)
    assert broken_code("bigtwo", "knockout", range(8, 20)) == "final-tie-not-played"


def test_s2_a_figure_of_another_kind_beside_the_place(monkeypatch: pytest.MonkeyPatch) -> None:
    def totals_shown(line: Line) -> Key:  # the old line: total points whatever ranked it
        return ("points", line.points)

    monkeypatch.setattr("engine.standings.shown", totals_shown)
    assert broken_code("bigtwo", "knockout", range(8, 20)) == "figure-contradicts-place"


def test_s3_one_partner_crowned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Pairs, "champion", Format.champion)
    assert broken_code("guandan", "pairs", range(8, 20, 2)) == "champions"  # one of two


def test_s3_the_top_player_crowned_in_a_team_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Teams, "champion", Format.champion)
    assert broken_code("doudizhu", "teams", range(9, 13)) == "champion-not-team"


def test_s4_groups_dealt_like_cards_at_tables_of_three(monkeypatch: pytest.MonkeyPatch) -> None:
    no_whole_tables: Callable[[Groups, int, int], None] = lambda *_a: None  # noqa: E731
    monkeypatch.setattr(Groups, "_group_sizes", no_whole_tables)
    assert broken_code("doudizhu", "groups", range(9, 10)) == "needless-bye"


def test_s5_a_level_series_decides_who_advances(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.formats import elimination

    real = elimination.match_winner

    def first_of_level(*args: object) -> tuple[PlayerId, ...] | None:
        won = real(*args)  # type: ignore[arg-type]
        players = args[-1]
        assert isinstance(players, tuple)
        return won if won is not None else (players[0],)

    monkeypatch.setattr(elimination, "match_winner", first_of_level)
    assert broken_code("xiangqi", "bracket", range(5, 14)) == "level-series-advanced"


def test_s6_a_whole_table_forfeit_ends_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Format, "unsettled", staticmethod(lambda _state: ()))
    assert broken_code("bigtwo", "knockout", range(8, 40)) == "forfeit-ends-event"
