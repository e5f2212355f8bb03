"""Everything the bot sent, and a cursor for tests that wait for the next output.

Every send and every edit is one *output* entry, in the order they happened; an edit
re-lists the same :class:`SentMessage`, so a predicate always sees the current state.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from playground.botapi.records import SentMessage
from playground.botapi.updates import Signal

Predicate = Callable[[SentMessage], bool]


class Outbox:
    """The bot's messages by (chat, id), their send order, and the output log."""

    def __init__(self) -> None:
        self._messages: list[SentMessage] = []
        self._by_key: dict[tuple[int, int], SentMessage] = {}
        self._outputs: list[SentMessage] = []
        self._cursor = 0
        self._signal = Signal()

    def add(self, sent: SentMessage) -> None:
        self._messages.append(sent)
        self._by_key[(sent.chat_id, sent.message_id)] = sent
        self.output(sent)

    def output(self, sent: SentMessage) -> None:
        """Log a send or an edit of ``sent`` and wake :meth:`wait_for`."""
        self._outputs.append(sent)
        self._signal.notify()

    @property
    def output_count(self) -> int:
        return len(self._outputs)

    def get(self, chat_id: int, message_id: int) -> SentMessage | None:
        return self._by_key.get((chat_id, message_id))

    def messages(self, chat_id: int | None = None) -> list[SentMessage]:
        return [m for m in self._messages if chat_id is None or m.chat_id == chat_id]

    def skip(self) -> None:
        self._cursor = len(self._outputs)

    async def wait_for(self, predicate: Predicate | str, timeout: float) -> SentMessage:
        """First output after the cursor matching ``predicate``; the cursor moves past it."""
        match: Predicate = (
            (lambda m: predicate in m.body) if isinstance(predicate, str) else predicate
        )
        deadline = time.monotonic() + timeout
        while True:
            for index in range(self._cursor, len(self._outputs)):
                if match(self._outputs[index]):
                    self._cursor = index + 1
                    return self._outputs[index]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                unconsumed = [m.body for m in self._outputs[self._cursor :]]
                raise TimeoutError(
                    f"no bot output matched within {timeout}s; unconsumed: {unconsumed}"
                )
            await self._signal.wait(remaining)
