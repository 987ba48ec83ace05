"""Card notation and the deck (RULES.md section 1)."""

from __future__ import annotations

import random

import pytest

from boardroom.cards import (
    DuplicateCardError,
    InvalidCardError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    shuffled_deck,
    suit_of,
)


def test_numbering_matches_phevaluator_ids() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("As") == 51
    assert rank_of(parse_card("Td")) == 8
    assert suit_of(parse_card("Td")) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Td 7c", "As Td 7c"),
        ("AsTd7c", "As Td 7c"),
        ("as TD 7C", "As Td 7c"),
        ("10h 10s", "Th Ts"),
        ("10h10s", "Th Ts"),
        ("Ah, Kh,Qh", "Ah Kh Qh"),
        ("", ""),
    ],
)
def test_parse_and_format_round_trip(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_every_card_round_trips() -> None:
    for card in range(52):
        assert parse_card(format_card(card)) == card


@pytest.mark.parametrize("bad", ["1s", "Ax", "As Kx", "Kdd", "11h", "A", "Zz", "As 1"])
def test_unknown_card_names_the_bad_token(bad: str) -> None:
    with pytest.raises(InvalidCardError) as error:
        parse_cards(bad)
    culprit = {"As Kx": "Kx", "Kdd": "d", "11h": "11h", "As 1": "1"}.get(bad, bad)
    assert repr(culprit) in str(error.value)


def test_duplicate_card_is_named() -> None:
    with pytest.raises(DuplicateCardError, match="As appears more than once"):
        parse_cards("As Kd as")
    assert parse_cards("As as", allow_duplicates=True) == (51, 51)


def test_format_rejects_numbers_outside_the_deck() -> None:
    with pytest.raises(InvalidCardError, match="52"):
        format_card(52)


def test_shuffle_uses_the_injected_generator() -> None:
    first = shuffled_deck(random.Random(7))
    assert first == shuffled_deck(random.Random(7))
    assert sorted(first) == list(range(52))
    assert first != list(range(52))


def test_default_shuffle_is_a_permutation() -> None:
    assert sorted(shuffled_deck()) == list(range(52))
