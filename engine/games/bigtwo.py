"""Big Two 锄大地, scored as in docs/rules/bigtwo.md.

A hand is reported as cards left per seat; ``s`` after a count marks a seat still holding
♠2: ``A5 B8 C0 D12``. Card points for n cards left (#card-points): n (n<8), 2n (8–9),
3n (10–12), 4n (13); holding ♠2 with 8 or more cards doubles them. Each seat then scores
the sum, over the other seats, of (their card points − its own) (#settlement), so
A5 B8 C0 D12 → +37 −7 +57 −87, and with ♠2 at B (``B8s``) → +53 −55 +73 −71.

Knobs: ``spade2`` on (default) / off / ``any2`` (a common house rule: any 2 held doubles, so
several seats may be marked); ``settle`` pairwise (default) / ``winner`` (the winner collects
every loser's card points, each loser pays their own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import Game, Knob, Step, seat_index, tokens
from engine.model import SEAT_LETTERS

MAX_CARDS = 13


@dataclass(frozen=True)
class BigTwoHand:
    """Cards left per seat, and which seats still hold ♠2 (any 2 under ``any2``)."""

    cards: tuple[int, ...]
    twos: frozenset[int] = frozenset()


class BigTwo(Game[BigTwoHand]):
    """锄大地: four seats (three is a known short-table variant), 13 cards each.

    Per report, ``scores`` are the seed's points, summed over the hands reported.
    """

    key = "bigtwo"
    report_example = "A5 B8 C0 D12"
    aliases = ("bigtwo", "big2", "big two", "锄大地", "锄大d", "大老二")
    seat_counts = (4, 3)
    default_format = "knockout"
    knobs = (
        Knob("spade2", "on", ("on", "off", "any2"), str),
        Knob("settle", "pairwise", ("pairwise", "winner"), str),
    )

    def example(self, seats: int) -> str:
        return "A5 B0 C12" if seats == 3 else self.report_example

    def parse_hand(self, text: str, seats: int) -> BigTwoHand:
        cards: dict[int, int] = {}
        twos: set[int] = set()
        for token in tokens(text):
            m = re.fullmatch(r"(\S)([0-9]{1,3})([sS♠]?)", token)
            if not m:
                raise ReportError("bad-token", token=token)
            idx = seat_index(m.group(1), seats)
            if idx in cards:
                raise ReportError("seat-twice", seat=SEAT_LETTERS[idx])
            count = int(m.group(2))
            if count > MAX_CARDS:
                raise ReportError(
                    "too-many-cards", seat=SEAT_LETTERS[idx], cards=count, limit=MAX_CARDS
                )
            cards[idx] = count
            if m.group(3):
                if twos and self.option("spade2") != "any2":
                    raise ReportError("spade-two-twice")
                twos.add(idx)
        missing = [SEAT_LETTERS[i] for i in range(seats) if i not in cards]
        if missing:
            raise ReportError("seat-missing", seat=missing[0])
        zeros = [i for i in range(seats) if cards[i] == 0]
        if len(zeros) > 1:
            raise ReportError("two-winners", seats="".join(SEAT_LETTERS[i] for i in zeros))
        if not zeros:
            raise ReportError("no-winner")
        if zeros[0] in twos:
            raise ReportError("winner-holds-spade-two", seat=SEAT_LETTERS[zeros[0]])
        return BigTwoHand(tuple(cards[i] for i in range(seats)), frozenset(twos))

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Cards left per seat; ``8s``…``13s`` mark ♠2 (it only matters from 8 cards)."""
        counts = tuple(str(n) for n in range(MAX_CARDS + 1))
        marked = tuple(f"{n}s" for n in range(8, MAX_CARDS + 1))
        return (Step("cards", counts + marked, "{seat}{value}", per_seat=True),)

    def card_points(self, n: int, holds_two: bool) -> int:
        """The penalty points of n cards left (docs/rules/bigtwo.md#card-points)."""
        base = n if n < 8 else 2 * n if n < 10 else 3 * n if n < 13 else 4 * n
        doubled = holds_two and n >= 8 and self.option("spade2") != "off"
        return base * 2 if doubled else base

    def score_hand(self, hand: BigTwoHand, seats: int) -> tuple[Decimal, ...]:
        pts = [self.card_points(n, i in hand.twos) for i, n in enumerate(hand.cards)]
        if self.option("settle") == "winner":
            winner = hand.cards.index(0)
            return tuple(Decimal(sum(pts) if i == winner else -p) for i, p in enumerate(pts))
        return tuple(Decimal(sum(pts) - seats * p) for p in pts)

    def format_hand(self, hand: BigTwoHand, seats: int) -> str:
        return " ".join(
            f"{SEAT_LETTERS[i]}{n}{'s' if i in hand.twos else ''}" for i, n in enumerate(hand.cards)
        )
