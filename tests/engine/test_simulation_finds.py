"""The simulation suite finds earlier defects: each is put back into the engine (a
monkeypatch restoring the old behaviour) and the suite must fail with the invariant that
names it. A suite that passes on a broken engine would prove nothing.

``/join @partner`` and the bot's half of a held round live in the bot and
are covered by ``tests/e2e/test_signup_together.py`` and ``tests/e2e/test_outcomes.py``.
The last group is what players read mid-event (the board every surface renders); that
the surfaces print the board as it is, after every confirmed result, is checked in the
bot by ``tests/handlers/test_surfaces_agree.py`` (with a find-test per surface).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

import pytest

from engine.board import Board
from engine.formats import Format, find_format
from engine.formats.bracket import Bracket
from engine.formats.groups import Groups
from engine.formats.knockout import Knockout
from engine.formats.multistage import Multistage, Run
from engine.formats.pairgroups import PairGroups
from engine.formats.pairs import Pairs
from engine.formats.stage import Stage
from engine.formats.stages import Stages, take
from engine.formats.stages import Walk as StagesWalk
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import PlayerId, Standing, TableStatus, TournamentState
from engine.standings import Key, Line
from tests.engine.simulation import Broken, play


def broken_code(
    game: str, fmt: str, counts: range, runs: int = 6, knobs: Mapping[str, str] | None = None
) -> str:
    """The first invariant the suite reports over ``counts`` × ``runs`` seeded events."""
    format_ = find_format(fmt)(find_game(game)(), knobs)
    for count in counts:
        for run in range(runs):
            try:
                play(format_, count, zlib.crc32(f"finds/{game}/{fmt}/{count}/{run}".encode()))
            except Broken as broken:
                return broken.code
    return "nothing found"


def test_s1_a_final_tie_flipped_instead_of_played_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("engine.formats.elimination.extra_table", lambda *_a, **_k: None)
    assert broken_code("bigtwo", "knockout", range(8, 20)) == "final-tie-not-played"


def test_s2_a_figure_of_another_kind_beside_the_place(monkeypatch: pytest.MonkeyPatch) -> None:
    def totals_shown(line: Line) -> Key:  # the old line: total points whatever ranked it
        return ("points", line.points)

    monkeypatch.setattr("engine.standings.shown", totals_shown)
    assert broken_code("bigtwo", "knockout", range(8, 20)) == "figure-contradicts-place"


def test_s3_one_partner_crowned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Pairs, "champion", Format.champion)
    assert broken_code("guandan", "pairs", range(8, 20, 2)) == "champions"  # one of two


def test_partners_in_groups_saying_different_things(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pairs in groups: the first partner's line read 「2=.」 with no reason, the second's
    「2.」 with the pair's (the groups' ranking lowered to players)."""

    def first_says_nothing(self: PairGroups, ranking: Sequence[Standing]) -> tuple[Standing, ...]:
        out: list[Standing] = []
        for s in ranking:
            (first, second), unit = self.members[s.player], self.unit[s.player]
            out.append(replace(s, player=first, unit=unit, tiebreak=(), lot=False))
            out.append(replace(s, player=second, unit=unit))
        return tuple(out)

    monkeypatch.setattr(PairGroups, "lower_ranking", first_says_nothing)
    found = broken_code("guandan", "pairs", range(8, 20, 2), knobs={"groups": "2"})
    assert found == "unit-split"


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


# --- what players read mid-event: the board every surface renders (engine.board) -----
def test_a_bracket_winner_shown_out_while_the_round_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The old bracket: while any match of the round was open, only the open matches'
    players were still in, so a confirmed winner read "第1轮出局"."""
    from engine.formats.elimination import Ladder

    def old_still_in(self: Ladder, active: set[PlayerId]) -> set[PlayerId]:
        alive = set(self.alive(active)) if not self.ties() else set()
        return alive | {p for m in self.ties() for p in m.players if p in active}

    monkeypatch.setattr(Ladder, "still_in", old_still_in)
    assert broken_code("xiangqi", "bracket", range(10, 14)) == "out-before-losing"


def test_a_group_place_called_before_the_group_round_is_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Players out of the groups while their groupmates' last tables were still open."""
    monkeypatch.setattr("engine.formats.groups.unsettled", lambda _rec: False)
    assert broken_code("bigtwo", "groups", range(8, 14)) == "out-before-losing"


def test_an_unreported_table_shown_through(monkeypatch: pytest.MonkeyPatch) -> None:
    """第1轮晋级 for all four players of a table nobody had reported yet."""
    monkeypatch.setattr("engine.board.pending_tables", lambda _state: {})
    assert broken_code("bigtwo", "knockout", range(8, 14)) == "through-before-settled"


def test_a_flip_claimed_before_one_was_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line saying …（翻牌分出先后） where only the end-of-event lot can split it."""
    from engine import board as read_model
    from engine.model import TournamentState as State
    from engine.standings import STAGE_CODES

    real = read_model.build

    def every_code(fmt: Format, state: State, rows: tuple[Standing, ...], over: bool) -> Board:
        """The old lines: every code of the chain but the figure and stages, flip or not."""
        b = real(fmt, state, rows, over)
        said = STAGE_CODES - {"flip"}
        codes = {
            s.player: tuple(c for c in s.tiebreak if c not in {s.figure_code, *said}) for s in rows
        }
        entries = tuple(replace(e, decided=codes[e.player]) for e in b.entries)
        return replace(b, entries=entries)

    monkeypatch.setattr(read_model, "build", every_code)
    assert broken_code("guandan", "knockout", range(8, 14)) == "flip-not-drawn"


def test_the_playoff_notice_names_a_player_not_tied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The notice 同分…加赛：陈静, 刘洋, 黄勇 with 陈静 on −10: everyone the replay seats."""
    monkeypatch.setattr(Knockout, "playoff", lambda _self, _state: ())
    assert broken_code("bigtwo", "knockout", range(4, 30)) == "tied-list-not-tied"


def test_the_last_three_split_by_a_flip_before_who_beat_whom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.formats.bracket import Walk

    monkeypatch.setattr(Walk, "head_to_head", lambda _self, _p: Decimal(0))
    assert broken_code("xiangqi", "bracket", range(3, 12), runs=12) == "flip-over-head-to-head"


def test_through_round_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """A playoff line saying 第0轮进行中: no round to name."""
    monkeypatch.setattr("engine.board.last_seen", lambda _state: {})
    assert broken_code("xiangqi", "groups", range(8, 12)) == "round-zero"


# --- the tie-breaks named: declared by the rules in force, and what did separate ------------
def test_the_last_three_split_by_a_draws_half_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """「循环赛胜局数分出先后」 between two players level on what the name says: the round
    robin's game points counted as match points, a level match's half point each, so a
    draw separated two players with the same games' points."""
    from engine.formats.bracket import Bracket, Walk
    from engine.model import RoundRecord

    real = Bracket._robin_round

    def match_points(
        self: Bracket,
        w: Walk,
        rec: RoundRecord,
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
    ) -> None:
        before = dict(w.robin_points)
        real(self, w, rec, pens, active)
        for res in rec.results:
            if res.status is TableStatus.CONFIRMED:
                (a, b), (x, y) = res.table.players, res.scores
                for p, mine, theirs in ((a, x, y), (b, y, x)):
                    got = Decimal(mine > theirs) + Decimal(mine == theirs) / 2
                    w.robin_points[p] = before.get(p, Decimal(0)) + got

    monkeypatch.setattr(Bracket, "_robin_round", match_points)
    assert broken_code("xiangqi", "bracket", range(3, 12), runs=12) == "tiebreak-not-separating"


def test_a_pairs_final_flipped_where_the_rules_say_play_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """「冠军 · 决赛胜场 1（翻牌分出先后）」 although /rules promises 决赛第一名同分：同分选手加赛:
    two pairs level at the top of the final went to the flip."""
    monkeypatch.setattr(Pairs, "_tied_top", staticmethod(lambda _w, _alive: None))
    assert broken_code("guandan", "pairs", range(8, 20, 2)) == "flip-not-played-off"


def test_a_line_names_a_criterion_that_did_not_separate(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line saying 积分分出先后 against a line with the same points (what split them was
    Buchholz): the name read off the chain's head, not off the split."""

    def heads(s: Standing, over: bool) -> tuple[str, ...]:
        return ("points",) if s.tiebreak and not (s.lot and not over) else ()

    monkeypatch.setattr("engine.board._decided", heads)
    assert broken_code("bigtwo", "swiss", range(8, 14)) == "tiebreak-not-separating"


# --- what /rules declares is what is played (docs/rules/tiebreaks.md#chains) ---------------
# A format's declared chain (what /rules lists) put back as it was, leaving out a code its
# events are ranked, named or played off by; and what the oracle then finds.
UNDECLARED = (
    # a knockout's lines ranked and named by the round's score
    pytest.param(Knockout, "round-score", "bigtwo", range(8, 20), "tiebreak-undeclared", id="ko"),
    # a level series played on in an extra round while /rules listed the flip alone
    pytest.param(Bracket, "extra", "xiangqi", range(4, 10), "playoff-undeclared", id="bracket"),
    # two-player groups: a level crossover (or final) match played on
    pytest.param(Groups, "extra", "xiangqi", range(4, 14), "playoff-undeclared", id="crossover"),
    # 决赛翻牌 for a tie for first no table could seat (partners level at 掼蛋's final)
    pytest.param(
        Knockout, "final-flip", "guandan", range(4, 10), "tiebreak-undeclared", id="final-flip"
    ),
)


@pytest.mark.parametrize(("fmt", "left_out", "game", "counts", "found"), UNDECLARED)
def test_a_chain_that_leaves_out_what_is_played_is_caught(
    monkeypatch: pytest.MonkeyPatch,
    fmt: type[Format],
    left_out: str,
    game: str,
    counts: range,
    found: str,
) -> None:
    monkeypatch.setattr(fmt, "tiebreaks", tuple(c for c in fmt.tiebreaks if c != left_out))
    assert broken_code(game, fmt.key, counts) == found


def test_a_flip_named_between_players_whose_stage_does_not_declare_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two-player knockout: players out in one knockout round are ranked by the closing
    flip, while the knockout stage's declared chain (a level match is played on) left the
    flip to the final alone, so /rules promised no flip where one placed them."""
    real = Knockout.course

    def old_course(self: Knockout, players: int) -> tuple[tuple[Stage, bool], ...]:
        (first, played), *rest = real(self, players)
        chain = tuple(c for c in first.tiebreaks if c != "flip")
        return ((replace(first, tiebreaks=chain), played), *rest)

    monkeypatch.setattr(Knockout, "course", old_course)
    assert broken_code("xiangqi", "knockout", range(4, 10)) == "tiebreak-not-of-stage"


def test_a_title_a_flip_decided_that_names_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """分组淘汰's final winner went a level above the others, so 掼蛋's winning partners
    (whom only a flip parts) read 冠军 and 亚军 on the same games won, no reason named."""

    def level_above(
        self: Multistage,
        run: Run,
        stayed: Sequence[PlayerId],
        net: Mapping[PlayerId, Decimal],
        seated: Sequence[PlayerId],
        level: Decimal,
        where: tuple[int, int],
    ) -> None:
        flip = (run.state.seed, f"round{where[0]}-table{where[1]}-flip")
        sides = self.sides(seated)
        top, tie, _ = take(
            self, stayed, lambda p: (net.get(p, Decimal(0)),), 1, seated, sides, flip
        )
        run.ties += [tie] if tie is not None else []
        for p in top:
            run.level[p] = level + 1
            run.line[p] = ("through", where[0])
            run.going.append(p)

    monkeypatch.setattr(Multistage, "_decide", level_above)
    assert broken_code("guandan", "multistage", range(4, 20, 4)) == "title-unnamed"


def test_one_who_alone_went_on_crowned_without_a_final(monkeypatch: pytest.MonkeyPatch) -> None:
    """积分晋级 ``per overall``: the one who alone went on was crowned after the stage."""

    def none_for_one(self: Stages, w: StagesWalk, state: TournamentState) -> list[PlayerId]:
        if len(w.pool) == 1:
            return []
        return old_lucky(self, w, state)

    old_lucky = Stages._lucky
    monkeypatch.setattr(Stages, "_lucky", none_for_one)
    found = broken_code("doudizhu", "stages", range(6, 13, 3), knobs={"per": "overall"})
    assert found == "announced-stage-skipped"
