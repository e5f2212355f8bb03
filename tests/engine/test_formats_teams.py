"""Team event 团体赛 (docs/rules/teams.md): teams by lot, team sums, best-individual tie-break."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.draw import shuffled, stream
from engine.errors import FormatError
from engine.formats import find_format
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import RoundPlan, RoundRecord, Table, TableResult, TableStatus, TournamentState
from tests.engine.test_formats_support import play, seated_once

BIGTWO = find_game("bigtwo")()
DOUDIZHU = find_game("doudizhu")()


def test_teams_is_found_by_its_chinese_name() -> None:
    assert find_format("团体赛") is Teams


def test_teams_of_three_are_drawn_by_lot_from_the_seed() -> None:
    fmt = Teams(BIGTWO)
    state = TournamentState(players=tuple(range(1, 13)), seed="s")
    teams = fmt.groups(state)
    assert sorted(Counter(teams.values()).values()) == [3, 3, 3, 3]
    assert fmt.groups(TournamentState(players=tuple(reversed(range(1, 13))), seed="s")) == teams
    assert fmt.groups(TournamentState(players=tuple(range(1, 13)), seed="t")) != teams


def test_a_count_not_divisible_by_three_leaves_teams_at_most_one_short() -> None:
    teams = Teams(BIGTWO).groups(TournamentState(players=tuple(range(1, 11)), seed="s"))
    assert sorted(Counter(teams.values()).values()) == [2, 2, 3, 3]


def test_teammates_never_share_a_table_in_any_round() -> None:
    fmt = Teams(BIGTWO, {"rounds": "4"})
    state = TournamentState(players=tuple(range(1, 13)), seed="s")
    teams = fmt.groups(state)
    final, _ = play(fmt, state)
    assert len(final.rounds) == 4
    for rec in final.rounds:
        for table in rec.plan.tables:
            assert len({teams[p] for p in table.players}) == len(table.players)


def scored(scores: dict[int, int]) -> TournamentState:
    """One round of 3-seat tables of players 1..9 with the given points."""
    tables = tuple(Table(i + 1, (3 * i + 1, 3 * i + 2, 3 * i + 3)) for i in range(3))
    results = tuple(
        TableResult(t, TableStatus.CONFIRMED, tuple(Decimal(scores.get(p, 0)) for p in t.players))
        for t in tables
    )
    rec = RoundRecord(1, RoundPlan(tables), results)
    teams = {p: (p - 1) % 3 + 1 for p in range(1, 10)}  # team 1 = 1, 4, 7 …
    return TournamentState(players=tuple(range(1, 10)), seed="s", rounds=(rec,), teams=teams)


def test_team_score_is_the_sum_of_its_members() -> None:
    state = scored({1: 5, 4: 3, 7: -2, 2: 1})
    first = Teams(DOUDIZHU).team_standings(state)[0]
    assert (first.team, first.points, sorted(first.members)) == (1, Decimal(6), [1, 4, 7])


def test_equal_team_sums_are_split_by_the_best_individual() -> None:
    state = scored({1: 4, 4: 0, 2: 2, 5: 2, 3: -6})  # teams 1 and 2 both on 4
    lines = Teams(DOUDIZHU).team_standings(state)
    assert [(t.team, t.points) for t in lines[:2]] == [(1, Decimal(4)), (2, Decimal(4))]
    assert lines[0].tiebreak == ("best-individual",)


def test_a_short_team_is_scaled_to_full_size() -> None:
    state = scored({1: 2, 4: 2, 2: 2, 5: 2})
    state = TournamentState(
        players=state.players, seed="s", rounds=state.rounds, teams={**state.teams, 8: 4}
    )
    lines = {t.team: t for t in Teams(DOUDIZHU).team_standings(state)}
    assert lines[2].points == Decimal(6)  # members 2 and 5: (2 + 2) × 3 / 2
    assert lines[1].points == Decimal(4)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=6, max_value=30), st.text(min_size=1, max_size=6))
def test_every_player_is_seated_once_or_has_a_bye_and_teammates_sit_apart(
    n: int, seed: str
) -> None:
    fmt = Teams(BIGTWO, {"rounds": "2"})
    state = TournamentState(players=tuple(range(1, n + 1)), seed=seed)
    teams = fmt.groups(state)
    plan = fmt.plan(state)
    assert isinstance(plan, RoundPlan)
    assert sorted(seated_once(plan)) == list(range(1, n + 1))
    if len(set(teams.values())) >= 4:
        for table in plan.tables:
            assert len({teams[p] for p in table.players}) == len(table.players)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=6, max_value=30), st.data())
def test_teams_signed_up_together_stay_together_and_the_lot_fills_the_rest(
    n: int, data: st.DataObject
) -> None:
    """自由组队 or by lot: given teams keep their members (first numbers), the lot deals the
    others to the smallest teams, and nobody is left out or counted twice."""
    players = list(range(1, n + 1))
    chosen = data.draw(st.lists(st.sampled_from(players), unique=True, max_size=n // 2))
    given_teams = {p: 10 + i // 3 for i, p in enumerate(chosen)}  # labels 10, 11 …
    state = TournamentState(players=tuple(players), seed="s", teams=given_teams)
    teams = Teams(BIGTWO).groups(state)
    assert sorted(teams) == players
    for label in set(given_teams.values()):
        members = {p for p, x in given_teams.items() if x == label}
        assert len({teams[p] for p in members}) == 1  # kept together …
        assert sum(t == teams[next(iter(members))] for t in teams.values()) <= 3  # … ≤ size
    assert sorted(set(teams.values())) == list(range(1, len(set(teams.values())) + 1))


def test_with_nobody_signed_up_together_the_lot_is_unchanged() -> None:
    """The mixed lot deals round the teams exactly as the plain lot always did."""
    state = TournamentState(players=tuple(range(1, 11)), seed="s")
    order = shuffled(sorted(state.players), stream("s", "teams"))
    assert Teams(BIGTWO).groups(state) == {p: i % 4 + 1 for i, p in enumerate(order)}


def test_a_team_signed_up_larger_than_the_team_size_is_refused() -> None:
    state = TournamentState(
        players=tuple(range(1, 9)), seed="s", teams=dict.fromkeys(range(1, 5), 1)
    )
    with pytest.raises(FormatError) as err:
        Teams(BIGTWO).groups(state)
    assert err.value.code == "team-size"
