"""The engine's refusals: ``ActionError`` (a ``ValueError``) for an action the rules do not allow
now, and its kind ``NotYourTurnError``; their text says why, naming no hidden card."""

from __future__ import annotations


class ActionError(ValueError):
    """An action the rules do not allow at this point of the hand."""


class NotYourTurnError(ActionError):
    """Someone acted out of turn, or nobody is to act."""
