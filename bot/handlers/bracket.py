"""/bracket: the knockout tree as a picture, for formats that have one (单败淘汰, the
playoffs of 小组循环); other formats are refused politely with a pointer to /standings."""

from __future__ import annotations

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import group_lines, ranking_lines
from bot.pictures import bracket_png, draw
from bot.tournament import format_of, latest_round, names, state_of


async def bracket(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament(finished=True)
    fmt = format_of(t)
    tree = getattr(fmt, "bracket", None)
    if tree is None:
        raise UserError("bracket.none", format=ctx.t(f"format.{t.format}"))
    if not t.rounds:
        raise UserError("refuse.not-drawn")
    state = state_of(t)
    rounds = tree(state)
    if not rounds and fmt.rules_variant == "tables":  # the playoff is one final table
        raise UserError("outcome.no-tree", groups=group_lines(ctx, t).strip())
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
    over = t.status == "finished"  # the final ranking only then; before, the round on
    rows = fmt.current(state) if over else fmt.standings(state)
    r = latest_round(t)
    status = (
        ctx.t("outcome.finished")
        if over
        else ctx.t("outcome.in-progress", round=r.number if r else 0)
    )
    caption = ctx.t("bracket.caption", title=t.title) + "\n" + status
    ctx.photo(png, caption + "\n" + ranking_lines(ctx, t, rows), "bracket.png")
