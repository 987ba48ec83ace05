"""Cards, their notation, and the deck.

A card is a plain ``int`` from 0 to 51: ``rank * 4 + suit``, ranks ``23456789TJQKA`` (0 to 12)
and suits ``cdhs`` (0 to 3). The numbering is the one phevaluator uses, so test oracles take our
cards as they are. Plain ints keep the evaluators fast; ``Card`` names the meaning for readers.

Notation (RULES.md section 1): ``As Td 7c``; ``10`` is accepted for ``T``, suits are
case-insensitive, and the spaces between cards are optional (``AsKd``).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeAlias

Card: TypeAlias = int
"""A card: ``rank * 4 + suit`` (0 = 2c, 51 = As)."""

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)
DECK_SIZE = 52

_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(ValueError):
    """Base of every error about card notation or card sets."""


class InvalidCardError(CardError):
    """A token that is not a card, such as ``1s``, ``Ax`` or ``Kdd``."""


class DuplicateCardError(CardError):
    """The same card appears twice where every card must be distinct."""


def rank_of(card: Card) -> int:
    """The rank index, 0 (deuce) to 12 (ace)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit index, 0 (clubs) to 3 (spades)."""
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank index (0 to 12) and a suit index (0 to 3)."""
    if not 0 <= rank < 13 or not 0 <= suit < 4:
        raise InvalidCardError(f"no card has rank index {rank} and suit index {suit}")
    return rank * 4 + suit


def parse_card(token: str) -> Card:
    """Parse one card such as ``As``, ``td`` or ``10h``."""
    match = _TOKEN.fullmatch(token.strip())
    if match is None:
        raise InvalidCardError(f"{token!r} is not a card (expected a rank of "
                               f"{RANKS} or 10 followed by a suit of {SUITS}, e.g. 'As')")
    rank_text, suit_text = match.groups()
    rank = 8 if rank_text == "10" else RANKS.index(rank_text.upper())
    return rank * 4 + SUITS.index(suit_text.lower())


def _tokens(text: str) -> list[str]:
    """Split ``'AsKd 10h'`` into ``['As', 'Kd', '10h']``; a bad stretch stays one token."""
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        position = 0
        while position < len(chunk):
            match = _TOKEN.match(chunk, position)
            if match is None:
                # Name the whole unreadable rest of the chunk, not one character of it.
                tokens.append(chunk[position:])
                break
            tokens.append(match.group(0))
            position = match.end()
    return tokens


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Parse cards written as ``'As Td 7c'``, ``'AsTd7c'`` or a list of tokens.

    Raises ``InvalidCardError`` naming the first bad token and ``DuplicateCardError`` naming
    the first repeated card.
    """
    tokens = _tokens(text) if isinstance(text, str) else [t for item in text for t in _tokens(item)]
    cards = tuple(parse_card(token) for token in tokens)
    if not allow_duplicates:
        check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise ``DuplicateCardError`` if a card repeats."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {format_card(card)} appears more than once")
        seen.add(card)


def format_card(card: Card) -> str:
    """``'As'`` for the ace of spades."""
    if not 0 <= card < DECK_SIZE:
        raise InvalidCardError(f"{card} is not a card number (0 to 51)")
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[Card]) -> str:
    """``'As Td 7c'``."""
    return " ".join(format_card(card) for card in cards)


class RandomSource(Protocol):
    """What a shuffle needs: ``secrets.SystemRandom`` in play, a seeded ``Random`` in tests."""

    def shuffle(self, x: list[Card], /) -> None: ...


def new_deck() -> list[Card]:
    """All 52 cards in order, 2c first."""
    return list(range(DECK_SIZE))


def shuffled_deck(rng: RandomSource | None = None) -> list[Card]:
    """A shuffled deck; the default generator is cryptographically strong (RULES.md section 1)."""
    deck = new_deck()
    (rng if rng is not None else secrets.SystemRandom()).shuffle(deck)
    return deck


def remaining_cards(used: Sequence[Card] | set[Card]) -> list[Card]:
    """The cards of the deck not in ``used``, in deck order."""
    taken = set(used)
    return [card for card in range(DECK_SIZE) if card not in taken]
