"""Earlier defects as engine regression tests: who is champion, who advances, and what
a ranking line shows. (The final's tie is in ``test_formats_knockout``; some are also played
through the bot in ``tests/e2e/test_outcomes.py`` and ``test_signup_together.py``.)"""

from __future__ import annotations

from decimal import Decimal

from engine.draw import flip_order
from engine.formats import find_format
from engine.formats.bracket import Bracket
from engine.formats.groups import Groups
from engine.formats.pairs import Pairs
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import (
    Finished,
    RoundPlan,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.engine.test_formats_support import by_id, play, record


def state(n: int, seed: str = "cafe0008", **kw: object) -> TournamentState:
    return TournamentState(players=tuple(range(1, n + 1)), seed=seed, **kw)  # type: ignore[arg-type]


def plan_of(fmt: object, st: TournamentState) -> RoundPlan:
    plan = fmt.plan(st)  # type: ignore[attr-defined]
    assert isinstance(plan, RoundPlan)
    return plan


def test_s3_a_pair_event_crowns_the_pair_and_both_partners_share_first() -> None:
    fmt = Pairs(find_game("guandan")())
    st, done = play(fmt, state(8))
    champion = fmt.champion(st, done)
    assert len(champion) == 2 and set(champion) in [set(p) for p in fmt.pairs(st)]
    assert {s.player for s in done.ranking if s.rank == 1} == set(champion)


def test_s3_a_team_event_crowns_the_top_team_not_the_top_player() -> None:
    fmt = Teams(find_game("doudizhu")(), {"rounds": "1"})
    st0 = state(9)
    teams = fmt.groups(st0)
    plan = plan_of(fmt, st0)
    star = plan.tables[0].players[0]  # the best single score, in a team that loses

    def scorer(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        scores = tuple(
            Decimal(20 if p == star else -9 if teams[p] == teams[star] else 1)
            for p in table.players
        )
        return TableResult(table, TableStatus.CONFIRMED, scores)

    st, done = play(fmt, st0, scorer)
    assert done.ranking[0].player == star
    champion = fmt.champion(st, done)
    assert star not in champion
    assert set(champion) == set(fmt.team_standings(st)[0].members)


def test_s4_nine_doudizhu_players_all_play_every_group_round_then_one_final_table() -> None:
    fmt = find_format("groups")(find_game("doudizhu")())
    assert isinstance(fmt, Groups) and fmt.rules_variant == "tables"
    st, done = play(fmt, state(9))
    group_rounds = [r for r in st.rounds if r.plan.stage.startswith("group")]
    assert len(group_rounds) >= 2
    for rec in group_rounds:  # three full tables, nobody out, no best-of at a card table
        assert sorted(len(t.players) for t in rec.plan.tables) == [3, 3, 3]
        assert not rec.plan.byes and not any(n.startswith("best-of") for n in rec.plan.notes)
    finals = [r for r in st.rounds if r.plan.stage == "final"]
    assert len(finals) == 1 and len(finals[0].plan.tables[0].players) == 3
    final = finals[0].plan.tables[0].players
    assert fmt.champion(st, done) == (max(final),)  # by_id: the highest id tops the final
    assert [s.stage for s in done.ranking[:3]] == ["champion", "final", "final"]


def test_s5_a_level_series_is_played_on_before_anyone_advances() -> None:
    fmt = Bracket(find_game("xiangqi")())
    st = state(11)
    first = plan_of(fmt, st)
    level = first.tables[0]

    def one_level(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        scores = (Decimal(1), Decimal(1)) if table == level else (Decimal(2), Decimal(0))
        return TableResult(table, TableStatus.CONFIRMED, scores)

    st = record(st, first, one_level)
    extra = plan_of(fmt, st)
    assert extra.stage == "extra" and extra.tables == (Table(1, level.players),)
    assert not extra.byes  # the five winners wait: nobody goes on from a level series


def test_s5_the_last_three_all_equal_go_to_their_own_chain_not_earlier_scores() -> None:
    fmt = Bracket(find_game("xiangqi")())
    st = state(6, seed="0badcafe")
    # round 1: three different winning scores (2–0, 1.5–0.5, 3–2 after extra games)
    scores = iter(((2, 0), (Decimal("1.5"), Decimal("0.5")), (3, 2)))

    def first_round(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        return TableResult(table, TableStatus.CONFIRMED, tuple(map(Decimal, next(scores))))

    st = record(st, plan_of(fmt, st), first_round)
    last3: list[int] = []
    done = fmt.plan(st)
    while isinstance(done, RoundPlan):  # A beats B, C beats A, B beats C: all equal
        assert done.stage == "robin"
        last3 = last3 or [*done.tables[0].players, *done.byes]
        won = (0, 2) if len(st.rounds) == 2 else (2, 0)
        st = record(
            st,
            done,
            lambda _n, _p, t, w=won: TableResult(t, TableStatus.CONFIRMED, tuple(map(Decimal, w))),
        )
        done = fmt.plan(st)
    top = [s for s in done.ranking if s.stage == "robin"]
    assert len(top) == 3 and len({s.figure for s in top}) == 1  # one win each
    flip = flip_order(st.players, st.seed, "standings-flip")
    assert [s.player for s in top] == sorted(last3, key=lambda p: -flip[p])
    assert [s.tiebreak for s in top[:2]] == [("flip",), ("flip",)]


def test_s6_a_whole_table_forfeit_in_the_last_round_is_unsettled() -> None:
    fmt = find_format("knockout")(find_game("bigtwo")())
    st = state(8)
    plan = plan_of(fmt, st)

    def lapse(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        if table.number == 2:
            return TableResult(table, TableStatus.FORFEIT, forfeited=frozenset(table.players))
        return by_id(_n, _p, table)

    st = record(st, plan, lapse)
    assert isinstance(fmt.plan(st), Finished)  # the engine alone would end it here …
    assert fmt.unsettled(st) == (2,)  # … so the bot holds it for the organiser


def test_every_stage_and_figure_a_ranking_shows_has_words_in_both_languages() -> None:
    """A ranking line prints ``stage.<code>`` and ``tiebreak.<figure_code>``: every code
    any format's whole event produces is in both catalogues (no raw key in a chat)."""
    from bot.language.i18n import Catalogue
    from engine.errors import ConfigError
    from engine.formats import FORMATS
    from engine.games import GAMES
    from tests.engine.simulation import play as simulate

    catalogue = Catalogue()
    codes: set[tuple[str, str]] = set()
    for game in GAMES:
        for fmt_class in FORMATS:
            try:
                fmt = fmt_class(game())
            except ConfigError:
                continue
            for count in (8, 12):
                done = simulate(fmt, count, count)
                for s in done.ranking if done else ():
                    codes |= {("stage", s.stage)} if s.stage else set()
                    codes |= {("tiebreak", s.figure_code)} if s.figure_code else set()
    assert {c for _, c in codes} >= {"final", "out", "robin", "group", "points"}
    for lang in ("zh", "en"):
        messages = catalogue[lang].messages
        assert sorted(f"{a}.{c}" for a, c in codes if f"{a}.{c}" not in messages) == []
