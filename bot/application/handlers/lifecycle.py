"""The event as a whole: calling it off (/cancel), changing its format before the draw
(/set format), reading /new's format word, and the format the draw picks by field size.

A cancelled event keeps every row: /export, /standings and the history still read it
(``finished=True`` finds the latest event whatever its status), but it is no longer the
chat's active event, so /new may start another and no timer of it acts any more (each
timer looks for a running or signing-up event,
``bot.application.handlers.common.timer_open_round``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import refresh_live
from bot.application.tournament import active_count, format_of, game_of
from bot.application.types import Buttons
from bot.language.errors import UserError
from bot.language.inputs import YES_WORDS
from db.models import Tournament
from db.status import EventStatus
from engine.formats import FORMATS, Format, find_format, format_word, preset
from engine.games import Game

KEEP = "keep"  # the "do not cancel" button's argument
BY_SIZE = {"format": "size"}  # ``options["auto"]``: the draw picks the format by size


# --- /cancel -------------------------------------------------------------------------------
async def cancel(ctx: Ctx, args: str) -> None:
    """``/cancel``: asks for a confirming press; ``/cancel yes`` cancels at once."""
    event = await Event.load(ctx, whole=False)
    t = event.t
    answer = args.strip().lower()
    if answer in YES_WORDS:
        await cancel_now(ctx, event)
        return
    if answer:
        raise UserError("usage.cancel")
    ctx.out.reply("cancel.ask", buttons=cancel_keyboard(ctx, t), title=t.title)


def cancel_keyboard(ctx: Ctx, t: Tournament) -> Buttons:
    return [
        [
            (ctx.t("button.cancel-event"), f"cancel:{t.id}"),
            (ctx.t("button.keep-event"), f"cancel:{KEEP}"),
        ]
    ]


async def cancel_button(ctx: Ctx, arg: str) -> None:
    """A press on the question: only an organiser's counts, and only for the event the
    question was about (a press on an old question after a new /new changes nothing)."""
    await ctx.caller.require_organiser()
    if arg == KEEP:
        ctx.out.answer(ctx.t("cancel.kept"), lambda: (ctx.t("cancel.kept"), []))
        return
    event = await Event.load(ctx, whole=False)
    if str(event.t.id) != arg:
        raise UserError("refuse.cancel-gone")
    await cancel_now(ctx, event)
    ctx.out.answer(ctx.t("cancel.done-short"), lambda: (ctx.t("cancel.done-short"), []))


async def cancel_now(ctx: Ctx, event: Event) -> None:
    """Call the event off (``Event.cancel``) and say so; the pinned live standings, if
    posted, say it too (with the places as they stood) instead of a running event."""
    done = event.cancel()
    with ctx.out.announcing():
        ctx.out.reply("cancel.done", title=done.title)
    if event.t.live_at is not None:
        await event.whole()
        refresh_live(ctx, event)


# --- the format ------------------------------------------------------------------------------
def read_format(game: type[Game[Any]], words: Sequence[str]) -> tuple[str, list[str], bool]:
    """``/new <game> [format] [title…]`` after the game: the format's key, the title's
    words, and whether the draw picks the format by the field's size (no format named,
    for a game whose rules say so). What counts as a format word, and a misspelt one
    refused with the closest format: ``engine.formats.format_word``. A format that does
    not fit the game (a knockout of pairs at 3-seat tables…) is refused here too."""
    fmt = format_word(words[0]) if words else None
    if fmt is None:
        return game.default_format, list(words), game.formats_by_size is not None
    fmt(game(), {})  # ConfigError when the format cannot seat this game
    return fmt.key, list(words[1:]), False


def by_size(t: Tournament) -> bool:
    return bool(t.options.get("auto", {}).get("format") == "size")


def format_name(ctx: Ctx, t: Tournament, now: bool = False) -> str:
    """The format as /new and /rules name it: before a by-size draw, the rule itself,
    and with ``now`` (/rules, its players loaded) which side of it the field is on."""
    game = game_of(t)
    sizes = game.formats_by_size
    if by_size(t) and sizes is not None:
        most, small, large = sizes
        per = format_of(t).team_size()
        rule = ctx.t(
            "format.by-size",
            most=most,
            small=ctx.t(f"format.{small}"),
            large=ctx.t(f"format.{large}"),
            unit=ctx.t(f"entrants.{per}"),
            counted=ctx.t(f"entrants_counted.{per}"),
        )
        count = active_count(t) // per if now else 0
        if not count:
            return str(rule)
        chosen = ctx.t(f"format.{game.format_for(count)}")  # a preset has its own name
        return rule + ctx.t(
            "format.by-size-now", players=count, unit=ctx.t(f"entrants.{per}"), format=chosen
        )
    return str(ctx.t(f"format.{t.format}"))


def format_in_force(t: Tournament) -> Format:
    """The format the event plays: before a by-size draw, the one the rule gives the
    field signed up now (what /rules describes), else the event's own."""
    game = game_of(t)
    if not by_size(t) or game.formats_by_size is None:
        return format_of(t)
    per = format_of(t).team_size()
    count = active_count(t) // per
    key, knobs = preset(game.format_for(count))
    given = t.options.get("format", {}) if key == t.format else {}
    return find_format(key)(game, {**given, **knobs})


async def set_format(ctx: Ctx, t: Tournament, value: str) -> None:
    """``/set format <key>``: before the draw only (the draw seats by the format). The
    new format's knobs start from their defaults, and the reply lists them."""
    if t.status != EventStatus.SIGNUP:
        raise UserError("refuse.format-after-draw", format=ctx.t(f"format.{t.format}"))
    fmt = format_word(value)
    if fmt is None:
        raise UserError("refuse.unknown-format-word", word=value, known=[f.key for f in FORMATS])
    fmt(game_of(t), {})  # ConfigError when the format cannot seat this game
    Event.of(ctx, t).set_format(fmt.key)
    defaults = ", ".join(f"{k.name}={k.default}" for k in fmt.knobs) or "—"
    ctx.out.reply("set.format-done", format=ctx.t(f"format.{fmt.key}"), defaults=defaults)


def format_at_draw(ctx: Ctx, event: Event) -> None:
    """At the draw of an event whose format goes by size: fix the format for the field
    signed up (``Event.choose_format``) and say which, and why, before the tables."""
    chosen = event.choose_format()
    if chosen is None:
        return
    players, most = chosen.players, chosen.most
    small = players <= most
    with ctx.out.announcing():
        ctx.out.reply(
            "draw.format-by-size-small" if small else "draw.format-by-size-large",
            players=players,
            most=most,
            unit=ctx.t(f"entrants.{chosen.per}"),
            format=ctx.t(f"format.{chosen.format}"),
            how="" if small else ctx.t(f"by_size_how.{event.t.format}"),
        )
