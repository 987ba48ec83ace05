"""Events: one record for every change a hand goes through (DESIGN.md: the event list is the
hand history, its persistence format and its replay).

Events are small frozen records. Cards are plain ints (``boardroom.cards``); ``None`` stands for
a card this viewer may not see (see ``boardroom.engine.view.events_for``). A ``Seat`` is the
player's table seat (``Hand(seats=...)``; 0..n-1 for a hand dealt without them): every field
that names a player is annotated with it (alone, in a tuple, or leading a pair), and that
annotation is all ``renamed`` reads, so a new event's seats are renamed like every other's.
Likewise a ``Private`` card is one only its owner (the seat beside it: the event's, or the one
leading its pair) may see until it is public; ``redacted`` reads that mark alone.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.resources
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from boardroom.cards import Card


class _SeatMark:
    """The mark of an ``int`` that names a player (``Seat``)."""

    def __repr__(self) -> str:
        return "Seat"


class _PrivateMark:
    """The mark of a card only its owner may see until it is public (``Private``)."""

    def __repr__(self) -> str:
        return "Private"


SEAT = _SeatMark()
Seat = Annotated[int, SEAT]
PRIVATE = _PrivateMark()
Private = Annotated[Card | None, PRIVATE]  # None: a card this viewer may not see

@dataclass(frozen=True, slots=True)
class Event:
    """Base of every hand event."""

@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    seat: Seat
    amount: int
    blind: str  # "small", "big" or "straddle" (engine.straddle)

@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    street: str

@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    card: Private  # nobody's: never seen; None when the history does not say which card

@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    board: str
    cards: tuple[Card, ...]

@dataclass(frozen=True, slots=True)
class HoleDealt(Event):
    seat: Seat
    cards: tuple[Private, ...]
    up: tuple[bool, ...]  # stud: True for a card dealt face up (public)

@dataclass(frozen=True, slots=True)
class BringInPosted(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class Folded(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class Checked(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: Seat
    amount: int  # chips added (less than the bet when all-in)

@dataclass(frozen=True, slots=True)
class RaisedTo(Event):
    """A bet, raise or stud completion: the seat's total bet this round becomes ``amount``."""

    seat: Seat
    amount: int
    full: bool  # False: an all-in short of a full raise, which does not reopen the betting

@dataclass(frozen=True, slots=True)
class UncalledReturned(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class HandShown(Event):
    seat: Seat
    cards: tuple[Card, ...]

@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot paid: its chips, who could win it, and the chips each winner took."""

    index: int  # 0 = main pot
    amount: int
    eligible: tuple[Seat, ...]
    shares: tuple[tuple[Seat, int], ...]
    showdown: bool  # False when everybody else folded
    run: int = 1  # the run whose share of the pot this is (engine.runs); 1 for a hand run once

@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    stacks: tuple[tuple[Seat, int], ...]  # (seat, its stack at the end), in the hand's order

@dataclass(frozen=True, slots=True)
class Redrawn(HoleDealt):
    """Redraw cards from the pool (RULES.md s.3): extra hole cards, private like any other.
    A redraw stays hidden in its own event even once its hand is shown: the ``HandShown``
    event shows it, and a redraw may be published in the same batch as the showdown."""

@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """The draw: a seat throws ``cards`` (none: it stands pat); private, others see the count.
    The seat's new cards follow as a ``HoleDealt``. Never shown: a card thrown may come back to
    the same hand after a reshuffle, and be shown there."""

    seat: Seat
    cards: tuple[Private, ...]

@dataclass(frozen=True, slots=True)
class PoolChanged(Event):
    """The pool's size, which is public: after each redraw distribution and each fold."""

    size: int

@dataclass(frozen=True, slots=True)
class AllocationStarted(Event):
    """The river betting closed with two or more players: they must allocate their cards."""

    seats: tuple[Seat, ...]

@dataclass(frozen=True, slots=True)
class AllocationCommitted(Event):
    """A seat committed its allocation (hidden until every seat has committed)."""

    seat: Seat
    automatic: bool  # True: the engine's best allocation, given on a timeout

@dataclass(frozen=True, slots=True)
class AllocationsRevealed(Event):
    """Every allocation at once: (seat, ((category, cards), ...)); discards are never shown."""

    allocations: tuple[tuple[Seat, tuple[tuple[str, tuple[Card, ...]], ...]], ...]

@dataclass(frozen=True, slots=True)
class RunsOffered(Event):
    """Every player left is all-in before the last card: each of ``seats`` may agree to run
    the rest up to ``most`` times (engine.runs)."""

    seats: tuple[Seat, ...]
    most: int

@dataclass(frozen=True, slots=True)
class RunsUnavailable(Event):
    """Running it more than once was not offered: ``reason`` says why (the cards left)."""

    reason: str

@dataclass(frozen=True, slots=True)
class RunsChosen(Event):
    """A seat's answer to the offer: 1 (once: a decline or a timeout), 2 or 3."""

    seat: Seat
    runs: int
    automatic: bool = False  # True: the seat's clock ran out (once)

@dataclass(frozen=True, slots=True)
class RunsAgreed(Event):
    """Every answer is in: the rest is dealt ``runs`` times (the fewest anyone chose)."""

    runs: int

@dataclass(frozen=True, slots=True)
class RunDealt(Event):
    """Run ``run`` (2 or 3) of the rest of the hand: the board cards it dealt, board by board,
    and each live seat's redraws in it (hidden like any redraw until the hands are shown)."""

    run: int
    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    cards: tuple[tuple[Seat, tuple[Private, ...]], ...]


# The event types whose private cards stay private even once their owner's hand is shown: a
# redraw (the ``HandShown`` event shows it), a discard (it may come back to the same hand after a
# reshuffle) and a later run's redraws. The cards of every other type show with the hand. A set
# rather than a class attribute: mypyc's build of this module (``boardroom.native``) takes no
# class attribute beside a dataclass's fields.
KEPT_PRIVATE: frozenset[type[Event]] = frozenset({Redrawn, Discarded, RunDealt})


def shown_with_hand(kind: type[Event]) -> bool:
    """Whether the private cards of an event of type ``kind`` show once their owner's hand is
    shown (``engine.view``)."""
    return kind not in KEPT_PRIVATE



# -- a cheaper constructor -----------------------------------------------------------------------

def _direct_init(kind: type[Event]) -> None:
    """Give event type ``kind`` a constructor that stores each field through its slot directly.

    A frozen dataclass's own ``__init__`` stores each field with ``object.__setattr__(self,
    name, value)`` (a global, an attribute and a look-up by name per field); a hand records an
    event at every change, so this one calls each slot's setter, bound once. Same parameters,
    defaults and fields; the instances stay frozen (assignment still raises, as ``__setattr__``
    is untouched), equal, hashable and ``dataclasses.replace``-able (tests pin all four)."""
    fields = dataclasses.fields(kind)
    namespace: dict[str, Any] = {}
    params, body = [], []
    for field in fields:
        if field.default_factory is not dataclasses.MISSING:  # pragma: no cover - none has one
            raise TypeError(f"{kind.__name__}.{field.name}: a default factory is not supported")
        namespace[f"_set_{field.name}"] = getattr(kind, field.name).__set__
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            params.append(f"{field.name}=_default_{field.name}")
        body.append(f"    _set_{field.name}(self, {field.name})")
    source = (f"def __init__(self{''.join(', ' + param for param in params)}):\n"
              + ("\n".join(body) if body else "    pass") + "\n")
    exec(source, namespace)  # the source is built above from field names alone
    init = namespace["__init__"]
    init.__qualname__ = f"{kind.__qualname__}.__init__"
    init.__module__ = vars(kind)["__module__"]
    kind.__init__ = init  # type: ignore[method-assign]


# Every event type, as this module defines it (the classes ``dataclass(slots=True)`` made, not
# the ones it replaced, which ``Event.__subclasses__()`` may still list).
EVENT_TYPES: tuple[type[Event], ...] = tuple(
    kind for kind in list(globals().values())
    if isinstance(kind, type) and issubclass(kind, Event) and kind is not Event)
for _kind in EVENT_TYPES:
    # Compiled by mypyc (boardroom.native) an event type's constructor is already native code,
    # not a Python function, and the class takes no new attribute: it is left as it is.
    if isinstance(vars(_kind).get("__init__"), types.FunctionType):
        _direct_init(_kind)


# -- naming the players by their table seats ---------------------------------------------------

Rename = Callable[[Any, Sequence[int]], Any]  # (a field's value, seat of each position) -> value


def _renamer(hint: Any) -> Rename | None:
    """How to rename the players in a value of type ``hint`` (None: it names none): a ``Seat``,
    any tuple of them, ``Seat | None``, recursively."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated:
        return (lambda value, seats: seats[value]) if SEAT in args[1:] else _renamer(args[0])
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _renamer(args[0])
        return None if each is None else (
            lambda value, seats: tuple(each(item, seats) for item in value))
    if origin is tuple:
        parts = [_renamer(arg) for arg in args]
        if all(part is None for part in parts):
            return None
        return lambda value, seats: tuple(item if part is None else part(item, seats)
                                          for part, item in zip(parts, value, strict=True))
    if origin in (typing.Union, types.UnionType):
        arms = [arm for arm in map(_renamer, args) if arm is not None]
        if not arms:
            return None
        if len(arms) > 1:
            raise TypeError(f"{hint}: a union may hold seats in one arm only")
        arm = arms[0]
        return lambda value, seats: None if value is None else arm(value, seats)
    return None


_RENAMERS: dict[type[Event], tuple[tuple[str, Rename], ...]] = {}


def field_hints(kind: type[Event]) -> dict[str, Any]:
    """The annotations of event type ``kind``'s fields as written, marks included (``Seat``,
    ``Private``): what naming the players and hiding the cards read. mypyc's build of this
    module (``boardroom.native``) keeps only plain types at run time (``int`` for a ``Seat``),
    so there they are read from this module's source, class by class along the MRO."""
    if isinstance(vars(AntePosted)["__annotations__"]["seat"], str):  # the pure module's
        return typing.get_type_hints(kind, include_extras=True)
    written = _written_annotations()
    hints: dict[str, Any] = {}
    for base in reversed(kind.__mro__):
        for name, text in written.get(base.__name__, {}).items():
            hints[name] = eval(text, globals())  # this module's own annotations, as typed
    return hints


@functools.cache
def _written_annotations() -> dict[str, dict[str, str]]:
    """Per class of this module's source, its annotated fields' annotations as written."""
    source = importlib.resources.files("boardroom.engine").joinpath("events.py").read_text()
    return {node.name: {item.target.id: ast.unparse(item.annotation) for item in node.body
                        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
            for node in ast.parse(source).body if isinstance(node, ast.ClassDef)}


def seat_fields(kind: type[Event]) -> tuple[tuple[str, Rename], ...]:
    """The fields of event type ``kind`` that name players, each with its renamer: read once
    from the type's annotations."""
    found = _RENAMERS.get(kind)
    if found is None:
        hints = field_hints(kind)
        found = _RENAMERS[kind] = tuple(
            (field.name, rename) for field in dataclasses.fields(kind)
            if (rename := _renamer(hints[field.name])) is not None)
    return found


def renamed(event: Event, seats: Sequence[int]) -> Event:
    """``event`` with each player's position in the hand (0..n-1) replaced by its table seat
    ``seats[position]``: the engine's events name the players by their table seats."""
    fields = seat_fields(type(event))
    if not fields:
        return event
    return dataclasses.replace(event, **{name: rename(getattr(event, name), seats)
                                         for name, rename in fields})


# -- hiding the cards a viewer may not see -----------------------------------------------------

See = Callable[[int | None, Card], bool]  # (its owner's seat or None, a card) -> may it be seen?
Hide = Callable[[Any, "int | None", See], Any]  # (a value, its owner, see) -> the value as seen


def _names_a_seat(hint: Any) -> bool:
    return typing.get_origin(hint) is Annotated and SEAT in typing.get_args(hint)[1:]


def _hider(hint: Any) -> Hide | None:
    """How to hide the ``Private`` cards in a value of type ``hint`` (None: it holds none); a
    tuple led by a ``Seat`` is owned by that seat."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated:
        if PRIVATE in args[1:]:
            return lambda card, owner, see: card if card is not None and see(owner, card) else None
        return _hider(args[0])
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _hider(args[0])
        return None if each is None else (
            lambda value, owner, see: tuple(each(item, owner, see) for item in value))
    if origin is tuple:
        parts = [_hider(arg) for arg in args]
        if all(part is None for part in parts):
            return None
        lead = next((k for k, arg in enumerate(args) if _names_a_seat(arg)), None)
        return lambda value, owner, see: tuple(
            item if part is None else part(item, owner if lead is None else value[lead], see)
            for part, item in zip(parts, value, strict=True))
    return None


_HIDERS: dict[type[Event], tuple[str | None, tuple[tuple[str, Hide], ...]]] = {}


def private_fields(kind: type[Event]) -> tuple[str | None, tuple[tuple[str, Hide], ...]]:
    """The field naming the owner of event type ``kind``'s private cards (its one ``Seat``
    field; None: nobody's), and the fields holding private cards with their hiders."""
    found = _HIDERS.get(kind)
    if found is None:
        hints = field_hints(kind)
        names = [field.name for field in dataclasses.fields(kind)]
        owners = [name for name in names if _names_a_seat(hints[name])]
        found = _HIDERS[kind] = (owners[0] if len(owners) == 1 else None, tuple(
            (name, hide) for name in names if (hide := _hider(hints[name])) is not None))
    return found


def redacted(event: Event, see: See) -> Event:
    """``event`` with each private card ``see`` refuses (given its owner's seat) as None."""
    owner_field, fields = private_fields(type(event))
    if not fields:
        return event
    owner = getattr(event, owner_field) if owner_field is not None else None
    return dataclasses.replace(event, **{name: hide(getattr(event, name), owner, see)
                                         for name, hide in fields})
