"""People coming and going, as the chat sees it: the waiting list beyond ``/set cap``,
late entry (``/join`` after the draw, knob ``late``), ``/drop``, ``/sub`` and ``/apart``.

The state changes are ``bot/application/service/people.py``'s; this module parses, asks for a
confirming press where a drop is a walkover of a table, and renders (what a walkover did
is said here for /dq too). Sign-up (``signup.py``)
calls the hooks below at the few points where the cap, the queue and late entry matter.
Rules: docs/rules/people.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import display_name, find_player, tell
from bot.application.service import people
from bot.application.tournament import (
    UNCOUNTED,
    active_count,
    format_of,
    game_of,
    latest_round,
    names,
    substitutions,
)
from bot.language.errors import UserError
from bot.language.inputs import YES_WORDS, id_or_none
from db.models import Player, TableRow, Tournament
from db.status import EventStatus, PlayerStatus, RoundStatus
from engine.formats import find_format

SIGNUP_CAP = "signup-cap"
DROP_BUTTON = "drop"
# Who may /leave before the draw: the signed up, and those waiting beyond the cap.
ON_LIST = (PlayerStatus.ACTIVE, PlayerStatus.WAITING)


# --- /set cap, /set late -------------------------------------------------------------
def set_knob(ctx: Ctx, t: Tournament, key: str, value: str) -> bool:
    """``/set cap N`` and ``/set late off|N``; False for any other knob (and for the
    deadline policy that shares the name ``late``: ``forfeit`` / ``organiser``). A game
    with a ``cap`` of its own (Dou Dizhu's 封顶) keeps it: there the sign-up cap is
    ``/set signup-cap N``, a name every event takes."""
    if key == SIGNUP_CAP or (key == "cap" and key not in game_of(t).knob_names()):
        if t.status != EventStatus.SIGNUP:
            raise UserError("people.refuse.cap-after-draw")
        cap = people.read_cap(value)
        _store(ctx, t, "cap", str(cap) if cap else None)
        done = ctx.t("people.cap-set", cap=cap) if cap else ctx.t("people.cap-off")
        count = active_count(t)
        over = ctx.t("people.cap-over", count=count) if cap and count > cap else ""
        ctx.out.say(
            "\n".join(filter(None, [done, over, promoted_text(ctx, Event.of(ctx, t).promote())]))
        )
        return True
    if key == "late" and value.strip().lower() not in ("forfeit", "organiser"):
        if find_format(t.format).late_entry is None:  # the reason alone: not a sign-up
            raise UserError(f"people.late-no.{t.format}")
        late = people.read_late(value)
        _store(ctx, t, "late", late)
        ctx.out.reply("people.late-set", rule=late_rule(ctx, t))
        return True
    return False


def _store(ctx: Ctx, t: Tournament, key: str, value: object) -> None:
    """One people setting changed, audited as a /set (so /undo takes it back)."""
    options: dict[str, object] = {k: dict(v) for k, v in t.options.items()}
    section = dict(t.options.get(people.SECTION, {}))
    options[people.SECTION] = section
    if value is None:
        section.pop(key, None)
    else:
        section[key] = value
    Event.of(ctx, t).set_knob(options, key if key != "late" else "late-entry")


# --- sign-up and the waiting list ----------------------------------------------------
async def waiting_text(ctx: Ctx, t: Tournament, player: Player) -> str:
    await ctx.uow.repo.load_whole(t)
    return ctx.t("people.waiting", name=player.name, place=people.place(t, player))


def promoted_text(ctx: Ctx, promoted: Sequence[Player]) -> str:
    """After a /leave before the draw: who came in from the waiting list
    (``Event.leave``), in one line (they are named, so each is told in the group)."""
    if not promoted:
        return ""
    return ctx.t("people.promoted", names=[p.name for p in promoted])


def waiting_lines(ctx: Ctx, t: Tournament) -> str:
    """/players: the waiting list below the players, in its order."""
    waiting = people.queue(t)
    if not waiting:
        return ""
    lines = [ctx.t("people.waiting-line", n=i, name=p.name) for i, p in enumerate(waiting, 1)]
    return "\n" + ctx.t("people.waiting-header", count=len(waiting)) + "\n" + "\n".join(lines)


def player_mark(ctx: Ctx, t: Tournament, player: Player) -> str:
    """/players: what is said beside a name (dropped out, entered late, removed)."""
    kind, number = people.marks(t).get(player.user_id, ("", 0))
    if kind:
        return " · " + ctx.t(f"stage.{kind}", round=number)
    if player.status == PlayerStatus.SUBSTITUTED:
        by = next((s for o, s, _ in substitutions(t) if o == player.user_id), 0)
        sub_name = next((p.name for p in t.players if p.user_id == by), "")
        return " · " + ctx.t("people.subbed-mark", sub=sub_name)
    return "" if player.status == PlayerStatus.ACTIVE else " ✗"


async def join_late(ctx: Ctx, t: Tournament) -> None:
    """``/join`` after the draw: into the next round's draw where the format and the
    ``late`` setting allow it; otherwise the refusal says why."""
    ctx.caller.require_person()
    await ctx.uow.repo.load_whole(t)
    player = next((p for p in t.players if p.user_id == ctx.caller.actor), None)
    fmt = find_format(t.format)
    new = player is None or player.status in UNCOUNTED
    if fmt.late_entry is None and new and format_of(t).team_size() > 1:
        await _reserve(ctx, t, player)
        return
    refuse_late_format(ctx, t)
    if player is not None and player.status == PlayerStatus.ACTIVE:
        ctx.out.reply("signup.already", name=player.name)
        return
    if player is not None and not new:  # dropped out, removed, or replaced
        raise UserError("people.refuse.no-return", name=player.name)
    entering = people.late_round(t)
    if player is None:
        player = await ctx.uow.repo.new_player(
            t, ctx.caller.actor, display_name(ctx), ctx.caller.inc.sender.username
        )
    Event.of(ctx, t).enter_late(player, entering)
    ctx.out.reply("people.entered", name=player.name, round=entering, missed=missed_rule(ctx, t))


async def _reserve(ctx: Ctx, t: Tournament, player: Player | None) -> None:
    """In a pair or team event a /join after the draw cannot play, but may stand by: on
    the waiting list, from which the organiser brings a substitute in with /sub."""
    if player is None:
        await ctx.uow.repo.new_player(
            t, ctx.caller.actor, display_name(ctx), ctx.caller.inc.sender.username
        )
        player = next(p for p in t.players if p.user_id == ctx.caller.actor)
    if player.status != PlayerStatus.WAITING:
        Event.of(ctx, t).stand_by(player)
    reason = ctx.t(f"people.late-no.{t.format}")
    ctx.out.reply("people.reserve", reason=reason, name=player.name, place=people.place(t, player))


def refuse_late_format(ctx: Ctx, t: Tournament) -> None:
    """A format that cannot take a player after the draw: sign-up is closed, and why."""
    if find_format(t.format).late_entry is None:
        reason = ctx.t(f"people.late-no.{t.format}")
        raise UserError("people.refuse.late-format", reason=reason)


# --- /drop ------------------------------------------------------------------------------
async def drop(ctx: Ctx, args: str) -> None:
    """``/drop`` (oneself) or ``/drop <player>`` (an organiser): out from the next draw.
    A drop that forfeits a table still to be played is asked once more, with a button
    (or ``/drop … yes``)."""
    t = await ctx.uow.tournament()
    words = args.split()
    sure = bool(words) and words[-1].lower() in YES_WORDS
    ref = " ".join(words[:-1] if sure else words)
    player = await _dropping(ctx, t, ref)
    row = people.unplayed(t, player)
    if row is not None and not sure:
        r = latest_round(t)
        assert r is not None
        ctx.out.reply(
            "people.drop-ask",
            buttons=[[(ctx.t("people.drop-button"), f"{DROP_BUTTON}:{t.id}:{player.user_id}")]],
            name=player.name,
            table=row.number,
            round=r.number,
        )
        return
    await _drop_now(ctx, t, player)


async def drop_button(ctx: Ctx, arg: str) -> None:
    t = await ctx.uow.tournament()
    tournament_id, _, user = arg.partition(":")
    user_id = id_or_none(user)
    if str(t.id) != tournament_id or t.status != EventStatus.RUNNING or user_id is None:
        raise UserError("refuse.finished")  # another event's, or not a button we made
    player = await _dropping(ctx, t, user if user_id != ctx.caller.actor else "")
    await _drop_now(ctx, t, player)


async def _dropping(ctx: Ctx, t: Tournament, ref: str) -> Player:
    """Who drops: the caller, or (for an organiser) the player named."""
    if ref:
        player = find_player(ctx, t, ref)
        if player.user_id != ctx.caller.actor and not await ctx.caller.is_organiser():
            raise UserError("refuse.not-organiser")
        return player
    mine = next((p for p in t.players if p.user_id == ctx.caller.actor), None)
    if mine is None or mine.status in UNCOUNTED:
        raise UserError("refuse.not-signed-up", title=t.title)
    return mine


async def _drop_now(ctx: Ctx, t: Tournament, player: Player) -> None:
    event = Event.of(ctx, t)
    done = event.drop(player)
    lines = [ctx.t("people.dropped", name=player.name, round=done.round)]
    if done.table is not None:
        lines.append(walkover_text(ctx, t, done.table, [player.user_id]))
    elif done.reported is not None:
        lines.append(ctx.t("walkover.reported", table=done.reported.number))
    if done.still_in and event.fmt.eliminates:
        lines.append(ctx.t("walkover.next", name=player.name))
    if done.still_in and event.fmt.team_size() > 1:
        lines.append(ctx.t("walkover.sub", name=player.name))
    with ctx.out.announcing():
        ctx.out.say("\n".join(lines))
    await tell(ctx, event, done.then)


def walkover_text(ctx: Ctx, t: Tournament, row: TableRow, out: Sequence[int]) -> str:
    """What a walkover at ``row`` did (``out`` forfeited it; docs/rules/people.md#walkover):
    where the table was one side against another, the other side wins; a pair loses
    with its partner; with more left at the table, they are as on a bye."""
    who = names(t)
    lost = [who[u] for u in row.seats if u in out]
    sides = _sides(t, row)
    left = [side for side in sides if not set(side) & set(row.forfeited)]
    if not left:
        return ctx.t("walkover.nobody", table=row.number, losers=lost)
    if len(left) > 1:
        others = [who[u] for side in left for u in side]
        return ctx.t("walkover.bye", table=row.number, losers=lost, others=others)
    winners = [who[u] for u in left[0]]
    unit = next(side for side in sides if set(side) & set(out))
    if len(unit) > len(lost):
        pair = [who[u] for u in unit]
        return ctx.t("walkover.pair", table=row.number, name=lost, losers=pair, winners=winners)
    return ctx.t("walkover.won", table=row.number, losers=lost, winners=winners)


def _sides(t: Tournament, row: TableRow) -> list[list[int]]:
    """The table's sides as its format ranks them: each pair where pairs share a line
    of the standings (partners sit opposite), else each player."""
    game = game_of(t)
    if format_of(t).sits_in_pairs and game.partners and len(row.seats) == game.seat_counts[0]:
        return [[row.seats[i] for i in side] for side in game.partners]
    return [[u] for u in row.seats]


def walkovers(ctx: Ctx, t: Tournament, walked: Sequence[tuple[TableRow, Sequence[int]]]) -> str:
    """When a round opens: the tables a dropped-out player was drawn at went to their
    opponents (a knockout draws a winner who then dropped out); what to say of them."""
    who = names(t)
    return "\n".join(
        ctx.t("walkover.dropped", names=[who[u] for u in out]) + walkover_text(ctx, t, row, out)
        for row, out in walked
    )


# --- /sub -----------------------------------------------------------------------------
async def sub(ctx: Ctx, args: str) -> None:
    """``/sub <out> <in>`` between rounds of a pair or team event: ``in`` plays ``out``'s
    place from the next round; what the place scored stays with its pair or team."""
    event = await Event.load(ctx)
    t = event.t
    if event.fmt.team_size() < 2:
        raise UserError("people.refuse.sub-format", format=ctx.t(f"format.{t.format}"))
    r = latest_round(t)
    assert r is not None  # the command's stage: after the draw
    if r.status != RoundStatus.CLOSED:
        raise UserError("people.refuse.sub-mid-round", round=r.number)
    words = args.split()
    if len(words) != 2:
        raise UserError("people.usage.sub")
    out, comes = (find_player(ctx, t, w) for w in words)
    if out.status == PlayerStatus.REMOVED:  # a sanction of the place, not a vacancy
        raise UserError("people.refuse.sub-removed", name=out.name)
    if out.status not in (PlayerStatus.ACTIVE, PlayerStatus.DROPPED):
        raise UserError("people.refuse.not-playing", name=out.name)
    if not event.still_in(out):
        raise UserError("people.refuse.sub-out", name=out.name)
    if comes.status not in UNCOUNTED:
        raise UserError("people.refuse.sub-playing", name=comes.name)
    event.substitute(out, comes, r.number + 1)
    with ctx.out.announcing():
        ctx.out.reply("people.subbed", out=out.name, sub=comes.name, round=r.number + 1)


# --- /apart ---------------------------------------------------------------------------
async def apart(ctx: Ctx, args: str) -> None:
    """``/apart <player> <player>`` keeps two players at different tables (several pairs
    allowed); ``/apart`` lists the pairs, ``/apart clear`` removes them all."""
    t = await ctx.uow.tournament()
    pairs = [tuple(pair) for pair in people.settings(t).get("apart", [])]
    words = args.split()
    if not words:
        ctx.out.say(apart_list(ctx, t))
        return
    if not find_format(t.format).keeps_apart:
        raise UserError("people.refuse.apart-format", format=ctx.t(f"format.{t.format}"))
    if t.status == EventStatus.FINISHED:
        raise UserError("refuse.finished")
    if words == ["clear"] or words == ["清除"]:
        if not pairs:
            raise UserError("people.refuse.apart-none")
        _store(ctx, t, "apart", None)
        ctx.out.reply("people.apart-cleared", count=len(pairs))
        return
    if len(words) != 2:
        raise UserError("people.usage.apart")
    a, b = (find_player(ctx, t, w) for w in words)
    if a.user_id == b.user_id:
        raise UserError("people.refuse.apart-self")
    for p in (a, b):
        if p.status in UNCOUNTED:
            raise UserError("refuse.no-such-player", who=p.name)
    pair = tuple(sorted((a.user_id, b.user_id)))
    if pair in pairs:
        raise UserError("people.refuse.apart-twice", a=a.name, b=b.name)
    _store(ctx, t, "apart", [list(x) for x in [*pairs, pair]])
    key = "people.apart-done" if t.status == EventStatus.SIGNUP else "people.apart-next"
    ctx.out.reply(key, a=a.name, b=b.name)


def apart_list(ctx: Ctx, t: Tournament) -> str:
    who = names(t)
    pairs = people.settings(t).get("apart", [])
    if not pairs:
        return ctx.t("people.apart-empty")
    lines = [ctx.t("people.apart-line", a=who.get(a, a), b=who.get(b, b)) for a, b in pairs]
    return ctx.t("people.apart-header", count=len(pairs)) + "\n" + "\n".join(lines)


# --- /rules ---------------------------------------------------------------------------
def late_rule(ctx: Ctx, t: Tournament) -> str:
    """The late-entry rule in words, the format's default said as such."""
    fmt = find_format(t.format)
    if fmt.late_entry is None:
        return ctx.t(f"people.late-no.{t.format}")
    until = people.late_until(t)
    default = "" if "late" in people.settings(t) else ctx.t("people.format-default")
    if until is None:
        return ctx.t("people.late-off") + default
    return ctx.t("people.late-until", round=until, missed=missed_rule(ctx, t)) + default


def missed_rule(ctx: Ctx, t: Tournament) -> str:
    """How a late entrant's missed rounds count, as the format scores a bye."""
    return ctx.t(f"people.missed.{t.format}")


def cap_knob(t: Tournament) -> str:
    """The /set name of the sign-up cap in this event."""
    return SIGNUP_CAP if "cap" in game_of(t).knob_names() else "cap"


def rules_lines(ctx: Ctx, t: Tournament) -> str:
    """/rules: the cap, late entry and the pairs kept apart."""
    cap = people.cap_of(t)
    lines = [
        ctx.t("people.rules-cap", cap=cap)
        if cap
        else ctx.t("people.rules-no-cap", knob=cap_knob(t)),
        ctx.t("people.rules-late", rule=late_rule(ctx, t)),
    ]
    pairs = people.settings(t).get("apart", [])
    if pairs:
        lines.append(ctx.t("people.rules-apart", count=len(pairs)))
    return "\n" + "\n".join(lines)
