"""Where a hand's cards come from: a shuffled deck, or the cards a history says were dealt.

The engine asks its card source for hole cards seat by seat, board cards board by board, and a
burn card before each community deal of the classic Omaha games (RULES.md s.1). A ``Deck``
answers from a shuffled deck: the provably fair deck of a hand's seeds (``boardroom.fairness``,
as the table deals), ``secrets``, or an injected generator in tests; a ``ScriptedCards``
answers from a history, so a hand replays without a deck order.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from boardroom import fairness
from boardroom.cards import Card, RandomSource, format_cards, new_deck, shuffled_deck

Seat = int


class DealError(ValueError):
    """The card source cannot give the cards the hand needs."""


class CardSource(Protocol):
    def hole(self, seat: Seat, count: int) -> tuple[Card, ...]: ...

    def board(self, board: str, count: int) -> tuple[Card, ...]: ...

    def burn(self) -> Card | None: ...

    def set_aside(self, count: int) -> None: ...

    def recycle(self, cards: Sequence[Card]) -> None: ...

    def shuffle_pool(self) -> None: ...

    def redraw(self, seat: Seat, count: int) -> tuple[Card, ...]: ...

    def draw(self, seat: Seat, count: int) -> tuple[Card, ...]: ...

    def discard(self, cards: Sequence[Card]) -> None: ...

    def run_source(self, run: int, board_cards: int) -> CardSource: ...


class Deck:
    """Cards off the top of a deck, in order; after ``set_aside``, boards and pool apart.

    With ``seeds`` the deck and every redraw shuffle come from the hand's committed seeds
    (``boardroom.fairness``), so a recovered hand continues exactly as it would have."""

    __slots__ = ("_aside", "_cards", "_discards", "_next", "_pool", "_reshuffles", "_rng",
                 "_seeds", "_shuffles")

    def __new__(cls, *args: object, **kwargs: object) -> Deck:
        """A bare instance for ``copy.deepcopy`` (as ``Hand.__new__`` says)."""
        return super().__new__(cls)

    def __init__(self, cards: Sequence[Card] | None = None, rng: RandomSource | None = None,
                 *, seeds: fairness.Seeds | None = None):
        if seeds is not None:
            cards = fairness.deck(seeds)
        self._cards = list(cards) if cards is not None else _shuffled_deck(rng)
        self._next = 0
        self._rng = rng
        self._seeds = seeds
        self._aside: deque[Card] | None = None
        self._pool: list[Card] = []
        self._shuffles = 0
        self._discards: list[Card] = []  # the draw's discards not yet shuffled back
        self._reshuffles = 0

    def _take(self, count: int) -> tuple[Card, ...]:
        end = self._next + count
        if end > len(self._cards):
            raise DealError(f"the deck has {len(self._cards) - self._next} cards left, "
                            f"{count} are needed")
        cards = tuple(self._cards[self._next:end])
        self._next = end
        return cards

    def hole(self, seat: Seat, count: int) -> tuple[Card, ...]:
        return self._take(count)

    def board(self, board: str, count: int) -> tuple[Card, ...]:
        if self._aside is not None:
            if len(self._aside) < count:
                raise DealError(f"{len(self._aside)} board cards are set aside, {count} are needed")
            return tuple(self._aside.popleft() for _ in range(count))
        return self._take(count)

    def burn(self) -> Card | None:
        return self._take(1)[0]

    def set_aside(self, count: int) -> None:
        """Put the next ``count`` cards aside for the boards; the rest of the deck is the pool."""
        self._aside = deque(self._take(count))
        self._pool = self._cards[self._next:]
        self._next = len(self._cards)

    def recycle(self, cards: Sequence[Card]) -> None:
        self._pool.extend(cards)

    def shuffle_pool(self) -> None:
        self._shuffles += 1
        if self._seeds is not None:
            # RULES.md s.3's pool, sorted, then shuffled with this distribution's stream.
            self._pool = fairness.redraw_pool(self._seeds, self._shuffles, self._pool)
        elif self._rng is not None:
            self._rng.shuffle(self._pool)
        else:
            _legacy_shuffle(self._pool, bytes(self._cards), self._shuffles)

    def redraw(self, seat: Seat, count: int) -> tuple[Card, ...]:
        if count > len(self._pool):
            raise DealError(f"the pool has {len(self._pool)} cards, {count} are needed")
        dealt = tuple(self._pool[:count])
        del self._pool[:count]
        return dealt

    def draw(self, seat: Seat, count: int) -> tuple[Card, ...]:
        """The draw: ``count`` cards off the stub; when it runs out, the discards so far (the
        drawing seat's are not among them yet: ``discard`` comes after) are shuffled to
        continue, as card rooms do."""
        left = len(self._cards) - self._next
        if count <= left:
            return self._take(count)
        first = self._take(left)
        self._reshuffles += 1
        pile, self._discards = self._discards, []
        if self._seeds is not None:
            pile = fairness.draw_reshuffle(self._seeds, self._reshuffles, pile)
        elif self._rng is not None:
            self._rng.shuffle(pile)
        else:
            _legacy_shuffle(pile, bytes(self._cards[:52]), 1000 + self._reshuffles)
        self._cards.extend(pile)
        return first + self._take(count - left)

    def discard(self, cards: Sequence[Card]) -> None:
        self._discards.extend(cards)

    def run_source(self, run: int, board_cards: int) -> CardSource:
        """Run ``run`` (2 or 3) of the rest of a hand deals on from this deck, unshuffled:
        with the boards set aside (the redraw games), its ``board_cards`` come off the pool."""
        if self._aside is not None:
            if board_cards > len(self._pool):
                raise DealError(f"the pool has {len(self._pool)} cards, a run's boards need "
                                f"{board_cards}")
            self._aside = deque(self._pool[:board_cards])
            del self._pool[:board_cards]
        return self

    @property
    def pool_size(self) -> int:
        return len(self._pool)


def _shuffled_deck(rng: RandomSource | None) -> list[Card]:
    """``cards.shuffled_deck(rng)``, the same deck; a ``random.Random`` (the tests' and the
    benchmarks' seeded generator) shuffles it with ``_shuffle`` below."""
    if rng.__class__ is not random.Random:
        return shuffled_deck(rng)
    deck = new_deck()
    _shuffle(deck, rng.getrandbits)
    return deck


def _shuffle(cards: list[Card], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle``'s own algorithm (CPython 3.11 to 3.13: Fisher-Yates from the
    end, each index drawn as ``_randbelow_with_getrandbits`` draws it), written out so that
    mypyc's build of this module (``boardroom.native``) runs it as native code: the same deck
    from the same generator state, in a fraction of the time (a test pins it to
    ``Random.shuffle``)."""
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _legacy_shuffle(cards: list[Card], secret: bytes, counter: int) -> None:
    """The redraw shuffle of hands stored before fair deals (a deck and no seeds): Fisher-Yates
    driven by SHA-256 of the deck order and a counter, kept so their histories still rebuild."""
    for i in range(len(cards) - 1, 0, -1):
        digest = hashlib.sha256(secret + counter.to_bytes(4, "big") + i.to_bytes(2, "big"))
        j = int.from_bytes(digest.digest()[:8], "big") % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


class ScriptedCards:
    """The cards a history dealt: per seat, per board, and (optionally) the burns, in order."""

    def __new__(cls, *args: object, **kwargs: object) -> ScriptedCards:
        """A bare instance for ``copy.deepcopy`` (as ``Hand.__new__`` says)."""
        return super().__new__(cls)

    def __init__(
        self,
        hole: Mapping[Seat, Iterable[Card]],
        boards: Mapping[str, Iterable[Card]],
        burns: Iterable[Card] | None = None,
    ) -> None:
        self._hole = {seat: deque(cards) for seat, cards in hole.items()}
        self._boards = {name: deque(cards) for name, cards in boards.items()}
        self._burns = deque(burns) if burns is not None else None

    def hole(self, seat: Seat, count: int) -> tuple[Card, ...]:
        queue = self._hole.get(seat, deque())
        if len(queue) < count:
            raise DealError(f"the history deals {len(queue)} more hole cards to seat {seat + 1} "
                            f"where the hand needs {count}")
        return tuple(queue.popleft() for _ in range(count))

    def board(self, board: str, count: int) -> tuple[Card, ...]:
        queue = self._boards.get(board, deque())
        if len(queue) < count:
            raise DealError(f"the history deals {len(queue)} more cards to board {board} "
                            f"where the hand needs {count}")
        return tuple(queue.popleft() for _ in range(count))

    def burn(self) -> Card | None:
        if not self._burns:
            return None
        return self._burns.popleft()

    def set_aside(self, count: int) -> None:
        """The history names every card: nothing to set aside."""

    def recycle(self, cards: Sequence[Card]) -> None:
        """The history names every redraw: the pool's order does not matter."""

    def shuffle_pool(self) -> None:
        """The history names every redraw: nothing to shuffle."""

    def redraw(self, seat: Seat, count: int) -> tuple[Card, ...]:
        """Redraws follow the seat's earlier cards in its ``d dh`` actions."""
        return self.hole(seat, count)

    def draw(self, seat: Seat, count: int) -> tuple[Card, ...]:
        """The draw's cards follow the seat's earlier cards too."""
        return self.hole(seat, count)

    def discard(self, cards: Sequence[Card]) -> None:
        """The history names every card drawn: the discards' order does not matter."""

    def run_source(self, run: int, board_cards: int) -> CardSource:
        """A later run deals on from the same queues."""
        return self

    def leftovers(self) -> str | None:
        """A description of dealt cards the hand never used, or None when all were used."""
        rest = [f"seat {seat + 1}: {format_cards(q)}" for seat, q in self._hole.items() if q]
        rest += [f"board {name}: {format_cards(q)}" for name, q in self._boards.items() if q]
        return "; ".join(rest) or None
