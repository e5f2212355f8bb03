"""Creating a tournament and signing up: /new, /join, /leave, /players, /set, /rules."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence

from bot.application import topics
from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import people
from bot.application.handlers.common import display_name
from bot.application.handlers.lifecycle import (
    BY_SIZE,
    format_in_force,
    format_name,
    read_format,
    set_format,
)
from bot.application.handlers.partners import partners_text, read_partners, team_lines
from bot.application.timers import tournament_timers
from bot.application.tournament import (
    POLICY_KNOBS,
    RUNNING_KNOBS,
    active_count,
    format_of,
    game_of,
    noshow_minutes,
    options_with,
    seed_noshow_minutes,
    signed_up,
)
from bot.application.types import Buttons
from bot.application.versioned import texts
from bot.language.errors import UserError
from bot.language.knob_words import how_to_report, knob_words
from bot.language.stage_words import stage_lines
from db.models import Player, Tournament
from db.retention import owned_tag
from db.status import EventStatus, PlayerStatus
from engine.draw import commitment
from engine.formats import FORMATS
from engine.formats.base import Format
from engine.formats.stage import stages_set_length
from engine.games import find_game

MAX_TITLE = 200  # the column's width; a title is one line, not an essay


async def new(ctx: Ctx, args: str) -> None:
    """``/new <game> [format] [title…]``: one active tournament per chat or topic."""
    words = args.split()
    if not words:
        raise UserError("usage.new")
    inc = ctx.caller.inc
    running = await ctx.uow.repo.active_tournament(inc.chat_id, inc.thread_id, whole=False)
    if running is not None:
        raise await topics.second_event(ctx.uow.repo, ctx.t, inc, running)
    game = find_game(words[0])
    fmt_key, title_words, sized = read_format(game, words[1:])
    if len(" ".join(title_words)) > MAX_TITLE:
        raise UserError("refuse.title-too-long", limit=MAX_TITLE)
    if ctx.chat.lang is None and ctx.caller.inc.sender.language_code:
        lang = ctx.caller.inc.sender.language_code.split("-")[0]
        if lang in ("zh", "en"):
            ctx.set_lang(lang)
    seed = secrets.token_hex(32)
    t = Tournament(
        chat_id=ctx.caller.inc.chat_id,
        thread_id=ctx.caller.inc.thread_id or 0,
        game=game.key,
        format=fmt_key,
        title=" ".join(title_words) or ctx.t(f"game.{game.key}"),
        options={"auto": dict(BY_SIZE)} if sized else {},
        status=EventStatus.SIGNUP,
        seed=seed,
        creator_id=ctx.caller.actor,
        players=[],  # a new event has none; saying so spares a lazy load
        rounds=[],
        penalties=[],
    )
    await Event.create(ctx, t)
    with ctx.out.announcing():
        ctx.out.say(signup_text(ctx, t), buttons=join_keyboard(ctx, t), tag=signup_tag(t))


def signup_tag(t: Tournament) -> str:
    """Names the sign-up message, so a typed /join can update its count."""
    return owned_tag("signup", t.id)


def join_keyboard(ctx: Ctx, t: Tournament) -> Buttons:
    return [[(ctx.t("button.join"), f"join:{t.id}")]]


def signup_text(ctx: Ctx, t: Tournament, count: int | None = None) -> str:
    """The sign-up announcement; once people join it also says how many have
    (``count``, when the caller counted them without loading every player)."""
    text = ctx.t(
        "tournament.created",
        title=t.title,
        game=ctx.t(f"game.{t.game}"),
        format=format_name(ctx, t),
        rules=rules_line(ctx, t),
        commitment=commitment(t.seed),
    )
    if count is None:
        count = active_count(t)
    return text + ("\n" + ctx.t("signup.count", count=count) if count else "")


def rules_line(ctx: Ctx, t: Tournament) -> str:
    """The game's rules with its knobs in words and its own report example."""
    game = game_of(t)
    words = knob_words(ctx.t, t.game, table_length(t, game.options))
    text = ctx.t(f"rules.{t.game}", **words, example=game.example(game.seat_counts[0]))
    series = game.options.get("series")
    if series not in (None, "sudden"):  # the game's own text describes sudden death
        text += ctx.t(f"series.rule.{series}")
    return text


def table_length(t: Tournament, options: Mapping[str, object]) -> Mapping[str, object]:
    """The game's knobs as the event plays them: where the format sets how many hands a
    table plays (积分晋级's ``hands``), a game that ends its table by time or a target says
    that number of hands instead, so /rules never says both."""
    hands = format_of(t).options.get("hands")
    if hands is None or "end" not in options or "hands" not in options:
        return options
    return {**options, "end": "hands", "hands": hands}


async def join(ctx: Ctx, args: str) -> None:
    """``/join``, or ``/join @partner…`` to sign up together in a team or pair event."""
    t = await ctx.uow.tournament(whole=False)
    if t.status != EventStatus.SIGNUP:  # late entry, where the format takes it
        await people.join_late(ctx, t)
        return
    if not args.strip():
        await _join(ctx, t)
        return
    await ctx.uow.repo.load_whole(t)
    # Naming a partner who has not joined yet still signs the sender up, and remembers
    # the request (``bot.application.handlers.partners``).
    partners, unjoined = read_partners(ctx, t, args)
    player, joined, _ = await _sign_up(ctx, t, [*partners, *unjoined])
    if unjoined and not joined:
        joined = ctx.t("signup.already", name=player.name)
    named = partners_text(ctx, t, Event.of(ctx, t).partner(player, partners, unjoined))
    ctx.out.say("\n".join(filter(None, [joined, named])))


async def join_button(ctx: Ctx, arg: str) -> None:
    t = await ctx.uow.tournament(whole=False)
    if str(t.id) != arg:
        raise UserError("refuse.signup-closed")
    if t.status != EventStatus.SIGNUP:  # late entry, where the format takes it
        await people.join_late(ctx, t)
        return
    await _join(ctx, t)


async def _join(ctx: Ctx, t: Tournament) -> None:
    """Sign up, quietly: a hundred sign-ups must not flood the group. A button press
    answers with a toast, a typed /join with a 👍 on the message; both update the count
    on the sign-up message instead of posting. Only "already signed up" is a reply."""
    player, joined, count = await _sign_up(ctx, t)
    if not joined:
        ctx.out.answer(ctx.t("signup.already", name=player.name))
    elif player.status == PlayerStatus.WAITING:  # told their place on the waiting list
        ctx.out.answer(joined)
    elif ctx.caller.inc.is_callback:
        ctx.out.answer(joined, lambda: (signup_text(ctx, t, count), join_keyboard(ctx, t)))
    else:
        ctx.out.react("👍", words=joined)  # said in words where reactions are off
        ctx.out.edit_tagged(
            signup_tag(t),
            signup_text(ctx, t, count),
            join_keyboard(ctx, t),
            message_id=t.signup_message_id,
        )


async def _sign_up(
    ctx: Ctx, t: Tournament, partners: Sequence[int | str] = ()
) -> tuple[Player, str, int]:
    """The caller's sign-up (made, or back after /leave), its confirmation (empty when
    they were already signed up) and the number signed up. It reads one player row and
    a count, never the list: the cost of a sign-up does not grow with the event."""
    done = await Event.of(ctx, t, whole=False).sign_up(display_name(ctx), partners)
    player = done.player
    if done.waiting:
        return player, await people.waiting_text(ctx, t, player), 0
    if not done.joined:
        return player, "", 0
    return player, ctx.t("signup.joined", name=player.name, count=done.count), done.count


async def leave(ctx: Ctx, args: str) -> None:
    event = await Event.load(ctx)
    t = event.t
    player = next(
        (p for p in t.players if p.user_id == ctx.caller.actor and p.status in people.ON_LIST), None
    )
    if player is None:
        raise UserError("refuse.not-signed-up", title=t.title)
    done = event.leave(player)
    left = ctx.t("signup.left", name=player.name, count=done.count)
    ctx.out.say("\n".join(filter(None, [left, people.promoted_text(ctx, done.promoted)])))


async def players(ctx: Ctx, args: str) -> None:
    """The list is built once per tournament version and language
    (``bot.application.versioned``)."""
    t = await ctx.uow.tournament(whole=False)
    key = texts.key(t, "players", ctx.t.lang)
    text = texts.get(key)
    if text is None:
        await ctx.uow.repo.load_whole(t)
        if not signed_up(t):
            ctx.out.reply("players.none")
            return
        text = players_text(ctx, t)
        texts.put(key, text)
    ctx.out.say(text, pages="players")
    await say_unreachable(ctx, t)


async def say_unreachable(ctx: Ctx, t: Tournament) -> None:
    """For an organiser, under the list: the players the bot can no longer write to
    privately (they blocked it, deleted their account), who miss reminders and report
    forms. Asked apart from the cached list: it changes with no change to the event."""
    if not await ctx.caller.is_organiser():
        return
    gone = await ctx.uow.repo.gone_players(t.id)
    if gone:
        lines = [
            ctx.t("players.unreachable-line", name=name, why=ctx.t(f"players.why.{why}"))
            for name, why in gone
        ]
        ctx.out.say(ctx.t("players.unreachable") + "\n" + "\n".join(lines))


def players_text(ctx: Ctx, t: Tournament) -> str:
    listed = signed_up(t)
    lines = [
        ctx.t("players.line", n=i, name=p.name)
        + (ctx.t("players.dept", dept=p.department) if p.department else "")
        + people.player_mark(ctx, t, p)
        for i, p in enumerate(listed, 1)
    ]
    header = ctx.t("players.header", title=t.title, count=len(listed))
    return header + "\n" + "\n".join(lines) + team_lines(ctx, t) + people.waiting_lines(ctx, t)


async def set_knob(ctx: Ctx, args: str) -> None:
    """``/set <knob> <value>``: a game, format or policy knob, before the draw (a few
    policies, :data:`RUNNING_KNOBS`, also later: they apply from the next round)."""
    event = await Event.load(ctx)
    t = event.t
    key, _, value = args.partition(" ")
    if value.strip() and people.set_knob(ctx, t, key, value.strip()):
        return  # cap, late entry (bot/application/handlers/people.py)
    if key == "format" and value.strip():
        await set_format(ctx, t, value.strip())
        return
    if t.status != EventStatus.SIGNUP and key not in RUNNING_KNOBS:
        raise UserError("refuse.set-after-draw")
    if not key or not value.strip():
        raise UserError("usage.set")
    game, fmt = game_of(t), format_of(t)
    if key in game.knob_names():
        section = "game"
    elif key in {k.name for k in fmt.knobs}:
        section = "format"
    elif key in {k.name for k in POLICY_KNOBS}:
        section = "policy"
        knob = next(k for k in POLICY_KNOBS if k.name == key)
        knob.coerce(value)
    else:
        known = [*game.knob_names(), *(k.name for k in fmt.knobs), *(k.name for k in POLICY_KNOBS)]
        readers = [ctx.t(f"format.{f.key}") for f in FORMATS if key in f.knob_names()]
        if readers:  # a knob of other formats: say which, rather than "no such knob"
            raise UserError(
                "refuse.knob-other-format",
                knob=key,
                format=ctx.t(f"format.{t.format}"),
                formats=readers,
                known=known,
            )
        raise UserError("refuse.unknown-knob", knob=key, known=known)
    options = options_with(t, section, key, value.strip())
    if section == "game" and key in {k.name for k in fmt.knobs}:  # both read it: hands
        options.setdefault("format", {})[key] = value.strip()
    event.set_knob(options, key)
    # validates game and format knobs together, then whether this event reads the knob
    # and the value can work for the field signed up, as the field plays now (with a
    # by-size preset's own knobs: 80分's groups); raises ConfigError
    fmt, in_force = format_of(t), format_in_force(t)
    if section == "game" and key not in fmt.knob_names():  # a shared name: the format reads it
        game_of(t).check_knob(key)
        if key in game.session_knobs and stages_set_length(in_force.course(active_count(t))):
            raise UserError("refuse.knob-format-length", knob=key, format=format_name(ctx, t))
    check_knobs(t, in_force if in_force.key == fmt.key else fmt, (key,))
    ctx.out.reply("set.done", knob=key, value=value.strip())
    ctx.uow.timers += tournament_timers(t)  # ``remind`` changes the reminders still to come


def check_knobs(t: Tournament, fmt: Format, names: Iterable[str], drawing: bool = False) -> None:
    """Refuse (``ConfigError``) a knob of ``names`` that no stage of the event reads, or
    whose value cannot work for the players signed up (``drawing``: the field is final);
    /set asks it of its knob, /draw of every format knob the organiser set."""
    players = active_count(t)
    for name in names:
        fmt.check_knob(name, players, drawing)


def format_rules(ctx: Ctx, t: Tournament) -> str:
    """What the format does for this game, including where the seeds are silent: the
    game's own wording of the format, and how a tie at the top of a final is played off."""
    fmt = format_in_force(t)
    section = f"format_rules_{fmt.rules_variant}" if fmt.rules_variant else "format_rules"
    text = ctx.t(f"{section}.{fmt.key}", **knob_words(ctx.t, fmt.key, fmt.options))
    players = active_count(t)
    if fmt.course(players):  # declared stages: a line each, for the field signed up
        text += "\n" + stage_lines(ctx.t, fmt.course(players), players)
    if fmt.eliminates and max(fmt.sizes) > 2:  # a format's own play-off, else the usual one
        keys = (f"{fmt.key}-{fmt.rules_variant}", fmt.key) if fmt.rules_variant else (fmt.key,)
        own = next((k for k in keys if ctx.t.has(f"format_rules_final_tie.{k}")), None)
        text += "\n" + ctx.t(
            f"format_rules_final_tie.{own}" if own else "format_rules_extra.final-tie"
        )
    if max(fmt.sizes) == 2 and fmt.game.options.get("series") == "sudden":
        text += "\n" + ctx.t("series.format-note")
    return text


async def rules(ctx: Ctx, args: str) -> None:
    t = await ctx.uow.tournament()
    policies = {k.name: t.options.get("policy", {}).get(k.name, k.default) for k in POLICY_KNOBS}
    text = ctx.t(
        "rules.text",
        title=t.title,
        game=ctx.t(f"game.{t.game}"),
        rules=rules_line(ctx, t) + "\n" + how_to_report(ctx.t, game_of(t)),
        format=format_name(ctx, t, now=True),
        format_rules=format_rules(ctx, t),
        reporter=ctx.t(f"policy.reporter.{policies['reporter']}"),
        late=ctx.t(f"policy.late.{policies['late']}"),
        noshow=ctx.t("policy.noshow", minutes=noshow_minutes(t))
        if noshow_minutes(t)
        else ctx.t("policy.no-checkin", minutes=seed_noshow_minutes(t)),
    )
    ctx.out.say(text + people.rules_lines(ctx, t))
