"""Chat settings and events: /lang, /tz, /grant, /help, and group→supergroup migration."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.application.context import Ctx
from bot.application.handlers.common import find_player
from bot.application.service.audit import Granted, LangSet, Migrated, ZoneSet
from bot.language.deadlines import zone_label
from bot.language.errors import UserError
from bot.language.i18n import LANGS
from bot.language.zones import ZoneError, find_zone


async def lang(ctx: Ctx, args: str) -> None:
    choice = args.strip().lower()
    if choice not in LANGS:
        raise UserError("usage.lang")
    old = ctx.chat.lang
    ctx.set_lang(choice)
    ctx.uow.record(None, LangSet(old, choice))
    ctx.out.reply("lang.done")


async def tz(ctx: Ctx, args: str) -> None:
    """``/tz <zone>``: an IANA name in any case, a city, or a UTC offset (``+8``)."""
    try:
        zone = find_zone(args)
    except ZoneError as exc:
        raise UserError(f"refuse.{exc.code}", **exc.params) from None
    old = ctx.chat.tz
    ctx.chat.tz = zone
    ctx.uow.record(None, ZoneSet(old, zone))
    label = zone_label(ZoneInfo(zone))
    ctx.out.reply("tz.done", zone=label if label == zone else f"{label} ({zone})")


async def grant(ctx: Ctx, args: str) -> None:
    """``/grant <player>``: make a signed-up player an organiser of this chat."""
    t = await ctx.uow.tournament()
    player = find_player(ctx, t, args)
    if await ctx.uow.repo.is_granted(ctx.caller.inc.chat_id, player.user_id):
        raise UserError("refuse.already-granted", name=player.name)
    ctx.uow.repo.grant(ctx.caller.inc.chat_id, player.user_id, ctx.caller.actor)
    ctx.uow.record(t, Granted(player.user_id))
    ctx.out.reply("grant.done", name=player.name)


async def migrate(ctx: Ctx, arg: str) -> None:
    """The group became a supergroup: everything moves to the new chat id."""
    new_id = int(arg)
    await ctx.uow.repo.migrate_chat(ctx.caller.inc.chat_id, new_id)
    ctx.uow.record(None, Migrated(ctx.caller.inc.chat_id, new_id))
