"""Rule knobs and report examples as an organiser reads them (/rules, the sign-up message,
a round's announcement).

A rules template names a knob (``{end}``) and receives the value's words, looked up in
the catalogue in this order: ``knob_value.<game or format>.<knob>.<value>`` (the words
for that value, e.g. ``doudizhu.end.hands`` = 本桌打满 {hands} 局结束, which may name the
other knobs), ``knob_value.<game or format>.<knob>.any`` (every other value, ``{value}``
being it), then ``knob_value.<knob>.<value>`` and ``.any`` shared by every game and
format that has the knob (``forfeits``); a switch with none of those
reads 开/关 (on/off), anything else as typed. So a knob added without words still reads
as its value, and a switch never as True/False.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.language.i18n import Translator, show
from engine.games.base import Game


def knob_words(t: Translator, scope: str, options: Mapping[str, object]) -> dict[str, str]:
    """Every option of a game or format (``scope``: its key) as words."""
    return {name: value_words(t, scope, name, value, options) for name, value in options.items()}


def value_words(
    t: Translator, scope: str, name: str, value: object, options: Mapping[str, object]
) -> str:
    """One knob's value as words (see the module's docstring for the lookup)."""
    token = ("on" if value else "off") if isinstance(value, bool) else show(value).lower()
    for key in (
        f"knob_value.{scope}.{name}.{token}",
        f"knob_value.{scope}.{name}.any",
        f"knob_value.{name}.{token}",
        f"knob_value.{name}.any",
    ):
        if t.has(key):
            return t(key, **{**options, "value": show(value)})
    if isinstance(value, bool):
        return t(f"knob_value.{token}")
    return show(value)


def how_to_report(t: Translator, game: Game[Any], sizes: Iterable[int] = ()) -> str:
    """How to report, with the game's own example for each table size (all the game
    allows unless told), the usual size first: ``/report 1 A5 B8 C0 D12；3 人桌：/report 1
    A5 B0 C12``, so a table's example never names a seat it does not have."""
    wanted = set(sizes) or set(game.seat_counts)
    usual, *others = sorted(wanted, key=lambda n: (n != game.seat_counts[0], -n))
    example = game.example(usual) + "".join(
        t("knob_value.example-other-size", seats=n, example=game.example(n)) for n in others
    )
    return t("round.how-to-report", example=example)
