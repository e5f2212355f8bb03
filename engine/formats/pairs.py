"""Pairs 双人赛 for 2v2 games (docs/rules/pairs.md).

Rules as implemented, with their anchors there:

* Pairs are drawn by lot (初赛组合以抽签的方式形成; #pairs-by-lot): the sign-up list, sorted
  by id, is shuffled with the stream ``pairs`` and cut into twos. Pairs signed up
  together (``state.teams``: 自由组队) come first, as they are; the lot pairs the rest.
* Opponents are drawn by cards (#opponents-by-cards: 抽到同样花色、牌面值同样大小的为竞争对手 — ♦A
  meets ♥A, ♣A meets ♠A): for m tables the couples ♦A/♥A, ♣A/♠A, ♦2/♥2 … are taken in that order,
  shuffled with the round's stream and dealt to the pairs in pair-number order; each couple is a
  table, in couple order. The ♦/♣ holder sits A and C, the other pair B and D, so partners always
  sit opposite (the games' sides A&C against B&D).
* An odd number of pairs adds a joker (大王). Its pair has a bye into the next draw, or,
  with ``lucky=on``, goes straight to the final, once per event (#joker: 抽到大、小王的
  幸运组直接入围总决赛).
* Knockout: the pair with more points at its table goes on (both members' scores, this
  round's penalties deducted); a tie by a verifiable flip. A pair with a member forfeited
  or removed loses the table (如因故不能继续比赛，视为弃权; #knockout); both: both out.
* When the pairs left (with the lucky one) fit the final (``final`` pairs, #final: 4组的
  总决赛), they play ``final_rounds`` rounds (连续2轮的角逐) drawn by cards again,
  the first draw of the round's stream that repeats no earlier final pairing being used.
  They rank by tables won, then points in the final, then a flip.
* Knob ``groups`` (0: the knockout above): the pairs play the groups instead —
  groups by lot, a round robin, the top two cross over (A1–B2, B1–A2), the winners'
  final (#groups; ``engine.formats.pairgroups``). A field of nine pairs or fewer of 80分
  plays it when the organiser named no format (docs/rules/two-player.md#format-by-size).
* Discipline: ``forfeits`` forfeited games remove a player and strike their results
  (弃权 2 局者取消全部比赛成绩; docs/rules/penalties.md#forfeits).

Ranking: reached the final first (then final wins, final points), others by the round they
went out in (later is better), then the pair's score at its last table, then a flip.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import combinations

from engine.draw import JOKERS, RANKS, SUPERSCRIPTS, flip_order, shuffled, stream
from engine.errors import FormatError
from engine.formats.base import FORFEITS_KNOB, AnyGame, Format, GroupPlace, members_by_label
from engine.formats.elimination import BracketRound, at_cut, stage_line
from engine.formats.pairgroups import ONE_GROUP, EntrantGroups, PairGroups
from engine.formats.stage import Goes, Kind, Length, Stage, within
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
from engine.standings import (
    NO_FIGURE,
    Key,
    Line,
    net_scores,
    penalties_by_round,
    rank,
    totals,
)

Pair = tuple[PlayerId, PlayerId]
FINAL_STAGE = "final"
EXTRA_STAGE = "extra"  # a play-off of the two pairs level at the top of the final
LUCKY = "lucky-pair"
FINAL_DRAWS = 50  # draws tried for a final round without a repeat pairing
FINALISTS = 10**6  # the level of the final, above every knockout round
HALF, QUARTER = Decimal("0.5"), Decimal("0.25")


def couples(count: int) -> list[tuple[str, str]]:
    """The first ``count`` same-rank-and-colour couples: (♦A, ♥A), (♣A, ♠A), (♦2, ♥2)…"""
    out: list[tuple[str, str]] = []
    deck = 1
    while len(out) < count:
        mark = SUPERSCRIPTS[deck] if deck > 1 else ""
        for r in RANKS:
            out += [(f"♦{r}{mark}", f"♥{r}{mark}"), (f"♣{r}{mark}", f"♠{r}{mark}")]
        deck += 1
    return out[:count]


def card_draw(
    units: Sequence[int], rng: random.Random
) -> tuple[list[tuple[int, int]], int | None, dict[int, str]]:
    """Deal one card per pair; holders of a couple meet. Returns the matches (♦/♣ holder
    first), the joker holder (odd count) and every pair's card, to show or to replay."""
    pairs_of = couples(len(units) // 2)
    cards = [c for couple in pairs_of for c in couple]
    if len(units) % 2:
        cards.append(JOKERS[0])
    rng.shuffle(cards)
    held = dict(zip(sorted(units), cards, strict=True))
    holder = {card: unit for unit, card in held.items()}
    matches = [(holder[a], holder[b]) for a, b in pairs_of]
    joker = holder.get(JOKERS[0])
    return matches, joker, held


@dataclass
class PairWalk:
    """What the history implies: who waits for the next draw, the final, the ranking."""

    pool: list[int] = field(default_factory=list)
    lucky: list[int] = field(default_factory=list)
    lucky_used: bool = False
    reached: dict[int, int] = field(default_factory=dict)
    last_score: dict[int, Decimal] = field(default_factory=dict)
    finalists: list[int] = field(default_factory=list)
    finals_played: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    final_points: dict[int, Decimal] = field(default_factory=dict)
    met: set[frozenset[int]] = field(default_factory=set)
    byes: Counter[int] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    pending: set[int] = field(default_factory=set)  # at a table of the last round unsettled
    final_tables: Counter[int] = field(default_factory=Counter)  # final tables settled
    extra_wins: Counter[int] = field(default_factory=Counter)  # play-off tables won
    extra_void: bool = False  # a play-off table both pairs forfeited: a flip decides


class Pairs(Format):
    """双人赛: pairs by lot, opponents by cards, knockout to a final of a few pairs."""

    key = "pairs"
    aliases = ("pairs", "双人赛", "双人", "对抗赛", "pair")
    seeds = ("002",)
    signs_up_together = True
    sits_in_pairs = True
    note_codes = ("bye", "tiebreak-flip", LUCKY, "extra-game")
    knobs = (
        Knob("final", "4", (), int, minimum=2),
        Knob("final_rounds", "2", (), int, minimum=1),
        Knob("lucky", "off", (), bool),
        FORFEITS_KNOB,
        Knob("groups", "0", ("0", "1", "2", "4"), int),
    )
    eliminates = True
    tiebreaks = (
        "removed",
        "reached",
        "final-wins",
        "final-points",
        "extra",
        "round-score",
        "flip",
    )

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        super().__init__(game, options)
        self.grouped = self.int_option("groups") > 0
        self.has_group_tables = self.has_bracket = self.grouped

    def team_size(self) -> int:
        return 2

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Rounds of pairs drawn by cards, the pair ahead at each table going on (skipped
        when the pairs already fit the final), then the last ``final`` pairs' ``final_rounds``
        rounds; with ``groups``, the groups' stages, each table of two pairs its session."""
        if self.grouped:
            pairs = players // self.team_size()
            count = self.int_option("groups") if not pairs or pairs >= ONE_GROUP else 1
            stages = EntrantGroups(self.game, {"groups": str(count)}).course(pairs)
            return tuple((replace(s, length=Length(session=True)), on) for s, on in stages)
        chain = within(self.tiebreaks)
        final_chain = tuple(c for c in chain if c != "round-score")
        rounds = Stage(
            Kind.CARDS,
            "cards",
            Length(session=True),
            Goes.WINNER,
            1,
            False,
            tuple(c for c in chain if not c.startswith("final-") and c != "extra"),  # flipped
        )
        final = self.int_option("final")
        last = Length(self.int_option("final_rounds"), totals=True)
        return (
            (rounds, not players or players // self.team_size() > final),
            (Stage(Kind.ROBIN, "final", last, Goes.CHAMPION, final, False, final_chain), True),
        )

    def in_groups(self, state: TournamentState) -> PairGroups:
        """The groups the pairs play (knob ``groups``), for this state's pairs."""
        return PairGroups(self.game, self.int_option("groups"), self.pairs(state), self.disciplined)

    @property
    def rules_variant(self) -> str:
        return "groups" if self.grouped else ""

    def draw_groups(self, state: TournamentState) -> list[list[PlayerId]]:
        return self.in_groups(state).draw_groups(state) if self.grouped else []

    def group_places(self, state: TournamentState) -> tuple[GroupPlace, ...]:
        return self.in_groups(state).group_places(state) if self.grouped else ()

    def in_group_stage(self, state: TournamentState) -> bool:
        return self.grouped and bool(state.rounds) and self.in_groups(state).in_group_stage(state)

    def bracket(self, state: TournamentState) -> tuple[BracketRound, ...]:
        return self.in_groups(state).bracket(state) if self.grouped else ()

    # --- who plays with whom -----------------------------------------------------------
    def pairs(self, state: TournamentState) -> list[Pair]:
        """Pair number ``i + 1`` is ``pairs[i]``: pairs signed up together
        (``state.teams``) first, then the others drawn by lot."""
        given = members_by_label(state)
        for team, who in given.items():
            if len(who) != 2:
                raise FormatError("pair-size", team=team, size=len(who))
        free = sorted(p for p in state.players if p not in state.teams)
        if len(free) % 2:
            raise FormatError("pairs-odd", players=len(state.players))
        order = shuffled(free, stream(state.seed, "pairs"))
        drawn = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        return [(w[0], w[1]) for w in given.values()] + drawn

    def groups(self, state: TournamentState) -> dict[PlayerId, int]:
        """Player → pair number (for /standings, as teams are shown)."""
        return {p: i + 1 for i, pair in enumerate(self.pairs(state)) for p in pair}

    # --- history -------------------------------------------------------------------------
    def walk(self, state: TournamentState) -> PairWalk:
        pairs = self.pairs(state)
        number = {p: i + 1 for i, pair in enumerate(pairs) for p in pair}
        out = {i + 1 for i, pair in enumerate(pairs) if set(pair) & state.removed}
        pens = penalties_by_round(state)
        w = PairWalk(pool=[i + 1 for i in range(len(pairs))])
        for rec in state.rounds:
            w.notes, w.pending = [], set()
            final = rec.plan.stage == FINAL_STAGE
            extra = rec.plan.stage == EXTRA_STAGE
            if final and not w.finalists:
                w.finalists = sorted(set(w.pool) | set(w.lucky))
                w.lucky = []
            bye_units = sorted({number[p] for p in rec.plan.byes})
            w.byes.update(bye_units)
            results = {res.table.number: res for res in rec.results}
            going: list[int] = []
            if LUCKY in rec.plan.notes:
                w.lucky += bye_units
                w.lucky_used = True
            elif not (final or extra):
                going += bye_units  # a bye goes through the round it sat out
                w.reached.update(dict.fromkeys(bye_units, rec.number))
            for table in rec.plan.tables:
                x, y = number[table.players[0]], number[table.players[1]]
                res = results.get(table.number)
                scores = pair_scores(rec, table, res, (x, y), pens)
                winner = self._winner(rec, table, res, (x, y), scores, out, state, w)
                if res is None or res.status is TableStatus.PENDING:
                    w.pending |= {x, y}
                if extra:
                    self._extra(w, (x, y), res, winner)
                    continue
                for unit in (x, y):
                    w.reached[unit] = rec.number
                if final:
                    w.met.add(frozenset((x, y)))
                    if winner is not None:
                        w.wins[winner] += 1
                    if res is not None and res.status is not TableStatus.PENDING:
                        w.final_tables.update((x, y))
                    for unit, score in scores.items():
                        w.final_points[unit] = w.final_points.get(unit, Decimal(0)) + score
                    continue
                w.last_score.update(scores)
                if winner is not None:
                    going.append(winner)
            if final:
                w.finals_played += 1
            if final or extra:
                w.pool = []
            else:
                w.pool = sorted(u for u in going if u not in out)
            w.lucky = [u for u in w.lucky if u not in out]
        return w

    @staticmethod
    def _extra(
        w: PairWalk, units: tuple[int, int], res: TableResult | None, winner: int | None
    ) -> None:
        """A play-off table of the two pairs level at the top of the final: its winner is
        first; both forfeited, no play-off is left to play (a flip decides)."""
        if winner is not None:
            w.extra_wins[winner] += 1
        elif res is not None and res.status is not TableStatus.PENDING:
            w.extra_void |= res.status is TableStatus.FORFEIT or bool(res.forfeited)

    def _winner(
        self,
        rec: RoundRecord,
        table: Table,
        res: TableResult | None,
        units: tuple[int, int],
        scores: Mapping[int, Decimal],
        out: set[int],
        state: TournamentState,
        w: PairWalk,
    ) -> int | None:
        """The pair that goes on from a table, or ``None`` when both fail. A level
        knockout table goes to a flip (#knockout); a level table of the final or of its
        play-off is won by neither."""
        if res is None or res.status is TableStatus.PENDING:
            return None
        players = table.players
        sides = ((players[0], players[2]), (players[1], players[3]))
        failed = [
            units[i] in out
            or bool(set(sides[i]) & res.forfeited)
            or (res.status is TableStatus.FORFEIT and not res.forfeited)
            for i in (0, 1)
        ]
        if failed[0] or failed[1]:
            return None if failed[0] and failed[1] else units[1 if failed[0] else 0]
        ahead, level = at_cut(units, 1, lambda u: (scores.get(u, Decimal(0)),))
        if not level:
            return ahead[0]
        if rec.plan.stage:  # a level table of the final or its play-off: won by neither
            return None
        flip = flip_order(units, state.seed, f"round{rec.number}-table{table.number}-flip")
        w.notes.append("tiebreak-flip")
        return max(units, key=lambda u: flip[u])

    # --- the contract --------------------------------------------------------------------
    def _prepare(self, state: TournamentState) -> tuple[TournamentState, list[Pair], PairWalk]:
        state = self.disciplined(state)
        return state, self.pairs(state), self.walk(state)

    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        if 4 not in self.sizes:
            raise FormatError("pairs-need-four", seats=self.sizes)
        if self.grouped:
            return self.in_groups(state).plan(state)
        state, pairs, w = self._prepare(state)
        if not state.rounds and len(pairs) < 2:
            raise FormatError("too-few-players", players=len(state.players), need=4)
        notes = list(dict.fromkeys(w.notes))
        label = self.label(state)
        rng = stream(state.seed, label)
        if w.finalists:
            alive = self._alive_finalists(w, pairs, state)
            if self._final_left(w, alive):
                return self._final_round(alive, pairs, w, rng, label, notes)
            tied = self._tied_top(w, alive)
            if tied:
                tables = self._tables([tied], pairs)
                return RoundPlan(tables, (), EXTRA_STAGE, label, ("extra-game",))
            return self.finish(self.standings_of(w, pairs, state))
        waiting = len(w.pool) + len(w.lucky)
        if waiting <= 1:
            return self.finish(self.standings(state))
        if waiting <= self.int_option("final"):
            final = sorted(w.pool + w.lucky)
            return self._final_round(final, pairs, w, rng, label, notes)
        matches, joker, _ = card_draw(w.pool, rng)
        byes: tuple[PlayerId, ...] = ()
        if joker is not None:
            byes = pairs[joker - 1]
            lucky = bool(self.options["lucky"]) and not w.lucky_used
            notes.append(LUCKY if lucky else "bye")
        return RoundPlan(self._tables(matches, pairs), byes, "", label, tuple(notes))

    @staticmethod
    def _alive_finalists(w: PairWalk, pairs: Sequence[Pair], state: TournamentState) -> list[int]:
        return [u for u in w.finalists if not set(pairs[u - 1]) & state.removed]

    def _final_left(self, w: PairWalk, alive: Sequence[int]) -> bool:
        """Whether the final plays another round (#final): ``final_rounds`` rounds; an odd
        number of pairs plays a round robin instead (every two meet once, one pair sits
        out each round), so no pair plays more final tables than another."""
        if len(alive) < 2:
            return False
        if len(alive) % 2:
            return any(frozenset(m) not in w.met for m in combinations(alive, 2))
        return w.finals_played < self.int_option("final_rounds")

    @staticmethod
    def _tied_top(w: PairWalk, alive: Sequence[int]) -> tuple[int, int] | None:
        """The two pairs level at the top of a played final (tables won, then points):
        they play it off (#final-ties). Three or more level, or a play-off both forfeited:
        none (a flip decides)."""
        if len(alive) < 2 or w.extra_void:
            return None

        def key(u: int) -> tuple[Decimal, ...]:
            return (Decimal(w.wins[u]), w.final_points.get(u, Decimal(0)), Decimal(w.extra_wins[u]))

        best = max(key(u) for u in alive)
        top = [u for u in alive if key(u) == best]
        return (top[0], top[1]) if len(top) == 2 else None

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """Both pairs level at the top of the played final (the play-off's players); in
        groups, the groups' play-offs."""
        if self.grouped:
            return self.in_groups(state).playoff(state)
        try:
            self.require_closed(state)
        except FormatError:
            return ()
        state, pairs, w = self._prepare(state)
        alive = self._alive_finalists(w, pairs, state)
        if not w.finalists or self._final_left(w, alive):
            return ()
        tied = self._tied_top(w, alive)
        return tuple(p for u in tied for p in pairs[u - 1]) if tied else ()

    def _final_round(
        self,
        alive: list[int],
        pairs: list[Pair],
        w: PairWalk,
        rng: random.Random,
        label: str,
        notes: list[str],
    ) -> RoundPlan:
        """A final round drawn by cards, avoiding pairings already played in the final."""
        best: tuple[int, list[tuple[int, int]], int | None] | None = None
        for _ in range(FINAL_DRAWS):
            matches, joker, _ = card_draw(alive, rng)
            again = sum(frozenset(m) in w.met for m in matches)
            if best is None or again < best[0]:
                best = (again, matches, joker)
            if again == 0:
                break
        assert best is not None
        _, matches, joker = best
        byes = pairs[joker - 1] if joker is not None else ()
        if joker is not None:
            notes.append("bye")
        return RoundPlan(self._tables(matches, pairs), byes, FINAL_STAGE, label, tuple(notes))

    def drawn_cards(self, plan: RoundPlan) -> dict[PlayerId, str]:
        """The card each pair drew (#opponents-by-cards), read back from the seating: table
        *i* is the *i*-th couple, its ♦/♣ card held by the pair at A and C, the ♥/♠ one by
        the pair at B and D; the joker by the pair on a bye. A stored round shows its cards
        without the draw being replayed (a substitute shows the card of the seat taken)."""
        if self.grouped:  # the groups' schedule seats them, not cards
            return {}
        held: dict[PlayerId, str] = dict.fromkeys(plan.byes, JOKERS[0])
        for table, (first, second) in zip(plan.tables, couples(len(plan.tables)), strict=True):
            a, b, c, d = table.players
            held |= {a: first, c: first, b: second, d: second}
        return held

    @staticmethod
    def _tables(matches: Sequence[tuple[int, int]], pairs: Sequence[Pair]) -> tuple[Table, ...]:
        """Partners opposite: the first pair sits A and C, the second B and D."""
        out = []
        for i, (x, y) in enumerate(matches):
            a, c = pairs[x - 1]
            b, d = pairs[y - 1]
            out.append(Table(i + 1, (a, b, c, d)))
        return tuple(out)

    def champion(self, state: TournamentState, done: Finished) -> tuple[PlayerId, ...]:
        """The pair on top: both partners are champions (docs/rules/pairs.md#final)."""
        if not done.ranking:
            return ()
        pairs = self.pairs(state)
        return pairs[self.groups(state)[done.ranking[0].player] - 1]

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        if self.grouped:
            return self.in_groups(state).standings(state)
        state, pairs, w = self._prepare(state)
        return self.standings_of(w, pairs, state)

    def _level(self, w: PairWalk, unit: int, alive: bool, final_over: bool) -> Decimal:
        """How far a pair got (#ranking): the final (the lucky pair too) above every
        round; a round's winners (or its bye) above those still at its tables, and those
        above its losers, so no pair out ranks above one still in."""
        if unit in w.finalists or unit in w.lucky:
            return Decimal(FINALISTS)
        level = Decimal(w.reached.get(unit, 0))
        if unit in w.pool:
            level += HALF
        if alive and not final_over:
            level += QUARTER
        return level

    @staticmethod
    def _figure(w: PairWalk, unit: int, alive: bool) -> Key:
        """The figure a pair's line shows, only where it means something now: its tables
        won in the final once it played one there; a pair out, its score at the table it
        lost; none while it is still in before the final."""
        if unit in w.finalists:
            return ("final-wins", Decimal(w.wins[unit])) if w.final_tables[unit] else NO_FIGURE
        if alive or unit not in w.last_score:
            return NO_FIGURE
        return ("round-score", w.last_score[unit])

    def standings_of(
        self, w: PairWalk, pairs: list[Pair], st: TournamentState
    ) -> tuple[Standing, ...]:
        """Partners share every criterion, so they stand on one place. The final's own
        chain (tables won, points, the play-off, then a flip) ranks the finalists; the
        round they went out in, then their score at that table, the others."""
        points = totals(st)
        flip = flip_order(range(1, len(pairs) + 1), st.seed, "pairs-flip")
        finalists = self._alive_finalists(w, pairs, st)
        final_over = bool(w.finalists) and not (
            self._final_left(w, finalists) or self._tied_top(w, finalists) or w.pending
        )
        still = set(w.pool) | set(w.lucky) | w.pending
        if not final_over:
            still |= set(finalists)
        lines = []
        for i, pair in enumerate(pairs):
            unit = i + 1
            out = bool(set(pair) & st.removed)
            alive = unit in still and not out
            out_score = w.last_score.get(unit, Decimal(0)) if not alive else Decimal(0)
            keys = (
                ("removed", Decimal(not out)),
                ("reached", self._level(w, unit, alive, final_over)),
                ("final-wins", Decimal(w.wins[unit])),
                ("final-points", w.final_points.get(unit, Decimal(0))),
                ("extra", Decimal(w.extra_wins[unit])),
                # the knockout table's score ranks pairs out of the knockout, never finalists
                ("round-score", Decimal(0) if unit in w.finalists else out_score),
                ("flip", Decimal(flip[unit])),
            )
            stage, at = stage_line(w.reached.get(unit, 0), out, unit in w.finalists, alive)
            figure = NO_FIGURE if out else self._figure(w, unit, alive)
            for p in pair:
                here = ("removed", 0) if p in st.removed else (stage, at)
                if out and p not in st.removed:
                    here = ("out", w.reached.get(unit, 0))
                line = Line(p, points.get(p, Decimal(0)), alive, keys, *here, unit, figure)
                lines.append(line)
        ranked = rank(lines)
        if final_over and ranked:
            champions = set(pairs[self.groups(st)[ranked[0].player] - 1])
            ranked = tuple(replace(s, alive=s.player in champions) for s in ranked)
        return ranked


def pair_scores(
    rec: RoundRecord,
    table: Table,
    res: TableResult | None,
    units: tuple[int, int],
    pens: Mapping[tuple[int, PlayerId], Decimal],
) -> dict[int, Decimal]:
    """Each pair's points at its table: seats A+C and B+D, that round's penalties deducted."""
    net = net_scores(rec, res, pens) if res is not None else {}
    if not net:
        return {}
    seats = table.players
    return {units[0]: net[seats[0]] + net[seats[2]], units[1]: net[seats[1]] + net[seats[3]]}
