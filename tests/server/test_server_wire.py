"""The typed wire (``server.wire``): its served JSON Schema, the checks every server test runs
on what its clients receive, and docs/protocol.md listing exactly the module's types."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path

import pytest
import typing_extensions
from server_helpers import clients, new_room, running_server
from wire_check import SCHEMA_ROUTE, violations

from boardroom.engine import events as ev
from boardroom.server import wire
from boardroom.server.protocol import COMMANDS, ProtocolError, parse

DOC = Path(__file__).parents[2] / "docs" / "protocol.md"
SCHEMA = json.dumps(wire.schema())


def _types() -> set[str]:
    """Every public TypedDict the module defines."""
    return {name for name, value in vars(wire).items()
            if isinstance(value, type) and typing_extensions.is_typeddict(value)
            and value.__module__ == wire.__name__ and not name.startswith("_")}


async def test_the_schema_is_served_and_names_every_type(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        answer = await running.http.get(SCHEMA_ROUTE)
    assert answer.status_code == 200
    served = answer.json()
    assert served == wire.schema()
    assert list(served["properties"]) == list(wire.MESSAGES)
    assert set(served["$defs"]) | {"Wire"} == _types()


def test_the_docs_list_exactly_the_types_of_the_module() -> None:
    text = DOC.read_text()
    section = text.split("### The wire's types and its JSON Schema", 1)[1].split("\n## ", 1)[0]
    table = section[section.index("| group | types |"):]
    listed = set(re.findall(r"`([A-Z][A-Za-z]+)`", table))
    assert listed == _types(), (sorted(listed - _types()), sorted(_types() - listed))
    assert SCHEMA_ROUTE in text.split("## Real time", 1)[0]  # in the HTTP routes' table


def test_every_command_has_a_type_and_every_engine_event_a_wire_type() -> None:
    assert set(wire.COMMAND_BY_TYPE) == set(COMMANDS)
    engine = {kind.__name__: kind for kind in vars(ev).values()
              if isinstance(kind, type) and issubclass(kind, ev.Event) and kind is not ev.Event}
    typed = {kind.__name__: kind for kind in wire.HAND_EVENT_TYPES}
    assert set(engine) == set(typed)
    for name, kind in engine.items():  # the same fields, plus the type's name
        assert [f.name for f in dataclasses.fields(kind)] == \
            [field for field in typed[name].__annotations__ if field != "type"], name


@pytest.mark.parametrize(("message", "problem"), [
    ({"room": "r", "version": 3, "events": [{"room": "r", "version": 3, "kind": "jackpot",
                                             "at": 1.0, "data": {}}]},
     "kind 'jackpot' is none of the schema's"),
    ({"room": "r", "version": 3, "events": [
        {"room": "r", "version": 3, "kind": "hand", "hand_no": 1, "at": 1.0, "data": {},
         "event": {"type": "Straddled", "seat": 0, "amount": 4}}]},
     "type 'Straddled' is none of the schema's"),
    ({"room": "r", "version": 3, "events": [
        {"room": "r", "version": 3, "kind": "chat", "at": 1.0,
         "data": {"seat": None, "name": "Sue", "text": "hi", "colour": "red"}}]},
     "Additional properties are not allowed ('colour' was unexpected)"),
    ({"room": "r", "version": 3, "events": [
        {"room": "r", "version": 3, "kind": "hand", "hand_no": 1, "at": 1.0, "data": {},
         "event": {"type": "HoleDealt", "seat": 0, "cards": ["As", "1x"], "up": [False]}}]},
     "'1x' does not match"),
])
def test_a_message_the_module_does_not_list_fails_the_check(message: dict[str, object],
                                                            problem: str) -> None:
    found = violations(SCHEMA, "update", message)
    assert any(problem in line for line in found), found
    assert violations(SCHEMA, "telegram", {}) == \
        ["the schema lists no message 'telegram' (it lists "
         "['answer', 'command', 'error', 'host', 'tournament', 'update'])"]


def test_commands_are_read_into_their_types_strictly() -> None:
    command = parse({"id": "c1", "type": "act", "action": "raise", "amount": 24})
    assert (command.type, command.args) == ("act", {"action": "raise", "amount": 24})
    assert parse({"id": "c2", "type": "join", "room": "r", "name": None}).args == {"room": "r"}
    for data, error in [
        ({"id": "c", "type": "sit", "seat": "2", "name": "Ann"},
         "sit: 'seat' must be a whole number, not str"),
        ({"id": "c", "type": "sit", "seat": True, "name": "Ann"},
         "sit: 'seat' must be a whole number, not bool"),
        ({"id": "c", "type": "sit", "name": "Ann"}, "sit needs 'seat'"),
        ({"id": "c", "type": "leave", "now": True}, "leave takes no argument 'now'"),
        ({"id": "c", "type": "allocate", "cards": ["As"]},
         "allocate: 'cards' must be an object, not list"),
        ({"id": "c", "type": "act", "action": "call", "amount": 2.5},
         "act: 'amount' must be a whole number, not float"),
    ]:
        with pytest.raises(ProtocolError) as raised:
            parse(data)
        assert str(raised.value) == error
    for data in [{"id": "c", "type": kind, **{name: {str: "x", int: 1, dict: {}, bool: True}[of]
                                             for name, of, _ in spec.args}}
                 for kind, spec in COMMANDS.items()]:  # what the schema says is what is read
        if data["type"] == "act":  # its action is read on into an action value
            data = {"id": "c", "type": "act", "action": "draw", "cards": ""}
        assert violations(SCHEMA, "command", data) == [], data
        parse(data)


async def test_what_a_whole_hand_sends_validates(tmp_path: Path) -> None:
    """A hand played to its end with a spectator watching: every answer and push the clients
    saw passed the schema check (``Client`` checks each as it comes)."""
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 3) as (host, ann, watcher):
            await host.ok("join", room=room, host_secret=secret, role="spectator")
            await watcher.ok("join", room=room, role="spectator", name="Sue")
            await ann.ok("join", room=room)
            await ann.ok("sit", seat=0, name="Ann")
            await host.ok("add_bot", style="station")
            await ann.wait_for(lambda e: e["kind"] == "turn")
            while not any(e["kind"] == "hand_ended" for e in ann.events):
                seen = len(ann.events)
                await ann.cmd("act", action="call")
                await ann.cmd("act", action="check")
                while len(ann.events) == seen or not any(  # a new turn, or the end
                        e["kind"] in ("turn", "hand_ended") for e in ann.events[seen:]):
                    await asyncio.sleep(0.02)
            await ann.ok("chat", text="gg")
            await host.ok("remove_bot", seat=1)
            kinds = {kind for client in (host, ann, watcher) for kind, _ in client.received}
            assert {"answer", "event", "view"} <= kinds
            for client in (host, ann, watcher):
                assert client.violations == []


async def test_games_are_games_and_the_old_routes_still_answer(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        games = (await running.http.get("/api/games")).json()["games"]
        old = (await running.http.get("/api/variants")).json()["variants"]
        example = (await running.http.get("/api/games/plo/example")).json()
        old_example = (await running.http.get("/api/variants/plo/example")).json()
        openapi = (await running.http.get("/openapi.json")).json()["paths"]
    assert old == games
    assert {game["id"] for game in games} >= {"plo", "esg"}
    assert old_example == example
    assert example["view"]["game"] == "plo"
    assert "pool_size" in example["view"]
    assert "variant" not in example["view"]
    assert openapi["/api/variants"]["get"]["deprecated"] is True
    assert "deprecated" not in openapi["/api/games"]["get"]


def test_the_cli_says_game_and_keeps_the_old_option_hidden(
        capsys: pytest.CaptureFixture[str]) -> None:
    from boardroom.cli import main

    assert main(["sim", "--variant", "nope"]) == 2  # the old name reaches the same check
    old = capsys.readouterr().err
    assert main(["sim", "--game", "nope"]) == 2
    assert capsys.readouterr().err == old
    assert "nope" in old
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    shown = capsys.readouterr().out
    assert "--game" in shown
    assert "--variant" not in shown
