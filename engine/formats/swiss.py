"""Swiss-style rounds 瑞士移位: the rules are docs/rules/swiss.md (everyone re-seated every
round, avoiding repeat opponents), at two-player tables docs/rules/two-player.md#swiss."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import ClassVar

from engine.draw import stream
from engine.formats.base import APART_NOTE, FORFEITS_KNOB, AnyGame, Format
from engine.formats.seeding import RATING, SeedsKnob, by_rating, snake
from engine.formats.series import SERIES_NOTES, match_points, matches_won, series_note
from engine.formats.stage import Goes, Kind, Stage, match_length, within
from engine.games.base import Knob
from engine.model import Finished, PlayerId, RoundPlan, Standing, Table, TournamentState
from engine.seating import keep_apart, partition, seat_round
from engine.standings import Line, flips, opponents, rank, table_wins, totals


class Swiss(Format):
    """瑞士移位: re-seated by score each round, fewest repeat opponents."""

    key = "swiss"
    aliases: ClassVar[tuple[str, ...]] = ("swiss", "瑞士移位", "瑞士制", "积分循环")
    seats_departments_apart: ClassVar[bool] = True
    # A late entrant joins with 0 for the rounds missed, until round 2 (docs/rules/people.md).
    late_entry: ClassVar[str | None] = "2"
    keeps_apart: ClassVar[bool] = True
    note_codes: ClassVar[tuple[str, ...]] = ("bye", APART_NOTE, *SERIES_NOTES)
    knobs: ClassVar[tuple[Knob, ...]] = (
        Knob("rounds", "5", (), int),
        Knob("by", "score", ("score", "mix"), str),
        FORFEITS_KNOB,
        SeedsKnob("seeds", "0", ("0", "rating"), str),
    )
    tiebreaks: tuple[str, ...] = ("removed", "points", "buchholz", "wins", "flip")
    match_tiebreaks = ("removed", "match-points", "game-points", "buchholz", "wins", "flip")

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        # The note every round carries: how long a match is (docs/rules/two-player.md#swiss).
        self.series: tuple[str, ...] = series_note(game) if max(self.sizes) == 2 else ()
        if self.series:
            self.tiebreaks = self.match_tiebreaks

    @property
    def rules_variant(self) -> str:
        """``series`` where every table is a two-player match (docs/rules/two-player.md#swiss)."""
        return "series" if self.series else ""

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """``rounds`` Swiss rounds, nobody out, the standings (or team table) deciding."""
        chain = within(self.team_tiebreaks or self.tiebreaks)
        length, rounds = match_length(self.series), self.int_option("rounds")
        return ((Stage(Kind.SWISS, self.key, length, Goes.STANDINGS, rounds, False, chain), True),)

    def points(self, state: TournamentState) -> dict[PlayerId, Decimal]:
        """What ranks a player (on a disciplined state): match points, or total scores."""
        return match_points(state, self.game) if self.series else totals(state)

    def groups(self, state: TournamentState) -> dict[PlayerId, int]:
        """Players who must not share a table (teammates, departments)."""
        return dict(state.teams)

    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        if len(state.rounds) >= self.int_option("rounds"):
            return Finished(self.standings(state))
        label = self.label(state)
        rng = stream(state.seed, label)
        groups = self.groups(state)
        state = self.disciplined(state)
        ranking = [s.player for s in self.standings(state) if s.player not in state.removed]
        sizes, bye_count = partition(len(ranking), self.sizes)
        if not sizes:
            return Finished(self.standings(state))
        had = Counter(p for rec in state.rounds for p in rec.plan.byes)
        place = {p: i for i, p in enumerate(ranking)}
        byes = sorted(ranking, key=lambda p: (had[p], -place[p]))[:bye_count]
        seated = [p for p in ranking if p not in byes]
        history = [[t.players for t in rec.plan.tables] for rec in state.rounds]
        if not state.rounds and self.options.get("seeds") == RATING:
            order = by_rating(state, seated)
            order += [p for p in seated if p not in order]
            seats, kept = keep_apart(snake(order, sizes), state.apart, history)
            seeded: tuple[str, ...] = ("rating-seeds",)
        else:
            by_score = self.str_option("by") == "score"
            drawn = seat_round(
                seated,
                sizes,
                history,
                rng,
                groups=groups or None,
                order=seated if by_score else None,
                design_rng=None if by_score else stream(state.seed, "design"),
                rounds=self.int_option("rounds"),
            )
            seats, kept = keep_apart(drawn, state.apart, history, groups)
            seeded = ()
        notes = (*seeded, *self.series, *(["bye"] if byes else []), *([] if kept else [APART_NOTE]))
        tables = tuple(Table(i + 1, t) for i, t in enumerate(seats))
        return RoundPlan(tables, tuple(byes), "", label, notes)

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        state = self.disciplined(state)
        points = self.points(state)
        games = totals(state) if self.series else {}
        opp = opponents(state.rounds)
        wins = matches_won(state) if self.series else table_wins(state)
        flip = flips(state)
        lines = []
        for p in state.players:
            buchholz = sum((points.get(q, Decimal(0)) for q in opp.get(p, [])), Decimal(0))
            mine = points.get(p, Decimal(0))
            ranked_by: tuple[tuple[str, Decimal], ...] = (("points", mine),)
            if self.series:
                ranked_by = (("match-points", mine), ("game-points", games.get(p, Decimal(0))))
            keys = (
                ("removed", Decimal(p not in state.removed or p in state.dropped)),
                *ranked_by,
                ("buchholz", buchholz),
                ("wins", wins.get(p, Decimal(0))),
                ("flip", flip[p]),
            )
            out = p in state.removed
            stage, at = ("removed", 0) if out else ("", 0)
            if p in state.dropped:  # a drop keeps its points and its place by them
                stage, at = "dropped", state.dropped[p]
            elif p in state.entered and not out:
                stage, at = "entered", state.entered[p]
            lines.append(Line(p, mine, not out, keys, stage, at))
        return rank(lines)
