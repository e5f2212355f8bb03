"""Lot draws: /draw closes sign-up and seats round 1; /verify reveals the seed."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.handlers import people
from bot.application.handlers.common import describe_tables, group_lines
from bot.application.handlers.lifecycle import format_at_draw
from bot.application.handlers.partners import team_lines
from bot.application.ratings import seed_by_rating
from bot.application.tournament import format_of, playing_for, state_of
from bot.language.errors import UserError
from bot.presentation import live
from db.models import Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus
from engine.draw import commitment
from engine.model import Finished, RoundPlan


async def draw(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament()
    await draw_now(ctx, t)


async def draw_now(ctx: Ctx, t: Tournament) -> None:
    """Close sign-up and seat round 1: /draw, or the sign-up deadline passing. Nothing
    is drawn when it cannot be (the refusal says why)."""
    format_at_draw(ctx, t)
    await seed_by_rating(ctx, t, format_of(t).options.get("seeds"))
    plan = format_of(t).plan(state_of(t))
    if isinstance(plan, Finished):
        raise UserError("refuse.too-few-players")
    r = store_round(t, plan, 1)
    t.status, t.signup_until = EventStatus.RUNNING, None
    ctx.audit(
        "draw",
        t,
        {"status": EventStatus.SIGNUP},
        {"status": EventStatus.RUNNING, "tables": _seats(r)},
    )
    with ctx.announcing():
        ctx.say(draw_text(ctx, t, r), pages=f"draw.{r.number}")
    await live.check_pin_right(ctx, t)


def draw_text(ctx: Ctx, t: Tournament, r: Round) -> str:
    """The draw announcement: every table and seat, in one (paged) message."""
    return (
        ctx.t("draw.header", title=t.title, round=r.number, count=len(r.tables))
        + "\n"
        + describe_tables(ctx, t, r)
        + team_lines(ctx, t)
        + group_lines(ctx, t)
        + people.waiting_lines(ctx, t)  # beyond the cap: not drawn
        + "\n\n"
        + ctx.t("draw.footer", commitment=commitment(t.seed))
    )


def store_round(t: Tournament, plan: RoundPlan, number: int) -> Round:
    now = playing_for(t)  # a place a substitute took is seated as them
    r = Round(
        number=number,
        stage=plan.stage,
        seed_label=plan.seed_label,
        status=RoundStatus.DRAWN,
        byes=[now.get(u, u) for u in plan.byes],
        notes=list(plan.notes),
    )
    r.tables = [
        TableRow(
            number=tb.number, seats=[now.get(u, u) for u in tb.players], forfeited=[], present=[]
        )
        for tb in plan.tables
    ]
    t.rounds.append(r)
    return r


def _seats(r: Round) -> list[list[int]]:
    return [list(row.seats) for row in r.tables]


async def verify(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament(finished=True)
    if not t.rounds:
        ctx.reply("verify.before", commitment=commitment(t.seed))
        return
    labels = [f"{r.number}: {r.seed_label}" for r in t.rounds]
    ctx.reply("verify.after", seed=t.seed, commitment=commitment(t.seed), labels=labels)
