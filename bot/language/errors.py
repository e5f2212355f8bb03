"""A refusal the user caused: said in the chat's language, and nothing is stored."""

from __future__ import annotations


class UserError(Exception):
    """``key`` names a catalogue message; ``params`` fill it in."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params
