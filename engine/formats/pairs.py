"""Pairs 双人赛 for 2v2 games (docs/rules/pairs.md); knob ``groups`` plays pairgroups."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import combinations

from engine.draw import JOKERS, RANKS, SUPERSCRIPTS, flip_order, shuffled, stream
from engine.errors import ConfigError, FormatError
from engine.formats.base import FORFEITS_KNOB, AnyGame, Format, GroupPlace, members_by_label
from engine.formats.elimination import THIRD_NOTE, BracketRound, at_cut, stage_line, still_in_at
from engine.formats.pairgroups import ONE_GROUP, EntrantGroups, PairGroups
from engine.formats.stage import Goes, Kind, Length, Stage, within
from engine.games.base import Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    Standing,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.standings import NO_FIGURE, Key, Line, net_scores, penalties_by_round, rank, totals

Pair = tuple[PlayerId, PlayerId]
Draw = tuple[list[tuple[int, int]], int | None]  # a round's matches of pair numbers, the joker
LUCKY = "lucky-pair"
FINAL_DRAWS = 50  # draws tried for a final round without a repeat pairing
FINALISTS = 10**6  # the level of the final, above every knockout round
ZERO, HALF, QUARTER = Decimal(0), Decimal("0.5"), Decimal("0.25")


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
    cards = [c for couple in pairs_of for c in couple] + [JOKERS[0]] * (len(units) % 2)
    rng.shuffle(cards)
    held = dict(zip(sorted(units), cards, strict=True))
    holder = {card: unit for unit, card in held.items()}
    return [(holder[a], holder[b]) for a, b in pairs_of], holder.get(JOKERS[0]), held


def final_draw(alive: Sequence[int], met: set[frozenset[int]], rng: random.Random) -> Draw:
    """A final round's matches and joker, drawn by cards: the first of the round's draws
    that repeats no pairing already ``met`` in the final, else the one repeating fewest."""
    draws = []
    for _ in range(FINAL_DRAWS):
        matches, joker, _ = card_draw(alive, rng)
        draws.append((sum(frozenset(m) in met for m in matches), matches, joker))
        if draws[-1][0] == 0:
            break
    _, matches, joker = min(draws, key=lambda draw: draw[0])
    return matches, joker


@dataclass
class PairWalk:
    """What the history implies: who waits for the next draw, the final, the ranking."""

    final_rounds: int
    pool: list[int]
    out: set[int]  # pairs with a member removed
    lucky: list[int] = field(default_factory=list)
    reached: dict[int, int] = field(default_factory=dict)
    last_score: dict[int, Decimal] = field(default_factory=dict)
    finalists: list[int] = field(default_factory=list)
    finals_played: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    final_points: dict[int, Decimal] = field(default_factory=dict)
    met: set[frozenset[int]] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    pending: set[int] = field(default_factory=set)  # at a table of the last round unsettled
    final_tables: Counter[int] = field(default_factory=Counter)  # final tables settled
    extra_wins: Counter[int] = field(default_factory=Counter)  # play-off tables won
    extra_void: bool = False  # a play-off table both pairs forfeited: a flip decides

    @property
    def alive(self) -> list[int]:
        """The finalists still in."""
        return [u for u in self.finalists if u not in self.out]

    def final_left(self) -> bool:
        """Whether the final plays on: ``final_rounds`` rounds, or a round robin when odd."""
        alive = self.alive
        if len(alive) < 2:
            return False
        if len(alive) % 2:
            return any(frozenset(m) not in self.met for m in combinations(alive, 2))
        return self.finals_played < self.final_rounds

    def level(self, unit: int, alive: bool, final_over: bool) -> Decimal:
        """How far a pair got: the final, then a round's winners, its players, its losers."""
        if unit in self.finalists or unit in self.lucky:
            return Decimal(FINALISTS)
        level = Decimal(self.reached.get(unit, 0)) + (HALF if unit in self.pool else ZERO)
        return level + QUARTER if alive and not final_over else level

    def figure(self, unit: int, alive: bool) -> Key:
        """The figure a pair's line shows, only where it means something now (#ranking)."""
        if unit in self.finalists and self.final_tables[unit]:
            return "final-wins", Decimal(self.wins[unit])
        if unit in self.finalists or alive or unit not in self.last_score:
            return NO_FIGURE
        return "round-score", self.last_score[unit]


class Pairs(Format):
    """双人赛: pairs by lot, opponents by cards, knockout to a final of a few pairs."""

    key = "pairs"
    aliases = ("pairs", "双人赛", "双人", "对抗赛", "pair")
    signs_up_together = True
    sits_in_pairs = True
    note_codes = ("bye", "tiebreak-flip", LUCKY, "extra-game", THIRD_NOTE)
    knobs = (
        Knob("final", "4", (), int, minimum=2),
        Knob("final_rounds", "2", (), int, minimum=1),
        Knob("lucky", "off", (), bool),
        FORFEITS_KNOB,
        Knob("groups", "0", ("0", "1", "2", "4"), int),
        Knob("third", "off", (), bool),
    )
    eliminates = True
    tiebreaks: tuple[str, ...] = (
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
        if self.grouped:  # the groups rank the pairs (their picture says their chain)
            self.tiebreaks = EntrantGroups.tiebreaks
        self.has_group_tables = self.has_bracket = self.grouped

    def team_size(self) -> int:
        return 2

    def course(self, players: int) -> tuple[tuple[Stage, bool], ...]:
        """Rounds by cards (none when the pairs fit the final), then the final; or the groups'."""
        pairs = players // self.team_size()
        if self.grouped:
            stages = EntrantGroups(self.game, self.group_knobs(pairs)).course(pairs)
            return tuple((replace(s, length=Length(session=True)), on) for s, on in stages)
        chain = within(self.tiebreaks)
        flipped = tuple(c for c in chain if not c.startswith("final-") and c != "extra")
        final_chain = tuple(c for c in chain if c != "round-score")
        seats, last = self.int_option("final"), Length(self.int_option("final_rounds"), totals=True)
        cards = Stage(Kind.CARDS, "cards", Length(session=True), Goes.WINNER, 1, False, flipped)
        final = Stage(Kind.ROBIN, "final", last, Goes.CHAMPION, seats, False, final_chain)
        return ((cards, not players or pairs > seats), (final, True))

    def group_knobs(self, pairs: int) -> dict[str, str]:
        """The groups' knobs for ``pairs`` pairs (0: not known yet; docs/rules/pairs.md#groups)."""
        count = self.int_option("groups") if not pairs or pairs >= ONE_GROUP else 1
        return {"groups": str(count), "third": "on" if self.options["third"] else "off"}

    def check_knob(self, name: str, players: int, drawing: bool = False) -> None:
        """Refuse ``third`` where no crossover is played, so nobody loses a semi-final (a
        ``third`` set while a by-size event was small stays idle if the field grew)."""
        if name not in ("third", "groups") or drawing or not self.options["third"]:
            return
        if not self.grouped:
            final = self.int_option("final")
            raise ConfigError("third-needs-crossovers", knob="third", final=final)
        if self.int_option("groups") < 2:
            raise ConfigError("third-needs-two-groups", knob="third")

    def in_groups(self, state: TournamentState) -> PairGroups:
        """The groups the pairs play (knob ``groups``), for this state's pairs."""
        pairs = self.pairs(state)
        return PairGroups(self.game, self.group_knobs(len(pairs)), pairs, self.disciplined)

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

    def pairs(self, state: TournamentState) -> list[Pair]:
        """Pair ``i + 1``: pairs signed up together first, the others by lot (#pairs-by-lot)."""
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
        return {p: i + 1 for i, pair in enumerate(self.pairs(state)) for p in pair}

    def walk(self, state: TournamentState) -> PairWalk:
        """The rounds replayed: each table's pair ahead goes on (#knockout), the final's
        tables won and points add up (#final), its play-off decides the top (#final-ties)."""
        pairs = self.pairs(state)
        number = {p: i + 1 for i, pair in enumerate(pairs) for p in pair}
        out = {i + 1 for i, pair in enumerate(pairs) if set(pair) & state.removed}
        pens = penalties_by_round(state)
        w = PairWalk(self.int_option("final_rounds"), list(range(1, len(pairs) + 1)), out)
        here_at = still_in_at(state, set(self.active(state)))
        for rec, here in zip(state.rounds, here_at, strict=True):
            # a removed pair loses only its last round's tables: one it won before stays won
            gone = {u for u in out if not set(pairs[u - 1]) <= here}
            w.notes, w.pending = [], set()
            final, extra = rec.plan.stage == "final", rec.plan.stage == "extra"
            if final and not w.finalists:
                w.finalists, w.lucky = sorted(set(w.pool) | set(w.lucky)), []
            bye_units = sorted({number[p] for p in rec.plan.byes})
            if LUCKY in rec.plan.notes:
                w.lucky += bye_units
            # a bye goes through the knockout round it sat out
            going = [] if final or extra or LUCKY in rec.plan.notes else bye_units
            w.reached.update(dict.fromkeys(going, rec.number))
            results = {res.table.number: res for res in rec.results}
            for table in rec.plan.tables:
                a, b, c, d = table.players
                x, y = number[a], number[b]
                res = results.get(table.number)
                done = res if res is not None and res.status is not TableStatus.PENDING else None
                net = net_scores(rec, res, pens) if res is not None else {}
                scores = {x: net[a] + net[c], y: net[b] + net[d]} if net else {}
                ahead = contenders(done, {x: (a, c), y: (b, d)}, scores, gone) if done else []
                won = ahead if len(ahead) == 1 else []
                if len(ahead) == 2 and not rec.plan.stage:  # level in the knockout: a flip
                    tag = f"round{rec.number}-table{table.number}-flip"
                    flip = flip_order(ahead, state.seed, tag)
                    won = [max(ahead, key=lambda u: flip[u])]
                    w.notes.append("tiebreak-flip")
                if not done:
                    w.pending |= {x, y}
                if extra:
                    w.extra_wins.update(won)
                    if done and not won:  # both forfeited a play-off table: none is left (a flip)
                        w.extra_void |= done.status is TableStatus.FORFEIT or bool(done.forfeited)
                    continue
                w.reached.update({x: rec.number, y: rec.number})
                if not final:
                    w.last_score.update(scores)
                    going += won
                    continue
                w.met.add(frozenset((x, y)))
                w.wins.update(won)
                w.final_tables.update((x, y) if done else ())
                for unit, score in scores.items():
                    w.final_points[unit] = w.final_points.get(unit, ZERO) + score
            w.finals_played += final
            w.pool = [] if final or extra else sorted(u for u in going if u not in gone)
            w.lucky = [u for u in w.lucky if u not in gone]
        return w

    def _prepare(self, state: TournamentState) -> tuple[TournamentState, list[Pair], PairWalk]:
        state = self.disciplined(state)
        return state, self.pairs(state), self.walk(state)

    @staticmethod
    def _tied_top(w: PairWalk, alive: Sequence[int]) -> tuple[int, int] | None:
        """The two pairs level at the top of a played final, who play it off; none when
        more are level or a play-off was forfeited: a flip decides (#final-ties)."""
        if w.extra_void:
            return None

        def key(u: int) -> tuple[Decimal, ...]:
            return Decimal(w.wins[u]), w.final_points.get(u, ZERO), Decimal(w.extra_wins[u])

        _, top = at_cut(alive, 1, key)
        return (top[0], top[1]) if len(top) == 2 else None

    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        self.require_closed(state)
        if 4 not in self.sizes:
            raise FormatError("pairs-need-four", seats=self.sizes)
        if self.grouped:
            return self.in_groups(state).plan(state)
        state, pairs, w = self._prepare(state)
        if not state.rounds and len(pairs) < 2:
            raise FormatError("too-few-players", players=len(state.players), need=4)
        notes = tuple(dict.fromkeys(w.notes))
        label = self.label(state)
        rng = stream(state.seed, label)
        if w.finalists and not w.final_left():  # the final played: its play-off, or the end
            if tied := self._tied_top(w, w.alive):
                return _card_round(pairs, ([tied], None), "extra", label, ("extra-game",))
            return self.finish(self.standings_of(w, pairs, state))
        waiting = w.alive if w.finalists else sorted(w.pool + w.lucky)
        if not w.finalists and len(waiting) <= 1:
            return self.finish(self.standings(state))
        if w.finalists or len(waiting) <= self.int_option("final"):
            return _card_round(pairs, final_draw(waiting, w.met, rng), "final", label, notes)
        matches, joker, _ = card_draw(w.pool, rng)
        lucky = bool(self.options["lucky"]) and not any(LUCKY in r.plan.notes for r in state.rounds)
        return _card_round(pairs, (matches, joker), "", label, notes, LUCKY if lucky else "bye")

    def playoff(self, state: TournamentState) -> tuple[PlayerId, ...]:
        """The players of the two pairs playing off the top of the final, or of the groups."""
        if self.grouped:
            return self.in_groups(state).playoff(state)
        try:
            self.require_closed(state)
        except FormatError:
            return ()
        state, pairs, w = self._prepare(state)
        tied = self._tied_top(w, w.alive) if w.finalists and not w.final_left() else None
        return tuple(p for u in tied for p in pairs[u - 1]) if tied else ()

    def drawn_cards(self, plan: RoundPlan) -> dict[PlayerId, str]:
        """The card each pair drew, read back from the seating (#opponents-by-cards): table
        *i* is the *i*-th couple, ♦/♣ at A and C, ♥/♠ at B and D; the joker on a bye."""
        if self.grouped:  # the groups' schedule seats them, not cards
            return {}
        held: dict[PlayerId, str] = dict.fromkeys(plan.byes, JOKERS[0])
        for table, (first, second) in zip(plan.tables, couples(len(plan.tables)), strict=True):
            a, b, c, d = table.players
            held |= {a: first, c: first, b: second, d: second}
        return held

    def champion(self, state: TournamentState, done: Finished) -> tuple[PlayerId, ...]:
        """The pair on top: both partners are champions (docs/rules/pairs.md#final)."""
        return self.pairs(state)[done.ranking[0].unit - 1] if done.ranking else ()

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        if self.grouped:
            return self.in_groups(state).standings(state)
        state, pairs, w = self._prepare(state)
        return self.standings_of(w, pairs, state)

    def standings_of(
        self, w: PairWalk, pairs: list[Pair], st: TournamentState
    ) -> tuple[Standing, ...]:
        """Partners share every criterion, so they stand on one place (#ranking)."""
        points = totals(st)
        flip = flip_order(range(1, len(pairs) + 1), st.seed, "pairs-flip")
        final_over = bool(w.finalists) and not (
            w.final_left() or self._tied_top(w, w.alive) or w.pending
        )
        still = set(w.pool) | set(w.lucky) | w.pending | (set() if final_over else set(w.alive))
        lines = []
        for unit, pair in enumerate(pairs, 1):
            out = unit in w.out
            alive = unit in still and not out
            # the knockout table's score ranks pairs out of the knockout, never finalists
            out_score = ZERO if alive or unit in w.finalists else w.last_score.get(unit, ZERO)
            keys = (
                ("removed", Decimal(not out)),
                ("reached", w.level(unit, alive, final_over)),
                ("final-wins", Decimal(w.wins[unit])),
                ("final-points", w.final_points.get(unit, ZERO)),
                ("extra", Decimal(w.extra_wins[unit])),
                ("round-score", out_score),
                ("flip", Decimal(flip[unit])),
            )
            at = w.reached.get(unit, 0)
            stage = ("out", at) if out else stage_line(at, False, unit in w.finalists, alive)
            figure = NO_FIGURE if out else w.figure(unit, alive)
            for p in pair:
                here = ("removed", 0) if p in st.removed else stage
                lines.append(Line(p, points.get(p, ZERO), alive, keys, *here, unit, figure))
        ranked = rank(lines)
        if final_over and ranked:
            ranked = tuple(replace(s, alive=s.unit == ranked[0].unit) for s in ranked)
        return ranked


def contenders(
    res: TableResult, sides: Mapping[int, Pair], scores: Mapping[int, Decimal], out: set[int]
) -> list[int]:
    """Who may win a settled table of two pairs (#knockout): not a pair with a member
    forfeited or removed; of the others, the more points, both when level."""
    lapsed = res.status is TableStatus.FORFEIT and not res.forfeited  # the whole table
    left = [u for u, side in sides.items() if not (lapsed or u in out or set(side) & res.forfeited)]
    through, level = at_cut(left, 1, lambda u: (scores.get(u, ZERO),))
    return through + level


def _card_round(
    pairs: list[Pair], draw: Draw, stage: str, label: str, notes: tuple[str, ...], bye: str = "bye"
) -> RoundPlan:
    """A round of pairs drawn by cards, partners opposite; the joker's pair sits out."""
    matches, joker = draw
    sides = [(pairs[x - 1], pairs[y - 1]) for x, y in matches]
    tables = tuple(Table(i, (a, b, c, d)) for i, ((a, c), (b, d)) in enumerate(sides, 1))
    if joker is None:
        return RoundPlan(tables, (), stage, label, notes)
    return RoundPlan(tables, pairs[joker - 1], stage, label, (*notes, bye))
