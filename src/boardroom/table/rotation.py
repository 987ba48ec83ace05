"""Where a table is in its rotation, and when the game changes.

A game of a rotation lasts ``every`` hands, or (``every`` 0) an orbit: until the button has gone
round once, which is when it comes back to, or moves past, the seat that had it on the game's
first hand (seats that empty or fill meanwhile do not stretch or cut the orbit short). The
change is announced to everyone before the next game's first hand is dealt, and the table shows
what comes next and when.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from boardroom.rules.rotations import Rotation, RotationGame


@dataclass(frozen=True, slots=True)
class RotationState:
    """The game now dealt (``at``), how many of its hands have been dealt, and the button of its
    first hand (None before it starts)."""

    at: int = 0
    hands: int = 0
    first_button: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RotationState:
        return cls(**data) if data else cls()


def passes(start: int, previous: int, button: int, seats: int) -> bool:
    """Whether the button, moving clockwise from ``previous`` to ``button`` round ``seats``
    seats, comes back to or goes past ``start``."""
    gone = (start - previous) % seats
    return 0 < gone <= (button - previous) % seats


def step(rotation: Rotation, state: RotationState, previous: int | None, button: int,
         seats: int) -> tuple[RotationState, bool]:
    """The state for a hand about to be dealt with ``button`` (the last hand's was
    ``previous``), and whether the game changes with it."""
    if state.first_button is None or previous is None:
        return replace(state, hands=state.hands + 1, first_button=button
                       if state.first_button is None else state.first_button), False
    done = state.hands >= rotation.every if rotation.every else \
        passes(state.first_button, previous, button, seats)
    if not done:
        return replace(state, hands=state.hands + 1), False
    return RotationState((state.at + 1) % len(rotation.games), 1, button), True


def game(rotation: Rotation, state: RotationState) -> RotationGame:
    return rotation.games[state.at % len(rotation.games)]


def public(rotation: Rotation, state: RotationState, button: int | None,
           next_button: int | None, seats: int) -> dict[str, Any]:
    """What everyone sees of the rotation: the games, the one now dealt and the next, and when
    it changes (``hands_left`` after the hand in play, or ``last`` when this is its last)."""
    now = game(rotation, state)
    following = rotation.games[(state.at + 1) % len(rotation.games)]
    last: bool | None = None
    hands_left: int | None = None
    if rotation.every:
        hands_left = max(rotation.every - state.hands, 0) if state.first_button is not None \
            else rotation.every
        last = hands_left == 0
    elif state.first_button is not None and button is not None and next_button is not None:
        last = passes(state.first_button, button, next_button, seats)
    return {
        "id": rotation.id, "name": rotation.name, "every": rotation.every,
        "games": [{**item.to_dict(), "name": item.variant.name} for item in rotation.games],
        "at": state.at, "game": {**now.to_dict(), "name": now.variant.name},
        "next": {**following.to_dict(), "name": following.variant.name},
        "hands_left": hands_left, "last": last, "started": state.first_button is not None,
    }
