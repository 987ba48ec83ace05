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
from fractions import Fraction
from typing import Any

import orjson

from boardroom.cards import format_card

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


PartTexts = dict[int, tuple[Any, list[str]]]
"""By id: a value ``dumps_like`` composed and its fields' (or items') texts, kept alive."""


def dumps_like(value: Any, like: Any, memo: SharedTexts, parts: PartTexts, depth: int = 2,
               cards: bool = False, kept: KeptTexts | None = None) -> str:
    """``dumps_shared(value, memo, depth, cards, kept)`` for a ``value`` made from ``like`` (a
    seat's hand view is the spectators' with a few fields of its own; its seats are theirs
    with its own seat as its player sees it): ``like`` is composed once per ``parts``, field
    by field (or item by item), and each field of ``value`` that is ``like``'s own (by
    identity) takes ``like``'s text without a call; only the others are encoded, each made
    in turn from ``like``'s. The text is the same as ``dumps_shared``'s."""
    kind = type(value)
    if depth <= 0 or type(like) is not kind:
        return dumps_shared(value, memo, depth, cards, kept)
    names = _fields(kind)
    if names is None and not (kind is tuple and not cards and len(value) == len(like)):
        return dumps_shared(value, memo, depth, cards, kept)
    key = (id(value), cards)
    hit = memo.get(key)
    if hit is not None and hit[0] is value:
        return hit[1]
    found = parts.get(id(like))
    if found is None or found[0] is not like:
        found = parts[id(like)] = (like, _parts(like, memo, depth, cards, kept))
    texts = found[1]
    if value is like:
        text = _joined(kind, texts)
    else:
        if names is not None:
            labels = _prefixes(kind)[1]
            own = [old if (item := getattr(value, name)) is (was := getattr(like, name))
                   else label + dumps_like(item, was, memo, parts, depth - 1,
                                           cards or holds_cards, kept)
                   for (name, holds_cards), label, old in zip(names, labels, texts,
                                                              strict=True)]
        else:
            own = [old if item is was else
                   dumps_like(item, was, memo, parts, depth - 1, False, kept)
                   for item, was, old in zip(value, like, texts, strict=True)]
        parts[id(value)] = (value, own)  # its parts' texts, for part_texts
        text = _joined(kind, own)
    memo[key] = (value, text)
    return text


def part_texts(value: Any, memo: SharedTexts, parts: PartTexts,
               kept: KeptTexts | None = None, depth: int = 2) -> list[str]:
    """The texts ``value`` was composed from, after ``dumps_shared`` or ``dumps_like`` (with
    ``memo`` and ``parts``) encoded it at ``depth``: each field's with its label (a dataclass),
    or each item's (a tuple or list). Taken as ``dumps_like`` kept them when it composed
    ``value``, else from the memo: nothing is encoded again but numbers, strings and the like,
    which are written directly."""
    found = parts.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    return _parts(value, memo, depth, False, kept)


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


def _joined(kind: type, texts: list[str]) -> str:
    if _fields(kind) is None:
        return "[" + ",".join(texts) + "]"
    return _prefixes(kind)[0] + ",".join(texts) + "}"


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
