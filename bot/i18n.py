"""The message catalogue: every user-facing string, in zh and en.

Messages live in ``bot/locale/<lang>/*.toml``; nested tables become dotted keys
(``[error] two-winners = ...`` → ``error.two-winners``) and values are ``str.format``
templates with named fields. Several files per language let games, formats and the core
each keep their own messages; a key defined twice is a bug and fails at load time.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from engine.numbers import plain

LOCALE_DIR = Path(__file__).with_name("locale")
LANGS = ("zh", "en")


def _flatten(prefix: str, table: Mapping[str, Any], out: dict[str, str], source: Path) -> None:
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping):
            _flatten(full + ".", value, out, source)
        elif full in out:
            raise ValueError(f"message key {full!r} defined twice (again in {source})")
        else:
            out[full] = str(value)


def load_catalogue(lang: str, root: Path = LOCALE_DIR) -> dict[str, str]:
    messages: dict[str, str] = {}
    for path in sorted((root / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten("", tomllib.load(fh), messages, path)
    return messages


def show(value: object) -> str:
    """How a parameter reads in a message: lists joined, decimals without ``.0``."""
    if isinstance(value, (tuple, list, set, frozenset)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, Decimal):
        return plain(value)
    return str(value)


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """Messages of one language; ``t(key, **params)`` formats one."""

    def __init__(self, lang: str, messages: Mapping[str, str]) -> None:
        self.lang = lang
        self.messages = messages

    def __call__(self, key: str, **params: object) -> str:
        template = self.messages[key]
        return template.format_map(_Params({k: show(v) for k, v in params.items()}))

    def has(self, key: str) -> bool:
        return key in self.messages


class Catalogue:
    """All languages, loaded once at start-up."""

    def __init__(self, root: Path = LOCALE_DIR) -> None:
        self.translators = {lang: Translator(lang, load_catalogue(lang, root)) for lang in LANGS}

    def __getitem__(self, lang: str) -> Translator:
        return self.translators.get(lang, self.translators["zh"])
