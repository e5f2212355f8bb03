"""When Telegram says no: what the organisers are told, and who can no longer be written to.

The outgoing queue reads Telegram's refusals (``bot.transport.refusals``) and keeps what
a chat refuses until it works again (``bot.transport.holds``); the people it concerns
hear of it here (docs/operations.md#refusals):

* A right the bot lacks in a group (to send messages, media, to pin; a closed topic;
  reactions): each organiser who has started the bot is told once, privately, what is
  wrong and how to put it right, in the group's language; with nobody to tell privately,
  it is said in the group, where the bot can still speak there. Once it works again, a
  later refusal is told again.
* A person who blocked the bot or deleted their account: no private message is queued
  for them again (reminders, referee calls, report forms) until they write to the bot;
  organisers see who in /players.
* The bot's own status changed (``my_chat_member``: promoted, its rights changed,
  unblocked): what the chat refused is tried again at once.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.service.audit import Reachable, Refused, Unreachable
from bot.language.errors import UserError

# What is told, by the refusal's reason (``bot.transport.refusals.Reason``).
TOLD = frozenset({"no-text", "no-media", "topic-closed", "no-pin", "pin-failed", "reaction"})
# Where the bot cannot speak in the group itself, it says nothing there.
MUTE = frozenset({"no-text"})
GONE = frozenset({"blocked", "deactivated", "not-started"})


async def note_private_chat(ctx: Ctx) -> None:
    """The caller wrote to the bot privately: it may write to them, again if Telegram had
    refused it (they unblocked it)."""
    inc = ctx.caller.inc
    if inc.bot_status == "kicked":  # this update is the user blocking the bot
        return
    if await ctx.uow.repo.note_private_chat(inc.sender.id, inc.sender.name):
        ctx.uow.record(None, Reachable(inc.sender.id))


async def refused(ctx: Ctx, reason: str) -> None:
    """Telegram refuses the bot ``reason`` in this chat (the outgoing queue found it)."""
    chat_id = ctx.caller.inc.chat_id
    if reason in GONE:
        if chat_id > 0 and await ctx.uow.repo.mark_gone(chat_id, reason):
            ctx.uow.record(None, Unreachable(chat_id, reason))
        return
    if reason not in TOLD or not await ctx.uow.repo.note_refusal(chat_id, reason):
        return
    try:
        organisers = await ctx.caller.admins(chat_id)
    except UserError:  # Telegram cannot say who the admins are: those granted the role
        organisers = set()
    organisers |= await ctx.uow.repo.granted(chat_id)
    reachable = await ctx.uow.repo.private_chats(organisers)
    latest = await ctx.uow.repo.latest_tournament(chat_id, ctx.caller.inc.thread_id, whole=False)
    where = (
        ctx.t("delivery.where-event", title=latest.title)
        if latest is not None
        else ctx.t("delivery.where-group")
    )
    text = ctx.t(f"delivery.{reason}", where=where)
    for user in sorted(reachable):
        ctx.out.send(user, text)
    if not reachable and reason not in MUTE:  # a closed topic: said outside it
        ctx.out.send(chat_id, ctx.t(f"delivery.{reason}", where=ctx.t("delivery.here")))
    ctx.uow.record(None, Refused(reason, len(reachable)))


async def resumed(ctx: Ctx, reason: str) -> None:
    """What the chat refused works again: a later refusal is told again."""
    await ctx.uow.repo.forget_refusal(ctx.caller.inc.chat_id, reason)


async def bot_status(ctx: Ctx, status: str) -> None:
    """The bot's status in the chat changed (``my_chat_member``). In a private chat,
    ``kicked`` is the user blocking it, anything else unblocking it; in a group, its
    rights may have changed: what the chat refused is tried again now."""
    inc = ctx.caller.inc
    if inc.chat_type == "private" and status == "kicked":
        if await ctx.uow.repo.mark_gone(inc.chat_id, "blocked"):
            ctx.uow.record(None, Unreachable(inc.chat_id, "blocked"))
        return
    ctx.out.resume()
