"""The shape every game shares, in the manner of python-chess variants.

A game is a small subclass of :class:`Game` that declares its names, seat counts,
partnerships and rule knobs, and overrides the hooks that differ: ``parse_hand`` (one hand
of the report grammar), ``score_hand`` and ``format_hand``. The base class handles what all
games share: several hands separated by ``;`` or new lines, the ``total`` form
(``total A+37 B-7 C+57 D-87``), seat letters with the winds 东南西北 as aliases, and
summing hands into one :class:`Outcome` per table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import ClassVar, Generic, TypeVar

from engine.errors import ConfigError, ReportError
from engine.model import SEAT_LETTERS
from engine.numbers import signed

WINDS = "东南西北"
TOTAL_WORDS = ("total", "总分", "合计")
# The largest score one seat may be given in a ``total``: far above any real table, and
# small enough that sums stay exact in Decimal's 28-digit context.
MAX_TOTAL = Decimal(10**9)
H = TypeVar("H")


@dataclass(frozen=True)
class Knob:
    """A rule switch an organiser may set with ``/set``; the game's or format's page in
    docs/rules/ says what each value means and where it comes from."""

    name: str
    default: str
    choices: tuple[str, ...] = ()  # empty: any value accepted by ``kind``
    kind: type = str  # str, int, bool or Decimal
    minimum: int = 0  # the smallest value an ``int`` knob accepts
    maximum: int = 1000  # the largest: a setting past it would break the event, not tune it
    # (knob, value): read only while that other knob of the game has that value (``hands``
    # counts only with ``end hands``); /set refuses it otherwise (``Game.check_knob``)
    needs: tuple[str, str] | None = None

    def coerce(self, raw: str) -> object:
        """Turn the organiser's text into the knob's value, or refuse it."""
        value = raw.strip().lower()
        if self.choices and value not in self.choices:
            raise ConfigError("knob-choice", knob=self.name, value=raw, choices=self.choices)
        try:
            if self.kind is bool:
                if value in ("on", "yes", "true", "1", "开", "是"):
                    return True
                if value in ("off", "no", "false", "0", "关", "否"):
                    return False
                raise ValueError(value)
            if self.kind is int:
                if not re.fullmatch(r"-?[0-9]{1,12}", value):  # int() takes "²" and "1_0"
                    raise ValueError(value)
                number = int(value)
                if number < self.minimum:
                    raise ConfigError(
                        "knob-too-small", knob=self.name, value=raw, minimum=self.minimum
                    )
                if number > self.maximum:
                    raise ConfigError(
                        "knob-too-large", knob=self.name, value=raw, maximum=self.maximum
                    )
                return number
            if self.kind is Decimal:
                if not re.fullmatch(r"-?[0-9]{1,12}(?:\.[0-9]{1,2})?", value):
                    raise ValueError(value)
                return Decimal(value)
        except (ValueError, InvalidOperation):
            raise ConfigError("knob-value", knob=self.name, value=raw) from None
        return value


@dataclass(frozen=True)
class Step:
    """One question of the guided ``/report`` button flow.

    The flow only writes report text: each tapped value becomes a token of the game's
    grammar through ``template`` (``{seat}`` and ``{value}``), and the tokens are parsed
    like a typed report, so the buttons and the text form give the same :class:`Outcome`.
    The prompt is ``flow.<game>.<name>`` in the message catalogues.
    """

    name: str
    choices: tuple[str, ...]
    template: str = "{value}"
    per_seat: bool = False  # asked once for every seat, in seat order
    multi: bool = False  # zero or more taps (in order) before "done"


@dataclass(frozen=True)
class Outcome:
    """A checked report: per-seat scores for the round and its canonical text.

    ``scores`` is what the standings add for this report (points in point games, level
    steps in level games, match points in two-player games: each game module says which).
    ``per_hand`` keeps each hand's scores in report order, so that a match layer can replay
    the table (levels reached, chips left, games won) with :meth:`Game.match_winner`.
    """

    scores: tuple[Decimal, ...]
    text: str
    hands: int
    per_hand: tuple[tuple[Decimal, ...], ...] = ()


def seat_index(token: str, seats: int) -> int:
    """Seat letter (A–D, any case) or wind (东南西北) to a 0-based index, or refuse."""
    t = token.strip().upper()
    idx = SEAT_LETTERS.find(t) if len(t) == 1 and t in SEAT_LETTERS else WINDS.find(t)
    if len(t) != 1 or idx < 0 or idx >= seats:
        raise ReportError("unknown-seat", seat=token, seats=SEAT_LETTERS[:seats])
    return idx


def split_hands(text: str) -> list[str]:
    """Hands are separated by ``;`` (also full-width) or new lines."""
    return [part.strip() for part in re.split(r"[;；\n]+", text) if part.strip()]


def fmt_points(value: Decimal) -> str:
    """Signed points without a trailing ``.0``: ``+37``, ``-7``, ``+0.5``."""
    return signed(value)


class Game(Generic[H]):
    """Base game. Subclasses set the class attributes and the three hand hooks."""

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    seat_counts: ClassVar[tuple[int, ...]]  # allowed table sizes, the usual one first
    partners: ClassVar[tuple[tuple[int, ...], ...]] = ()  # seat indexes per side
    knobs: ClassVar[tuple[Knob, ...]] = ()
    default_format: ClassVar[str] = "knockout"
    # Where the rules fix the format by the field's size: (the most entrants of the small
    # field, its format, the large field's format), a format being a key or a preset
    # (``engine.formats.preset``); entrants are the units of ``default_format`` (pairs
    # of a pairs game); None: ``default_format`` at any size.
    formats_by_size: ClassVar[tuple[int, str, str] | None] = None
    zero_sum: ClassVar[bool] = True
    # 迟到 N 分钟以弃权论: 15 unless the game says otherwise (docs/rules/deadlines.md#no-show).
    noshow_minutes: ClassVar[int] = 15
    report_example: ClassVar[str]  # one hand in the report grammar, shown in /round
    # Ratings (engine.ratings): seats that scored alike in a hand played as one side.
    rating_by_score: ClassVar[bool] = False
    # Knobs that end a table's session by the game's own rule (``end``, ``hands``): unread
    # where every stage of the format sets how long a table plays (积分晋级's hands).
    session_knobs: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        given = dict(options or {})
        unknown = sorted(set(given) - {k.name for k in self.knobs})
        if unknown:
            raise ConfigError("unknown-knob", knob=unknown[0], known=self.knob_names())
        self.options: dict[str, object] = {
            k.name: k.coerce(given.get(k.name, k.default)) for k in self.knobs
        }

    @classmethod
    def knob_names(cls) -> tuple[str, ...]:
        return tuple(k.name for k in cls.knobs)

    @classmethod
    def format_for(cls, players: int) -> str:
        """The format a field of ``players`` plays when the organiser named none."""
        if cls.formats_by_size is None:
            return cls.default_format
        most, small, large = cls.formats_by_size
        return small if players <= most else large

    def option(self, name: str) -> object:
        return self.options[name]

    def example(self, seats: int) -> str:
        """One hand in the report grammar for a table of ``seats``: its seat letters are
        that table's (a game with short tables overrides this for them)."""
        return self.report_example

    def int_option(self, name: str) -> int:
        """An integer knob's value (``Knob.kind`` is ``int``)."""
        value = self.options[name]
        assert isinstance(value, int)
        return value

    def check_knob(self, name: str) -> None:
        """Refuse (``ConfigError``) knob ``name`` while the knob it depends on has another
        value: nothing would read it (an answer of 已设置 that changes nothing)."""
        knob = next(k for k in self.knobs if k.name == name)
        if knob.needs is not None:
            other, value = knob.needs
            if str(self.options[other]) != value:
                raise ConfigError("knob-unread-needs", knob=name, other=other, value=value)

    def check_session(self, outcome: Outcome, seats: int) -> None:
        """Refuse a table's report that plays on after the session ended by the game's own
        rule (:meth:`match_winner`: a target reached, a bust, the last of its hands). One
        that stops sooner stands: the round's deadline may end a session first."""
        hands = outcome.per_hand or (outcome.scores,)
        for played in range(1, len(hands)):
            if self.match_winner([replace(outcome, per_hand=hands[:played])], seats) is not None:
                raise ReportError("session-over", hands=played, got=len(hands))

    # --- the report as a whole -------------------------------------------------------
    def parse(self, text: str, seats: int) -> Outcome:
        """Check a whole report (one or more hands, or a ``total``) and score it."""
        if seats not in self.seat_counts:
            raise ReportError("bad-table-size", seats=seats, allowed=self.seat_counts)
        hands = split_hands(text)
        if not hands:
            raise ReportError("empty-report")
        total = [Decimal(0)] * seats
        canonical: list[str] = []
        per_hand: list[tuple[Decimal, ...]] = []
        for hand_text in hands:
            first, _, rest = hand_text.partition(" ")
            if first.lower() in TOTAL_WORDS:
                scores = self.parse_total(rest, seats)
                canonical.append(
                    "total "
                    + " ".join(f"{SEAT_LETTERS[i]}{fmt_points(s)}" for i, s in enumerate(scores))
                )
            else:
                hand = self.parse_hand(hand_text, seats)
                scores = self.score_hand(hand, seats)
                canonical.append(self.format_hand(hand, seats))
            per_hand.append(scores)
            total = [a + b for a, b in zip(total, scores, strict=True)]
        return Outcome(tuple(total), "; ".join(canonical), len(hands), tuple(per_hand))

    def parse_total(self, text: str, seats: int) -> tuple[Decimal, ...]:
        """``A+37 B-7 C+57 D-87``: every seat once; zero-sum where the game is."""
        found: dict[int, Decimal] = {}
        for token in text.split():
            m = re.fullmatch(r"(\S)([+-]?[0-9]+(?:\.5|\.0)?)", token)
            if not m:
                raise ReportError("bad-token", token=token)
            idx = seat_index(m.group(1), seats)
            if idx in found:
                raise ReportError("seat-twice", seat=SEAT_LETTERS[idx])
            if abs(Decimal(m.group(2))) > MAX_TOTAL:  # exact: construction never rounds
                raise ReportError("total-too-large", token=token, limit=MAX_TOTAL)
            found[idx] = Decimal(m.group(2))
        missing = [SEAT_LETTERS[i] for i in range(seats) if i not in found]
        if missing:
            raise ReportError("seat-missing", seat=missing[0])
        scores = tuple(found[i] for i in range(seats))
        if self.is_zero_sum() and sum(scores) != 0:
            raise ReportError("not-zero-sum", total=fmt_points(sum(scores, Decimal(0))))
        return scores

    def is_zero_sum(self) -> bool:
        """Whether every hand's scores add up to 0 (a knob may change it, e.g. points-only)."""
        return self.zero_sum

    def match_winner(self, outcomes: Sequence[Outcome], seats: int) -> tuple[int, ...] | None:
        """Seats that have won the table's match by the game's own rule, else ``None``.

        ``outcomes`` are the table's confirmed reports in order. ``None`` also means the
        match ends by something the engine cannot see (the clock, the format's hand count):
        point games without a target leave that to the format.
        """
        return None

    def round_scores(self, outcome: Outcome, seats: int) -> tuple[Decimal, ...]:
        """What the standings add for one table's round, from its whole report.

        The ``score`` of /export (docs/guide.en.md#end): points in point games, match points
        in level and two-player games. Point games and the two-player games (whose per-game
        1/0.5/0 is already the match score, docs/rules/two-player.md#game-points) add
        ``outcome.scores``; the level games override this to turn the replayed match into
        match points.
        """
        return outcome.scores

    def flow(self, seats: int) -> tuple[Step, ...]:
        """The button flow for one hand (empty: this game is reported by text only)."""
        return ()

    def compose(self, answers: Mapping[str, Sequence[str]], seats: int) -> str:
        """Turn the flow's taps (step name → values) into one hand of report text."""
        parts: list[str] = []
        for step in self.flow(seats):
            values = answers.get(step.name, ())
            if step.per_seat:
                parts.extend(
                    step.template.format(seat=SEAT_LETTERS[i], value=v)
                    for i, v in enumerate(values[:seats])
                )
            else:
                parts.extend(step.template.format(seat="", value=v) for v in values)
        return " ".join(parts)

    # --- hooks -----------------------------------------------------------------------
    def parse_hand(self, text: str, seats: int) -> H:
        raise NotImplementedError

    def score_hand(self, hand: H, seats: int) -> tuple[Decimal, ...]:
        raise NotImplementedError

    def format_hand(self, hand: H, seats: int) -> str:
        raise NotImplementedError


def tokens(text: str) -> Sequence[str]:
    """Split a hand into tokens on spaces and commas (half- and full-width)."""
    return [t for t in re.split(r"[\s,，、]+", text) if t]


def keyword(token: str, words: Mapping[str, tuple[str, ...]]) -> str | None:
    """The canonical keyword whose English or Chinese spellings include ``token``."""
    low = token.lower()
    for canonical, spellings in words.items():
        if low == canonical or low in spellings:
            return canonical
    return None


def prefixed_number(token: str, prefixes: tuple[str, ...]) -> int | None:
    """``bid3`` / ``叫3分`` / ``炸1个`` → 3, 3, 1: a keyword followed by a count.

    Returns ``None`` when the token does not start with one of ``prefixes``; a prefix
    followed by something other than ASCII digits (and an optional 分/个/张) is a bad token.
    """
    low = token.lower()
    for prefix in sorted(prefixes, key=len, reverse=True):
        if low.startswith(prefix):
            m = re.fullmatch(r"([0-9]{1,4})[分个张]?", low[len(prefix) :])
            if not m:
                raise ReportError("bad-token", token=token)
            return int(m.group(1))
    return None


def replay_hands(outcomes: Sequence[Outcome]) -> list[tuple[Decimal, ...]]:
    """Every hand's scores across a table's reports, in order (a ``total`` is one hand)."""
    return [hand for o in outcomes for hand in (o.per_hand or (o.scores,))]


def leaders(totals: Sequence[Decimal]) -> tuple[int, ...]:
    """The seats on the highest total (several when tied: the format breaks the tie)."""
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)
