"""Four-player two-deck Dou Dizhu 四人斗地主, as in docs/rules/doudizhu.md#four-players.

Two decks, 25 cards each and 8 in the kitty; the landlord plays against the other three.
A hand is reported as the landlord's seat, the result and flags: ``C win open`` (地主C 胜
明牌). Scoring (#four-scoring): landlord win +3, the other three −1 each; landlord loss
−3, the others +1 each; an open hand (明牌) doubles it (+6 / −2). Two declines
(#declined-bid): when the first two players both decline to be landlord the hand is void
and redealt, but each decliner scores −1 and the other two +1: ``decline A B`` (不叫 A B).

Per report, ``scores`` are the points. The match ends after ``hands`` hands (6 by
default) when ``end=hands``, or at the clock (``end=time``).
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
    replay_hands,
    seat_index,
    tokens,
)
from engine.model import SEAT_LETTERS

WORDS: dict[str, tuple[str, ...]] = {
    "win": ("win", "won", "胜", "赢", "地主胜"),
    "lose": ("lose", "lost", "loss", "负", "输", "败", "地主负", "地主败"),
    "open": ("open", "明牌", "明"),
    "decline": ("decline", "declined", "不叫", "流局", "redeal"),
}
LANDLORD_WORDS = ("landlord", "地主")


@dataclass(frozen=True)
class DouDizhu4Hand:
    """A played hand (landlord, won, open) or a redeal after two declines (``decliners``)."""

    landlord: int = 0
    won: bool = False
    open_hand: bool = False
    decliners: tuple[int, ...] = ()


class DouDizhu4(Game[DouDizhu4Hand]):
    """四人斗地主: one landlord against three, +3/−1 a hand."""

    key = "doudizhu4"
    report_example = "C win open"
    aliases = ("doudizhu4", "ddz4", "四人斗地主", "4人斗地主", "两副牌斗地主")
    seat_counts = (4,)
    default_format = "knockout"
    rating_by_score = True  # the landlord against the other three, hand by hand
    session_knobs = ("end", "hands")
    knobs = (
        Knob("end", "hands", ("time", "hands"), str),
        Knob("hands", "6", (), int, 1, needs=("end", "hands")),
    )

    def parse_hand(self, text: str, seats: int) -> DouDizhu4Hand:
        words: list[str] = []
        named: list[int] = []
        for token in tokens(text):
            word = keyword(token, WORDS)
            if word is not None:
                if word in words or {word, *words} >= {"win", "lose"}:
                    raise ReportError("repeated-word", token=token)
                words.append(word)
                continue
            low = token.lower()
            for prefix in LANDLORD_WORDS:
                if low.startswith(prefix) and len(low) > len(prefix):
                    token = token[len(prefix) :]
            if len(token) != 1:
                raise ReportError("bad-token", token=token)
            seat = seat_index(token, seats)
            if seat in named:
                raise ReportError("seat-twice", seat=SEAT_LETTERS[seat])
            named.append(seat)
        if "decline" in words:
            if set(words) != {"decline"}:
                raise ReportError("decline-with-result")
            if len(named) != 2:
                raise ReportError("decline-needs-two", count=len(named))
            return DouDizhu4Hand(decliners=tuple(sorted(named)))
        if not named:
            raise ReportError("no-landlord")
        if len(named) > 1:
            raise ReportError("two-landlords")
        if not {"win", "lose"} & set(words):
            raise ReportError("no-result")
        return DouDizhu4Hand(named[0], "win" in words, "open" in words)

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Landlord, result, open hand (a redeal after two declines is typed)."""
        return (
            Step("landlord", tuple(SEAT_LETTERS[:seats])),
            Step("result", ("win", "lose")),
            Step("open", ("open",), multi=True),
        )

    def score_hand(self, hand: DouDizhu4Hand, seats: int) -> tuple[Decimal, ...]:
        if hand.decliners:
            return tuple(Decimal(-1 if s in hand.decliners else 1) for s in range(seats))
        unit = (2 if hand.open_hand else 1) * (1 if hand.won else -1)
        return tuple(Decimal(3 * unit if s == hand.landlord else -unit) for s in range(seats))

    def format_hand(self, hand: DouDizhu4Hand, seats: int) -> str:
        if hand.decliners:
            return "decline " + " ".join(SEAT_LETTERS[s] for s in hand.decliners)
        flags = " open" if hand.open_hand else ""
        return f"{SEAT_LETTERS[hand.landlord]} {'win' if hand.won else 'lose'}{flags}"

    def match_winner(self, outcomes: Sequence[Outcome], seats: int) -> tuple[int, ...] | None:
        """The leader after ``hands`` played hands; redeals score but do not count."""
        if self.option("end") != "hands":
            return None
        totals = [Decimal(0)] * seats
        played = 0
        for hand in replay_hands(outcomes):
            totals = [t + s for t, s in zip(totals, hand, strict=True)]
            played += sum(1 for s in hand if s < 0) != 2  # a redeal has two losers
            if played >= self.int_option("hands"):
                return leaders(totals)
        return None
