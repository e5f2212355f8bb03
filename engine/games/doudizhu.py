"""Dou Dizhu 斗地主 for three seats, as scored in docs/rules/doudizhu.md.

A hand is reported from the landlord's side: landlord seat, bid, bombs played (rockets
count), result and flags, in English or Chinese: ``B bid3 bombs1 win spring`` =
``地主B 叫3 炸1 胜 春天``.

Scoring (``scoring=bid``, #bid-scoring): the multiplier starts at 1 and doubles for each
bomb or rocket played and for a spring (landlord won before a farmer played) or an
anti-spring (a farmer won while the landlord played one hand only); the landlord scores
±2·bid·mult, each farmer ∓bid·mult. With ``doubling=on`` (a common house rule) a farmer may
double and the landlord redouble: each farmer then scores bid·(±1)·2^(exponent + own double
+ redouble if doubled) and the landlord minus their sum. ``cap`` caps each farmer's
multiplier (单局封顶, #cap; 0 = no cap).

Variants: ``scoring=points`` (#points-only: landlord win +2, farmer win +1 each, bombs
double, the losers score 0) and ``scoring=chips`` (#chips: each starts with ``chips``
chips, ``base`` 2 per farmer, bombs double, no cap; a player out of chips ends the table
and the most chips wins). The table's match ends by ``end``: ``time`` (the clock, outside
the engine), ``hands`` (after ``hands`` hands, by default ten) or ``target`` (first
to +``target``, by default +100; #match-end).

Per report, ``scores`` are the points (chips won or lost under ``chips``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import (
    Game,
    Knob,
    Outcome,
    Step,
    keyword,
    leaders,
    prefixed_number,
    replay_hands,
    seat_index,
    tokens,
)
from engine.model import SEAT_LETTERS

MAX_BOMBS = 14  # 13 four-of-a-kinds and one rocket in a 54-card deck
WORDS: dict[str, tuple[str, ...]] = {
    "win": ("win", "won", "胜", "赢", "地主胜", "胜利"),
    "lose": ("lose", "lost", "loss", "负", "输", "败", "地主负", "地主败", "农民胜"),
    "spring": ("spring", "春天", "春"),
    "antispring": ("antispring", "anti-spring", "反春", "反春天", "反春天"),
    "redouble": ("redouble", "反加倍", "再加倍", "超级加倍"),
    "rocket": ("rocket", "火箭", "王炸"),
}
BID_WORDS = ("bid", "叫", "叫分")
BOMB_WORDS = ("bombs", "bomb", "炸弹", "炸")
ROCKET_WORDS = ("rockets", "rocket", "火箭", "王炸")
DOUBLE_WORDS = ("double", "加倍")
LANDLORD_WORDS = ("landlord", "地主")


@dataclass(frozen=True)
class DouDizhuHand:
    """One hand: landlord seat, bid (0 when not given), bombs incl. rockets, result, flags."""

    landlord: int
    bid: int
    bombs: int
    won: bool
    spring: bool = False  # spring when ``won``, anti-spring otherwise
    doubled: frozenset[int] = frozenset()
    redoubled: bool = False


class DouDizhu(Game[DouDizhuHand]):
    """斗地主 (3 seats): landlord against two farmers."""

    key = "doudizhu"
    report_example = "B bid3 bombs1 win spring"
    aliases = ("doudizhu", "dou dizhu", "ddz", "斗地主", "三人斗地主")
    seat_counts = (3,)
    default_format = "groups"
    # 人数少于或等于9人: groups A/B; more: 裁减制 (docs/rules/two-player.md#format-by-size).
    formats_by_size = (9, "groups", "knockout")
    rating_by_score = True  # the landlord against the farmers, hand by hand
    session_knobs = ("end", "hands", "target")
    knobs = (
        Knob("scoring", "bid", ("bid", "points", "chips"), str),
        Knob("doubling", "off", ("on", "off"), str),
        Knob("cap", "0", (), int),
        Knob("chips", "20", ("20", "50"), int, needs=("scoring", "chips")),
        Knob("base", "2", (), int, 1, needs=("scoring", "chips")),
        Knob("end", "time", ("time", "hands", "target"), str),
        Knob("hands", "10", (), int, 1, needs=("end", "hands")),
        Knob("target", "100", (), int, 1, 100_000, needs=("end", "target")),
    )

    def is_zero_sum(self) -> bool:
        return self.option("scoring") != "points"

    def parse_hand(self, text: str, seats: int) -> DouDizhuHand:
        landlord: int | None = None
        bid = bombs = rockets = 0
        result: str | None = None
        flags: set[str] = set()
        doubled: set[int] = set()
        for token in tokens(text):
            word = keyword(token, WORDS)
            if word in ("win", "lose"):
                if result is not None:
                    raise ReportError("repeated-word", token=token)
                result = word
            elif word == "rocket":
                rockets += 1
            elif word is not None:
                if word in flags:
                    raise ReportError("repeated-word", token=token)
                flags.add(word)
            elif (n := prefixed_number(token, BID_WORDS)) is not None:
                if bid:
                    raise ReportError("repeated-word", token=token)
                if not 1 <= n <= 3:
                    raise ReportError("bad-bid", bid=n)
                bid = n
            elif (n := prefixed_number(token, ROCKET_WORDS)) is not None:
                rockets += n
            elif (n := prefixed_number(token, BOMB_WORDS)) is not None:
                bombs += n
            elif (seat := self._seat_after(token, DOUBLE_WORDS, seats)) is not None:
                if seat in doubled:
                    raise ReportError("repeated-word", token=token)
                doubled.add(seat)
            else:
                seat = self._seat_after(token, LANDLORD_WORDS, seats)
                if seat is None and len(token) > 1:
                    raise ReportError("bad-token", token=token)
                seat = seat_index(token, seats) if seat is None else seat
                if landlord is not None:
                    raise ReportError("two-landlords")
                landlord = seat
        if landlord is None:
            raise ReportError("no-landlord")
        if result is None:
            raise ReportError("no-result")
        if rockets > 1:
            raise ReportError("too-many-rockets", rockets=rockets)
        if bombs + rockets > MAX_BOMBS:
            raise ReportError("too-many-bombs", bombs=bombs + rockets, limit=MAX_BOMBS)
        if not bid and self.option("scoring") == "bid":
            raise ReportError("no-bid")
        won = result == "win"
        if "spring" in flags and not won:
            raise ReportError("spring-needs-win")
        if "antispring" in flags and won:
            raise ReportError("antispring-needs-loss")
        if (doubled or "redouble" in flags) and self.option("doubling") == "off":
            raise ReportError("doubling-off")
        if landlord in doubled:
            raise ReportError("landlord-cannot-double", seat=SEAT_LETTERS[landlord])
        if "redouble" in flags and not doubled:
            raise ReportError("redouble-needs-double")
        spring = bool(flags & {"spring", "antispring"})
        return DouDizhuHand(
            landlord, bid, bombs + rockets, won, spring, frozenset(doubled), "redouble" in flags
        )

    @staticmethod
    def _seat_after(token: str, prefixes: tuple[str, ...], seats: int) -> int | None:
        """``doubleA`` / ``加倍A`` / ``地主B`` → the seat after the keyword, else ``None``."""
        low = token.lower()
        for prefix in prefixes:
            if low.startswith(prefix) and len(low) > len(prefix):
                return seat_index(token[len(prefix) :], seats)
        return None

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Landlord, bid, bombs, result, then spring / doubling flags."""
        letters = SEAT_LETTERS[:seats]
        steps = [Step("landlord", tuple(letters))]
        if self.option("scoring") == "bid":
            steps.append(Step("bid", ("1", "2", "3"), "bid{value}"))
        steps += [
            Step("bombs", tuple(str(n) for n in range(7)), "bombs{value}"),
            Step("result", ("win", "lose")),
            Step("spring", ("spring", "antispring"), multi=True),
        ]
        if self.option("doubling") == "on":
            steps.append(Step("double", tuple(letters), "double{value}", multi=True))
            steps.append(Step("redouble", ("redouble",), multi=True))
        return tuple(steps)

    def multiplier(self, hand: DouDizhuHand, farmer: int) -> int:
        """2^(bombs + spring + own double + redouble), capped by ``cap`` when set."""
        doubled = farmer in hand.doubled
        exponent: int = hand.bombs + int(hand.spring) + int(doubled)
        exponent += int(hand.redoubled and doubled)
        full: int = 2**exponent
        cap = self.int_option("cap")
        return min(full, cap) if cap > 0 else full

    def score_hand(self, hand: DouDizhuHand, seats: int) -> tuple[Decimal, ...]:
        scoring = self.option("scoring")
        farmers = [i for i in range(seats) if i != hand.landlord]
        sign = -1 if hand.won else 1  # the farmers' sign
        scores = [0] * seats
        if scoring == "points":
            for f in farmers:
                gain = self.multiplier(hand, f)
                if hand.won:
                    scores[hand.landlord] += gain
                else:
                    scores[f] = gain
        else:
            unit = self.int_option("base") if scoring == "chips" else hand.bid
            for f in farmers:
                scores[f] = sign * unit * self.multiplier(hand, f)
            scores[hand.landlord] = -sum(scores)
        return tuple(Decimal(s) for s in scores)

    def format_hand(self, hand: DouDizhuHand, seats: int) -> str:
        parts = [SEAT_LETTERS[hand.landlord]]
        if hand.bid:
            parts.append(f"bid{hand.bid}")
        parts.append(f"bombs{hand.bombs}")
        parts.append("win" if hand.won else "lose")
        if hand.spring:
            parts.append("spring" if hand.won else "antispring")
        parts.extend(f"double{SEAT_LETTERS[s]}" for s in sorted(hand.doubled))
        if hand.redoubled:
            parts.append("redouble")
        return " ".join(parts)

    def match_winner(self, outcomes: Sequence[Outcome], seats: int) -> tuple[int, ...] | None:
        """Replay the table's hands: a bust (chips, whatever ``end`` says), the
        ``hands``-th hand or the target."""
        end = self.option("end")
        chips = self.option("scoring") == "chips"
        totals = [Decimal(0)] * seats
        for played, hand in enumerate(replay_hands(outcomes), start=1):
            totals = [t + s for t, s in zip(totals, hand, strict=True)]
            if chips and any(self.int_option("chips") + t <= 0 for t in totals):
                return leaders(totals)
            if end == "hands" and played >= self.int_option("hands"):
                return leaders(totals)
            if end == "target" and max(totals) >= self.int_option("target"):
                return leaders(totals)
        return None
