"""The real-time protocol's commands: their arguments, who may send them, and the limits.

A command is a JSON object ``{"id": "...", "type": "...", ...arguments}`` sent as the socket.io
event ``command`` with an acknowledgement; ``docs/protocol.md`` describes every one. ``parse``
checks the shape (and names what is wrong); the room's actor checks everything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from boardroom.engine import Action, ActionError, actions

MAX_MESSAGE = 4096  # bytes of JSON in one command
MAX_ID = 40
RATE = 10.0  # commands a second per connection, on average
BURST = 20.0  # commands a connection may send at once

# Who may send a command: anyone connected, anyone who joined a room, a player (not a
# spectator) who joined, the player in a seat, or the host.
ANYONE, JOINED, PLAYER, SEATED, HOST = "anyone", "joined", "player", "seated", "host"


class ProtocolError(ValueError):
    """A command that cannot be read or may not be sent: the text says what is wrong."""


# Every error answer carries one of these codes beside its message: a client chooses what to
# do by the code, never by the text (which may change). docs/protocol.md lists them.
ERROR_CODES: dict[str, str] = {
    "bad_command": "the command is not well formed: unknown type, missing or wrong argument",
    "rate_limited": "the connection sent more than the rate allows",
    "not_joined": "the command needs a room joined first",
    "no_room": "the room does not exist (or no longer)",
    "bad_seat_token": "the seat token is malformed, forged, for another room or out of date",
    "bad_host_secret": "the host secret is wrong",
    "bad_name": "the name is empty, too long or not printable",
    "refused": "the table's rules or state do not allow it now (the message says why)",
    "busy": "the room's queue is full: try again in a moment",
    "unavailable": "the room is not running or the server is shutting down",
    "not_saved": "the change could not be stored, so it did not happen: try again",
    "server_error": "the server failed to apply the command; the table was reloaded",
    "unknown_event": "a socket.io event other than 'command' was sent",
}


def failure(ident: str | None, code: str, message: str) -> dict[str, Any]:
    """An error answer: ``{"id", "ok": false, "code", "error"}``."""
    assert code in ERROR_CODES, code
    return {"id": ident, "ok": False, "code": code, "error": message}


@dataclass(frozen=True)
class Spec:
    who: str
    args: tuple[tuple[str, type, bool], ...] = ()  # (name, type, required)


COMMANDS: dict[str, Spec] = {
    "join": Spec(ANYONE, (("room", str, True), ("role", str, False), ("token", str, False),
                          ("host_secret", str, False), ("name", str, False))),
    "snapshot": Spec(JOINED),
    "sit": Spec(PLAYER, (("seat", int, True), ("name", str, True))),
    "leave": Spec(SEATED),
    "sit_out": Spec(SEATED),
    "sit_in": Spec(SEATED),
    "rebuy": Spec(SEATED, (("amount", int, True),)),
    "act": Spec(SEATED, (("action", str, True), ("amount", int, False))),
    "allocate": Spec(SEATED, (("cards", dict, True),)),
    "suggest": Spec(SEATED),
    "pick": Spec(SEATED, (("game", str, True), ("options", dict, False))),
    "show": Spec(SEATED, (("cards", str, True),)),
    "rabbit": Spec(SEATED),
    "seed": Spec(SEATED, (("hand_no", int, True), ("seed", str, True))),
    "chat": Spec(JOINED, (("text", str, True),)),
    "approve": Spec(HOST, (("seat", int, True),)),
    "approve_rebuy": Spec(HOST, (("seat", int, True),)),
    "kick": Spec(HOST, (("seat", int, True),)),
    "set_stack": Spec(HOST, (("seat", int, True), ("amount", int, True))),
    "pause": Spec(HOST),
    "resume": Spec(HOST),
    "deal_now": Spec(HOST),
    "transfer_host": Spec(HOST, (("seat", int, True),)),
    "close": Spec(HOST),
    "add_bot": Spec(HOST, (("style", str, True), ("seat", int, False), ("name", str, False))),
    "remove_bot": Spec(HOST, (("seat", int, True),)),
}
READ_ONLY = frozenset({"join", "snapshot", "suggest"})  # answered afresh, never deduplicated


@dataclass(frozen=True)
class Command:
    id: str
    type: str
    args: dict[str, Any]
    action: Action | None = None  # act: the action, parsed once here (``act_action``)


def command_id(data: object) -> str | None:
    """The id of a message, when it has a usable one (to answer even a broken command)."""
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str) and 0 < len(value) <= MAX_ID:
            return value
    return None


def parse(data: object) -> Command:
    """Check a command's shape; ``ProtocolError`` names the first thing wrong."""
    if isinstance(data, str | bytes) and len(data) > MAX_MESSAGE:
        raise ProtocolError(f"message too large (at most {MAX_MESSAGE} bytes)")
    if not isinstance(data, dict):
        raise ProtocolError("a command is a JSON object with an id and a type")
    try:
        size = len(json.dumps(data))
    except (TypeError, ValueError):
        raise ProtocolError("a command must be plain JSON") from None
    if size > MAX_MESSAGE:
        raise ProtocolError(f"message too large ({size} bytes; at most {MAX_MESSAGE})")
    ident = data.get("id")
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID:
        raise ProtocolError(f"every command needs an id: a string of 1 to {MAX_ID} characters")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise ProtocolError(f"unknown command type {str(kind)[:40]!r} "
                            f"(one of: {', '.join(COMMANDS)})")
    spec = COMMANDS[kind]
    names = {name for name, _, _ in spec.args}
    extra = sorted(set(data) - names - {"id", "type"})
    if extra:
        raise ProtocolError(f"{kind} takes no argument {extra[0][:40]!r}")
    args: dict[str, Any] = {}
    for name, kind_of, required in spec.args:
        if name not in data or data[name] is None:
            if required:
                raise ProtocolError(f"{kind} needs {name!r}")
            continue
        value = data[name]
        if not isinstance(value, kind_of) or (kind_of is int and isinstance(value, bool)):
            raise ProtocolError(f"{kind}: {name!r} must be "
                                f"{_NAMES[kind_of]}, not {type(value).__name__}")
        args[name] = value
    return Command(ident, kind, args, act_action(args) if kind == "act" else None)


ACTS = ("fold", "check", "call", "raise", "bring_in", "complete")
"""The ``action`` words of the ``act`` command (the engine's names for these actions)."""


def act_action(args: dict[str, Any]) -> Action:
    """The action value of an ``act`` command (``action`` and ``amount``, shape-checked)."""
    name = args["action"]
    if name not in ACTS:
        raise ProtocolError(f"unknown action {name[:40]!r} (one of: {', '.join(ACTS)})")
    try:
        return actions.from_record(name, args.get("amount"))
    except ActionError as error:
        raise ProtocolError(str(error)) from None


_NAMES = {str: "a string", int: "a whole number", dict: "an object"}


class RateLimit:
    """A token bucket: ``RATE`` commands a second on average, bursts of ``BURST``."""

    def __init__(self, now: float, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.updated = burst, now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
