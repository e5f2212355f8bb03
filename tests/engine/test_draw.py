"""The published draw procedure: commitment, labelled streams, card lots."""

from __future__ import annotations

import hashlib
import random

from hypothesis import given
from hypothesis import strategies as st

from engine.draw import DECK, JOKERS, card_colour, card_lots, commitment, flip_order, stream


def test_commitment_is_sha256_hex_of_utf8_seed() -> None:
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment("种子") == hashlib.sha256("种子".encode()).hexdigest()


def test_stream_is_the_documented_mersenne_twister_seed() -> None:
    digest = hashlib.sha256(b"s33d:round1").hexdigest()
    expected = random.Random(int(digest, 16))
    got = stream("s33d", "round1")
    assert [got.random() for _ in range(5)] == [expected.random() for _ in range(5)]


@given(st.text(min_size=1), st.text(min_size=1))
def test_same_seed_and_label_replay_the_same_draw(seed: str, label: str) -> None:
    a, b = list(range(30)), list(range(30))
    stream(seed, label).shuffle(a)
    stream(seed, label).shuffle(b)
    assert a == b


def test_different_labels_give_independent_draws() -> None:
    firsts = {stream("seed", f"round{i}").random() for i in range(200)}
    assert len(firsts) == 200
    # independence in the sense that matters: round 2's draw does not follow from round 1's
    a, b = list(range(16)), list(range(16))
    stream("seed", "round1").shuffle(a)
    stream("seed", "round2").shuffle(b)
    assert a != b


def test_card_lots_are_distinct_cards_from_one_deck_before_jokers() -> None:
    lots = card_lots(52, random.Random(1))
    assert sorted(lots) == sorted(DECK)
    assert not set(JOKERS) & set(card_lots(52, random.Random(2)))
    assert set(JOKERS) <= set(card_lots(54, random.Random(3)))


def test_card_lots_beyond_one_deck_are_marked_with_the_deck_number() -> None:
    lots = card_lots(120, random.Random(4))
    assert len(set(lots)) == 120
    assert any(lot.endswith("²") for lot in lots)


def test_card_colour_pairs_diamonds_with_hearts_and_clubs_with_spades() -> None:
    assert card_colour("♦A") == card_colour("♥A") == "red"
    assert card_colour("♣A") == card_colour("♠A") == "black"
    assert card_colour("大王") == "red"


def test_flip_does_not_depend_on_the_order_players_are_given() -> None:
    assert flip_order([3, 1, 2], "s", "x") == flip_order([2, 3, 1], "s", "x")
    assert sorted(flip_order([3, 1, 2], "s", "x").values()) == [1, 2, 3]
