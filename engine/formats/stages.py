"""Score stages 积分晋级: the rules are docs/rules/stages.md (stages of ``hands`` hands, the
top of each table or stage going on, a tie at the cut played off in five extra hands)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
Order = Callable[[PlayerId], tuple[Decimal, ...]]  # what ranks a cut, larger first


@dataclass(frozen=True)
class Tie:
    """``slots`` places among ``tied`` players, a play-off at ``seats`` (``sides`` its 2v2
    partners) or a flip; a score stage's cut and multistage's tables settle ties alike."""

    slots: int
    tied: tuple[PlayerId, ...]
    seats: tuple[PlayerId, ...] = ()
    sides: tuple[tuple[PlayerId, ...], ...] = ()


def played(
    ties: Sequence[Tie], rec: RoundRecord, waiting: list[Tie]
) -> Iterator[tuple[Tie, TableResult]]:
    """Each tie with its play-off's result in ``rec``; one still to report goes back on
    ``waiting`` in turn, so the next play-off round keeps the ties' order."""
    for tie in ties:
        res = next((r for r in rec.results if set(tie.tied) <= set(r.table.players)), None)
        if res is None or res.status is TableStatus.PENDING:
            waiting.append(tie)
        else:
            yield tie, res


def take(
    fmt: Format,
    order: Sequence[PlayerId],
    key: Order,
    slots: int,
    table: Sequence[PlayerId],
    sides: Sequence[Sequence[PlayerId]],
    flip: tuple[str, str],
) -> tuple[list[PlayerId], Tie | None, dict[PlayerId, int]]:
    """The top ``slots`` of ``order`` by ``key``: who goes on, the tie at the line for a
    play-off at :func:`extra_table`'s seats, else the flip (``flip`` = seed, label) values."""
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
    final: bool = False
    seated: list[PlayerId] = field(default_factory=list)  # the last stage's tables
    undecided: set[PlayerId] = field(default_factory=set)  # per=overall: the cut may take
    forfeit: set[PlayerId] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    def by_score(self, p: PlayerId) -> tuple[Decimal, ...]:
        """The cut's order (#ties): stage score, then the previous stage's."""
        return self.score[p], self.prev.get(p, Decimal(0))

    def cut(self, fmt: Format, tie: Tie, key: Order, label: str) -> None:
        """The top ``tie.slots`` of ``tie.tied`` go on; a tie at the line plays five extra
        hands at ``tie.seats`` (:func:`take`), else a flip labelled ``label`` decides."""
        flip = (self.seed, label)
        going, left, drawn = take(fmt, tie.tied, key, tie.slots, tie.seats, tie.sides, flip)
        self.going += going
        self.pending += [left] if left is not None else []
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
        k, high = self.int_option("advance"), min(self.sizes) - 1
        if self.str_option("per") == "table" and k > high:
            raise ConfigError("knob-range", knob="advance", value=k, low=1, high=high)

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse ``hands`` where the game's ``series`` sets every match's length instead
        (docs/rules/two-player.md#formats); not at the draw, where it could not be set back."""
        if name == "hands" and series_note(self.game) and not drawing:
            raise ConfigError("knob-unread-series", knob=name)

    @property
    def rules_variant(self) -> str:
        """``series`` at two-player tables (docs/rules/two-player.md#formats)."""
        return "series" if max(self.sizes) == 2 and series_note(self.game) else ""

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Score stages (skipped when the field fits one table), then the final."""
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
                self._stage(w, rec)
            if not w.pending and not w.final:
                w.pool = [p for p in state.players if p in w.going and p in active]
        return w

    def _stage(self, w: Walk, rec: RoundRecord) -> None:
        """A stage's tables scored from the base; the cut per table, or over the stage
        once all its tables are in (docs/rules/stages.md#advance)."""
        seated = [p for t in rec.plan.tables for p in t.players]
        w.reached.update((p, rec.number) for p in (*seated, *rec.plan.byes))
        w.final, w.notes, w.seated, w.undecided = rec.plan.stage == "final", [], seated, set()
        base = Decimal(self.int_option("base"))
        for p in seated:  # extra hands of an earlier stage no longer rank anyone here
            w.extras.pop(p, None)
        w.prev.update({p: w.score.get(p, Decimal(0)) for p in seated})
        w.going = [p for p in rec.plan.byes if p in w.active]
        k = 1 if w.final else self.int_option("advance")
        ties: list[Tie] = []  # each table's cut, its 2v2 partners as sides
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
                sides = tuple(map(tuple, self.sides(res.table.players)))
                ties.append(Tie(k, tuple(stayed), tuple(stayed), sides))
        if w.final or self.str_option("per") == "overall":
            whole = tuple(p for tie in ties for p in tie.tied)
            ties = [Tie(k, whole, whole, ties[0].sides if len(ties) == 1 else ())]
            if open_tables and not w.final:  # who the cut may still take (#advance)
                w.undecided = may_take(whole, w.by_score, k)
                return
        for i, tie in enumerate(ties):
            w.cut(self, tie, w.by_score, f"round{rec.number}-table{i + 1}-flip")

    def _extra(self, w: Walk, rec: RoundRecord) -> None:
        """Extra hands among the tied: their scores order them; a new tie plays again."""
        ties, w.pending = w.pending, []
        for tie, res in played(ties, rec, w.pending):
            net = net_scores(rec, res, w.pens)
            scores = {p: (LOW if p in res.forfeited else net.get(p, Decimal(0)),) for p in tie.tied}
            for p in tie.tied:
                w.extras.setdefault(p, []).append(("extra", *scores[p]))
            seats = tuple(p for p in tie.seats if p not in res.forfeited)
            w.cut(
                self, replace(tie, seats=seats), scores.__getitem__, f"round{rec.number}-extra-flip"
            )

    # --- the contract ----------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, min(self.sizes))
        w = self.walk(state)
        label = self.label(state)
        rng = stream(state.seed, label)
        # The last stage's decisions, then a match's length (docs/rules/two-player.md#formats)
        # or else the hands every report is checked against.
        series = series_note(self.game)
        notes = (*dict.fromkeys(w.notes), *series)
        if w.pending:  # five hands at tables of 3–4 (再进行五局加赛); a match again at two
            extra = ("extra-hand",) if series else ("extra-hands", hands_note(EXTRA_HANDS))
            return RoundPlan(playoff_tables(w.pending, rng), (), "extra", label, (*notes, *extra))
        called = self._lucky(w, state)
        pool = [*w.pool, *called]
        if w.final or len(pool) < min(self.sizes):
            return self.finish(self.standings(state))
        hands = () if series else (hands_note(self.int_option("hands")),)
        notes = (*notes, *(["lucky-loser"] if called else []), *hands)
        byes = Counter(p for r in state.rounds for p in r.plan.byes)
        return self.lot_round(pool, byes, rng, "stage", label, notes, apart=state.apart)

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """The players tied at a cut (or at the top of the final) who play extra hands."""
        return tuple(p for tie in self.walk(state).pending for p in tie.tied)

    def called_back(self, state: TournamentState) -> frozenset[PlayerId]:
        """The best losers ``plan`` adds to a final too few went on to."""
        return frozenset(self._lucky(self.walk(state), state))

    def _lucky(self, w: Walk, state: TournamentState) -> list[PlayerId]:
        """The last stage's best losers by :meth:`Walk.by_score`, then flip, to fill a table
        too few went on to, when no play-off or final is to come: a stage is not the final,
        so even one who alone went on (``per overall``, ``advance 1``) plays a final."""
        need = min(self.sizes) - len(w.pool)
        if w.pending or w.final or not state.rounds or not 0 < len(w.pool) < min(self.sizes):
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
