"""Organiser rulings: /penalty, /forfeit, /dq."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event, PenaltyGiven, PlayerDisqualified
from bot.application.handlers.common import (
    find_player,
    find_table,
    my_table,
    open_round,
    player_then_words,
    table_number,
    tell,
)
from bot.application.handlers.people import walkover_text
from bot.language.errors import UserError
from bot.language.inputs import bounded
from db.models import Player, TableRow
from db.status import PenaltyKind
from engine.games.penalties import MAX_CARDS, deduction, per_card

WARN_WORDS = ("warn", "warning", "警告")
CARD_WORDS = ("cards", "card", "张", "暴露张")


async def penalty(ctx: Ctx, args: str) -> None:
    """docs/rules/penalties.md, three ways:

    - ``/penalty <player> <points> [reason]``: a deduction in 0.5 steps;
    - ``/penalty <player> cards <n> [reason]``: 0.5 for each exposed or misplayed card;
    - ``/penalty <player> warn [reason]``: the ladder, warning → −1 → disqualification.
    """
    event = await Event.load(ctx)
    words = args.split()
    if len(words) < 2:
        raise UserError("usage.penalty")
    player = find_player(ctx, event.t, words[0])
    how, rest = words[1].lower(), words[2:]
    done: PenaltyGiven | PlayerDisqualified
    if how in WARN_WORDS:
        done = await event.warn(player, " ".join(rest))
    elif how in CARD_WORDS:
        if not rest:
            raise UserError("usage.penalty")
        cards = bounded(rest[0], "refuse.penalty-cards", 1, MAX_CARDS)
        done = await event.penalise(player, per_card(cards), PenaltyKind.CARDS, " ".join(rest[1:]))
    else:
        done = await event.penalise(player, deduction(words[1]), PenaltyKind.POINTS, " ".join(rest))
    match done:
        case PlayerDisqualified(offence=offence, table=row):
            said = ctx.t("penalty.ladder-dq", name=player.name, offence=offence)
            ctx.out.say(with_walkover(ctx, event, said, row, player))
        case PenaltyGiven(points=0, reason=reason):
            ctx.out.reply("penalty.warning", name=player.name, offence=1, reason=reason or "—")
        case PenaltyGiven(points=points, reason=reason):
            ctx.out.reply("penalty.done", name=player.name, points=points, reason=reason or "—")
    await tell(ctx, event, done.then)  # the live standings show it


async def forfeit(ctx: Ctx, args: str) -> None:
    """``/forfeit <table>`` forfeits the whole table; ``/forfeit <player>`` only them."""
    event = await Event.load(ctx)
    t = event.t
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
    done = event.forfeit(r, row, losers)
    ctx.out.reply("forfeit.done", table=row.number, count=len(losers))
    await tell(ctx, event, done.then)  # the organiser's own ruling may end the event


async def dq(ctx: Ctx, args: str) -> None:
    """``/dq <player> [reason]``: removed from the event; never seated again
    (docs/rules/penalties.md#disqualification). The reason is recorded and said, as
    /penalty's is."""
    event = await Event.load(ctx)
    if not args.strip():
        raise UserError("usage.dq")
    player, reason = player_then_words(ctx, event.t, args)
    done = event.disqualify(player, reason)
    key = "dq.done-because" if reason else "dq.done"
    said = ctx.t(key, name=player.name, reason=reason)
    ctx.out.say(with_walkover(ctx, event, said, done.table, player))
    await tell(ctx, event, done.then)


def with_walkover(ctx: Ctx, event: Event, said: str, row: TableRow | None, player: Player) -> str:
    """A disqualification's words, with the walkover it made of their table (if any)."""
    if row is None:
        return said
    return said + "\n" + walkover_text(ctx, event.t, row, [player.user_id])
