"""What is derived from a tournament, kept per committed version.

Standings, their picture and the /players list change only with an audited change, which
moves ``Tournament.version`` on in the same transaction (``Ctx.audit``). Kept per
(tournament, version, language), they are served again without loading the event until
the next change; a process-local LRU, since every change of a chat's events goes through
this process.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from db.models import Tournament
from db.repo import changed_in_transaction

KEPT = 64  # entries per cache (a 50-row standings PNG is ~60 kB; /players of 2,000 ~40 kB)


class VersionCache:
    """A small LRU of values derived from one committed version of a tournament."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    @staticmethod
    def key(t: Tournament, *extra: Hashable) -> Hashable | None:
        """The key for ``t`` as the database has it; None while this transaction has
        changed it (a rolled-back version number could later mean something else). The
        draw seed, random per tournament, tells apart events of two databases that
        share an id (tests start a fresh database in one process)."""
        if changed_in_transaction(t):
            return None
        return (t.id, t.seed, t.version, *extra)

    def get(self, key: Hashable | None) -> Any:
        if key is None or key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Hashable | None, value: Any) -> None:
        if key is None:
            return
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


pictures = VersionCache()  # /standings: (PNG, caption)
texts = VersionCache()  # /players
