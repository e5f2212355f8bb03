"""The pinned live standings' picture shows the state its caption describes: a picture
held back within a minute of the last is redrawn at the end of the burst, and the last
change of all (the final) always redraws it."""

from __future__ import annotations

from datetime import timedelta

from playground.botapi import SentMessage
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness, drawn

GROUP = -107600
ADMIN = 1
NAMES = [f"选手{i}" for i in range(1, 9)]


def is_live(m: SentMessage) -> bool:
    return "实时积分" in m.body or "最终名次" in m.body.splitlines()[0]


async def standings_picture(bot: MemoryHarness) -> bytes:
    """What /standings draws now (its first picture: the same sheet as the pinned one)."""
    shown = await bot.says(GROUP, ADMIN, "/standings", "📊 锄大地")
    assert shown.photo is not None
    return shown.photo


async def test_the_pinned_picture_follows_its_caption_to_the_final(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids, _ = await drawn(bot, GROUP, ADMIN, "bigtwo knockout 锄大地", NAMES)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12", "第 1 桌结果确认")
    live = next(m for m in bot.server.outbox(GROUP) if is_live(m))
    first = live.photo
    assert first is not None
    bot.clock.offset += timedelta(seconds=10)  # within the minute: the caption alone
    await bot.says(GROUP, ADMIN, "/report 2 A3 B1 C9 D0", "第 2 桌结果确认")
    await bot.server.wait_idle()
    assert "第 1 轮" in live.body and live.photo == first  # the picture waits…
    bot.clock.offset += timedelta(minutes=1)
    await bot.restart()  # …for one refresh at the end of the minute, which a restart runs
    assert live.photo != first and live.photo == await standings_picture(bot)

    final = tables_of((await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")).body, ids)
    assert list(final) == [1]
    bot.clock.offset += timedelta(seconds=10)
    await bot.says(GROUP, ADMIN, "/report 1 A5 B8 C0", "结束！冠军")
    await bot.server.wait_idle()
    assert "最终名次" in live.body  # the caption says the final ranking, and so does the picture
    assert live.photo == await standings_picture(bot)


async def test_a_knockout_draws_no_running_totals_that_contradict_its_ranking(
    memory_bot: MemoryHarness,
) -> None:
    """An 8-player 锄大地 knockout, over: its ranking is by the stage reached and the
    last table, so /standings shows that ranking's picture and no chart of running
    totals, which would order the places otherwise (a finalist's first round counts
    nothing there)."""
    bot = memory_bot
    await drawn(bot, GROUP, ADMIN, "bigtwo knockout 锄大地", NAMES)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 A0 B13 C13 D13", "第 1 桌结果确认")
    await bot.says(GROUP, ADMIN, "/report 2 A3 B1 C9 D0", "第 2 桌结果确认")
    await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 A5 B8 C0", "结束！冠军")
    before = len(bot.server.outbox(GROUP))
    await bot.says(GROUP, ADMIN, "/standings", "📊 锄大地")
    pictures = [m for m in bot.server.outbox(GROUP)[before:] if m.photo is not None]
    assert len(pictures) == 1
