"""From stored rows to engine objects: the game, the format and the tournament state.

The database keeps facts; everything the engine decides (next round, standings) is
recomputed from them here, so corrections and penalties always flow through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from bot.application.timers import REMIND_DEFAULT, remind_offsets
from db.models import Player, Round, TableRow, Tournament
from db.status import PlayerStatus
from engine.errors import ConfigError
from engine.formats import find_format
from engine.formats.base import Format
from engine.games import Game, find_game
from engine.games.base import Knob
from engine.model import (
    SEAT_LETTERS,
    Penalty,
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)

ON_WORDS, OFF_WORDS = ("on", "开", "是"), ("off", "关", "否", "0")
NOSHOW_MAX_MINUTES = 24 * 60  # a check-in longer than a day is not a check-in


@dataclass(frozen=True)
class MinutesKnob(Knob):
    """A number of minutes, or ``on`` (the seed's figure) / ``off``."""

    def coerce(self, raw: str) -> object:
        value = raw.strip().lower()
        return value if value in ON_WORDS + OFF_WORDS else super().coerce(raw)


@dataclass(frozen=True)
class RemindKnob(Knob):
    """Reminder offsets before each deadline: ``24h,1h``, ``2d,3h,10m`` or ``off``."""

    def coerce(self, raw: str) -> object:
        try:
            remind_offsets(raw)
        except ValueError:
            raise ConfigError("remind-value", knob=self.name, value=raw) from None
        return raw.strip().lower()


# Tournament policies that are the bot's, not the game's or the format's.
POLICY_KNOBS = (
    Knob("reporter", "captain", ("captain", "winner", "any"), str),
    Knob("late", "forfeit", ("forfeit", "organiser"), str),
    # Minutes from a round's opening to its check-in cut-off. Off by default: most chat
    # events play a round over days, and a cut-off only means something when a round
    # starts at a set time in one room. ``on`` takes the game's own figure.
    MinutesKnob("noshow", "off", (), int, maximum=NOSHOW_MAX_MINUTES),
    # Reminders before each deadline; a round shorter than them all gets the last call,
    # 结束前10分钟大会统一提醒 (docs/rules/deadlines.md#last-call). Changes apply to deadlines set
    # from then on.
    RemindKnob("remind", REMIND_DEFAULT, (), str),
)
# Policies that may change mid-event: they take effect from the next round opened.
RUNNING_KNOBS = frozenset({"noshow", "remind", "late-entry", "apart"})


# Not (or not yet) in the event: withdrew before the draw, or waiting beyond the cap.
UNCOUNTED = frozenset({PlayerStatus.LEFT, PlayerStatus.WAITING})
# Dropped out: never drawn again (a knockout's walkover aside), kept in the standings.
DROPPED = PlayerStatus.DROPPED


def apart_pairs(t: Tournament) -> tuple[tuple[int, int], ...]:
    """The pairs /apart keeps at different tables (``options["people"]["apart"]``)."""
    return tuple((int(a), int(b)) for a, b in t.options.get("people", {}).get("apart", ()))


def game_of(t: Tournament) -> Game:  # type: ignore[type-arg]
    return find_game(t.game)(t.options.get("game", {}))


def format_of(t: Tournament) -> Format:
    return find_format(t.format)(game_of(t), t.options.get("format", {}))


def policy(t: Tournament, name: str) -> str:
    knob = next(k for k in POLICY_KNOBS if k.name == name)
    return str(t.options.get("policy", {}).get(name, knob.default))


def noshow_minutes(t: Tournament) -> int:
    """The check-in's length in minutes; 0 when there is none."""
    value = policy(t, "noshow").lower()
    if value in OFF_WORDS:
        return 0
    if value in ON_WORDS:
        return seed_noshow_minutes(t)
    return min(int(value), NOSHOW_MAX_MINUTES)  # an older, unchecked setting stays usable


def seed_noshow_minutes(t: Tournament) -> int:
    """The game's own figure (迟到 N 分钟以弃权论), declared by the engine."""
    return find_game(t.game).noshow_minutes


def signed_up(t: Tournament) -> list[Player]:
    """Players who count: active, dropped or removed later (left-before-the-draw ones and
    the waiting list beyond the cap do not)."""
    return [p for p in t.players if p.status not in UNCOUNTED]


def active_count(t: Tournament) -> int:
    """Players still in the event (what a format's size-dependent choices count)."""
    return sum(p.status == PlayerStatus.ACTIVE for p in t.players)


def names(t: Tournament) -> dict[int, str]:
    """Each player's name; a place a substitute took reads ``out→in`` (the standings'
    line is the place, which both played)."""
    who = {p.user_id: p.name for p in t.players}
    for place, now in playing_for(t).items():
        who[place] = f"{who[place]}→{who.get(now, now)}"
    return who


def substitutions(t: Tournament) -> list[tuple[int, int, int]]:
    """Each /sub in order: the player out, the one in, the first round they play."""
    return [(int(a), int(b), int(n)) for a, b, n in t.options.get("people", {}).get("subs", ())]


def places_of(t: Tournament) -> dict[int, int]:
    """Substitute → the place they took (the original player's id, through a chain of
    substitutions): the engine sees one player per place from the first round on. The
    stored tables seat the people who sat there (a substitute by their own id), so the
    ratings read who actually played each hand from them, and the standings' lines
    through this."""
    place: dict[int, int] = {}
    for out, sub, _ in substitutions(t):
        place[sub] = place.get(out, out)
    return place


def by_person(t: Tournament, per_line: Mapping[int, int]) -> dict[int, int]:
    """A figure of each line (a place…) for everyone who played it: a substitute and the
    one they replaced share their line's, as partners share a pair's
    (docs/rules/people.md#sub)."""
    line = places_of(t)
    people = [p.user_id for p in t.players]
    return {u: per_line[line.get(u, u)] for u in people if line.get(u, u) in per_line}


@dataclass(frozen=True)
class Part:
    """The rounds one person played a line that changed hands: from ``first`` (after
    ``replaced``, whose place they took) up to ``last`` (before ``by`` took it)."""

    first: int
    last: int | None = None
    replaced: int | None = None
    by: int | None = None


def part_of(t: Tournament, user: int) -> Part | None:
    """``user``'s part of a line that changed hands by /sub, else None."""
    subs = substitutions(t)
    came = next(((out, n) for out, sub, n in subs if sub == user), None)
    left = next(((sub, n) for out, sub, n in subs if out == user), None)
    if came is None and left is None:
        return None
    entered = next((p.entered_round for p in t.players if p.user_id == user), None)
    first = came[1] if came is not None else entered or 1
    return Part(
        first,
        left[1] - 1 if left is not None else None,
        came[0] if came is not None else None,
        left[0] if left is not None else None,
    )


def playing_for(t: Tournament) -> dict[int, int]:
    """Place → who plays it now, where a substitute does (the inverse of the latest)."""
    return {place: sub for sub, place in places_of(t).items()}


def relabelled(state: TournamentState, place: Mapping[int, int]) -> TournamentState:
    """The state with each substitute's id replaced by the place they took, so the
    results before and after a /sub add up for the pair or team
    (docs/rules/people.md)."""
    if not place:
        return state

    def a(u: int) -> int:
        return place.get(u, u)

    def table(tb: Table) -> Table:
        return Table(tb.number, tuple(a(u) for u in tb.players))

    rounds = tuple(
        RoundRecord(
            rec.number,
            replace(
                rec.plan,
                tables=tuple(table(x) for x in rec.plan.tables),
                byes=tuple(a(u) for u in rec.plan.byes),
            ),
            tuple(
                replace(res, table=table(res.table), forfeited=frozenset(map(a, res.forfeited)))
                for res in rec.results
            ),
        )
        for rec in state.rounds
    )
    return replace(
        state,
        players=tuple(p for p in state.players if p not in place),
        rounds=rounds,
        penalties=tuple(replace(pen, player=a(pen.player)) for pen in state.penalties),
        removed=frozenset(map(a, state.removed)),
        teams={p: g for p, g in state.teams.items() if p not in place},
        dropped={a(u): n for u, n in state.dropped.items()},
        apart=tuple((a(x), a(y)) for x, y in state.apart),
    )


def latest_round(t: Tournament) -> Round | None:
    return t.rounds[-1] if t.rounds else None


def table_result(row: TableRow) -> TableResult:
    table = Table(row.number, tuple(row.seats))
    forfeited = frozenset(row.forfeited)
    if row.status == TableStatus.CONFIRMED:
        live = next(r for r in row.reports if r.live)
        scores = tuple(Decimal(s) for s in live.scores)
        return TableResult(table, TableStatus.CONFIRMED, scores, forfeited)
    status = TableStatus.FORFEIT if row.status == TableStatus.FORFEIT else TableStatus.PENDING
    return TableResult(table, status, (), forfeited)


def plan_of(r: Round) -> RoundPlan:
    tables = tuple(Table(row.number, tuple(row.seats)) for row in r.tables)
    return RoundPlan(tables, tuple(r.byes), r.stage, r.seed_label, tuple(r.notes))


def given_teams(t: Tournament) -> dict[int, int]:
    """Teams signed up together: player → label (the smallest member id).

    A team stands when every member, still signed up, named exactly the others; until
    then its members are dealt by lot like everyone else. In a team event, colleagues
    of one department (/dept) who named nobody are their department's team
    (:func:`department_teams`)."""
    active = {p.user_id: p for p in signed_up(t)}
    teams: dict[int, int] = {}
    for p in active.values():
        group = {p.user_id, *p.partners}
        if len(group) > 1 and all(q in active and {q, *active[q].partners} == group for q in group):
            teams[p.user_id] = min(group)
    if find_format(t.format).has_team_table:
        teams |= department_teams([p for p in active.values() if p.user_id not in teams], t)
    return teams


def department_teams(free: list[Player], t: Tournament) -> dict[int, int]:
    """Teams by unit (每个单位派送3名选手; docs/rules/teams.md#departments): the players of
    one department, in sign-up order, are one team, or as many teams of the event's size
    as they fill, dealt in turn (six colleagues are two teams of three, four are two of
    two): player → label (the smallest member id)."""
    size = format_of(t).team_size()
    colleagues: dict[str, list[int]] = {}
    for p in free:
        if p.department:
            colleagues.setdefault(p.department, []).append(p.user_id)
    teams: dict[int, int] = {}
    for members in colleagues.values():
        count = -(-len(members) // size)
        for i in range(count):
            team = members[i::count]
            teams |= dict.fromkeys(team, min(team))
    return teams


def team_names(t: Tournament, teams: Mapping[int, int]) -> dict[int, str]:
    """Team number → the department all its members come from (``teams``: player → team
    number); a department with several teams numbers them (财务部 2). A team of mixed or
    no departments is not in the result: it is called by its number."""
    department = {p.user_id: p.department for p in t.players}
    members: dict[int, set[str | None]] = {}
    for user, team in teams.items():
        members.setdefault(team, set()).add(department.get(user))
    out: dict[int, str] = {}
    seen: dict[str, int] = {}
    for team, (name, *others) in sorted((n, list(d)) for n, d in members.items()):
        if name is None or others:
            continue
        seen[name] = seen.get(name, 0) + 1
        out[team] = name if seen[name] == 1 else f"{name} {seen[name]}"
    return out


def departments(t: Tournament) -> dict[int, int]:
    """Player → department number, for the formats that seat departments apart (the
    engine's ``state.teams`` there means "never at one table when avoidable")."""
    if not find_format(t.format).seats_departments_apart:
        return {}
    named = sorted({p.department for p in t.players if p.department})
    number = {name: i + 1 for i, name in enumerate(named)}
    return {p.user_id: number[p.department] for p in t.players if p.department}


def dropped_out(t: Tournament) -> dict[int, int]:
    """Who dropped out, after which round, as the engine is told: at once where nobody is
    knocked out; in a knockout only once the draw has seated them again, so that their
    next match is their opponent's walkover (docs/rules/people.md) rather than the last
    one being handed to the player they beat."""
    dropped = {p.user_id: p.dropped_round or 0 for p in t.players if p.status == DROPPED}
    if not dropped or not find_format(t.format).eliminates:
        return dropped
    seen: dict[int, int] = {}
    for r in t.rounds:
        for u in [*r.byes, *(u for row in r.tables for u in row.seats)]:
            seen[u] = r.number
    return {u: n for u, n in dropped.items() if seen.get(u, 0) > n}


def state_of(t: Tournament) -> TournamentState:
    gone = dropped_out(t)
    rounds = tuple(
        RoundRecord(r.number, plan_of(r), tuple(table_result(row) for row in r.tables))
        for r in t.rounds
    )
    state = TournamentState(
        players=tuple(p.user_id for p in signed_up(t)),
        seed=t.seed,
        rounds=rounds,
        penalties=tuple(Penalty(p.user_id, Decimal(p.points), p.round_number) for p in t.penalties),
        removed=frozenset(p.user_id for p in t.players if p.status == PlayerStatus.REMOVED)
        | set(gone),
        teams=given_teams(t) if find_format(t.format).signs_up_together else departments(t),
        seeding=tuple(t.options.get("draw", {}).get("seeding", ())),
        dropped=gone,
        entered={p.user_id: p.entered_round for p in t.players if p.entered_round},
        apart=apart_pairs(t),
    )
    return relabelled(state, places_of(t))


def seat_of(row: TableRow, user_id: int) -> str:
    return SEAT_LETTERS[row.seats.index(user_id)]


def options_with(t: Tournament, section: str, key: str, value: str) -> dict[str, Any]:
    """A copy of the options with one knob changed (the caller validates it)."""
    options = {k: dict(v) for k, v in t.options.items()}
    options.setdefault(section, {})[key] = value
    return options
