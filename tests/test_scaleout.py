"""Scale-out mode as real processes: a gateway, three workers (two slots on the host:
one stands by) and two schedulers on a private NATS JetStream server and PostgreSQL,
fed as Telegram's webhook feeds them.

The fault cases, each checked from the database: a working worker SIGKILLed mid-burst
(the standby takes its slot), NATS restarted mid-burst (a real restart of our own
nats-server), the scheduler leader SIGKILLed before a deadline, and every PostgreSQL
connection ended mid-burst then a worker SIGKILLed. Nothing is lost, nothing handled
twice, each chat's updates are handled in the order they arrived, each reply is sent
once, the deadline fires once.

Everything is private to the run: a database of its own next to ``TEST_DATABASE_URL``,
a ``nats-server`` of its own (or, without the binary, the shared ``NATS_URL`` under a
random prefix, and then the NATS restart is skipped: it is not ours to restart).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.application.base36 import b36
from bot.transport.scaleout.budget import OUTBOX_LOCKS, PARTS
from bot.transport.scaleout.slots import WORKER_SLOTS
from db.migrate import upgrade
from db.session import make_engine
from playground.botapi import BotAPIServer
from playground.botapi.webapp import init_data
from tests.cluster import (
    ADMIN,
    SECRET,
    TOKEN,
    Cluster,
    NatsServer,
    SharedNats,
    Updates,
    Verdict,
    burst,
    make_chats,
    nats_available,
    require_services,
    scratch_database,
    shared_nats_url,
    signup_updates,
    skip_or_fail,
    verdict,
    wait_committed,
    wait_until,
)

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
SHARED_NATS = None if nats_available() else shared_nats_url()
pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(90)]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    require_services(nats=True)  # skipped without PostgreSQL or NATS; in CI a failure
    tmp = tmp_path_factory.mktemp("scaleout")
    async with scratch_database(TEST_DATABASE_URL, "scaleout") as url:
        engine = make_engine(url)
        await upgrade(engine)  # here once, so that the five processes start at the head
        await engine.dispose()
        botapi = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
        await botapi.start()
        nats: NatsServer | SharedNats
        if SHARED_NATS is None:
            nats = NatsServer(tmp / "nats")
            await nats.start()
        else:
            nats = SharedNats(SHARED_NATS)
        c = Cluster(botapi, nats, url, tmp, shards=4)
        c.start_gateway("gateway")
        # Two slots on this host (whatever its cores): two workers work, one stands by.
        for name in ("worker-1", "worker-2", "worker-3"):
            c.spawn(name, "worker", WORKERS_PER_HOST="2")
            await wait_until(lambda n=name: c.started(n), 60, f"{name} to start", every=0.2)
        for name in ("scheduler-1", "scheduler-2"):
            c.spawn(name, "scheduler")
        try:
            await c.wait_gateways()
            await wait_until(c.leader_pid, 60, "a scheduler to lead", every=0.5)
            yield c
        finally:
            await c.stop()
            if isinstance(nats, NatsServer):
                nats.stop()
            else:
                await nats.drop(c.prefix)
            await botapi.stop()


async def query(cluster: Cluster, sql: str, **params: Any) -> list[Any]:
    return await cluster.query(sql, **params)


async def assert_each_once_in_order(
    cluster: Cluster, chats: dict[int, list[int]], per_chat: Updates, timeout: float = 60
) -> None:
    ids = [u["update_id"] for updates in per_chat.values() for u in updates]
    assert len(await wait_committed(cluster.database_url, ids, timeout)) == len(ids), "updates lost"
    assert await verdict(cluster.database_url, per_chat) == Verdict(lost=0, twice=0, out_of_order=0)
    for chat, uids in chats.items():
        players = await query(
            cluster,
            "SELECT p.user_id FROM players p JOIN tournaments t ON t.id = p.tournament_id"
            " WHERE t.chat_id = :chat ORDER BY p.id",
            chat=chat,
        )
        assert [row[0] for row in players] == uids
    refusals = await query(
        cluster, "SELECT count(*) FROM outbox WHERE text LIKE '%already joined%'"
    )
    assert refusals[0][0] == 0


def reacted(cluster: Cluster, chat: int) -> list[int]:
    """The messages of ``chat`` the bot put its 👍 on, in the order it did: a typed /join
    is answered by a reaction, and the sign-up message's count is edited."""
    return [
        int(c.params["message_id"])
        for c in cluster.botapi.calls_to("setMessageReaction")
        if c.status == 200 and int(c.params.get("chat_id", 0)) == chat
    ]


def joins(per_chat: Updates, chat: int) -> list[int]:
    """The ids of the /join messages sent in ``chat``, in order."""
    return [
        int(u["message"]["message_id"])
        for u in per_chat[chat]
        if u.get("message", {}).get("text") == "/join"
    ]


def signed_up(cluster: Cluster, chat: int, count: int) -> bool:
    return any(f"{count} signed up so far" in m.body for m in cluster.botapi.outbox(chat))


async def test_gateway_set_its_webhook_and_refuses_a_wrong_secret(cluster: Cluster) -> None:
    hook = cluster.botapi.webhook
    assert hook["url"].endswith("/tg/hook") and hook["secret_token"] == SECRET
    update = {"update_id": 1, "message": {"chat": {"id": -5}, "text": "/help"}}
    assert await cluster.post_once(update, secret="wrong") == 401
    assert await cluster.post_once(update, secret="") == 401
    assert await query(cluster, "SELECT * FROM processed_updates WHERE update_id = 1") == []


async def test_a_worker_killed_mid_burst_loses_nothing_and_repeats_nothing(
    cluster: Cluster,
) -> None:
    chats = make_chats(cluster.botapi, -1001000, 8, 6)
    per_chat = signup_updates(cluster.botapi, chats)

    working = cluster.working()
    assert working == ["worker-1", "worker-2"]  # started in turn: the third stands by
    killed = working[0]

    async def kill_worker() -> None:
        await asyncio.sleep(0.3)  # let it be in the middle of something
        cluster.kill(killed)

    await burst(cluster, per_chat, kill_worker)
    # Telegram retries an update whose 200 it missed: stored again, handled once.
    for updates in per_chat.values():
        assert await cluster.post(updates[-1]) == 1
    await assert_each_once_in_order(cluster, chats, per_chat)

    def replied() -> bool:  # and the replies went out through the surviving worker
        return all(
            signed_up(cluster, chat, 6)
            and set(joins(per_chat, chat)) <= set(reacted(cluster, chat))
            for chat in chats
        )

    await wait_until(replied, 30, "the last replies")
    # The standby took the dead worker's slot (tries every 2 s).
    await wait_until(lambda: cluster.working() == ["worker-2", "worker-3"], 10, "the standby")
    cluster.spawn(killed, "worker", WORKERS_PER_HOST="2")  # the new standby


async def test_nats_restarted_mid_burst_loses_nothing_and_repeats_nothing(
    cluster: Cluster,
) -> None:
    if not isinstance(cluster.nats, NatsServer):
        skip_or_fail("no nats-server binary: the shared NATS server is not ours to restart")
    chats = make_chats(cluster.botapi, -1002000, 6, 5)
    per_chat = signup_updates(cluster.botapi, chats)
    await burst(cluster, per_chat, cluster.nats.restart)
    await assert_each_once_in_order(cluster, chats, per_chat)

    def replied() -> bool:
        return all(
            signed_up(cluster, chat, 5)
            and set(joins(per_chat, chat)) <= set(reacted(cluster, chat))
            for chat in chats
        )

    await wait_until(replied, 30, "the last replies")
    for chat in chats:  # two workers send, each reply once, in order
        assert reacted(cluster, chat) == joins(per_chat, chat)


async def test_the_scheduler_leader_killed_before_a_deadline_fires_it_once(
    cluster: Cluster,
) -> None:
    chats = make_chats(cluster.botapi, -1003000, 1, 4)
    chat = next(iter(chats))
    for uid in chats[chat]:
        cluster.botapi.add_user(uid, f"P{uid}", language_code="en")
    cluster.botapi.user_says(chat, ADMIN, "/new bigtwo Timer Cup")
    for uid in chats[chat]:
        cluster.botapi.user_says(chat, uid, "/join")
    cluster.botapi.user_says(chat, ADMIN, "/draw")
    cluster.botapi.user_says(chat, ADMIN, "/round in 2 hours")
    for update in cluster.botapi.take_updates():
        await cluster.post(update)
    await cluster.botapi.wait_for(
        lambda m: m.chat_id == chat and "Round 1 is open" in m.body, timeout=30
    )
    # Bring the deadline close, as if the two hours had passed; the leader's rescan
    # reschedules it. Then the leader dies before it.
    await query(
        cluster,
        "UPDATE rounds SET deadline = now() + interval '7 seconds' FROM tournaments t"
        " WHERE t.id = rounds.tournament_id AND t.chat_id = :chat RETURNING rounds.id",
        chat=chat,
    )
    await asyncio.sleep(3.5)
    leader = await cluster.leader_pid()
    name = next(n for n, p in cluster.procs.items() if p.pid == leader)
    cluster.kill(name)

    async def new_leader() -> bool:
        pid = await cluster.leader_pid()
        return pid is not None and pid != leader

    await wait_until(new_leader, 10, "a standby to take over")  # STANDBY_POLL is 1 s
    await cluster.botapi.wait_for(
        lambda m: m.chat_id == chat and "deadline has passed" in m.body, timeout=30
    )
    await asyncio.sleep(4)  # a rescan later: still once
    fired = await query(
        cluster,
        "SELECT count(*) FROM audit_log WHERE chat_id = :chat AND action = 'deadline'",
        chat=chat,
    )
    assert fired[0][0] == 1
    passed = [m for m in cluster.botapi.outbox(chat) if "deadline has passed" in m.body]
    assert len(passed) == 1
    cluster.spawn(name, "scheduler")


async def test_every_connection_ended_mid_burst_then_a_worker_killed_sends_each_reply_once(
    cluster: Cluster,
) -> None:
    """PostgreSQL ends every connection of the deployment mid-burst (a failover; here
    ``pg_terminate_backend``), then the worker holding most send locks is SIGKILLed:
    the senders took their locks again on new connections, so the others take its
    parts over and every reply is sent, once, in order."""
    chats = make_chats(cluster.botapi, -1004000, 8, 6)
    per_chat = signup_updates(cluster.botapi, chats)
    before = {chat: updates[:4] for chat, updates in per_chat.items()}  # /new, 3 joins
    after = {chat: updates[4:] for chat, updates in per_chat.items()}

    async def end_connections() -> None:
        assert await cluster.end_connections() > 0

    def replied(phase: Updates, count: int) -> bool:
        return all(
            signed_up(cluster, chat, count)
            and set(joins(phase, chat)) <= set(reacted(cluster, chat))
            for chat in chats
        )

    await burst(cluster, before, end_connections)
    await wait_until(lambda: replied(before, 3), 30, "the replies from before the kill")

    async def every_part_held() -> bool:
        return sorted(await cluster.lock_holders(OUTBOX_LOCKS)) == list(range(PARTS))

    await wait_until(every_part_held, 10, "the send locks to be taken again", every=0.5)
    holders = await cluster.lock_holders(OUTBOX_LOCKS)
    busiest, _ = Counter(holders.values()).most_common(1)[0]
    assert busiest in cluster.procs  # a worker's sender, by its connection's name
    cluster.kill(busiest)
    await burst(cluster, after)
    await assert_each_once_in_order(cluster, chats, per_chat)
    await wait_until(lambda: replied(per_chat, 6), 30, "the replies from after the kill")
    for chat in chats:
        assert reacted(cluster, chat) == joins(per_chat, chat)  # each 👍 once, in order
        posted = [c.params.get("text") for c in cluster.botapi.calls_to("sendMessage")
                  if c.status == 200 and int(c.params.get("chat_id", 0)) == chat]  # fmt: skip
        assert len(posted) == len(set(posted))  # no message posted twice
    # The locks were all taken again: every part by one live worker, both slots, a leader.
    holders = await cluster.lock_holders(OUTBOX_LOCKS)
    assert sorted(holders) == list(range(PARTS)) and busiest not in holders.values()
    await wait_until(cluster.leader_pid, 10, "a scheduler to lead again", every=0.5)

    async def two_slots() -> bool:
        return len(await cluster.lock_holders(WORKER_SLOTS)) == 2

    await wait_until(two_slots, 10, "both slots to be held", every=0.5)
    await wait_until(lambda: len(cluster.working()) == 2, 10, "two workers consuming")
    cluster.spawn(busiest, "worker", WORKERS_PER_HOST="2")


async def test_a_mini_app_action_through_a_gateway_runs_on_the_chats_worker(
    cluster: Cluster,
) -> None:
    """The console's action goes into the chat's shard like an update: a worker runs it
    as the typed command (the chat is told), the gateway answers with its outcome; the
    same request again is a replay (401) and runs nothing."""
    chats = make_chats(cluster.botapi, -1005000, 1, 4)
    chat = next(iter(chats))
    cluster.botapi.user_says(chat, ADMIN, "/new bigtwo Console Cup")
    for uid in chats[chat]:
        cluster.botapi.user_says(chat, uid, "/join")
    cluster.botapi.user_says(chat, ADMIN, "/draw")
    cluster.botapi.user_says(chat, ADMIN, "/round")
    for update in cluster.botapi.take_updates():
        await cluster.post(update)
    await cluster.botapi.wait_for(
        lambda m: m.chat_id == chat and "Round 1 is open" in m.body, timeout=30
    )
    [(tournament,)] = await query(cluster, "SELECT id FROM tournaments WHERE chat_id = :c", c=chat)
    start = f"c{b36(tournament)}"  # the console's launch payload
    signed = init_data(
        TOKEN, {"id": ADMIN, "first_name": "Org"}, int(time.time()), start_param=start
    )
    base = f"http://127.0.0.1:{cluster.gateway_ports[0]}"
    body = {
        "start": start,
        "action": "fix",
        "fields": {"table": 1, "result": "A0 B1 C2 D3"},
        "request": "scaled-out-1",
    }
    headers = {"Authorization": f"tma {signed}"}
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{base}/app/api/action", json=body, headers=headers) as answer:
            assert answer.status == 200, await answer.text()
            said = (await answer.json())["said"]
        assert any("corrected table 1" in text for text in said), said
        await cluster.botapi.wait_for(
            lambda m: m.chat_id == chat and m.body.startswith(said[0][:20]), timeout=30
        )
        async with http.post(f"{base}/app/api/action", json=body, headers=headers) as answer:
            assert answer.status == 401
        query_string = {"start": start}
        async with http.get(f"{base}/app/api/state", params=query_string, headers=headers) as got:
            state = await got.json()
    assert state["tables"][0]["state"] == "confirmed"
    fixed = await query(
        cluster, "SELECT count(*) FROM audit_log WHERE chat_id = :c AND action = 'fix'", c=chat
    )
    assert fixed[0][0] == 1
