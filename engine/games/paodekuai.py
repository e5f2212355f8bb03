"""Run Fast 跑得快 (also written 跑的快): three players, 16 cards each, first out wins.

A hand is reported like Big Two, as the cards left per seat: ``A0 B5 C16``. Exactly one
seat has 0 cards (the winner); the others hold 1 to 16. Each loser pays the winner one
point a card left, and double when they never played a card (all 16 left: 关门, "shut
in"). So ``A0 B5 C16`` → B pays 5, C pays 2 × 16 = 32, A collects 37: +37 −5 −32.

Knob: ``shutin`` on (the doubling above) / off (a shut-in loser pays 16 like any card
count; tables differ on it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import Game, Knob, Step, seat_index, tokens
from engine.model import SEAT_LETTERS

DEAL = 16  # cards each player is dealt
SHUT_IN_FACTOR = 2  # 关门: a loser who played no card pays double


@dataclass(frozen=True)
class RunFastHand:
    """Cards left per seat, in seat order."""

    cards: tuple[int, ...]


class PaoDeKuai(Game[RunFastHand]):
    """跑得快: the first to play out every card wins the hand; the others pay per card."""

    key = "paodekuai"
    report_example = "A0 B5 C16"
    aliases = ("paodekuai", "run fast", "跑得快", "跑的快")
    seat_counts = (3,)
    default_format = "knockout"
    knobs = (Knob("shutin", "on", ("on", "off"), str),)

    def parse_hand(self, text: str, seats: int) -> RunFastHand:
        cards: dict[int, int] = {}
        for token in tokens(text):
            m = re.fullmatch(r"(\S)([0-9]{1,3})", token)
            if not m:
                raise ReportError("bad-token", token=token)
            idx = seat_index(m.group(1), seats)
            if idx in cards:
                raise ReportError("seat-twice", seat=SEAT_LETTERS[idx])
            count = int(m.group(2))
            if count > DEAL:
                raise ReportError("too-many-cards", seat=SEAT_LETTERS[idx], cards=count, limit=DEAL)
            cards[idx] = count
        missing = [SEAT_LETTERS[i] for i in range(seats) if i not in cards]
        if missing:
            raise ReportError("seat-missing", seat=missing[0])
        zeros = [i for i in range(seats) if cards[i] == 0]
        if len(zeros) > 1:
            raise ReportError("two-winners", seats="".join(SEAT_LETTERS[i] for i in zeros))
        if not zeros:
            raise ReportError("no-winner")
        return RunFastHand(tuple(cards[i] for i in range(seats)))

    def flow(self, seats: int) -> tuple[Step, ...]:
        """Cards left per seat, 0 to 16."""
        counts = tuple(str(n) for n in range(DEAL + 1))
        return (Step("cards", counts, "{seat}{value}", per_seat=True),)

    def payment(self, cards: int) -> int:
        """What a loser with ``cards`` left pays the winner (关门 doubles it)."""
        shut_in = cards == DEAL and self.option("shutin") == "on"
        return cards * SHUT_IN_FACTOR if shut_in else cards

    def score_hand(self, hand: RunFastHand, seats: int) -> tuple[Decimal, ...]:
        paid = [self.payment(n) for n in hand.cards]
        winner = hand.cards.index(0)
        return tuple(Decimal(sum(paid) if i == winner else -p) for i, p in enumerate(paid))

    def format_hand(self, hand: RunFastHand, seats: int) -> str:
        return " ".join(f"{SEAT_LETTERS[i]}{n}" for i, n in enumerate(hand.cards))
