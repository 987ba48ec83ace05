"""The real-time protocol in process: every command, every error, ids applied once, per-viewer
events and snapshots, host commands, and a table that keeps going under bad input."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, FakeClock, clients, new_room, running_server

from boardroom import fairness
from boardroom.engine.history import replay, setup_of


def _versions(client: Client) -> list[int]:
    return [event["version"] for event in client.events]


async def _seat(client: Client, room: str, seat: int, name: str) -> str:
    await client.ok("join", room=room)
    token: str = (await client.ok("sit", seat=seat, name=name))["token"]
    return token


async def test_malformed_messages_get_clear_errors(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running, clients(running.url, 1) as (client,):
        bad = "bad_command"
        cases: list[tuple[Any, str, str]] = [
            ("hello", bad, "a command is a JSON object with an id and a type"),
            ([1, 2], bad, "a command is a JSON object with an id and a type"),
            ({"type": "snapshot"}, bad, "every command needs an id"),
            ({"id": "x" * 41, "type": "snapshot"}, bad, "every command needs an id"),
            ({"id": "1", "type": "dance"}, bad, "unknown command type 'dance'"),
            ({"id": "1", "type": "sit", "seat": 0}, bad, "sit needs 'name'"),
            ({"id": "1", "type": "sit", "seat": "0", "name": "A"}, bad,
             "'seat' must be a whole number"),
            ({"id": "1", "type": "sit", "seat": True, "name": "A"}, bad, "must be a whole number"),
            ({"id": "1", "type": "act", "action": "fold", "why": 1}, bad,
             "act takes no argument 'why'"),
            ({"id": "1", "type": "act", "action": "shove"}, bad, "unknown action 'shove'"),
            ({"id": "1", "type": "act", "action": "raise"}, bad, "a raise needs an amount"),
            ({"id": "1", "type": "act", "action": "fold", "amount": 5}, bad,
             "fold takes no amount"),
            ({"id": "1", "type": "chat", "text": "x" * 5000}, bad, "message too large"),
            ({"id": "1", "type": "snapshot"}, "not_joined", "join a room first"),
            ({"id": "1", "type": "join", "room": "nowhere"}, "no_room",
             "there is no room 'nowhere'"),
        ]
        for message, code, error in cases:
            answer = await client.send(message)
            assert answer["ok"] is False
            assert answer["code"] == code, (message, answer)
            assert error in answer["error"], (message, answer)
        assert (await client.send({"id": "7", "type": "dance"}))["id"] == "7"
        await client.sio.emit("shout", {"x": 1})
        await asyncio.sleep(0.2)
        assert ("error", {"id": None, "ok": False, "code": "unknown_event",
                          "error": "unknown event 'shout': send commands as 'command'"}
                ) in client.received


async def test_a_malformed_draw_gets_a_clear_error(tmp_path: Path) -> None:
    """(Apart from the malformed messages above: one connection's burst stays under the rate
    limit.)"""
    async with running_server(tmp_path) as running, clients(running.url, 1) as (client,):
        for message, error in [
            ({"id": "1", "type": "act", "action": "draw", "cards": "Zz"},
             "a draw names the cards to throw: 'Zz' is not a card"),
            ({"id": "2", "type": "act", "action": "draw", "amount": 2},
             "a draw names the cards it throws (cards), not an amount"),
            ({"id": "3", "type": "act", "action": "call", "cards": "As"},
             "call takes no cards (only a draw does)"),
            ({"id": "4", "type": "act", "action": "draw", "cards": 5},
             "'cards' must be a string"),
        ]:
            answer = await client.send(message)
            assert answer["ok"] is False
            assert answer["code"] == "bad_command", (message, answer)
            assert error in answer["error"], (message, answer)


async def test_flooding_is_rate_limited_and_the_table_keeps_going(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        async with clients(running.url, 2) as (flood, calm):
            await flood.ok("join", room=room)
            await calm.ok("join", room=room)
            answers = await asyncio.gather(*(flood.cmd("chat", text="spam") for _ in range(60)))
            refused = [a for a in answers if not a["ok"]]
            assert refused
            assert all(a["error"] == "too many messages: at most 10 a second" for a in refused)
            assert {a["code"] for a in refused} == {"rate_limited"}
            assert len(refused) >= 30
            answer = await calm.cmd("chat", text="still here")
            assert answer["ok"]


async def test_join_roles_tokens_and_host_secret_errors(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, spectators_allowed=False)
        other, _ = await new_room(running)
        async with clients(running.url, 3) as (a, b, c):
            errors = {
                "join as 'player' or 'spectator', not 'judge'": ("refused", {"role": "judge"}),
                "this room does not allow spectators": ("refused", {"role": "spectator"}),
                "wrong host secret": ("bad_host_secret", {"host_secret": "guess"}),
                "not a seat token": ("bad_seat_token", {"token": "abc"}),
                "the seat token is not valid (bad signature)": ("bad_seat_token",
                                                                {"token": "abc.def"}),
                "a name is 1 to 24 printable characters": ("bad_name", {"name": "x" * 30}),
            }
            for error, (code, args) in errors.items():
                answer = await a.cmd("join", room=room, **args)
                assert answer == {"id": answer["id"], "ok": False, "code": code, "error": error}
            joined = await a.ok("join", room=room, role="spectator", host_secret=secret)
            assert joined["you"] == {"room": room, "role": "spectator", "seat": None,
                                     "host": True}
            token = await _seat(b, room, 0, "Bob")
            wrong_room = await c.cmd("join", room=other, token=token)
            assert wrong_room["error"] == "this seat token is for another room"
            assert wrong_room["code"] == "bad_seat_token"
            as_spectator = await c.cmd("join", room=room, role="spectator", token=token)
            assert as_spectator["ok"] is False
            assert (await b.ok("leave"))["ok"]
            stale = await c.cmd("join", room=room, token=token)
            assert stale["error"] == ("this seat token is no longer valid: seat 0 is not yours "
                                      "any more")
            assert stale["code"] == "bad_seat_token"


async def test_sit_reconnect_and_seat_errors(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 4) as (a, b, spectator, late):
            token = await _seat(a, room, 0, "Ann")
            assert (await a.cmd("sit", seat=1, name="Again"))["error"] == \
                "you already sit in seat 0"
            await b.ok("join", room=room)
            assert (await b.cmd("sit", seat=0, name="Bob"))["error"] == "seat 0 is taken"
            assert (await b.cmd("sit", seat=9, name="Bob"))["error"] == \
                "there is no seat 9: seats are 0 to 5"
            assert (await b.cmd("sit", seat=1, name="ann"))["error"] == \
                "the name 'ann' is taken at this table"
            assert (await b.cmd("act", action="fold"))["error"] == \
                "you have no seat at this table"
            await spectator.ok("join", room=room, role="spectator")
            assert (await spectator.cmd("sit", seat=2, name="Sam"))["error"] == \
                "spectators cannot take a seat: join as a player"
            assert (await spectator.cmd("act", action="fold"))["error"] == \
                "spectators cannot act"
            await b.ok("sit", seat=1, name="Bob")
            dealt = await a.wait_for(lambda e: e.get("event", {}).get("type") == "HoleDealt"
                                     and e["event"]["seat"] == 0)
            mine = dealt["event"]["cards"]
            assert all(isinstance(card, str) for card in mine)
            await a.close()
            await late.ok("join", room=room, token=token)
            snapshot = (await late.ok("snapshot"))["snapshot"]
            assert snapshot["you"]["seat"] == 0
            hand = snapshot["hand"]
            seats = hand["seats"]
            assert next(s for s in seats if s["seat"] == 0)["cards"] == mine
            assert all(card is None for s in seats if s["seat"] != 0 for card in s["cards"])


async def test_every_message_names_the_table_seats(tmp_path: Path) -> None:
    """Players at seats 2 and 5: hand events, views, the turn and refusals all say 2 and 5."""
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 3) as (a, b, watcher):
            await _seat(a, room, 2, "Ann")
            await _seat(b, room, 5, "Bob")
            await watcher.ok("join", room=room, role="spectator")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            to_act = turn["data"]["seat"]
            assert to_act in (2, 5)
            actor, waiter = (a, b) if to_act == 2 else (b, a)
            for client, seat in ((a, 2), (b, 5), (watcher, None)):
                hand = (await client.ok("snapshot"))["snapshot"]["hand"]
                assert hand["viewer"] == seat
                assert [s["seat"] for s in hand["seats"]] == [2, 5]
                assert hand["actor"] == to_act
                assert hand["button"] in (2, 5)
                if seat is not None:
                    mine = next(s for s in hand["seats"] if s["seat"] == seat)
                    assert all(card is not None for card in mine["cards"])
            blinds = [e["event"] for e in a.events  # (seated before the deal)
                      if e.get("event", {}).get("type") == "BlindPosted"]
            assert sorted(event["seat"] for event in blinds) == [2, 5]
            assert (await actor.cmd("act", action="check"))["error"].startswith(
                f"seat {to_act} cannot check facing a bet of 2")
            assert (await waiter.cmd("act", action="call"))["error"].startswith(
                "it is not your turn")
            await actor.ok("act", action="fold")
            ended = await watcher.wait_for(
                lambda e: e.get("event", {}).get("type") == "HandEnded")
            assert sorted(seat for seat, _ in ended["event"]["stacks"]) == [2, 5]
            awarded = next(e["event"] for e in watcher.events
                           if e.get("event", {}).get("type") == "PotAwarded")
            assert awarded["shares"][0][0] == (5 if to_act == 2 else 2)


async def test_acting_in_turn_once_per_id_and_events_in_order(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 3) as (a, b, watcher):
            await _seat(a, room, 0, "Ann")
            await _seat(b, room, 1, "Bob")
            await watcher.ok("join", room=room, role="spectator")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            actor, waiter = (a, b) if turn["data"]["seat"] == 0 else (b, a)
            assert (await waiter.cmd("act", action="call"))["error"].startswith(
                "it is not your turn")
            assert (await actor.cmd("act", action="raise"))["error"].startswith(
                "a raise needs an amount")
            assert (await actor.cmd("act", action="raise", amount=1000))["error"] == \
                "raise to 1000 is above the pot limit of 6"
            message = {"id": "call-once", "type": "act", "action": "call"}
            first = await actor.send(message)
            again = await actor.send(message)
            assert first["ok"]
            assert again == {**first, "duplicate": True}
            await asyncio.sleep(0.2)
            calls = [e for e in watcher.events if e.get("event", {}).get("type") == "Called"]
            assert len(calls) == 1
            for client in (a, b, watcher):
                versions = _versions(client)
                assert versions == list(range(versions[0], versions[0] + len(versions)))
            assert (await actor.cmd("allocate", cards={"A": ["As", "Kd"]}))["error"] == \
                "PLO has no allocation"
            assert (await actor.cmd("pick", game="plo"))["error"] == \
                "nobody is picking a game now"


async def test_a_version_gap_is_filled_by_a_snapshot(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        async with clients(running.url, 2) as (a, b):
            await a.ok("join", room=room)
            joined = await b.ok("join", room=room)
            assert joined["snapshot"]["version"] == joined["version"]
            await a.ok("sit", seat=0, name="Ann")
            await a.ok("chat", text="hi")
            event = await b.wait_for(lambda e: e["kind"] == "chat")
            assert event["data"] == {"seat": 0, "name": "Ann", "text": "hi"}
            snapshot = (await b.ok("snapshot"))["snapshot"]
            assert snapshot["version"] == event["version"]
            assert snapshot["table"]["seats"][0]["name"] == "Ann"
            assert snapshot["chat"][-1]["data"]["text"] == "hi"


async def test_spectators_chat_and_see_no_hole_cards(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 3) as (a, b, watcher):
            await watcher.ok("join", room=room, role="spectator", name="Sam")
            await _seat(a, room, 0, "Ann")
            await _seat(b, room, 1, "Bob")
            await watcher.ok("chat", text="good luck")
            said = await a.wait_for(lambda e: e["kind"] == "chat")
            assert said["data"] == {"seat": None, "name": "Sam", "text": "good luck"}
            await watcher.wait_for(lambda e: e["kind"] == "turn")
            dealt = [e["event"] for e in watcher.events
                     if e.get("event", {}).get("type") == "HoleDealt"]
            assert len(dealt) == 2
            assert all(card is None for event in dealt for card in event["cards"])
            for client, seat in ((a, 0), (b, 1)):
                own = [e["event"] for e in client.events
                       if e.get("event", {}).get("type") == "HoleDealt"]
                for event in own:
                    visible = [card for card in event["cards"] if card is not None]
                    assert bool(visible) == (event["seat"] == seat)


async def test_host_commands(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, seat_approval=True, pause_between_hands=0.1)
        async with clients(running.url, 4) as (host, a, b, new_host):
            await host.ok("join", room=room, host_secret=secret)
            await _seat(a, room, 0, "Ann")
            await _seat(b, room, 1, "Bob")
            for kind, args in [("approve", {"seat": 0}), ("approve_rebuy", {"seat": 0}),
                               ("kick", {"seat": 0}), ("set_stack", {"seat": 0, "amount": 5}),
                               ("pause", {}), ("resume", {}), ("transfer_host", {"seat": 0}),
                               ("close", {})]:
                answer = await a.cmd(kind, **args)
                assert answer["error"] == f"only the host can {kind.replace('_', ' ')}", kind
            assert (await a.cmd("act", action="fold"))["error"] == "seat 0 is not in a hand"
            await host.ok("approve", seat=0)
            assert (await host.cmd("approve", seat=0))["error"] == \
                "seat 0 is not waiting for approval"
            # Paused before the second player is approved, no hand starts under the stack
            # changes below (with a pause of 0.1 s between hands, one did on a loaded machine).
            await host.ok("pause")
            assert (await host.cmd("pause"))["error"] == "the table is already paused"
            await host.ok("approve", seat=1)
            await host.ok("set_stack", seat=1, amount=150)
            await b.ok("rebuy", amount=50)
            await host.ok("approve_rebuy", seat=1)
            await host.ok("resume")
            await a.wait_for(lambda e: e["kind"] == "turn")
            assert (await host.cmd("set_stack", seat=1, amount=1))["error"] == \
                "seat 1 is in a hand: set its stack between hands"
            assert (await host.cmd("transfer_host", seat=4))["error"] == \
                "seat 4 is empty: the host passes to a seated player"
            await host.ok("transfer_host", seat=0)
            given = None
            for _ in range(100):
                given = next((d for k, d in a.received if k == "host"), None)
                if given:
                    break
                await asyncio.sleep(0.02)
            assert given is not None
            assert given["room"] == room
            assert not any(k == "host" for k, _ in b.received)
            assert (await host.cmd("pause"))["error"] == "only the host can pause"
            assert (await new_host.cmd("join", room=room, host_secret=secret))["error"] == \
                "wrong host secret"
            await new_host.ok("join", room=room, host_secret=given["host_secret"])
            await a.ok("pause")
            await a.ok("resume")
            await new_host.ok("kick", seat=1)  # folds at its turn, leaves when the hand ends
            deadline = time.monotonic() + 30
            while not any(e["kind"] == "left" for e in a.events):
                assert time.monotonic() < deadline, "the kicked player never left"
                legal = (await a.ok("snapshot"))["snapshot"]["hand"]
                if legal is not None and legal["legal"] is not None:
                    await a.ok("act", action="check" if legal["legal"]["check"] else "fold")
                await asyncio.sleep(0.05)
            left = await a.wait_for(lambda e: e["kind"] == "left")
            assert left["data"] == {"seat": 1, "name": "Bob", "kicked": True}
            assert (await b.cmd("act", action="fold"))["error"] == \
                "you have no seat at this table"
            await new_host.ok("close")
            await a.wait_for(lambda e: e["kind"] == "closed")
            assert (await a.cmd("chat", text="bye"))["error"] == "the room is closed"
            ledger = (await running.http.get(f"/api/rooms/{room}/ledger.csv")).text
            lines = ledger.strip().splitlines()
            assert lines[0] == "player,buy_ins,adjustments,cash_outs,on_table,net"
            rows = [line.split(",") for line in lines[1:]]
            assert [(r[0], int(r[1]), int(r[2])) for r in rows] == [("Ann", 200, 0),
                                                                    ("Bob", 250, -50)]
            assert sum(int(r[3]) for r in rows) == 400  # everything bought in was cashed out
            assert all(int(r[4]) == 0 for r in rows)
            assert sum(int(r[5]) for r in rows) == 0


async def test_dealers_choice_pick_and_timeout_through_the_actor(tmp_path: Path) -> None:
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, game="dealers-choice", pause_between_hands=1,
                                 action_clock=5, time_bank=0)
        async with clients(running.url, 2) as (a, b):
            await _seat(a, room, 0, "Ann")
            await _seat(b, room, 1, "Bob")
            clock.now += 1
            await a.ok("snapshot")  # any command wakes the actor, which sees the clock moved
            request = await a.wait_for(lambda e: e["kind"] == "pick_requested")
            picker = a if request["data"]["seat"] == 0 else b
            other = b if picker is a else a
            assert (await other.cmd("pick", game="plo"))["error"].startswith("the button")
            assert (await picker.cmd("pick", game="plo", options={"hole_cards": 9}))[
                "error"] == "PLO is dealt with 4, 5, 6 hole cards, not 9"
            await picker.ok("pick", game="omaha-hilo")
            picked = await other.wait_for(lambda e: e["kind"] == "game_picked")
            assert picked["data"]["game"] == "omaha-hilo"
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            clock.now += 5
            await a.ok("snapshot")
            timed = await a.wait_for(lambda e: e["kind"] == "timed_out")
            assert timed["data"]["seat"] == turn["data"]["seat"]
            assert timed["data"]["timeouts"] == 1
            assert timed["data"]["name"] in ("Ann", "Bob")  # the notice names the player


def test_every_error_code_is_documented() -> None:
    """The codes are the protocol's: docs/protocol.md lists each one the server may send."""
    from boardroom.server.protocol import ERROR_CODES

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert [code for code in ERROR_CODES if f"| `{code}` |" not in doc] == []


async def test_a_snapshot_carries_the_hand_so_far_for_the_action_log(tmp_path: Path) -> None:
    # Issue 15's action log: a browser that joins (or reconnects) mid-hand gets the hand's
    # events so far as it may see them, so its log starts at the deal.
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=0.1)
        async with clients(running.url, 3) as (a, b, watcher):
            await _seat(a, room, 0, "Ann")
            await _seat(b, room, 1, "Bob")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            actor = a if turn["data"]["seat"] == 0 else b
            await actor.ok("act", action="call")
            await watcher.ok("join", room=room, role="spectator")
            for client, seat in ((watcher, None), (a, 0), (b, 1)):
                snapshot = (await client.ok("snapshot"))["snapshot"]
                story = snapshot["hand_log"]
                assert story["hand_no"] == 1
                assert story["name"] == "PLO"
                assert story["seats"] == [s["seat"] for s in snapshot["hand"]["seats"]]
                assert story["stacks"] == [200, 200]
                types = [event["type"] for event in story["events"]]
                assert types[:3] == ["BlindPosted", "BlindPosted", "StreetStarted"]
                assert "Called" in types
                for event in story["events"]:
                    if event["type"] == "HoleDealt":
                        mine = event["seat"] == seat
                        assert all((card is not None) == mine for card in event["cards"])


async def test_the_table_shows_who_is_watching(tmp_path: Path) -> None:
    # Issue 15: how many are watching, and the names of those who gave one.
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, pause_between_hands=60)
        async with clients(running.url, 3) as (a, sam, anonymous):
            await _seat(a, room, 0, "Ann")
            await sam.ok("join", room=room, role="spectator", name="Sam")
            told = await a.wait_for(lambda e: e["kind"] == "watchers"
                                    and e["data"]["names"] == ["Sam"])
            assert told["data"] == {"count": 1, "names": ["Sam"]}
            await anonymous.ok("join", room=room, role="spectator")
            told = await a.wait_for(lambda e: e["kind"] == "watchers"
                                    and e["data"]["count"] == 2)
            assert told["data"]["names"] == ["Sam"]
            view = (await a.ok("snapshot"))["snapshot"]
            assert view["watchers"] == {"count": 2, "names": ["Sam"]}
            after = told["version"]
            await sam.close()
            told = await a.wait_for(lambda e: e["kind"] == "watchers" and e["version"] > after)
            assert told["data"] == {"count": 1, "names": []}
            assert a.updates[-1]["version"] == told["version"]
            assert a.updates[-1]["view"]["watchers"] == {"count": 1, "names": []}
            await sam.connect()  # (closed again by the helper)


async def test_the_uncontested_winner_shows_cards_after_the_hand(tmp_path: Path) -> None:
    # Issue 15: a player who won uncontested may show any of their cards; the history says so.
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, pause_between_hands=60)
        async with clients(running.url, 3) as (a, b, watcher):
            await a.ok("join", room=room, host_secret=secret)
            await a.ok("sit", seat=0, name="Ann")
            await _seat(b, room, 1, "Bob")
            await a.ok("deal_now")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            folder, winner = (a, b) if turn["data"]["seat"] == 0 else (b, a)
            await folder.ok("act", action="fold")
            await winner.wait_for(lambda e: e["kind"] == "hand_ended")
            last = (await winner.ok("snapshot"))["snapshot"]["last_hand"]
            held = 1 if winner is b else 0
            cards = next(s for s in last["view"]["seats"] if s["seat"] == held)["cards"]
            assert last["can_show"] is True
            folded = (await folder.ok("snapshot"))["snapshot"]["last_hand"]
            assert folded["can_show"] is False
            assert (await folder.cmd("show", cards=cards[0]))["error"] == \
                "you folded this hand: folded cards are not shown"
            await watcher.ok("join", room=room, role="spectator")
            assert (await watcher.cmd("show", cards=cards[0]))["error"] == \
                "spectators cannot act"
            await winner.ok("show", cards=" ".join(cards[:2]))
            shown = await folder.wait_for(lambda e: e["kind"] == "shown_after")
            assert shown["data"]["cards"] == cards[:2]
            view = (await folder.ok("snapshot"))["snapshot"]["last_hand"]
            assert view["shown_after"] == {str(held): cards[:2]}
            history = (await running.http.get(f"/api/rooms/{room}/hands/1")).json()["history"]
            label = f"p{history['_table_seats'].index(1 if winner is b else 0) + 1}"
            assert history["_shown_after"] == {label: "".join(cards[:2])}
            replay(setup_of(history))  # the history still reads and replays


@pytest.mark.parametrize("game", ["plo", "esg", "xmas"])
async def test_the_rabbit_hunt_is_shown_to_all_and_verifies_with_the_deal(
        tmp_path: Path, game: str) -> None:
    # Issue 15: the board cards a hand did not deal, from the same committed deck, so the
    # history still verifies (boardroom verify) with them.
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, game=game, pause_between_hands=60)
        async with clients(running.url, 3) as (a, b, watcher):
            await a.ok("join", room=room, host_secret=secret)
            await a.ok("sit", seat=0, name="Ann")
            await _seat(b, room, 1, "Bob")
            await watcher.ok("join", room=room, role="spectator")
            await a.ok("deal_now")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            actor = a if turn["data"]["seat"] == 0 else b
            legal = turn["data"]["legal"]
            if legal["fold"]:
                await actor.ok("act", action="fold")
            else:  # an ante game: a bet, then the fold
                await actor.ok("act", action="raise", amount=legal["raise_min"])
                other = b if actor is a else a
                await other.wait_for(lambda e: e["kind"] == "turn" and e["version"]
                                     > turn["version"])
                await other.ok("act", action="fold")
            await a.wait_for(lambda e: e["kind"] == "hand_ended")
            last = (await watcher.ok("snapshot"))["snapshot"]["last_hand"]
            assert last["can_hunt"] is True
            assert last["rabbit"] is None
            assert (await watcher.cmd("rabbit"))["error"] == "spectators cannot act"
            await b.ok("rabbit")
            told = await watcher.wait_for(lambda e: e["kind"] == "rabbit")
            assert told["data"]["name"] == "Bob"
            boards = told["data"]["boards"]
            last = (await watcher.ok("snapshot"))["snapshot"]["last_hand"]
            assert last["rabbit"] == boards
            assert last["can_hunt"] is False
            dealt = {card for seat in last["view"]["seats"] for card in seat["cards"] if card}
            assert not dealt & {card for cards in boards.values() for card in cards}
            history = (await running.http.get(f"/api/rooms/{room}/hands/1")).json()["history"]
            assert history["_rabbit"]
            shown = fairness.check_history(history)
            assert shown >= sum(len(cards) for cards in boards.values())
            tampered = dict(history, _rabbit=[_swap_first_card(history["_rabbit"][0]),
                                              *history["_rabbit"][1:]])
            with pytest.raises(fairness.FairnessError, match="rabbit hunt 1"):
                fairness.check_history(tampered)
            replay(setup_of(history))


def _swap_first_card(deal: str) -> str:
    words = deal.split()
    first = words[2][:2]
    other = "2c" if first != "2c" else "2d"
    return " ".join([*words[:2], other + words[2][2:], *words[3:]])


async def _play_all_in(a: Client, b: Client) -> None:
    """Whoever is to act raises as far as they may, the other calls, until nobody can bet."""
    seen = 0
    answered = False
    while True:
        event = await a.wait_for(lambda e, after=seen: e["version"] > after and e["kind"] in (
            "turn", "hand_ended", "choosing_runs"))
        seen = event["version"]
        if event["kind"] == "hand_ended":
            return
        if event["kind"] == "choosing_runs":  # all-in: each runs it once (the first offer)
            for seat in event["data"]["seats"] if not answered else ():
                await (a if seat == 0 else b).ok("runs", runs=1)
            answered = True
            continue
        actor = a if event["data"]["seat"] == 0 else b
        legal = event["data"]["legal"]
        if legal["raise_max"] is not None:
            await actor.ok("act", action="raise", amount=legal["raise_max"])
        else:
            await actor.ok("act", action="call")


@pytest.mark.parametrize("game", ["plo", "esg"])
async def test_an_all_in_shows_everyone_the_equity_once_the_hands_are_face_up(
        tmp_path: Path, game: str) -> None:
    # Issue 15: each live player's chance of winning each pot and expected share of it, street
    # by street of the run-out, public once every live hand is face up (never earlier).
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, game=game, pause_between_hands=60,
                                      starting_stack=20)
        async with clients(running.url, 3) as (a, b, watcher):
            await a.ok("join", room=room, host_secret=secret)
            await a.ok("sit", seat=0, name="Ann")
            await _seat(b, room, 1, "Bob")
            await watcher.ok("join", room=room, role="spectator")
            await a.ok("deal_now")
            await _play_all_in(a, b)
            ended = await watcher.wait_for(lambda e: e["kind"] == "hand_ended")
            assert ended["data"]["runout"] == "preflop"
            told = await watcher.wait_for(lambda e: e["kind"] == "equity")
            assert told["version"] > ended["version"]  # after the hand, when all is face up
            equity = told["data"]
            assert equity["hand_no"] == 1
            assert equity["points"] is (game == "esg")
            assert [s["street"] for s in equity["streets"]] == ["preflop", "flop", "turn"]
            for street in equity["streets"]:
                pot = street["pots"][0]
                assert {s["seat"] for s in pot["seats"]} == {0, 1}
                assert {s["name"] for s in pot["seats"]} == {"Ann", "Bob"}
                assert sum(Fraction(s["share"]) for s in pot["seats"]) == 1
                assert street["exact"] or Fraction(street["margin"]) > 0
            for client in (a, b, watcher):  # the same for everyone, in the snapshot too
                last = (await client.ok("snapshot"))["snapshot"]["last_hand"]
                assert last["equity"] == equity
            cards = {card for seat in last["view"]["seats"] for card in seat["cards"] if card}
            assert len(cards) == sum(len(seat["cards"]) for seat in last["view"]["seats"])
            assert not any(code in str(equity) for code in cards)  # no card in the payload


async def test_no_equity_before_the_hands_are_face_up_or_without_a_run_out(
        tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running, pause_between_hands=60)
        async with clients(running.url, 2) as (a, b):
            await a.ok("join", room=room, host_secret=secret)
            await a.ok("sit", seat=0, name="Ann")
            await _seat(b, room, 1, "Bob")
            await a.ok("deal_now")
            turn = await a.wait_for(lambda e: e["kind"] == "turn")
            await (a if turn["data"]["seat"] == 0 else b).ok("act", action="fold")
            ended = await a.wait_for(lambda e: e["kind"] == "hand_ended")
            assert "runout" not in ended["data"]
            await asyncio.sleep(0.5)
            assert not [e for e in a.events if e["kind"] == "equity"]
            assert (await a.ok("snapshot"))["snapshot"]["last_hand"]["equity"] is None
