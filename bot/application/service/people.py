"""People coming and going: the cap and its waiting list, late entry, and dropping out.

Each change is coded once here and audited in the caller's transaction; none of these
functions speaks to the chat (``bot/application/handlers/people.py`` does). The settings live in
``Tournament.options["people"]`` (``cap``, ``late``, ``apart``), so /set and /undo treat
them as any other knob. Rules in the project's words: docs/rules/people.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.application.context import Ctx
from bot.application.service.audit import (
    Dropped,
    EnteredLate,
    Joined,
    PartnersNamed,
    Promoted,
    Substituted,
    TableBefore,
    WalkedOver,
)
from bot.application.tournament import active_count, latest_round, signed_up
from bot.language.errors import UserError
from bot.language.inputs import id_or_none
from db.models import Player, Round, TableRow, Tournament
from db.status import EventStatus, PlayerStatus, ReportStatus, RoundStatus, TableState
from engine.formats import find_format

SECTION = "people"
OFF_WORDS = ("off", "关", "否", "0", "no")
MAX_CAP = 10_000


def settings(t: Tournament) -> dict[str, Any]:
    return dict(t.options.get(SECTION, {}))


def cap_of(t: Tournament) -> int | None:
    """The most players sign-up takes (None: no cap); beyond it they wait."""
    cap = settings(t).get("cap")
    return int(cap) if cap else None


def late_value(t: Tournament) -> str:
    """The ``late`` setting as given, else the format's default ("" where the format
    cannot take late entrants at all)."""
    default = find_format(t.format).late_entry
    if default is None:
        return ""
    return str(settings(t).get("late", default))


def late_until(t: Tournament) -> int | None:
    """The last round a late entrant may still enter (None: no late entry)."""
    value = late_value(t)
    return int(value) if value and value not in OFF_WORDS else None


def read_cap(raw: str) -> int | None:
    """``/set cap N`` (``off`` lifts it)."""
    value = raw.strip().lower()
    if value in OFF_WORDS:
        return None
    cap = id_or_none(value)  # ASCII digits: "²".isdigit() holds, and int("²") raises
    if cap is None or not 2 <= cap <= MAX_CAP:
        raise UserError("people.refuse.cap-value", value=raw.strip(), most=MAX_CAP)
    return cap


def read_late(raw: str) -> str:
    """``/set late off`` or ``/set late N`` (entries until round N); also ``until N``."""
    value = raw.strip().lower().removeprefix("until").strip()
    if value in OFF_WORDS:
        return "off"
    rounds = id_or_none(value)
    if rounds is None or rounds < 2:
        raise UserError("people.refuse.late-value", value=raw.strip())
    return value


# --- the waiting list ------------------------------------------------------------------
async def is_full(ctx: Ctx, t: Tournament) -> bool:
    cap = cap_of(t)
    return cap is not None and await ctx.uow.repo.active_players(t.id) >= cap


def wait(ctx: Ctx, player: Player) -> None:
    """Put a player at the end of the queue: their ticket is the moment they joined."""
    player.status = PlayerStatus.WAITING
    player.queued = int(ctx.now.timestamp() * 1000)


def queue(t: Tournament) -> list[Player]:
    """The waiting list in order (the tournament's players loaded)."""
    waiting = [p for p in t.players if p.status == PlayerStatus.WAITING]
    return sorted(waiting, key=lambda p: (p.queued or 0, p.id))


def place(t: Tournament, player: Player) -> int:
    return 1 + next(i for i, p in enumerate(queue(t)) if p.user_id == player.user_id)


def names_player(ref: object, player: Player) -> bool:
    """Whether a remembered request's words (``@handle``, user id or name) mean ``player``."""
    if not isinstance(ref, str):
        return False
    handle = f"@{player.username}".lower() if player.username else None
    return ref.lower() == handle or ref in (str(player.user_id), player.name)


def named(refs: Sequence[object], player: Player) -> bool:
    """Whether ``refs`` (partners by id, or a request's words) name ``player``."""
    return player.user_id in refs or any(names_player(r, player) for r in refs)


async def should_wait(ctx: Ctx, t: Tournament, partners: Sequence[int | str]) -> bool:
    """Whether a new sign-up goes on the waiting list: the cap is reached, or a partner
    they name (by id, or by the words of a request) is waiting already: a pair or team
    waits as one."""
    if cap_of(t) is None:
        return False
    if await is_full(ctx, t):
        return True
    if partners:
        await ctx.uow.repo.load_whole(t)
        return any(named(partners, p) for p in queue(t))
    return False


def put_on_list(ctx: Ctx, t: Tournament, player: Player) -> None:
    wait(ctx, player)
    ctx.uow.record(t, Joined(player.user_id, player.name, waiting=True))


def unit_of(t: Tournament, player: Player) -> list[Player]:
    """A waiting player with the waiting partners they name who name them back: they
    wait, and are let in, as one pair or team."""
    mates = [
        p
        for p in queue(t)
        if p.user_id != player.user_id and named(player.partners, p) and named(p.partners, player)
    ]
    return [player, *mates]


def promote(ctx: Ctx, t: Tournament) -> list[Player]:
    """After a place came free before the draw: the first waiting players (a pair or team
    as a whole) in, as long as they fit under the cap. Audited, one entry each."""
    cap = cap_of(t)
    promoted: list[Player] = []
    if t.status != EventStatus.SIGNUP:
        return promoted
    while (waiting := queue(t)) and cap is not None:
        unit = unit_of(t, waiting[0])
        active = active_count(t)
        if active + len(unit) > cap:
            break
        for p in unit:
            let_in(ctx, t, p)
            promoted.append(p)
    return promoted


def set_partners(ctx: Ctx, t: Tournament, player: Player, partners: Sequence[int | str]) -> None:
    """Store whom ``player`` names as partners (docs/rules/teams.md#teams-by-lot): the
    signed-up by id, the others by the words that named them. Requests that named
    ``player`` before they joined, by those ``player`` names back, now name them by id,
    so a mutual request forms at once."""
    ids = [p for p in partners if isinstance(p, int)]
    for p in t.players:
        if p.user_id not in ids or not any(names_player(r, player) for r in p.partners):
            continue
        old = list(p.partners)
        p.partners = sorted(
            {r for r in old if not names_player(r, player)} | {player.user_id}, key=str
        )
        ctx.uow.record(t, PartnersNamed(p.user_id, old, list(p.partners)))
    old = list(player.partners)
    player.partners = list(partners)
    ctx.uow.record(t, PartnersNamed(player.user_id, old, list(player.partners)))


def let_in(ctx: Ctx, t: Tournament, player: Player) -> None:
    """From the waiting list into the event."""
    player.status, player.queued = PlayerStatus.ACTIVE, None
    ctx.uow.record(t, Promoted(player.user_id))


# --- late entry ------------------------------------------------------------------------
def late_round(t: Tournament) -> int:
    """The round a late entrant would enter, or a refusal saying why they cannot (where
    the format takes late entrants: :func:`late_until` is None where it does not)."""
    if t.status != EventStatus.RUNNING:
        raise UserError("refuse.signup-closed")
    until = late_until(t)
    if until is None:
        raise UserError("people.refuse.late-off")
    r = latest_round(t)
    entering = (r.number if r is not None else 0) + 1
    rounds = settings_rounds(t)
    if entering > until or (rounds is not None and entering > rounds):
        raise UserError("people.refuse.late-closed", round=min(until, rounds or until))
    return entering


def settings_rounds(t: Tournament) -> int | None:
    """The format's number of rounds, where it has that knob."""
    value = t.options.get("format", {}).get("rounds")
    knob = next((k for k in find_format(t.format).knobs if k.name == "rounds"), None)
    if knob is None:
        return None
    return int(value if value is not None else knob.default)


def enter_late(ctx: Ctx, t: Tournament, player: Player, entering: int) -> None:
    player.status, player.queued, player.entered_round = PlayerStatus.ACTIVE, None, entering
    ctx.uow.record(t, EnteredLate(player.user_id, entering))


# --- dropping out ----------------------------------------------------------------------
def _seat(t: Tournament, player: Player) -> TableRow | None:
    """The player's table in the latest round while it is drawn or open and waits for
    its result (they have not forfeited it already)."""
    r = latest_round(t)
    if r is None or r.status == RoundStatus.CLOSED:
        return None
    row = next((x for x in r.tables if player.user_id in x.seats), None)
    if row is None or row.status != TableState.PENDING or player.user_id in row.forfeited:
        return None
    return row


def _waits_for_ruling(row: TableRow) -> bool:
    """A report stands on the table, waiting for a tablemate or a ruling: it was played."""
    return any(x.live and x.status != ReportStatus.CONFIRMED for x in row.reports)


def unplayed(t: Tournament, player: Player) -> TableRow | None:
    """The player's table in the latest round (drawn or open) while its match is still
    to be played: no result, and no report waiting for a tablemate or a ruling (a level
    match's games so far are no result). Leaving now is a walkover at it."""
    row = _seat(t, player)
    return row if row is not None and not _waits_for_ruling(row) else None


def reported(t: Tournament, player: Player) -> TableRow | None:
    """The player's table of the latest round whose report waits for a tablemate or a
    ruling: leaving does not undo a game played, the report stands as for anyone."""
    row = _seat(t, player)
    return row if row is not None and _waits_for_ruling(row) else None


def concede(row: TableRow, out: Sequence[int]) -> TableBefore:
    """A walkover at ``row``: ``out`` forfeit it and the table is settled at once, as
    their forfeit; the others win or go on as the format says of a forfeit
    (docs/rules/people.md#walkover). Returns the table as it was, for /undo."""
    before = TableBefore(row.id, row.status, list(row.forfeited))
    row.forfeited = sorted({*row.forfeited, *out})
    row.status = TableState.FORFEIT
    return before


def drop(ctx: Ctx, t: Tournament, player: Player) -> TableRow | None:
    """The player is never drawn again and keeps their line in the standings, marked
    with the round they dropped after. A table still to be played is a walkover at once
    (:func:`concede`). Returns that table."""
    if player.status != PlayerStatus.ACTIVE:
        raise UserError("people.refuse.not-playing", name=player.name)
    r = latest_round(t)
    assert r is not None  # dropping needs the draw (the command's stage)
    row = unplayed(t, player)
    before = concede(row, [player.user_id]) if row is not None else None
    ctx.uow.record(t, Dropped(player.user_id, player.status, r.number, before))
    player.status, player.dropped_round = PlayerStatus.DROPPED, r.number
    return row


async def undo_drop(ctx: Ctx, t: Tournament, entry: Dropped) -> None:
    """Back in: only while the round they dropped in is still the latest (a later draw
    was made without them)."""
    r = latest_round(t)
    if r is None or r.number != entry.round:
        raise UserError("refuse.undo-too-late")
    player = next(p for p in t.players if p.user_id == entry.user)
    player.status, player.dropped_round = entry.status, None
    if entry.table is not None:
        row = next(x for x in r.tables if x.id == entry.table.table_id)
        _reopen(t, r)
        row.status, row.forfeited = entry.table.status, entry.table.forfeited


def _reopen(t: Tournament, r: Round) -> None:
    if r.status == RoundStatus.CLOSED:
        r.status, t.status = RoundStatus.OPEN, EventStatus.RUNNING


# --- substitutes ----------------------------------------------------------------------
def substitute(ctx: Ctx, t: Tournament, out: Player, sub: Player, first: int) -> None:
    """``sub`` takes ``out``'s place from round ``first``: the place (its pair or team,
    and everything it scored) plays on under a new name. Audited; /undo takes it back
    until that round is drawn."""
    entry = Substituted(out.user_id, sub.user_id, first, out.status, sub.status)
    options = {k: dict(v) for k, v in t.options.items()}
    section = options.setdefault(SECTION, {})
    section["subs"] = [*section.get("subs", []), [out.user_id, sub.user_id, first]]
    t.options = options
    out.status = PlayerStatus.SUBSTITUTED
    sub.status, sub.queued = PlayerStatus.ACTIVE, None
    ctx.uow.record(t, entry)


async def undo_sub(ctx: Ctx, t: Tournament, entry: Substituted) -> None:
    r = latest_round(t)
    if r is not None and r.number >= entry.round:
        raise UserError("refuse.undo-too-late")
    options = {k: dict(v) for k, v in t.options.items()}
    subs = [s for s in options[SECTION]["subs"] if s[:2] != [entry.out, entry.sub]]
    options[SECTION]["subs"] = subs
    t.options = options
    for p in t.players:
        if p.user_id == entry.out:
            p.status = entry.out_status
        elif p.user_id == entry.sub:
            p.status = entry.sub_status


def walk_over(ctx: Ctx, t: Tournament, r: Round) -> list[tuple[TableRow, list[int]]]:
    """A knockout's draw seated players who dropped out after winning: each table of
    theirs is a walkover at once (:func:`concede`). Returns the tables and who forfeited."""
    gone = {p.user_id for p in t.players if p.status == PlayerStatus.DROPPED}
    ruled = []
    for row in r.tables:
        out = [u for u in row.seats if u in gone and u not in row.forfeited]
        if out:
            concede(row, out)
            ctx.uow.record(t, WalkedOver(r.number, row.number, out))
            ruled.append((row, out))
    return ruled


def marks(t: Tournament) -> dict[int, tuple[str, int]]:
    """What the standings and /players say beside a name: ``("dropped", N)`` (退出 after
    round N) or ``("entered", N)`` (joined late, from round N)."""
    out: dict[int, tuple[str, int]] = {}
    for p in signed_up(t):
        if p.status == PlayerStatus.DROPPED:
            out[p.user_id] = ("dropped", p.dropped_round or 0)
        elif p.entered_round:
            out[p.user_id] = ("entered", p.entered_round)
    return out
