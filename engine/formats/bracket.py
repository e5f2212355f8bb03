"""Single elimination 单败淘汰 for two-player tables (docs/rules/bracket.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal

from engine.draw import shuffled, stream
from engine.errors import ConfigError
from engine.formats.base import AnyGame, Format
from engine.formats.elimination import (
    HALF,
    THIRD_NOTE,
    BracketRound,
    Ladder,
    Pens,
    final_round,
    replay_round,
    stage_line,
    still_in_at,
    tree,
)
from engine.formats.seeding import RATING, SeedsKnob, by_rating
from engine.formats.series import SERIES_NOTES, series_note
from engine.formats.stage import Goes, Kind, Stage, match_length, within
from engine.games.base import Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    Table,
    TableStatus,
    TournamentState,
)
from engine.seating import pick_byes
from engine.standings import Line, flips, net_scores, penalties_by_round, rank, totals

ZERO = Decimal(0)
ROBIN = ((0, 1, 2), (0, 2, 1), (1, 2, 0))  # (seat A, seat B, bye) of the 3-player round robin


def seed_order(count: int) -> list[int]:
    """Match order of seeds 1..count, 1 and 2 in opposite halves (1, 4, 2, 3…; #seeds)."""
    order = [1]
    while len(order) < count:
        order = [s for top in order for s in (top, 2 * len(order) + 1 - top)]
    return [s for s in order if s <= count]


@dataclass
class Walk:
    """What the history implies: the ladder, and the last three's round robin (#last-three)."""

    ladder: Ladder = field(default_factory=Ladder)
    robin: tuple[PlayerId, ...] = ()
    robin_played: list[int] = field(default_factory=list)  # schedule indexes played
    robin_wins: dict[PlayerId, Decimal] = field(default_factory=lambda: defaultdict(Decimal))
    robin_points: dict[PlayerId, Decimal] = field(default_factory=lambda: defaultdict(Decimal))
    robin_beat: dict[tuple[PlayerId, PlayerId], Decimal] = field(default_factory=dict)
    active: frozenset[PlayerId] = frozenset()  # still in the event

    def head_to_head(self, p: PlayerId) -> Decimal:
        """``p``'s match points against those still in and level with them on matches and
        games won (胜负关系); one who withdrew is level with nobody."""
        wins, points = self.robin_wins, self.robin_points
        level = {q: (wins.get(q, ZERO), points.get(q, ZERO)) for q in self.robin}
        tied = [q for q in self.robin if q != p and q in self.active and level[q] == level.get(p)]
        return sum((self.robin_beat.get((p, q), ZERO) for q in tied), ZERO)

    def robin_left(self, active: set[PlayerId]) -> list[int]:
        """Round-robin matches still to play (both players still in)."""
        seats = [(i, self.robin[a], self.robin[b]) for i, (a, b, _) in enumerate(ROBIN)]
        return [i for i, p, q in seats if i not in self.robin_played and {p, q} <= active]


class Bracket(Format):
    """单败淘汰: pairs by lot, winners go on; the last three play a round robin."""

    key = "bracket"
    aliases = ("bracket", "单败淘汰", "淘汰制", "裁减制", "single elimination")
    has_bracket = True
    note_codes = ("bye", "round-robin", "extra-game", THIRD_NOTE, *SERIES_NOTES)
    knobs = (
        SeedsKnob("seeds", "0", (), int),
        Knob("last3", "robin", ("robin", "off"), str),
        Knob("third", "off", (), bool),
    )
    eliminates = True
    tiebreaks = (
        "removed",
        "reached",
        "third-place",
        "extra",
        "robin-wins",
        "robin-points",
        "head-to-head",
        "flip",
    )

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        if 2 not in game.seat_counts:  # bracket pairings need a two-player table
            raise ConfigError("needs-two-seats", format=self.key, seats=game.seat_counts)

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Matches halving the field, then the last three's round robin or the final (#stages)."""
        left = players
        while left > 3:
            left -= left // 2
        robin = self.str_option("last3") == "robin" and left in (0, 3)
        length = match_length(series_note(self.game))
        chain = within(self.tiebreaks)
        match = tuple(c for c in chain if c in ("extra", "flip"))
        first = Stage(Kind.BRACKET, "bracket", length, Goes.WINNER, 1, False, match)
        played = not players or players > (3 if robin else 2)
        if robin:  # the three's chain goes straight to the flip
            robin_chain = tuple(c for c in chain if c not in ("extra", "third-place"))
            last = Stage(Kind.ROBIN, "robin", length, Goes.CHAMPION, 3, False, robin_chain)
            return ((first, played), (last, True))
        final = Stage(Kind.FINAL, "final", length, Goes.CHAMPION, 0, False, match)
        third = Stage(Kind.THIRD, "third", length, Goes.PLACE, 3, False, match)
        semis = self.options["third"] and (not players or players >= 4)
        return ((first, played), *(((third, True),) if semis else ()), (final, True))

    def walk(self, state: TournamentState) -> Walk:
        active = set(self.active(state))
        pens = penalties_by_round(state)
        w = Walk(active=frozenset(active))
        for rec, here in zip(state.rounds, still_in_at(state, active), strict=True):
            if rec.plan.stage != "robin":
                w.ladder.play(rec, pens, here)
            else:  # the first match is (1st, 2nd) with the 3rd on a bye
                w.robin = w.robin or (*rec.plan.tables[0].players, *rec.plan.byes)
                self._robin_round(w, rec, pens, active)
        for i, (a, b, _) in enumerate(ROBIN if w.robin else ()):
            stayed = [p for p in (w.robin[a], w.robin[b]) if p in active]
            if i not in w.robin_played and len(stayed) == 1:  # won by walkover, unplayed
                w.robin_wins[stayed[0]] += 1
        return w

    def _robin_round(self, w: Walk, rec: RoundRecord, pens: Pens, active: set[PlayerId]) -> None:
        """Score one round-robin match: a win 1, a forfeit 0, a level match won by neither."""
        table = rec.plan.tables[0]
        index = {frozenset((w.robin[a], w.robin[b])): i for i, (a, b, _) in enumerate(ROBIN)}
        w.robin_played.append(index[frozenset(table.players)])
        res = next((r for r in rec.results if r.table.number == table.number), None)
        if res is None:
            return
        net = net_scores(rec, res, pens)
        a, b = table.players
        for p, q in ((a, b), (b, a)):
            w.robin_points[p] += net.get(p, ZERO)
            if {p, q} & res.forfeited:
                gain = Decimal(p not in res.forfeited)
            else:
                gain = Decimal(res.status is TableStatus.CONFIRMED and net[p] > net[q])
            w.robin_wins[p] += gain
            w.robin_beat[p, q] = w.robin_beat.get((p, q), ZERO) + gain

    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, 2)
        active = set(self.active(state))
        w = self.walk(state)
        label = self.label(state)
        if ties := w.ladder.ties():
            return replay_round((m.players for m in ties), label, series_note(self.game))
        if state.rounds:
            alive, seeded = w.ladder.alive(active), []
        else:  # the seeds in order (#seeds), then everyone else by lot
            everyone = self.active(state)
            rated = self.options["seeds"] == RATING
            seeded = by_rating(state, everyone) if rated else everyone[: self.int_option("seeds")]
            rest = [p for p in everyone if p not in seeded]
            alive = seeded + shuffled(rest, stream(state.seed, "round1"))
        if not w.robin and len(alive) == 3 and self.str_option("last3") == "robin":
            w.robin = tuple(alive)
        if w.robin:  # the next round-robin match; the third player has the bye
            left = w.robin_left(active)
            if not left:
                return self.finish(self.standings(state))
            a, b, c = (w.robin[i] for i in ROBIN[left[0]])
            notes = ("round-robin", *series_note(self.game))
            bye = (c,) if c in active else ()
            return RoundPlan((Table(1, (a, b)),), bye, "robin", label, notes)
        if len(alive) <= 1:
            return self.finish(self.standings(state))
        if len(alive) == 2:
            third = bool(self.options["third"])
            return final_round(w.ladder, alive, active, third, label, series_note(self.game))
        odd, rng = len(alive) % 2, stream(state.seed, f"{label}-bye")
        byes = alive[:odd] if seeded else pick_byes(alive, odd, w.ladder.byes, rng)  # #seeds
        rest = [p for p in alive if p not in byes]
        if not state.rounds:  # seed i meets seed n+1−i, in the order that keeps 1 and 2 apart
            rest = [rest[i] for s in seed_order(len(rest) // 2) for i in (s - 1, len(rest) - s)]
        tables = tuple(Table(i // 2 + 1, (rest[i], rest[i + 1])) for i in range(0, len(rest), 2))
        notes = (*series_note(self.game), *(("bye",) if byes else ()))
        return RoundPlan(tables, tuple(byes), "", label, notes)

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        return tree(self.walk(state).ladder)

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        return self.walk(state).ladder.playoff(set(self.active(state)))

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        active = set(self.active(state))
        points, flip = totals(state), flips(state)
        alive = w.ladder.still_in(active)
        over = not w.robin_left(active) if w.robin else len(w.ladder.alive(active)) <= 1
        finished = bool(state.rounds) and not w.ladder.ties() and over  # no next round
        still = {p for p in active if (p in alive or p in w.robin) and not finished}
        # those still in reach half a level further than anyone out of the round they play
        level = w.ladder.level
        reach = {p: level.get(p, ZERO) + (HALF if p in still else ZERO) for p in state.players}
        reach |= dict.fromkeys(w.robin, Decimal(len(w.ladder.rounds) + 1))
        furthest = max((reach[p] for p in active), default=ZERO)
        lines = []
        for p in state.players:
            # players out in one knockout round share their place (#ranking): the flip is
            # for the round robin, or those furthest on (a final both forfeited)
            contends = p in active and (p in w.robin if w.robin else reach[p] == furthest)
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", reach[p]),
                w.ladder.third_key(p),
                ("robin-wins", w.robin_wins.get(p, ZERO)),
                ("robin-points", w.robin_points.get(p, ZERO)),
                ("head-to-head", w.head_to_head(p)),
                ("flip", flip[p] if contends else ZERO),
            )
            stage, at = self._stage_of(w, p, active, p in still)
            figure = keys[3] if p in w.robin else ("round-score", w.ladder.score_at.get(p, ZERO))
            lines.append(Line(p, points.get(p, ZERO), p in still, keys, stage, at, 0, figure))
        ranked = rank(lines)
        if finished and ranked:
            ranked = (replace(ranked[0], alive=True), *ranked[1:])
        return ranked

    @staticmethod
    def _stage_of(w: Walk, p: PlayerId, active: set[PlayerId], still: bool) -> tuple[str, int]:
        """How far ``p`` got, as the ranking line says it."""
        if p in active and p in w.robin:
            return "robin", 0
        if p in active and w.ladder.third is not None and p in w.ladder.third.players:
            return "third", 0
        last = w.ladder.rounds[-1] if w.ladder.rounds else []
        final = len(last) == 1 and len(last[0].players) == 2 and p in last[0].players
        at = int(w.ladder.level.get(p, ZERO))
        return stage_line(at, p not in active, final, still, through=p in w.ladder.alive(active))
