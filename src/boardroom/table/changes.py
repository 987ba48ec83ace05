"""A table's stored state between whole writes: each commit's change to ``Table.to_state()``.

Within a hand most commits only add the hand's actions and touch a seat's clock (its time bank,
its timeouts) and the version. Writing the whole state for each of them would rewrite the deck,
every seat and the actions so far; the store keeps instead the state written whole at the last
hand boundary (or seat or ledger change) and, per commit, the change that leads from one state
to the next. ``with_changes(state, changes)`` gives the state back, the hand's actions included,
and ``Table.from_state`` replays that hand through the engine.

A change is plain data: ``{"actions": [...]}`` (the hand's new actions, appended), ``{"seats":
{"N": {...}}}`` (each seat that changed, whole) and ``{"set": {key: value}}`` (every other key
of the state that changed, whole).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def state_change(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any] | None:
    """What turns state ``old`` into ``new`` (``with_changes(old, [change]) == new``), or None
    when only the whole state says it well: a hand dealt or ended, a seat taken or left."""
    if old.keys() != new.keys():
        return None
    change: dict[str, Any] = {}
    for key, value in new.items():
        before = old[key]
        if before == value:
            continue
        if key == "hand":
            actions = _added_actions(before, value)
            if actions is None:
                return None
            change["actions"] = actions
        elif key == "seats":
            if before.keys() != value.keys():
                return None
            change["seats"] = {n: seat for n, seat in value.items() if before[n] != seat}
        else:
            change.setdefault("set", {})[key] = value
    return change


def _added_actions(old: Any, new: Any) -> list[Any] | None:
    """The actions ``new`` (a hand record) adds to ``old``, if it is the same hand played on."""
    if old is None or new is None or old.keys() != new.keys():
        return None
    done: list[Any] = old["actions"]
    actions: list[Any] = new["actions"]
    if len(actions) < len(done) or actions[:len(done)] != done:
        return None
    if any(new[key] != old[key] for key in new if key != "actions"):
        return None
    return actions[len(done):]


def with_changes(state: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """``state`` with ``changes`` (from ``state_change``) applied in order; ``state`` itself
    is not changed."""
    out = dict(state)
    for change in changes:
        actions = change.get("actions")
        if actions:
            hand = out["hand"]
            out["hand"] = {**hand, "actions": [*hand["actions"], *actions]}
        seats = change.get("seats")
        if seats:
            out["seats"] = {**out["seats"], **seats}
        out.update(change.get("set", {}))
    return out
