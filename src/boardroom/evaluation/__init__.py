"""Every hand ranking and construction of Boardroom, with a scalar and a numpy batch path.

Strengths are ints, higher is better, comparable only within one ranking; equal hands have
equal strengths (suits never break ties). The scalar path (``scalar``) and the batch path
(``batch``) return the same numbers:

- ``HIGH``: 1 to 7462, where 7462 is a royal flush and 1 is 7-5-4-3-2 offsuit; exactly
  ``7463 - phevaluator rank`` (the Cactus Kev order of the 7,462 classes).
- ``ESG_LOW`` (RULES.md section 3): 1 to 1278 over the qualifying lows (five ranks, not one
  suit, not five in a row, ace always high), 1278 = 7-5-4-3-2, 1 = A-K-Q-J-9; A-5-4-3-2 is an
  ace-high low just better than A-6-4-3-2.
- ``LOW8`` (A-5 eight or better, RULES.md section 4): 1 to 56, 56 = 5-4-3-2-A, 1 = 8-7-6-5-4.
- ``THREE_CARD`` (Allocator Redraw): 1 to 741, 741 = Royal (A-K-Q suited), then trips,
  straight flushes, straights (A-2-3 lowest), flushes, pairs, high cards (1 = 5-3-2).
- ``TWO_CARD`` (Allocator): 1 to 91, 91 = A-A, 79 = 2-2, 78 = A-K, 1 = 3-2.
- ``DEUCE_SEVEN`` (2-7 lowball, the draw): 1 to 7462, 7462 = 7-5-4-3-2 not of one suit, 1 =
  a royal flush; pairs, straights and flushes count against, the ace is high (A-5-4-3-2 is an
  ace-high hand, not a straight).
- ``A5_LOW`` (razz): 1 to 6175, 6175 = 5-4-3-2-A, 1 = K-K-K-K-Q; the ace is low, pairs count,
  straights and flushes do not; best 5 of 5 to 7 cards.
- ``BADUGI``: 1 to 1092, 1092 = 4-3-2-A of four suits, 1 = a lone king; the most cards of
  distinct ranks and suits, then the lowest (ace low). A hand may play 1 to 4 of its cards.

No qualifying low: ``None`` from the hand functions, ``0`` from the scalar and batch ones.
"""

from boardroom.evaluation._tables import warm_up
from boardroom.evaluation.construction import Construction
from boardroom.evaluation.constructions import (
    holdem,
    hole_only,
    omaha,
    tilt_board,
    tilt_diagonal,
    tree,
)
from boardroom.evaluation.hands import best_of, evaluate
from boardroom.evaluation.nuts import (
    ALL_CARDS,
    HOLDING_CONSTRUCTIONS,
    Holdings,
    best_holding,
    card_mask,
    holdings,
    is_nuts,
    nuts,
)
from boardroom.evaluation.values import EvaluationError, HandValue, Ranking, describe

__all__ = [
    "ALL_CARDS",
    "HOLDING_CONSTRUCTIONS",
    "Construction",
    "EvaluationError",
    "HandValue",
    "Holdings",
    "Ranking",
    "best_holding",
    "best_of",
    "card_mask",
    "describe",
    "evaluate",
    "holdem",
    "holdings",
    "hole_only",
    "is_nuts",
    "nuts",
    "omaha",
    "tilt_board",
    "tilt_diagonal",
    "tree",
    "warm_up",
]
