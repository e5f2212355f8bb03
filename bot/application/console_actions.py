"""What the Mini App's taps send: each action is a chat command, written out from the
form's fields (docs/guide.en.md#console).

The console and the player's form never change an event themselves. A tap names an
action and its fields; the fields are checked here (a table number, a player's id, a
deadline from the date-time picker, a line of text: each bounded) and written as the
words of the command the chat would get, which then runs exactly as if typed there:
the same admission by role and stage (``bot.application.routes``), the same handler, the
same ``Event`` verbs, audit entries and replies (``Core.act``). So the console can do
nothing the chat cannot, and says in the chat what the command says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.application.commands import Command, Role
from bot.application.routes import COMMANDS
from engine.games import Game

MAX_TABLE = 999  # what ``table_number`` reads (three digits)
MAX_USER = 2**52  # Telegram user ids have at most 52 significant bits
MAX_TEXT = 200  # a reason, a free-text deadline
MAX_RESULT = 600  # a result of several hands ("A5 B8 C0 D12; A0 B3 …")
MAX_HANDS = 20  # hands in one report from the form
_PICKED = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})$")  # <input type=datetime-local>


class BadField(Exception):
    """A field that is missing, of the wrong type or out of bounds: the request is
    refused as malformed (nothing runs)."""


class Fields:
    """The form's fields as sent (a JSON object), read one at a time with bounds."""

    def __init__(self, raw: Mapping[str, object]) -> None:
        self.raw = raw

    def _get(self, name: str, optional: bool) -> object:
        value = self.raw.get(name)
        if value is None or value == "":
            if optional:
                return None
            raise BadField(f"{name}: missing")
        return value

    def number(self, name: str, low: int, high: int, optional: bool = False) -> str:
        value = self._get(name, optional)
        if value is None:
            return ""
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,16}", value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadField(f"{name}: not a number from {low} to {high}")
        return str(value)

    def table(self, name: str = "table", optional: bool = False) -> str:
        return self.number(name, 1, MAX_TABLE, optional)

    def player(self, name: str = "player", optional: bool = False) -> str:
        """A player by user id (``find_player`` reads ids; the console knows them)."""
        return self.number(name, 1, MAX_USER, optional)

    def seat(self, name: str = "seat") -> str:
        """``3A``: table 3, seat A (a player at the latest round's tables)."""
        value = self._get(name, False)
        if not isinstance(value, str) or not re.fullmatch(r"[0-9]{1,3}[A-D]", value):
            raise BadField(f"{name}: not a seat")
        return value

    def text(self, name: str, limit: int = MAX_TEXT, optional: bool = True) -> str:
        """One line of text (a reason): its line breaks and runs of spaces one space."""
        value = self._get(name, optional)
        if value is None:
            return ""
        if not isinstance(value, str) or len(value) > limit:
            raise BadField(f"{name}: not text of at most {limit} characters")
        return " ".join(value.split())

    def word(self, name: str, pattern: str) -> str:
        value = self._get(name, False)
        if not isinstance(value, str) or not re.fullmatch(pattern, value):
            raise BadField(f"{name}: not one of {pattern}")
        return value

    def when(self, name: str = "when", optional: bool = False) -> str:
        """A deadline: the picker's ``2026-11-20T18:00`` (read in the event's zone, 24-hour,
        as ``2026-11-20 18:00`` is in the chat), or the chat's own words (``20号 18点``)."""
        value = self.text(name, optional=optional)
        picked = _PICKED.match(value)
        return f"{picked.group(1)} {picked.group(2)}" if picked else value

    def result(self, name: str = "result") -> str:
        """A report in the game's grammar (the form composed it, or it was typed): its
        hands on lines of their own are separated by ``;`` as one line."""
        value = self._get(name, False)
        if not isinstance(value, str) or len(value) > MAX_RESULT:
            raise BadField(f"{name}: not a report of at most {MAX_RESULT} characters")
        hands = [" ".join(line.split()) for line in value.splitlines()]
        return "; ".join(hand for hand in hands if hand)


def _penalty(f: Fields) -> list[str]:
    """``/penalty <player> <points|cards N|warn> [reason]``."""
    how = f.word("how", "points|cards|warn")
    amount = {
        "points": lambda: [f.word("points", r"-?[0-9]{1,3}(\.5|\.0)?")],
        "cards": lambda: ["cards", f.number("cards", 1, 99)],
        "warn": lambda: ["warn"],
    }[how]()
    return [f.player(), *amount, f.text("reason")]


def _forfeit(f: Fields) -> list[str]:
    """A whole table, or one player by their seat there."""
    return [f.seat()] if f.raw.get("seat") else [f.table()]


@dataclass(frozen=True)
class Action:
    """One tap of the console or the form: the command it sends and its words."""

    name: str
    command: str
    words: Callable[[Fields], list[str]] = lambda f: []


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        # the organiser's console
        Action("draw", "draw"),
        Action("round", "round", lambda f: [f.when(optional=True)]),
        Action("deadline", "deadline", lambda f: [f.table(optional=True), f.when()]),
        Action("signup-deadline", "deadline", lambda f: ["signup", f.when()]),
        Action("fix", "fix", lambda f: [f.table(), f.result()]),
        Action("forfeit", "forfeit", _forfeit),
        Action("penalty", "penalty", _penalty),
        Action("dq", "dq", lambda f: [f.player()]),
        Action("sub", "sub", lambda f: [f.player("out"), f.player("in")]),
        Action("drop", "drop", lambda f: [f.player(optional=True), "yes"]),
        Action("apart", "apart", lambda f: [f.player("a"), f.player("b")]),
        Action("apart-clear", "apart", lambda f: ["clear"]),
        Action("cap", "set", lambda f: ["cap", f.word("cap", r"off|[0-9]{1,5}")]),
        Action("late", "set", lambda f: ["late", f.word("late", r"off|[0-9]{1,3}")]),
        Action("cancel", "cancel", lambda f: ["yes"]),
        Action("undo", "undo"),
        Action("print", "print"),
        Action("live", "live"),
        # the player's form (an organiser may report any table: it counts at once)
        Action("report", "report", lambda f: [f.table(), f.result()]),
        Action("confirm", "confirm", lambda f: [f.table()]),
        Action("dispute", "dispute", lambda f: [f.table(), f.text("reason")]),
        Action("here", "here"),
        Action("leave", "leave"),
    )
}
COMMAND = {c.name: c for c in COMMANDS}


def command_of(action: Action) -> Command:
    return COMMAND[action.command]


def organisers_only(action: Action) -> bool:
    """Whether only an organiser may send it (a drop of someone else is checked by the
    command itself)."""
    return command_of(action).role is Role.ORGANISER


def command_text(action: Action, fields: Mapping[str, object]) -> str:
    """The command the chat would get, e.g. ``/fix 7 A5 B8 C0 D12`` (raises
    :class:`BadField`)."""
    words = [w for w in action.words(Fields(fields)) if w]
    return " ".join([f"/{action.command}", *words])


def compose(game: Game[object], seats: int, hands: object) -> str:
    """The report text of the form's hands: each a mapping of the game's step names to
    the values chosen (one per seat for a per-seat step, any number of distinct ones for
    a multiple choice, else exactly one), written as the guided ``/report`` writes them
    (``Game.compose``), hands separated by ``;``. Any value that is no choice of its
    step is refused, so the text holds nothing the form did not offer."""
    if not isinstance(hands, list) or not 1 <= len(hands) <= MAX_HANDS:
        raise BadField(f"hands: a list of 1 to {MAX_HANDS}")
    texts = []
    for hand in hands:
        if not isinstance(hand, dict):
            raise BadField("hands: each a mapping of steps to values")
        answers: dict[str, list[str]] = {}
        for step in game.flow(seats):
            values = hand.get(step.name, [])
            if not isinstance(values, list) or not all(v in step.choices for v in values):
                raise BadField(f"{step.name}: not among its choices")
            wanted = seats if step.per_seat else None
            if (wanted is not None and len(values) != wanted) or (
                wanted is None and not step.multi and len(values) != 1
            ):
                raise BadField(f"{step.name}: {wanted or 1} values wanted")
            if step.multi and len(set(values)) != len(values):
                raise BadField(f"{step.name}: a value twice")
            answers[step.name] = [str(v) for v in values]
        texts.append(game.compose(answers, seats))
    return "; ".join(texts)
