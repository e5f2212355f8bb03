"""The permission matrix: every command × every kind of sender, generated from the
command table (``bot.application.routes.COMMANDS``) and the README's "who" column, which must
describe every command. Organiser commands refuse everyone else; the person commands
refuse shared identities (anonymous admins, channels); nothing gets the apology, and no
refusal writes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.fuzz import ADMIN, CHANNEL, NAMES, PLAYERS, STRANGER, Findings, Probe
from bot.application.routes import COMMANDS
from bot.application.types import CHANNEL_BOT, GROUP_ANONYMOUS_BOT
from tests.e2e.harness import Harness

GROUP = -1010030
README = Path(__file__).parents[2] / "README.md"
# Commands a person does for themself: a shared identity cannot. Declared ``person``
# (refused at admission), or so for their own use (``/dept`` and ``/here`` without a
# player, which an organiser's anonymous admin may name).
PERSON = frozenset({c.name for c in COMMANDS if c.person} | {"dept", "here"})
ARGS = {
    "new": "bigtwo Another",
    "set": "advance 2",
    "round": "明天 18:00",
    "report": "1 A5 B8 C0 D12",
    "confirm": "1",
    "dispute": "1 wrong",
    "fix": "1 A5 B8 C0 D12",
    "penalty": "Bob 1 late",
    "forfeit": "1",
    "dq": "Dee",
    "lang": "en",
    "tz": "Asia/Shanghai",
    "grant": "Cid",
    "dept": "Sales",
}
ROLES = ("stranger", "player", "channel", "anonymous admin", "organiser")


def who_column() -> dict[str, str]:
    """Command → the README's "who" cell, for every command its table lists."""
    who: dict[str, str] = {}
    for line in README.read_text().splitlines():
        cells = [c.strip() for c in line.split(" | ")]
        if line.startswith("| `/") and len(cells) >= 3:
            for name in re.findall(r"`/(\w+)", cells[0]):
                who[name] = cells[1]
    return who


def public_commands() -> list[str]:
    """The routed commands in /help, one name per handler (``/start`` is unlisted: a
    deep link's landing, tested with the score slips)."""
    seen: dict[object, str] = {}
    for command in COMMANDS:
        if command.listed:
            seen.setdefault(command.handler, command.name)
    return sorted(seen.values())


def send(bot: Harness, role: str, text: str) -> int:
    server = bot.server
    if role == "anonymous admin":
        server.user_says(GROUP, ADMIN, text, sender_chat_id=GROUP)
    elif role == "channel":
        server.user_says(GROUP, CHANNEL_BOT, text, sender_chat_id=CHANNEL)
    else:
        uid = {"stranger": STRANGER, "player": PLAYERS[1], "organiser": ADMIN}[role]
        server.user_says(GROUP, uid, text)
    return int(server._updates._updates[-1]["update_id"])


def test_the_readme_says_who_may_use_every_command() -> None:
    assert set(public_commands()) <= set(who_column())


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_permission_matrix(bot: Harness) -> None:
    from benchmarks.fuzz import all_handled

    server = bot.server
    for uid, name in ((ADMIN, "Org"), (STRANGER, "Stranger"), *zip(PLAYERS, NAMES, strict=True)):
        server.add_user(uid, name, language_code="en")
    server.add_user(GROUP_ANONYMOUS_BOT, "Group")
    server.add_user(CHANNEL_BOT, "Channel")
    server.add_chat(CHANNEL, "A channel", type="channel", admins=[ADMIN])
    server.add_chat(GROUP, "matrix", admins=[ADMIN], members=[*PLAYERS, STRANGER])
    for uid, text, expect in [
        (ADMIN, "/lang en", "English"),
        (ADMIN, "/new bigtwo knockout Matrix", "SHA-256"),
        (ADMIN, "/set reporter any", "Set reporter"),
        # A typed /join is answered quietly: the sign-up message's count is edited.
        *((uid, "/join", f"{n} signed up so far") for n, uid in enumerate(PLAYERS, 1)),
        (ADMIN, "/draw", "round 1 draw"),
        (ADMIN, "/round", "is open"),
        (PLAYERS[0], "/report 1 A5 B8 C0 D12", "/confirm"),
    ]:
        server.user_says(GROUP, uid, text)
        await server.wait_for(expect, timeout=20)
    assert bot.app is not None
    findings = Findings()
    probe = Probe(bot.app.core, findings)
    who = who_column()
    cells: list[tuple[str, str, int]] = []
    try:
        for role in ROLES:  # the organisers last: their rulings change the state
            for name in public_commands():
                cells.append((role, name, send(bot, role, f"/{name} {ARGS.get(name, '')}")))
                await all_handled(server)
    finally:
        probe.close()

    not_organiser = "Only organisers"
    violations = []
    for role, name, update_id in cells:
        refused, texts = probe.replies.get(update_id, (False, []))
        said = " / ".join(t for t in texts if t)[:100]
        outsider = role in ("stranger", "player", "channel")
        if who[name] == "organiser" and outsider and not (refused and not_organiser in said):
            violations.append(f"{role} /{name} was not refused as a non-organiser: {said}")
        if name in PERSON and role in ("channel", "anonymous admin") and not refused:
            violations.append(f"{role} /{name} was accepted from a shared identity: {said}")
    print(f"permission matrix: {len(cells)} cells, {len(violations)} violations")
    assert len(cells) == len(ROLES) * len(public_commands())
    assert violations == []
    assert findings.apologies == [] and findings.refused_writes == []
