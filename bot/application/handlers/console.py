"""``/console``: the organiser's link to the Mini App's console, and the Mini App's
entries in the chat's other messages (docs/guide.en.md#console).

A group's message can carry a link into the Mini App, not a ``web_app`` button (those
are for private chats): the link opens the Mini App on its payload
(``bot.application.miniapp_links``). The round's announcement gets a "📝 Report" link
for its players, a score slip's private form a ``web_app`` button to the same form.
Without a Mini App set up (``MINIAPP_NAME`` and ``PUBLIC_URL``) nothing is added.
"""

from __future__ import annotations

from bot.application import miniapp_links
from bot.application.context import Ctx
from bot.application.types import Buttons, link_button, web_app_button
from bot.language.errors import UserError
from db.models import Tournament


async def console(ctx: Ctx, args: str) -> None:
    """Post the console's link (any organiser of the chat may open it)."""
    t = await ctx.uow.tournament(finished=True, whole=False)
    payload = miniapp_links.payload(miniapp_links.CONSOLE, t)
    link = miniapp_links.chat_link(ctx.settings, ctx.bot_username, payload)
    if link is None:
        raise UserError("console.not-set-up")
    button = link_button(ctx.t("console.button"), link)
    ctx.out.reply("console.link", buttons=[[button]], title=t.title)


def report_link(ctx: Ctx, t: Tournament) -> tuple[str, str] | None:
    """The "📝 Report" link of the players' form, for a group's message."""
    payload = miniapp_links.payload(miniapp_links.FORM, t)
    link = miniapp_links.chat_link(ctx.settings, ctx.bot_username, payload)
    return link_button(ctx.t("console.report-button"), link) if link else None


def form_button(ctx: Ctx, slip: str) -> Buttons:
    """The form of a score slip's table as a ``web_app`` button (a private chat's)."""
    url = miniapp_links.page_url(ctx.settings, slip)
    return [[web_app_button(ctx.t("console.report-button"), url)]] if url else []
