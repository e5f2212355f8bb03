"""Lot draws anyone can check: commit to a seed, draw from it, reveal it.

The published procedure (what ``/verify`` lets anyone replay):

1. Before a draw the bot picks a fresh random seed (a hex string) and posts its
   commitment ``sha256(seed.encode("utf-8")).hexdigest()`` (:func:`commitment`).
2. Every random choice of the event uses its own stream, named by a label
   (``"round1"``, ``"round3-table2-flip"``…): the stream is Python's
   ``random.Random(int(sha256(f"{seed}:{label}").hexdigest(), 16))`` (:func:`stream`).
   Python's Mersenne Twister, seeded with an integer, gives the same numbers on every
   platform and version since 3.2, so the draw is reproducible with the standard library.
3. The format shuffles with that stream (``rng.shuffle(list_in_sign_up_order)``) and cuts
   the shuffled list into tables in order; the label is stored in ``RoundPlan.seed_label``.
4. After the draw ``/verify`` reveals the seed; anyone checks the commitment and re-runs
   the format on the same sign-up list to get the same tables and seats.

Streams with different labels are independent (different SHA-256 inputs), so replaying
round 3 does not require replaying rounds 1–2's random choices, and a correction to a
round-2 result cannot change how round 1 was drawn.

Lots may be shown as playing cards, as paper events draw them (以扑克牌为标准进行抽签;
docs/rules/README.md#card-lots): :func:`card_lots` deals distinct cards from one 52-card deck,
adding the two jokers only when more than 52 lots are needed, then further decks marked
with their number (``♠A²``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

from engine.errors import FormatError

T = TypeVar("T")

SUITS = "♠♥♣♦"  # spades, hearts, clubs, diamonds (a bridge order; colour: ♠♣ black, ♥♦ red)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS = ("大王", "小王")  # red joker, black joker
DECK: tuple[str, ...] = tuple(s + r for r in RANKS for s in SUITS)
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
MAX_DECKS = 9


def commitment(seed: str) -> str:
    """The SHA-256 hex digest of the seed's UTF-8 bytes, posted before the draw."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def stream(seed: str, label: str) -> random.Random:
    """The random stream for one named decision, derived from the seed alone."""
    digest = hashlib.sha256(f"{seed}:{label}".encode()).hexdigest()
    return random.Random(int(digest, 16))


def shuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    """A shuffled copy (``rng.shuffle`` on a list in the given order)."""
    out = list(items)
    rng.shuffle(out)
    return out


def flip_order(players: Sequence[int], seed: str, label: str) -> dict[int, int]:
    """A verifiable card flip (翻牌, docs/rules/README.md#card-flip): a strength per player,
    higher wins.

    Each player "turns a card": the players, sorted by id so that the outcome does not
    depend on the caller's order, are shuffled with the labelled stream; the position in
    that shuffle is the card's strength.
    """
    order = shuffled(sorted(players), stream(seed, label))
    return {p: len(order) - i for i, p in enumerate(order)}


def card_lots(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct playing-card lots in drawn order (♠A, ♥7, 大王…).

    One deck of 52 first; the jokers join only when more than 52 lots are needed; past
    54, further decks are added with their number as a superscript (``♠A²``).
    """
    if n < 0 or n > 54 * MAX_DECKS:
        raise FormatError("too-many-lots", lots=n, limit=54 * MAX_DECKS)
    pool: list[str] = list(DECK)
    if n > len(DECK):
        pool += JOKERS
    deck = 2
    while len(pool) < n:
        pool += [c + SUPERSCRIPTS[deck] for c in (*DECK, *JOKERS)]
        deck += 1
    return rng.sample(pool, n)


def card_colour(card: str) -> str:
    """``red`` or ``black`` (jokers: 大王 red, 小王 black), for same-rank-and-colour pairing."""
    if card.startswith(JOKERS[0]):
        return "red"
    if card.startswith(JOKERS[1]):
        return "black"
    return "red" if card[0] in "♥♦" else "black"
