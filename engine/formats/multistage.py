"""分组淘汰 multistage: the ``stages`` in turn (docs/rules/multistage.md); notes name the stage
(``stage-<name>``); stored labels ``group<k>@<i>``, ``knockout@<i>``, ``final``, ``extra``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from engine.draw import stream
from engine.errors import ConfigError
from engine.formats.base import AnyGame, Format, LastReplay
from engine.formats.elimination import LOW, lucky_losers
from engine.formats.groups import LETTERS, Groups, entrants, unsettled
from engine.formats.series import SERIES_NOTES, series_note
from engine.formats.stage import (
    DEFAULT_STAGES,
    MATCH_CHAIN,
    Kind,
    Stage,
    match_length,
    parse_stages,
    stage_words,
)
from engine.formats.stages import Tie, played, playoff_tables, take
from engine.games.base import Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    TableStatus,
    TournamentState,
)
from engine.standings import (
    IN_GROUP,
    Key,
    Line,
    flips,
    net_scores,
    penalties_by_round,
    rank,
    totals,
)

STEP = 100  # "reached" levels per stage: a knockout's rounds count within it
NAMES = ("preliminary", "group", "knockout", "final")
DECISIONS = ("bye", "lucky-loser", "tiebreak-flip", "extra-hand", "extra-game")  # round notes
TABLE_MATCHES = ("one-hand", *(f"match-of-{n}" for n in (3, 5, 7)))


class GroupStage(Groups):
    """The groups of one stage: ``groups`` of any count (the runner chooses it)."""

    knobs = (Knob("groups", "2", (), int, 1), *Groups.knobs[1:])


@dataclass
class Run:
    """The stages replayed from ``state`` up to the one being played."""

    state: TournamentState
    active: set[PlayerId]
    pens: Mapping[tuple[int, PlayerId], Decimal]
    at: int = 0  # the stage being played
    level: dict[PlayerId, Decimal] = field(default_factory=dict)  # "reached"
    keys: dict[PlayerId, tuple[Key, ...]] = field(default_factory=dict)  # that stage's chain
    tail: dict[PlayerId, list[Key]] = field(default_factory=dict)  # the final's play-offs
    final: set[PlayerId] = field(default_factory=set)  # the final's players
    line: dict[PlayerId, tuple[str, int]] = field(default_factory=dict)  # stage words
    alive: set[PlayerId] = field(default_factory=set)
    going: list[PlayerId] = field(default_factory=list)  # the stage's goers, best first
    ties: list[Tie] = field(default_factory=list)  # play-offs still to play
    plan: RoundPlan | None = None  # the current stage's next round
    notes: list[str] = field(default_factory=list)  # the last round's decisions
    byes: dict[PlayerId, int] = field(default_factory=dict)
    halt: bool = False  # tables of the stage's last round to report, or the event over


def stage_of(rounds: Sequence[RoundRecord], last: int) -> list[int]:
    """The stage index of each round: ``group<k>@<i>``, ``knockout@<i>``, ``final`` (the
    last stage), ``extra`` (the stage of the round before it)."""
    out: list[int] = []
    for rec in rounds:
        name = rec.plan.stage
        if "@" in name:
            out.append(int(name.rsplit("@", 1)[1]))
        elif name == "final":
            out.append(last)
        else:
            out.append(out[-1] if out else 0)
    return out


class Multistage(Format):
    """分组淘汰: the declared stages, one after another."""

    key = "multistage"
    aliases = ("multistage", "分组淘汰", "分组淘汰制", "group knockout")
    knobs = (Knob("stages", DEFAULT_STAGES, (), str),)
    eliminates = True
    note_codes = (*DECISIONS, *(f"stage-{name}" for name in NAMES), *TABLE_MATCHES, *SERIES_NOTES)
    tiebreaks = ("removed", "reached", "group-place", "points", "wins", *MATCH_CHAIN)

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        self.stages = parse_stages(self.str_option("stages"))
        self.options["stages"] = stage_words(self.stages)
        self.seats = self.sizes[0]
        self._groups: dict[tuple[int, int], GroupStage] = {}
        self.walk = LastReplay(self._replay)

    # --- what each stage needs ------------------------------------------------------------
    def group_count(self, players: int) -> int:
        """Groups of about two tables, else of one, as the groups format deals them (#groups)."""
        two = 2 * self.seats
        count = players // two if players >= 2 * two else max(1, players // self.seats)
        count = min(count, len(LETTERS))
        return len(self._group_stage(count)._deal(list(range(players)), count))

    def plays(self, stage: Stage, players: int) -> bool:
        """Whether a field of ``players`` plays ``stage`` (docs/rules/multistage.md#skipped)."""
        if stage.kind is Kind.GROUPS:  # two tables' players whose goers fill the next table
            enough = players >= 2 * self.seats and players > stage.k
            return enough and stage.k * self.group_count(players) >= self.seats
        if stage.kind is Kind.KNOCKOUT:
            return players > self.seats
        return True

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """The stages, each with whether a field of ``players`` plays it (#skipped; with nobody
        signed up, all), each match as long as the round's notes make it (#match)."""
        stages = tuple(replace(s, length=match_length(self.match_notes(s))) for s in self.stages)
        if not players:
            return tuple((stage, True) for stage in stages)
        return tuple((stage, played) for stage, played, _ in self.path(stages, players))

    def path(self, stages: tuple[Stage, ...], players: int) -> list[tuple[Stage, bool, int]]:
        """Each stage, whether a field of ``players`` plays it, and how many reach it."""
        out = []
        for stage in stages:
            played = self.plays(stage, players)
            out.append((stage, played, players))
            if played and stage.kind is Kind.GROUPS:
                players = stage.k * self.group_count(players)
            elif played and stage.kind is Kind.KNOCKOUT:
                players = self.seats
        return out

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse, at the draw, stages that bring more players to the final than its table
        seats: with no knockout before it, the final would leave out all but the first
        (docs/rules/multistage.md#skipped)."""
        reach = self.path(self.stages, players)[-1][2] if players else 0
        if name == "stages" and drawing and reach > self.seats:
            knockout = parse_stages("knockout final")[0]
            raise ConfigError(
                "stages-final-overfull",
                stages=self.str_option("stages"),
                players=players,
                reach=reach,
                seats=self.seats,
                stages_fix=stage_words((*self.stages[:-1], knockout, self.stages[-1])),
            )

    def match_notes(self, stage: Stage) -> tuple[str, ...]:
        """How long the stage's matches are, as the round's notes say it (#match)."""
        n = stage.length.best_of
        if self.seats == 2:
            return series_note(self.game, n)
        return ("one-hand",) if n == 1 else (f"match-of-{n}",)

    def stage_notes(self, stage: Stage) -> tuple[str, ...]:
        return (f"stage-{stage.name}", *self.match_notes(stage))

    # --- history ----------------------------------------------------------------------------
    def _replay(self, state: TournamentState) -> Run:
        active = set(self.active(state))
        index = stage_of(state.rounds, len(self.stages) - 1)
        run = Run(state, active, penalties_by_round(state))
        pool = entrants(state, state.rounds[0] if state.rounds else None, self.active(state))
        run.alive = set(pool) & active
        for i, stage in enumerate(self.stages):
            run.at, run.going, run.ties = i, [], []
            mine = [rec for rec, k in zip(state.rounds, index, strict=True) if k == i]
            live = [p for p in pool if p in active]
            # skipped: too few for it when it came (#skipped); a withdrawal since, which
            # changes the field, does not bring back a stage the event has gone past
            if not mine and (i < max(index, default=-1) or not self.plays(stage, len(live))):
                continue
            for p in pool:
                run.level[p], run.keys[p] = Decimal(STEP * i), ()
            play = self._groups_stage if stage.kind is Kind.GROUPS else self._tables_stage
            play(run, pool, mine)
            if run.plan is not None or run.ties or run.halt:
                return run
            pool = run.going
            run.alive = set(pool)
        return run

    def _group_stage(self, count: int, best_of: int = 1) -> GroupStage:
        """The groups format that plays ``count`` groups of ``best_of`` matches."""
        if (count, best_of) not in self._groups:
            self._groups[count, best_of] = GroupStage(
                self.game, {"groups": str(count), "group_best_of": str(best_of)}
            )
        return self._groups[count, best_of]

    def _groups_stage(self, run: Run, pool: list[PlayerId], mine: list[RoundRecord]) -> None:
        """Replay groups stage ``run.at`` on its rounds ``mine``: its next round, or its goers."""
        stage, state, active = self.stages[run.at], run.state, run.active
        # everyone the stage's first round seated or gave a bye, as drawn
        players = entrants(state, mine[0] if mine else None, [p for p in pool if p in active])
        gs = self._group_stage(self.group_count(len(players)), stage.length.best_of)
        rounds = tuple(
            replace(rec, plan=replace(rec.plan, stage=rec.plan.stage.split("@")[0])) for rec in mine
        )
        sub = replace(state, players=tuple(players), rounds=rounds)
        w = gs.walk(sub)
        nxt = gs.next_group_round(w)
        over = nxt is None  # a group place counts once the groups are over (#ranking)
        for p in w.place:  # a group place is claimed once the group has played it
            run.line[p] = (stage.name, w.place[p]) if over else (IN_GROUP, len(state.rounds))
            run.keys[p] = w.place_keys(p) if over else w.group_keys[p][:2]
        if mine and unsettled(mine[-1]):
            run.halt = True
        elif nxt is not None:
            notes = (*self.stage_notes(stage), *(("bye",) if nxt.byes else ()))
            stage_label = f"{nxt.stage}@{run.at}"
            run.plan = replace(nxt, stage=stage_label, seed_label=self.label(state), notes=notes)
        else:
            run.going = w.goers(stage.k)

    def _tables_stage(self, run: Run, pool: list[PlayerId], mine: list[RoundRecord]) -> None:
        """Replay knockout (or final) stage ``run.at``: its next round, play-offs, or goers."""
        stage, active = self.stages[run.at], run.active
        final = stage.kind is Kind.FINAL
        # the final: more than a table went on, the best of them
        live = [p for p in pool if p in active][: self.seats if final else None]
        last: RoundRecord | None = None
        depth, rounds = 0, run.state.rounds
        for rec in mine:
            if rec.plan.stage == "extra":
                self._extras(run, rec)
            else:
                last, depth = rec, depth + 1
                self._round(run, rec, Decimal(STEP * run.at + 2 * depth), final)
            if run.ties and rec.number < len(rounds) and rounds[rec.number].plan.stage != "extra":
                # a later round, not their play-off, was drawn: ties left by a withdrawal
                # since (of a table's winner) lost then
                run.ties = []
            if not run.ties:
                live = [p for p in run.going if p in active]
        if run.ties:
            return
        run.alive = set(live)
        if last is not None and unsettled(last):
            run.alive |= {p for t in last.plan.tables for p in t.players if p in active}
            run.halt = True
            return
        if last is not None and (final or len(live) <= self.seats or not live):
            run.halt = final
            if not final and stage.best_losers:
                run.going = live + self._lucky(run, last, self.seats - len(live))
            return
        # the next round: the final's table, or tables by lot with byes
        for p in live:
            run.line[p] = ("final", 0) if final else ("playing", len(rounds) + 1)
        if final and len(live) not in self.sizes:
            run.halt = True  # nobody left to seat a final: the ranking stands
            return
        label = self.label(run.state)
        notes = (*self.stage_notes(stage), *dict.fromkeys(run.notes))
        rng = stream(run.state.seed, label)
        run.plan = self.lot_round(live, run.byes, rng, f"knockout@{run.at}", label, notes)

    def _lucky(self, run: Run, last: RoundRecord, need: int) -> list[PlayerId]:
        """The best losers of the stage's ``last`` round where too few went on to fill a table
        (#knockout), the flip drawn after that round: the same on every replay."""
        out = {p for res in last.results for p in res.forfeited}
        seated = [p for t in last.plan.tables for p in t.players]
        losers = [p for p in seated if p in run.active and p not in out and p not in run.going]
        if need <= 0 or not losers:
            return []
        run.notes.append("lucky-loser")
        return lucky_losers(
            run.state, losers, need, lambda p: tuple(v for _, v in run.keys[p]), after=last.number
        )

    def _round(self, run: Run, rec: RoundRecord, level: Decimal, final: bool) -> None:
        """One round of tables: each table's winner goes on, the byes too."""
        run.going, run.notes = [], []
        results = {res.table.number: res for res in rec.results}
        for table in rec.plan.tables:
            res = results.get(table.number)
            for p in table.players:
                run.level[p] = level
                run.line[p] = ("final", 0) if final else ("out", rec.number)
            run.final.update(table.players if final else ())
            if res is None or res.status is TableStatus.PENDING:
                continue  # no figure before the match is played
            net = net_scores(rec, res, run.pens)
            for p in table.players:
                run.keys[p] = (("match-won", net.get(p, Decimal(0))),)
            stayed = [p for p in table.players if p in run.active and p not in res.forfeited]
            self._decide(run, stayed, net, stayed, level, (rec.number, table.number))
        for p in rec.plan.byes:
            run.level[p], run.keys[p] = level + 1, ()
            run.line[p] = ("through", rec.number)
            if p in run.active:
                run.going.append(p)
            run.byes[p] = run.byes.get(p, 0) + 1

    def _decide(
        self,
        run: Run,
        stayed: Sequence[PlayerId],
        net: Mapping[PlayerId, Decimal],
        seated: Sequence[PlayerId],
        level: Decimal,
        where: tuple[int, int],
    ) -> None:
        """The best of ``stayed`` by ``net`` won table ``where`` (round, table; 0 in an extra
        round) and goes on; several play it off, or a flip decides (#ties)."""
        flip = (run.state.seed, f"round{where[0]}-table{where[1]}-flip")
        top, tie, drawn = take(
            self, stayed, lambda p: (net.get(p, Decimal(0)),), 1, seated, self.sides(seated), flip
        )
        run.ties += [tie] if tie is not None else []
        # a final played out is ordered by its keys (games, an extra hand, a flip) on one
        # level, so the line says what crowned the champion (#ranking); a walkover by level
        keyed = self.stages[run.at].kind is Kind.FINAL and len(stayed) > 1
        if drawn:
            run.notes.append("tiebreak-flip")
        for p, value in drawn.items() if keyed else ():
            run.tail.setdefault(p, []).append(("flip", Decimal(value)))
        for p in top:
            run.level[p] = level + (not keyed)
            run.line[p] = ("through", where[0])
            run.going.append(p)

    def _extras(self, run: Run, rec: RoundRecord) -> None:
        """An extra hand per tie: the best of the tied wins; still level, again."""
        ties, run.ties = run.ties, []
        for tie, res in played(ties, rec, run.ties):
            net = net_scores(rec, res, run.pens)
            seated = [p for p in res.table.players if p in run.active and p not in res.forfeited]
            stayed = [p for p in tie.tied if p in seated]
            if self.stages[run.at].kind is Kind.FINAL:
                for p in tie.tied:
                    run.tail.setdefault(p, []).append(("extra", net.get(p, LOW)))
            self._decide(run, stayed, net, seated, run.level[tie.tied[0]], (rec.number, 0))

    # --- the contract ------------------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        self.require_players(state, min(self.sizes))
        run = self.walk(state)
        if not run.ties:
            return run.plan or self.finish(self.standings(state))
        # an extra hand (game) for each tie at a table's top (#ties)
        stage, label = self.stages[run.at], self.label(state)
        extra = "extra-game" if stage.kind is Kind.FINAL else "extra-hand"
        length = series_note(self.game) if self.seats == 2 else ("one-hand",)
        tables = playoff_tables(run.ties, stream(state.seed, label))
        return RoundPlan(tables, (), "extra", label, (f"stage-{stage.name}", extra, *length))

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """The players level at a table's top who play it off."""
        run = self.walk(state)
        return tuple(p for tie in run.ties for p in tie.tied if p in run.active)

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        """Stage reached, then that stage's own chain, then a flip (#ranking)."""
        run = self.walk(state)
        active, flip, points = run.active, flips(state), totals(state)
        depth = max(map(len, run.tail.values()), default=0)
        lines = []
        for p in state.players:
            tail = run.tail.get(p, []) + [("extra", LOW)] * (depth if p in run.final else 0)
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", run.level.get(p, Decimal(0))),
                *run.keys.get(p, ()),
                *tail[:depth],
                ("flip", flip[p]),
            )
            stage, at = run.line.get(p, ("playing", 0)) if p in active else ("removed", 0)
            alive = p in active and p in run.alive
            lines.append(Line(p, points.get(p, Decimal(0)), alive, keys, stage, at))
        return rank(lines)
