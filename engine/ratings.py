"""Ratings across events in a group (等级分): OpenSkill's Plackett–Luce model.

Zero-sum points stay the standings of one event; ratings only ask *who finished ahead of
whom*, so every table shape of these games fits one model:

* free-for-all (锄大地, 跑得快, 象棋…): each seat alone, ranked by its hand score;
* sides by hand (斗地主): the seats that scored alike in a hand played together, so the
  landlord stands alone against the farmers (``[[landlord], [farmer, farmer]]``);
* partners (掼蛋, 升级): the game's fixed sides (A&C against B&D).

A hand in which every seat scored 0 (a redeal, a declined bid) tells nothing and is
skipped; a drawn game (½–½) ranks both sides equal. A ``total`` report is one hand.
Forfeits are not rated: nobody played.

The figure shown is conservative, μ − 3σ, scaled to a 1500-based range, so a newcomer
starts at 1500 and a rating only climbs once the model is sure; a player with fewer
than :data:`PROVISIONAL_GAMES` rated hands is marked provisional.

:class:`Ledger` keeps one game's ratings in one group as a fold over its events in order,
with a snapshot after each event: a correction to event *k* (``/fix``, ``/undo``)
replays only *k* and the events after it, and always equals a replay from scratch.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from openskill.models import PlackettLuce

from engine.model import PlayerId

MODEL = PlackettLuce()
BASE, SCALE = 1500, 40  # display = BASE + SCALE·(μ − 3σ); a newcomer shows 1500
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean, uncertainty, and how many hands it rests on."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def display(self) -> int:
        """The conservative figure players see (μ − 3σ on a 1500 scale)."""
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


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


def rate(ratings: Mapping[PlayerId, Rating], encounter: Encounter) -> dict[PlayerId, Rating]:
    """The ratings of the encounter's players after it (the others are unchanged)."""
    teams = [
        [MODEL.rating(mu=r.mu, sigma=r.sigma) for r in (ratings.get(p, NEW) for p in team)]
        for team in encounter.teams
    ]
    after = MODEL.rate(teams, ranks=list(encounter.ranks))
    out: dict[PlayerId, Rating] = {}
    for team, new in zip(encounter.teams, after, strict=True):
        for p, r in zip(team, new, strict=True):
            out[p] = Rating(float(r.mu), float(r.sigma), ratings.get(p, NEW).games + 1)
    return out


def fold(
    ratings: Mapping[PlayerId, Rating], encounters: Iterable[Encounter]
) -> dict[PlayerId, Rating]:
    """Apply encounters in order to a copy of ``ratings``."""
    out = dict(ratings)
    for enc in encounters:
        out.update(rate(out, enc))
    return out


def replay(events: Iterable[EventResult]) -> dict[PlayerId, Rating]:
    """Ratings from scratch: every event in order of ``event``."""
    out: dict[PlayerId, Rating] = {}
    for ev in sorted(events, key=lambda e: e.event):
        out = fold(out, ev.encounters)
    return out


class Ledger:
    """One game's ratings in one group, kept as a fold with a snapshot after each event."""

    def __init__(self) -> None:
        self._events: list[EventResult] = []
        self._after: list[dict[PlayerId, Rating]] = []

    def put(self, result: EventResult) -> None:
        """Add an event, or replace it when it changed; later events are replayed."""
        keys = [e.event for e in self._events]
        at = bisect.bisect_left(keys, result.event)
        if at < len(keys) and keys[at] == result.event:
            if self._events[at] == result:
                return
            self._events[at] = result
        else:
            self._events.insert(at, result)
            self._after.insert(at, {})
        self._replay_from(at)

    def remove(self, event: int) -> None:
        """Forget an event (e.g. deleted); later events are replayed."""
        keys = [e.event for e in self._events]
        if event not in keys:
            return
        at = keys.index(event)
        del self._events[at], self._after[at]
        self._replay_from(at)

    def _replay_from(self, at: int) -> None:
        start = self._after[at - 1] if at > 0 else {}
        for i in range(at, len(self._events)):
            start = fold(start, self._events[i].encounters)
            self._after[i] = start

    @property
    def events(self) -> tuple[int, ...]:
        return tuple(e.event for e in self._events)

    def ratings(self) -> dict[PlayerId, Rating]:
        """Everyone's rating after the last event."""
        return dict(self._after[-1]) if self._after else {}

    def around(self, event: int) -> tuple[dict[PlayerId, Rating], dict[PlayerId, Rating]]:
        """Ratings just before and just after ``event`` (empty when it is not rated)."""
        keys = [e.event for e in self._events]
        if event not in keys:
            return {}, {}
        at = keys.index(event)
        return (dict(self._after[at - 1]) if at else {}), dict(self._after[at])

    def history(self, player: PlayerId) -> list[tuple[int, Rating]]:
        """The player's rating after each event they played, in order."""
        out: list[tuple[int, Rating]] = []
        for ev, after in zip(self._events, self._after, strict=True):
            if any(player in team for enc in ev.encounters for team in enc.teams):
                out.append((ev.event, after[player]))
        return out


def leaderboard(ratings: Mapping[PlayerId, Rating]) -> list[tuple[PlayerId, Rating]]:
    """Players by displayed rating, best first (ties by more hands, then by id)."""
    return sorted(ratings.items(), key=lambda kv: (-kv[1].display, -kv[1].games, kv[0]))
