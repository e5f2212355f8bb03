"""Properties every game's report grammar must have.

For each game: zero-sum where the game is zero-sum; relabelling seats relabels scores;
formatting a report and parsing it back is the identity; random text (10,000 strings per
game, plus hypothesis' own) raises nothing but ``ReportError``.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.games import GAMES, find_game
from engine.games.base import Game
from engine.model import SEAT_LETTERS

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def bigtwo_hand(draw: st.DrawFn, seats: int = 4, any2: bool = False) -> str:
    winner = draw(st.integers(0, seats - 1))
    cards = [0 if i == winner else draw(st.integers(1, 13)) for i in range(seats)]
    losers = [i for i in range(seats) if i != winner]
    if any2:
        twos = set(draw(st.lists(st.sampled_from(losers), unique=True)))
    else:
        twos = set(draw(st.lists(st.sampled_from(losers), max_size=1)))
    return " ".join(f"{SEAT_LETTERS[i]}{n}{'s' if i in twos else ''}" for i, n in enumerate(cards))


@st.composite
def doudizhu_hand(draw: st.DrawFn) -> str:
    landlord = draw(st.integers(0, 2))
    won = draw(st.booleans())
    farmers = [i for i in range(3) if i != landlord]
    doubled = draw(st.lists(st.sampled_from(farmers), unique=True))
    parts = [SEAT_LETTERS[landlord], f"bid{draw(st.integers(1, 3))}"]
    parts.append(f"bombs{draw(st.integers(0, 13))}")
    if draw(st.booleans()):
        parts.append("rocket")
    parts.append("win" if won else "lose")
    if draw(st.booleans()):
        parts.append("spring" if won else "antispring")
    parts.extend(f"double{SEAT_LETTERS[s]}" for s in doubled)
    if doubled and draw(st.booleans()):
        parts.append("redouble")
    return " ".join(draw(st.permutations(parts)))


@st.composite
def doudizhu4_hand(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        pair = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
        return "decline " + " ".join(SEAT_LETTERS[s] for s in pair)
    flags = " open" if draw(st.booleans()) else ""
    result = draw(st.sampled_from(["win", "lose"]))
    return f"{SEAT_LETTERS[draw(st.integers(0, 3))]} {result}{flags}"


@st.composite
def guandan_hand(draw: st.DrawFn) -> str:
    order = draw(st.permutations(range(4)))
    cut = draw(st.integers(order.index((order[0] + 2) % 4) + 1, 4))
    return " ".join(SEAT_LETTERS[s] for s in order[:cut])


@st.composite
def shengji_hand(draw: st.DrawFn) -> str:
    kitty = draw(st.integers(0, 16)) * 5
    points = draw(st.integers(0, (200 - kitty) // 5)) * 5
    text = f"{SEAT_LETTERS[draw(st.integers(0, 3))]} pts{points}"
    if kitty:
        text += f" kitty{kitty}x{draw(st.sampled_from([2, 4, 8, 16, 32]))}"
    return text


@st.composite
def paodekuai_hand(draw: st.DrawFn) -> str:
    winner = draw(st.integers(0, 2))
    return " ".join(
        f"{SEAT_LETTERS[i]}{0 if i == winner else draw(st.integers(1, 16))}" for i in range(3)
    )


def two_player_hand() -> st.SearchStrategy[str]:
    return st.sampled_from(["1-0", "0-1", "0.5-0.5"])


def swap_result(text: str, perm: tuple[int, ...]) -> str:
    if perm == (0, 1):
        return text
    return "; ".join("-".join(reversed(h.split("-"))) for h in text.split("; "))


def letters(text: str, perm: tuple[int, ...]) -> str:
    table = {ord(SEAT_LETTERS[i]): SEAT_LETTERS[p] for i, p in enumerate(perm)}
    return text.translate(table)


ALL4 = tuple(itertools.permutations(range(4)))
KEEP_SIDES = tuple(p for p in ALL4 if all((p[i] - p[(i + 2) % 4]) % 2 == 0 for i in range(4)))


@dataclass(frozen=True)
class Case:
    """A game under one set of knobs, how to draw its hands and how to relabel them."""

    name: str
    options: dict[str, str]
    seats: int
    hand: Callable[[], st.SearchStrategy[str]]
    perms: tuple[tuple[int, ...], ...]
    relabel: Callable[[str, tuple[int, ...]], str] = letters

    def game(self) -> Game:  # type: ignore[type-arg]
        return find_game(self.name)(self.options)


CASES = [
    Case("bigtwo", {}, 4, bigtwo_hand, ALL4),
    Case("bigtwo", {"settle": "winner", "spade2": "any2"}, 4, lambda: bigtwo_hand(any2=True), ALL4),
    Case("bigtwo", {}, 3, lambda: bigtwo_hand(3), tuple(itertools.permutations(range(3)))),
    Case("doudizhu", {"doubling": "on"}, 3, doudizhu_hand, tuple(itertools.permutations(range(3)))),
    Case(
        "doudizhu",
        {"doubling": "on", "scoring": "points", "cap": "16"},
        3,
        doudizhu_hand,
        tuple(itertools.permutations(range(3))),
    ),
    Case(
        "doudizhu",
        {"doubling": "on", "scoring": "chips"},
        3,
        doudizhu_hand,
        tuple(itertools.permutations(range(3))),
    ),
    Case("doudizhu4", {}, 4, doudizhu4_hand, ALL4),
    Case("guandan", {}, 4, guandan_hand, KEEP_SIDES),
    Case("guandan", {"upgrade": "5/3/1"}, 4, guandan_hand, KEEP_SIDES),
    Case("shengji", {}, 4, shengji_hand, KEEP_SIDES),
    Case("shengji", {"climb": "every40"}, 4, shengji_hand, KEEP_SIDES),
    Case("xiangqi", {}, 2, two_player_hand, ((0, 1), (1, 0)), swap_result),
    Case("gomoku", {"points": "2/1/0"}, 2, two_player_hand, ((0, 1), (1, 0)), swap_result),
    Case("junqi", {}, 2, two_player_hand, ((0, 1), (1, 0)), swap_result),
    Case("paodekuai", {}, 3, paodekuai_hand, tuple(itertools.permutations(range(3)))),
]
IDS = [f"{c.name}-{c.seats}-{'-'.join(c.options.values()) or 'default'}" for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reports_are_zero_sum_relabel_with_seats_and_round_trip(case: Case) -> None:
    """One hypothesis run per game checks the four report properties together (speed)."""
    game = case.game()

    @FAST
    @given(
        st.lists(case.hand(), min_size=1, max_size=3).map("; ".join), st.sampled_from(case.perms)
    )
    def check(text: str, perm: tuple[int, ...]) -> None:
        outcome = game.parse(text, case.seats)
        assert len(outcome.per_hand) == outcome.hands
        # zero-sum where the game is
        if game.is_zero_sum():
            assert all(sum(hand) == 0 for hand in outcome.per_hand)
        # formatting and parsing back is the identity
        assert game.parse(outcome.text, case.seats) == outcome
        # relabelling seats relabels scores
        moved = game.parse(case.relabel(outcome.text, perm), case.seats).scores
        assert all(moved[perm[i]] == outcome.scores[i] for i in range(case.seats))
        # the ``total`` form of the same scores is accepted and gives them back
        total = " ".join(f"{SEAT_LETTERS[i]}{s:+}" for i, s in enumerate(outcome.scores))
        assert game.parse(f"total {total}", case.seats).scores == outcome.scores

    check()


WORD_TEXT = (
    "A B C D E a b 东 南 西 北 0 1 2 3 5 8 9 10 12 13 14 20 85 200 999 s S ♠ - + . ½ : x × "
    "bid bid3 叫 叫3 bombs bombs1 炸 rocket 火箭 win lose 胜 负 和 spring 春天 antispring 反春 "
    "double doubleA 加倍 redouble open 明牌 decline 不叫 pts pts85 分 kitty kitty20x2 底 庄 "
    "total 总分 landlord 地主 dealer 1-0 0-1 0.5-0.5 ; ； \n , ， 、 \t 🂡 \x00 \u200b ٣ １"
)
VOCABULARY = WORD_TEXT.split(" ")


def random_text(rng: random.Random) -> str:
    pieces = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 8))]
    glue = rng.choice(["", " ", " ", ";"])
    return glue.join(pieces)


@pytest.mark.parametrize("game_type", GAMES, ids=[g.key for g in GAMES])
def test_ten_thousand_random_strings_raise_only_report_errors(game_type: type) -> None:
    game = game_type({"doubling": "on"} if game_type.key == "doudizhu" else None)
    rng = random.Random(game_type.key)
    parsed = 0
    for n in range(10_000):
        text = random_text(rng)
        seats = game_type.seat_counts[0] if n % 10 else rng.randint(0, 6)
        try:
            outcome = game.parse(text, seats)
        except ReportError:
            continue
        parsed += 1
        assert all(isinstance(s, Decimal) for s in outcome.scores)
    assert parsed < 10_000


@pytest.mark.parametrize("game_type", GAMES, ids=[g.key for g in GAMES])
def test_arbitrary_unicode_raises_only_report_errors(game_type: type) -> None:
    game = game_type()

    @FAST
    @given(st.text(max_size=40), st.sampled_from(game_type.seat_counts))
    def check(text: str, seats: int) -> None:
        with contextlib.suppress(ReportError):
            game.parse(text, seats)

    check()
