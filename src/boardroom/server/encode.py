"""Engine and table values as JSON-ready data for the wire.

``plain`` turns dataclasses, enums, fractions, tuples and dicts into JSON types. Cards are plain
ints in the engine; a field named ``card``, ``cards`` or ``boards`` holds cards, written in the
rule book's notation (``"As"``), and a hidden card (``None``) stays ``null``. Dataclasses carry
their class name as ``type``, so an event says what it is (``"RaisedTo"``). Inside a card field a
sequence of ints is cards, while an int beside other values (the seat of an allocation) is not.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import orjson

from boardroom.cards import format_card
from boardroom.engine.view import OWN_FIELDS, HandView, OwnView

CARD_FIELDS = frozenset({"card", "cards", "boards", "allocation", "allocations"})


def plain(value: Any, cards: bool = False, memo: dict[Any, Any] | None = None) -> Any:
    """``value`` as JSON-ready data; ``cards`` says ints in it are cards. With a ``memo``,
    frozen dataclasses met before (equal values: a seat everybody sees alike, the showdown
    in every viewer's view) are converted once: the result is shared, so do not change it."""
    kind = type(value)
    if kind is str or kind is bool or value is None or kind is float:  # the common cases
        return value
    if kind is int:
        return format_card(value) if cards else value
    if kind is tuple or kind is list:
        return _plain_items(value, cards, memo)
    if isinstance(value, bool | str | float):
        return value
    if isinstance(value, int):
        return format_card(value) if cards else value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    names = _fields(type(value))
    if names is not None:
        key = None
        if memo is not None:
            try:
                key = (value, cards)
                return memo[key]
            except KeyError:
                pass
            except TypeError:  # not hashable (a dict inside): not shared
                key = None
        out: dict[str, Any] = {"type": type(value).__name__}
        for name, holds_cards in names:
            out[name] = plain(getattr(value, name), cards or holds_cards, memo)
        if key is not None and memo is not None:
            memo[key] = out
        return out
    if isinstance(value, dict):
        return {str(key): plain(item, cards or key in CARD_FIELDS, memo)
                for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return _plain_items(value, cards, memo)
    raise TypeError(f"cannot send a {type(value).__name__}")


def _plain_items(value: Any, cards: bool, memo: dict[Any, Any] | None) -> list[Any]:
    if cards and all(item is None or (isinstance(item, int) and not isinstance(item, bool))
                     for item in value):
        return [None if item is None else format_card(item) for item in value]
    # A mixed sequence in a card field, such as (seat, ((category, cards), ...)): its own
    # ints are seats, only the all-int sequences inside it are cards.
    return [plain(item, cards and not isinstance(item, int), memo) for item in value]


_FIELDS: dict[type, tuple[tuple[str, bool], ...] | None] = {}


def _fields(kind: type) -> tuple[tuple[str, bool], ...] | None:
    """A dataclass's field names, each with whether it holds cards (None: not a dataclass),
    looked up once per class."""
    try:
        return _FIELDS[kind]
    except KeyError:
        pass
    names = tuple((item.name, item.name in CARD_FIELDS) for item in dataclasses.fields(kind)) \
        if dataclasses.is_dataclass(kind) else None
    _FIELDS[kind] = names
    return names


ENCODINGS = [0]
"""How many times ``dumps`` ran in this process (a test counts the encodings of an action)."""

_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | \
    orjson.OPT_PASSTHROUGH_DATETIME


def _not_json(value: Any) -> Any:
    raise TypeError(f"cannot send a {type(value).__name__}")


def dumps(value: Any) -> str:
    """``value`` (JSON-ready data) as compact JSON text, UTF-8 as it is (no ``\\u`` escapes
    but for control characters). orjson writes it; the standard library writes what orjson
    refuses and JSON holds (an integer beyond 64 bits), so the text is the same JSON either
    way; anything that is not JSON-ready data (a dataclass, a Fraction) is a ``TypeError``."""
    ENCODINGS[0] += 1
    try:
        return orjson.dumps(value, default=_not_json, option=_ORJSON_OPTIONS).decode()
    except orjson.JSONEncodeError as error:
        if isinstance(error.__cause__, TypeError):
            raise error.__cause__ from None
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


SharedTexts = dict[tuple[int, bool], tuple[Any, str]]


class KeptTexts(dict[Any, str]):
    """Texts of frozen parts by value (``dumps_shared``'s ``kept``), one change's: a room
    starts new ones at every change on top of the last change's (``previous``), and a part
    found there moves into the new ones; the change before is let go. So a part unchanged
    since the last change is not encoded again, and a room keeps two changes' parts. A part
    is its own key (a dataclass equals only a value of its own class), or ``(part, True)``
    encoded with its numbers as cards (no tuple is kept for the others: 64 bytes a part)."""

    __slots__ = ("previous",)

    def __init__(self, previous: KeptTexts | None = None) -> None:
        super().__init__()
        self.previous = previous
        if previous is not None:
            previous.previous = None

    def __missing__(self, key: Any) -> str:
        if self.previous is None:
            raise KeyError(key)
        text = self[key] = self.previous[key]
        return text


def dumps_shared(value: Any, memo: SharedTexts, depth: int = 2, cards: bool = False,
                 kept: KeptTexts | None = None) -> str:
    """``dumps(plain(value))``, for values that share parts by identity (every audience's hand
    view holds the same seats, boards, pots and results objects): each part met before is not
    converted nor encoded again. The top ``depth`` levels (a dataclass's fields, a sequence's
    items) are composed from their parts' texts; below that a part is one ``dumps(plain())``.
    The memo keeps every part it names alive, so an id is never reused while it holds it.
    ``kept`` (the caller's, across calls) keeps those lowest parts that are frozen dataclasses
    by value, type and all: a seat or a pill unchanged since the last change is not encoded
    again."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int and not cards:
        return str(value)
    names = _fields(kind)
    if names is None and kind is not tuple and kind is not list and kind is not dict:
        return dumps(plain(value, cards))  # a card, a number, an enum, a subclass of those
    key = (id(value), cards)
    hit = memo.get(key)
    if hit is not None and hit[0] is value:
        return hit[1]
    if depth <= 0:
        text = _kept(value, kind, cards, kept) if names is not None and kept is not None \
            else dumps(plain(value, cards))
    elif names is not None:
        opening, labels = _prefixes(kind)
        text = opening + ",".join(
            label + dumps_shared(getattr(value, name), memo, depth - 1, cards or holds_cards,
                                 kept)
            for (name, holds_cards), label in zip(names, labels, strict=True)) + "}"
    elif isinstance(value, list | tuple) and not cards:
        text = "[" + ",".join(dumps_shared(item, memo, depth - 1, False, kept)
                              for item in value) + "]"
    else:
        text = dumps(plain(value, cards))
    memo[key] = (value, text)
    return text


def field_texts(value: Any, memo: SharedTexts, kept: KeptTexts | None = None,
                depth: int = 2) -> list[str]:
    """The texts ``dumps_shared(value, memo, depth, kept=kept)`` composes ``value`` from (and
    keeps in ``memo``): each field's with its label (a dataclass), or each item's (a tuple or
    list). ``joined`` puts them together again; a text of another value put in a field's
    place (``field_text``) makes that value's text: a seat's hand view is the spectators'
    with a few fields of its own."""
    return _parts(value, memo, depth, False, kept)


def field_text(kind: type, name: str, value: Any, memo: SharedTexts,
               kept: KeptTexts | None = None, depth: int = 2) -> str:
    """Field ``name`` of dataclass ``kind`` holding ``value``, labelled, as ``field_texts``
    gives it for a ``kind`` encoded at ``depth``."""
    names = _fields(kind)
    assert names is not None, kind
    index = _field_index(kind)[name]
    return _prefixes(kind)[1][index] + dumps_shared(value, memo, depth - 1, names[index][1], kept)


def joined(kind: type, texts: Sequence[str]) -> str:
    """The text of a ``kind`` (a dataclass, or a tuple or list) from ``field_texts``'."""
    if _fields(kind) is None:
        return "[" + ",".join(texts) + "]"
    return _prefixes(kind)[0] + ",".join(texts) + "}"


class ViewTexts(NamedTuple):
    """An audience's hand view as JSON text ("null": no hand), with the texts of its fields
    (each labelled, its seats' left empty) and of its seats, for the next patch; a seat's
    with the values of its ``OWN_FIELDS`` its texts were made from."""

    text: str
    fields: tuple[str, ...] | None
    seats: tuple[str, ...] | None
    own: tuple[Any, ...] | None = None


def spectators_texts(base: HandView | None, memo: SharedTexts,
                      kept: KeptTexts) -> ViewTexts:
    """The spectators' hand view (``engine.view.own_views``' base), encoded field by field:
    every seat's starts from it (``own_texts``)."""
    if base is None:
        return ViewTexts("null", None, None)
    fields = field_texts(base, memo, kept)
    seats = tuple(field_texts(base.seats, memo, kept, depth=1))
    text = joined(HandView, fields)
    fields[_SEATS] = ""
    return ViewTexts(text, tuple(fields), seats)


def own_texts(spectators: ViewTexts, viewer: int, own: OwnView, memo: SharedTexts,
              kept: KeptTexts, before: ViewTexts | None = None) -> ViewTexts:
    """Table seat ``viewer``'s hand view: the spectators' texts with its own parts' in their
    place (``engine.view.with_own``), so only those are encoded: its seat with its cards,
    its viewer, and ``OWN_FIELDS`` (its legal actions, pills, allocation, runs). A field
    holding the very value it held in ``before`` (this seat's texts of the last change: its
    pills within a street, its legal actions while it waits) takes its text from there."""
    assert spectators.fields is not None
    assert spectators.seats is not None
    seats = list(spectators.seats)
    seats[own.position] = dumps_shared(own.seat, memo, 0, kept=kept)  # as the seats' items
    fields = list(spectators.fields)
    fields[_VIEWER] = field_text(HandView, "viewer", viewer, memo)
    values = own[2:]
    was, texts = (before.own, before.fields) if before is not None else (None, None)
    for position, ((name, index), value) in enumerate(zip(_OWN, values, strict=True)):
        fields[index] = texts[index] if was is not None and texts is not None and \
            was[position] is value else field_text(HandView, name, value, memo, kept)
    fields[_SEATS] = _SEATS_LABEL + joined(tuple, seats)
    text = joined(HandView, fields)
    fields[_SEATS] = ""
    return ViewTexts(text, tuple(fields), tuple(seats), values)


_INDEXES: dict[type, dict[str, int]] = {}


def _field_index(kind: type) -> dict[str, int]:
    try:
        return _INDEXES[kind]
    except KeyError:
        found = _INDEXES[kind] = {name: index for index, (name, _) in
                                  enumerate(_fields(kind) or ())}
        return found


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(HandView))
_SEATS, _VIEWER = _VIEW_FIELDS.index("seats"), _VIEW_FIELDS.index("viewer")
_SEATS_LABEL = f'"{_VIEW_FIELDS[_SEATS]}":'
_OWN = tuple((name, _VIEW_FIELDS.index(name)) for name in OWN_FIELDS)


def labels(kind: type) -> tuple[str, ...]:
    """A dataclass's field names, each as JSON text (``'"seats"'``), in field order."""
    return tuple(label[:-1] for label in _prefixes(kind)[1])


def _parts(value: Any, memo: SharedTexts, depth: int, cards: bool,
           kept: KeptTexts | None) -> list[str]:
    """The texts ``dumps_shared`` composes ``value`` from: each field's, with its label (a
    dataclass), or each item's (a sequence)."""
    names = _fields(type(value))
    if names is None:
        return [dumps_shared(item, memo, depth - 1, False, kept) for item in value]
    labels = _prefixes(type(value))[1]
    return [label + dumps_shared(getattr(value, name), memo, depth - 1, cards or holds_cards,
                                 kept)
            for (name, holds_cards), label in zip(names, labels, strict=True)]


def _kept(value: Any, kind: type, cards: bool, kept: KeptTexts) -> str:
    """A dataclass part's text from ``kept`` when an equal value of its type was encoded."""
    try:
        key = (value, True) if cards else value
        return kept[key]
    except KeyError:
        text = kept[key] = dumps(plain(value, cards))
        return text
    except TypeError:  # not hashable (a dict inside)
        return dumps(plain(value, cards))


def _encode_string(text: str) -> str:
    return orjson.dumps(text).decode()


_PREFIXES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _prefixes(kind: type) -> tuple[str, tuple[str, ...]]:
    """A dataclass's ``{"type":NAME,`` opening and each field's ``"name":``, made once."""
    try:
        return _PREFIXES[kind]
    except KeyError:
        names = _fields(kind) or ()
        made = ('{"type":' + _encode_string(kind.__name__) + ("," if names else ""),
                tuple(_encode_string(name) + ":" for name, _ in names))
        _PREFIXES[kind] = made
        return made


class Fragment(str):
    """JSON text that is sent as it is: built once from parts shared by many messages."""


class WireJSON:
    """The JSON module the socket.io server encodes with (python-socketio's ``json=`` option):
    ``dumps`` above (orjson), except that a ``Fragment`` among a packet's arguments goes out
    as the JSON it already is, so a message built from pre-encoded parts is not encoded again.
    Reading stays the standard library's (a command is small; its parse is the same as the
    frame guard's)."""

    @staticmethod
    def dumps(value: Any, **options: Any) -> str:
        if isinstance(value, list) and any(isinstance(item, Fragment) for item in value):
            return "[" + ",".join(item if isinstance(item, Fragment) else
                                  _encode_string(item) if type(item) is str else dumps(item)
                                  for item in value) + "]"
        return dumps(value)

    @staticmethod
    def loads(text: str | bytes, **options: Any) -> Any:
        return json.loads(text, **options)
