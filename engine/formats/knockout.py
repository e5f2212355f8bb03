"""Table knockout 分桌淘汰 (docs/rules/knockout.md).

Rules as implemented, with their anchors there:

* Every round everyone still in is drawn by lot into tables, seats A–D by lot
  (每4人一桌…分座抽签决定; #tables-by-lot).
* The top ``advance`` players of each table go on (最高分者胜出，进入下一轮; #advance).
* A tie for an advancing place is broken by a verifiable card flip (翻牌, #flip:
  预赛、复赛、半决赛中…翻牌决定胜负); the next plan carries the note ``tiebreak-flip``.
* Leftovers: when the count does not fit the usual table, a short table the game allows
  (Big Two of 3) is used before anybody sits out; only when no mix of allowed sizes seats
  everyone do the leftovers get a bye into the next draw (剩余选手不够4人
  则轮空参加下轮抽签; #leftovers). Knob ``leftover=bye`` applies that literally (no short
  tables).
  Byes go by lot to those who had the fewest.
* A forfeited table: the players in ``forfeited`` are out; the others at that table go on to
  the next draw (视为弃权，余下选手轮空参加下轮抽签; #forfeits). A table not reported
  by the deadline is recorded with everyone forfeited, so all of them are out
  (逾期未上报者，视为所在组4人全部弃权; docs/rules/deadlines.md#late).
* When the players still in fit one table, that table is the final (stage ``final``). Its
  top scorer wins; a tie at the top is played off in an extra game among the tied players
  (stage ``extra``, #final-ties: 总决赛中…进行加时赛) when the game allows a table of
  that size, otherwise by a flip (note ``final-flip``).
* A two-player match left level under a best-of series (draws) is played again, as in single
  elimination: an ``extra`` round of the level matches before the next draw, until one of
  the two wins (docs/rules/two-player.md#formats); no flip decides a match of players who
  can still play it.
* If fewer players remain than the smallest table (e.g. two Big Two winners), the best
  losers of the last round by score (then by flip) fill the final (note ``lucky-loser``):
  a final needs a table, and the next-best score is the least arbitrary way to fill it.
  Knob ``best_losers=off`` (one loss and out, 输一场即失去继续比赛的权利; #one-loss):
  nobody who lost comes back; instead a round that would send on too few for a table
  seats fewer players and gives the rest byes, so that enough go on (eight Big Two
  players: 4+3 and one bye, three go on to a final of three).
* Everyone out by forfeits, or a single player left: finished with the standings as they are.

Ranking: later round reached first, then not forfeited, then the score at the table in the
last round played (penalties of that round deducted), then extra games, then a flip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.draw import flip_order, shuffled, stream
from engine.errors import ConfigError, FormatError
from engine.formats.base import APART_NOTE, AnyGame, Format
from engine.formats.elimination import LOW, FinalTable, at_cut, lucky_losers, stage_line
from engine.formats.series import SERIES_NOTES, SUDDEN, series_length, series_note
from engine.formats.stage import Goes, Kind, Stage, match_length, within
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
from engine.seating import partition
from engine.standings import Line, flips, net_scores, penalties_by_round, rank, totals


@dataclass
class Walk:
    """What the history so far implies for the next round and for the ranking."""

    final: FinalTable  # the final table and its extra games
    pool: list[PlayerId] = field(default_factory=list)  # waiting for the next draw
    out: set[PlayerId] = field(default_factory=set)
    reached: dict[PlayerId, int] = field(default_factory=dict)
    score_at: dict[PlayerId, Decimal] = field(default_factory=dict)
    forfeit: set[PlayerId] = field(default_factory=set)
    byes: Counter[PlayerId] = field(default_factory=Counter)
    finalists: set[PlayerId] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    last_losers: list[PlayerId] = field(default_factory=list)
    replays: list[tuple[PlayerId, ...]] = field(default_factory=list)  # level matches


class Knockout(Format):
    """分桌淘汰: tables by lot, the top ``advance`` of each table go on, until a final."""

    key = "knockout"
    aliases = ("knockout", "分桌淘汰", "淘汰赛", "table knockout")
    seeds = ("000", "001")
    note_codes = (
        "bye",
        "tiebreak-flip",
        "final-flip",
        "extra-game",
        "lucky-loser",
        "fill-byes",
        APART_NOTE,
        *SERIES_NOTES,
    )
    keeps_apart = True
    knobs = (
        Knob("advance", "1", (), int),
        Knob("leftover", "table", ("table", "bye"), str),
        Knob("best_losers", "on", (), bool),
    )
    eliminates = True
    tiebreaks = ("reached", "forfeit", "round-score", "extra", "final-flip", "flip")

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        k = self.int_option("advance")
        if not 1 <= k < min(self.sizes):
            raise ConfigError(
                "knob-range", knob="advance", value=k, low=1, high=min(self.sizes) - 1
            )

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse a knob this game's tables never let the knockout read: ``leftover`` where
        the game has one table size (no short table, so leftovers always sit out,
        #leftovers), ``best_losers`` at tables of two (one winner each, an odd one out
        gets a bye: no round ever sends on too few, #one-loss)."""
        if drawing:
            return
        if name == "leftover" and len(self.sizes) == 1:
            raise ConfigError("knob-unread-one-size", knob=name, seats=self.sizes[0])
        if name == "best_losers" and self.sizes == (2,):
            raise ConfigError("knob-unread-two-seats", knob=name)

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Tables by lot, the top ``advance`` of each going on, until the players left fit
        one table (skipped when the field already does), then the final table."""
        notes = series_note(self.game)
        length = match_length(notes)
        chain = within(self.tiebreaks)
        # A level two-player series is played again (two-player.md#formats); a level table's
        # place that goes on is flipped for (#flip): the extra game is the final's alone, and
        # so is the flip of a tie for first no extra game can seat (#final-ties). Players out
        # in one round are ranked by the closing flip either way.
        replayed = min(self.sizes) == 2 and bool(series_length(notes) or SUDDEN in notes)
        final_only = {"final-flip"} if replayed else {"extra", "final-flip"}
        cut = tuple(c for c in chain if c not in final_only)
        k = self.int_option("advance")
        called_back = self.best_losers and self.sizes != (2,)  # one goes on at a table of two
        return (
            (
                Stage(Kind.KNOCKOUT, "knockout", length, Goes.WINNER, k, called_back, cut),
                not players or players > self.sizes[0],
            ),
            (Stage(Kind.FINAL, "final", length, Goes.CHAMPION, tiebreaks=chain), True),
        )

    # --- history ---------------------------------------------------------------------
    def walk(self, state: TournamentState) -> Walk:
        """Replay every round: who is still in, who went out where, what is undecided."""
        active = set(self.active(state))
        pens = penalties_by_round(state)
        w = Walk(FinalTable(self.sizes), pool=[p for p in state.players if p in active])
        k = self.int_option("advance")
        for rec in state.rounds:
            w.notes = []
            results = {res.table.number: res for res in rec.results}
            seated = [p for t in rec.plan.tables for p in t.players]
            w.out.difference_update(seated)
            if rec.plan.stage == "extra" and not w.final.played:
                self._replay(w, rec, results, pens, active, state)  # level matches again
                continue
            for p in (*seated, *rec.plan.byes):
                w.reached[p] = rec.number
            w.byes.update(rec.plan.byes)
            if rec.plan.stage == "extra":
                w.notes += w.final.extra(rec, pens, active, state.seed)
                continue
            if rec.plan.stage == "final":
                w.finalists = {p for t in rec.plan.tables for p in t.players}
                w.final.sides = self.sides(rec.plan.tables[0].players)
            going: list[PlayerId] = [p for p in rec.plan.byes if p in active]
            losers: list[PlayerId] = []
            for table in rec.plan.tables:
                res = results.get(table.number)
                if res is None or res.status is TableStatus.PENDING:
                    going += [p for p in table.players if p in active]
                    continue
                if res.status is TableStatus.FORFEIT:
                    w.forfeit.update(res.forfeited)
                    w.out.update(res.forfeited)
                    stayed = [p for p in table.players if p in active and p not in res.forfeited]
                    if rec.plan.stage == "final":
                        level = dict.fromkeys(stayed, Decimal(0))  # level at the top
                        w.score_at.update(level)
                        w.notes += w.final.play(stayed, level, rec.number, state.seed)
                    else:
                        going += stayed
                    continue
                net = net_scores(rec, res, pens)
                w.score_at.update(net)
                if rec.plan.stage == "final":
                    players = [p for p in table.players if p in active]
                    w.notes += w.final.play(players, net, rec.number, state.seed)
                    continue
                if self._level_match(rec.plan.notes, table, net, active):
                    w.replays.append(table.players)
                    going += list(table.players)  # neither is out before the replay
                    continue
                ahead = self._advancers(table, net, k, active, state.seed, rec.number, w)
                going += ahead
                losers += [p for p in table.players if p not in ahead]
            # Sets: a round of 2,000 players asked "in going?" of a list 4 million times.
            staying, sat = set(going), set(seated)
            w.out.update(p for p in seated if p not in staying)
            w.out.update(p for p in w.pool if p not in staying and p not in sat and p in active)
            if losers:
                w.last_losers = losers
            held = {p for pair in w.replays for p in pair}
            w.pool = (
                [p for p in state.players if p in staying and p not in held]
                if not w.final.played
                else []
            )
        w.out.update(p for p in state.players if p not in active)
        return w

    @property
    def rules_variant(self) -> str:
        """``series`` at two-player tables: /rules says a table is a match and a level one
        is played again (docs/rules/two-player.md#formats)."""
        return "series" if max(self.sizes) == 2 and series_note(self.game) else ""

    @staticmethod
    def _level_match(
        notes: Sequence[str],
        table: Table,
        net: Mapping[PlayerId, Decimal],
        active: set[PlayerId],
    ) -> bool:
        """A two-player match of a round with a series that ended level, both players
        still in: it is played again rather than flipped (docs/rules/two-player.md#formats)."""
        if len(table.players) != 2 or (series_length(notes) is None and SUDDEN not in notes):
            return False
        a, b = table.players
        return a in active and b in active and net[a] == net[b]

    def _replay(
        self,
        w: Walk,
        rec: RoundRecord,
        results: Mapping[int, TableResult],
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
        state: TournamentState,
    ) -> None:
        """The level matches played again: a winner joins the next draw, the other is
        out in the round the match was drawn in; level again: another replay."""
        pending, w.replays = w.replays, []
        won: set[PlayerId] = set()
        for pair in pending:
            table = next((t for t in rec.plan.tables if set(t.players) == set(pair)), None)
            res = results.get(table.number) if table is not None else None
            if table is None or res is None or res.status is TableStatus.PENDING:
                w.replays.append(pair)
                continue
            stayed = [p for p in pair if p in active and p not in res.forfeited]
            if res.status is TableStatus.FORFEIT:
                w.forfeit.update(res.forfeited)
                w.out.update(res.forfeited)
                won.update(stayed[:1] if len(stayed) == 1 else ())
                continue
            net = net_scores(rec, res, pens)
            if self._level_match(rec.plan.notes, table, net, active):
                w.replays.append(pair)
                continue
            winner = max(stayed, key=lambda p: net[p]) if stayed else None
            w.out.update(p for p in pair if p != winner)
            won.update((winner,) if winner is not None else ())
        w.pool = [p for p in state.players if p in set(w.pool) | won]

    def _advancers(
        self,
        table: Table,
        net: Mapping[PlayerId, Decimal],
        k: int,
        active: set[PlayerId],
        seed: str,
        number: int,
        w: Walk,
    ) -> list[PlayerId]:
        """The top ``k`` still-active players of a table; a tie at the cut by card flip."""
        cands = (p for p in table.players if p in active)
        through, tied = at_cut(cands, k, lambda p: (net[p],))
        if not tied:
            return through
        flip = flip_order(tied, seed, f"round{number}-table{table.number}-flip")
        w.notes.append("tiebreak-flip")
        return through + sorted(tied, key=lambda p: -flip[p])[: k - len(through)]

    # --- the contract ------------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, min(self.sizes))
        w = self.walk(state)
        label = self.label(state)
        rng = stream(state.seed, label)
        # The last round's decisions, then how long a match is at two-player tables
        # (docs/rules/two-player.md#formats).
        notes = (*dict.fromkeys(w.notes), *series_note(self.game))
        if w.replays and not w.final.played:
            tables = tuple(Table(i + 1, pair) for i, pair in enumerate(w.replays))
            return RoundPlan(tables, (), "extra", label, ("extra-game", *series_note(self.game)))
        if w.final.played:
            table = w.final.extra_seats()
            if table is not None:
                seats = shuffled(sorted(table), rng)
                return RoundPlan(
                    (Table(1, tuple(seats)),), (), "extra", label, (*notes, "extra-game")
                )
            return self.finish(self.standings(state))
        pool = list(w.pool)
        if len(pool) <= 1:
            return self.finish(self.standings(state))
        if 1 < len(pool) < min(self.sizes) and self._calls_back(state):
            pool += self._lucky(w, state)
            notes = (*notes, "lucky-loser")
        if len(pool) < min(self.sizes):  # forfeits left too few: the ranking decides
            return self.finish(self.standings(state))
        sit_out = 0 if self.best_losers else self.sit_out(len(pool)) or 0
        notes = (*notes, "fill-byes") if sit_out else notes
        short = self.str_option("leftover") == "table"
        return self.lot_round(pool, w.byes, rng, "", label, notes, short, state.apart, sit_out)

    @property
    def best_losers(self) -> bool:
        """Whether the best losers fill a final too few reached (knob ``best_losers``)."""
        return bool(self.options["best_losers"])

    def sit_out(self, players: int) -> int | None:
        """With ``best_losers=off``: how many more players than the leftovers sit the
        round out on a bye, the fewest that make the round send on one player or at least
        a table (docs/rules/knockout.md#one-loss); 0 for players that fit one table, and
        ``None`` when no count does (four 斗地主 players: a table and a bye send on two)."""
        least, k = min(self.sizes), self.int_option("advance")
        if players in self.sizes and players <= self.sizes[0]:
            return 0
        short = self.str_option("leftover") == "table"
        for extra in range(players - least + 1):
            tables, byes = partition(players - extra, self.sizes, short)
            going = sum(min(k, size) for size in tables) + byes + extra
            if going == 1 or going >= least:
                return extra
        return None

    def _calls_back(self, state: TournamentState) -> bool:
        """Whether the best losers fill a final too few reached: always with
        ``best_losers=on``; with ``off`` only when the round that left too few could be
        seated no other way (then a final needs them; forfeits are no such reason)."""
        if self.best_losers:
            return True
        last = next((r for r in reversed(state.rounds) if r.plan.stage != "extra"), None)
        if last is None:
            return False
        field = len(last.plan.byes) + sum(len(t.players) for t in last.plan.tables)
        return self.sit_out(field) is None

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """The players of level matches to play again, or the tied top of the final
        when an extra game can be seated for them."""
        w = self.walk(state)
        if w.replays and not w.final.played:
            return tuple(p for pair in w.replays for p in pair)
        return w.final.top if w.final.extra_seats() is not None else ()

    def _lucky(self, w: Walk, state: TournamentState) -> list[PlayerId]:
        """Best losers of the last round by score, then by flip, to fill a final that
        fewer than a table's worth of players are left for."""
        need = min(self.sizes) - len(w.pool)
        cands = [p for p in w.last_losers if p not in state.removed and p not in w.forfeit]
        return lucky_losers(state, cands, need, lambda p: (w.score_at.get(p, LOW),))

    def called_back(self, state: TournamentState) -> frozenset[PlayerId]:
        return frozenset(self._called_back(self.walk(state), state))

    def _called_back(self, w: Walk, state: TournamentState) -> set[PlayerId]:
        """The lucky losers the next round will take, once the round that put them out
        is over: the standings show them still in, as the round's end announced, not
        as out in the round they lost."""
        if w.final.played or not 1 < len(w.pool) < min(self.sizes) or not self._calls_back(state):
            return set()
        try:
            self.require_closed(state)
        except FormatError:  # results still to come could change who is called back
            return set()
        return set(self._lucky(w, state))

    def _may_be_called_back(self, w: Walk, state: TournamentState) -> set[PlayerId]:
        """Losers of the round being played whom its tables still to report may make lucky
        losers: those tables send on ``advance`` each, and if that leaves fewer than a
        table, the best losers fill the final. A loser already below as many of the
        round's losers as places to fill is out whatever comes (a table forfeited whole
        sends fewer on; that exception is not foreseen)."""
        if w.final.played or w.replays or not state.rounds or not self._calls_back(state):
            return set()
        rec = state.rounds[-1]
        results = {res.table.number: res for res in rec.results}
        pending = [
            t
            for t in rec.plan.tables
            if (r := results.get(t.number)) is None or r.status is TableStatus.PENDING
        ]
        if rec.plan.stage in ("final", "extra") or not pending:
            return set()
        held = {p for t in pending for p in t.players}
        k = self.int_option("advance")
        most = len([p for p in w.pool if p not in held]) + sum(
            min(k, len(t.players)) for t in pending
        )
        if not 1 < most < min(self.sizes):
            return set()
        seated = {p for t in rec.plan.tables for p in t.players}
        cands = [
            p
            for p in w.last_losers
            if p in seated and p in w.out and p not in w.forfeit and p not in state.removed
        ]
        score = {p: w.score_at.get(p, LOW) for p in cands}
        need = min(self.sizes) - most
        return {p for p in cands if sum(score[q] > score[p] for q in cands) < need}

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        active = set(self.active(state))
        points = totals(state)
        flip = flips(state)
        lucky = self._called_back(w, state)
        maybe = self._may_be_called_back(w, state)
        w.out -= lucky | maybe
        waiting, top = set(w.pool) | lucky, set(w.final.top)
        lines = []
        for p in state.players:
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", Decimal(w.reached.get(p, 0) + (p in waiting))),
                ("forfeit", Decimal(p not in w.forfeit)),
                ("round-score", w.score_at.get(p, Decimal(0))),
                *w.final.ranking_keys(p),
                ("flip", flip[p]),
            )
            alive = p in active and (p in top if w.final.played else p not in w.out)
            final = w.final.played and p in w.finalists
            at = w.reached.get(p, 0)
            stage, at = stage_line(at, p not in active, final, alive, p in w.forfeit, p in waiting)
            if p in maybe:
                stage = "may-go-on"
            lines.append(Line(p, points.get(p, Decimal(0)), alive, keys, stage, at))
        return rank(lines)
