"""What a player does, as values: the engine applies them (``Hand.apply``), the protocol and the
history reader parse into them, the bots return them and the history writer prints them.

Each action is a small frozen record, named in the protocol's words (``Fold.name == "fold"``).
A betting action is the seat to act's; an allocation names no turn (RULES.md s.3: every live
seat commits in any order), so ``Hand.apply(seat, action)`` always says whose action it is.

``record`` and ``from_record`` write an action as plain data, ``(name, argument)``: the table
keeps a running hand's actions that way (``Table.hand_record``), and the protocol's ``act``
command is the same two words (``action``, ``amount``). Parsing is strict: an argument an
action does not take, or a missing one, is an ``ActionError`` naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from boardroom.cards import Card, format_cards, parse_cards
from boardroom.engine.allocation import allocation_cards
from boardroom.engine.errors import ActionError


@dataclass(frozen=True, slots=True)
class Fold:
    name: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Check:
    name: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call:
    name: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class CheckOrCall:
    """PHH's ``cc``: a check when nothing is owed, else a call (the history reader's)."""

    name: ClassVar[str] = "check_or_call"


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """A bet, raise or (stud) completion to ``amount`` chips this round, in total."""

    amount: int
    name: ClassVar[str] = "raise"


@dataclass(frozen=True, slots=True)
class BringIn:
    """Stud: post the bring-in instead of completing."""

    name: ClassVar[str] = "bring_in"


@dataclass(frozen=True, slots=True)
class Complete:
    """Stud: raise the bring-in to the full small bet (a ``RaiseTo`` of that amount)."""

    name: ClassVar[str] = "complete"


@dataclass(frozen=True, slots=True)
class Draw:
    """The draw games: throw ``discards`` (cards held; none: stand pat) and be dealt as many."""

    discards: tuple[Card, ...] = ()
    name: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Allocate:
    """The Allocator games: commit cards to every category, ``((category, cards), ...)``."""

    categories: tuple[tuple[str, tuple[Card, ...]], ...]
    name: ClassVar[str] = "allocate"

    @classmethod
    def of(cls, allocation: Mapping[str, Sequence[Card] | str]) -> Allocate:
        """From category -> cards (card numbers or notation, ``"As Kd"``). The cards are
        checked against the hand when it is applied; an error here names no card."""
        categories = []
        for category, cards in allocation.items():
            try:
                categories.append((str(category), allocation_cards(cards)))
            except ValueError:
                raise ActionError(f"the cards for {category} are not readable card "
                                  f"notation") from None
        return cls(tuple(categories))

    def mapping(self) -> dict[str, tuple[Card, ...]]:
        return dict(self.categories)


@dataclass(frozen=True, slots=True)
class AllocateBest:
    """The allocation a seat gets on a timeout: the engine's best (RULES.md s.3)."""

    name: ClassVar[str] = "allocate_best"


@dataclass(frozen=True, slots=True)
class ChooseRuns:
    """An all-in player's answer to running it more than once: 1 (once), 2 or 3 (engine.runs);
    like an allocation it names no turn: every offered seat answers, in any order."""

    runs: int
    automatic: bool = False  # the table's answer for a seat whose clock ran out (once)
    name: ClassVar[str] = "runs"


Action = (Fold | Check | Call | CheckOrCall | RaiseTo | BringIn | Complete | Draw | Allocate
          | AllocateBest | ChooseRuns)
"""Every action the engine applies."""

_NO_ARGUMENT: dict[str, Action] = {kind.name: kind() for kind in (
    Fold, Check, Call, CheckOrCall, BringIn, Complete, AllocateBest)}
NAMES: tuple[str, ...] = ("fold", "check", "call", "raise", "bring_in", "complete", "draw",
                          "allocate", "allocate_best", "check_or_call", "runs")
"""Every action's name, as ``record`` writes it."""


def record(action: Action) -> tuple[str, Any]:
    """The action as plain data: ``(name, argument)``, the argument None, chips, the cards
    thrown as notation or the allocation as ``{category: notation}``."""
    match action:
        case ChooseRuns(runs, automatic):
            return action.name, "timeout" if automatic else runs
        case RaiseTo(amount):
            return action.name, amount
        case Draw(discards):
            return action.name, format_cards(discards)
        case Allocate(categories):
            return action.name, {name: format_cards(cards) for name, cards in categories}
    return action.name, None


def from_record(name: object, argument: object = None) -> Action:
    """The action ``record`` wrote, or an ``ActionError`` naming what is wrong."""
    if not isinstance(name, str) or name not in NAMES:
        raise ActionError(f"unknown action {str(name)[:40]!r} (one of: {', '.join(NAMES)})")
    if name in _NO_ARGUMENT:
        if argument is not None:
            raise ActionError(f"{name} takes no amount or cards (got {argument!r:.40})")
        return _NO_ARGUMENT[name]
    if name == RaiseTo.name:
        if not isinstance(argument, int) or isinstance(argument, bool):
            raise ActionError(f"a raise needs an amount: the total to raise to, a whole number "
                              f"of chips (got {argument!r:.40})")
        return RaiseTo(argument)
    if name == ChooseRuns.name:
        if argument == "timeout":
            return ChooseRuns(1, automatic=True)
        if not isinstance(argument, int) or isinstance(argument, bool):
            raise ActionError(f"runs needs how many times to run the rest: 1, 2 or 3 "
                              f"(got {argument!r:.40})")
        return ChooseRuns(argument)
    if name == Draw.name:
        return Draw(_thrown(argument))
    if not isinstance(argument, Mapping) or not all(
            isinstance(cards, str) or (isinstance(cards, list | tuple)
                                       and all(isinstance(c, str) for c in cards))
            for cards in argument.values()):
        raise ActionError('an allocation maps each category to its cards, e.g. '
                          '{"A": "As Kd", "B": ["Qh", "Jc"], "Hand": "9s 8s"}')
    return Allocate.of({str(category): cards if isinstance(cards, str) else " ".join(cards)
                        for category, cards in argument.items()})


def _thrown(cards: object) -> tuple[Card, ...]:
    """A draw's discards: card notation (``"As Kd"``, ``""`` to stand pat) or card numbers."""
    if isinstance(cards, str):
        try:
            return parse_cards(cards)
        except ValueError as error:
            raise ActionError(f"a draw names the cards to throw: {error}") from None
    if isinstance(cards, list | tuple) and all(
            isinstance(card, int) and not isinstance(card, bool) for card in cards):
        return tuple(cards)
    raise ActionError(f"a draw names the cards to throw, e.g. 'As Kd' ('' to stand pat), "
                      f"not {cards!r:.40}")
