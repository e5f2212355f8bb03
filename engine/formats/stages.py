"""Score stages 积分晋级: the rules are docs/rules/stages.md.

A stage's score starts from ``base`` (or carries over with ``base=0``); the top
``advance`` of each table (``per=table``) or of the whole stage (``per=overall``) go on.
A tie at the cut goes to the previous stage's score, then to five extra hands (a round of
stage ``extra``), a flip only where no play-off table can be seated. Every round carries
its ``hands-N`` note, against which each report is checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from random import Random

from engine.draw import shuffled, stream
from engine.errors import ConfigError
from engine.formats.base import APART_NOTE, AnyGame, Format
from engine.formats.elimination import (
    LOW,
    Pens,
    at_cut,
    extra_table,
    flipped,
    lucky_losers,
    may_take,
    stage_line,
)
from engine.formats.series import SERIES_NOTES, hands_note, series_note
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
from engine.standings import Key, Line, flips, net_scores, penalties_by_round, rank

EXTRA_HANDS = 5  # a tie's play-off: 再进行五局加赛 (docs/rules/stages.md#ties)


@dataclass(frozen=True)
class Tie:
    """``slots`` places to give among ``tied`` players: a play-off at ``seats`` (the tied,
    or their whole table), ``sides`` the partners there (2v2 games); else a flip. A score
    stage's cut and ``engine.formats.multistage``'s tables (one place) settle ties alike."""

    slots: int
    tied: tuple[PlayerId, ...]
    seats: tuple[PlayerId, ...] = ()
    sides: tuple[tuple[PlayerId, ...], ...] = ()


def played(
    ties: Sequence[Tie], rec: RoundRecord, waiting: list[Tie]
) -> Iterator[tuple[Tie, TableResult]]:
    """Each of ``ties`` with its play-off's result in ``rec``, the table the tied sat at
    (one who withdrew since leaves the seats shorter); one still to report goes back on
    ``waiting`` in its turn, so the next play-off round keeps the ties' order."""
    for tie in ties:
        res = next((r for r in rec.results if set(tie.tied) <= set(r.table.players)), None)
        if res is None or res.status is TableStatus.PENDING:
            waiting.append(tie)
        else:
            yield tie, res


def take(
    fmt: Format,
    order: Sequence[PlayerId],
    key: Callable[[PlayerId], tuple[Decimal, ...]],
    slots: int,
    table: Sequence[PlayerId],
    sides: Sequence[Sequence[PlayerId]],
    flip: tuple[str, str],
) -> tuple[list[PlayerId], Tie | None, dict[PlayerId, int]]:
    """The top ``slots`` of ``order`` by ``key`` (larger first): who goes on, the tie at
    the line that a play-off settles (at :func:`extra_table`'s seats, ``table`` being the
    tied players' whole table), and the flip (``flip`` = seed, label) that settled it
    where none can be seated, the last resort."""
    above, tied = at_cut(order, slots, key)
    if not tied:
        return above, None, {}
    seats = extra_table(tied, table, fmt.sizes, sides)
    if seats is not None:
        tie = Tie(slots - len(above), tuple(tied), seats, tuple(map(tuple, sides)))
        return above, tie, {}
    going, drawn = flipped(above, tied, slots, flip)
    return going, None, drawn


def playoff_tables(ties: Sequence[Tie], rng: Random) -> tuple[Table, ...]:
    """A table for each tie's play-off, its seats by lot."""
    return tuple(Table(i + 1, tuple(shuffled(sorted(t.seats), rng))) for i, t in enumerate(ties))


@dataclass
class Walk:
    """What the stages so far imply for the next round and for the ranking."""

    pens: Pens
    active: set[PlayerId]
    seed: str
    pool: list[PlayerId] = field(default_factory=list)
    going: list[PlayerId] = field(default_factory=list)
    score: dict[PlayerId, Decimal] = field(default_factory=dict)  # last stage played
    prev: dict[PlayerId, Decimal] = field(default_factory=dict)  # the stage before it
    reached: dict[PlayerId, int] = field(default_factory=dict)
    extras: dict[PlayerId, list[Key]] = field(default_factory=dict)
    pending: list[Tie] = field(default_factory=list)
    byes: Counter[PlayerId] = field(default_factory=Counter)
    final: bool = False
    seated: list[PlayerId] = field(default_factory=list)  # the last stage's tables
    # per=overall, tables of the stage still to report: those the cut may yet take
    undecided: set[PlayerId] = field(default_factory=set)
    forfeit: set[PlayerId] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    def by_score(self, p: PlayerId) -> tuple[Decimal, ...]:
        """The cut's order (#ties): stage score, then the previous stage's."""
        return self.score[p], self.prev.get(p, Decimal(0))

    def cut(
        self,
        fmt: Format,
        group: Sequence[PlayerId],
        key: Callable[[PlayerId], tuple[Decimal, ...]],
        k: int,
        table: Sequence[PlayerId],
        sides: Sequence[Sequence[PlayerId]],
        label: str,
    ) -> None:
        """The top ``k`` of ``group`` go on; a tie at the line plays five extra hands at
        ``table`` (:func:`take`), else a flip labelled ``label`` decides."""
        going, tie, drawn = take(fmt, group, key, k, table, sides, (self.seed, label))
        self.going += going
        self.pending += [tie] if tie is not None else []
        for p, value in drawn.items():
            self.extras.setdefault(p, []).append(("flip", Decimal(value)))
        if drawn:
            self.notes.append("tiebreak-flip")


class Stages(Format):
    """积分晋级: N hands per stage from a base score; the top of each table goes on."""

    key = "stages"
    aliases = ("stages", "积分晋级", "积分晋级制", "score stages")
    note_codes = (
        "bye",
        "tiebreak-flip",
        "extra-hand",
        "extra-hands",
        "lucky-loser",
        APART_NOTE,
        *SERIES_NOTES,
    )
    keeps_apart = True
    knobs = (
        Knob("hands", "10", (), int, 1),
        Knob("base", "30", (), int),
        Knob("advance", "1", (), int, 1),
        Knob("per", "table", ("table", "overall"), str),
    )
    eliminates = True
    tiebreaks = ("removed", "reached", "stage-score", "previous-stage", "extra", "flip")

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        k = self.int_option("advance")
        if self.str_option("per") == "table" and k >= min(self.sizes):
            raise ConfigError(
                "knob-range", knob="advance", value=k, low=1, high=min(self.sizes) - 1
            )

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse ``hands`` where every table is a two-player match the game's ``series``
        sets the length of (docs/rules/two-player.md#formats): nothing reads it. The draw
        asks only the field: a knob read when set and idle since (the game's ``series``
        changed) blocks nothing, and could not be set back."""
        if name == "hands" and series_note(self.game) and not drawing:
            raise ConfigError("knob-unread-series", knob=name)

    @property
    def rules_variant(self) -> str:
        """``series`` where every table is a two-player match played under the game's
        series instead of ``hands`` (docs/rules/two-player.md#formats)."""
        return "series" if max(self.sizes) == 2 and series_note(self.game) else ""

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Score stages of ``hands`` hands (the game's series at two-player tables), the
        top ``advance`` of each table (or of the stage, ``per=overall``) going on, the
        best losers filling a table too few reached, until one table is left: the final."""
        length = match_length(series_note(self.game), self.int_option("hands"))
        chain = within(self.tiebreaks)
        goes = Goes.WINNER if self.str_option("per") == "table" else Goes.OVERALL
        stage = Stage(Kind.SCORE, "score", length, goes, self.int_option("advance"), True, chain)
        final = Stage(Kind.FINAL, "final", length, Goes.CHAMPION, tiebreaks=chain)
        return ((stage, not players or players > self.sizes[0]), (final, True))

    # --- history -----------------------------------------------------------------------
    def walk(self, state: TournamentState) -> Walk:
        active = set(self.active(state))
        w = Walk(penalties_by_round(state), active, state.seed, pool=self.active(state))
        for rec in state.rounds:
            if rec.plan.stage == "extra":
                self._extra(w, rec)
            else:
                seated = [p for t in rec.plan.tables for p in t.players]
                w.reached.update((p, rec.number) for p in (*seated, *rec.plan.byes))
                self._stage(w, rec, seated)
            if not w.pending and not w.final:
                w.pool = [p for p in state.players if p in w.going and p in active]
        return w

    def _stage(self, w: Walk, rec: RoundRecord, seated: list[PlayerId]) -> None:
        """A stage's tables scored from the base; the cut per table, or over the stage
        once all its tables are in (docs/rules/stages.md#advance)."""
        w.final, w.notes, w.seated, w.undecided = rec.plan.stage == "final", [], seated, set()
        base = Decimal(self.int_option("base"))
        for p in seated:  # extra hands of an earlier stage no longer rank anyone here
            w.extras.pop(p, None)
        w.prev.update({p: w.score.get(p, Decimal(0)) for p in seated})
        w.byes.update(rec.plan.byes)
        w.going = [p for p in rec.plan.byes if p in w.active]
        ranked: list[list[PlayerId]] = []
        sides: list[list[list[PlayerId]]] = []  # each ranked table's partners (2v2 games)
        results = {res.table.number: res for res in rec.results}
        open_tables = False
        for table in rec.plan.tables:
            res = results.get(table.number)
            if res is None or res.status is TableStatus.PENDING:  # in, tied with nobody
                w.going += [p for p in table.players if p in w.active]
                open_tables = True
                continue
            net = net_scores(rec, res, w.pens)
            for p in res.table.players:
                w.score[p] = (base or w.score.get(p, Decimal(0))) + net.get(p, Decimal(0))
            stayed = [p for p in res.table.players if p in w.active and p not in res.forfeited]
            w.forfeit.update(res.forfeited)
            if res.status is TableStatus.FORFEIT and not w.final:
                w.going += stayed
            else:
                ranked.append(stayed)
                sides.append(self.sides(res.table.players))
        k = self.int_option("advance")
        if w.final or self.str_option("per") == "overall":
            ranked, sides = [[p for g in ranked for p in g]], [sides[0] if len(sides) == 1 else []]
            k = 1 if w.final else k
            if open_tables and not w.final:  # who the cut may still take (#advance)
                w.undecided = may_take(ranked[0], w.by_score, k)
                return
        for i, group in enumerate(ranked):
            label = f"round{rec.number}-table{i + 1}-flip"
            w.cut(self, group, w.by_score, k, group, sides[i], label)

    def _extra(self, w: Walk, rec: RoundRecord) -> None:
        """Extra hands among the tied: their scores order them; a new tie plays again."""
        ties, w.pending = w.pending, []
        for tie, res in played(ties, rec, w.pending):
            net = net_scores(rec, res, w.pens)
            scores = {p: (LOW if p in res.forfeited else net.get(p, Decimal(0)),) for p in tie.tied}
            for p in tie.tied:
                w.extras.setdefault(p, []).append(("extra", *scores[p]))
            seated = [p for p in tie.seats if p not in res.forfeited]
            label = f"round{rec.number}-extra-flip"
            w.cut(self, tie.tied, scores.__getitem__, tie.slots, seated, tie.sides, label)

    # --- the contract ----------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, min(self.sizes))
        w = self.walk(state)
        label = self.label(state)
        rng = stream(state.seed, label)
        # The last stage's decisions, then how long a match is at two-player tables: the
        # series replaces ``hands`` there (docs/rules/two-player.md#formats).
        notes = (*dict.fromkeys(w.notes), *series_note(self.game))
        if w.pending:  # five hands at tables of 3–4 (再进行五局加赛); a match again at two
            hands = self._hands(EXTRA_HANDS)
            extra = ("extra-hands", *hands) if hands else ("extra-hand",)
            return RoundPlan(playoff_tables(w.pending, rng), (), "extra", label, (*notes, *extra))
        called = self._lucky(w, state)
        pool = [*w.pool, *called]
        notes = (*notes, *(("lucky-loser",) if called else ()))
        if w.final or len(pool) < min(self.sizes):
            return self.finish(self.standings(state))
        notes = (*notes, *self._hands(self.int_option("hands")))
        return self.lot_round(pool, w.byes, rng, "stage", label, notes, apart=state.apart)

    def _hands(self, hands: int) -> tuple[str, ...]:
        """The round's length in hands, checked against every report; none where a
        two-player match (the game's series) replaces them (docs/rules/two-player.md#formats)."""
        return () if series_note(self.game) else (hands_note(hands),)

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """The players tied at a cut (or at the top of the final) who play extra hands."""
        return tuple(p for tie in self.walk(state).pending for p in tie.tied)

    def called_back(self, state: TournamentState) -> frozenset[PlayerId]:
        """The best losers ``plan`` adds to a final too few went on to."""
        return frozenset(self._lucky(self.walk(state), state))

    def _lucky(self, w: Walk, state: TournamentState) -> list[PlayerId]:
        """Too few went on to seat a table (more than one, after a stage, no play-off or
        final to come): the best of the rest of the last stage by :meth:`Walk.by_score`,
        then a flip, fill it."""
        need = min(self.sizes) - len(w.pool)
        if w.pending or w.final or not state.rounds or not 1 < len(w.pool) < min(self.sizes):
            return []
        out = set(w.pool) | state.removed | w.forfeit
        return lucky_losers(state, [p for p in w.seated if p not in out], need, w.by_score)

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        flip = flips(state)
        depth = max((len(v) for v in w.extras.values()), default=0)
        still = set(w.going) | w.undecided | {p for t in w.pending for p in t.tied}
        still = still if state.rounds else w.active
        top = max(w.reached.values(), default=0)
        lines = []
        for p in state.players:
            extra = w.extras.get(p, [])
            keys = (
                ("removed", Decimal(p in w.active)),
                ("reached", Decimal(w.reached.get(p, 0))),
                ("forfeit", Decimal(p not in w.forfeit)),
                ("stage-score", w.score.get(p, Decimal(0))),
                ("previous-stage", w.prev.get(p, Decimal(0))),
                *(extra + [("extra", LOW)] * (depth - len(extra))),
                ("flip", flip[p]),
            )
            alive = p in w.active and p in still
            at, final = w.reached.get(p, 0), w.final and w.reached.get(p, 0) == top
            stage, at = stage_line(at, p not in w.active, final, alive, p in w.forfeit)
            if stage == "playing" and p in w.undecided:  # waiting for the stage's tables
                stage = "stage-open"
            lines.append(Line(p, w.score.get(p, Decimal(0)), alive, keys, stage, at))
        return rank(lines)
