"""Score stages 积分晋级 (docs/rules/stages.md).

Rules as implemented:

* Every stage everyone still in is drawn by lot into tables; each table plays ``hands``
  hands (初赛、复赛、决赛均进行十局比赛; #hands) and reports them, separated by ``;``.
* Stage score: with ``base`` > 0 everyone starts the stage from that base and the stage's
  hands are added (每人基础积分30分; 复赛每人初赛积分清零，且每人基础分30分); with
  ``base=0`` scores carry over from stage to stage.
* The top ``advance`` go on: of each table (``per=table``, #advance: 每队积分高者晋级) or of
  the whole stage (``per=overall``: the cut waits for every table of the stage, and until
  then only those with ``advance`` others above them are out). Players left over when the
  count does not fill the tables sit in a short table when the game allows one, else get a
  bye into the next stage.
* Every table plays exactly ``hands`` hands: the round's ``hands-N`` note, against which
  every report is checked (``engine.formats.series.check_hands``).
* Ties at the cut go to the previous stage's score (若积分相同，则按初赛积分高者晋级), then
  to five extra hands (再进行五局加赛: a round of stage ``extra``, its tables seating the
  tied, or their whole table when the game cannot seat the tied alone, only the tied
  compared); when not even that table can be seated, a card flip, the last resort.
* When the players still in fit one table, that stage is the final (stage ``final``): the
  ranking is the final's score, then the previous stage's (若有积分相同，则按复赛积分高者名次
  列前); a tie for first still standing plays five extra hands.
* A forfeited player is out; the others at a forfeited table go on to the next stage.

Ranking: stage reached, then the score of the last stage played, then the previous stage's
score, then extra hands, then a flip.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from random import Random

from engine.draw import flip_order, shuffled, stream
from engine.errors import ConfigError
from engine.formats.base import APART_NOTE, AnyGame, Format
from engine.formats.elimination import at_cut, extra_table, lucky_losers
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
    TableStatus,
    TournamentState,
)
from engine.standings import Line, flips, net_scores, penalties_by_round, rank

LOW = Decimal(-(10**12))
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
    the line that a play-off settles, and the flip that settled it where none can be seated
    (``flip`` = seed, label; empty without one). The play-off seats the tied alone, else
    their whole ``table`` (only the tied players' scores count; see
    ``engine.formats.elimination``); a flip only when neither can be seated (partners, who
    always score alike; too few left), the last resort."""
    above, tied = at_cut(order, slots, key)
    if not tied:
        return above, None, {}
    slots -= len(above)
    seats = extra_table(tied, table, fmt.sizes, sides)
    if seats is not None:
        return above, Tie(slots, tuple(tied), seats, tuple(map(tuple, sides))), {}
    drawn = flip_order(tied, *flip)
    return above + sorted(tied, key=lambda p: -drawn[p])[:slots], None, drawn


def playoff_tables(ties: Sequence[Tie], rng: Random) -> tuple[Table, ...]:
    """A table for each tie's play-off, its seats by lot."""
    return tuple(Table(i + 1, tuple(shuffled(sorted(t.seats), rng))) for i, t in enumerate(ties))


@dataclass
class Walk:
    pool: list[PlayerId] = field(default_factory=list)
    going: list[PlayerId] = field(default_factory=list)
    score: dict[PlayerId, Decimal] = field(default_factory=dict)  # last stage played
    prev: dict[PlayerId, Decimal] = field(default_factory=dict)  # the stage before it
    reached: dict[PlayerId, int] = field(default_factory=dict)
    extras: dict[PlayerId, list[tuple[str, Decimal]]] = field(default_factory=dict)
    pending: list[Tie] = field(default_factory=list)
    byes: dict[PlayerId, int] = field(default_factory=dict)
    final: bool = False
    seated: list[PlayerId] = field(default_factory=list)  # the last stage's tables
    # per=overall, tables of the stage still to report: those the cut may yet take
    undecided: set[PlayerId] = field(default_factory=set)
    forfeit: set[PlayerId] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


class Stages(Format):
    """积分晋级: N hands per stage from a base score; the top of each table goes on."""

    key = "stages"
    aliases = ("stages", "积分晋级", "积分晋级制", "score stages")
    seeds = ("000",)
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
        k = self.int_option("advance")
        return (
            (
                Stage(Kind.SCORE, "score", length, goes, k, True, chain),
                not players or players > self.sizes[0],
            ),
            (Stage(Kind.FINAL, "final", length, Goes.CHAMPION, tiebreaks=chain), True),
        )

    # --- history -----------------------------------------------------------------------
    def walk(self, state: TournamentState) -> Walk:
        active = set(self.active(state))
        pens = penalties_by_round(state)
        w = Walk(pool=self.active(state))
        for rec in state.rounds:
            for p in (*(q for t in rec.plan.tables for q in t.players), *rec.plan.byes):
                if rec.plan.stage != "extra":
                    w.reached[p] = rec.number
            if rec.plan.stage == "extra":
                self._extra(w, rec, pens, state.seed)
            else:
                self._stage(w, rec, pens, active, state.seed)
            if not w.pending and not w.final:
                w.pool = [p for p in state.players if p in w.going and p in active]
        return w

    def _stage(
        self,
        w: Walk,
        rec: RoundRecord,
        pens: Mapping[tuple[int, PlayerId], Decimal],
        active: set[PlayerId],
        seed: str,
    ) -> None:
        w.final = rec.plan.stage == "final"
        w.notes = []
        base = Decimal(self.int_option("base"))
        seated = [p for t in rec.plan.tables for p in t.players]
        w.seated = seated
        for p in seated:  # extra hands of an earlier stage no longer rank anyone here
            w.extras.pop(p, None)
        w.prev.update({p: w.score.get(p, Decimal(0)) for p in seated})
        for p in rec.plan.byes:
            w.byes[p] = w.byes.get(p, 0) + 1
        w.going = [p for p in rec.plan.byes if p in active]
        w.undecided = set()
        ranked: list[list[PlayerId]] = []
        sides: list[list[list[PlayerId]]] = []  # each ranked table's partners (2v2 games)
        results = {res.table.number: res for res in rec.results}
        open_tables = False
        for table in rec.plan.tables:
            res = results.get(table.number)
            if res is None or res.status is TableStatus.PENDING:  # in, tied with nobody
                w.going += [p for p in table.players if p in active]
                open_tables = True
                continue
            net = net_scores(rec, res, pens)
            for p in res.table.players:
                start = base if base else w.score.get(p, Decimal(0))
                w.score[p] = start + net.get(p, Decimal(0))
            stayed = [p for p in res.table.players if p in active and p not in res.forfeited]
            w.forfeit.update(res.forfeited)
            if res.status is TableStatus.FORFEIT and not w.final:
                w.going += stayed
            else:
                ranked.append(stayed)
                sides.append(self.sides(res.table.players))
        k = self.int_option("advance")
        by_score = self._by_score(w)
        if w.final or self.str_option("per") == "overall":
            groups, sides = [[p for g in ranked for p in g]], [sides[0] if len(sides) == 1 else []]
            k = 1 if w.final else k
            if open_tables and not w.final:
                w.undecided = set(self._may_go_on(groups[0], by_score, k))
                return
        else:
            groups = ranked
        for i, group in enumerate(groups):
            flip = (seed, f"round{rec.number}-table{i + 1}-flip")
            self._cut(w, group, by_score, k, group, sides[i], flip)

    @staticmethod
    def _may_go_on(
        group: Sequence[PlayerId], key: Callable[[PlayerId], tuple[Decimal, ...]], k: int
    ) -> list[PlayerId]:
        """While tables of a ``per=overall`` stage have not reported, the players the cut
        may still take: fewer than ``k`` above them so far. The rest are out whatever comes;
        nobody goes on, and no tie is played off or flipped, before every table is in
        (docs/rules/stages.md#advance)."""
        return [p for p in group if sum(key(q) > key(p) for q in group) < k]

    @staticmethod
    def _by_score(w: Walk) -> Callable[[PlayerId], tuple[Decimal, ...]]:
        """The cut's order (#ties): stage score, then the previous stage's."""
        return lambda p: (w.score[p], w.prev.get(p, Decimal(0)))

    def _cut(
        self,
        w: Walk,
        group: Sequence[PlayerId],
        key: Callable[[PlayerId], tuple[Decimal, ...]],
        k: int,
        table: Sequence[PlayerId],
        sides: Sequence[Sequence[PlayerId]],
        flip: tuple[str, str],
    ) -> None:
        """The top ``k`` of ``group`` go on; a tie at the line plays five extra hands
        (``EXTRA_HANDS``, 再进行五局加赛), else a flip decides (:func:`take`)."""
        going, tie, drawn = take(self, group, key, k, table, sides, flip)
        w.going += going
        w.pending += [tie] if tie is not None else []
        for p, value in drawn.items():
            w.extras.setdefault(p, []).append(("flip", Decimal(value)))
        if drawn:
            w.notes.append("tiebreak-flip")

    def _extra(
        self, w: Walk, rec: RoundRecord, pens: Mapping[tuple[int, PlayerId], Decimal], seed: str
    ) -> None:
        """Extra hands among the tied: their scores order them; a new tie plays again."""
        ties, w.pending = w.pending, []
        for tie in ties:
            # the table that played it: the tied sat there (one who withdrew since leaves
            # the replayed seats shorter than the table was)
            res = next((r for r in rec.results if set(tie.tied) <= set(r.table.players)), None)
            if res is None or res.status is TableStatus.PENDING:
                w.pending.append(tie)
                continue
            net = net_scores(rec, res, pens)
            scores = {p: (LOW if p in res.forfeited else net.get(p, Decimal(0)),) for p in tie.tied}
            for p in tie.tied:
                w.extras.setdefault(p, []).append(("extra", *scores[p]))
            seated = tuple(p for p in tie.seats if p not in res.forfeited)
            flip = (seed, f"round{rec.number}-extra-flip")
            self._cut(w, tie.tied, scores.__getitem__, tie.slots, seated, tie.sides, flip)

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
        if w.pending:
            tables = playoff_tables(w.pending, rng)
            return RoundPlan(tables, (), "extra", label, (*notes, *self._extra_notes()))
        called = self._lucky(w, state)
        pool = [*w.pool, *called]
        notes = (*notes, *(("lucky-loser",) if called else ()))
        if w.final or len(pool) < min(self.sizes):
            return self.finish(self.standings(state))
        notes = (*notes, *self._hands(self.int_option("hands")))
        return self.lot_round(pool, w.byes, rng, "stage", label, notes, apart=state.apart)

    def _extra_notes(self) -> tuple[str, ...]:
        """A play-off round says what it is: five hands at tables of 3–4, checked against
        every report (再进行五局加赛); a match again at two-player tables."""
        hands = self._hands(EXTRA_HANDS)
        return ("extra-hands", *hands) if hands else ("extra-hand",)

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
        final to come): the best of the rest of the last stage (by stage score, then
        previous stage, then a flip) fill it."""
        need = min(self.sizes) - len(w.pool)
        if w.pending or w.final or not state.rounds or not 1 < len(w.pool) < min(self.sizes):
            return []
        cands = [
            p for p in w.seated if p not in w.pool and p not in state.removed and p not in w.forfeit
        ]
        return lucky_losers(state, cands, need, self._by_score(w))

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        active = set(self.active(state))
        flip = flips(state)
        depth = max((len(v) for v in w.extras.values()), default=0)
        still = set(w.going) | w.undecided | {p for t in w.pending for p in t.tied}
        if not state.rounds:
            still = active
        lines = []
        for p in state.players:
            extra = w.extras.get(p, [])
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", Decimal(w.reached.get(p, 0))),
                ("forfeit", Decimal(p not in w.forfeit)),
                ("stage-score", w.score.get(p, Decimal(0))),
                ("previous-stage", w.prev.get(p, Decimal(0))),
                *(extra + [("extra", LOW)] * (depth - len(extra))),
                ("flip", flip[p]),
            )
            alive = p in active and p in still
            stage, at = self._stage_of(w, p, active, alive, bool(state.rounds))
            lines.append(Line(p, w.score.get(p, Decimal(0)), alive, keys, stage, at))
        return rank(lines)

    @staticmethod
    def _stage_of(
        w: Walk, p: PlayerId, active: set[PlayerId], alive: bool, started: bool
    ) -> tuple[str, int]:
        """How far ``p`` got: the final, out in stage N, waiting for the stage's other
        tables to decide (``per=overall``), or still playing."""
        if p not in active:
            return "removed", 0
        if p in w.forfeit:
            return "forfeit", w.reached.get(p, 0)
        if w.final and w.reached.get(p, 0) == max(w.reached.values(), default=0):
            return "final", 0
        if p in w.undecided:
            return "stage-open", w.reached.get(p, 0)
        if alive or not started:
            return "playing", w.reached.get(p, 0)
        return "out", w.reached.get(p, 0)
