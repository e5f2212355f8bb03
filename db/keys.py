"""The ids a table's key can hold, checked before an id from outside reaches a query.

Buttons, deep links and web addresses carry ids the bot wrote there, but anyone can
write others: ``/start s<huge>_1_1_…``, a guessed live-page token, a forged button. An id
outside its key column's range names no row, and PostgreSQL does not even compare it (an
``Integer`` key is 32 bits: ``value out of int32 range``, a traceback where a "not
found" was due). So every place that looks a row up by an id it did not make asks
:func:`could_be_key` first, and such an id is "not found" without a query. The range is
the schema's, the same on SQLite (whose integers are all 64 bits) as on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Integer

INT32 = range(-(2**31), 2**31)
INT64 = range(-(2**63), 2**63)  # every Telegram id (chats, users, messages) fits here
SERIAL = range(1, 2**31)  # a generated ``Integer`` key: the database counts from 1


def key_range(model: type[Any]) -> range:
    """The values the single-column primary key of ``model`` can hold."""
    (column,) = model.__table__.primary_key.columns
    if isinstance(column.type, BigInteger):
        return INT64
    if isinstance(column.type, Integer):
        return SERIAL if column.autoincrement in (True, "auto") else INT32
    raise TypeError(f"{model.__name__}'s key is not a whole number")


def could_be_key(model: type[Any], value: object) -> bool:
    """Whether some row of ``model`` could have ``value`` as its key."""
    return type(value) is int and value in key_range(model)
