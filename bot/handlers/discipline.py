"""Organiser rulings: /penalty, /forfeit, /dq."""

from __future__ import annotations

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import find_player, find_table, my_table, settle_round, table_number
from bot.inputs import bounded
from bot.tournament import latest_round
from db.models import Player, Tournament
from engine.games.penalties import MAX_CARDS, Rung, deduction, ladder, per_card

WARN_WORDS = ("warn", "warning", "警告")
CARD_WORDS = ("cards", "card", "张", "暴露张")


async def penalty(ctx: Ctx, args: str) -> None:
    """Seed 001 §七, three ways:

    - ``/penalty <player> <points> [reason]``: a deduction in 0.5 steps;
    - ``/penalty <player> cards <n> [reason]``: 0.5 for each exposed or misplayed card;
    - ``/penalty <player> warn [reason]``: the ladder, warning → −1 → disqualification.
    """
    await ctx.require_organiser()
    t = await ctx.tournament()
    words = args.split()
    if len(words) < 2:
        raise UserError("usage.penalty")
    player = find_player(ctx, t, words[0])
    how, rest = words[1].lower(), words[2:]
    kind = "points"
    if how in WARN_WORDS:
        offence = 1 + sum(p.kind == "ladder" for p in t.penalties if p.user_id == player.user_id)
        step = ladder(offence)
        if step.rung is Rung.DISQUALIFY:
            disqualify(ctx, t, player)
            ctx.reply("penalty.ladder-dq", name=player.name, offence=offence)
            return
        kind, points = "ladder", step.points
    elif how in CARD_WORDS:
        if not rest:
            raise UserError("usage.penalty")
        cards = bounded(rest[0], "refuse.penalty-cards", 1, MAX_CARDS)
        kind, points, rest = "cards", per_card(cards), rest[1:]
    else:
        points = deduction(words[1])
    reason = " ".join(rest)
    r = latest_round(t)
    row = ctx.repo.add_penalty(
        t, player.user_id, r.number if r else 0, points, reason, ctx.actor, kind
    )
    await ctx.repo.session.flush()
    ctx.audit(
        "penalty",
        t,
        None,
        {"penalty_id": row.id, "user": player.user_id, "points": str(points), "kind": kind}
        | {"reason": reason},
    )
    if points == 0:
        ctx.reply("penalty.warning", name=player.name, offence=1, reason=reason or "—")
    else:
        ctx.reply("penalty.done", name=player.name, points=points, reason=reason or "—")


async def forfeit(ctx: Ctx, args: str) -> None:
    """``/forfeit <table>`` forfeits the whole table; ``/forfeit <player>`` only them."""
    await ctx.require_organiser()
    t = await ctx.tournament()
    r = latest_round(t)
    if r is None or r.status != "open":
        raise UserError("refuse.no-open-round")
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
    old = {
        "table_id": row.id,
        "table": row.number,
        "status": row.status,
        "forfeited": list(row.forfeited),
    }
    row.forfeited = sorted(set(row.forfeited) | set(losers))
    if set(row.forfeited) == set(row.seats):
        row.status = "forfeit"
    ctx.audit("forfeit", t, old, {"status": row.status, "forfeited": row.forfeited})
    ctx.reply("forfeit.done", table=row.number, count=len(losers))
    settle_round(ctx, t, r, ruled=True)  # the organiser's own ruling may end the event


async def dq(ctx: Ctx, args: str) -> None:
    """``/dq <player>``: removed from the event; never seated again (seed 001 §七.1)."""
    await ctx.require_organiser()
    t = await ctx.tournament()
    if not args.strip():
        raise UserError("usage.dq")
    player = find_player(ctx, t, args)
    disqualify(ctx, t, player)
    ctx.reply("dq.done", name=player.name)


def disqualify(ctx: Ctx, t: Tournament, player: Player) -> None:
    """Remove a player; their open table loses them. Audited as ``dq``, so /undo can
    bring them back whether it came from /dq or the third rung of the ladder."""
    if player.status == "removed":
        raise UserError("refuse.already-removed", name=player.name)
    old: dict[str, object] = {"user": player.user_id, "status": player.status}
    player.status = "removed"
    r = latest_round(t)
    if r is not None and r.status == "open":
        row = my_table(r, player.user_id)
        if row is not None and row.status == "pending":
            old.update(table_id=row.id, forfeited=list(row.forfeited))
            row.forfeited = sorted(set(row.forfeited) | {player.user_id})
    ctx.audit("dq", t, old, {"status": "removed"})
