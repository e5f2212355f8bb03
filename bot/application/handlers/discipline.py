"""Organiser rulings: /penalty, /forfeit, /dq."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.handlers.common import (
    find_player,
    find_table,
    my_table,
    open_round,
    settle_round,
    table_number,
)
from bot.application.service import results
from bot.language.errors import UserError
from bot.language.inputs import bounded
from db.status import PenaltyKind
from engine.games.penalties import MAX_CARDS, Rung, deduction, ladder, per_card

WARN_WORDS = ("warn", "warning", "警告")
CARD_WORDS = ("cards", "card", "张", "暴露张")


async def penalty(ctx: Ctx, args: str) -> None:
    """docs/rules/penalties.md, three ways:

    - ``/penalty <player> <points> [reason]``: a deduction in 0.5 steps;
    - ``/penalty <player> cards <n> [reason]``: 0.5 for each exposed or misplayed card;
    - ``/penalty <player> warn [reason]``: the ladder, warning → −1 → disqualification.
    """
    t = await ctx.tournament()
    words = args.split()
    if len(words) < 2:
        raise UserError("usage.penalty")
    player = find_player(ctx, t, words[0])
    how, rest = words[1].lower(), words[2:]
    kind = PenaltyKind.POINTS
    if how in WARN_WORDS:
        offence = 1 + sum(
            p.kind == PenaltyKind.LADDER for p in t.penalties if p.user_id == player.user_id
        )
        step = ladder(offence)
        if step.rung is Rung.DISQUALIFY:
            results.disqualify(ctx, t, player)
            ctx.reply("penalty.ladder-dq", name=player.name, offence=offence)
            return
        kind, points = PenaltyKind.LADDER, step.points
    elif how in CARD_WORDS:
        if not rest:
            raise UserError("usage.penalty")
        cards = bounded(rest[0], "refuse.penalty-cards", 1, MAX_CARDS)
        kind, points, rest = PenaltyKind.CARDS, per_card(cards), rest[1:]
    else:
        points = deduction(words[1])
    reason = " ".join(rest)
    await results.penalise(ctx, t, player, points, kind, reason)
    if points == 0:
        ctx.reply("penalty.warning", name=player.name, offence=1, reason=reason or "—")
    else:
        ctx.reply("penalty.done", name=player.name, points=points, reason=reason or "—")


async def forfeit(ctx: Ctx, args: str) -> None:
    """``/forfeit <table>`` forfeits the whole table; ``/forfeit <player>`` only them."""
    t = await ctx.tournament()
    r = open_round(t)
    ref = args.strip()
    if not ref:
        raise UserError("usage.forfeit")
    try:
        row = find_table(r, table_number(ref))
        losers = list(row.seats)
    except UserError:
        player = find_player(ctx, t, ref)
        found = my_table(r, player.user_id)
        if found is None:
            raise UserError("table.none", round=r.number) from None
        row, losers = found, [player.user_id]
    results.forfeit(ctx, t, row, losers)
    ctx.reply("forfeit.done", table=row.number, count=len(losers))
    settle_round(ctx, t, r, ruled=True)  # the organiser's own ruling may end the event


async def dq(ctx: Ctx, args: str) -> None:
    """``/dq <player>``: removed from the event; never seated again
    (docs/rules/penalties.md#disqualification)."""
    t = await ctx.tournament()
    if not args.strip():
        raise UserError("usage.dq")
    player = find_player(ctx, t, args)
    results.disqualify(ctx, t, player)
    ctx.reply("dq.done", name=player.name)
