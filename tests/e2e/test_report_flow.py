"""The guided /report: its compact button state, and how it behaves in a group.

The flow keeps its whole state in callback data, so the first tests check the encoding
itself (every game's longest flow fits Telegram's 64 bytes; state survives the round
trip; taps read back into the answers the engine composes). The end-to-end tests check
what a group sees: only the starter may press, Back and Cancel, an organiser picking a
table, an impossible tap sequence explained without a Submit button, and a Submit that
lost a race refused like a typed report.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.application.handlers.report_flow import (
    CALLBACK_LIMIT,
    DONE,
    SHOW,
    SYMBOLS,
    FlowState,
    replay,
)
from bot.language.errors import UserError
from engine.games import GAMES, find_game
from playground.botapi import SentMessage
from tests.e2e.harness import Harness, tables_of
from tests.e2e.test_games import button_data

GROUP = -100800
ADMIN = 1
NAMES = ["赵一", "钱二", "孙三", "李四", "周五", "吴六", "郑七", "王八"]
PLAYERS = list(range(301, 309))
BIGGEST_ID = 2**52  # Telegram user ids fit in 52 bits


# --- the encoding ----------------------------------------------------------------------
@pytest.mark.parametrize("game_type", GAMES, ids=[g.key for g in GAMES])
def test_every_games_longest_flow_fits_telegram_callback_data(game_type: type) -> None:
    game = game_type({"doubling": "on"} if game_type.key == "doudizhu" else None)
    seats = max(game_type.seat_counts)
    taps = ""
    for step in game.flow(seats):
        last = SYMBOLS[len(step.choices) - 1]
        if step.per_seat:
            taps += last * seats
        elif step.multi:
            taps += SYMBOLS[: len(step.choices)] + DONE
        else:
            taps += last
    state = FlowState(BIGGEST_ID, 99_999, 999, 999, taps)
    assert len(state.encode(SHOW).encode()) <= CALLBACK_LIMIT
    assert replay(game.flow(seats), taps, seats).step is None


@given(
    st.integers(1, BIGGEST_ID),
    st.integers(1, 10**6),
    st.integers(1, 500),
    st.one_of(st.none(), st.integers(1, 999)),
    st.text(SYMBOLS + DONE, max_size=20),
    st.sampled_from("nsx"),
)
def test_flow_state_survives_the_round_trip_through_callback_data(
    user: int, tournament: int, rnd: int, table: int | None, taps: str, action: str
) -> None:
    state = FlowState(user, tournament, rnd, table, taps)
    prefix, _, arg = state.encode(action).partition(":")
    assert prefix == "rf"
    assert FlowState.decode(arg) == (action, state)


def test_taps_read_back_into_the_answers_the_engine_composes() -> None:
    game = find_game("bigtwo")()
    step = game.flow(4)[0]
    taps = "".join(SYMBOLS[step.choices.index(v)] for v in ("5", "8s", "0", "12"))
    progress = replay(game.flow(4), taps, 4)
    assert progress.step is None
    assert game.compose(progress.answers, 4) == "A5 B8s C0 D12"
    halfway = replay(game.flow(4), taps[:2], 4)
    assert halfway.step == step and halfway.seat == 2


@pytest.mark.parametrize("bad", ["", "q1.1.1.1.", "n1.1.1", "nzz.1.1.1.!", "n1.1.1.1.z"])
def test_malformed_or_foreign_callback_data_is_refused_as_stale(bad: str) -> None:
    with pytest.raises(UserError) as caught:
        game = find_game("bigtwo")()
        _, state = FlowState.decode(bad)
        replay(game.flow(4), state.taps, 4)
    assert caught.value.key == "report-flow.stale"


# --- in a group --------------------------------------------------------------------------
async def press(bot: Harness, uid: int, message: SentMessage, label: str) -> SentMessage:
    edits = len(message.edits)
    bot.server.user_presses(GROUP, uid, message.message_id, button_data(message, label))
    return await bot.server.wait_for(
        lambda m: m.message_id == message.message_id and len(m.edits) > edits
    )


async def big_two_round(bot: Harness, players: int) -> dict[int, list[int]]:
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid, name in zip(PLAYERS[:players], NAMES, strict=False):
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "锄大地群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 周五锄大地", "周五锄大地")
    for uid in PLAYERS[:players]:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    return tables_of(drawn.body, dict(zip(NAMES, PLAYERS, strict=False)))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])  # both also run in memory (tests/handlers)
async def test_only_the_starter_taps_and_back_and_cancel_store_nothing(bot: Harness) -> None:
    server = bot.server
    seats = (await big_two_round(bot, 4))[1]
    captain, other = seats[0], seats[1]

    await bot.says(GROUP, other, "/report", "由 A 座")  # seat B may not report
    flow = await bot.says(GROUP, captain, "/report", "座位 A：剩几张牌")
    assert "第 1 桌" in flow.body and [b["text"] for b in flow.buttons][:3] == ["0", "1", "2"]

    # Somebody else's tap is refused with a toast and changes nothing.
    query = server.user_presses(GROUP, other, flow.message_id, button_data(flow, "5"))
    answer = await server.wait_for_callback_answer(query)
    assert answer.show_alert and "只有发起" in (answer.text or "")
    assert "座位 A" in flow.body and not flow.edits

    flow = await press(bot, captain, flow, "5")
    assert "已选：A5" in flow.body and "座位 B" in flow.body
    flow = await press(bot, captain, flow, "↩ 返回")
    assert "座位 A" in flow.body and "已选" not in flow.body
    flow = await press(bot, captain, flow, "✖ 取消")
    assert "已取消" in flow.body and not flow.buttons

    # Nothing was stored: the table can still be reported, by buttons this time.
    flow = await bot.says(GROUP, captain, "/report", "座位 A")
    for label in ("5", "8s", "0", "12"):
        flow = await press(bot, captain, flow, label)
    assert "A5 B8s C0 D12" in flow.body and "+73" in flow.body  # docs/rules/bigtwo.md#settlement
    flow = await press(bot, captain, flow, "✅ 提交")
    assert "请同桌另一位选手确认" in flow.body
    assert [b["text"] for b in flow.buttons] == ["确认 ✅", "有异议 ⚠️"]
    await bot.says(GROUP, captain, "/report", "已有一份结果等待确认")
    await bot.presses(GROUP, other, flow, flow.buttons[0]["callback_data"], "结果确认")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_organiser_picks_a_table_and_impossible_taps_are_explained(bot: Harness) -> None:
    server = bot.server
    tables = await big_two_round(bot, 8)

    # Table 1's captain gets as far as Submit, but the organiser reports the table first:
    # the captain's Submit is refused like a typed report, and so is a stale table button.
    captain = tables[1][0]
    mine = await bot.says(GROUP, captain, "/report", "座位 A")
    for label in ("0", "1", "2", "3"):
        mine = await press(bot, captain, mine, label)
    pick = await bot.says(GROUP, ADMIN, "/report", "要上报哪一桌")
    assert [b["text"] for b in pick.buttons] == ["1", "2", "✖ 取消"]
    await bot.says(GROUP, ADMIN, "/report 1 A0 B3 C2 D1", "第 1 桌结果确认")
    for uid, message, label in ((captain, mine, "✅ 提交"), (ADMIN, pick, "1")):
        query = server.user_presses(GROUP, uid, message.message_id, button_data(message, label))
        answer = await server.wait_for_callback_answer(query)
        assert "第 1 桌的结果已确认" in (answer.text or "")

    # Only table 2 is left, so the organiser goes straight to it.
    flow = await bot.says(GROUP, ADMIN, "/report", "座位 A")
    assert "第 2 桌" in flow.body and [b["text"] for b in flow.buttons][-1] == "✖ 取消"
    for label in ("0", "0", "5", "7"):
        flow = await press(bot, ADMIN, flow, label)
    assert "两个座位" in flow.body  # the engine's reason, before anything is stored
    assert [b["text"] for b in flow.buttons] == ["↩ 返回", "✖ 取消"]
    for _ in range(3):
        flow = await press(bot, ADMIN, flow, "↩ 返回")
    for label in ("4", "5", "7"):
        flow = await press(bot, ADMIN, flow, label)
    flow = await press(bot, ADMIN, flow, "✅ 提交")
    assert "第 2 桌结果确认" in flow.body  # an organiser's report counts at once
    await server.wait_for("第 1 轮结束")
    await bot.says(GROUP, ADMIN, "/report", "没有进行中的轮次")
