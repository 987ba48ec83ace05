"""One hand of poker as a pure state machine: betting, pots, showdown, views and histories.

``Hand`` plays a hand of any variant described as data (``boardroom.rules``), one action
value (``engine.actions``: ``Fold()``, ``RaiseTo(12)``, ...) at a time with ``Hand.apply``;
``Stakes`` holds its forced bets and bet sizes; ``view_for`` builds what one viewer may see
(with its ``Pill``s and the pool size); ``history`` writes and reads hand histories (TOML,
a superset of PHH).
Multi-board variants add redraws (``Hand.redraws``, ``Hand.pool_size``) and, in the Allocator
games, the allocation phase (``Hand.allocate``, ``allocate_best``, ``suggest_allocation``).
"""

from boardroom.engine.actions import (
    Action,
    Allocate,
    AllocateBest,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    Complete,
    Draw,
    Fold,
    RaiseTo,
)
from boardroom.engine.allocation import Allocation, AllocationError, best_allocation
from boardroom.engine.betting import Stakes, StakesError
from boardroom.engine.dealing import CardSource, DealError, Deck, ScriptedCards
from boardroom.engine.errors import ActionError, NotYourTurnError
from boardroom.engine.hand import Hand, LegalActions
from boardroom.engine.pills import Pill, pills_for

__all__ = [
    "Action",
    "ActionError",
    "Allocate",
    "AllocateBest",
    "Allocation",
    "AllocationError",
    "BringIn",
    "Call",
    "CardSource",
    "Check",
    "CheckOrCall",
    "Complete",
    "DealError",
    "Deck",
    "Draw",
    "Fold",
    "Hand",
    "LegalActions",
    "NotYourTurnError",
    "Pill",
    "RaiseTo",
    "ScriptedCards",
    "Stakes",
    "StakesError",
    "best_allocation",
    "pills_for",
]
