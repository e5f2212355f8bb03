"""Pairs in groups (docs/rules/pairs.md#groups): the two-player groups on the state *lifted*
to entrants (a pair's first member stands for it), the answers *lowered* back to pairs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.formats.base import AnyGame, GroupPlace
from engine.formats.elimination import BracketRound
from engine.formats.groups import Groups
from engine.formats.series import SERIES_NOTES
from engine.model import (
    Finished,
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
        self.discipline = discipline  # the pairs' forfeits rule, applied before lifting
        self.rep = {p: pair[0] for pair in pairs for p in pair}
        self.members = {pair[0]: pair for pair in pairs}
        self.unit = {pair[0]: i + 1 for i, pair in enumerate(pairs)}
        self.fmt = EntrantGroups(game, knobs)

    # --- lifting ---------------------------------------------------------------------------
    def of(self, player: PlayerId) -> PlayerId:
        """The entrant ``player`` plays for (their pair's first member)."""
        return self.rep.get(player, player)

    def lift(self, state: TournamentState) -> TournamentState:
        """The state as the groups of entrants see it (after the forfeits rule)."""
        state = self.discipline(state)
        pens = [x for x in state.penalties if x.player in self.rep]
        return TournamentState(
            players=tuple(self.members),
            seed=state.seed,
            rounds=tuple(self._lift_round(rec) for rec in state.rounds),
            penalties=tuple(replace(x, player=self.rep[x.player]) for x in pens),
            removed=frozenset(self.rep[p] for p in state.removed if p in self.rep),
            dropped={self.rep[p]: n for p, n in state.dropped.items() if p in self.rep},
        )

    def _lift_table(self, t: Table) -> Table:
        """A table of two pairs as a match of their entrants."""
        return Table(t.number, (self.of(t.players[0]), self.of(t.players[1])))

    def _lift_round(self, rec: RoundRecord) -> RoundRecord:
        tables = tuple(self._lift_table(t) for t in rec.plan.tables)
        byes = tuple(dict.fromkeys(self.of(p) for p in rec.plan.byes))
        plan = RoundPlan(tables, byes, rec.plan.stage, rec.plan.seed_label, rec.plan.notes)
        return RoundRecord(rec.number, plan, tuple(self._lift_result(r) for r in rec.results))

    def _lift_result(self, res: TableResult) -> TableResult:
        """Each side's points the sum of its two seats; a member's forfeit the pair's."""
        s, forfeited = res.scores, frozenset(self.of(p) for p in res.forfeited)
        scores = (s[0] + s[2], s[1] + s[3]) if s else ()
        return TableResult(self._lift_table(res.table), res.status, scores, forfeited)

    # --- lowering --------------------------------------------------------------------------
    def lower_plan(self, plan: RoundPlan | Finished) -> RoundPlan | Finished:
        """Each match a table of the two pairs, partners opposite, playing the game's session."""
        if isinstance(plan, Finished):
            return Finished(self.lower_ranking(plan.ranking))
        tables = []
        for t in plan.tables:
            (a, c), (b, d) = self.members[t.players[0]], self.members[t.players[1]]
            tables.append(Table(t.number, (a, b, c, d)))
        notes = tuple(n for n in plan.notes if n not in SERIES_NOTES)
        return RoundPlan(tuple(tables), self._lower(plan.byes), plan.stage, plan.seed_label, notes)

    def lower_ranking(self, ranking: Sequence[Standing]) -> tuple[Standing, ...]:
        """Both partners on their pair's place, each saying what split the pair from the
        next, as ``engine.standings.rank`` ranks a unit."""
        return tuple(
            replace(s, player=p, unit=self.unit[s.player])
            for s in ranking
            for p in self.members[s.player]
        )

    def _lower(self, entrants: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
        """Each entrant's pair, both members."""
        return tuple(p for rep in entrants for p in self.members[rep])

    # --- the format's answers, for the players -----------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        return self.lower_plan(self.fmt.plan(self.lift(state)))

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        return self.lower_ranking(self.fmt.standings(self.lift(state)))

    def draw_groups(self, state: TournamentState) -> list[list[PlayerId]]:
        return [list(self._lower(g)) for g in self.fmt.draw_groups(self.lift(state))]

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
        return self._lower(self.fmt.playoff(self.lift(state)))
