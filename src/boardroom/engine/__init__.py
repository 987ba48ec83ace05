"""One hand of poker as a pure state machine: betting, pots, showdown, views and histories.

``Hand`` plays a hand of any variant described as data (``boardroom.rules``); ``Stakes`` holds
its forced bets and bet sizes; ``view_for`` builds what one viewer may see (with its ``Pill``s
and the pool size); ``history`` writes and reads hand histories (TOML, a superset of PHH).
Multi-board variants add redraws (``Hand.redraws``, ``Hand.pool_size``) and, in the Allocator
games, the allocation phase (``Hand.allocate``, ``allocate_best``, ``suggest_allocation``).
"""

from boardroom.engine.allocation import Allocation, AllocationError, best_allocation
from boardroom.engine.betting import Stakes, StakesError
from boardroom.engine.dealing import CardSource, DealError, Deck, ScriptedCards
from boardroom.engine.hand import ActionError, Hand, LegalActions, NotYourTurnError
from boardroom.engine.pills import Pill, pills_for

__all__ = [
    "ActionError",
    "Allocation",
    "AllocationError",
    "CardSource",
    "DealError",
    "Deck",
    "Hand",
    "LegalActions",
    "NotYourTurnError",
    "Pill",
    "ScriptedCards",
    "Stakes",
    "StakesError",
    "best_allocation",
    "pills_for",
]
