"""The server's world as JSON, so a playground rehearsal survives a restart.

What is kept: users, chats with their stored messages, everything the bot sent (edits,
pins and files included) and the uploaded files behind ``getFile``. What is not: queued
updates the bot never fetched (only their numbering goes on, since a bot keeps its
``offset``), open button presses and the test-side cursors, which belong to one run.
Dataclasses are written field by field and read back by the fields the code has now, so
a field added later with a default reads old snapshots.
"""

from __future__ import annotations

import base64
import dataclasses
import itertools
from typing import Any

from playground.botapi.methods import BotMethods, StoredFile
from playground.botapi.outbox import Outbox
from playground.botapi.records import JSON, Edit, SentMessage
from playground.botapi.updates import UpdateQueue
from playground.botapi.world import Chat, World

VERSION = 1


def dump(world: World, outbox: Outbox, api: BotMethods, updates: UpdateQueue) -> JSON:
    """A JSON-serialisable picture of the world (bytes as base64, sets as sorted lists)."""
    return {
        "version": VERSION,
        "users": [world.users[uid] for uid in sorted(world.users)],
        "chats": [_plain(chat) for chat in world.chats.values()],
        "sent": [_plain(sent) for sent in outbox.messages()],
        "files": [_plain(stored) for stored in api.files.values()],
        "last_update_id": updates.last_id,
    }


def load(state: JSON, world: World, outbox: Outbox, api: BotMethods, updates: UpdateQueue) -> None:
    """Replace an empty server's world with ``state`` from :func:`dump`."""
    if state.get("version") != VERSION:
        raise ValueError(f"unknown snapshot version {state.get('version')!r}")
    world.users = {int(user["id"]): user for user in state["users"]}
    world.chats = {}
    for raw in state["chats"]:
        chat = _build(Chat, raw)
        chat.messages = {int(k): v for k, v in raw["messages"].items()}
        world.chats[chat.id] = chat
    for raw in state["sent"]:
        sent = _build(SentMessage, raw)
        sent.edits = [_build(Edit, edit) for edit in raw.get("edits", [])]
        outbox.add(sent)
    outbox.skip()
    api.files = {raw["file_id"]: _build(StoredFile, raw) for raw in state["files"]}
    api._file_numbers = itertools.count(len(api.files) + 1)  # new uploads get new ids
    updates.resume_after(int(state["last_update_id"]))


def _plain(record: Any) -> JSON:
    return {
        f.name: _encode(getattr(record, f.name))
        for f in dataclasses.fields(record)
        if not callable(getattr(record, f.name))
    }


def _encode(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"base64": base64.b64encode(value).decode()}
    if isinstance(value, set | frozenset):
        return sorted(value)
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(value)
    return value


def _build(cls: Any, raw: JSON) -> Any:
    """``cls`` from the fields it declares now; sets and bytes restored by the defaults'
    shape (a field whose default is a set or frozenset is one)."""
    values: JSON = {}
    for f in dataclasses.fields(cls):
        if f.name not in raw:
            continue
        value = raw[f.name]
        if isinstance(value, dict) and set(value) == {"base64"}:
            value = base64.b64decode(value["base64"])
        elif f.default_factory is set:
            value = set(value)
        elif isinstance(f.default, frozenset):
            value = frozenset(value)
        values[f.name] = value
    return cls(**values)
