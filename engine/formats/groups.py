"""Groups then playoffs 小组循环 (docs/rules/groups.md). Stored labels: ``group<k>`` (round k
of the schedule), ``playoff``, ``extra``, ``final``; draw streams ``groups``, ``group<letter>``."""

from __future__ import annotations

import math
from collections import Counter, defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import accumulate, pairwise
from operator import is_
from typing import NamedTuple

from engine.draw import shuffled, stream
from engine.errors import ConfigError
from engine.formats.base import AnyGame, Format, GroupPlace, LastReplay
from engine.formats.elimination import (
    LOW,
    THIRD_NOTE,
    BracketRound,
    FinalTable,
    Ladder,
    final_round,
    replay_round,
    still_in_at,
    tree,
)
from engine.formats.series import SERIES_NOTES, series_note
from engine.formats.stage import GROUP_CHAIN, Goes, Kind, Length, Stage, match_length, within
from engine.games.base import Knob
from engine.model import (
    Finished,
    Penalty,
    PlayerId,
    RoundPlan,
    RoundRecord,
    Standing,
    Table,
    TableStatus,
    TournamentState,
)
from engine.seating import balance_seats, mix, partition, pick_byes
from engine.standings import (
    NO_FIGURE,
    Key,
    Line,
    flips,
    net_scores,
    penalties_by_round,
    rank,
    totals,
)

LETTERS = "ABCDEFGH"
BEST_OF = ("1", "3", "5", "7")
GROUP_EFFORT = 300  # a group is small: a few hundred swaps find its best seating
Slot = tuple[tuple[tuple[PlayerId, ...], ...], tuple[PlayerId, ...]]  # tables, byes


def unsettled(rec: RoundRecord) -> bool:
    """Whether a table of ``rec`` has no result yet."""
    done = {r.table.number for r in rec.results if r.status is not TableStatus.PENDING}
    return any(t.number not in done for t in rec.plan.tables)


def entrants(
    state: TournamentState, first: RoundRecord | None, before: list[PlayerId]
) -> list[PlayerId]:
    """Who a groups stage's ``first`` round dealt into groups, by sign-up (else ``before``)."""
    if first is None:
        return before
    there = {p for t in first.plan.tables for p in t.players} | set(first.plan.byes)
    return [p for p in state.players if p in there]


def even_fit(players: int, groups: int, allowed: Sequence[int]) -> list[int] | None:
    """``groups`` sizes from ``allowed`` summing to ``players``, the least spread, largest first."""
    ok = set(allowed)
    middle = players // groups
    for spread in range(players + 1):
        for low in range(max(1, middle - spread), middle + 1):
            window = [k for k in range(low + spread, low - 1, -1) if k in ok]
            found = _sum_to(players, groups, window)
            if found is not None:
                return sorted(found, reverse=True)
        if middle - spread < 1 and middle + spread > players:
            break
    return None


def _sum_to(total: int, count: int, values: Sequence[int]) -> list[int] | None:
    """``count`` of ``values`` (repeats allowed) adding up to ``total``, or ``None``."""
    reach: dict[int, list[int]] = {0: []}
    for _ in range(count):
        reach = {s + v: [*got, v] for s, got in reach.items() for v in values if s + v <= total}
    return reach.get(total)


def _beat(
    p: PlayerId, q: PlayerId, net: Mapping[PlayerId, Decimal], forfeited: frozenset[PlayerId]
) -> Decimal:
    """What ``p`` takes from meeting ``q`` at a table (head-to-head): a higher score 1, an
    equal one ½, a forfeit by ``q`` 1; nothing from a lower score or a table without any."""
    if q in forfeited:
        return Decimal(1)
    if not net or net[p] < net[q]:
        return Decimal(0)
    return Decimal(1) if net[p] > net[q] else Decimal("0.5")


def circle(players: Sequence[PlayerId]) -> list[Slot]:
    """Round robin by the circle method, seat A alternating by round
    (docs/rules/two-player.md#first-move)."""
    ring: list[PlayerId | None] = [*players, None] if len(players) % 2 else list(players)
    out: list[Slot] = []
    for r in range(len(ring) - 1):
        met = [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]
        tables = tuple(
            (a, b) if r % 2 == 0 else (b, a) for a, b in met if a is not None and b is not None
        )
        byes = tuple(p for pair in met if None in pair for p in pair if p is not None)
        out.append((tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return out


@dataclass
class GroupLine:
    """A player's group-stage record."""

    points: Decimal = Decimal(0)
    wins: Decimal = Decimal(0)
    beat: defaultdict[PlayerId, Decimal] = field(default_factory=lambda: defaultdict(Decimal))


@dataclass
class Walk:
    """A replay of ``state``: the groups, their schedules, records and places, the playoff."""

    state: TournamentState
    active: set[PlayerId]
    pens: Mapping[tuple[int, PlayerId], Decimal]
    groups: list[list[PlayerId]] = field(default_factory=list)
    schedule: list[list[Slot]] = field(default_factory=list)
    group_rounds: list[int] = field(default_factory=list)  # schedule indexes played
    record: dict[PlayerId, GroupLine] = field(default_factory=dict)
    place: dict[PlayerId, int] = field(default_factory=dict)
    group_keys: dict[PlayerId, tuple[tuple[str, Decimal], ...]] = field(default_factory=dict)
    group_rank: dict[PlayerId, Standing] = field(default_factory=dict)  # in the group
    ladder: Ladder = field(default_factory=Ladder)
    final: tuple[PlayerId, ...] = ()  # tables of 3–4: the final's players
    final_net: dict[PlayerId, Decimal] = field(default_factory=dict)  # what they scored there
    table: FinalTable = field(default_factory=lambda: FinalTable(()))  # tables of 3–4

    def by_place(self) -> list[list[PlayerId]]:
        """Each group's players still in, by group place."""
        return [
            sorted((p for p in g if p in self.active), key=self.place.__getitem__)
            for g in self.groups
        ]

    def goers(self, k: int | None = None) -> list[PlayerId]:
        """The top ``k`` of each group: winners, then seconds…, each by the first two criteria."""
        return sorted(
            (p for g in self.by_place() for p in g[:k]),
            key=lambda p: (self.place[p], *(-v for _, v in self.group_keys[p][:2])),
        )

    def place_keys(self, p: PlayerId) -> tuple[Key, ...]:
        """The group place and its first two criteria, never head-to-head: other groups'
        players have not met (docs/rules/groups.md#ranking). Level while the final orders."""
        keys = (("group-place", Decimal(-self.place.get(p, 99))), *self.group_keys.get(p, ())[:2])
        top = self.table.top
        if p in self.final and (not self.table.played or (len(top) > 1 and p in top)):
            return tuple((code, Decimal(0)) for code, _ in keys)
        return keys

    def figure(self, p: PlayerId) -> Key | None:
        """A figure the results made: the final table's score, else the first group criterion;
        none for a finalist yet to score the final (not the placeholder that ranks them)."""
        if p in self.final:
            return ("round-score", self.final_net[p]) if p in self.final_net else NO_FIGURE
        return self.group_keys[p][0] if p in self.group_keys else None

    def stage_of(self, p: PlayerId, still: bool, level: Decimal, grouping: bool) -> tuple[str, int]:
        """How far ``p`` got: the final, out in playoff round N, Nth of the group, or playing."""
        if p not in self.active:
            return "removed", 0
        if grouping:
            return "group", self.place.get(p, 0)
        if self.ladder.third is not None and p in self.ladder.third.players:
            return "third", 0
        last = self.ladder.rounds[-1] if self.ladder.rounds else []
        if p in self.final or ([len(m.players) for m in last] == [2] and p in last[0].players):
            return "final", 0
        if still:
            return "playing", 0
        if level:
            return "playoff", int(level)
        return "group", self.place.get(p, 0)

    def explain(self, ranked: tuple[Standing, ...]) -> tuple[Standing, ...]:
        """A place the group ranking decided against a groupmate shows the group's own reason
        (its flip, if that is it, was drawn when the groups ended)."""
        where = {p: (i, self.place[p]) for i, g in enumerate(self.groups) for p in g}
        out = list(ranked)
        for i, (s, below) in enumerate(pairwise(ranked)):
            group, place = where.get(s.player, (-1, 0))
            if s.tiebreak == ("group-place",) and where.get(below.player) == (group, place + 1):
                out[i] = replace(s, tiebreak=self.group_rank[s.player].tiebreak, lot=False)
        return tuple(out)


class Tally(NamedTuple):
    """The group records after ``rounds`` (never changed once remembered)."""

    rounds: tuple[RoundRecord, ...]
    penalties: tuple[Penalty, ...]
    groups: tuple[tuple[PlayerId, ...], ...]
    lines: dict[PlayerId, GroupLine]


def _copy(lines: Mapping[PlayerId, GroupLine]) -> dict[PlayerId, GroupLine]:
    return {p: GroupLine(g.points, g.wins, defaultdict(Decimal, g.beat)) for p, g in lines.items()}


# The final's criteria first, then the groups' (two-player games: matches won first).
FINALS = ("removed", "reached", "third-place", "round-score")
PAIR_TIEBREAKS = (*FINALS, "extra", "group-place", "wins", "points", "head-to-head", "flip")
TABLE_TIEBREAKS = (*FINALS, "extra", "final-flip", "group-place", *GROUP_CHAIN)


class Groups(Format):
    """小组循环: groups by lot, round robin inside, top 2 cross over, then the final."""

    key = "groups"
    aliases = ("groups", "小组循环", "小组赛", "分组循环", "group stage")
    has_bracket = True  # the crossover and final
    has_group_tables = True
    series_knobs = ("group_best_of", "playoff_best_of", "final_best_of")
    note_codes = ("bye", THIRD_NOTE, *SERIES_NOTES)
    knobs = (
        Knob("groups", "2", ("1", "2", "4", "8"), int),
        Knob("group_best_of", "1", BEST_OF, int),
        Knob("playoff_best_of", "5", BEST_OF, int),
        Knob("final_best_of", "7", BEST_OF, int),
        Knob("third", "off", (), bool),
    )
    eliminates = True
    tiebreaks: tuple[str, ...] = PAIR_TIEBREAKS

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        self.pairs = self.sizes[0] == 2
        if not self.pairs:  # one final table: its score, its play-off, then the groups'
            self.tiebreaks = TABLE_TIEBREAKS
        if self.options["third"] and not self.pairs:  # one final table: no semi-finals
            raise ConfigError("third-needs-semis", format=self.key)
        if not self.options["third"]:  # no match for third: the chain names none
            self.tiebreaks = tuple(c for c in self.tiebreaks if c != "third-place")
        self._schedules: dict[tuple[tuple[PlayerId, ...], str, str, int], list[Slot]] = {}
        self._groups: dict[tuple[tuple[PlayerId, ...], str], list[list[PlayerId]]] = {}
        self.walk = LastReplay(self._replay)
        self._tallies: deque[Tally] = deque(maxlen=8)  # a few events or moments; see _tally

    @property
    def rules_variant(self) -> str:
        """Tables of 3–4 play them otherwise (docs/rules/groups.md#tables-of-three-or-four)."""
        return "" if self.pairs else "tables"

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Two-player games: the groups, crossovers (then a bracket, with 4 or 8 groups), the
        match for third with ``third``, the final; tables of 3–4: the groups, one final table."""
        chain = within(self.tiebreaks)
        robin = tuple(c for c in chain if c in GROUP_CHAIN)
        match = tuple(c for c in chain[: chain.index("group-place")] if c != "third-place")
        final = Stage(Kind.FINAL, "final", Length(session=True), Goes.CHAMPION, 0, False, match)
        if not self.pairs:
            fill = Stage(Kind.GROUPS, "group", final.length, Goes.FILL, self.sizes[0], False, robin)
            return ((fill, True), (final, True))

        def length(knob: str) -> Length:
            return match_length(series_note(self.game, self.int_option(knob)))

        count = self.int_option("groups")
        playoff = Stage(
            Kind.CROSSOVER, "crossover", length("playoff_best_of"), Goes.WINNER, 1, False, match
        )
        final = replace(final, length=length("final_best_of"))
        third = Stage(Kind.THIRD, "third", final.length, Goes.PLACE, 3, False, match)
        stages = (
            Stage(Kind.GROUPS, "group", length("group_best_of"), Goes.TOP, 2, False, robin),
            *((playoff,) if count > 1 else ()),
            *((replace(playoff, kind=Kind.BRACKET, name="bracket"),) if count > 2 else ()),
            *((third,) if self.options["third"] and count > 1 else ()),
            final,
        )
        return tuple((stage, True) for stage in stages)

    # --- the draw and the schedule -----------------------------------------------------
    def draw_groups(self, state: TournamentState) -> list[list[PlayerId]]:
        """Groups by lot, dealt like cards (docs/rules/groups.md#groups-by-lot)."""
        first = state.rounds[0] if state.rounds else None
        order = shuffled(entrants(state, first, self.active(state)), stream(state.seed, "groups"))
        key = (tuple(order), state.seed)
        if key not in self._groups:
            self._groups[key] = self._deal(order, self.int_option("groups"))
        return [list(g) for g in self._groups[key]]

    def _deal(self, order: list[PlayerId], count: int) -> list[list[PlayerId]]:
        if not self.pairs:
            for g in range(count, 0, -1):
                sizes = self._group_sizes(len(order), g)
                if sizes and not self._replays(sizes):
                    return [order[a:b] for a, b in pairwise([0, *accumulate(sizes)])]
        return [order[i::count] for i in range(count)]

    def _group_sizes(self, players: int, groups: int) -> list[int] | None:
        """Sizes of ``groups`` groups of whole tables, as equal as can be; when no such sizes
        exist, usual tables dealt round (the fewest sit out); ``None``: a group below a table."""
        least = min(self.sizes)
        whole = [k for k in range(least, players + 1) if partition(k, self.sizes)[1] == 0]
        sizes = even_fit(players, groups, whole)
        if sizes is not None or players in whole:
            return sizes
        size = self.sizes[0]
        tables, rest = divmod(players, size)
        dealt = [size * (tables // groups + (i < tables % groups)) for i in range(groups)]
        dealt[-1] += rest
        return dealt if all(g >= least for g in dealt) else None

    def _rounds_for(self, sizes: Sequence[int]) -> int:
        """Rounds at tables of 3–4: as many as the largest group needs (none sits out)."""
        return max((math.ceil((g - 1) / (self.sizes[0] - 1)) for g in sizes), default=1) or 1

    def _replays(self, sizes: Sequence[int]) -> bool:
        """Whether a one-table group would replay its table round after round: not dealt."""
        rounds = self._rounds_for(sizes)
        return rounds > 1 and any(partition(g, self.sizes) == ([g], 0) for g in sizes)

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse a best-of-N nothing reads, and more groups than the final seats or ``players``
        make; the draw asks only the field (a knob idle since it was set cannot be set back)."""
        if name in self.series_knobs and not drawing:
            if not self.pairs:
                raise ConfigError("knob-unread-tables", knob=name)
            if series_note(self.game):
                raise ConfigError("knob-unread-series", knob=name)
        if name != "groups" or self.pairs:
            return
        asked, seats = self.int_option("groups"), self.sizes[0]
        if asked > seats:
            raise ConfigError("groups-beyond-final", groups=asked, seats=seats)
        if drawing or players >= asked * min(self.sizes):  # more may sign up
            got = len(self._deal(list(range(players)), asked))
            if got < asked:
                raise ConfigError("groups-too-many", groups=asked, players=players, most=got)

    def _schedule(
        self, members: Sequence[PlayerId], seed: str, letter: str, rounds: int
    ) -> list[Slot]:
        """A group's rounds: the circle, or at tables of 3–4 ``mix`` (slow: once per group)."""
        if self.pairs:
            return circle(members)
        key = (tuple(members), seed, letter, rounds)
        if key in self._schedules:
            return self._schedules[key]
        rng = stream(seed, f"group{letter}")
        history: list[list[list[PlayerId]]] = []
        had: Counter[PlayerId] = Counter()
        out: list[Slot] = []
        for _ in range(rounds or self._rounds_for([len(members)])):
            sizes, bye_count = partition(len(members), self.sizes)
            byes = pick_byes(members, bye_count, had, rng)
            had.update(byes)
            rest = [p for p in members if p not in byes]
            tables = mix(rest, sizes, history, rng, effort=GROUP_EFFORT)
            seats = balance_seats(tables, history, rng)
            history.append([list(t) for t in seats])
            out.append((tuple(seats), tuple(byes)))
        self._schedules[key] = out
        return out

    # --- history -------------------------------------------------------------------------
    def _replay(self, state: TournamentState) -> Walk:
        w = Walk(state, set(self.active(state)), penalties_by_round(state))
        w.groups, w.table = self.draw_groups(state), FinalTable(self.sizes)
        rounds = 0 if self.pairs else self._rounds_for([len(g) for g in w.groups])
        w.schedule = [
            self._schedule(g, state.seed, LETTERS[i], rounds) for i, g in enumerate(w.groups)
        ]
        in_groups = tuple(rec for rec in state.rounds if rec.plan.stage.startswith("group"))
        self._tally(w, in_groups)
        for rec, here in zip(state.rounds, still_in_at(state, w.active), strict=True):
            if rec.plan.stage.startswith("group"):
                w.group_rounds.append(int(rec.plan.stage[5:]))
            elif self.pairs:
                w.ladder.play(rec, w.pens, here)
            else:
                self._final_round(w, rec)
        self._rank_groups(w)
        return w

    def _tally(self, w: Walk, rounds: tuple[RoundRecord, ...]) -> None:
        """``w.record`` after the group ``rounds``, added on to the longest remembered tally of
        the very same round objects (identity: a score ``1.0`` must not borrow ``1``'s sums)."""
        groups, penalties = tuple(tuple(g) for g in w.groups), w.state.penalties
        start, base = 0, {p: GroupLine() for g in groups for p in g}
        for done, pen, grouped, lines in self._tallies:
            same = pen is penalties and grouped == groups and all(map(is_, done, rounds))
            if start < len(done) <= len(rounds) and same:
                start, base = len(done), lines
        w.record = _copy(base)
        for i in range(start, len(rounds)):
            self._group_round(w, rounds[i])
            if i >= len(rounds) - 2:  # all rounds, and all but the newest: it changes next
                self._tallies.append(Tally(rounds[: i + 1], penalties, groups, _copy(w.record)))

    def _group_round(self, w: Walk, rec: RoundRecord) -> None:
        """Points, tables won (shared tops share the win) and who beat whom."""
        for res in rec.results:
            players = res.table.players
            net = net_scores(rec, res, w.pens)
            stayed = [p for p in players if p not in res.forfeited]
            if res.status is TableStatus.CONFIRMED and stayed:
                best = max(net[p] for p in stayed)
                top = [p for p in stayed if net[p] == best]
            else:
                top = stayed if res.status is TableStatus.FORFEIT and res.forfeited else []
            for p in players:
                line = w.record.setdefault(p, GroupLine())
                line.points += net.get(p, Decimal(0))
                if p in top:
                    line.wins += Decimal(1) / len(top)
                if p in res.forfeited:
                    continue
                for q in (q for q in players if q != p):
                    line.beat[q] += _beat(p, q, net, res.forfeited)

    def _rank_groups(self, w: Walk) -> None:
        """Each group's places: the group chain, head-to-head among those level before it."""
        flip, active = flips(w.state, "groups-flip"), w.active
        first, second = ("wins", "points") if self.pairs else ("points", "wins")
        for members in w.groups:
            # once each: a group of 20 asks 400 times
            base = {
                p: (Decimal(p in active), getattr(w.record[p], first), getattr(w.record[p], second))
                for p in members
            }
            lines = []
            for p in members:
                tied = [q for q in members if q != p and base[q] == base[p]]
                h2h = sum((w.record[p].beat.get(q, Decimal(0)) for q in tied), Decimal(0))
                w.group_keys[p] = ((first, base[p][1]), (second, base[p][2]), ("head-to-head", h2h))
                keys = (("removed", base[p][0]), *w.group_keys[p], ("flip", flip[p]))
                lines.append(Line(p, w.record[p].points, p in active, keys))
            for s in rank(lines):
                w.place[s.player], w.group_rank[s.player] = s.rank, s

    def _final_round(self, w: Walk, rec: RoundRecord) -> None:
        """Tables of 3–4: the final table, then extra games among a tie for first (only the
        tied players' scores count, as in ``engine.formats.elimination``)."""
        table, final = rec.plan.tables[0], rec.plan.stage == "final"
        contenders = set(table.players) if final else set(w.table.top)
        if final:
            w.final, w.table.sides = table.players, self.sides(table.players)
        res = next((r for r in rec.results if r.table.number == table.number), None)
        if res is None or res.status is TableStatus.PENDING:  # not played yet: nobody tied
            return
        net = net_scores(rec, res, w.pens)
        seated = [p for p in table.players if p in w.active and p not in res.forfeited]
        players = [p for p in seated if p in contenders]
        if final:
            w.final_net = {p: net[p] for p in players if p in net}
        # below every score: a forfeit or removal; who stayed at a forfeited table scores 0, leads
        scores = {p: net.get(p, Decimal(0)) for p in players}
        for p in (p for p in table.players if p in contenders):
            key = ("round-score" if final else "extra", scores.get(p, LOW))
            w.table.keys.setdefault(p, []).append(key)
        w.table.play(seated, scores, rec.number, w.state.seed, players)

    def advancers(self, w: Walk) -> list[PlayerId]:
        """Who leaves the groups, in playoff order (docs/rules/groups.md#crossover)."""
        if not self.pairs:  # the group winners, then runners-up… until the final table is full
            return w.goers()[: self.sizes[0]]
        top2: list[list[PlayerId | None]] = [[*g[:2], None, None][:2] for g in w.by_place()]
        slots = list(top2[0]) if len(top2) == 1 else []
        for x, y in zip(top2[::2], top2[1::2], strict=False):  # A1–B2, B1–A2
            slots += [x[0], y[1], y[0], x[1]]
        return [p for p in slots if p is not None]

    # --- the contract --------------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        count = self.int_option("groups") if self.pairs else 1
        self.require_players(state, count * max(2, min(self.sizes)))
        w = self.walk(state)
        active, label = w.active, self.label(state)
        nxt = self.next_group_round(w, label)
        if nxt is not None:
            return nxt
        if not self.pairs:  # the final table (its hands, not a series), then its extra games
            notes: tuple[str, ...]
            if not w.table.played:
                players = self.advancers(w)
                size = max((s for s in self.sizes if s <= len(players)), default=0)
                seats, stage, notes = players[:size], "final", ()
            else:
                seats, stage, notes = sorted(w.table.extra_seats() or ()), "extra", ("extra-game",)
            if not seats:
                return self.finish(self.standings(state))
            table = Table(1, tuple(shuffled(seats, stream(state.seed, label))))
            return RoundPlan((table,), (), stage, label, notes)
        if ties := w.ladder.ties():
            return replay_round((m.players for m in ties), label, series_note(self.game))
        alive = w.ladder.alive(active) if w.ladder.rounds else self.advancers(w)
        if len(alive) <= 1:
            return self.finish(self.standings(state))
        if len(alive) == 2:
            best = series_note(self.game, self.int_option("final_best_of"))
            return final_round(w.ladder, alive, active, bool(self.options["third"]), label, best)
        byes = tuple(alive[len(alive) // 2 * 2 :])  # the last of an odd count
        pairs = zip(alive[::2], alive[1::2], strict=False)
        tables = tuple(Table(i + 1, pair) for i, pair in enumerate(pairs))
        best = series_note(self.game, self.int_option("playoff_best_of"))
        notes = (*best, *(("bye",) if byes else ()))
        return RoundPlan(tables, byes, "playoff", label, notes)

    def next_group_round(self, w: Walk, label: str = "") -> RoundPlan | None:
        """The next group round with someone to play (multistage plays its groups by it)."""
        for k in range(max(w.group_rounds, default=0), max(map(len, w.schedule), default=0)):
            tables: list[Table] = []
            byes: list[PlayerId] = []
            for slot_tables, slot_byes in (s[k] for s in w.schedule if k < len(s)):
                byes += [p for p in slot_byes if p in w.active]
                for seated in (tuple(p for p in t if p in w.active) for t in slot_tables):
                    if len(seated) in self.sizes:
                        tables.append(Table(len(tables) + 1, seated))
                    else:
                        byes += seated
            if tables:
                idle = w.active - {p for t in tables for p in t.players} - set(byes)
                byes += sorted(p for p in idle if p in w.record)
                best = series_note(self.game, self.int_option("group_best_of"))
                notes = (*(best if self.pairs else ()), *(("bye",) if byes else ()))
                return RoundPlan(tuple(tables), tuple(byes), f"group{k + 1}", label, notes)
        return None

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        w = self.walk(state)
        active, points, flip = w.active, totals(state), flips(state)
        grouping = self._in_groups(w)  # once: it replays the schedule
        still = self._still_in(w, grouping)
        lines = []
        for p in state.players:
            if self.pairs:
                level = w.ladder.level.get(p, Decimal(0))
                finals = [("round-score", w.ladder.score_at.get(p, Decimal(0)))]
            else:  # the final's keys order it, extras and flip too
                level, finals = Decimal(p in w.final), w.table.ranking_keys(p)
            keys = (
                ("removed", Decimal(p in active)),
                ("reached", level),
                w.ladder.third_key(p),
                *finals,
                *w.place_keys(p),
                ("flip", flip[p]),
            )
            stage, at = w.stage_of(p, p in still, level, grouping)
            figure = finals[0] if self.pairs and level else w.figure(p)
            lines.append(Line(p, points.get(p, Decimal(0)), p in still, keys, stage, at, 0, figure))
        return w.explain(rank(lines))

    def _in_groups(self, w: Walk) -> bool:
        """Whether a group round is to come, or the last one's tables are not all in."""
        last = w.state.rounds[-1] if w.state.rounds else None
        open_ = last is not None and last.plan.stage.startswith("group") and unsettled(last)
        return self.next_group_round(w) is not None or open_

    def _still_in(self, w: Walk, grouping: bool) -> set[PlayerId]:
        """Who can still win: everyone while the groups run, then the playoff's survivors."""
        if grouping:
            return set(w.active)
        if not (w.ladder.rounds or w.table.played):  # the playoff (final table) to come
            return set(self.advancers(w))
        if not self.pairs:
            return set(w.table.top)
        tied = {p for m in w.ladder.ties() for p in m.players if p in w.active}
        return set(w.ladder.alive(w.active)) | tied

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """A level playoff match's pair, or the final table's tied top an extra game seats."""
        w = self.walk(state)
        if self.pairs:
            return w.ladder.playoff(w.active)
        return w.table.top if w.table.extra_seats() is not None else ()

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        """The playoff tree once the groups are over; none for tables of 3–4 (one table)."""
        return tree(self.walk(state).ladder) if self.pairs else ()

    def in_group_stage(self, state: TournamentState) -> bool:
        return bool(state.rounds) and self._in_groups(self.walk(state))  # drawn with round 1

    def group_places(self, state: TournamentState) -> tuple[GroupPlace, ...]:
        """Each group's lines in group order; lines only the group's flip, drawn when the groups
        end, separates share their place (docs/rules/groups.md#standings-during-the-groups)."""
        w = self.walk(state)
        drawn = not self.in_group_stage(state)
        out: list[GroupPlace] = []
        for g, members in enumerate(w.groups):
            order = sorted(members, key=w.place.__getitem__)
            lots = [w.group_rank[p].lot and not drawn for p in order]
            place = 0
            for i, p in enumerate(order):
                above = i > 0 and lots[i - 1]
                place = place if above else i + 1
                said = () if lots[i] else w.group_rank[p].tiebreak
                out.append(GroupPlace(p, g, place, lots[i] or above, said))
        return tuple(out)
