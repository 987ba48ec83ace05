"""A view's changes since the last update of an audience (docs/protocol.md, "Patches").

An ``update`` carries either its audience's whole ``view`` or, when that audience's
connections hold the view of the version before (``base``), a ``patch``: a list of changes,
each ``[path, value]`` (set the value at ``path``) or ``[path]`` (remove that key), where a
path is a list of object keys and array indices from the view's top (``["hand", "seats",
2]``). A change never creates a missing parent: the value at every shorter path exists.

The server writes patches as text from the parts it encoded anyway (``server.room``); this
module holds what is done with plain data: the table's changes (compared once per commit,
shared by every audience) and the fold a client does (``apply``), which the bench's clients
and the tests use, as the web client's ``conn.js`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Path = list[str | int]


def changes(old: Mapping[str, Any], new: Mapping[str, Any], path: Path) -> list[list[Any]]:
    """The changes that make plain data ``old`` into ``new`` (both objects), under ``path``:
    a key that changed is set (a list of the same length item by item, one level down), a key
    that appeared is set, a key that went is removed. Values are compared by equality (plain
    data: a value kept from an earlier change must not have been changed in place since)."""
    out: list[list[Any]] = []
    for key, value in new.items():
        if key not in old:
            out.append([[*path, key], value])
            continue
        was = old[key]
        if was == value:
            continue
        if type(value) is list and type(was) is list and len(value) == len(was):
            out += [[[*path, key, index], item]
                    for index, (item, before) in enumerate(zip(value, was, strict=True))
                    if item != before]
        else:
            out.append([[*path, key], value])
    out += [[[*path, key]] for key in old if key not in new]
    return out


def apply(view: Mapping[str, Any], patch: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """``view`` with ``patch`` applied, copy on write: ``view`` and every part of it the patch
    does not touch are left as they are (shared with the result). A change whose path does
    not lead into the view is a ``ValueError`` naming the path."""
    out = dict(view)
    made = {id(out)}  # the containers this fold made (changed in place from then on)
    for change in patch:
        if not isinstance(change, Sequence) or len(change) not in (1, 2) or \
                not isinstance(change[0], list) or not change[0]:
            raise ValueError(f"a change is [path] or [path, value], not {change!r:.80}")
        path = change[0]
        node: Any = out
        for key in path[:-1]:
            child = _child(node, key, path)
            if id(child) not in made:
                child = dict(child) if isinstance(child, dict) else list(child) \
                    if isinstance(child, list) else _bad(path)
                made.add(id(child))
                node[key] = child
            node = child
        last: Any = path[-1]
        if len(change) == 1:
            if not isinstance(node, dict) or last not in node:
                _bad(path)
            del node[last]
        elif _settable(node, last):
            node[last] = change[1]
        else:
            _bad(path)
    return out


def fold(view: Mapping[str, Any] | None, version: int,
         update: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a client holding ``view`` (None: none yet) at ``version`` holds after ``update``:
    its whole view laid over the held one, or its patch folded into the held one; None when
    the patch is of a view the client does not hold (a gap: the client asks for a snapshot)."""
    if "patch" not in update:
        return {**(view or {}), **update["view"]}
    if view is None or update["base"] != version:
        return None
    return apply(view, update["patch"])


def _settable(node: Any, key: Any) -> bool:
    """Whether ``node[key]`` may be set: a key of an object, an index of an array."""
    return (isinstance(node, dict) and isinstance(key, str)) or \
        (isinstance(node, list) and type(key) is int and 0 <= key < len(node))


def _child(node: Any, key: Any, path: Path) -> Any:
    if isinstance(node, dict) and isinstance(key, str) and key in node:
        return node[key]
    if isinstance(node, list) and type(key) is int and 0 <= key < len(node):
        return node[key]
    return _bad(path)


def _bad(path: Path) -> Any:
    raise ValueError(f"the patch's path {path!r:.80} is not in the view")
