"""Declared commands: the permission table walked for every role and stage, and the
menu, /help and the README generated from the same declarations."""

from __future__ import annotations

import dataclasses

from bot.app import publish_menu
from bot.application.commands import Command, Handler, Role, Stage, menu_entries, permission_table
from bot.application.context import Ctx
from bot.application.routes import COMMANDS
from bot.application.types import CHANNEL_BOT, GROUP_ANONYMOUS_BOT
from tests.handlers.memory import CATALOGUE, Chats
from tests.handlers.readme_table import README, table_in

ADMIN, PLAYER, STRANGER = 1, 201, 999
PLAYERS = (201, 202, 203, 204)
NONE, SIGNUP, RUNNING, FINISHED = -1001, -1002, -1003, -1004  # one chat per stage
ZH = CATALOGUE["zh"]


async def stage_chats(chats: Chats) -> None:
    """Four groups: no event, one signing up, one drawn, one finished."""
    chats.user(ADMIN, "组织者")
    chats.user(STRANGER, "路人")
    for uid in PLAYERS:
        chats.user(uid, f"选手{uid}")
    for chat in (NONE, SIGNUP, RUNNING, FINISHED):
        chats.admins(chat, ADMIN)
    for chat in (SIGNUP, RUNNING, FINISHED):
        assert "工会杯" in await chats.says(chat, ADMIN, "/new bigtwo knockout 工会杯")
        for uid in PLAYERS:
            await chats.says(chat, uid, "/join")
    for chat in (RUNNING, FINISHED):
        assert "第 1 轮抽签" in await chats.says(chat, ADMIN, "/draw")
    await chats.says(FINISHED, ADMIN, "/round")
    done = await chats.says(FINISHED, ADMIN, "/report 1 A0 B1 C2 D3")
    assert "比赛结束" in done or "冠军" in done, done


def expected_refusal(command: Command, caller: Role, chat: int) -> str | None:
    """What the declaration promises: None (admitted) or the refusal's message key."""
    if command.role is Role.ORGANISER and caller is not Role.ORGANISER:
        return "refuse.not-organiser"
    if command.stage is not Stage.ANY:
        exists = chat in (SIGNUP, RUNNING) or (chat == FINISHED and command.stage is Stage.RECORD)
        if not exists:
            return "refuse.no-tournament"
        if command.stage is Stage.SIGNUP and chat != SIGNUP:
            return command.refusal or "refuse.signup-closed"
        if command.stage is Stage.RUNNING and chat == SIGNUP:
            return command.refusal or "refuse.draw-first"
    if command.role is Role.PLAYER and caller is Role.ANYONE:
        return "refuse.not-signed-up"
    return None


async def test_every_command_admits_exactly_the_roles_and_stages_it_declares(
    chats: Chats,
) -> None:
    await stage_chats(chats)
    ran: list[tuple[str, int, int]] = []

    def spy(name: str) -> Handler:
        async def handler(ctx: Ctx, arg: str) -> None:
            ran.append((name, ctx.caller.actor, ctx.caller.inc.chat_id))

        return handler

    chats.core.commands = {c.name: dataclasses.replace(c, handler=spy(c.name)) for c in COMMANDS}
    callers = {Role.ANYONE: STRANGER, Role.PLAYER: PLAYER, Role.ORGANISER: ADMIN}
    checked = 0
    for command in COMMANDS:
        for role, uid in callers.items():
            for chat in (NONE, SIGNUP, RUNNING, FINISHED):
                ran.clear()
                reply = await chats.says(chat, uid, f"/{command.name}")
                refusal = expected_refusal(command, role, chat)
                where = (command.name, role.name, chat)
                if refusal is None:
                    assert ran == [(command.name, uid, chat)], where
                    assert reply == "", where
                else:
                    assert ran == [], where
                    assert reply == ZH(refusal, title="工会杯"), (where, reply)
                checked += 1
    assert checked == len(COMMANDS) * 12


async def test_help_lists_what_each_role_may_use(chats: Chats) -> None:
    await stage_chats(chats)
    organiser = await chats.says(SIGNUP, ADMIN, "/help")
    player = await chats.says(SIGNUP, PLAYER, "/help")
    stranger = await chats.says(SIGNUP, STRANGER, "/help")
    for c in COMMANDS:
        if not c.listed:
            continue
        line = f"/{c.name}"
        assert (line + " ") in organiser or organiser.count(f"\n{line} ") or line in organiser
        shown_player = any(x.startswith(f"/{c.name} ") for x in player.splitlines())
        shown_stranger = any(x.startswith(f"/{c.name} ") for x in stranger.splitlines())
        assert shown_player == (c.role <= Role.PLAYER), c.name
        assert shown_stranger == (c.role is Role.ANYONE), c.name
    assert ZH("help.header.organiser") in organiser
    assert ZH("help.header.anyone") in stranger


async def test_menu_is_the_declared_menu_in_each_language(chats: Chats) -> None:
    await publish_menu(chats.transport, CATALOGUE, "zh")
    names = [c.name for c in COMMANDS if c.menu]
    assert [name for name, _ in chats.transport.menus["en"]] == names
    assert chats.transport.menus[None] == chats.transport.menus["zh"]
    assert chats.transport.menus["en"] == menu_entries(CATALOGUE["en"], COMMANDS)
    assert all(1 <= len(text) <= 256 for text in dict(chats.transport.menus["zh"]).values())


def test_readme_permission_table_is_generated_from_the_declarations() -> None:
    table = table_in(README.read_text(encoding="utf-8"))
    assert table == permission_table(CATALOGUE["en"], COMMANDS), (
        "README.md is out of date: run .venv/bin/python -m tests.handlers.readme_table"
    )
    assert table.count("\n| `/") == sum(c.listed for c in COMMANDS)


async def test_person_commands_refuse_shared_identities_before_anything_else(
    chats: Chats,
) -> None:
    """Every anonymous admin arrives as one user, every channel as another: a command
    declared ``person`` refuses both with the reason, whatever the stage."""
    await stage_chats(chats)
    chats.user(GROUP_ANONYMOUS_BOT, "Group")
    chats.user(CHANNEL_BOT, "Channel")
    person = [c for c in COMMANDS if c.person]
    assert {c.name for c in person} == {"join", "leave", "report", "confirm", "dispute"}
    for command in person:
        for chat in (NONE, SIGNUP, RUNNING):
            anonymous = await chats.sent_after(
                chat, GROUP_ANONYMOUS_BOT, f"/{command.name}", as_chat=chat
            )
            assert [m.text for m in anonymous] == [ZH("refuse.anonymous-admin")], command.name
            channel = await chats.sent_after(chat, CHANNEL_BOT, f"/{command.name}", as_chat=-100)
            assert [m.text for m in channel] == [ZH("refuse.sent-as-channel")], command.name
    # An anonymous admin is still an organiser.
    assert "SHA-256" in await chats.says(NONE, GROUP_ANONYMOUS_BOT, "/new bigtwo 杯")
