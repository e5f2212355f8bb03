"""Lot draws: /draw closes sign-up and seats round 1; /verify reveals the seed."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import people
from bot.application.handlers.common import describe_tables, group_lines
from bot.application.handlers.lifecycle import format_at_draw
from bot.application.handlers.partners import team_lines
from bot.application.handlers.signup import check_knobs
from bot.application.ratings import seed_by_rating
from bot.presentation import live
from db.models import Round, Tournament
from engine.draw import commitment


async def draw(ctx: Ctx, args: str) -> None:
    await draw_now(ctx, await Event.load(ctx))


async def draw_now(ctx: Ctx, event: Event) -> None:
    """Close sign-up and seat round 1: /draw, or the sign-up deadline passing. Nothing
    is drawn when it cannot be (the refusal says why)."""
    t = event.t
    format_at_draw(ctx, event)
    check_knobs(t, event.fmt, t.options.get("format", {}), drawing=True)
    seeding = await seed_by_rating(ctx, t, event.fmt.options.get("seeds"))
    r = event.draw(seeding).round
    with ctx.out.announcing():
        ctx.out.say(draw_text(ctx, t, r), pages=f"draw.{r.number}")
    await live.check_pin_right(ctx, t)


def draw_text(ctx: Ctx, t: Tournament, r: Round) -> str:
    """The draw announcement: every table and seat, in one (paged) message."""
    return (
        ctx.t("draw.header", title=t.title, round=r.number, count=len(r.tables))
        + "\n"
        + describe_tables(ctx, t, r)
        + team_lines(ctx, t)
        + group_lines(ctx, Event.of(ctx, t))
        + people.waiting_lines(ctx, t)  # beyond the cap: not drawn
        + "\n\n"
        + ctx.t("draw.footer", commitment=commitment(t.seed))
    )


async def verify(ctx: Ctx, args: str) -> None:
    t = await ctx.uow.tournament(finished=True)
    if not t.rounds:
        ctx.out.reply("verify.before", commitment=commitment(t.seed))
        return
    labels = [f"{r.number}: {r.seed_label}" for r in t.rounds]
    ctx.out.reply("verify.after", seed=t.seed, commitment=commitment(t.seed), labels=labels)
