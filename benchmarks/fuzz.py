"""Seeded fuzzing of the whole bot (docs/performance.md#hostile-input-and-crashes): hostile commands
and button presses from every kind of sender, at every stage of an event, through the real stack
(local Bot API server → aiogram or PTB → core → database → outbox → Bot API).

It fails on the two things no input may cause: the apology (an exception escaped a
use-case) and a write by a refused input (a refusal must leave the database as it was).
Each stage is built by a script in a chat of its own, then fuzzed there.

CI runs a few thousand updates (``tests/e2e/test_fuzz.py``); for more, nightly::

    python -m benchmarks.fuzz [updates per backend, default 20000] [seed]

which prints updates, refusals, apologies and refused writes per backend.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.application.core import Core
from bot.application.routes import CALLBACKS, COMMANDS
from bot.application.types import CHANNEL_BOT, GROUP_ANONYMOUS_BOT, Incoming
from db.models import Base
from playground.botapi import BotAPIServer
from tests.e2e import raw_updates
from tests.e2e.harness import Harness

ADMIN = 1
STRANGER = 99
PLAYERS = [301, 302, 303, 304]
NAMES = ["Ann", "Bob", "Cid", "Dee"]
CHANNEL = -1009990002
APOLOGIES = ("Sorry, something went wrong", "抱歉，处理这条消息时出错了", "Traceback")
# Rows a refusal does write by design: the processed-update mark and the refusal itself.
REFUSAL_TABLES = frozenset({"processed_updates", "outbox", "fired_timers"})

TOKENS = [
    "", "x", "0", "1", "2", "3", "-1", "1.0", "1.5", "0.5", "1e3", "NaN", "Infinity",
    "99999999999", "99999999999999999999", "²", "３", "١٢", "十十号", "三十十点", "二十五号",
    "A", "B", "1A", "2A", "9Z", "A5", "B8", "C0", "D12", "A5s", "total", "总分",
    "A+1000000000000000000000000000000", "B+1", "C-1", "D0", "A+37", "B-7", "C+57", "D-87",
    "cards", "warn", "on", "off", "noshow", "advance", "rounds", "reporter", "late", "winner",
    "Etc/GMT+12", "Etc/GMT-14", "Asia/Shanghai", "../../etc/passwd", "9999-12-31", "23:59",
    "0001-01-01", "2026-02-30", "25:61", "1小时后", "明天", "下周五", "Friday", "18:00",
    "=HYPERLINK(\"http://evil.example\")", "+cmd", "@evil", "@", "@Ann", "zh", "en", "fr",
    "bigtwo", "doudizhu", "doudizhu4", "guandan", "shengji", "xiangqi", "knockout", "swiss",
    "groups", "pairs", "teams", "stages", "bracket", "1-0", "0.5-0.5", ";", "；", "\n", "\t",
    "\u202e", "\u200b", "🀄", "x" * 300, "-", "--", "/", "//", "#3", "第3桌", "3号", "T1",
    *NAMES,
]  # fmt: skip
DATA_TAILS = ["", "x", "1.0", "1e3", "99999999999999999999", "²", "-1", "0", "1", "1:1", ":", "::"]


@dataclass
class Findings:
    """What one run saw; ``apologies`` and ``refused_writes`` must stay empty."""

    updates: int = 0
    handled: int = 0
    refusals: int = 0
    apologies: list[str] = field(default_factory=list)
    refused_writes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    setup_seconds: float = 0.0
    window: list[float] = field(default_factory=list)  # outbox: Telegram's answer → mark

    def line(self, label: str) -> str:
        w = sorted(self.window) or [0.0]
        return (
            f"{label}: {self.updates} updates ({self.handled} reached a use-case, "
            f"{self.refusals} refused) in {self.seconds:.1f}s "
            f"({self.setup_seconds:.1f}s building the stages); apologies "
            f"{len(self.apologies)}, writes from refused input {len(self.refused_writes)}; "
            f"repeat window (answer → mark) median {1000 * w[len(w) // 2]:.1f} ms, "
            f"p99 {1000 * w[len(w) * 99 // 100]:.1f} ms over {len(self.window)} replies"
        )


async def digest(sessionmaker: async_sessionmaker[Any]) -> str:
    """A fingerprint of every fact the bot keeps (not its mark and reply queues)."""
    sha = hashlib.sha256()
    async with sessionmaker() as session:
        for table in Base.metadata.sorted_tables:
            if table.name in REFUSAL_TABLES:
                continue
            rows = sorted(repr(tuple(r)) for r in (await session.execute(select(table))).all())
            sha.update(f"{table.name}:{rows}".encode())
    return sha.hexdigest()


class Probe(logging.Handler):
    """Watches a running :class:`Core`: every refusal, every apology, and the database
    before and after each refused update. To tell which update wrote what, it has the
    core handle every update and timer one at a time, all chats behind one lock (the
    core otherwise runs chats concurrently)."""

    def __init__(self, core: Core, findings: Findings) -> None:
        super().__init__(logging.ERROR)
        self.findings = findings
        self.refused = False
        self.facts = ""  # the digest after the last update or timer: the next one's "before"
        self.replies: dict[int, tuple[bool, list[str]]] = {}  # update id → (refused, texts)
        run, refusal, system = core._run, core._refusal, core.system
        one_at_a_time = asyncio.Lock()
        core._lock = lambda chat_id: one_at_a_time  # type: ignore[method-assign]

        async def probed_run(inc: Incoming, handler: Any, arg: str) -> Any:
            self.refused = False
            before = self.facts or await digest(core.sessionmaker)
            ctx = await run(inc, handler, arg)
            self.facts = await digest(core.sessionmaker)
            findings.handled += 1
            texts = [o.text for o in ctx.out.outgoing] + [ctx.out.toast or ""] if ctx else []
            self.replies[inc.update_id] = (self.refused, texts)
            if self.refused:
                findings.refusals += 1
                if self.facts != before:
                    findings.refused_writes.append(_describe(inc))
            return ctx

        def probed_refusal(ctx: Any, exc: Exception) -> str:
            self.refused = True
            return refusal(ctx, exc)

        async def probed_system(*args: Any) -> None:
            await system(*args)
            self.facts = ""  # a timer may rule: read the facts afresh

        core._run = probed_run  # type: ignore[method-assign]
        core._refusal = probed_refusal  # type: ignore[method-assign]
        core.system = probed_system  # type: ignore[method-assign]
        logging.getLogger("bot.application.core").addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.refused = True  # the apology is a refusal too: its writes are rolled back
        self.findings.apologies.append(record.getMessage())

    def close(self) -> None:
        logging.getLogger("bot.application.core").removeHandler(self)
        super().close()


def _describe(inc: Incoming) -> str:
    what = f"press {inc.callback_data!r}" if inc.is_callback else repr(inc.text[:120])
    return f"update {inc.update_id} from {inc.sender.id} in {inc.chat_id}: {what}"


# --- stages -----------------------------------------------------------------------------
Step = tuple[int, str, str]  # (user, text, expected reply)
# A typed /join is answered quietly: a 👍 and the sign-up message's count, edited.
JOIN = [(uid, "/join", f"{n} signed up so far") for n, uid in enumerate(PLAYERS, 1)]
EN: Step = (ADMIN, "/lang en", "English")
NEW: Step = (ADMIN, "/new bigtwo knockout Fuzz Cup", "SHA-256")
DRAW: Step = (ADMIN, "/draw", "round 1 draw")
STAGES: dict[str, list[Step]] = {
    "no event": [EN],
    "sign-up": [EN, NEW, *JOIN[:2]],
    "drawn": [EN, NEW, *JOIN, DRAW],
    "round open": [
        EN,
        NEW,
        (ADMIN, "/set noshow 30", "Set noshow"),
        *JOIN,
        DRAW,
        (ADMIN, "/round 明天 18:00", "is open"),
        (ADMIN, "/penalty Ann 1 late", "loses 1"),
    ],
    "reported": [
        EN,
        (ADMIN, "/new doudizhu4 knockout Fuzz Cup", "SHA-256"),
        (ADMIN, "/set reporter any", "Set reporter"),
        *JOIN,
        DRAW,
        (ADMIN, "/round", "is open"),
        (PLAYERS[0], "/report 1 A win", "/confirm"),
    ],
    "finished": [
        EN,
        NEW,
        *JOIN,
        DRAW,
        (ADMIN, "/round", "is open"),
        (ADMIN, "/report 1 A5 B8 C0 D12", "is over"),
    ],
}


async def build_stage(server: BotAPIServer, chat_id: int, steps: list[Step]) -> None:
    server.add_chat(chat_id, f"fuzz {chat_id}", admins=[ADMIN], members=[*PLAYERS, STRANGER])
    for uid, text, expect in steps:
        server.user_says(chat_id, uid, text)
        await server.wait_for(expect, timeout=20)


# --- hostile updates --------------------------------------------------------------------
def hostile_text(rng: random.Random) -> str:
    names = [
        *(c.name for c in COMMANDS),
        "nope",
        "JOIN",
        "report@other_bot",
        "report@tourbot_bot",
        "x" * 40,
    ]
    name = rng.choice([n for n in names if not n.startswith("_")])
    words = [rng.choice(TOKENS) for _ in range(rng.choice((0, 1, 1, 2, 3, 5)))]
    if rng.random() < 0.1:  # a mutated token: spliced, doubled or cut
        word = rng.choice(TOKENS) + rng.choice(TOKENS)
        words.append(word[: rng.randint(0, len(word))])
    text = f"/{name} " + " ".join(words)
    return text if rng.random() > 0.03 else text.replace(" ", "\n")


def hostile_data(rng: random.Random, chat_buttons: list[str]) -> str:
    if chat_buttons and rng.random() < 0.35:
        real = rng.choice(chat_buttons)  # a real button, or a real one mangled
        return (
            real
            if rng.random() < 0.5
            else real[: rng.randint(0, len(real))] + rng.choice(DATA_TAILS)
        )
    prefix = rng.choice([*CALLBACKS, "nope", ""])
    tail = rng.choice(["", ":", ".", ":" + rng.choice(DATA_TAILS)])
    return f"{prefix}:{rng.choice(DATA_TAILS)}{tail}"[:64]


def send_one(server: BotAPIServer, rng: random.Random, chat_id: int) -> None:
    """One update from a random sender: a member, a stranger, an anonymous admin or a
    channel; a command or a press on one of the bot's messages in that chat."""
    who = rng.random()
    messages = [m for m in server.outbox(chat_id) if m.method != "sendDocument"]
    if messages and rng.random() < 0.35:
        message = rng.choice(messages)
        data = hostile_data(rng, [b["callback_data"] for b in message.buttons])
        if data.encode():
            uid = rng.choice([ADMIN, STRANGER, *PLAYERS])
            raw_updates.press(server, chat_id, uid, message.message_id, data)
            return
    text = hostile_text(rng)
    if who < 0.08:
        server.user_says(chat_id, ADMIN, text, sender_chat_id=chat_id)  # anonymous admin
    elif who < 0.14:
        server.user_says(chat_id, CHANNEL_BOT, text, sender_chat_id=CHANNEL)
    elif who < 0.17:
        server.user_says(STRANGER, STRANGER, text)  # a private chat
    else:
        server.user_says(chat_id, rng.choice([ADMIN, ADMIN, STRANGER, *PLAYERS]), text)


async def all_handled(server: BotAPIServer, timeout: float = 120.0) -> None:
    """Until the bot has confirmed every queued update (its offset moved past them)."""
    queued = server._updates._updates
    if not queued:
        return
    last = int(queued[-1]["update_id"])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        offsets = [c.params.get("offset") for c in server.calls_to("getUpdates")[-3:]]
        if any(o is not None and int(o) > last for o in offsets):
            return
        await asyncio.sleep(0.02)
    raise TimeoutError("the bot did not confirm every update")


async def fuzz(backend: str, database_url: str, updates: int, seed: int = 10) -> Findings:
    """Build every stage in its own chat, then send ``updates`` hostile updates spread
    over them, in batches; return what was seen."""
    findings = Findings()
    rng = random.Random(seed)
    server = BotAPIServer(token="123456:TEST", bot_id=123456, bot_username="tourbot_bot")
    await server.start()
    server.add_user(ADMIN, "Org", language_code="en")
    server.add_user(STRANGER, "Stranger", language_code="en")
    server.add_user(GROUP_ANONYMOUS_BOT, "Group")
    server.add_user(CHANNEL_BOT, "Channel")
    for uid, name in zip(PLAYERS, NAMES, strict=True):
        server.add_user(uid, name, language_code="en")
    server.add_chat(CHANNEL, "A channel", type="channel", admins=[ADMIN])
    bot = Harness(server, backend, database_url)
    await bot.start()
    assert bot.app is not None
    probe = Probe(bot.app.core, findings)
    started = time.monotonic()
    try:
        chats = {name: -1000500 - i for i, name in enumerate(STAGES)}
        for name, steps in STAGES.items():
            await build_stage(server, chats[name], steps)
        findings.setup_seconds = time.monotonic() - started
        per_stage = -(-updates // len(chats))
        for chat_id in chats.values():
            sent = 0
            while sent < per_stage:
                batch = min(50, per_stage - sent)
                for _ in range(batch):
                    send_one(server, rng, chat_id)
                sent += batch
                await all_handled(server)
            findings.updates += sent
        await server.wait_idle(quiet=0.3, timeout=60)
        said = [m.body for m in server.outbox()]
        said += [a.text or "" for a in server.answered_callbacks.values()]
        findings.apologies += [s[:80] for s in said if s.startswith(APOLOGIES) or "Traceback" in s]
        findings.window = list(bot.app.sender.window)
    finally:
        findings.seconds = time.monotonic() - started
        probe.close()
        await bot.stop()
        await server.stop()
    return findings


async def _main(updates: int, seed: int) -> int:
    failed = 0
    for backend in ("aiogram", "ptb"):
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{Path(tmp) / 'fuzz.db'}"
            found = await fuzz(backend, url, updates, seed)
        print(found.line(backend))
        for line in found.apologies[:20] + found.refused_writes[:20]:
            print("   ", line)
        failed += len(found.apologies) + len(found.refused_writes)
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.CRITICAL)
    updates = int(argv[0]) if argv else 20_000
    seed = int(argv[1]) if len(argv) > 1 else 10
    return asyncio.run(_main(updates, seed))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
