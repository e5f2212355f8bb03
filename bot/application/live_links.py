"""The live page's token: ``<event id in base 36>-<secret>``, the secret kept in the
event's options; ``/live reset`` replaces it, and the old link then leads nowhere."""

from __future__ import annotations

import secrets
from typing import Any

from bot.application.base36 import DIGITS, b36
from bot.config import Settings
from db.models import Tournament


def _paper(t: Tournament) -> dict[str, Any]:
    found = t.options.get("paper", {})
    return dict(found) if isinstance(found, dict) else {}


def live_token(t: Tournament) -> str | None:
    """The page's token, when the event has one: ``<id in base 36>-<secret>``."""
    secret = _paper(t).get("live")
    return f"{b36(t.id)}-{secret}" if isinstance(secret, str) else None


def new_live_token(t: Tournament) -> str:
    """Give the event a new token (the old one, if any, stops working)."""
    t.options = {**t.options, "paper": {**_paper(t), "live": secrets.token_urlsafe(12)}}
    token = live_token(t)
    assert token is not None
    return token


def read_token(token: str) -> tuple[int, str] | None:
    """The event id and the secret a token claims, or None when it is no token."""
    head, _, secret = token.partition("-")
    if not head or not secret or len(head) > 11 or any(c not in DIGITS for c in head):
        return None
    return int(head, 36), secret


def page_url(settings: Settings, token: str) -> str | None:
    """The public link of a token, or None when no page is served (no PUBLIC_URL)."""
    return f"{settings.public_url}/e/{token}" if settings.public_url else None
