"""A refusal the user caused: said in the chat's language, and nothing is stored."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from engine.errors import EngineError

if TYPE_CHECKING:
    from bot.language.i18n import Translator

log = logging.getLogger(__name__)


class UserError(Exception):
    """``key`` names a catalogue message; ``params`` fill it in."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params


def refusal(t: Translator, exc: UserError | EngineError) -> str:
    """What to say for a refusal: its message, or an engine error's (``error.<code>``;
    one without a message of its own is named by its code, and logged)."""
    if isinstance(exc, UserError):
        return t(exc.key, **exc.params)
    key = f"error.{exc.code}"
    if t.has(key):
        return t(key, **exc.params)
    log.error("no message for engine error %s", exc)
    return t("refuse.invalid", code=exc.code)
