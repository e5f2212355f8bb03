"""Pairs in groups (docs/rules/pairs.md#groups), for the pairs of 80分 and 掼蛋.

The two-player groups format plays it with each pair one entrant, its first member standing
for it: the state is *lifted* (a table of two pairs a match of two entrants, each side's
points the sum of its two seats, a member's forfeit or removal the pair's), planned and
ranked, and *lowered* back: partners opposite (A and C against B and D), both on one place.
A table plays its session (the game's own match, no best-of series).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.formats.base import AnyGame, GroupPlace
from engine.formats.elimination import BracketRound
from engine.formats.groups import Groups
from engine.formats.series import SERIES_NOTES
from engine.model import (
    Finished,
    Penalty,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    Table,
    TableResult,
    TournamentState,
)

Pair = tuple[PlayerId, PlayerId]
ONE_GROUP = 4  # fewer pairs than two groups of two: one group, its top two in the final


class EntrantGroups(Groups):
    """The two-player groups, its entrants being pairs: each match is a table of four."""

    @property
    def sizes(self) -> tuple[int, ...]:
        return (2,)


class PairGroups:
    """The groups format played by ``pairs`` (pair number ``i + 1`` is ``pairs[i]``)."""

    def __init__(
        self,
        game: AnyGame,
        knobs: dict[str, str],
        pairs: Sequence[Pair],
        discipline: Callable[[TournamentState], TournamentState],
    ) -> None:
        self.pairs = list(pairs)
        self.discipline = discipline  # the pairs' forfeits rule, applied before lifting
        self.rep = {p: pair[0] for pair in self.pairs for p in pair}
        self.members = {pair[0]: pair for pair in self.pairs}
        self.unit = {pair[0]: i + 1 for i, pair in enumerate(self.pairs)}
        self.fmt = EntrantGroups(game, knobs)

    # --- lifting ---------------------------------------------------------------------------
    def of(self, player: PlayerId) -> PlayerId:
        """The entrant ``player`` plays for (their pair's first member)."""
        return self.rep.get(player, player)

    def lift(self, state: TournamentState) -> TournamentState:
        """The state as the groups of entrants see it (after the forfeits rule)."""
        state = self.discipline(state)
        reps = frozenset(self.rep[p] for p in state.removed if p in self.rep)
        return TournamentState(
            players=tuple(self.members),
            seed=state.seed,
            rounds=tuple(self._lift_round(rec) for rec in state.rounds),
            penalties=tuple(
                Penalty(self.rep[x.player], x.points, x.round_number)
                for x in state.penalties
                if x.player in self.rep
            ),
            removed=reps,
            dropped={self.rep[p]: n for p, n in state.dropped.items() if p in self.rep},
        )

    def _lift_round(self, rec: RoundRecord) -> RoundRecord:
        tables = tuple(
            Table(t.number, (self.of(t.players[0]), self.of(t.players[1]))) for t in rec.plan.tables
        )
        byes = tuple(dict.fromkeys(self.of(p) for p in rec.plan.byes))
        plan = RoundPlan(tables, byes, rec.plan.stage, rec.plan.seed_label, rec.plan.notes)
        return RoundRecord(rec.number, plan, tuple(self._lift_result(r) for r in rec.results))

    def _lift_result(self, res: TableResult) -> TableResult:
        a, b = self.of(res.table.players[0]), self.of(res.table.players[1])
        s = res.scores  # each side's points, the sum of its two seats
        scores = (s[0] + s[2], s[1] + s[3]) if s else ()
        forfeited = frozenset(self.of(p) for p in res.forfeited)
        return TableResult(Table(res.table.number, (a, b)), res.status, scores, forfeited)

    # --- lowering --------------------------------------------------------------------------
    def lower_plan(self, plan: RoundPlan | Finished) -> RoundPlan | Finished:
        """Each match a table of the two pairs, partners opposite; a series' note dropped
        (a table plays the game's own session)."""
        if isinstance(plan, Finished):
            return Finished(self.lower_ranking(plan.ranking))
        tables = []
        for t in plan.tables:
            (a, c), (b, d) = self.members[t.players[0]], self.members[t.players[1]]
            tables.append(Table(t.number, (a, b, c, d)))
        byes = tuple(p for rep in plan.byes for p in self.members[rep])
        notes = tuple(n for n in plan.notes if n not in SERIES_NOTES)
        return RoundPlan(tuple(tables), byes, plan.stage, plan.seed_label, notes)

    def lower_ranking(self, ranking: Sequence[Standing]) -> tuple[Standing, ...]:
        """Both partners on their pair's place, as ``engine.standings.rank`` has a unit:
        the first with nothing between them, the second with what split the pair from
        the next."""
        out: list[Standing] = []
        for s in ranking:
            first, second = self.members[s.player]
            unit = self.unit[s.player]
            out += [
                replace(s, player=first, unit=unit, tiebreak=(), lot=False),
                replace(s, player=second, unit=unit),
            ]
        return tuple(out)

    # --- the format's answers, for the players -----------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        return self.lower_plan(self.fmt.plan(self.lift(state)))

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        return self.lower_ranking(self.fmt.standings(self.lift(state)))

    def draw_groups(self, state: TournamentState) -> list[list[PlayerId]]:
        groups = self.fmt.draw_groups(self.lift(state))
        return [[p for rep in g for p in self.members[rep]] for g in groups]

    def group_places(self, state: TournamentState) -> tuple[GroupPlace, ...]:
        return tuple(
            replace(g, player=p)
            for g in self.fmt.group_places(self.lift(state))
            for p in self.members[g.player]
        )

    def in_group_stage(self, state: TournamentState) -> bool:
        return self.fmt.in_group_stage(self.lift(state))

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        """The crossovers and the final, each pair named by its first member."""
        return self.fmt.bracket(self.lift(state))

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        return tuple(p for rep in self.fmt.playoff(self.lift(state)) for p in self.members[rep])
