"""Stud's acting order: who brings it in, and the best hand showing (RULES.md section 5).

Bring-in by the highest up card (seed 004; suits for ties spades > hearts > clubs > diamonds) or,
as the room's option, by the lowest up card. For the lowest card ties are broken in bridge order,
clubs lowest, then diamonds, hearts, spades: the common rule, and the order PokerKit uses
(``pokerkit.utilities.Suit`` is ordered c < d < h < s and its ``LOW_CARD`` opening takes the
minimum by (rank, suit)). Later streets open with the best hand showing: quads, trips, two pair,
pair, high card, by ranks (straights and flushes do not count, suits never break the tie); the
first such seat clockwise from the button's left acts first.

Razz (A-5 low) turns both around, as card rooms and PokerKit do: the highest up card brings in
with the ace low (a king brings in, ties by suit in bridge order, spades highest), and later
streets open with the lowest hand showing (pairs count against it, the ace is low).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from boardroom.cards import Card
from boardroom.rules.spec import BringIn

Seat = int

# Suit index (c, d, h, s) -> tie-break strength for the highest-card bring-in: s > h > c > d.
_HIGH_SUIT_ORDER = (1, 0, 2, 3)


def bring_in_key(card: Card, rule: BringIn) -> tuple[int, int]:
    """Larger key = pays the bring-in. ``card`` is the seat's up card on third street."""
    rank, suit = card >> 2, card & 3
    if rule is BringIn.HIGHEST:
        return rank, _HIGH_SUIT_ORDER[suit]
    if rule is BringIn.HIGHEST_ACE_LOW:
        return (rank + 1) % 13, suit
    return -rank, -suit  # lowest rank, then clubs < diamonds < hearts < spades


# Every card's ``bring_in_key`` under each rule, looked up by card number.
_BRING_IN_KEYS = {rule: tuple(bring_in_key(card, rule) for card in range(52)) for rule in BringIn}


def bring_in_seat(
    up_cards: Sequence[tuple[Seat, Card]], rule: BringIn, stacks: Sequence[int] | None = None
) -> Seat:
    """The seat that pays the bring-in, from each live seat's third-street up card (listed
    clockwise). With ``stacks`` (chips behind, by seat): if the card that brings in belongs to
    a seat all-in on its ante, the bring-in falls to the next listed seat clockwise that has
    chips (RULES.md s.5), not to the next card in bring-in order."""
    keys = _BRING_IN_KEYS[rule]
    index, top = 0, keys[up_cards[0][1]]
    for k in range(1, len(up_cards)):  # a loop over a table, not max() with a key function:
        key = keys[up_cards[k][1]]       # asked at every stud hand's third street
        if key > top:
            index, top = k, key
    if stacks is not None:
        for k in range(len(up_cards)):
            seat = up_cards[(index + k) % len(up_cards)][0]
            if stacks[seat] > 0:
                return seat
    return up_cards[index][0]


def showing_strength(up: Sequence[Card], *, ace_low: bool = False,
                     ) -> tuple[int, tuple[int, ...]]:
    """The strength of the cards showing as a high hand: (shape, ranks by count then rank),
    larger is better; ``ace_low`` reads the ace as the lowest rank."""
    return _rank_strength(_sorted_ranks(up, ace_low))


def _sorted_ranks(up: Sequence[Card], ace_low: bool) -> tuple[int, ...]:
    """The ranks of ``up``, lowest first (``ace_low``: the ace below the deuce)."""
    return tuple(sorted(((card >> 2) + 1) % 13 if ace_low else card >> 2 for card in up))


@functools.cache
def _rank_strength(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """``showing_strength`` of sorted ranks: it depends on the ranks alone, and stud shows at
    most four up cards when a round opens (a few thousand rank multisets), so each is worked out
    once (the opener is asked on every street of every stud hand)."""
    counts = Counter(ranks)
    ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape_counts = sorted(counts.values(), reverse=True)
    if shape_counts[0] == 4:
        shape = 4
    elif shape_counts[0] == 3:
        shape = 3
    elif shape_counts[0] == 2:
        shape = 2 if len(shape_counts) > 1 and shape_counts[1] == 2 else 1
    else:
        shape = 0
    return shape, tuple(rank for rank, _ in ordered)


@functools.cache
def _opening_key(ranks: tuple[int, ...], low: bool) -> tuple[int, tuple[int, ...]]:
    """The key ``best_showing_seat`` maximises: the strength, negated for the lowest hand."""
    shape, ordered = _rank_strength(ranks)
    if not low:
        return shape, ordered
    return -shape, tuple(-rank for rank in ordered)


def best_showing_seat(showing: Sequence[tuple[Seat, Sequence[Card]]], *,
                      low: bool = False) -> Seat:
    """The seat with the best hand showing (``low``: the lowest, as a razz hand with the ace
    low); ties go to the first listed (clockwise order)."""
    return best_showing_ranks([(seat, tuple([card >> 2 for card in up])) for seat, up in showing],
                              low=low)


def best_showing_ranks(showing: Sequence[tuple[Seat, tuple[int, ...]]], *,
                       low: bool = False) -> Seat:
    """``best_showing_seat`` of each seat's up cards' ranks (``card >> 2``, in any order)."""
    best_seat, best = showing[0][0], None
    for seat, ranks in showing:
        strength = showing_key(ranks, low)
        if best is None or strength > best:
            best_seat, best = seat, strength
    return best_seat


@functools.cache
def showing_key(ranks: tuple[int, ...], low: bool) -> tuple[int, tuple[int, ...]]:
    """``_opening_key`` of up cards' ranks in any order (0 = deuce .. 12 = ace): at most
    13**4 orders of four up cards, so each is sorted and scored once."""
    ordered = tuple(sorted((rank + 1) % 13 if low else rank for rank in ranks))
    return _opening_key(ordered, low)
