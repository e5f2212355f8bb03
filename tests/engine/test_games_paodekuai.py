"""Run Fast 跑得快: the worked example, 关门, the refusals, and hypothesis properties."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.games import find_game
from engine.games.paodekuai import DEAL, PaoDeKuai
from engine.model import SEAT_LETTERS


def pts(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def test_worked_example_a0_b5_c16_scores_37_minus5_minus32() -> None:
    outcome = PaoDeKuai().parse("A0 B5 C16", 3)
    assert outcome.scores == pts(37, -5, -32)
    assert outcome.text == "A0 B5 C16"


def test_a_loser_who_played_cards_pays_one_a_card_and_a_shut_in_loser_double() -> None:
    assert PaoDeKuai().parse("A3 B0 C15", 3).scores == pts(-3, 18, -15)
    assert PaoDeKuai().parse("A16 B16 C0", 3).scores == pts(-32, -32, 64)


def test_every_name_finds_it_and_it_seats_three() -> None:
    for name in ("paodekuai", "跑得快", "跑的快", "Run Fast"):
        assert find_game(name) is PaoDeKuai
    assert PaoDeKuai.seat_counts == (3,)


def test_several_hands_add_up_and_winds_name_seats() -> None:
    outcome = PaoDeKuai().parse("A0 B5 C16; 东4 南0 西2", 3)
    assert outcome.scores == pts(37 - 4, -5 + 6, -32 - 2)
    assert outcome.hands == 2


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A0 B0 C5", "two-winners"),
        ("A1 B5 C16", "no-winner"),
        ("A0 B5 C17", "too-many-cards"),
        ("A0 B5", "seat-missing"),
        ("A0 A5 C16", "seat-twice"),
        ("A0 B5 D16", "unknown-seat"),
        ("A0 B5 Cx", "bad-token"),
        ("A0 B5s C16", "bad-token"),
        ("", "empty-report"),
        ("total A+1 B-2 C0", "not-zero-sum"),
    ],
)
def test_impossible_reports_are_refused_like_big_twos(text: str, code: str) -> None:
    with pytest.raises(ReportError) as err:
        PaoDeKuai().parse(text, 3)
    assert err.value.code == code


def test_a_four_seat_table_is_refused() -> None:
    with pytest.raises(ReportError) as err:
        PaoDeKuai().parse("A0 B5 C16 D1", 4)
    assert err.value.code == "bad-table-size"


@st.composite
def hand(draw: st.DrawFn) -> tuple[int, ...]:
    winner = draw(st.integers(0, 2))
    return tuple(0 if i == winner else draw(st.integers(1, DEAL)) for i in range(3))


@settings(max_examples=200, deadline=None)
@given(st.lists(hand(), min_size=1, max_size=4))
def test_hands_are_zero_sum_the_winner_collects_and_text_round_trips(
    hands: list[tuple[int, ...]],
) -> None:
    game = PaoDeKuai()
    text = "; ".join(" ".join(f"{SEAT_LETTERS[i]}{n}" for i, n in enumerate(h)) for h in hands)
    outcome = game.parse(text, 3)
    assert sum(outcome.scores) == 0
    for cards, scores in zip(hands, outcome.per_hand, strict=True):
        winner = cards.index(0)
        assert scores[winner] == max(scores) > 0
        for seat, left in enumerate(cards):
            if seat != winner:
                assert scores[seat] == -(2 * left if left == DEAL else left)
    assert game.parse(outcome.text, 3) == outcome


@settings(max_examples=100, deadline=None)
@given(hand(), st.permutations(range(3)))
def test_relabelling_seats_relabels_scores(cards: tuple[int, ...], perm: list[int]) -> None:
    game = PaoDeKuai()
    moved = [0] * 3
    for i, p in enumerate(perm):
        moved[p] = cards[i]
    text = " ".join(f"{SEAT_LETTERS[i]}{n}" for i, n in enumerate(cards))
    moved_text = " ".join(f"{SEAT_LETTERS[i]}{n}" for i, n in enumerate(moved))
    before, after = game.parse(text, 3).scores, game.parse(moved_text, 3).scores
    assert all(after[perm[i]] == before[i] for i in range(3))


def test_shut_in_knob_off_pays_sixteen_like_any_count() -> None:
    assert PaoDeKuai({"shutin": "off"}).parse("A0 B5 C16", 3).scores == pts(21, -5, -16)
