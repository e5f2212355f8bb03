"""Updates no ordinary user action produces, queued on the local Bot API server.

``BotAPIServer.user_presses`` refuses callback data that is not on a button, as Telegram's
clients would; a forged or garbled press (``confirm:1e3``) still reaches a real bot, so
the fuzz and hardening tests queue such updates here. Also: admin promotions and
demotions (``chat_member``) and updates no library can decode.
"""

from __future__ import annotations

from typing import Any

from playground.botapi import BotAPIServer


def press(server: BotAPIServer, chat_id: int, uid: int, message_id: int, data: str) -> str:
    """A button press carrying any ``data``, on a message the bot sent; returns its id."""
    chat = server._world.test_chat(chat_id, uid)
    query_id = str(next(server._callback_ids))
    server._api.open_callbacks[query_id] = server._world.clock()
    query = {
        "id": query_id,
        "from": server._world.user(uid),
        "message": chat.messages[message_id],
        "chat_instance": str(abs(chat_id) * 7919 % 10**12),
        "data": data,
    }
    server._updates.push("callback_query", query)
    return query_id


def set_admin(server: BotAPIServer, chat_id: int, uid: int, admin: bool, by: int) -> None:
    """Promote or demote ``uid`` and queue the ``chat_member`` update Telegram sends."""
    chat = server._world.test_chat(chat_id, uid)
    old = server._world.member(chat, uid)
    if admin and uid not in chat.admins:
        chat.admins.append(uid)
    if not admin and uid in chat.admins:
        chat.admins.remove(uid)
    new = server._world.member(chat, uid)
    server._updates.push(
        "chat_member",
        {
            "chat": server._world.chat_json(chat),
            "from": server._world.user(by),
            "date": 1_700_000_000,
            "old_chat_member": old,
            "new_chat_member": new,
        },
    )


def undecodable(server: BotAPIServer, chat_id: int, uid: int) -> int:
    """A message neither aiogram nor PTB can read (its date is not a number)."""
    chat = server._world.test_chat(chat_id, uid)
    message: dict[str, Any] = {
        "message_id": chat.next_message_id(),
        "date": "not a date",
        "chat": server._world.chat_json(chat),
        "from": server._world.user(uid),
        "text": "/players",
    }
    return server._updates.push("message", message)
