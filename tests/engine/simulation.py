"""Whole events played by the engine alone: random legal results to ``Finished``.

A :class:`Sim` plays one event of a game under a format with a seeded random stream:
scores in the game's shape (series of games at two-player tables, partners equal in the
2v2 games, small numbers with frequent ties elsewhere), single-player forfeits,
whole-table forfeits (a missed deadline; when that would end the event the organiser
rules, sometimes with a real result), and withdrawals between rounds. After every
plan, after each table's result (as a chat reports them: what the standings say then
must already be true), at every field size, and at the end it checks the invariants
below; a broken one raises :class:`Broken` naming it, so a failing seed says what went
wrong.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from decimal import Decimal

from engine import board as read_model
from engine import standings as chains
from engine.board import Board, Entry, Status, notice
from engine.errors import FormatError
from engine.formats import Format
from engine.formats.base import ranked
from engine.formats.series import series_length
from engine.formats.stage import ACROSS, Stage
from engine.games.base import Game
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

HALF = Decimal("0.5")
ROUND_LIMIT = 80


class Broken(AssertionError):
    """An invariant of a whole event does not hold; ``code`` names which."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code


@dataclass
class Chances:
    """How often the random organiser sees each kind of trouble (per table / per round)."""

    forfeit: float = 0.05  # one player forfeits a table
    lapse: float = 0.03  # nobody reports: the whole table forfeits at the deadline
    withdraw: float = 0.03  # somebody withdraws before the next round
    tie: float = 0.25  # a table's top scores are made equal


@dataclass
class Sim:
    """One event: a format, a seeded stream, and the state played so far."""

    fmt: Format
    players: int
    seed: int
    chances: Chances = field(default_factory=Chances)
    teams: dict[PlayerId, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.shown_out: set[PlayerId] = set()  # shown out at some step of this round
        # the declared stages a round label (and the third-place table) plays: ``stages_of``
        self.stage_cache: dict[tuple[str, bool, int], tuple[Stage, ...]] = {}
        self.across_cache: dict[int, frozenset[str]] = {}  # ``across_stages`` by field
        # ``steps_played`` for the rounds' plans it was worked out from (the same at every
        # step of a round: only the results change, and the stages come from the plans)
        self.steps_cache: tuple[tuple[RoundPlan, ...], int, Steps] | None = None
        self.rng = random.Random(self.seed)
        self.state = TournamentState(
            players=tuple(range(1, self.players + 1)),
            seed=f"{self.seed:08x}",
            teams=self.teams,
        )

    @property
    def game(self) -> Game:  # type: ignore[type-arg]
        return self.fmt.game

    # --- results ---------------------------------------------------------------------
    def series(self, best_of: int) -> tuple[Decimal, Decimal]:
        """A two-player series as the game's report would give it; may end level."""
        a = b = Decimal(0)
        for _ in range(best_of if best_of > 1 else self.rng.choice((1, 2))):
            if max(a, b) * 2 > best_of:
                break
            roll = self.rng.random()
            if roll < 0.15:
                a, b = a + HALF, b + HALF
            elif roll < 0.575:
                a += 1
            else:
                b += 1
        return a, b

    def scores(self, plan: RoundPlan, table: Table) -> tuple[Decimal, ...]:
        seats = len(table.players)
        if seats == 2:
            return self.series(series_length(plan.notes) or 1)
        if self.game.partners and seats == 4:
            x = Decimal(self.rng.randint(-3, 3))
            if self.rng.random() < self.chances.tie:
                x = Decimal(0)
            return (x, -x, x, -x)
        scores = [Decimal(self.rng.randint(-6, 6)) for _ in range(seats)]
        if self.rng.random() < self.chances.tie:
            top = max(scores)
            scores[self.rng.randrange(seats)] = top
        return tuple(scores)

    def result(self, plan: RoundPlan, table: Table) -> TableResult:
        roll = self.rng.random()
        if roll < self.chances.lapse:
            return TableResult(table, TableStatus.FORFEIT, forfeited=frozenset(table.players))
        if roll < self.chances.lapse + self.chances.forfeit:
            who = self.rng.choice(table.players)
            return TableResult(table, TableStatus.FORFEIT, forfeited=frozenset((who,)))
        return TableResult(table, TableStatus.CONFIRMED, self.scores(plan, table))

    # --- the event ---------------------------------------------------------------------
    def run(self) -> Finished:
        for _ in range(ROUND_LIMIT):
            outcome = self.fmt.plan(self.state)
            if isinstance(outcome, Finished) and self.rule_on_held():
                continue  # the organiser put a real result in: plan again
            if isinstance(outcome, Finished):
                check_finished(self, outcome)
                return outcome
            check_plan(self, outcome)
            check_replay(self, outcome)
            check_extra_declared(self, outcome)
            check_went_on(self, outcome)
            number = len(self.state.rounds) + 1
            results = tuple(self.result(outcome, t) for t in outcome.tables)
            # the results come in one table at a time, as a chat reports them: the
            # standings are checked right after the draw and after each, at every size
            for given in range(len(results) + 1):
                rec = RoundRecord(number, outcome, results[:given])
                self.state = replace(self.state, rounds=(*self.state.rounds[: number - 1], rec))
                check_step(self)
            check_round(self, self.state.rounds[-1])
            self.withdraw()
        raise Broken("never-finishes", f"{ROUND_LIMIT} rounds")

    def rule_on_held(self) -> bool:
        """A round that would end the event with a whole table forfeited waits for the organiser
        (``Format.unsettled``; docs/rules/deadlines.md#late): half the time they ``/fix`` a real
        result into those tables (``True``: plan again), else they confirm the forfeit."""
        last = self.state.rounds[-1] if self.state.rounds else None
        held = {
            r.table.number
            for r in (last.results if last else ())
            if r.status is TableStatus.FORFEIT and set(r.table.players) <= r.forfeited
        }
        if held != set(self.fmt.unsettled(self.state)):  # the bot asks the engine
            raise Broken("forfeit-ends-event", f"whole tables {sorted(held)} not held")
        if not held or self.rng.random() < 0.5:
            return False
        assert last is not None
        results = tuple(
            TableResult(r.table, TableStatus.CONFIRMED, self.scores(last.plan, r.table))
            if r.table.number in held
            else r
            for r in last.results
        )
        rounds = (*self.state.rounds[:-1], replace(last, results=results))
        self.state = replace(self.state, rounds=rounds)
        self.shown_out = set()  # a /fix re-judges the round: the forfeit no longer holds
        check_step(self)
        return True

    def withdraw(self) -> None:
        active = [p for p in self.state.players if p not in self.state.removed]
        if len(active) > 2 and self.rng.random() < self.chances.withdraw:
            who = self.rng.choice(active)
            self.state = replace(self.state, removed=self.state.removed | {who})
            # a withdrawal re-judges the round (a pair's walkover): what was shown
            # before it is no promise about the next draw
            self.shown_out = set()


# --- invariants ------------------------------------------------------------------------
def fits(count: int, sizes: Sequence[int]) -> bool:
    """Whether ``count`` players fill tables of the allowed sizes with nobody left over."""
    if count == 0:
        return True
    got, byes = partition(count, tuple(sizes))
    return bool(got) and byes == 0


def check_plan(sim: Sim, plan: RoundPlan) -> None:
    """Before a round is played: everyone seated when the count fits; a best-of-N only
    announced where a series can be played (two-player tables)."""
    sizes = sim.fmt.sizes
    for table in plan.tables:
        if len(table.players) not in sizes:
            raise Broken("table-size", f"{table} not in {sizes}")
    seated = [p for t in plan.tables for p in t.players]
    everyone = seated + list(plan.byes)
    if len(set(everyone)) != len(everyone):
        raise Broken("seated-twice", str(plan))
    lucky = "lucky-pair" in plan.notes or sim.fmt.key == "pairs"
    # a round robin inside a group of odd size gives a bye every round (docs/rules/groups.md)
    # groups are drawn once: a withdrawal later can leave a group short of a table
    group = plan.stage.startswith("group")
    lucky = lucky or (group and (sizes == (2,) or bool(sim.state.removed)))
    lucky = lucky or plan.stage == "robin" or sim.fmt.options.get("leftover") == "bye"
    lucky = lucky or "fill-byes" in plan.notes  # one loss and out: byes so enough go on
    before = sim.state.rounds[-1].plan.notes if sim.state.rounds else ()
    if "lucky-loser" in plan.notes and "fill-byes" in before:  # the byes were to spare them
        raise Broken("best-loser-after-byes", str(plan))
    if plan.byes and not lucky and fits(len(everyone), sizes):
        raise Broken("needless-bye", f"{len(everyone)} players, byes {plan.byes}")
    best_of = series_length(plan.notes)
    if best_of is not None and best_of > 1 and any(len(t.players) != 2 for t in plan.tables):
        raise Broken("series-unplayable", f"best-of-{best_of} at tables of {sizes}")


def level_series(sim: Sim, rec: RoundRecord) -> list[frozenset[PlayerId]]:
    """Two-player elimination tables of ``rec`` that ended level between two players still in: the
    series is unfinished (加赛 until someone wins; docs/rules/two-player.md#series)."""
    if rec.plan.stage.startswith("group") or rec.plan.stage in ("robin", "stage"):
        return []
    if sim.fmt.key not in ("bracket", "groups"):
        return []
    out = []
    for res in rec.results:
        players = res.table.players
        if len(players) != 2 or res.status is not TableStatus.CONFIRMED:
            continue
        if any(p in sim.state.removed for p in players):
            continue
        if res.scores[0] == res.scores[1]:
            out.append(frozenset(players))
    return out


def check_replay(sim: Sim, plan: RoundPlan) -> None:
    """Before the next round: a level series of the last round is played on (an extra
    round with that pair) before anyone goes on (docs/rules/bracket.md#match)."""
    if not sim.state.rounds:
        return
    level = level_series(sim, sim.state.rounds[-1])
    tables = {frozenset(t.players) for t in plan.tables}
    for pair in level:
        if plan.stage != "extra" or pair not in tables:
            raise Broken("level-series-advanced", f"{sorted(pair)} then {plan}")


# The declared stages (``Stage.name``) a stored round label plays, where the name is not the
# label itself: the knockout's, bracket's and pairs' first stage has no label, the groups'
# match rounds after the groups are one "playoff" (a crossover, then halving with 4 or 8
# groups), and a score stage's rounds are "stage". A multistage label ends in the index.
LABEL_STAGES = {"playoff": ("crossover", "bracket"), "stage": ("score",)}


def fields(sim: Sim) -> range:
    """The field sizes whose declarations the rounds of this event may follow: any up to
    everyone entered, since withdrawals and whole tables forfeited change which stages the
    field reaches (a table lost by both turns the last three's round robin into a final)."""
    return range(2, len(sim.state.players) + 1)


def stages_of(sim: Sim, plan: RoundPlan, table: Table) -> tuple[Stage, ...]:
    """The declared stages (``Format.course``, what /rules lists for some field this event
    may have come to) a table of a round that is not an extra one plays: the semi-final
    losers' table beside the final is the match for third."""
    third = "third-place" in plan.notes and plan.tables[1:2] == (table,)
    key = (plan.stage, third, len(sim.state.players))
    if key not in sim.stage_cache:
        sim.stage_cache[key] = declared_stages(sim, plan.stage, third)
    return sim.stage_cache[key]


def declared_stages(sim: Sim, label: str, third: bool) -> tuple[Stage, ...]:
    """``stages_of`` for a round label, worked out from the declarations."""
    if "@" in label:
        stage, _ = sim.fmt.course(len(sim.state.players))[int(label.rsplit("@", 1)[1])]
        return (stage,)
    if third:
        names: tuple[str, ...] = ("third",)
    elif label.startswith("group"):
        names = ("group", "preliminary")
    else:
        names = LABEL_STAGES.get(label, (label,))
    found: list[Stage] = []
    for n in fields(sim):
        declared = [stage for stage, _ in sim.fmt.course(n)]
        named = declared[:1] if not label else [s for s in declared if s.name in names]
        found += [stage for stage in named if stage not in found]
    return tuple(found)


def check_extra_declared(sim: Sim, plan: RoundPlan) -> None:
    """A play-off only where /rules declares one: an extra round plays on the stage of the
    round before it (the last that was not an extra one), at the tables that seated its
    players, and each such stage's declared chain names the extra game
    (docs/rules/tiebreaks.md#playoffs)."""
    if plan.stage != "extra":
        return
    before = next(rec for rec in reversed(sim.state.rounds) if rec.plan.stage != "extra")
    seated = {p for t in plan.tables for p in t.players}
    tables = [t for t in before.plan.tables if seated & set(t.players)]
    owners = [stage for t in tables for stage in stages_of(sim, before.plan, t)]
    if not owners:
        raise Broken("playoff-undeclared", f"{plan} after {before.plan.stage!r}: no stage")
    for stage in owners:
        if "extra" not in stage.tiebreaks:
            raise Broken(
                "playoff-undeclared",
                f"an extra round in {stage.name} (after {before.plan.stage!r}), "
                f"whose chain {stage.tiebreaks} has none",
            )


def check_round(sim: Sim, rec: RoundRecord) -> None:
    """After a round: every table has a result (the random organiser settles all)."""
    if len(rec.results) != len(rec.plan.tables):
        raise Broken("unresolved-table", f"round {rec.number}")


def check_step(sim: Sim) -> None:
    """After every table's result (and right after a draw): the board (``engine.board``,
    what every surface shows) says only what the history already holds."""
    state = sim.state
    with chains_ranked() as ranked_now:  # built once: the flip check reads it too
        _, rows = ranked(sim.fmt, state, over=False)
        b = read_model.build(sim.fmt, state, rows, over=False)
    last = state.rounds[-1]
    settled = {r.table.number: r for r in last.results if r.status is not TableStatus.PENDING}
    open_at = {p: t.number for t in last.plan.tables if t.number not in settled for p in t.players}
    drawn = any(n in FLIP_NOTES for rec in state.rounds for n in rec.plan.notes)
    limit = reachable(sim)  # once a step: it adds up every score of the event
    for e in b.entries:
        if e.status is Status.OUT:
            # not tied, only filling a play-off's table (积分晋级: the tied play with it)
            filling = last.plan.stage == "extra" and e.player not in b.playoff
            if e.player in open_at and not filling:
                raise Broken("out-before-losing", f"{e.player} out, table {open_at[e.player]} open")
            sim.shown_out.add(e.player)
        if e.status is Status.THROUGH and e.player in open_at:
            raise Broken("through-before-settled", f"{e.player} at table {open_at[e.player]}")
        if "flip" in e.decided and not (drawn or drawn_at_a_cut(rows, e.player)):
            raise Broken("flip-not-drawn", f"{e.player} placed by a flip nobody drew")
        if e.stage in ("through", "out", "waiting") and e.stage_round < 1:
            raise Broken("round-zero", f"{e.player}: {e.stage} in round {e.stage_round}")
        if e.figure is not None and abs(e.figure) > limit:
            raise Broken("figure-beyond-results", f"{e.player}: {e.figure_code} {e.figure}")
        if e.status is Status.PLAYOFF and e.player not in b.playoff:
            raise Broken("playoff-not-tied", f"{e.player} in a play-off nobody is tied for")
    check_units(b.entries)
    check_tied(sim, b.playoff)
    check_named(sim, b, ranked_now)


def reachable(sim: Sim) -> Decimal:
    """The largest figure results can produce: a stage's base score (积分晋级), every score
    and penalty of the event added up, and ten a round (wins, matches, games counted)."""
    state = sim.state
    base = sim.fmt.options.get("base", 0)
    scores = sum(
        (abs(s) for rec in state.rounds for res in rec.results for s in res.scores), Decimal(0)
    )
    fines = sum((abs(p.points) for p in state.penalties), Decimal(0))
    return Decimal(base if isinstance(base, int) else 0) + scores + fines + len(state.rounds) * 10


def check_units(entries: Sequence[Entry]) -> None:
    """Partners and team members stand on one place, and all of a unit's lines say the same
    of it: the place, whether it is shared, and the tie-break that placed the unit."""
    places: dict[int, set[tuple[int, bool, tuple[str, ...]]]] = {}
    for e in entries:
        if e.unit:
            places.setdefault(e.unit, set()).add((e.place, e.shared, e.decided))
    split = {unit: sorted(got) for unit, got in places.items() if len(got) > 1}
    if split:
        raise Broken("unit-split", str(split))


# --- the tie-breaks named (docs/rules/tiebreaks.md) ---------------------------------------
# Codes of the chain's card flip: drawn for the final ranking, or at a final table whose tie
# no extra game can settle (``final-flip``). Each is named only where a chain declares it.
FLIP_CODES = frozenset({"flip", "final-flip"})
# A ranking a format made: its lines, each player's keys, and each player's index in it.
Ranking = tuple[tuple[Standing, ...], dict[PlayerId, tuple[chains.Key, ...]], dict[PlayerId, int]]


@contextmanager
def chains_ranked() -> Iterator[list[Ranking]]:
    """Every ranking the formats make while inside, each with the chain of keys it sorted
    (``engine.standings.rank``): what a named tie-break is checked against. Standings carry
    only the name; a format's keys exist only on the way to ``rank``."""
    real = chains.rank
    got: list[Ranking] = []

    def keeping(lines: Iterable[chains.Line]) -> tuple[Standing, ...]:
        given = list(lines)
        out = real(given)
        at = {s.player: i for i, s in enumerate(out)}
        got.append((out, {line.player: line.keys for line in given}, at))
        return out

    name = real.__name__  # each format module holds its own reference to it
    users = [
        m for n, m in sys.modules.items() if n.startswith("engine.") and vars(m).get(name) is real
    ]
    for module in users:
        setattr(module, name, keeping)
    try:
        yield got
    finally:
        for module in users:
            setattr(module, name, real)


def declared(fmt: Format, players: int) -> frozenset[str]:
    """The codes /rules names for an event of ``players``: the format's ranking chain, the
    team table's, and the chain of every stage its course declares."""
    codes = {*fmt.tiebreaks, *fmt.team_tiebreaks}
    for stage, _ in fmt.course(players):
        codes.update(stage.tiebreaks)
    return frozenset(codes)


def below_of(entries: Sequence[Entry], i: int, by_group: bool) -> Entry | None:
    """The line a tie-break on ``entries[i]`` stands against: the next unit's first line
    (in the same group while the groups play)."""
    e = entries[i]
    below = next((x for x in entries[i + 1 :] if not (e.unit and x.unit == e.unit)), None)
    return None if below is None or (by_group and below.group != e.group) else below


def split_by(rankings: Sequence[Ranking], upper: Entry, lower: Entry) -> list[str]:
    """In every ranking where ``lower``'s unit comes right below ``upper``'s, the code of the
    first key the two differ in ("" when the whole chain is level)."""
    found = []
    for out, keys, at in rankings:
        j = at.get(upper.player, len(out)) + 1
        while j < len(out) and upper.unit and out[j].unit == upper.unit:
            j += 1
        if j >= len(out):
            continue
        other = out[j]
        if not (other.player == lower.player or (lower.unit and other.unit == lower.unit)):
            continue
        pairs = zip(keys[upper.player], keys[other.player], strict=False)
        found.append(next((c for (c, v), (_, w) in pairs if v != w), ""))
    return found


# The stages (``stages_of``) each player sat (or had a bye) in so far.
Steps = dict[PlayerId, set[tuple[Stage, ...]]]


def steps_played(sim: Sim) -> Steps:
    """Each player's stages so far (an extra round plays on the stage before it); worked
    out once for the same plans (and field), not again after each table's result."""
    plans = tuple(rec.plan for rec in sim.state.rounds)
    entered = len(sim.state.players)
    cached = sim.steps_cache
    if (
        cached is not None
        and cached[1] == entered
        and len(cached[0]) == len(plans)
        and all(a is b for a, b in zip(cached[0], plans, strict=True))
    ):
        return cached[2]
    out = worked_out_steps(sim)
    sim.steps_cache = (plans, entered, out)
    return out


def worked_out_steps(sim: Sim) -> Steps:
    out: Steps = {}
    for rec in sim.state.rounds:
        plan = rec.plan
        if plan.stage == "extra" or not plan.tables:
            continue
        seats = [(t, t.players) for t in plan.tables] + [(plan.tables[0], plan.byes)]
        for table, players in seats:
            step = stages_of(sim, plan, table)
            for p in players:
                out.setdefault(p, set()).add(step)
    return out


def across_stages(sim: Sim) -> frozenset[str]:
    """Codes that order lines across stages (who went out, how far they got, the place in
    a group, the match for third): the format's chain codes no declared stage names."""
    entered = len(sim.state.players)
    if entered not in sim.across_cache:
        courses = (sim.fmt.course(n) for n in fields(sim))
        inside = {c for course in courses for stage, _ in course for c in stage.tiebreaks}
        overall = {*sim.fmt.tiebreaks, *sim.fmt.team_tiebreaks}
        sim.across_cache[entered] = frozenset(ACROSS) | frozenset(overall - inside)
    return sim.across_cache[entered]


def shared_stages(steps: Steps, upper: PlayerId, lower: PlayerId) -> set[tuple[Stage, ...]]:
    """The stages both lines played: the last of them is where they parted, the ones before
    it are those a ranking may fall back to (the groups' chain after the place in the group,
    docs/rules/groups.md#ranking). Empty while one of them has played nothing."""
    return steps.get(upper, set()) & steps.get(lower, set())


def check_named(sim: Sim, b: Board, rankings: Sequence[Ranking]) -> None:
    """Every tie-break a line names is one the rules in force declare, and it did separate
    the line from the one below: the two differ in it and are level in every key before it
    in the chain that ranked them (where that ranking put them next to each other); and it
    is declared by a stage both lines played (where they parted or before), or orders lines
    across stages."""
    allowed = declared(sim.fmt, len(sim.state.players))
    steps = steps_played(sim)
    across = across_stages(sim)
    for i, e in enumerate(b.entries):
        if not e.decided:
            continue
        undeclared = [c for c in e.decided if c not in allowed]
        if undeclared:
            raise Broken(
                "tiebreak-undeclared", f"{e.player}: {undeclared} not in {sorted(allowed)}"
            )
        below = below_of(b.entries, i, b.by_group)
        if below is None:
            raise Broken("tiebreak-nothing-below", f"{e.player}: {e.decided}")
        found = split_by(rankings, e, below)
        if found and any(c not in found for c in e.decided):
            raise Broken(
                "tiebreak-not-separating",
                f"{e.player} over {below.player} by {e.decided}; the chain splits them by {found}",
            )
        shared = shared_stages(steps, e.player, below.player)
        chain = {c for step in shared for stage in step for c in stage.tiebreaks} | across
        if shared and any(c not in chain for c in e.decided):
            names = sorted({stage.name for step in shared for stage in step})
            raise Broken(
                "tiebreak-not-of-stage",
                f"{e.player} over {below.player} by {e.decided}; both played {names}: {chain}",
            )
    check_robin_named(sim, b.entries)


def check_played_off(sim: Sim, b: Board, rankings: Sequence[Ranking]) -> None:
    """What /rules says is what happens at the top: where the stage that crowned declares a
    play-off (``extra``) before the flip, a title named by a flip between two units level on
    everything before it was played off first (an extra round seating both), unless no
    extra game could part them (partners at their last table together; someone gone, or a
    forfeit, at the tables of their last round; a bye in it, too few to fill a table
    alone), or more than two were level
    (docs/rules/pairs.md#final-ties, docs/rules/knockout.md#final-ties)."""
    top = b.entries[0] if b.entries else None
    if top is None or not set(top.decided) & FLIP_CODES or not plays_off_title(sim):
        return
    below = below_of(b.entries, 0, b.by_group)
    assert below is not None  # a named tie-break has a line below (``check_named``)
    keys = next((k for _, k, _ in rankings if top.player in k and below.player in k), None)
    if keys is None:
        return

    def before_flip(p: PlayerId) -> tuple[Decimal, ...]:
        return tuple(v for c, v in keys[p] if c not in FLIP_CODES)

    units = {(e.unit or -e.player): e.player for e in b.entries if e.player in keys}
    level = [p for p in units.values() if before_flip(p) == before_flip(top.player)]
    pair = {top.player, below.player}
    state = sim.state
    met = [t.players for rec in state.rounds for t in rec.plan.tables if pair <= set(t.players)]
    partners = bool(met) and any(pair <= set(side) for side in sim.fmt.sides(met[-1]))
    last = max(
        (r.number for r in state.rounds for t in r.plan.tables if pair & set(t.players)), default=1
    )
    tables = [res for rec in state.rounds[last - 1 :] for res in rec.results]
    seated = {p for res in tables if pair & set(res.table.players) for p in res.table.players}
    forfeits = any(res.forfeited for res in tables if pair & set(res.table.players))
    # on a bye in the last round either played, too few to fill a table alone: no table
    # of theirs to play again, so no extra game can seat them (docs/rules/tiebreaks.md#playoffs)
    there = [
        r
        for r in state.rounds
        if pair & {*r.plan.byes, *(p for t in r.plan.tables for p in t.players)}
    ]
    unseatable = bool(there) and pair <= set(there[-1].plan.byes) and len(pair) < min(sim.fmt.sizes)
    if len(level) != 2 or partners or seated & state.removed or forfeits or unseatable:
        return
    unit_of = {e.player: e.unit or -e.player for e in b.entries}
    both = {unit_of[p] for p in pair}
    played = any(
        both <= {unit_of[p] for p in t.players}
        for rec in state.rounds
        if rec.plan.stage == "extra"
        for t in rec.plan.tables
    )
    if not played:
        raise Broken("flip-not-played-off", f"{top.player} over {below.player} by {top.decided}")


def plays_off_title(sim: Sim) -> bool:
    """Whether the stage that crowned the champion (the one its last round that was not an
    extra one played at its first table) declares an extra game before the flip."""
    crowned = next((r for r in reversed(sim.state.rounds) if r.plan.stage != "extra"), None)
    if crowned is None or not crowned.plan.tables:
        return False
    for stage in stages_of(sim, crowned.plan, crowned.plan.tables[0]):
        chain = stage.tiebreaks
        flip_at = next((i for i, c in enumerate(chain) if c in FLIP_CODES), len(chain))
        if "extra" in chain[:flip_at]:
            return True
    return False


def check_robin_named(sim: Sim, entries: Sequence[Entry]) -> None:
    """The last three's round robin names its criteria as its results make them, counted
    here from the results alone (docs/rules/bracket.md#last-three): matches won (a level
    match won by neither, a forfeit lost), then game points (a drawn game ½)."""
    robin = [rec for rec in sim.state.rounds if rec.plan.stage == "robin"]
    seated = {p for rec in robin for t in rec.plan.tables for p in t.players}
    if not robin or seated & sim.state.removed:
        return  # a match against a removed player is a walkover nobody played
    wins: dict[PlayerId, Decimal] = {p: Decimal(0) for p in seated}
    games: dict[PlayerId, Decimal] = {p: Decimal(0) for p in seated}
    for rec in robin:
        for res in rec.results:
            (a, b), got = res.table.players, res.scores
            if res.status is TableStatus.CONFIRMED:
                games[a], games[b] = games[a] + got[0], games[b] + got[1]
                if got[0] != got[1]:
                    winner = a if got[0] > got[1] else b
                    wins[winner] += 1
            elif res.status is TableStatus.FORFEIT and len(res.forfeited) == 1:
                (winner,) = {a, b} - res.forfeited
                wins[winner] += 1
    for e, below in itertools.pairwise(entries):
        if not (e.player in seated and below.player in seated):
            continue
        level_wins = wins[e.player] == wins[below.player]
        if "robin-wins" in e.decided and level_wins:
            raise Broken("tiebreak-not-separating", f"{e.player} over {below.player}: wins {wins}")
        if "robin-points" in e.decided and (
            not level_wins or games[e.player] == games[below.player]
        ):
            raise Broken("tiebreak-not-separating", f"{e.player} over {below.player}: {games}")


FLIP_NOTES = frozenset({"tiebreak-flip", "final-flip"})


def drawn_at_a_cut(rows: Sequence[Standing], player: PlayerId) -> bool:
    """Whether the flip that placed ``player`` was drawn at a cut already (a tie for a
    place going on, settled the moment its table was in), not the ranking's closing lot
    that only the end of the event draws (``rows``: the standings the board was built from)."""
    return not next(s for s in rows if s.player == player).lot


def check_tied(sim: Sim, tied: Sequence[PlayerId]) -> None:
    """A play-off's list (what the chat is told is tied) holds only players level at
    the table that left them tied (their last settled one); in the pairs' final, level
    on the points of all its rounds (docs/rules/pairs.md#final-ties: its wins and points
    decide before the play-off)."""
    if not tied:
        return
    scores: dict[PlayerId, Decimal] = {}
    table_of: dict[PlayerId, int] = {}
    for rec in sim.state.rounds:
        final = sim.fmt.key == "pairs" and rec.plan.stage == "final"
        for res in rec.results:
            if res.status is TableStatus.PENDING:
                continue
            # a forfeit leaves those who stayed level (nothing scored)
            got = res.scores or tuple(Decimal(0) for _ in res.table.players)
            if sim.fmt.sits_in_pairs and len(got) == 4:  # a pair is level on its sum
                got = (got[0] + got[2], got[1] + got[3]) * 2
            for p, s in zip(res.table.players, got, strict=True):
                if p in tied and final:  # the final's rounds add up
                    scores[p] = (scores[p] if table_of.get(p) == 0 else Decimal(0)) + s
                    table_of[p] = 0
                elif p in tied:
                    scores[p], table_of[p] = s, rec.number * 1000 + res.table.number
    by_table: dict[int, set[Decimal]] = {}
    for p in tied:
        by_table.setdefault(table_of.get(p, 0), set()).add(scores.get(p, Decimal(0)))
    if any(len(level) > 1 for level in by_table.values()):
        raise Broken("tied-list-not-tied", f"{sorted(tied)}: {scores}")


def check_went_on(sim: Sim, plan: RoundPlan) -> None:
    """Nobody shown out during the last round goes on in the next: they had not lost.
    (A lucky loser did lose, and is called back; a play-off seats only the tied as
    contenders, whom the board names.)"""
    shown, sim.shown_out = sim.shown_out, set()
    if "lucky-loser" in plan.notes:
        return
    if plan.stage == "extra":
        going = set(notice(sim.fmt, sim.state, plan))
        check_tied(sim, tuple(going))  # the play-off notice names the tied only
    else:  # the semi-final losers' match for third (table 2) is no going on
        contest = plan.tables[:1] if "third-place" in plan.notes else plan.tables
        going = {p for t in contest for p in t.players} | set(plan.byes)
    if going & shown:
        raise Broken("out-before-losing", f"{sorted(going & shown)} shown out, then went on")


def check_finished(sim: Sim, done: Finished) -> None:
    """At the end: every table settled, one champion who is the unit that won the last
    decisive table, and every ranking line's figure in agreement with its place."""
    state = sim.state
    for rec in state.rounds:
        settled = {r.table.number for r in rec.results if r.status is not TableStatus.PENDING}
        if any(t.number not in settled for t in rec.plan.tables):
            raise Broken("unresolved-table", f"round {rec.number}")
    if not done.ranking:
        raise Broken("no-ranking", "")
    check_figures(done.ranking)
    champion = sim.fmt.champion(state, done)
    alive = {s.player for s in done.ranking if s.alive}
    if sim.fmt.eliminates and alive and alive != set(champion):
        raise Broken("champions", f"alive {sorted(alive)} vs champion {champion}")
    if sim.fmt.has_team_table:  # the individual table ranks people; a team wins
        top = sim.fmt.team_standings(state)[0]
        if set(champion) != set(top.members):
            raise Broken("champion-not-team", f"{champion} vs team {top.members}")
        check_final_names(sim)
        return
    if done.ranking[0].player not in champion:
        raise Broken("champion-not-first", f"{done.ranking[0].player} vs {champion}")
    places = {s.player: s.rank for s in done.ranking}
    firsts = {p for p, place in places.items() if place == 1}
    if any(places[p] != 1 for p in champion) or firsts != set(champion):
        raise Broken("champion-unit-split", f"champion {champion}, first {sorted(firsts)}")
    if sim.fmt.eliminates:
        check_last_table(sim, champion)
        check_final_played(sim)
        check_title_named(sim, done.ranking)
    check_robin_chain(done.ranking)
    check_robin_meetings(sim, done.ranking)
    check_third_place(sim, done.ranking)
    check_final_names(sim)


def check_final_names(sim: Sim) -> None:
    """The tie-breaks the end announcement names (``check_named``, ``check_played_off``),
    ranked afresh: a format keeps the replay of the state it planned from, so an equal
    state object is replayed again for its chains to be seen."""
    state = sim.state
    with chains_ranked() as ranked_now:
        _, rows = ranked(sim.fmt, replace(state), over=True)
        final_board = read_model.build(sim.fmt, state, rows, over=True)
    check_named(sim, final_board, ranked_now)
    check_played_off(sim, final_board, ranked_now)


def check_final_played(sim: Sim) -> None:
    """Every stage the rules announce is played: an elimination event played
    without forfeits or withdrawals reaches its final (or the last three's round robin)
    rather than ending after the groups; forfeits may leave nobody to play it."""
    state = sim.state
    forfeits = any(r.status is TableStatus.FORFEIT for rec in state.rounds for r in rec.results)
    if forfeits or state.removed or len(state.players) < 2:
        return
    if not any(r.plan.stage in ("final", "robin") for r in state.rounds):
        stages = [r.plan.stage for r in state.rounds]
        raise Broken("announced-stage-skipped", f"no final: {stages}")


def check_title_named(sim: Sim, ranking: Sequence[Standing]) -> None:
    """A title won on the same figure as the runner-up's says what decided it (an extra
    hand, a flip, a criterion of the chain), not only a level above the rest that no line
    shows; a walkover (forfeits, withdrawals) may stand a level above."""
    state = sim.state
    forfeits = any(r.status is TableStatus.FORFEIT for rec in state.rounds for r in rec.results)
    top = ranking[0]
    below = next((s for s in ranking[1:] if not (s.unit and s.unit == top.unit)), None)
    if forfeits or state.removed or below is None or top.figure is None:
        return
    said = [c for c in top.tiebreak if c not in chains.STAGE_CODES or c == "flip"]
    same = (top.figure, top.figure_code) == (below.figure, below.figure_code)
    if same and not said and top.stage == "champion":
        raise Broken("title-unnamed", f"{top.player} over {below.player} by {top.tiebreak}")


def check_third_place(sim: Sim, ranking: Sequence[Standing]) -> None:
    """A third-place match (knob ``third``) places its two players (pairs: both partners
    on their pair's place) right below the final's (3rd and 4th, or higher when a
    finalist left), next to each other, unless one of them left the event."""
    rec = next((r for r in sim.state.rounds if "third-place" in r.plan.notes), None)
    if rec is None or set(rec.plan.tables[1].players) & sim.state.removed:
        return
    final, pair = set(rec.plan.tables[0].players), rec.plan.tables[1].players
    places = {s.player: s.rank for s in ranking}
    upper, lower = sorted({places[p] for p in pair})
    above = {p for p, place in places.items() if place < upper}
    if lower != upper + 1 or not above <= final:
        raise Broken("third-place-ignored", f"{sorted(pair)} placed {places}")


def check_robin_chain(ranking: Sequence[Standing]) -> None:
    """The last three's round robin is settled by its own chain (docs/rules/bracket.md#last-three:
    胜场 → 胜局, then who beat whom, then the flip), never by a score from an earlier round."""
    for upper, lower in itertools.pairwise(ranking):
        own = {"robin-wins", "robin-points", "head-to-head", "flip"}
        if upper.stage == lower.stage == "robin" and set(upper.tiebreak) - own:
            raise Broken("robin-chain", f"{upper.player} placed by {upper.tiebreak}")


def check_robin_meetings(sim: Sim, ranking: Sequence[Standing]) -> None:
    """In the last three's round robin a flip never places a player over one who beat
    them (who beat whom comes first, then the flip)."""
    won: dict[tuple[PlayerId, PlayerId], Decimal] = {}
    for rec in sim.state.rounds:
        if rec.plan.stage != "robin":
            continue
        for res in rec.results:
            if res.status is TableStatus.CONFIRMED:
                (a, b), (x, y) = res.table.players, res.scores
                won[a, b], won[b, a] = x - y, y - x
    robin = [s for s in ranking if s.stage == "robin"]
    level = [s.tiebreak in (("head-to-head",), ("flip",)) for s in robin[:-1]]
    if sum(level) != 1:  # all three level: a cycle of wins, which only a flip can split
        return
    i = level.index(True)
    upper, lower = robin[i], robin[i + 1]
    if upper.tiebreak == ("flip",) and won.get((lower.player, upper.player), Decimal(0)) > 0:
        raise Broken("flip-over-head-to-head", f"{upper.player} over {lower.player}")


def check_figures(ranking: Sequence[Standing]) -> None:
    """Within one stage reached, the figure shown never rises going down the ranking."""
    for upper, lower in itertools.pairwise(ranking):
        if (upper.stage, upper.stage_round) != (lower.stage, lower.stage_round):
            continue
        if upper.rank == lower.rank:  # one shared place: the figures order nothing
            continue
        if upper.figure is not None and lower.figure is not None and lower.figure > upper.figure:
            raise Broken(
                "figure-contradicts-place",
                f"{upper.rank}. {upper.figure} above {lower.rank}. {lower.figure}",
            )


def check_last_table(sim: Sim, champion: Sequence[PlayerId]) -> None:
    """The champion topped the final (a walkover when the others there forfeited); a tie
    at the top of the final was played off in an extra game, or flipped only where no
    table the game allows can seat it (docs/rules/knockout.md#final-ties)."""
    state = sim.state
    finals = [r for r in state.rounds if r.plan.stage == "final"]
    if not finals or sim.fmt.key == "pairs":
        return  # a round robin of the last three, or the pairs' final of several rounds
    final = finals[-1]
    res = next((r for r in final.results if set(champion) & set(r.table.players)), None)
    if res is None:
        raise Broken("champion-not-in-final", f"{champion} vs {final.plan.tables}")
    if res.status is not TableStatus.CONFIRMED:
        return
    seats = res.table.players
    live = [i for i, p in enumerate(seats) if p not in state.removed]
    got = carried(sim, final.number) if sim.fmt.options.get("base") == 0 else {}
    final_scores = [got.get(p, Decimal(0)) + s for p, s in zip(seats, res.scores, strict=True)]
    mine = max(final_scores[i] for i, p in enumerate(seats) if p in champion)
    best = max(final_scores[i] for i in live)
    if mine < best:
        raise Broken("champion-lost-final", f"round {final.number}: {res}")
    tied = [seats[i] for i in live if final_scores[i] == best]
    if len(tied) < 2 or sim.fmt.key == "stages":
        return  # a tie in the final's score goes to the previous stage first
    sides = [{seats[i] for i in side} for side in sim.game.partners] if len(seats) == 4 else []
    later = [r for r in state.rounds if r.number > final.number and r.plan.stage == "extra"]
    # docs/rules/knockout.md#final-ties, read independently of the engine: the tied play it off
    # alone when the game seats that many, else with the whole (still complete) final table; only
    # partners, whom no game can part, or a table that cannot be seated go to a flip
    sizes = sim.fmt.sizes
    partners = any(set(tied) <= side for side in sides)
    unseatable = partners or (len(tied) not in sizes and len(live) not in sizes)
    if not later and not unseatable:
        raise Broken("final-tie-not-played", f"round {final.number}: {res}")


def carried(sim: Sim, before: int) -> dict[PlayerId, Decimal]:
    """积分晋级 with ``base=0``: each player's score carried into round ``before``, every
    stage's hands added up (extra hands only order a tie; docs/rules/stages.md#base)."""
    out: dict[PlayerId, Decimal] = {}
    for rec in sim.state.rounds[: before - 1]:
        if rec.plan.stage == "extra":
            continue
        for res in rec.results:
            for p, s in zip(res.table.players, res.scores, strict=False):
                out[p] = out.get(p, Decimal(0)) + s
    return out


def play(fmt: Format, players: int, seed: int, **kw: object) -> Finished | None:
    """Play one event; ``None`` when the format refuses the field (too few, odd pairs)."""
    sim = Sim(fmt, players, seed, **kw)  # type: ignore[arg-type]
    try:
        return sim.run()
    except FormatError:
        if sim.state.rounds:
            raise
        return None


# --- people coming and going (docs/rules/people.md) ---------------------------------------
@dataclass
class PeopleSim(Sim):
    """An event where people come and go between rounds, beside the withdrawals: random
    drop-outs (kept in the standings, marked with their round), late entrants where the
    format takes them (``Format.late_entry``), and two pairs kept apart from the start.
    After every round it checks who sat: nobody dropped, everyone else in (a bye counts),
    and no pair kept apart at one table unless the plan says no seating could."""

    drops: float = 0.25
    lates: float = 0.25

    def __post_init__(self) -> None:
        super().__post_init__()
        players = list(self.state.players)
        self.rng.shuffle(players)
        pairs = tuple(zip(players[:2], players[2:4], strict=True)) if len(players) >= 6 else ()
        self.state = replace(self.state, apart=pairs)
        self.expected = self.in_draw()
        self.points_when_dropped: dict[PlayerId, Decimal] = {}

    def in_draw(self) -> set[PlayerId]:
        """Who the next draw must seat or give a bye (a format that eliminates decides
        that itself; only Swiss-style events seat everyone still in)."""
        out = self.fmt.disciplined(self.state).removed
        return {p for p in self.state.players if p not in out}

    def withdraw(self) -> None:
        check_people(self, self.state.rounds[-1])
        super().withdraw()
        number = len(self.state.rounds)
        active = [p for p in self.state.players if p not in self.state.removed]
        if len(active) > 2 and self.rng.random() < self.drops:
            who = self.rng.choice(active)
            standing = {s.player: s.points for s in self.fmt.standings(self.state)}
            self.points_when_dropped[who] = standing[who]
            dropped = {**self.state.dropped, who: number}
            self.state = replace(self.state, removed=self.state.removed | {who}, dropped=dropped)
        if self.fmt.late_entry is not None and self.rng.random() < self.lates:
            new = max(self.state.players) + 1
            entered = {**self.state.entered, new: number + 1}
            self.state = replace(self.state, players=(*self.state.players, new), entered=entered)
        self.expected = self.in_draw()
        self.shown_out = set()


def check_people(sim: PeopleSim, rec: RoundRecord) -> None:
    plan = rec.plan
    seated = {p for t in plan.tables for p in t.players}
    went = seated | set(plan.byes)
    gone = went & set(sim.state.dropped)
    if any(sim.state.dropped[p] < rec.number for p in gone):
        raise Broken("dropped-drawn", f"round {rec.number}: {sorted(gone)}")
    if sim.fmt.key == "swiss" and went != sim.expected:
        raise Broken("late-or-active-not-drawn", f"{sorted(sim.expected - went)}")
    # a play-off seats the tied, whoever they are: no other seating exists
    if sim.fmt.keeps_apart and plan.stage != "extra" and "apart-impossible" not in plan.notes:
        for t in plan.tables:
            for a, b in sim.state.apart:
                if a in t.players and b in t.players:
                    raise Broken("apart-together", f"round {rec.number}: {a}, {b} at {t}")
    standing = {s.player: s for s in sim.fmt.standings(sim.state)}
    for p, points in sim.points_when_dropped.items():
        if sim.fmt.key == "swiss" and standing[p].points != points:
            raise Broken("dropped-points-changed", f"{p}: {points} → {standing[p].points}")


def play_people(fmt: Format, players: int, seed: int) -> TournamentState | None:
    """Play one event with people coming and going: the state it ended in (``None`` when
    the format refuses the field)."""
    sim = PeopleSim(fmt, players, seed)
    try:
        done = sim.run()
    except FormatError:
        if sim.state.rounds:
            raise
        return None
    lines = {s.player for s in done.ranking}
    if not set(sim.state.dropped) <= lines:
        raise Broken("dropped-not-ranked", f"{sorted(set(sim.state.dropped) - lines)}")
    return sim.state
