"""The engine's exceptions, in one place.

Every refusal carries a stable ``code`` and its ``params`` instead of prose, so that the
bot can say it in the chat's language (``bot/language/locale/<lang>/*.toml`` holds one message
per code under ``[error]``). The engine itself never formats a user-facing sentence.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every deliberate refusal by the engine."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, object] = params

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code}({args})"


class ReportError(EngineError):
    """A score report that cannot happen under the table's rules (nothing is stored)."""


class ConfigError(EngineError):
    """An unknown game, format, knob, or a knob value out of range."""


class FormatError(EngineError):
    """A format cannot proceed as asked (too few players, round not finished...)."""
