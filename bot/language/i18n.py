"""The message catalogue: every user-facing string, in zh and en.

Messages live in ``bot/language/locale/<lang>/*.toml``; nested tables become dotted keys
(``[error] two-winners = ...`` → ``error.two-winners``) and values are ``str.format``
templates with named fields. Several files per language let games, formats and the core
each keep their own messages; a key defined twice is a bug and fails at load time.

A message that counts something may have plural forms, as an inline table of CLDR
categories: ``joined = { one = "… (1 player).", other = "… ({count} players)." }``.
The number is the ``count`` parameter unless ``by`` names another. English has ``one``
and ``other``; Chinese has no plural, so its messages stay plain strings.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from engine.numbers import plain

LOCALE_DIR = Path(__file__).with_name("locale")
LANGS = ("zh", "en")


PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


@dataclass(frozen=True)
class Plural:
    """A message's forms by plural category, chosen by the number in parameter ``by``."""

    forms: Mapping[str, str]
    by: str = "count"


def plural_category(lang: str, number: object) -> str:
    """CLDR's category of ``number`` in ``lang``: English ``one`` for exactly 1; Chinese
    (and anything that is not a number) ``other``."""
    if lang == "en" and isinstance(number, (int, Decimal)) and number == 1:
        return "one"
    return "other"


def _is_plural(table: Mapping[str, Any]) -> bool:
    return "other" in table and set(table) <= PLURAL_CATEGORIES | {"by"}


def _flatten(
    prefix: str,
    table: Mapping[str, Any],
    out: dict[str, str],
    source: Path,
    plurals: dict[str, Plural],
) -> None:
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, Mapping) and not _is_plural(value):
            _flatten(full + ".", value, out, source, plurals)
        elif full in out:
            raise ValueError(f"message key {full!r} defined twice (again in {source})")
        elif isinstance(value, Mapping):
            forms = {k: str(v) for k, v in value.items() if k != "by"}
            plurals[full] = Plural(forms, str(value.get("by", "count")))
            out[full] = forms["other"]
        else:
            out[full] = str(value)


def load_messages(lang: str, root: Path = LOCALE_DIR) -> tuple[dict[str, str], dict[str, Plural]]:
    """Every message of ``lang`` (plural ones by their ``other`` form) and the plurals."""
    messages: dict[str, str] = {}
    plurals: dict[str, Plural] = {}
    for path in sorted((root / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten("", tomllib.load(fh), messages, path, plurals)
    return messages, plurals


def show(value: object) -> str:
    """How a parameter reads in a message: lists joined, decimals without ``.0``."""
    if isinstance(value, (tuple, list, set, frozenset)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, Decimal):
        return plain(value)
    return str(value)


def without_emoji(text: str) -> str:
    """A status line without its leading emoji (⏳, 🏁), for a page: its web font has no
    emoji, and a hall's screen or a bare browser may have no emoji font to fall back on
    (a tofu box)."""
    lead = 0
    while lead < len(text) and (
        unicodedata.category(text[lead]) == "So" or text[lead] in "\ufe0f\u200d "
    ):
        lead += 1
    return text[lead:]


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """Messages of one language; ``t(key, **params)`` formats one."""

    def __init__(
        self, lang: str, messages: Mapping[str, str], plurals: Mapping[str, Plural] | None = None
    ) -> None:
        self.lang = lang
        self.messages = messages
        self.plurals = plurals or {}

    def __call__(self, key: str, **params: object) -> str:
        template = self.messages[key]
        plural = self.plurals.get(key)
        if plural is not None:
            category = plural_category(self.lang, params.get(plural.by))
            template = plural.forms.get(category, template)
        return template.format_map(_Params({k: show(v) for k, v in params.items()}))

    def has(self, key: str) -> bool:
        return key in self.messages


class Catalogue:
    """All languages, loaded once at start-up."""

    def __init__(self, root: Path = LOCALE_DIR) -> None:
        self.translators = {lang: Translator(lang, *load_messages(lang, root)) for lang in LANGS}

    def __getitem__(self, lang: str) -> Translator:
        return self.translators.get(lang, self.translators["zh"])
