"""Shengji 升级 / 80分 / 双升 / 拖拉机, as in docs/rules/shengji.md.

Two partnerships, A&C against B&D, two decks, an 8-card kitty. A hand is reported as the
dealer's seat, the defenders' card points and, when the defenders took the last trick
(抠底), the kitty's points and multiplier: ``A pts85 kitty20x2`` = ``庄A 分85 底20x2``.
Without a dealer seat the first hand is dealt by A's side and later hands by whoever the
previous hand left the deal to (only the side matters for scoring).

The kitty (#kitty) counts ×2, ×4 with a pair, ×2·2^n with a tractor of length n (so
x2, x4, x8, x16, x32). The defenders' total = points + kitty × multiplier, then
(#level-table): 0 → dealer +3; 5–35 → +2; 40–75 → +1; 80–115 → the defenders take the deal;
120–155 → defenders +1; 160–195 → +2; 200 and more → +3 (``climb=cap``), or one more
level for every further 40 (``climb=every40``: 每多得40分加升一级，最高不限).

Per report, ``scores`` are the level steps each seat's side went up. A game is won by the
first side to pass ``target`` (先通过10; ``target=A`` in a final; #match), or by the
leader at time (the match layer's clock); match points ``points`` win/draw/loss.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import (
    TOTAL_WORDS,
    Knob,
    Outcome,
    Step,
    prefixed_number,
    seat_index,
    split_hands,
    tokens,
)
from engine.games.levels import (
    LEVELS,
    SIDES,
    LevelGame,
    LevelState,
    replay_gains,
    side_of,
    side_scores,
)
from engine.model import SEAT_LETTERS

DECK_POINTS = 200  # two decks: 8 fives, 8 tens, 8 kings
KITTY_MAX = 80  # eight cards, tens and kings at most
KITTY_MULTIPLIERS = (2, 4, 8, 16, 32)  # nothing, a pair, tractors of length 2–4
POINT_WORDS = ("pts", "points", "分", "得分", "抓分")
KITTY_WORDS = ("kitty", "底", "抠底", "底牌")
DEALER_WORDS = ("dealer", "庄", "庄家")


@dataclass(frozen=True)
class ShengjiHand:
    """One hand: dealer seat, defenders' trick points, kitty points and multiplier."""

    dealer: int
    points: int
    kitty: int = 0
    multiplier: int = 2

    @property
    def defenders_total(self) -> int:
        return self.points + self.kitty * self.multiplier


class Shengji(LevelGame[ShengjiHand]):
    """升级/80分: the defenders' points decide who climbs, and how far."""

    key = "shengji"
    report_example = "pts85 kitty20x2"
    aliases = ("shengji", "80分", "八十分", "双升", "拖拉机", "升级", "tractor", "80 points")
    seat_counts = (4,)
    partners = SIDES
    default_format = "pairs"
    # 人数少于或等于9人 (pairs here): groups A/B; more: 裁减制
    # (docs/rules/two-player.md#format-by-size).
    formats_by_size = (9, "pairs-groups", "pairs")
    zero_sum = False
    knobs = (
        Knob("climb", "cap", ("cap", "every40"), str),
        Knob("target", "10", ("10", "a"), str),
        Knob("points", "2/1/0", ("2/1/0", "3/1/0", "1/0.5/0"), str),
    )

    def parse(self, text: str, seats: int) -> Outcome:
        """Write each hand's dealer in before scoring: it follows from the previous hand."""
        if seats not in self.seat_counts:
            return super().parse(text, seats)
        dealer = 0
        hands: list[str] = []
        for hand_text in split_hands(text):
            if hand_text.split()[0].lower() in TOTAL_WORDS:
                hands.append(hand_text)
                continue
            hand = self._parse(hand_text, seats, dealer)
            hands.append(self.format_hand(hand, seats))
            total = hand.defenders_total
            dealer = hand.dealer if total < 80 else (hand.dealer + 1) % 4
        return super().parse("\n".join(hands), seats)

    def parse_hand(self, text: str, seats: int) -> ShengjiHand:
        return self._parse(text, seats, 0)

    def _parse(self, text: str, seats: int, default_dealer: int) -> ShengjiHand:
        dealer: int | None = None
        points: int | None = None
        kitty: tuple[int, int | None] | None = None
        separate: int | None = None  # ``x4`` given as its own token (the button flow's way)
        for token in tokens(text):
            low = token.lower()
            if m := re.fullmatch(r"[x×*]([0-9]{1,3})", low):
                if separate is not None:
                    raise ReportError("repeated-word", token=token)
                separate = int(m.group(1))
            elif (n := prefixed_number(low, POINT_WORDS)) is not None:
                if points is not None:
                    raise ReportError("repeated-word", token=token)
                points = n
            elif (k := _kitty(low)) is not None:
                if kitty is not None:
                    raise ReportError("repeated-word", token=token)
                kitty = k
            else:
                for word in DEALER_WORDS:
                    if low.startswith(word) and len(low) > len(word):
                        token = token[len(word) :]
                        break
                if len(token) != 1:
                    raise ReportError("bad-token", token=token)
                if dealer is not None:
                    raise ReportError("two-dealers")
                dealer = seat_index(token, seats)
        if points is None:
            raise ReportError("no-points")
        kitty_points, inline = kitty or (0, None)
        if separate is not None and (kitty is None or inline is not None):
            raise ReportError(
                "multiplier-needs-kitty" if kitty is None else "repeated-word", token=f"x{separate}"
            )
        mult = separate or inline or 2
        for value in (points, kitty_points):
            if value % 5:
                raise ReportError("points-not-multiple-of-5", points=value)
        if kitty_points > KITTY_MAX:
            raise ReportError("kitty-too-big", kitty=kitty_points, limit=KITTY_MAX)
        if points + kitty_points > DECK_POINTS:
            raise ReportError("too-many-points", points=points + kitty_points, limit=DECK_POINTS)
        if mult not in KITTY_MULTIPLIERS:
            raise ReportError("bad-kitty-multiplier", multiplier=mult, allowed=KITTY_MULTIPLIERS)
        return ShengjiHand(default_dealer if dealer is None else dealer, points, kitty_points, mult)

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Dealer, defenders' points, and the kitty when they took the last trick."""
        return (
            Step("dealer", tuple(SEAT_LETTERS[:seats])),
            Step("points", tuple(str(n) for n in range(0, DECK_POINTS + 1, 5)), "pts{value}"),
            Step(
                "kitty",
                tuple(str(k) for k in range(5, KITTY_MAX + 1, 5)),
                "kitty{value}",
                multi=True,
            ),
            Step("multiplier", tuple(str(m) for m in KITTY_MULTIPLIERS), "x{value}", multi=True),
        )

    def level_change(self, total: int) -> tuple[bool, int]:
        """(defenders climb?, steps) for the defenders' total points
        (docs/rules/shengji.md#level-table)."""
        if total < 80:
            return False, 3 if total == 0 else 2 if total < 40 else 1
        if total < 120:
            return True, 0
        if total < 200 or self.option("climb") == "cap":
            return True, min((total - 80) // 40, 3)
        return True, 3 + (total - 200) // 40

    def score_hand(self, hand: ShengjiHand, seats: int) -> tuple[Decimal, ...]:
        defenders_up, steps = self.level_change(hand.defenders_total)
        dealer_side = side_of(hand.dealer)
        return side_scores(1 - dealer_side if defenders_up else dealer_side, steps)

    def format_hand(self, hand: ShengjiHand, seats: int) -> str:
        kitty = f" kitty{hand.kitty}x{hand.multiplier}" if hand.kitty else ""
        return f"{SEAT_LETTERS[hand.dealer]} pts{hand.points}{kitty}"

    def state(self, outcomes: Sequence[Outcome]) -> tuple[LevelState, int | None]:
        """Replay the table: levels, and the side that first passed ``target`` (or None)."""
        target = LEVELS.index(str(self.option("target")).upper())
        state = LevelState()
        for side, steps in replay_gains(outcomes):
            if state.levels[side] + steps > target:
                return state.win_game(side), side
            state = state.climb(side, steps, target)
        return state, None


def _kitty(token: str) -> tuple[int, int | None] | None:
    """``kitty20x4`` / ``底20×4`` / ``kitty20`` → (20, 4) / (20, 4) / (20, None)."""
    for prefix in sorted(KITTY_WORDS, key=len, reverse=True):
        if token.startswith(prefix):
            m = re.fullmatch(r"([0-9]{1,4})分?(?:[x×*]([0-9]{1,3}))?", token[len(prefix) :])
            if not m:
                raise ReportError("bad-token", token=token)
            return int(m.group(1)), int(m.group(2)) if m.group(2) else None
    return None
