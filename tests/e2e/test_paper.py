"""/print on paper and back: every score slip's QR code, decoded from the rendered PDF,
opens its own table's report form in the private chat, on both backends."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pypdfium2 as pdfium
import pytest
import zxingcpp

from playground.botapi import SentMessage
from tests.e2e.harness import Harness, tables_of
from tests.e2e.test_games import button_data

GROUP = -100930
ADMIN = 1
NAMES = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "赵敏", "黄勇"]
PLAYERS = list(range(931, 939))
STRANGER = 990
SLIP = re.compile(r"第 (\d+) 桌")


def qr_links(pdf: bytes) -> list[str]:
    """Every QR code on every page of ``pdf``, decoded from the rendered page."""
    links: list[str] = []
    document = pdfium.PdfDocument(pdf)
    for page in document:
        image = page.render(scale=2).to_pil()
        links += [code.text for code in zxingcpp.read_barcodes(image)]
    return links


async def in_private(bot: Harness, uid: int, text: str, expect: str) -> SentMessage:
    return await bot.says(uid, uid, text, expect)


async def press_private(bot: Harness, uid: int, message: SentMessage, label: str) -> SentMessage:
    edits = len(message.edits)
    bot.server.user_presses(uid, uid, message.message_id, button_data(message, label))
    return await bot.server.wait_for(
        lambda m: m.message_id == message.message_id and m.chat_id == uid and len(m.edits) > edits
    )


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_each_slips_qr_code_opens_its_own_tables_form_in_the_private_chat(
    bot: Harness,
) -> None:
    server = bot.server
    server.add_user(ADMIN, "组织者")
    server.add_user(STRANGER, "路人")
    for uid, name in zip(PLAYERS, NAMES, strict=True):
        server.add_user(uid, name)
    server.add_chat(GROUP, "工会群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 工会杯", "工会杯")
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, dict(zip(NAMES, PLAYERS, strict=True)))
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")

    await bot.says(GROUP, PLAYERS[0], "/print", "组织者")  # organisers only
    printed = await bot.says(GROUP, ADMIN, "/print", "打印")
    assert printed.document is not None and printed.filename == "round-1.pdf"
    links = qr_links(printed.document)
    assert len(links) == len(tables) == 2
    payloads = []
    for link in links:
        url = urlparse(link)
        assert (url.scheme, url.netloc) == ("https", "t.me") and url.path.strip("/")
        (payload,) = parse_qs(url.query)["start"]
        assert len(payload) <= 64 and re.fullmatch(r"[A-Za-z0-9_-]+", payload)
        payloads.append(payload)

    # Each payload leads its table's captain (seat A) to that table's form, and only it.
    for payload in payloads:
        await in_private(bot, STRANGER, f"/start {payload}", "你不在这一桌")
        form = await in_private(bot, tables[1][0], f"/start {payload}", "工会杯")
        if "第 1 桌" not in form.body:  # the other table's slip: named, not opened
            assert "你不在这一桌" in form.body and "第 2 桌" in form.body
            form = await in_private(bot, tables[2][0], f"/start {payload}", "座位 A")
            number = 2
        else:
            number = 1
        match = SLIP.search(form.body)
        assert match is not None and int(match.group(1)) == number
        assert "座位 A" in form.body and form.buttons

    # The captain of table 1 fills the form in privately; the report reaches the group.
    captain, other = tables[1][0], tables[1][1]
    form = await in_private(bot, captain, f"/start {payloads[0]}", "工会杯")
    if "第 1 桌" not in form.body:
        form = await in_private(bot, captain, f"/start {payloads[1]}", "座位 A")
    server.user_presses(captain, captain, form.message_id, button_data(form, "🙋 叫裁判"))
    called = await server.wait_for(lambda m: m.chat_id == GROUP and "叫裁判" in m.body)
    assert "第 1 桌" in called.body  # nobody organises from a private chat yet: the group
    for label in ("5", "8s", "0", "12"):
        form = await press_private(bot, captain, form, label)
        assert button_data(form, "🙋 叫裁判").startswith("ref:")  # on every step
    server.user_presses(captain, captain, form.message_id, button_data(form, "✅ 提交"))
    pending = await server.wait_for(
        lambda m: m.chat_id == GROUP and "请同桌另一位选手确认" in m.body
    )
    assert "第 1 桌" in pending.body and "A5 B8s C0 D12" in pending.body
    await server.wait_for(lambda m: m.message_id == form.message_id and "已发到群里" in m.body)
    assert not form.buttons  # the private form is done
    await bot.presses(GROUP, other, pending, pending.buttons[0]["callback_data"], "结果确认")

    # A forged slip is refused; once the round is over, a slip says so.
    forged = payloads[0][:-1] + ("A" if payloads[0][-1] != "A" else "B")
    await in_private(bot, captain, f"/start {forged}", "不是任何比赛的记分单")
    await bot.says(GROUP, ADMIN, "/report 2 A0 B1 C2 D3", "第 1 轮结束")
    await in_private(bot, captain, f"/start {payloads[0]}", "该轮已经结束")
