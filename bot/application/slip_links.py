"""The deep link on a score slip: ``https://t.me/<bot>?start=<payload>`` for one table.

The payload names the event, round and table and carries an HMAC of them under a random
secret kept in the event's options, so nobody can forge the link of a table they did
not get on paper, and a slip from one round does not open another round's form. Telegram
allows 64 characters of ``A-Z a-z 0-9 _ -``; ours are about 30.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from bot.application.base36 import b36
from db.models import Tournament

PREFIX = "s"
MAC_BYTES = 12  # 96 bits: 16 characters of URL-safe base64
_PAYLOAD = re.compile(r"^s([0-9a-z]{1,11})_([0-9a-z]{1,4})_([0-9a-z]{1,4})_([A-Za-z0-9_-]{16})$")


@dataclass(frozen=True)
class SlipRef:
    """What a payload claims: the event, round and table (checked by :func:`genuine`)."""

    tournament: int
    round: int
    table: int
    mac: str


def _paper(t: Tournament) -> dict[str, Any]:
    found = t.options.get("paper", {})
    return dict(found) if isinstance(found, dict) else {}


def slip_secret(t: Tournament) -> str | None:
    value = _paper(t).get("slip_secret")
    return value if isinstance(value, str) else None


def ensure_slip_secret(t: Tournament) -> bool:
    """Give ``t`` its slip secret if it has none; True when one was made now."""
    if slip_secret(t) is not None:
        return False
    t.options = {**t.options, "paper": {**_paper(t), "slip_secret": secrets.token_urlsafe(24)}}
    return True


def _mac(secret: str, tournament: int, rnd: int, table: int) -> str:
    digest = hmac.new(secret.encode(), f"{tournament}:{rnd}:{table}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:MAC_BYTES]).decode()


def slip_payload(t: Tournament, rnd: int, table: int) -> str:
    secret = slip_secret(t)
    assert secret is not None, "ensure_slip_secret first"
    mac = _mac(secret, t.id, rnd, table)
    return f"{PREFIX}{b36(t.id)}_{b36(rnd)}_{b36(table)}_{mac}"


def read_payload(payload: str) -> SlipRef | None:
    """The claim in a ``/start`` payload, or None when it is not a slip's."""
    match = _PAYLOAD.match(payload)
    if match is None:
        return None
    tournament, rnd, table, mac = match.groups()
    return SlipRef(int(tournament, 36), int(rnd, 36), int(table, 36), mac)


def genuine(t: Tournament, ref: SlipRef) -> bool:
    """Whether ``ref`` was made by :func:`slip_payload` for ``t``."""
    secret = slip_secret(t)
    if secret is None or ref.tournament != t.id:
        return False
    return hmac.compare_digest(_mac(secret, t.id, ref.round, ref.table), ref.mac)
