"""One hand of poker as a pure state machine: betting, pots, showdown, views and histories.

``Hand`` plays a hand of any variant described as data (``boardroom.rules``); ``Stakes`` holds
its forced bets and bet sizes; ``view_for`` builds what one viewer may see; ``history`` writes
and reads hand histories (TOML, a superset of PHH).
"""

from boardroom.engine.betting import Stakes, StakesError
from boardroom.engine.dealing import CardSource, DealError, Deck, ScriptedCards
from boardroom.engine.hand import ActionError, Hand, LegalActions, NotYourTurnError

__all__ = [
    "ActionError",
    "CardSource",
    "DealError",
    "Deck",
    "Hand",
    "LegalActions",
    "NotYourTurnError",
    "ScriptedCards",
    "Stakes",
    "StakesError",
]
