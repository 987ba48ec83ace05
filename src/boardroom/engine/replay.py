"""The one replayer: a hand played again, action after action, from its record.

A hand's record is its setup, its cards and its actions (DESIGN.md: every hand replays exactly).
Both records replay here: the table's stored hand (``Table.hand_record``: dealt again from its
committed deck) and a hand history (``engine.history``: dealt from the cards it writes out).
Each gives the hand it built and its ``(seat, action)`` steps; a step the hand refuses stops the
replay with a ``ReplayError`` saying which step, whose, and why, which each caller words in its
own terms (a history names the line and the player; the table its seat numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from boardroom.engine.actions import Action
from boardroom.engine.errors import ActionError, NotYourTurnError
from boardroom.engine.hand import Hand

Seat = int
Step = tuple[Seat, Action]


class ReplayError(ValueError):
    """A step of a replay the hand refuses: ``index`` (0-based), its ``seat`` and ``action``,
    and why (``reason``, the engine's words; ``out_of_turn`` when another seat was to act or
    nobody was, ``over`` when the hand had already ended)."""

    def __init__(self, index: int, seat: Seat | None, action: Action | None, reason: str, *,
                 out_of_turn: bool = False, over: bool = False) -> None:
        super().__init__(reason)
        self.index, self.seat, self.action, self.reason = index, seat, action, reason
        self.out_of_turn, self.over = out_of_turn, over


def replay(hand: Hand, steps: Iterable[Step], *,
           before: Callable[[int, Seat, Action], None] | None = None,
           to_the_end: bool = False) -> Hand:
    """Apply ``steps`` to ``hand`` in order and return it. ``before(index, seat, action)`` runs
    before each step (a history's card source opens the step's dealing window there);
    ``to_the_end``: the steps must finish the hand. Raises ``ReplayError``."""
    count = 0
    for index, (seat, action) in enumerate(steps):
        count = index + 1
        if hand.is_over:
            raise ReplayError(index, seat, action, "the hand is already over", over=True)
        if before is not None:
            before(index, seat, action)
        try:
            hand.apply(seat, action)
        except NotYourTurnError as error:
            raise ReplayError(index, seat, action, str(error), out_of_turn=True) from None
        except ActionError as error:
            raise ReplayError(index, seat, action, str(error)) from None
    if to_the_end and not hand.is_over:
        raise ReplayError(count, None, None, "the actions end before the hand does")
    return hand
