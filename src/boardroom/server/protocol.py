"""The real-time protocol's commands: their arguments, who may send them, and the limits.

A command is a JSON object ``{"id": "...", "type": "...", ...arguments}`` sent as the socket.io
event ``command`` with an acknowledgement; its type is in ``wire`` and ``docs/protocol.md``
describes every one. ``parse`` reads it into that type (and names what is wrong); the room's
actor checks everything else.
"""

from __future__ import annotations

import json
import types
from dataclasses import dataclass
from typing import Any, NotRequired, cast, get_args, get_origin, get_type_hints

from pydantic import ValidationError

from boardroom.engine import Action, ActionError, actions
from boardroom.server import wire
from boardroom.server.wire import ERROR_CODES as ERROR_CODES
from boardroom.server.wire import MAX_ID as MAX_ID

MAX_MESSAGE = 4096  # bytes of JSON in one command
RATE = 10.0  # commands a second per connection, on average
BURST = 20.0  # commands a connection may send at once

# Who may send a command: anyone connected, anyone who joined a room, a player (not a
# spectator) who joined, the player in a seat, or the host.
ANYONE, JOINED, PLAYER, SEATED, HOST = "anyone", "joined", "player", "seated", "host"


class ProtocolError(ValueError):
    """A command that cannot be read or may not be sent: the text says what is wrong."""


def failure(ident: str | None, code: str, message: str) -> dict[str, Any]:
    """An error answer (``wire.ErrorAnswer``: ``{"id", "ok": false, "code", "error"}``), as
    the plain dict the room's answers are."""
    assert code in ERROR_CODES, code
    answer: wire.ErrorAnswer = {"id": ident, "ok": False, "code": cast(wire.ErrorCode, code),
                                "error": message}
    return cast(dict[str, Any], answer)


@dataclass(frozen=True)
class Spec:
    who: str
    cash_only: bool  # a cash game's: a tournament's table refuses it (code tournament_table)
    args: tuple[tuple[str, type, bool], ...] = ()  # (name, type, required), from its wire type


def _spec(who: str, kind: str) -> Spec:
    """Who may send command ``kind``, and its arguments as its type in ``wire`` names them."""
    args = []
    for name, hint in get_type_hints(wire.COMMAND_BY_TYPE[kind], include_extras=True).items():
        if name in ("id", "type"):
            continue
        required = get_origin(hint) is not NotRequired
        if not required:
            hint = get_args(hint)[0]
        if isinstance(hint, types.UnionType):  # X | None: null is absent
            hint = next(option for option in get_args(hint) if option is not type(None))
        args.append((name, get_origin(hint) or hint, required))
    return Spec(who, kind in _CASH_ONLY, tuple(args))


_WHO = {
    "join": ANYONE, "snapshot": JOINED, "sit": PLAYER, "leave": SEATED, "sit_out": SEATED,
    "sit_in": SEATED, "rebuy": SEATED, "act": SEATED, "allocate": SEATED, "runs": SEATED,
    "straddle": SEATED, "suggest": SEATED,
    "pick": SEATED, "show": SEATED, "rabbit": SEATED, "seed": SEATED, "chat": JOINED,
    "approve": HOST, "approve_rebuy": HOST, "kick": HOST, "set_stack": HOST, "pause": HOST,
    "resume": HOST, "deal_now": HOST, "transfer_host": HOST, "close": HOST, "add_bot": HOST,
    "remove_bot": HOST,
}
# The cash game's seating and chips: at a tournament's table the director seats everyone and
# sets every stack, a player away is blinded off (never sat out or removed), and the rebuys and
# the add-on are the tournament's (``/api/tournaments/{id}/me/rebuy``).
_CASH_ONLY = frozenset({"sit", "leave", "sit_out", "sit_in", "rebuy", "straddle", "approve",
                        "approve_rebuy", "kick", "set_stack", "deal_now", "transfer_host",
                        "close", "add_bot", "remove_bot"})
assert set(_WHO) >= _CASH_ONLY, "a cash-only command is a command"
assert set(_WHO) == set(wire.COMMAND_BY_TYPE), "every wire command has a sender, and only those"
COMMANDS: dict[str, Spec] = {kind: _spec(who, kind) for kind, who in _WHO.items()}
READ_ONLY = frozenset({"join", "snapshot", "suggest"})  # answered afresh, never deduplicated


@dataclass(frozen=True)
class Command:
    id: str
    type: str
    args: dict[str, Any]  # the arguments given (none null), checked against the command's type
    action: Action | None = None  # act: the action, parsed once here (``act_action``)


def command_id(data: object) -> str | None:
    """The id of a message, when it has a usable one (to answer even a broken command)."""
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str) and 0 < len(value) <= MAX_ID:
            return value
    return None


def parse(data: object) -> Command:
    """Read a command into its wire type (``wire.Command``: pydantic, strict);
    ``ProtocolError`` names the first thing wrong."""
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
    ident = command_id(data)
    if ident is None:
        raise ProtocolError(f"every command needs an id: a string of 1 to {MAX_ID} characters")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise ProtocolError(f"unknown command type {str(kind)[:40]!r} "
                            f"(one of: {', '.join(COMMANDS)})")
    try:
        message = wire.command_adapter(kind).validate_python(data)
    except ValidationError as error:
        raise ProtocolError(_first_problem(kind, error)) from None
    args = {name: value for name, value in message.items()
            if name not in ("id", "type") and value is not None}
    return Command(ident, kind, args, act_action(args) if kind == "act" else None)


ACTS = ("fold", "check", "call", "raise", "bring_in", "complete", "draw")
"""The ``action`` words of the ``act`` command (the engine's names for these actions)."""


def act_action(args: dict[str, Any]) -> Action:
    """The action value of an ``act`` command (``action`` with its ``amount`` or, for a draw,
    its ``cards``), shape-checked."""
    name = args["action"]
    if name not in ACTS:
        raise ProtocolError(f"unknown action {name[:40]!r} (one of: {', '.join(ACTS)})")
    if name == actions.Draw.name:
        if "amount" in args:
            raise ProtocolError("a draw names the cards it throws (cards), not an amount")
        argument = args.get("cards", "")
    elif "cards" in args:
        raise ProtocolError(f"{name} takes no cards (only a draw does)")
    else:
        argument = args.get("amount")
    try:
        return actions.from_record(name, argument)
    except ActionError as error:
        raise ProtocolError(str(error)) from None


_NAMES = {"string_type": "a string", "int_type": "a whole number", "dict_type": "an object"}


def _first_problem(kind: str, error: ValidationError) -> str:
    """The first thing wrong with a command, in words: an argument it does not take, then the
    arguments in their order, a missing one or one of the wrong type."""
    problems = error.errors(include_url=False, include_context=False)
    extra = sorted(str(p["loc"][0]) for p in problems if p["type"] == "extra_forbidden")
    if extra:
        return f"{kind} takes no argument {extra[0][:40]!r}"
    problem = problems[0]
    name = str(problem["loc"][0]) if problem["loc"] else "?"
    if problem["type"] == "missing":
        return f"{kind} needs {name!r}"
    if problem["type"] in _NAMES:
        return f"{kind}: {name!r} must be {_NAMES[problem['type']]}, " \
               f"not {type(problem['input']).__name__}"
    return f"{kind}: {name!r} is not valid: {problem['msg']}"


class RateLimit:
    """A token bucket: ``RATE`` commands a second on average, bursts of ``BURST``."""

    __slots__ = ("burst", "rate", "tokens", "updated")  # one a connection

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
