"""/bracket: the knockout tree as a picture, for formats that have one (单败淘汰, the
playoffs of 小组循环); other formats are refused politely with a pointer to /standings."""

from __future__ import annotations

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import ranking_lines
from bot.pictures import bracket_png, draw
from bot.tournament import format_of, names, state_of


async def bracket(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament(finished=True)
    fmt = format_of(t)
    if not fmt.has_bracket:
        raise UserError("bracket.none", format=ctx.t(f"format.{t.format}"))
    if not t.rounds:
        raise UserError("refuse.not-drawn")
    state = state_of(t)
    rounds = fmt.bracket(state)
    if not rounds:
        raise UserError("bracket.not-yet")
    who = names(t)

    def name(user: int | None) -> str:
        return who.get(user, str(user)) if user is not None else ""

    matches = [[(name(a), name(b), name(w)) for a, b, w in rnd] for rnd in rounds]
    png = await draw(
        bracket_png,
        matches,
        ctx.t("bracket.title", title=t.title),
        lambda key: ctx.t(f"bracket.{key}"),
    )
    caption = ctx.t("bracket.caption", title=t.title)
    ctx.photo(png, caption + "\n" + ranking_lines(ctx, t, fmt.standings(state)), "bracket.png")
