"""Splitting players into tables, byes, and seats.

``partition`` decides table sizes: the game's usual size first; when the count does not
fit, a short table (a smaller size the game allows, e.g. Big Two of 3) is preferred to
sending players away, and byes are left only when no mix of allowed sizes seats everyone
(seed 000 §一.1: 剩余选手不够4人则轮空参加下轮抽签 — the game there has no short table).
``cut`` deals a drawn order into tables; ``pick_byes`` gives byes to those who had fewest.
Repeat-avoiding seating lives in ``engine.mixing``-style helpers below (``mix``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations

from engine.errors import FormatError
from engine.model import PlayerId, Table


def partition(n: int, sizes: Sequence[int], short_tables: bool = True) -> tuple[list[int], int]:
    """Table sizes for ``n`` players and the number of byes.

    With ``short_tables`` the fewest byes win, then the fewest short tables (so 7 players of
    Big Two sit 4+3, 6 sit 3+3, 5 sit 4 with one bye). Without, only the usual size is used
    and the leftover players get byes (seed 000's literal rule).
    """
    usual = sizes[0]
    if n < min(sizes):
        return [], n
    if not short_tables:
        return [usual] * (n // usual), n % usual
    best: tuple[int, int, list[int]] | None = None
    smaller = sorted((s for s in sizes if s != usual), reverse=True)
    for full in range(n // usual, -1, -1):
        rest = n - full * usual
        shorts: list[int] = []
        for s in smaller:
            while rest >= s:
                shorts.append(s)
                rest -= s
        cand = (rest, len(shorts), [usual] * full + shorts)
        if best is None or cand[:2] < best[:2]:
            best = cand
        if rest == 0:
            break
    assert best is not None
    return best[2], best[0]


def pick_byes(
    pool: Sequence[PlayerId], count: int, had: Mapping[PlayerId, int], rng: random.Random
) -> list[PlayerId]:
    """Byes by lot among those with the fewest byes so far (nobody sits out twice first)."""
    if count == 0:
        return []
    order = list(pool)
    rng.shuffle(order)
    order.sort(key=lambda p: had.get(p, 0))
    return order[:count]


def cut(
    order: Sequence[PlayerId], sizes: Sequence[int], first_number: int = 1
) -> tuple[Table, ...]:
    """Deal a drawn order into tables of the given sizes; position in a table = seat A, B…"""
    if sum(sizes) != len(order):
        raise FormatError("bad-partition", players=len(order), seats=sum(sizes))
    tables: list[Table] = []
    start = 0
    for i, size in enumerate(sizes):
        tables.append(Table(first_number + i, tuple(order[start : start + size])))
        start += size
    return tuple(tables)


# --- seating without repeat opponents ------------------------------------------------
# Known resolvable designs: (players, table size) -> rounds, each round the players 0..n-1
# listed table after table in base-36 digits. Every pair meets at most once. Sources:
# affine planes AG(2,3) and AG(2,4) (built over GF(3), GF(4)); Kirkman's schoolgirls KTS(15);
# KTS(21); the social golfer schedules 5-4-5, 7-4-9 and 8-4-10 (CSPLib prob010, the
# literature collected in fpvandoorn/Dagstuhl-tables).
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
DESIGNS: dict[tuple[int, int], str] = {
    (9, 3): "036147258 048156237 057138246 012345678",
    (16, 4): "048c159d26ae37bf 05af14be278d369c 06bd17ac249f358e 079e168f25bc34ad 0123456789abcdef",
    (15, 3): "0123456789abcde 03614925c7ad8be 04d13e27b58a69c 08c16b23a47e59d 0791ac2483bd56e "
    "05b18d29e37c46a 0ae15726d3894bc",
    (21, 3): "01546c3ah8df29j7ekbgi 34978a1de0gh2bk5ci6fj 07b9ae48g2dh16i3cj5fk "
    "12357d4bf6eg0aj8ck9hi 45a68b2ce1fh09k3di7gj 189abc56h0ef27i4dj3gk 02438e59g7ch1bj6dkafi "
    "35b6790cd2fg1ak4ei8hj 26a9bd37f1cg08i5ej4hk ijk0361472589cfadgbeh",
    (20, 4): "01eg589b27acdfhj346i 7bgh06cf18ai39de245j 023b4aeh79fi68gj15cd "
    "137j6abd49cg05hi28ef 169hbcej35af04782dgi",
    (
        28,
        4,
    ): "0123456789abcdefghijklmnopqr 04ko15cgdhlp68iq79em2afr3bjn 05nr14eifjmq7agp6bcl28do39hk "
    "08gm19dr4acn5bhqfikp26ej37lo 06fh17kq4bdmeglr5ajo29in38cp 0ail1bfo58ek49jpdgnq27ch36mr "
    "07dj16np59flcimo48hr2bgk3aeq 0bep1ahm69gocjkr78fn24lq35di 09cq18jl25mp34fg6adk7birehno",
    (32, 4): "0123456789abcdefghijklmnopqrstuv 048s17im35avfjlqcgko26hnbdpu9ert "
    "0lru1nqs36do5beg7ach29fk4ipv8jmt 0bio1ajp39hq5fmu6elv28gr4cnt7dks "
    "0adm14fr378uejnobhkv2lps59ci6gqt 09nv15ot3eis8dhl6akr2cju4bmq7fgp "
    "05jk169u34gldinrafos27btehmp8cqv 0fht1dgv3cmrikqu79lo24ae58np6bjs "
    "06cp18ek3bfn9gmsailt25dq4hou7jrv 07eq1bcl3kpt5hrs68fi2mov49djagnu",
}

REPEAT = 10  # cost of seating two players together again, per earlier meeting
SAME_GROUP = 1000  # teammates / same department: only when nothing else fits
Rounds = Sequence[Sequence[Sequence[PlayerId]]]


def design(n: int, size: int) -> list[list[list[int]]]:
    """The stored design for ``n`` players in tables of ``size`` (empty if none)."""
    text = DESIGNS.get((n, size), "")
    return [
        [[DIGITS.index(c) for c in word[i : i + size]] for i in range(0, n, size)]
        for word in text.split()
    ]


def meetings(history: Rounds) -> dict[PlayerId, dict[PlayerId, int]]:
    """How often each pair has shared a table, as a symmetric adjacency map."""
    met: dict[PlayerId, dict[PlayerId, int]] = {}
    for tables in history:
        for table in tables:
            for p in table:
                row = met.setdefault(p, {})
                for q in table:
                    if q != p:
                        row[q] = row.get(q, 0) + 1
    return met


def repeats(history: Rounds) -> int:
    """Σ over pairs of max(0, meetings − 1): the seating quality figure."""
    met = meetings(history)
    return sum(max(0, c - 1) for row in met.values() for c in row.values()) // 2


def _from_design(
    players: Sequence[PlayerId], sizes: Sequence[int], history: Rounds, seed_rng: random.Random
) -> list[list[PlayerId]] | None:
    """The next round of a stored design, if the history so far is exactly its prefix.

    The design's points are mapped to the players by a shuffle drawn once per event (the
    caller's ``seed_rng``), so the schedule is still a verifiable lot draw.
    """
    if len(set(sizes)) != 1:
        return None
    rounds = design(len(players), sizes[0])
    if len(history) >= len(rounds):
        return None
    mapping = list(players)
    mapping.sort()
    seed_rng.shuffle(mapping)
    planned = [[[mapping[i] for i in t] for t in rnd] for rnd in rounds]
    seen = [{frozenset(t) for t in rnd} for rnd in history]
    if any(seen[i] != {frozenset(t) for t in planned[i]} for i in range(len(history))):
        return None
    return planned[len(history)]


def mix(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    history: Rounds,
    rng: random.Random,
    *,
    groups: Mapping[PlayerId, int] | None = None,
    order: Sequence[PlayerId] | None = None,
    design_rng: random.Random | None = None,
    effort: int = 3000,
) -> list[list[PlayerId]]:
    """Tables for one round with as few repeat opponents as possible.

    Cost of a seating: for every pair at a table, ``REPEAT`` per earlier meeting,
    ``SAME_GROUP`` when they share a team/department, and — for Swiss rounds, when
    ``order`` ranks the players by score — the distance between their places, so tables
    stay among players of similar score. A stored design is used when it applies; else a
    start (random, or cut in ``order``) is improved by swapping a conflicted player with
    the best partner from another table (a tabu search: a moved player rests a few steps).
    ``effort`` bounds the steps, so the result depends only on the inputs and ``rng``.
    """
    if design_rng is not None and groups is None and order is None:
        planned = _from_design(players, sizes, history, design_rng)
        if planned is not None:
            return planned
    met = meetings(history)
    team = groups or {}
    place = {p: i for i, p in enumerate(order)} if order is not None else {}
    scale = 1.0 / max(1, len(players)) if order is not None else 0.0

    def weight(p: PlayerId, q: PlayerId) -> float:
        w = float(REPEAT * met.get(p, {}).get(q, 0))
        if team and p in team and team.get(q) == team[p]:
            w += SAME_GROUP
        if scale:
            w += abs(place[p] - place[q]) * scale
        return w

    start = list(order) if order is not None else shuffled_copy(players, rng)
    tables: list[list[PlayerId]] = []
    pos = 0
    for size in sizes:
        tables.append(start[pos : pos + size])
        pos += size
    where = {p: i for i, t in enumerate(tables) for p in t}

    def hard(p: PlayerId) -> bool:
        t = tables[where[p]]
        row = met.get(p, {})
        return any(
            q != p and (q in row or (team and team.get(q, -1) == team.get(p, -2))) for q in t
        )

    tabu: dict[PlayerId, int] = {}
    everyone = list(players)
    best_seen = ([list(t) for t in tables], len(everyone) + 1)
    for step in range(effort):
        bad = [p for p in everyone if hard(p)]
        if len(bad) < best_seen[1]:
            best_seen = ([list(t) for t in tables], len(bad))
        if not bad:
            break
        p = bad[rng.randrange(len(bad))]
        tp = where[p]
        mates_p = [x for x in tables[tp] if x != p]
        cands = everyone if len(everyone) <= 240 else rng.sample(everyone, 240)
        best: tuple[float, float] | None = None
        best_q: PlayerId | None = None
        for q in cands:
            tq = where[q]
            if tq == tp or tabu.get(q, -1) > step:
                continue
            mates_q = [x for x in tables[tq] if x != q]
            delta = sum(weight(q, x) - weight(p, x) for x in mates_p) + sum(
                weight(p, y) - weight(q, y) for y in mates_q
            )
            key = (delta, rng.random())
            if best is None or key < best:
                best, best_q = key, q
        if best_q is None or best is None:
            continue
        if best[0] > 0 and rng.random() < 0.7:
            continue  # mostly refuse worsening moves; sometimes take one to escape
        tq = where[best_q]
        tables[tp][tables[tp].index(p)] = best_q
        tables[tq][tables[tq].index(best_q)] = p
        where[p], where[best_q] = tq, tp
        tabu[p] = step + 1 + rng.randrange(4)
        tabu[best_q] = step + 1 + rng.randrange(4)
    return best_seen[0]


def shuffled_copy(items: Sequence[PlayerId], rng: random.Random) -> list[PlayerId]:
    out = list(items)
    rng.shuffle(out)
    return out


def balance_seats(
    tables: Sequence[Sequence[PlayerId]], history: Rounds, rng: random.Random
) -> list[tuple[PlayerId, ...]]:
    """Order each table so everyone's count per seat (A–D, the winds) stays level.

    For each table the seat order with the least Σ (times already in that seat)² is
    taken, ties broken by lot; tables have at most four seats, so all orders are tried.
    """
    counts: dict[tuple[PlayerId, int], int] = {}
    for rnd in history:
        for table in rnd:
            for i, p in enumerate(table):
                counts[p, i] = counts.get((p, i), 0) + 1
    out: list[tuple[PlayerId, ...]] = []
    for table in tables:
        best: tuple[int, float] | None = None
        chosen: tuple[PlayerId, ...] = tuple(table)
        for perm in permutations(table):
            cost = sum(
                (counts.get((p, i), 0) + 1) ** 2
                + 1000
                * (counts.get((p, i), 0) > min(counts.get((p, j), 0) for j in range(len(perm))))
                for i, p in enumerate(perm)
            )
            key = (cost, rng.random())
            if best is None or key < best:
                best, chosen = key, perm
        out.append(chosen)
    return out


def seat_spread(history: Rounds) -> int:
    """The largest gap, over players, between their most and least used seat."""
    counts: dict[PlayerId, dict[int, int]] = {}
    width: dict[PlayerId, int] = {}
    for rnd in history:
        for table in rnd:
            for i, p in enumerate(table):
                counts.setdefault(p, {})[i] = counts.setdefault(p, {}).get(i, 0) + 1
                width[p] = max(width.get(p, 0), len(table))
    return max(
        (
            max(c.get(i, 0) for i in range(width[p])) - min(c.get(i, 0) for i in range(width[p]))
            for p, c in counts.items()
        ),
        default=0,
    )
