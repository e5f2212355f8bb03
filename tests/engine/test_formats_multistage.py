"""分组淘汰 multistage: the stage grammar, what a field of each size plays, and a match of
N hands at a table of three (docs/rules/multistage.md)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from engine.errors import ConfigError, ReportError
from engine.formats import find_format
from engine.formats.multistage import Multistage
from engine.formats.series import table_match
from engine.formats.stage import Goes, Kind, parse_stages, stage_words
from engine.games import find_game
from engine.model import (
    Finished,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.engine.simulation import Chances, Sim, play
from tests.engine.test_formats_support import by_id, record


def doudizhu(stages: str | None = None) -> Multistage:
    fmt = find_format("分组淘汰")(find_game("doudizhu")(), {"stages": stages} if stages else {})
    assert isinstance(fmt, Multistage)
    return fmt


def test_the_default_is_seed_000s_four_stages() -> None:
    stages = doudizhu().stages
    assert [(s.name, s.kind, s.length.best_of, s.goes, s.k) for s in stages] == [
        ("preliminary", Kind.GROUPS, 1, Goes.TOP, 2),
        ("group", Kind.GROUPS, 1, Goes.TOP, 2),
        ("knockout", Kind.KNOCKOUT, 5, Goes.WINNER, 1),
        ("final", Kind.FINAL, 7, Goes.CHAMPION, 0),
    ]
    assert [s.length.timed for s in stages] == [False, False, True, True]


def test_chinese_and_english_stage_words_read_alike() -> None:
    zh = parse_stages("小组 前1 淘汰 3局 决赛")
    assert stage_words(zh) == "groups top1 bo1 knockout bo3 final bo7"
    assert parse_stages(stage_words(zh)) == zh


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("groups top2 semis final", "stage-word"),
        ("top2 final", "stage-word"),
        ("knockout top2 final", "stage-top"),
        ("groups bo4 final", "stage-best-of"),
        ("groups knockout", "stage-final"),
        ("final groups final", "stage-final"),
        ("", "stage-final"),
    ],
)
def test_a_bad_stage_word_is_refused_with_its_reason(words: str, code: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_stages(words)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("players", "played"),
    [
        (18, ["preliminary", "group", "knockout", "final"]),  # 18 → 6 → 4 → a final of 3
        (9, ["preliminary", "group", "knockout", "final"]),  # three groups of 3 → 6 → 4
        (6, ["preliminary", "knockout", "final"]),  # two groups of 3 → 4: no second groups
        (5, ["knockout", "final"]),
        (3, ["final"]),
    ],
)
def test_a_stage_the_field_is_too_small_for_is_skipped(players: int, played: list[str]) -> None:
    course = doudizhu().course(players)
    assert [s.name for s, on in course if on] == played


def test_every_field_of_a_game_of_three_is_played_to_one_champion() -> None:
    """Without forfeits (which may leave nobody to crown), ties at a table's top played off."""
    fmt = doudizhu()
    calm = Chances(lapse=0, forfeit=0, withdraw=0, tie=0.5)
    for players in (3, 4, 7, 18, 25):
        done = play(fmt, players, players, chances=calm)
        assert done is not None
        assert [s.rank for s in done.ranking if s.stage == "champion"] == [1]


def test_a_best_of_5_at_a_table_of_three_counts_hands_won_and_stops_at_three() -> None:
    game = find_game("doudizhu")()
    # A wins as landlord, then B and C win as farmers against A, then C as landlord
    hands = game.parse("A bid1 win; A bid1 lose; C bid1 win", 3)
    assert table_match(("match-of-5",), hands) == (Decimal(1), Decimal(1), Decimal(2))
    three = "; ".join(["A bid1 win"] * 3)
    assert table_match(("match-of-5",), game.parse(three, 3)) == (3, 0, 0)
    with pytest.raises(ReportError) as over:
        table_match(("match-of-5",), game.parse(f"{three}; B bid1 win", 3))
    assert over.value.code == "series-over" and over.value.params["game"] == 4
    with pytest.raises(ReportError) as long:
        table_match(
            ("match-of-3",), game.parse("A bid1 win; B bid1 win; C bid1 win; A bid1 win", 3)
        )
    assert long.value.code in ("series-too-long", "series-over")
    with pytest.raises(ReportError) as one:
        table_match(("one-hand",), game.parse("A bid1 win; B bid1 win", 3))
    assert one.value.code == "one-hand"
    assert table_match(("one-hand",), game.parse("A bid1 win", 3)) is None  # its points


def test_a_best_loser_called_to_the_final_stays_in_it_when_the_final_is_replayed() -> None:
    """The best loser is drawn by the flip after the knockout's last round, not after
    whichever round is the latest: once the final is drawn, replaying the history seats the
    same players, each reading "final" with no figure before the final is played."""
    fmt = doudizhu()
    called = 0
    for players in range(4, 30):
        sim = Sim(fmt, players, players * 3, Chances(lapse=0, forfeit=0, withdraw=0, tie=0.3))
        while not isinstance(plan := fmt.plan(sim.state), Finished):
            number = len(sim.state.rounds) + 1
            drawn = RoundRecord(number, plan, ())
            sim.state = replace(sim.state, rounds=(*sim.state.rounds, drawn))
            if plan.stage == "final":
                called += "lucky-loser" in plan.notes
                seated = {p for t in plan.tables for p in t.players}
                lines = [s for s in fmt.standings(sim.state) if s.player in seated]
                assert {(s.stage, s.figure) for s in lines} == {("final", None)}, lines
            results = tuple(sim.result(plan, t) for t in plan.tables)
            played = RoundRecord(number, plan, results)
            sim.state = replace(sim.state, rounds=(*sim.state.rounds[:-1], played))
    assert called > 3


def test_a_stage_skipped_for_the_field_stays_skipped_after_a_withdrawal() -> None:
    """docs/rules/multistage.md#skipped: 10 斗地主 players skip "groups top1" (its winners
    could not fill a table); when one who lost the knockout's first round withdraws, the 9
    left would fill one, but the event has gone past the groups: the knockout goes on."""
    fmt = doudizhu("groups top1 knockout bo3 final bo1")
    s = TournamentState(players=tuple(range(1, 11)), seed="seed")
    first = fmt.plan(s)
    assert isinstance(first, RoundPlan) and first.stage.startswith("knockout")
    s = record(s, first, by_id)
    loser = min(p for t in first.tables for p in t.players)
    after = fmt.plan(replace(s, removed=frozenset({loser})))
    assert isinstance(after, RoundPlan) and not after.stage.startswith("group"), after.stage


def bigtwo() -> Multistage:
    """Tables of 4 (or 3): two tied cannot be seated alone, their whole table plays it off."""
    fmt = find_format("分组淘汰")(
        find_game("bigtwo")(), {"stages": "groups top1 knockout bo3 final bo1"}
    )
    assert isinstance(fmt, Multistage)
    return fmt


def top_two_level(_n: int, _p: RoundPlan, table: Table) -> TableResult:
    """The two highest ids level at the top, the rest below by id."""
    high = sorted(table.players)[-2:]
    scores = (Decimal(9) if p in high else Decimal(p) for p in table.players)
    return TableResult(table, TableStatus.CONFIRMED, tuple(scores))


def test_a_playoff_counts_after_one_who_only_filled_its_table_withdraws() -> None:
    """docs/rules/multistage.md#ties: the whole table plays the tie off; when one of its
    untied players withdraws afterwards, the play-off still decided it (it is not drawn
    again for the three left)."""
    fmt = bigtwo()
    s = TournamentState(players=tuple(range(1, 6)), seed="seed")
    first = fmt.plan(s)
    assert isinstance(first, RoundPlan) and [len(t.players) for t in first.tables] == [4]
    s = record(s, first, top_two_level)
    extra = fmt.plan(s)
    assert isinstance(extra, RoundPlan) and extra.stage == "extra"
    assert set(extra.tables[0].players) == set(first.tables[0].players)
    s = record(s, extra, by_id)
    filler = min(first.tables[0].players)
    after = fmt.plan(replace(s, removed=frozenset({filler})))
    assert isinstance(after, RoundPlan) and after.stage == "final", after.stage


def test_a_table_the_event_went_past_is_not_played_off_when_its_winner_withdraws() -> None:
    """The knockout's table winner withdraws once the final is played: the two level below
    them lost that table then, and are not sent to a play-off for it."""
    fmt = bigtwo()

    def two_level_below(_n: int, _p: RoundPlan, table: Table) -> TableResult:
        ranked = sorted(table.players)
        scores = (9 if p == ranked[-1] else 5 if p in ranked[-3:] else 0 for p in table.players)
        return TableResult(table, TableStatus.CONFIRMED, tuple(map(Decimal, scores)))

    s = TournamentState(players=tuple(range(1, 8)), seed="seed")
    first = fmt.plan(s)
    assert isinstance(first, RoundPlan) and first.stage.startswith("knockout")
    s = record(s, first, two_level_below)
    final = fmt.plan(s)
    assert isinstance(final, RoundPlan) and final.stage == "final"
    s = record(s, final, by_id)
    s = replace(s, removed=frozenset({max(first.tables[0].players)}))
    assert fmt.playoff(s) == ()
    assert isinstance(fmt.plan(s), Finished)


def test_stages_bringing_more_to_the_final_than_it_seats_are_refused_at_the_draw() -> None:
    """``groups top1 final`` with 7 斗地主 players skips the groups (their winners cannot
    fill a table), and all 7 reached a final of three: the first three by sign-up played
    it and the rest read 「第0轮进行中」 for good. The draw refuses it, suggesting a
    knockout before the final; 9 players (three groups of three) fit."""
    fmt = doudizhu("groups top1 final bo3")
    fmt.check_knob("stages", 7)  # sign-up goes on: more may come
    with pytest.raises(ConfigError) as refused:
        fmt.check_knob("stages", 7, drawing=True)
    assert refused.value.code == "stages-final-overfull"
    assert refused.value.params["reach"] == 7
    assert refused.value.params["stages_fix"] == "groups top1 bo1 knockout bo5 final bo3"
    fmt.check_knob("stages", 9, drawing=True)
    fixed = doudizhu(str(refused.value.params["stages_fix"]))
    fixed.check_knob("stages", 7, drawing=True)


@pytest.mark.parametrize("game", ["doudizhu", "bigtwo", "xiangqi", "guandan"])
def test_the_default_stages_fit_the_final_at_every_field(game: str) -> None:
    fmt = find_format("multistage")(find_game(game)())
    for players in range(2, 61):
        fmt.check_knob("stages", players, drawing=True)


def final_scored(fmt: Multistage, players: int, *scores: int) -> TournamentState:
    """A field that plays only the final, its table scored ``scores`` in seat order."""
    s = TournamentState(players=tuple(range(1, players + 1)), seed="final")
    plan = fmt.plan(s)
    assert isinstance(plan, RoundPlan) and plan.stage == "final"
    table = plan.tables[0]
    result = TableResult(table, TableStatus.CONFIRMED, tuple(Decimal(v) for v in scores))
    return replace(s, rounds=(RoundRecord(1, plan, (result,)),))


def test_the_final_names_what_crowned_the_champion() -> None:
    """A final's winner went a level above the others, so a title decided by a flip (the
    winning partners of 掼蛋, whom no extra hand can part) or an extra hand read 冠军 and 亚军
    on the same games won with no reason; now the line says it."""
    guandan = find_format("multistage")(find_game("guandan")())
    assert isinstance(guandan, Multistage)
    s = final_scored(guandan, 4, 4, 3, 4, 3)  # partners A and C won the final together
    top, second = guandan.plan(s).ranking[:2]  # type: ignore[union-attr]
    assert top.tiebreak == ("flip",) and top.figure == second.figure == 4
    three = doudizhu()
    s = final_scored(three, 3, 3, 3, 1)  # A and B level: one extra hand between them
    extra = three.plan(s)
    assert isinstance(extra, RoundPlan) and extra.stage == "extra"
    winner = three.playoff(s)[0]
    table = extra.tables[0]
    won = tuple(Decimal(2 if p == winner else 0) for p in table.players)
    played = RoundRecord(2, extra, (TableResult(table, TableStatus.CONFIRMED, won),))
    s = replace(s, rounds=(*s.rounds, played))
    done = three.plan(s)
    assert isinstance(done, Finished)
    assert done.ranking[0].player == winner and done.ranking[0].tiebreak == ("extra",)
