"""What the elimination formats share: cutting a table, a tie at the top of a final
(docs/rules/knockout.md#final-ties), two-player knockout rounds (docs/rules/bracket.md#match)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from engine.draw import flip_order
from engine.model import (
    PlayerId,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from engine.standings import Key, flips, net_scores

HALF = Decimal("0.5")
LOW = Decimal(-(10**12))  # ranks a forfeit below every score; never shown
THIRD_NOTE = "third-place"  # a final's round that also seats the match for third
BracketRound = tuple[tuple[PlayerId, PlayerId | None, PlayerId | None], ...]
Pens = Mapping[tuple[int, PlayerId], Decimal]
U = TypeVar("U", bound=Hashable)  # who goes on: a player, or a pair's number


def at_cut(
    cands: Iterable[U], k: int, key: Callable[[U], tuple[Decimal, ...]]
) -> tuple[list[U], list[U]]:
    """``cands`` cut after the top ``k`` by ``key``: those through, and those level across it."""
    order = sorted(cands, key=key, reverse=True)
    if len(order) <= k:
        return order, []
    line = key(order[k - 1])
    above = [p for p in order if key(p) > line]
    tied = [p for p in order if key(p) == line]
    return (above + tied, []) if len(above) + len(tied) <= k else (above, tied)


def flipped(
    above: list[PlayerId], tied: Sequence[PlayerId], k: int, flip: tuple[str, str]
) -> tuple[list[PlayerId], dict[PlayerId, int]]:
    """The cut's places left to ``tied`` by a flip (seed, label), and the flip's values."""
    drawn = flip_order(tied, *flip)
    return above + sorted(tied, key=lambda p: -drawn[p])[: k - len(above)], drawn


def may_take(cands: Sequence[U], key: Callable[[U], tuple[Decimal, ...]], k: int) -> set[U]:
    """Of ``cands`` cut after the top ``k`` with results to come, those it may yet take."""
    return {p for p in cands if sum(key(q) > key(p) for q in cands) < k}


def lucky_losers(
    state: TournamentState,
    candidates: Iterable[PlayerId],
    need: int,
    merit: Callable[[PlayerId], tuple[Decimal, ...]],
    after: int | None = None,
) -> list[PlayerId]:
    """Who fills a final too few reached: the ``need`` best by ``merit``, ties by a flip."""
    after = len(state.rounds) if after is None else after
    flip = flips(state, f"round{after + 1}-lucky-flip")
    return sorted(candidates, key=lambda p: (*merit(p), flip[p]), reverse=True)[:need]


def extra_table(
    tied: Sequence[PlayerId],
    final: Sequence[PlayerId],
    sizes: Sequence[int],
    sides: Sequence[Sequence[PlayerId]] = (),
) -> tuple[PlayerId, ...] | None:
    """Who sits the extra game for the ``tied`` top of the ``final``: they alone, else the
    whole table, else ``None`` (a flip; always for partners in ``sides``: no game parts them)."""
    if any(set(tied) <= set(side) for side in sides):
        return None
    if len(tied) in sizes:
        return tuple(tied)
    if set(tied) <= set(final) and len(final) in sizes:
        return tuple(final)
    return None


def replay_round(
    pairs: Iterable[Sequence[PlayerId]], label: str, notes: Sequence[str]
) -> RoundPlan:
    """The ``extra`` round that plays level two-player matches again, a table each."""
    tables = tuple(Table(i + 1, tuple(pair)) for i, pair in enumerate(pairs))
    return RoundPlan(tables, (), "extra", label, ("extra-game", *notes))


@dataclass
class FinalTable:
    """A final at one table and the extra games (or flip) that settle a tie at its top
    (docs/rules/knockout.md#final-ties), with the keys they add to the tied players' lines."""

    sizes: tuple[int, ...]
    seated: tuple[PlayerId, ...] = ()  # the final's players still in (for an extra game)
    sides: list[list[PlayerId]] = field(default_factory=list)  # partners at the final
    top: tuple[PlayerId, ...] = ()  # the tied top still to separate
    played: bool = False
    keys: dict[PlayerId, list[Key]] = field(default_factory=dict)

    def play(
        self,
        seated: Sequence[PlayerId],
        scores: Mapping[PlayerId, Decimal],
        number: int,
        seed: str,
        contenders: Sequence[PlayerId] | None = None,
    ) -> tuple[str, ...]:
        """A final (or extra game) settled: a tie no extra game can seat is flipped (noted)."""
        self.played, self.seated = True, tuple(seated)
        vying = self.seated if contenders is None else contenders
        best = max((scores[p] for p in vying), default=None)
        self.top = tuple(p for p in vying if scores[p] == best)
        if len(self.top) < 2 or self.extra_seats() is not None:
            return ()
        order = flip_order(self.top, seed, f"round{number}-final-flip")
        self.top = (max(self.top, key=lambda p: order[p]),)
        for p, value in order.items():
            self.keys.setdefault(p, []).append(("final-flip", Decimal(value)))
        return ("final-flip",)

    def extra(
        self, rec: RoundRecord, pens: Pens, active: set[PlayerId], seed: str
    ) -> tuple[str, ...]:
        """An extra game among the tied: only their scores count, a forfeit below any."""
        table = rec.plan.tables[0]
        res = next((r for r in rec.results if r.table.number == table.number), None)
        if res is None or res.status is TableStatus.PENDING:
            return ()
        tied = [p for p in table.players if p in active and p in self.top]
        if res.status is TableStatus.FORFEIT:
            scores = {p: (LOW if p in res.forfeited else Decimal(0)) for p in tied}
        else:
            scores = {p: s for p, s in net_scores(rec, res, pens).items() if p in tied}
        for p in tied:
            self.keys.setdefault(p, []).append(("extra", scores.setdefault(p, LOW)))
        stayed = [p for p in table.players if p in active]
        return self.play(stayed, scores, rec.number, seed, tied)

    def extra_seats(self) -> tuple[PlayerId, ...] | None:
        """Who sits the next extra game; ``None`` when nothing is left to play off."""
        if not self.played or len(self.top) < 2:
            return None
        return extra_table(self.top, self.seated, self.sizes, self.sides)

    def ranking_keys(self, p: PlayerId) -> list[Key]:
        """``p``'s keys from the extra games and flips, padded so every line compares alike."""
        depth = max((len(v) for v in self.keys.values()), default=0)
        got = self.keys.get(p, [])
        return got + [("extra", LOW)] * (depth - len(got))


@dataclass
class Match:
    """One pairing of a knockout round; a single player is a bye."""

    players: tuple[PlayerId, ...]
    winner: PlayerId | None = None
    decided: bool = False
    level: bool = False  # played and level: a play-off (extra round) is to decide


@dataclass
class Ladder:
    """Two-player knockout rounds replayed in bracket order, with the semi-final losers'
    match for third beside them (docs/rules/bracket.md#third-place)."""

    rounds: list[list[Match]] = field(default_factory=list)
    third: Match | None = None  # the semi-final losers' match for third place
    level: dict[PlayerId, Decimal] = field(default_factory=dict)
    score_at: dict[PlayerId, Decimal] = field(default_factory=dict)
    byes: Counter[PlayerId] = field(default_factory=Counter)
    forfeited: set[PlayerId] = field(default_factory=set)

    def ties(self) -> list[Match]:
        """The last round's matches still undecided, the match for third with them."""
        last = self.rounds[-1] if self.rounds else []
        third = [self.third] if self.third is not None else []
        return [m for m in (*last, *third) if not m.decided]

    def still_in(self, active: set[PlayerId]) -> set[PlayerId]:
        """The last round's winners and the players of its open matches, not the third's."""
        open_ = {p for m in self.ties() if m is not self.third for p in m.players if p in active}
        return set(self.alive(active)) | open_ if self.rounds else set()

    def playoff(self, active: set[PlayerId]) -> tuple[PlayerId, ...]:
        """The active players of the last round's level matches (an extra round decides)."""
        return tuple(p for m in self.ties() if m.level for p in m.players if p in active)

    def third_key(self, p: PlayerId) -> tuple[str, Decimal]:
        """The ranking key of the match for third: 1 for its winner, 0 for anyone else."""
        won = self.third is not None and self.third.decided and self.third.winner == p
        return "third-place", Decimal(won)

    def semi_losers(self, active: set[PlayerId]) -> tuple[PlayerId, ...]:
        """Who plays for third: the losers of semi-finals just played, both in, neither forfeit."""
        last = self.rounds[-1] if self.rounds else []
        if len(last) != 2 or any(len(m.players) != 2 or not m.decided for m in last):
            return ()
        losers = tuple(p for m in last for p in m.players if p != m.winner)
        return losers if all(p in active and p not in self.forfeited for p in losers) else ()

    def alive(self, active: set[PlayerId]) -> list[PlayerId]:
        """The last round's winners in bracket order (still active)."""
        last = self.rounds[-1] if self.rounds else []
        return [m.winner for m in last if m.winner is not None and m.winner in active]

    def play(self, rec: RoundRecord, pens: Pens, active: set[PlayerId]) -> None:
        """Add a knockout round, or settle the last one's level matches (``extra``)."""
        results = {res.table.number: res for res in rec.results}
        if rec.plan.stage == "extra":
            for table in rec.plan.tables:
                match = next((m for m in self.ties() if set(m.players) == set(table.players)), None)
                if match is not None:
                    self._decide(match, rec, results.get(table.number), pens, active)
            return
        tables = rec.plan.tables
        if THIRD_NOTE in rec.plan.notes:
            self.third, tables = Match(tables[1].players), tables[:1]
            self._decide(self.third, rec, results.get(rec.plan.tables[1].number), pens, active)
        depth = Decimal(len(self.rounds) + 1)
        matches = [Match(t.players) for t in tables]
        for match, table in zip(matches, tables, strict=True):
            self.level.update((p, depth) for p in match.players)
            self._decide(match, rec, results.get(table.number), pens, active)
        self.byes.update(rec.plan.byes)
        self.level.update((p, depth + HALF) for p in rec.plan.byes)
        byes = [Match((p,), p if p in active else None, True) for p in rec.plan.byes]
        self.rounds.append(matches + byes)

    def _decide(
        self, m: Match, rec: RoundRecord, res: TableResult | None, pens: Pens, active: set[PlayerId]
    ) -> None:
        winners = match_winner(rec, res, pens, active, m.players)
        if res is not None and res.status is TableStatus.CONFIRMED:
            self.score_at.update(net_scores(rec, res, pens))
        elif res is not None and res.status is TableStatus.FORFEIT:
            self.forfeited.update(res.forfeited)
            self.score_at.update((p, Decimal(0)) for p in m.players)  # a walkover
        if winners is None:
            m.level = res is not None and res.status is not TableStatus.PENDING
            return
        m.decided, m.winner = True, winners[0] if winners else None
        if m.winner is not None and m is not self.third:
            self.level[m.winner] += HALF


def match_winner(
    rec: RoundRecord,
    res: TableResult | None,
    pens: Pens,
    active: set[PlayerId],
    players: Sequence[PlayerId],
) -> tuple[PlayerId, ...] | None:
    """``(winner,)``, ``()`` when nobody goes on, or ``None`` for equal totals (a replay); a
    series cut short by the clock goes by the score so far (docs/rules/groups.md#best-of)."""
    if res is None or res.status is TableStatus.PENDING:
        return None
    stayed = [p for p in players if p in active and p not in res.forfeited]
    if res.status is TableStatus.FORFEIT or len(stayed) < 2:
        return tuple(stayed[:1]) if len(stayed) <= 1 else None
    net = net_scores(rec, res, pens)
    through, tied = at_cut(stayed, 1, lambda p: (net[p],))
    return None if tied else tuple(through)


def final_round(
    ladder: Ladder,
    alive: Sequence[PlayerId],
    active: set[PlayerId],
    third: bool,
    label: str,
    notes: tuple[str, ...],
) -> RoundPlan:
    """The final of the two ``alive``, with ``third`` the semi-final losers' match for third
    at table 2 (docs/rules/bracket.md#third-place)."""
    losers = ladder.semi_losers(active) if third else ()
    tables = (Table(1, tuple(alive)), *([Table(2, losers)] if losers else []))
    return RoundPlan(tables, (), "final", label, (*notes, THIRD_NOTE) if losers else notes)


def stage_line(
    at: int, removed: bool, final: bool, alive: bool, forfeit: bool = False, through: bool = False
) -> tuple[str, int]:
    """How far a player (or a pair) who reached round ``at`` got, as a ranking line says it
    (决赛 / 第N轮出局 / 第N轮进行中 / 第N轮晋级; ``through``: won it or a bye)."""
    if removed:
        return "removed", 0
    if forfeit:
        return "forfeit", at
    if final:
        return "final", 0
    if alive:
        return ("through" if through else "playing"), at
    return "out", at


def still_in_at(state: TournamentState, active: set[PlayerId]) -> list[set[PlayerId]]:
    """Per round, who is still in when replaying it: a withdrawal after a won match (seated
    in a later round) does not hand that match to the loser."""
    seated = [{*r.plan.byes, *(p for t in r.plan.tables for p in t.players)} for r in state.rounds]
    return [active.union(*seated[i + 1 :]) for i in range(len(seated))]


def tree(ladder: Ladder) -> tuple[BracketRound, ...]:
    """Per knockout round in bracket order: (player, opponent or ``None``, winner or ``None``)."""
    return tuple(
        tuple((m.players[0], (*m.players, None)[1], m.winner if m.decided else None) for m in rnd)
        for rnd in ladder.rounds
    )
