"""Splitting players into tables, byes, and seats.

``partition`` decides table sizes: the game's usual size first; when the count does not
fit, a short table (a smaller size the game allows, e.g. Big Two of 3) is preferred to
sending players away, and byes are left only when no mix of allowed sizes seats everyone
(docs/rules/knockout.md#leftovers: 剩余选手不够4人则轮空; ``leftover=bye`` keeps to that).
``cut`` deals a drawn order into tables; ``pick_byes`` gives byes to those who had fewest.
Below them, seating without repeat opponents: stored designs, the :func:`mix` search, and
seat balance (A–D, the winds: everyone's count per seat within one), kept by levelling
tables and, when that is not enough, by choosing seats and tables together
(:func:`level_mix`), never at the price of a repeat meeting.
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
    and the leftover players get byes (``leftover=bye``, docs/rules/knockout.md#leftovers).
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
# listed table after table, seat after seat, in base-36 digits. Every pair meets at most
# once. Sources: affine planes AG(2,3) and AG(2,4) (built over GF(3), GF(4)); Kirkman's
# schoolgirls KTS(15); KTS(21); the social golfer schedules 5-4-5, 7-4-9 and 8-4-10
# (CSPLib prob010). 6-4-7 (24 players) is a 1-rotational design built offline: points
# Z7 × {0,1,2} ∪ {∞0,∞1,∞2}; a base round of three blocks {∞k, one point of each class}
# and three blocks of finite points, chosen so that all 36 of its pairs lie in distinct
# difference orbits, developed over Z7 (round r adds r to every finite point).
# Seat orders inside each table were searched offline so that every player's count per
# seat differs by at most 1 after every round (24 players: after every round too; 32:
# after the tenth round), so these rounds are used with their seats as stored.
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
DESIGNS: dict[tuple[int, int], str] = {
    (9, 3): "603714852 048165237 570381426 021453687",
    (16, 4): "840c9d15ae263fb7 5af0b1e4d87269c3 0b6dc7a1f249e538 709e168f2c5b43da 20134657b89adcef",
    (15, 3): "2015348769abdce 360419c527daeb8 04d1e3b27a8569c c8016b32ae745d9 097ac1248db365e "
    "b0581d9e273c4a6 a0e1576d2938c4b",
    (21, 3): "501c46ha3fd89j27kebig 439a871edgh02bki5cj6f 07be9a8g4d2h61i3cjkf5 "
    "1237d5f4be6gj0akc8ih9 5a4b86ce2h1f9k0d3ig7j 891abc65h0fe2i74jd3gk 20438e95ghc7bj1k6difa "
    "53b796cd0g2fa1ke4i8hj 6a2db9f731gc0i8je54kh kij6304178529cfagdbeh",
    (20, 4): "g10e9b58c2a7dfjhi364 hg7b6cf01a8i3ed9254j b023e4ha7i9f8jg65d1c "
    "j731a6bd49cg0hi5f8e2 6h91ecbj5fa340872dgi",
    (24, 4): "ah2lf3m96knb0475gdc8e1ji lib3ma4gnce0158679hdj2kf cjl4hb5mdf1n960287iakg3e "
    "5ldkim6c2ng730a1b89j4efh 7le6md0jh8n3b2419kca5gif 8fl01mk74n9ic352dabejh6g "
    "l1g92e8mnja536d4fc7b0ihk",
    (28, 4): "2013567489abefdcihjgnklmropq k40o1gc5dphl6q8i7me9arf2bn3j "
    "05nr4ei1mjqfp7galcb6od28h39k g8m091rdca4nqb5hfikpj26e3lo7 fh60kq714mbdgerlajo5n29i3cp8 "
    "0liaob1f8k5e9pj4dnqg27hcr3m6 jd0716npl5f9iocmh84rbg2kea3q p0ebm1ah69gocrkj7f8nq4l25id3 "
    "0q9c8l1jp52m4g3fad6kib7roenh",
    (32, 4): "203174568a9bfedcighjkmnlpqorustv s840m17i35avqfljcogkn62hudbpetr9 "
    "lru01qsnd36o5geb7hac29fkv4pitjm8 oi0bjp1ah9q3mu5f6lvegr82cnt4ksd7 "
    "da0m41fr378uojenkbvhp2slic95gq6t 9vn05o1t3sie8lhd6kraj2cum4bqfp7g "
    "0kj56u9143glnridaosf7b2tehpmqcv8 0fthgd1vrc3muikql7o9ae42pn58sb6j "
    "06cp18kebfn39mgsltia5d2qhuo4rvj7 e0q7b1lctpk3r5hs8if6v2modj49anug",
}

# Schedules for events known to last at most as many rounds as stored: 12 players in
# tables of 4 meet with 0, 3, 6 and 13 repeats after rounds 1-4 (the round-by-round search:
# 0, 3, 8, 18), each player in every seat once (searched offline: mix, then seat orders by
# backtracking). Not used when the length is unknown: what follows round 4 is unplanned.
PLANNED: dict[tuple[int, int], str] = {
    (12, 4): "1985a23740b6 57032b91864a 6524b37891a0 341908627a5b",
}

WINDOW = 6  # Swiss swaps look this many tables up and down the score order
REPEAT = 10  # cost of seating two players together again, per earlier meeting
SAME_GROUP = 1000  # teammates / same department: only when nothing else fits
JOINT_TRIES = 3  # more level_mix draws when the first one costs repeat meetings
Rounds = Sequence[Sequence[Sequence[PlayerId]]]


def design(n: int, size: int, rounds: int | None = None) -> list[list[list[int]]]:
    """The stored design for ``n`` players in tables of ``size`` (empty if none); when the
    event's number of ``rounds`` is known and a :data:`PLANNED` schedule covers it, that."""
    text = PLANNED.get((n, size), "")
    if rounds is None or rounds > len(text.split()):
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
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    history: Rounds,
    seed_rng: random.Random,
    length: int | None = None,
) -> list[list[PlayerId]] | None:
    """The next round of a stored design, if the history so far is exactly its prefix.

    The design's points are mapped to the players by a shuffle drawn once per event (the
    caller's ``seed_rng``), so the schedule is still a verifiable lot draw.
    """
    if len(set(sizes)) != 1:
        return None
    rounds = design(len(players), sizes[0], length)
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
    start: Sequence[Sequence[PlayerId]] | None = None,
    classes: Mapping[PlayerId, int] | None = None,
) -> list[list[PlayerId]]:
    """Tables for one round with as few repeat opponents as possible.

    Cost of a seating: for every pair at a table, ``REPEAT`` per earlier meeting,
    ``SAME_GROUP`` when they share a team/department, and — for Swiss rounds, when
    ``order`` ranks the players by score — the distance between their places, so tables
    stay among players of similar score. A stored design is used when it applies; else a
    start (random, or cut in ``order``) is improved by swapping a conflicted player with
    the best partner from another table (a tabu search: a moved player rests a few steps).
    ``effort`` bounds the steps, so the result depends only on the inputs and ``rng``.
    Given ``start`` tables and seat ``classes`` (:func:`level_mix`), the search begins
    there and swaps only players of one class, who trade places seat for seat.
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

    line = list(order) if order is not None else shuffled_copy(players, rng)
    reach = WINDOW * max(sizes, default=1)
    kind = classes or {}
    members: dict[int, list[PlayerId]] = {}
    for p in players:
        if p in kind:
            members.setdefault(kind[p], []).append(p)

    def near(p: PlayerId) -> list[PlayerId]:
        """Swiss swaps stay within a window of score places: far swaps cost more than
        a repeat saves, and skipping them keeps a 200-player round well under a second."""
        i = place[p]
        return line[max(0, i - reach) : i + reach + 1]

    tables: list[list[PlayerId]] = []
    if start is not None:
        tables = [list(t) for t in start]
    else:
        pos = 0
        for size in sizes:
            tables.append(line[pos : pos + size])
            pos += size
    where = {p: i for i, t in enumerate(tables) for p in t}

    def hard(p: PlayerId) -> bool:
        """Shares a table with an earlier opponent or a teammate."""
        row = met.get(p, {})
        return any(
            q != p and (q in row or (team and team.get(q, -1) == team.get(p, -2)))
            for q in tables[where[p]]
        )

    def teammate_pairs() -> int:
        return sum(
            p in team and team.get(q) == team[p]
            for t in tables
            for i, p in enumerate(t)
            for q in t[i + 1 :]
        )

    tabu: dict[PlayerId, int] = {}
    everyone = list(players)
    # The best seating met so far: fewest teammate pairs, then fewest conflicted players.
    # When repeats cannot all be avoided, the walk must not hand back a seating with
    # teammates together just because it had fewer players in conflict.
    best_seen: tuple[list[list[PlayerId]], tuple[int, int]] = ([], (len(everyone) ** 2, 0))
    for step in range(effort):
        bad = [p for p in everyone if hard(p)]
        score = (teammate_pairs() if team else 0, len(bad))
        if score < best_seen[1]:
            best_seen = ([list(t) for t in tables], score)
        if not bad:
            break
        p = bad[rng.randrange(len(bad))]
        tp = where[p]
        mates_p = [x for x in tables[tp] if x != p]
        cands = near(p) if order is not None else everyone
        if kind:
            cands = [q for q in cands if kind[q] == kind[p]] if order else members[kind[p]]
        if len(cands) > 240:
            cands = rng.sample(cands, 240)
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


def seat_round(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    history: Rounds,
    rng: random.Random,
    *,
    groups: Mapping[PlayerId, int] | None = None,
    order: Sequence[PlayerId] | None = None,
    design_rng: random.Random | None = None,
    rounds: int | None = None,
) -> list[tuple[PlayerId, ...]]:
    """One round's tables with seats in order (A, B, C, D).

    ``rounds`` is the event's planned number of rounds when the caller knows it (Swiss
    does); it unlocks schedules stored for events up to that length (:data:`PLANNED`).

    A stored design's round keeps its stored seats (searched so that seat counts stay
    level); otherwise :func:`mix` groups the players, :func:`level_tables` swaps
    equivalent players between tables whose seats cannot all be level, and
    :func:`balance_seats` orders each table. If some table is still not level (typical
    in every fourth round, when each player has one least-used seat left), tables and
    seats are chosen together (:func:`level_mix`). That grouping never costs a teammate
    pair; when it levels every table it is kept even at the price of a few repeat meetings
    (a few more draws look for the cheapest), since both targets matter (the seating
    benchmark, docs/performance.md#seating-quality) and
    40 players × 12 rounds meet them both this way (45 repeats ≤ 47.5, seats within one);
    when it levels only some tables, repeats stay the weightier and it must cost none.
    """
    if design_rng is not None and groups is None and order is None:
        planned = _from_design(players, sizes, history, design_rng, rounds)
        if planned is not None:
            return [tuple(t) for t in planned]
    tables = mix(players, sizes, history, rng, groups=groups, order=order)
    level_tables(tables, history, groups or {}, order, rng)
    counts = seat_counts(history)
    if len(set(sizes)) == 1 and any(not level_seating(t, counts) for t in tables):
        team = groups or {}
        grouped = _quality(tables, history, team)
        joint = level_mix(players, sizes, history, rng, groups=groups, order=order)
        best = _quality(joint, history, team)
        if best[2] == 0 and best[1] > grouped[1]:
            more = random.Random()  # extra draws leave ``rng`` (and so later rounds) as they were
            more.setstate(rng.getstate())
            for _ in range(JOINT_TRIES):
                other = level_mix(players, sizes, history, more, groups=groups, order=order)
                if _quality(other, history, team) < best:
                    joint, best = other, _quality(other, history, team)
        if best[0] <= grouped[0] and (best[2] == 0 or best <= grouped):
            tables = joint
    return balance_seats(tables, history, rng)


def _quality(
    tables: Sequence[Sequence[PlayerId]], history: Rounds, groups: Mapping[PlayerId, int]
) -> tuple[int, int, int]:
    """How a round's grouping compares: teammate pairs, then repeat meetings (both as
    :func:`mix` weighs them, so the seat pass never trades a repeat for a level seat),
    then tables that cannot be seated level."""
    met = meetings(history)
    counts = seat_counts(history)
    teammates = clashes = 0
    for t in tables:
        for i, p in enumerate(t):
            for q in t[i + 1 :]:
                teammates += p in groups and groups.get(q) == groups[p]
                clashes += met.get(p, {}).get(q, 0)
    return teammates, clashes, sum(not level_seating(t, counts) for t in tables)


def seat_classes(
    players: Sequence[PlayerId],
    width: int,
    per_seat: int,
    counts: Mapping[tuple[PlayerId, int], int],
    rng: random.Random,
) -> dict[PlayerId, int]:
    """Give every player a seat, ``per_seat`` players to each, drifting as little as possible.

    Cost of a seat for a player: (times in it − times in their least-used seat)², so 0 on a
    least-used seat. A greedy start (players with the fewest cheap seats first, ties by
    lot) is made optimal by cancelling negative cycles in the graph of seats, where
    the edge X→Y is the cheapest move of one player from X to Y; with at most four seats
    the cycles are few. When everyone played every round at full tables a zero-cost
    assignment exists (each seat is least-used for the same number of players, a regular
    bipartite graph), so every player gets one of their least-used seats.
    """
    cost: dict[PlayerId, list[int]] = {}
    for p in players:
        row = [counts.get((p, i), 0) for i in range(width)]
        cost[p] = [(c - min(row)) ** 2 for c in row]
    order = shuffled_copy(players, rng)
    order.sort(key=lambda p: cost[p].count(0))
    load = [0] * width
    seat: dict[PlayerId, int] = {}
    for p in order:
        x = min(
            (x for x in range(width) if load[x] < per_seat),
            key=lambda x: (cost[p][x], load[x]),
        )
        seat[p] = x
        load[x] += 1
    cycles = [
        c for k in range(2, width + 1) for c in permutations(range(width), k) if min(c) == c[0]
    ]
    while True:
        move: dict[tuple[int, int], tuple[int, PlayerId]] = {}
        for p in order:
            x = seat[p]
            for y in range(width):
                if y != x:
                    gain = cost[p][y] - cost[p][x]
                    if (x, y) not in move or gain < move[x, y][0]:
                        move[x, y] = (gain, p)
        best: tuple[int, tuple[int, ...]] | None = None
        for c in cycles:
            edges = [(c[i], c[(i + 1) % len(c)]) for i in range(len(c))]
            if all(e in move for e in edges):
                total = sum(move[e][0] for e in edges)
                if total < 0 and (best is None or total < best[0]):
                    best = (total, c)
        if best is None:
            return seat
        c = best[1]
        for i in range(len(c)):
            seat[move[c[i], c[(i + 1) % len(c)]][1]] = c[(i + 1) % len(c)]


def level_mix(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    history: Rounds,
    rng: random.Random,
    *,
    groups: Mapping[PlayerId, int] | None = None,
    order: Sequence[PlayerId] | None = None,
) -> list[list[PlayerId]]:
    """Tables and seats chosen together, for rounds where grouping first leaves some
    table unable to seat everyone on a least-used seat (in a round where each player
    has one such seat left, a table needs one player short of each seat).

    Seats come first (:func:`seat_classes`); table ``t`` starts with the ``t``-th player
    of every seat's class (in score order for Swiss rounds, else by lot), and :func:`mix`
    then avoids repeats swapping only players of one class, so each keeps their seat.
    """
    width, count = sizes[0], len(sizes)
    classes = seat_classes(players, width, count, seat_counts(history), rng)
    line = list(order) if order is not None else shuffled_copy(players, rng)
    by_seat = [[p for p in line if classes[p] == x] for x in range(width)]
    start = [[by_seat[x][t] for x in range(width)] for t in range(count)]
    return mix(
        players, sizes, history, rng, groups=groups, order=order, start=start, classes=classes
    )


def seat_counts(history: Rounds) -> dict[tuple[PlayerId, int], int]:
    """How often each player sat in each seat so far."""
    counts: dict[tuple[PlayerId, int], int] = {}
    for rnd in history:
        for table in rnd:
            for i, p in enumerate(table):
                counts[p, i] = counts.get((p, i), 0) + 1
    return counts


def level_seating(table: Sequence[PlayerId], counts: Mapping[tuple[PlayerId, int], int]) -> bool:
    """Whether every player at the table can take one of their least-used seats."""
    width = len(table)
    allowed = []
    for p in table:
        row = [counts.get((p, i), 0) for i in range(width)]
        allowed.append({i for i in range(width) if row[i] == min(row)})
    return any(
        all(i in allowed[k] for k, i in enumerate(perm)) for perm in permutations(range(width))
    )


def level_tables(
    tables: list[list[PlayerId]],
    history: Rounds,
    groups: Mapping[PlayerId, int],
    order: Sequence[PlayerId] | None,
    rng: random.Random,
    effort: int = 3000,
) -> None:
    """Swap players between tables until every table can be seated level.

    A table is level when each player can take one of their least-used seats
    (:func:`level_seating`); otherwise someone's seat count would drift two apart. A swap
    is considered only when it adds no repeat meeting and no teammate pair (the count of
    pairs who met before or are teammates does not grow, then nor do their meetings),
    and, in Swiss rounds, stays within a window of score places, so the grouping
    :func:`mix` found keeps its quality. Swaps that level more
    tables are taken, sideways ones sometimes (to wander), worse ones never.
    """
    counts = seat_counts(history)
    unlevel = {i for i, t in enumerate(tables) if not level_seating(t, counts)}
    if not unlevel:
        return
    met = meetings(history)
    place = {p: i for i, p in enumerate(order)} if order is not None else {}
    where = {p: i for i, t in enumerate(tables) for p in t}
    everyone = [p for t in tables for p in t]
    reach = WINDOW * max(len(t) for t in tables)

    def clash(p: PlayerId, mates: Sequence[PlayerId]) -> int:
        row = met.get(p, {})
        return sum(
            SAME_GROUP**2 * (p in groups and groups.get(q) == groups[p])
            + SAME_GROUP * (q in row)
            + row.get(q, 0)
            for q in mates
        )

    for _ in range(effort):
        if not unlevel:
            return
        i = rng.choice(sorted(unlevel))
        p = rng.choice(tables[i])
        if order is not None:
            k = place[p]
            q = order[rng.randrange(max(0, k - reach), min(len(order), k + reach + 1))]
        else:
            q = rng.choice(everyone)
        j = where[q]
        if j == i:
            continue
        mates_p = [x for x in tables[i] if x != p]
        mates_q = [y for y in tables[j] if y != q]
        if clash(q, mates_p) + clash(p, mates_q) > clash(p, mates_p) + clash(q, mates_q):
            continue
        new_i = [q if x == p else x for x in tables[i]]
        new_j = [p if y == q else y for y in tables[j]]
        before = (i in unlevel) + (j in unlevel)
        after = (not level_seating(new_i, counts)) + (not level_seating(new_j, counts))
        if after < before or (after == before and rng.random() < 0.3):
            tables[i], tables[j] = new_i, new_j
            where[p], where[q] = j, i
            for t in (i, j):
                if level_seating(tables[t], counts):
                    unlevel.discard(t)
                else:
                    unlevel.add(t)


# --- players kept apart (/apart) -------------------------------------------------------
Apart = Sequence[tuple[PlayerId, PlayerId]]


def apart_clashes(tables: Sequence[Sequence[PlayerId]], apart: Apart) -> int:
    """Pairs to be kept apart that share a table."""
    where = {p: i for i, t in enumerate(tables) for p in t}
    return sum(p in where and where[p] == where.get(q) for p, q in apart)


def keep_apart(
    tables: Sequence[Sequence[PlayerId]],
    apart: Apart,
    history: Rounds,
    groups: Mapping[PlayerId, int] | None = None,
) -> tuple[list[tuple[PlayerId, ...]], bool]:
    """The seating with no pair of ``apart`` at one table, and whether that was possible
    (docs/rules/people.md: kept apart whenever some seating allows it).

    First, single swaps of one of a pair with a player at another table, each the one
    that adds the fewest repeat meetings (a teammate or colleague met counts as much as
    :data:`SAME_GROUP` says, as in :func:`mix`); a swap trades seats, so the seat letters stay
    as balanced as they were. When swaps cannot clear every clash, an exact search
    places the players named in pairs (the only ones that matter) into the tables'
    seats; only if that finds nothing is the seating kept as it was, with ``False``."""
    out = [list(t) for t in tables]
    pairs = [(p, q) for p, q in apart if p != q]
    if not apart_clashes(out, pairs):
        return [tuple(t) for t in out], True
    met = meetings(history)
    for _ in range(len(pairs) * 4):
        if not _swap_one(out, pairs, met, groups or {}):
            break
    if not apart_clashes(out, pairs):
        return [tuple(t) for t in out], True
    placed = _place_apart(out, pairs)
    if placed is None:
        return [tuple(t) for t in tables], False
    return [tuple(t) for t in placed], True


def _swap_one(
    tables: list[list[PlayerId]],
    pairs: Apart,
    met: Mapping[PlayerId, Mapping[PlayerId, int]],
    groups: Mapping[PlayerId, int],
) -> bool:
    """Clear one clash by the cheapest swap that creates none; False when none does."""
    where = {p: i for i, t in enumerate(tables) for p in t}
    count = apart_clashes(tables, pairs)
    best: tuple[int, int, int, int] | None = None  # cost, table, seat, other player index
    for p, q in pairs:
        if p not in where or where[p] != where.get(q):
            continue
        ti = where[q]
        for tj, other in enumerate(tables):
            if tj == ti:
                continue
            for k, r in enumerate(other):
                trial = [list(t) for t in tables]
                trial[ti][trial[ti].index(q)], trial[tj][k] = r, q
                if apart_clashes(trial, pairs) >= count:
                    continue
                cost = sum(_cost(q, x, met, groups) for x in trial[tj] if x != q) + sum(
                    _cost(r, x, met, groups) for x in trial[ti] if x != r
                )
                if best is None or cost < best[0]:
                    best = (cost, tj, k, q)
        if best is not None:
            _, tj, k, moved = best
            ti = where[moved]
            r = tables[tj][k]
            tables[ti][tables[ti].index(moved)], tables[tj][k] = r, moved
            return True
    return False


def _cost(
    p: PlayerId,
    q: PlayerId,
    met: Mapping[PlayerId, Mapping[PlayerId, int]],
    groups: Mapping[PlayerId, int],
) -> int:
    """What seating ``p`` with ``q`` costs: earlier meetings, and a shared group."""
    same = p in groups and groups.get(q) == groups[p]
    return REPEAT * met.get(p, {}).get(q, 0) + (SAME_GROUP if same else 0)


def _place_apart(tables: Sequence[Sequence[PlayerId]], pairs: Apart) -> list[list[PlayerId]] | None:
    """An exact search: the named players, most constrained first, each into a table
    holding none of their pairs; everyone else fills the seats left, in their order."""
    seated = {p for t in tables for p in t}
    named = sorted({p for pair in pairs for p in pair if p in seated})
    enemies: dict[PlayerId, set[PlayerId]] = {p: set() for p in named}
    for p, q in pairs:
        if p in seated and q in seated:
            enemies[p].add(q)
            enemies[q].add(p)
    named.sort(key=lambda p: -len(enemies[p]))
    sizes = [len(t) for t in tables]
    chosen: list[set[PlayerId]] = [set() for _ in tables]

    def place(i: int) -> bool:
        if i == len(named):
            return True
        p = named[i]
        for j, members in enumerate(chosen):
            if len(members) < sizes[j] and not members & enemies[p]:
                members.add(p)
                if place(i + 1):
                    return True
                members.discard(p)
        return False

    if not place(0):
        return None
    rest = [p for t in tables for p in t if p not in enemies]
    out: list[list[PlayerId]] = []
    for j, t in enumerate(tables):
        # a named player keeps their seat when they stay at their table
        row = [p for p in t if p in chosen[j]]
        row += sorted(chosen[j] - set(row))
        while len(row) < sizes[j]:
            row.append(rest.pop(0))
        out.append(row)
    return out
