"""Ratings across events in a group (等级分): Elo points won and lost hand by hand.

Zero-sum points stay the standings of one event; a rating only asks, in every hand, *who
finished ahead of whom*, so every table shape of these games fits one rule:

* free-for-all (锄大地, 跑得快, 象棋…): each seat alone, ranked by its hand score;
* sides by hand (斗地主): the seats that scored alike in a hand played together, so the
  landlord stands alone against the farmers (``[[landlord], [farmer, farmer]]``);
* partners (掼蛋, 升级): the game's fixed sides (A&C against B&D).

In one hand every player meets every player of the other sides: finishing ahead of one
scores 1, level ½, behind 0, and the expected score against them is Elo's,
``1 / (1 + 10^((theirs − mine) / 400))``. Each meeting moves the two ratings by the same
amount, ``w · (score − expected)``, in opposite directions, with ``w = K / m`` where ``m``
is the most opponents any seat of that hand faced: whoever faces the whole table moves by
at most :data:`K` a hand, and a farmer half as much as the landlord who played both of
them. So an event's changes add up to 0, and a player who finishes last in every hand
only loses points (and the winner of every hand only gains). The changes of an event are
all reckoned from the ratings it began with (the order of its hands does not matter).

A hand in which every seat scored 0 (a redeal, a declined bid) tells nothing and is
skipped; a drawn game (½–½) ranks both sides equal. A ``total`` report is one hand.
Forfeits are not rated: nobody played.

Everyone starts at :data:`BASE`; the figure is shown only once it rests on
:data:`PROVISIONAL_HANDS` rated hands (before that the player is 定级中, listed apart).

Because an event's hands are all reckoned from the ratings it began with, what its tables
move adds up (:func:`moves`): the bot keeps each event's starting ratings and adds a table
when it is confirmed; a correction to event *k* replays only *k* and the events after it,
from those snapshots, and always equals a :func:`replay` from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import EngineError
from engine.games.base import Game
from engine.model import PlayerId

BASE = 1500  # everyone's first rating
K = 16  # the most one hand can move the rating of a seat that faced the whole table
SPREAD = 400  # Elo: 400 points apart, the stronger is expected to score 10 to 1
PROVISIONAL_HANDS = 10  # rated hands before a rating is shown


@dataclass(frozen=True)
class Rating:
    """A player's rating and how many rated hands it rests on."""

    value: float = float(BASE)
    games: int = 0

    @property
    def display(self) -> int:
        """The figure players see once it is no longer provisional."""
        return round(self.value)

    @property
    def provisional(self) -> bool:
        """Too few hands to show a figure (定级中)."""
        return self.games < PROVISIONAL_HANDS


NEW = Rating()


@dataclass(frozen=True)
class Encounter:
    """One rated hand: the sides that played it and their places (1 best, ties equal)."""

    teams: tuple[tuple[PlayerId, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class EventResult:
    """What one event contributes: its rated hands in the order they were played."""

    event: int  # orders events in the group (the tournament's id)
    encounters: tuple[Encounter, ...]


def sides(
    seats: Sequence[PlayerId],
    scores: Sequence[Decimal],
    partners: Sequence[Sequence[int]] = (),
    by_score: bool = False,
) -> Encounter | None:
    """The encounter of one hand at one table, or ``None`` when the hand ranks nobody.

    ``partners`` are a partnership game's fixed sides (seat indexes); ``by_score`` groups
    the seats that scored alike (a landlord against the farmers). Otherwise each seat is
    its own side. Sides are ranked by their best score, larger first.
    """
    if partners:
        groups = [tuple(i for i in side if i < len(seats)) for side in partners]
    elif by_score:
        by: dict[Decimal, list[int]] = {}
        for i, s in enumerate(scores):
            by.setdefault(s, []).append(i)
        groups = [tuple(v) for v in by.values()]
    else:
        groups = [(i,) for i in range(len(seats))]
    groups = [g for g in groups if g]
    best = [max(scores[i] for i in g) for g in groups]
    if len(groups) < 2 or not any(best):  # nobody played (a redeal, a declined bid)
        return None
    order = sorted(set(best), reverse=True)
    return Encounter(
        tuple(tuple(seats[i] for i in g) for g in groups),
        tuple(order.index(b) + 1 for b in best),
    )


def table_hands(
    game: Game,  # type: ignore[type-arg]
    seats: Sequence[PlayerId],
    text: str,
    scores: Sequence[str],
) -> list[Encounter]:
    """The rated hands of one confirmed table, from its report (``text``, and the stored
    ``scores`` when the grammar no longer takes an organiser's total)."""
    try:
        hands: Sequence[Sequence[Decimal]] = game.parse(text, len(seats)).per_hand
    except EngineError:
        hands = (tuple(Decimal(s) for s in scores),)
    found = (sides(seats, hand, game.partners, game.rating_by_score) for hand in hands)
    return [enc for enc in found if enc is not None]


def expected(mine: float, theirs: float) -> float:
    """Elo's expected score of ``mine`` against ``theirs`` (½ when level)."""
    return 1 / (1 + 10 ** ((theirs - mine) / SPREAD))


def changes(ratings: Mapping[PlayerId, Rating], encounter: Encounter) -> dict[PlayerId, float]:
    """What one hand gives each of its players, from ``ratings`` (adds up to 0)."""
    seated = [
        (p, rank, side)
        for side, (team, rank) in enumerate(zip(encounter.teams, encounter.ranks, strict=True))
        for p in team
    ]
    total = len(seated)
    weight = K / max(total - len(team) for team in encounter.teams)
    out = dict.fromkeys((p for p, _, _ in seated), 0.0)
    for i, (p, rank_p, side_p) in enumerate(seated):
        for q, rank_q, side_q in seated[i + 1 :]:
            if side_p == side_q:
                continue
            score = 1.0 if rank_p < rank_q else 0.5 if rank_p == rank_q else 0.0
            mine, theirs = ratings.get(p, NEW).value, ratings.get(q, NEW).value
            moved = weight * (score - expected(mine, theirs))
            out[p] += moved
            out[q] -= moved
    return out


def moves(
    ratings: Mapping[PlayerId, Rating], encounters: Iterable[Encounter]
) -> tuple[dict[PlayerId, float], dict[PlayerId, int]]:
    """What ``encounters`` move each of their players, all reckoned from ``ratings``, and
    how many hands each played. Adds up over an event's tables: a table's moves depend
    only on the ratings its players began the event with."""
    moved: dict[PlayerId, float] = {}
    hands: dict[PlayerId, int] = {}
    for enc in encounters:
        for p, d in changes(ratings, enc).items():
            moved[p] = moved.get(p, 0.0) + d
            hands[p] = hands.get(p, 0) + 1
    return moved, hands


def fold(
    ratings: Mapping[PlayerId, Rating], encounters: Iterable[Encounter]
) -> dict[PlayerId, Rating]:
    """One event's hands applied to a copy of ``ratings``: every hand reckoned from the
    ratings the event began with, and each player's hands counted."""
    moved, hands = moves(ratings, encounters)
    out = dict(ratings)
    for p, d in moved.items():
        was = ratings.get(p, NEW)
        out[p] = Rating(was.value + d, was.games + hands[p])
    return out


def replay(events: Iterable[EventResult]) -> dict[PlayerId, Rating]:
    """Ratings from scratch: every event in order of ``event``."""
    out: dict[PlayerId, Rating] = {}
    for ev in sorted(events, key=lambda e: e.event):
        out = fold(out, ev.encounters)
    return out


def leaderboard(ratings: Mapping[PlayerId, Rating]) -> list[tuple[PlayerId, Rating]]:
    """Players by rating, best first (ties by more hands, then by id)."""
    return sorted(ratings.items(), key=lambda kv: (-kv[1].value, -kv[1].games, kv[0]))
