"""Running it twice (or three times): when every player left is all-in before the last card,
the players may agree to deal the rest of the hand two or three times and split every pot
between the runs.

Pure functions of public numbers: whether a game can run more than once at all
(``runs_refusal``), how many runs the cards left allow (``most_runs``), and how a pot divides
between the runs (``run_shares``). The hand (``engine.hand``) offers the runs, collects every
all-in player's choice and deals each run from the same remaining cards, without reshuffling:
the first run as the hand would, each later one from the cards after it. In the redraw games
each later run's board cards come off the pool, and the pool left is shared equally between
the runs: each run redraws by RULES.md s.3 from its own share, so every run redraws alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardroom.cards import DECK_SIZE, Card
from boardroom.engine.events import Event
from boardroom.engine.showdown import PotResult
from boardroom.rules.runs import runs_refusal
from boardroom.rules.spec import Street, Variant

__all__ = ["MOST_RUNS", "Run", "most_runs", "run_needs", "run_pool", "run_shares",
           "runs_refusal"]

Seat = int
MOST_RUNS = 3


@dataclass(frozen=True, slots=True)
class Run:
    """One run of the rest of a hand: its boards, the cards each live seat got in it
    (redraws), its burns, and its share of every pot as settled."""

    number: int  # 1-based
    boards: tuple[tuple[str, tuple[Card, ...]], ...]  # each board, whole
    dealt: tuple[tuple[str, tuple[Card, ...]], ...]  # the board cards this run dealt
    cards: tuple[tuple[Seat, tuple[Card, ...]], ...]  # each live seat's cards dealt in it
    burns: tuple[Card | None, ...]
    results: tuple[PotResult, ...]
    deals: tuple[Event, ...] = ()  # a later run's deals in order (board cards, redraws, burns)


def run_needs(variant: Variant, streets: Sequence[Street], boards_dealt: int) -> tuple[int, int]:
    """The board cards and burns one run of ``streets`` (the streets still to deal) needs."""
    board_cards = variant.board_card_count - boards_dealt
    burns = sum(1 for street in streets if street.reveals) if variant.burns else 0
    return board_cards, burns


def most_runs(variant: Variant, streets: Sequence[Street], *, boards_dealt: int,
              cards_used: int, pool: int | None) -> tuple[int, str]:
    """How many runs (1 to 3) the cards left can deal, and, when fewer than 3, why not.

    Without redraws a run needs its board cards and burns from the stub (``cards_used``: every
    card out of the deck so far). With redraws the first run takes the boards set aside and
    every later run takes its board cards off the pool; what the pool keeps is then shared
    equally between the runs (``run_pool``), so every run redraws alike.
    """
    board_cards, burns = run_needs(variant, streets, boards_dealt)
    if pool is None:
        stub = DECK_SIZE - cards_used
        each = board_cards + burns
        most = max(1, min(MOST_RUNS, stub // each)) if each else 1
        return most, (f"the {stub} cards left cannot deal the rest {most + 1} times"
                      if most < MOST_RUNS else "")
    most = max(1, min(MOST_RUNS, pool // board_cards + 1)) if board_cards else MOST_RUNS
    return most, (f"the pool of {pool} cards cannot deal the boards {most + 1} times"
                  if most < MOST_RUNS else "")


def run_pool(pool: int, board_cards: int, runs: int) -> int:
    """Each run's redraw pool when ``runs`` runs share a pool of ``pool`` cards, each run after
    the first taking ``board_cards`` off it first: an equal share, the odd cards unused."""
    return (pool - (runs - 1) * board_cards) // runs


def run_shares(amount: int, runs: int) -> list[int]:
    """A pot's chips for each run: equal shares, the first runs taking one chip more when the
    pot does not divide (each run then pays its share by the usual rules, odd chips included)."""
    share, odd = divmod(amount, runs)
    return [share + (1 if k < odd else 0) for k in range(runs)]
