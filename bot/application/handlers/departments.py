"""/dept: a player's department, so Swiss rounds seat colleagues apart, and a team event
makes colleagues their department's team (docs/rules/teams.md#departments).

Teammates and same-department players never share a table when it is possible
(docs/rules/swiss.md#departments). Office events often want colleagues to meet other departments. A
player names their own department before the draw (``/dept 财务部``); an organiser may name anyone's
(``/dept @jia 财务部``; a player naming someone else is refused). ``/dept -`` clears it.
The seating (``engine.seating``) then treats one department like one team: never at one
table while any seating avoids it.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import find_player
from bot.language.errors import UserError
from db.models import Player, Tournament
from db.status import PlayerStatus
from engine.formats import find_format

CLEAR_WORDS = ("-", "none", "无")
MAX_LENGTH = 64


async def dept(ctx: Ctx, args: str) -> None:
    event = await Event.load(ctx)
    t = event.t
    fmt = find_format(t.format)
    if not (fmt.seats_departments_apart or fmt.has_team_table):
        raise UserError("refuse.no-departments", format=ctx.t(f"format.{t.format}"))
    words = args.split()
    if not words:
        raise UserError("usage.dept")
    player, words = await _whose(ctx, t, words)
    name = " ".join(words)[:MAX_LENGTH]
    department = None if name.lower() in CLEAR_WORDS else name
    event.set_department(player, department)
    if department is None:
        ctx.out.reply("dept.cleared", name=player.name)
    else:
        ctx.out.reply("dept.done", name=player.name, dept=department)


async def _whose(ctx: Ctx, t: Tournament, words: list[str]) -> tuple[Player, list[str]]:
    """``/dept <player> <department>`` names someone's (organisers only); otherwise the
    whole text is the caller's own department."""
    if len(words) >= 2:
        try:
            named = find_player(ctx, t, words[0])
        except UserError:
            named = None  # not a player: the words are all the department's name
        if named is not None:
            if named.user_id != ctx.caller.actor:
                await ctx.caller.require_organiser()
            return named, words[1:]
    ctx.caller.require_person()
    own = next(
        (p for p in t.players if p.user_id == ctx.caller.actor and p.status == PlayerStatus.ACTIVE),
        None,
    )
    if own is None:
        raise UserError("refuse.not-signed-up", title=t.title)
    return own, words
