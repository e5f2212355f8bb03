"""Signing up together: ``/join @partner…`` in team and pair events, and how teams read.

Teams and pairs form either way, by choice (自由组队) or by lot (抽签产生各队):
docs/rules/teams.md#teams-by-lot, docs/rules/pairs.md#pairs-by-lot. A player names their partners
with ``/join @a @b``; the team stands once every member has named the others (nobody is put in a
team by someone else's word), and the draw deals everyone else by lot around it
(``engine/formats/teams.py``, ``engine/formats/pairs.py``).

A partner who has not joined yet is remembered by the words that named them (``@handle``,
name or user id, kept as a string among ``Player.partners``): when that person joins
naming the sender back, the request is read as theirs and the pair forms at once. So two
``/join @other`` sent back to back form the pair, in whichever order they arrive.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event, Partnered
from bot.application.handlers.common import find_player
from bot.application.tournament import format_of, given_teams, names, team_names
from bot.language.errors import UserError
from db.models import Tournament
from db.status import EventStatus, PlayerStatus
from engine.formats import find_format


def read_partners(ctx: Ctx, t: Tournament, args: str) -> tuple[list[int], list[str]]:
    """The partners named in ``/join``'s arguments, checked before anything is stored:
    the user ids of those signed up, and the words naming those who have not joined."""
    if not find_format(t.format).signs_up_together:
        raise UserError("refuse.no-teams", format=ctx.t(f"format.{t.format}"))
    if t.status != EventStatus.SIGNUP:
        raise UserError("refuse.signup-closed")
    partners: set[int] = set()
    unjoined: list[str] = []
    own = {str(ctx.caller.actor), f"@{ctx.caller.inc.sender.username or ctx.caller.actor}".lower()}
    for ref in args.split():
        if ref.lower() in own:
            raise UserError("refuse.partner-self")
        try:
            player = find_player(ctx, t, ref)
        except UserError:  # not among the sign-ups: most likely they have not joined yet
            unjoined.append(ref)
            continue
        if player.status != PlayerStatus.ACTIVE:
            unjoined.append(ref)
            continue
        if player.user_id == ctx.caller.actor:
            raise UserError("refuse.partner-self")
        partners.add(player.user_id)
    size = format_of(t).team_size()
    if len(partners) + len(unjoined) > size - 1:
        raise UserError(f"refuse.too-many-partners.{t.format}", size=size, others=size - 1)
    return sorted(partners), unjoined


def partners_text(ctx: Ctx, t: Tournament, done: Partnered) -> str:
    """Where a partner request stands (``Event.partner``): formed, or waiting for whom."""
    player, partners, unjoined = done.player, done.partners, done.unjoined
    who = names(t)
    members = [who[u] for u in sorted({player.user_id, *partners})]
    if done.formed:
        return ctx.t(f"partners.formed.{t.format}", names=members)
    handle = f"@{player.username}" if player.username else player.name
    by_id = {p.user_id: p for p in t.players}
    waiting = [
        who[u] for u in partners if set(by_id[u].partners) != {player.user_id, *partners} - {u}
    ]
    lines = [ctx.t("partners.noted", who=list(unjoined), handle=handle)] if unjoined else []
    if waiting or not unjoined:
        lines.insert(
            0,
            ctx.t(f"partners.waiting.{t.format}", name=player.name, waiting=waiting, handle=handle),
        )
    return "\n".join(lines)


def team_lines(ctx: Ctx, t: Tournament) -> str:
    """Teams for /players and the draw: signed up together (before the draw), or every
    team as the draw formed it. Empty outside team and pair events."""
    if not find_format(t.format).signs_up_together:
        return ""
    who = names(t)
    if t.status == EventStatus.SIGNUP:
        teams = given_teams(t)
        header = "partners.together"
    else:
        teams = format_of(t).groups(Event.of(ctx, t).state)
        header = f"partners.header.{t.format}"
    members: dict[int, list[str]] = {}
    for user, team in teams.items():
        members.setdefault(team, []).append(who[user])
    if not members:
        return ""
    named = team_names(t, teams)  # teams of one department go by its name
    lines = [
        ctx.t(
            f"partners.line.{t.format}",
            n=i,
            team=named.get(k) or ctx.t("pictures.team", n=i),
            names=members[k],
        )
        for i, k in enumerate(sorted(members), 1)
    ]
    return "\n\n" + ctx.t(header) + "\n" + "\n".join(lines)
