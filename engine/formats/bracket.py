"""Single elimination 单败淘汰 for two-player tables (seed 004 §三.6②, 比赛规则(一)–(三)).

Rules as implemented, with their sources:

* Every round the players still in are paired; the winners go on, so the field halves
  each round (seed 004: 采用裁减制，即每一轮剩余一半选手). When the count is odd one player
  has a bye, drawn by lot among those who had the fewest byes (如果出现单数人状况，采用抽签
  轮空的方法).
* Round 1 is drawn by lot. Knob ``seeds`` (default 0) seeds the first ``seeds`` players in
  sign-up order (the organiser lets them sign up first); the rest are drawn by lot into the
  remaining seed numbers; seed *i* meets seed *n+1−i* and seeds 1 and 2 sit in opposite
  halves, so they can meet only in the final. With seeds, seed 1 takes an odd round's bye.
* The bracket order is kept: the winners of matches 1 and 2 meet next, and so on; a bye
  stands after the round's matches. :meth:`Bracket.bracket` returns this tree for the
  picture of ``/bracket``.
* A match is decided by the table's total: in the two-player games that is games won, a
  draw half each (seed 004: 胜1分，和0.5分，负0分), and the game's own rule (two games,
  then deciders until someone wins) makes the reported match end with a winner. Equal
  totals anyway → the pair plays again in an extra round (stage ``extra``) before the
  bracket moves on.
* Forfeits: a player in ``forfeited`` loses the match; both forfeited → both out. A removed
  player (withdrawn, disqualified) loses the match they were in and is never seated again.
* The last three play a round robin (knob ``last3=robin``, seed 004: 最后3人采用循环制决出
  冠军): three rounds, one match and one bye each. They are ranked by matches won (a draw
  half each, a walkover a win), then by games won (若胜负关系相似，采用查胜负场次的方法),
  then by a card flip. With ``last3=off`` three players play on: one match and a bye,
  then a final of two.
* Two players left: the final (stage ``final``); its winner is the champion.

Ranking: removed players last; then how far a player got (each knockout round a level,
half a level more for winning it; the round robin a level above the last knockout round);
then round-robin wins and games; then the score in the last match played; then a flip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.draw import shuffled, stream
from engine.errors import ConfigError
from engine.formats.base import AnyGame, Format
from engine.formats.seeding import RATING, SeedsKnob, by_rating
from engine.games.base import Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.seating import pick_byes
from engine.standings import Line, flips, net_scores, penalties_by_round, rank, totals

HALF = Decimal("0.5")
ROBIN = ((0, 1, 2), (0, 2, 1), (1, 2, 0))  # (seat A, seat B, bye) of the 3-player round robin
BracketRound = tuple[tuple[PlayerId, PlayerId | None, PlayerId | None], ...]


@dataclass
class Match:
    """One pairing of a knockout round; a single player is a bye."""

    players: tuple[PlayerId, ...]
    winner: PlayerId | None = None
    decided: bool = False


@dataclass
class Ladder:
    """Knockout rounds replayed from the history, in bracket order."""

    rounds: list[list[Match]] = field(default_factory=list)
    level: dict[PlayerId, Decimal] = field(default_factory=dict)
    score_at: dict[PlayerId, Decimal] = field(default_factory=dict)
    byes: Counter[PlayerId] = field(default_factory=Counter)

    def ties(self) -> list[Match]:
        """Matches of the last round still undecided (equal totals): an extra round."""
        return [m for m in self.rounds[-1] if not m.decided] if self.rounds else []

    def alive(self, active: set[PlayerId]) -> list[PlayerId]:
        """The last round's winners in bracket order (still active)."""
        if not self.rounds:
            return []
        return [m.winner for m in self.rounds[-1] if m.winner is not None and m.winner in active]

    def play(
        self,
        rec: RoundRecord,
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
    ) -> None:
        """Add a knockout round (or settle the tied matches of the last one: ``extra``)."""
        results = {res.table.number: res for res in rec.results}
        if rec.plan.stage == "extra":
            for table in rec.plan.tables:
                match = next((m for m in self.ties() if set(m.players) == set(table.players)), None)
                if match is not None:
                    self._decide(match, rec, results.get(table.number), pens, active)
            return
        depth = Decimal(len(self.rounds) + 1)
        matches = [Match(t.players) for t in rec.plan.tables]
        matches += [Match((p,)) for p in rec.plan.byes]
        self.byes.update(rec.plan.byes)
        for match, table in zip(matches, rec.plan.tables, strict=False):
            for p in match.players:
                self.level[p] = depth
            self._decide(match, rec, results.get(table.number), pens, active)
        for match in matches[len(rec.plan.tables) :]:
            p = match.players[0]
            match.decided, match.winner = True, p if p in active else None
            self.level[p] = depth + HALF
        self.rounds.append(matches)

    def _decide(
        self,
        match: Match,
        rec: RoundRecord,
        res: TableResult | None,
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
    ) -> None:
        winners = match_winner(rec, res, pens, active, match.players)
        if res is not None and res.status is TableStatus.CONFIRMED:
            self.score_at.update(net_scores(rec, res, pens))
        if winners is None:
            return
        match.decided = True
        match.winner = winners[0] if winners else None
        if match.winner is not None:
            self.level[match.winner] += HALF


def match_winner(
    rec: RoundRecord,
    res: TableResult | None,
    pens: Mapping[tuple[int, PlayerId], Decimal],
    active: set[PlayerId],
    players: Sequence[PlayerId],
) -> tuple[PlayerId, ...] | None:
    """``(winner,)``, ``()`` when nobody goes on, or ``None`` for equal totals (replay).

    The higher total wins: games won in the two-player games (a draw half each); a series
    cut short by the clock is decided by the score so far (seed 000 §三.3: 以当前比分决出
    胜负). Forfeited and removed players cannot win; a lone survivor wins by walkover.
    """
    if res is None or res.status is TableStatus.PENDING:
        return None
    stayed = [p for p in players if p in active and p not in res.forfeited]
    if res.status is TableStatus.FORFEIT or len(stayed) < 2:
        return tuple(stayed[:1]) if len(stayed) <= 1 else None
    net = net_scores(rec, res, pens)
    best = max(net[p] for p in stayed)
    top = [p for p in stayed if net[p] == best]
    return (top[0],) if len(top) == 1 else None


def tree(ladder: Ladder) -> tuple[BracketRound, ...]:
    """Per knockout round, in bracket order: (player, opponent or ``None`` for a bye,
    winner or ``None`` while undecided)."""
    return tuple(
        tuple(
            (
                m.players[0],
                m.players[1] if len(m.players) > 1 else None,
                m.winner if m.decided else None,
            )
            for m in rnd
        )
        for rnd in ladder.rounds
    )


def seed_order(count: int) -> list[int]:
    """Match order of seeds 1..count so that 1 and 2 are in opposite halves (1, 4, 2, 3…)."""
    order = [1]
    while len(order) < count:
        size = 2 * len(order)
        order = [s for top in order for s in (top, size + 1 - top)]
    return [s for s in order if s <= count]


def two_seat_check(game: AnyGame, key: str) -> None:
    """Bracket pairings need a two-player table (seed 004's board games)."""
    if 2 not in game.seat_counts:
        raise ConfigError("needs-two-seats", format=key, seats=game.seat_counts)


@dataclass
class Walk:
    """Everything the history implies: the ladder, and the round robin of the last three."""

    ladder: Ladder = field(default_factory=Ladder)
    robin: tuple[PlayerId, ...] = ()
    robin_played: list[int] = field(default_factory=list)  # schedule indexes played
    robin_wins: dict[PlayerId, Decimal] = field(default_factory=dict)
    robin_points: dict[PlayerId, Decimal] = field(default_factory=dict)


class Bracket(Format):
    """单败淘汰: pairs by lot, winners go on, a bye by lot when odd; the last three play
    a round robin."""

    key = "bracket"
    aliases = ("bracket", "单败淘汰", "淘汰制", "裁减制", "single elimination")
    seeds = ("004",)
    has_bracket = True
    note_codes = ("bye", "round-robin")
    knobs = (
        SeedsKnob("seeds", "0", (), int, "004"),
        Knob("last3", "robin", ("robin", "off"), str, "004"),
    )
    tiebreaks = ("removed", "reached", "robin-wins", "robin-points", "round-score", "flip")

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        two_seat_check(game, self.key)

    # --- history ---------------------------------------------------------------------
    def walk(self, state: TournamentState) -> Walk:
        active = set(self.active(state))
        pens = penalties_by_round(state)
        w = Walk()
        for rec in state.rounds:
            if rec.plan.stage != "robin":
                w.ladder.play(rec, pens, active)
                continue
            if not w.robin:  # the first match is (1st, 2nd) with the 3rd on a bye
                w.robin = (*rec.plan.tables[0].players, *rec.plan.byes)
            self._robin_round(w, rec, pens, active)
        if w.robin:
            self._walkovers(w, active)
        return w

    def _robin_round(
        self,
        w: Walk,
        rec: RoundRecord,
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
    ) -> None:
        """Score one round-robin match: a win 1, a draw ½ each, a forfeit 0."""
        table = rec.plan.tables[0]
        index = next(
            i for i, m in enumerate(ROBIN) if {w.robin[m[0]], w.robin[m[1]]} == set(table.players)
        )
        w.robin_played.append(index)
        res = next((r for r in rec.results if r.table.number == table.number), None)
        if res is None:
            return
        net = net_scores(rec, res, pens)
        a, b = table.players
        for p, q in ((a, b), (b, a)):
            w.robin_points[p] = w.robin_points.get(p, Decimal(0)) + net.get(p, Decimal(0))
            if p in res.forfeited or (
                res.status is not TableStatus.CONFIRMED and q not in res.forfeited
            ):
                gain = Decimal(0)
            elif q in res.forfeited:
                gain = Decimal(1)
            else:
                gain = Decimal(1) if net[p] > net[q] else HALF if net[p] == net[q] else Decimal(0)
            w.robin_wins[p] = w.robin_wins.get(p, Decimal(0)) + gain

    @staticmethod
    def _walkovers(w: Walk, active: set[PlayerId]) -> None:
        """A round-robin match against a removed player is won by walkover, unplayed."""
        for i, (a, b, _) in enumerate(ROBIN):
            pair = [w.robin[a], w.robin[b]]
            stayed = [p for p in pair if p in active]
            if i not in w.robin_played and len(stayed) == 1:
                w.robin_wins[stayed[0]] = w.robin_wins.get(stayed[0], Decimal(0)) + 1

    # --- the contract ------------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, 2)
        active = set(self.active(state))
        w = self.walk(state)
        label = self.label(state)
        ties = w.ladder.ties()
        if ties:
            tables = tuple(Table(i + 1, m.players) for i, m in enumerate(ties))
            return RoundPlan(tables, (), "extra", label, ("extra-game",))
        if w.robin:
            return self._next_robin(w, state, label, active)
        alive = w.ladder.alive(active) if state.rounds else self._round_one(state)
        if len(alive) <= 1:
            return Finished(self.standings(state))
        if len(alive) == 3 and self.str_option("last3") == "robin":
            w.robin = tuple(alive)
            return self._next_robin(w, state, label, active)
        if len(alive) == 2:
            return RoundPlan((Table(1, tuple(alive)),), (), "final", label)
        byes: list[PlayerId] = []
        if len(alive) % 2:
            if not state.rounds and self.seed_count(state) > 0:
                byes = [alive[0]]
            else:
                byes = pick_byes(alive, 1, w.ladder.byes, stream(state.seed, f"{label}-bye"))
        rest = [p for p in alive if p not in byes]
        if not state.rounds:
            rest = self._seeded_pairs(rest)
        tables = tuple(Table(i // 2 + 1, (rest[i], rest[i + 1])) for i in range(0, len(rest), 2))
        return RoundPlan(tables, tuple(byes), "", label, ("bye",) if byes else ())

    def seed_count(self, state: TournamentState) -> int:
        """How many players are seeded: ``seeds``, or every rated player (``rating``)."""
        if self.options["seeds"] == RATING:
            return len(by_rating(state, self.active(state)))
        return min(self.int_option("seeds"), len(self.active(state)))

    def _round_one(self, state: TournamentState) -> list[PlayerId]:
        """Seed order: the first ``seeds`` sign-ups (or the rated players, strongest
        first), then everyone else by lot."""
        active = self.active(state)
        if self.options["seeds"] == RATING:
            seeded = by_rating(state, active)
            rest = [p for p in active if p not in seeded]
            return seeded + shuffled(rest, stream(state.seed, "round1"))
        k = self.seed_count(state)
        return active[:k] + shuffled(active[k:], stream(state.seed, "round1"))

    @staticmethod
    def _seeded_pairs(order: Sequence[PlayerId]) -> list[PlayerId]:
        """Seed i meets seed n+1−i, the matches in the order that keeps 1 and 2 apart."""
        n = len(order)
        flat: list[PlayerId] = []
        for s in seed_order(n // 2):
            flat += [order[s - 1], order[n - s]]
        return flat

    def _robin_left(self, w: Walk, active: set[PlayerId]) -> list[int]:
        """Round-robin matches still to play (both players still in)."""
        return [
            i
            for i, (a, b, _) in enumerate(ROBIN)
            if i not in w.robin_played and w.robin[a] in active and w.robin[b] in active
        ]

    def _next_robin(
        self, w: Walk, state: TournamentState, label: str, active: set[PlayerId]
    ) -> RoundPlan | Finished:
        """The next round-robin match; the third player has the bye."""
        left = self._robin_left(w, active)
        if not left:
            return Finished(self.standings(state))
        a, b, c = (w.robin[i] for i in ROBIN[left[0]])
        byes = (c,) if c in active else ()
        return RoundPlan((Table(1, (a, b)),), byes, "robin", label, ("round-robin",))

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        """The knockout tree for the ``/bracket`` picture (see :func:`tree`)."""
        return tree(self.walk(state).ladder)

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        active = set(self.active(state))
        points = totals(state)
        flip = flips(state)
        knock = Decimal(len(w.ladder.rounds))
        alive = set(w.ladder.alive(active)) if not w.ladder.ties() else set()
        alive |= {p for m in w.ladder.ties() for p in m.players if p in active}
        finished = self._done(state, w)
        lines = []
        for p in state.players:
            level = w.ladder.level.get(p, Decimal(0))
            if p in w.robin:
                level = knock + 1
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", level),
                ("robin-wins", w.robin_wins.get(p, Decimal(0))),
                ("robin-points", w.robin_points.get(p, Decimal(0))),
                ("round-score", w.ladder.score_at.get(p, Decimal(0))),
                ("flip", flip[p]),
            )
            still = p in active and (p in alive or p in w.robin) and not finished
            lines.append(Line(p, points.get(p, Decimal(0)), still, keys))
        ranked = rank(lines)
        if finished and ranked:
            top = ranked[0]
            ranked = (Standing(top.rank, top.player, top.points, True, top.tiebreak), *ranked[1:])
        return ranked

    def _done(self, state: TournamentState, w: Walk) -> bool:
        """Whether the history already holds the whole event (no next round)."""
        active = set(self.active(state))
        if not state.rounds or w.ladder.ties():
            return False
        if w.robin:
            return not self._robin_left(w, active)
        alive = w.ladder.alive(active)
        return len(alive) <= 1
