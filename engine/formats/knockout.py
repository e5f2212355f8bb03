"""Table knockout 分桌淘汰: the rules are docs/rules/knockout.md (tables by lot, the top
``advance`` of each going on, until the players left fit one table: the final)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.draw import shuffled, stream
from engine.errors import ConfigError, FormatError
from engine.formats.base import APART_NOTE, AnyGame, Format
from engine.formats.elimination import (
    LOW,
    FinalTable,
    Pens,
    at_cut,
    flipped,
    lucky_losers,
    may_take,
    replay_round,
    stage_line,
)
from engine.formats.series import SERIES_NOTES, SUDDEN, series_length, series_note
from engine.formats.stage import Goes, Kind, Stage, match_length, within
from engine.formats.stages import Tie, played
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
from engine.seating import partition
from engine.standings import Line, flips, net_scores, penalties_by_round, rank, totals


@dataclass
class Walk:
    """What the history so far implies for the next round and for the ranking."""

    final: FinalTable
    pens: Pens
    active: set[PlayerId]
    pool: list[PlayerId] = field(default_factory=list)  # waiting for the next draw
    out: set[PlayerId] = field(default_factory=set)
    reached: dict[PlayerId, int] = field(default_factory=dict)
    score_at: dict[PlayerId, Decimal] = field(default_factory=dict)
    forfeit: set[PlayerId] = field(default_factory=set)
    finalists: set[PlayerId] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    last_losers: list[PlayerId] = field(default_factory=list)
    replays: list[Tie] = field(default_factory=list)  # level matches, one place each

    def level(
        self, notes: Sequence[str], players: Sequence[PlayerId], net: Mapping[PlayerId, Decimal]
    ) -> bool:
        """A level two-player match under a series, both still in: played again, never
        flipped (docs/rules/two-player.md#formats)."""
        if len(players) != 2 or (series_length(notes) is None and SUDDEN not in notes):
            return False
        a, b = players
        return a in self.active and b in self.active and net[a] == net[b]


class Knockout(Format):
    """分桌淘汰: tables by lot, the top ``advance`` of each table go on, until a final."""

    key = "knockout"
    aliases = ("knockout", "分桌淘汰", "淘汰赛", "table knockout")
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
        k, high = self.int_option("advance"), min(self.sizes) - 1
        if not 1 <= k <= high:
            raise ConfigError("knob-range", knob="advance", value=k, low=1, high=high)

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse a knob this game's tables never let the knockout read: ``leftover`` at one
        size, ``best_losers`` at tables of two (docs/rules/knockout.md#leftovers, #one-loss)."""
        if name == "leftover" and len(self.sizes) == 1 and not drawing:
            raise ConfigError("knob-unread-one-size", knob=name, seats=self.sizes[0])
        if name == "best_losers" and self.sizes == (2,) and not drawing:
            raise ConfigError("knob-unread-two-seats", knob=name)

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Knockout rounds (skipped when the field fits one table), then the final. Only the
        final plays an extra game or flips for first (docs/rules/knockout.md#final-ties); a
        level two-player series is played again instead (docs/rules/two-player.md#formats)."""
        notes = series_note(self.game)
        length = match_length(notes)
        chain = within(self.tiebreaks)
        replayed = min(self.sizes) == 2 and bool(series_length(notes) or SUDDEN in notes)
        final_only = {"final-flip"} if replayed else {"extra", "final-flip"}
        cut = tuple(c for c in chain if c not in final_only)
        k = self.int_option("advance")
        called_back = self.best_losers and self.sizes != (2,)  # one goes on at a table of two
        stage = Stage(Kind.KNOCKOUT, "knockout", length, Goes.WINNER, k, called_back, cut)
        final = Stage(Kind.FINAL, "final", length, Goes.CHAMPION, tiebreaks=chain)
        return ((stage, not players or players > self.sizes[0]), (final, True))

    @property
    def rules_variant(self) -> str:
        """``series`` at two-player tables (docs/rules/two-player.md#formats)."""
        return "series" if max(self.sizes) == 2 and series_note(self.game) else ""

    # --- history ---------------------------------------------------------------------
    def walk(self, state: TournamentState) -> Walk:
        """Replay every round: who is still in, who went out where, what is undecided."""
        active = set(self.active(state))
        w = Walk(FinalTable(self.sizes), penalties_by_round(state), active, self.active(state))
        for rec in state.rounds:
            w.notes = []
            seated = [p for t in rec.plan.tables for p in t.players]
            w.out.difference_update(seated)
            if rec.plan.stage == "extra" and not w.final.played:
                self._replay(w, rec, state)  # the level matches again
                continue
            w.reached.update((p, rec.number) for p in (*seated, *rec.plan.byes))
            if rec.plan.stage == "extra":
                w.notes += w.final.extra(rec, w.pens, active, state.seed)
                continue
            if rec.plan.stage == "final":
                w.finalists = set(seated)
                w.final.sides = self.sides(rec.plan.tables[0].players)
            going = self._round(w, rec, state.seed)
            # Sets: a round of 2,000 players asked "in going?" of a list 4 million times.
            staying, sat = set(going), set(seated)
            w.out.update(p for p in seated if p not in staying)
            w.out.update(p for p in w.pool if p not in staying and p not in sat and p in active)
            staying -= {p for match in w.replays for p in match.tied}
            w.pool = [] if w.final.played else [p for p in state.players if p in staying]
        w.out.update(p for p in state.players if p not in active)
        return w

    def _round(self, w: Walk, rec: RoundRecord, seed: str) -> list[PlayerId]:
        """Who goes on from one round (the pending tables' players and level matches' too,
        for now), the final's table played, and the losers a too-small final may call back."""
        results = {res.table.number: res for res in rec.results}
        final, k = rec.plan.stage == "final", self.int_option("advance")
        going = [p for p in rec.plan.byes if p in w.active]
        losers: list[PlayerId] = []
        for table in rec.plan.tables:
            res = results.get(table.number)
            players = [p for p in table.players if p in w.active]
            if res is None or res.status is TableStatus.PENDING:
                going += players
                continue
            if res.status is TableStatus.FORFEIT:
                w.forfeit.update(res.forfeited)
                w.out.update(res.forfeited)
                players = [p for p in players if p not in res.forfeited]
                if not final:
                    going += players
                    continue
                net = dict.fromkeys(players, Decimal(0))  # level at the top
            else:
                net = net_scores(rec, res, w.pens)
            w.score_at.update(net)
            if final:
                w.notes += w.final.play(players, net, rec.number, seed)
            elif w.level(rec.plan.notes, table.players, net):
                w.replays.append(Tie(1, table.players))
                going += table.players  # neither is out before the replay
            else:
                by_net = {p: (net[p],) for p in players}
                ahead, tied = at_cut(players, k, by_net.__getitem__)
                if tied:  # a tie for a place that goes on: a card flip (#flip)
                    w.notes.append("tiebreak-flip")
                    flip = (seed, f"round{rec.number}-table{table.number}-flip")
                    ahead = flipped(ahead, tied, k, flip)[0]
                going += ahead
                losers += [p for p in table.players if p not in ahead]
        if losers:
            w.last_losers = losers
        return going

    @staticmethod
    def _replay(w: Walk, rec: RoundRecord, state: TournamentState) -> None:
        """The level matches played again: the winner joins the next draw, the loser is out
        in the round the match was drawn in; level again, another replay."""
        pending, w.replays = w.replays, []
        won: set[PlayerId] = set()
        for match, res in played(pending, rec, w.replays):
            pair = match.tied
            stayed = [p for p in pair if p in w.active and p not in res.forfeited]
            if res.status is TableStatus.FORFEIT:
                w.forfeit.update(res.forfeited)
                w.out.update(res.forfeited)
                won.update(stayed if len(stayed) == 1 else ())
                continue
            net = net_scores(rec, res, w.pens)
            if w.level(rec.plan.notes, pair, net):
                w.replays.append(match)
            elif stayed:
                winner = max(stayed, key=lambda p: net[p])
                w.out.update(p for p in pair if p != winner)
                won.add(winner)
            else:
                w.out.update(pair)
        w.pool = [p for p in state.players if p in set(w.pool) | won]

    # --- the contract ------------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, min(self.sizes))
        w = self.walk(state)
        label = self.label(state)
        rng = stream(state.seed, label)
        # The last round's decisions, then a match's length (docs/rules/two-player.md#formats).
        notes = (*dict.fromkeys(w.notes), *series_note(self.game))
        if w.replays and not w.final.played:
            return replay_round((m.tied for m in w.replays), label, series_note(self.game))
        if w.final.played:
            table = w.final.extra_seats()
            if table is None:
                return self.finish(self.standings(state))
            seats = (Table(1, tuple(shuffled(sorted(table), rng))),)
            return RoundPlan(seats, (), "extra", label, (*notes, "extra-game"))
        called = self._callbacks(w, state)[0]
        pool = [*w.pool, *called]
        if len(pool) < min(self.sizes):  # one left, or forfeits left too few: the ranking decides
            return self.finish(self.standings(state))
        sit_out = 0 if self.best_losers else self.sit_out(len(pool)) or 0
        notes = (*notes, *(["lucky-loser"] if called else []), *(["fill-byes"] if sit_out else []))
        byes = Counter(p for r in state.rounds for p in r.plan.byes)
        short = self.str_option("leftover") == "table"
        return self.lot_round(pool, byes, rng, "", label, notes, short, state.apart, sit_out)

    @property
    def best_losers(self) -> bool:
        return bool(self.options["best_losers"])

    def sit_out(self, players: int) -> int | None:
        """With ``best_losers=off``, how many more than the leftovers sit out so the round
        sends on one player or a table (docs/rules/knockout.md#one-loss); ``None``: no count."""
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
        """Whether the best losers fill a final too few reached: with ``best_losers=off`` only
        when the round that left too few could be seated no other way (not for forfeits)."""
        last = next((r for r in reversed(state.rounds) if r.plan.stage != "extra"), None)
        if self.best_losers or last is None:
            return self.best_losers
        field = len(last.plan.byes) + sum(len(t.players) for t in last.plan.tables)
        return self.sit_out(field) is None

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """Level matches to play again, or the final's tied top an extra game can seat."""
        w = self.walk(state)
        if w.replays and not w.final.played:
            return tuple(p for match in w.replays for p in match.tied)
        return w.final.top if w.final.extra_seats() is not None else ()

    def called_back(self, state: TournamentState) -> frozenset[PlayerId]:
        return frozenset(self._callbacks(self.walk(state), state)[0])

    def _callbacks(self, w: Walk, state: TournamentState) -> tuple[list[PlayerId], set[PlayerId]]:
        """The best losers by score, then flip, who fill a final too few reached, once the
        round that put them out is over; before that, those who may yet be."""
        if w.final.played or not self._calls_back(state):
            return [], set()
        try:
            self.require_closed(state)
        except FormatError:  # results still to come could change who is called back
            return [], self._may_be(w, state)
        if not 1 < len(w.pool) < min(self.sizes):
            return [], set()
        need = min(self.sizes) - len(w.pool)
        cands = [p for p in w.last_losers if p not in state.removed and p not in w.forfeit]
        return lucky_losers(state, cands, need, lambda p: (w.score_at.get(p, LOW),)), set()

    def _may_be(self, w: Walk, state: TournamentState) -> set[PlayerId]:
        """Losers of the open round whom its tables still to report may make best losers
        (docs/rules/knockout.md#lucky-loser); a table forfeited whole is not foreseen."""
        rec = state.rounds[-1]  # a round is open, so there is one
        done = {res.table.number for res in rec.results if res.status is not TableStatus.PENDING}
        pending = [t for t in rec.plan.tables if t.number not in done]
        if w.replays or rec.plan.stage in ("final", "extra") or not pending:
            return set()
        held = {p for t in pending for p in t.players}
        k = self.int_option("advance")
        most = sum(p not in held for p in w.pool) + sum(min(k, len(t.players)) for t in pending)
        if not 1 < most < min(self.sizes):
            return set()
        seated = {p for t in rec.plan.tables for p in t.players}
        out = w.forfeit | state.removed
        cands = [p for p in w.last_losers if p in seated and p in w.out and p not in out]
        return may_take(cands, lambda p: (w.score_at.get(p, LOW),), min(self.sizes) - most)

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        points, flip = totals(state), flips(state)
        lucky, maybe = self._callbacks(w, state)
        w.out -= {*lucky, *maybe}
        waiting, top = {*w.pool, *lucky}, set(w.final.top)
        lines = []
        for p in state.players:
            keys = (
                ("removed", Decimal(p in w.active)),
                ("reached", Decimal(w.reached.get(p, 0) + (p in waiting))),
                ("forfeit", Decimal(p not in w.forfeit)),
                ("round-score", w.score_at.get(p, Decimal(0))),
                *w.final.ranking_keys(p),
                ("flip", flip[p]),
            )
            alive = p in w.active and (p in top if w.final.played else p not in w.out)
            final = w.final.played and p in w.finalists
            at, removed, forfeit = w.reached.get(p, 0), p not in w.active, p in w.forfeit
            stage, at = stage_line(at, removed, final, alive, forfeit, p in waiting)
            stage = "may-go-on" if p in maybe else stage
            lines.append(Line(p, points.get(p, Decimal(0)), alive, keys, stage, at))
        return rank(lines)
