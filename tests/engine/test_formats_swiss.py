"""Swiss rounds 瑞士移位: re-seated by score, fewest repeats, Buchholz tie-break."""

from __future__ import annotations

from decimal import Decimal

from engine.formats import find_format
from engine.formats.swiss import Swiss
from engine.games import find_game
from engine.model import RoundPlan, RoundRecord, Table, TableResult, TableStatus, TournamentState
from engine.seating import repeats
from engine.standings import Line, rank
from tests.engine.test_formats_support import play, seated_once

BIGTWO = find_game("bigtwo")()


def test_swiss_is_found_by_its_chinese_name() -> None:
    assert find_format("瑞士移位") is Swiss


def test_mixed_swiss_of_sixteen_meets_nobody_twice_in_five_rounds() -> None:
    fmt = Swiss(BIGTWO, {"by": "mix", "rounds": "5"})
    final, done = play(fmt, TournamentState(players=tuple(range(1, 17)), seed="s"))
    assert len(final.rounds) == 5
    assert repeats([[t.players for t in r.plan.tables] for r in final.rounds]) == 0
    assert done.ranking[0].player == 16


def test_score_swiss_gives_the_bye_to_someone_who_has_not_had_one() -> None:
    fmt = Swiss(BIGTWO, {"rounds": "2"})
    st0 = TournamentState(players=tuple(range(1, 6)), seed="s")  # 4 + a bye
    final, _ = play(fmt, st0)
    second = final.rounds[1].plan
    assert sorted(seated_once(second)) == list(range(1, 6))
    assert len(second.byes) == 1 and second.byes[0] not in final.rounds[0].plan.byes


def test_removed_players_are_not_seated() -> None:
    fmt = Swiss(BIGTWO)
    plan = fmt.plan(TournamentState(players=tuple(range(1, 10)), seed="s", removed=frozenset({3})))
    assert isinstance(plan, RoundPlan) and 3 not in seated_once(plan)


def test_equal_points_are_split_by_opponents_points() -> None:
    t1 = Table(1, (1, 2))
    t2 = Table(2, (3, 4))

    rec = RoundRecord(
        1,
        RoundPlan((t1, t2)),
        (
            TableResult(t1, TableStatus.CONFIRMED, (Decimal(5), Decimal(-5))),
            TableResult(t2, TableStatus.CONFIRMED, (Decimal(5), Decimal(-9))),
        ),
    )
    st = TournamentState(players=(1, 2, 3, 4), seed="s", rounds=(rec,))
    ranking = Swiss(find_game("bigtwo")()).standings(st)
    assert [s.player for s in ranking[:2]] == [1, 3]
    assert ranking[0].tiebreak == ("buchholz",)


def test_rank_names_the_first_criterion_that_differs() -> None:
    lines = [
        Line(1, Decimal(3), True, (("points", Decimal(3)), ("flip", Decimal(1)))),
        Line(2, Decimal(3), True, (("points", Decimal(3)), ("flip", Decimal(2)))),
        Line(3, Decimal(1), True, (("points", Decimal(1)), ("flip", Decimal(3)))),
    ]
    out = rank(lines)
    assert [(s.player, s.rank, s.tiebreak) for s in out] == [
        (2, 1, ("flip",)),
        (1, 2, ("points",)),
        (3, 3, ()),
    ]
