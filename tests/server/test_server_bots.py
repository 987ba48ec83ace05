"""Bots in rooms: the host's add_bot and remove_bot with their errors, bots playing complete
games on a real server through the actor queue (multi-board, PLO, Allocator, Dealer's Choice),
their think time, and bots that play on after a server restart."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from leaks import cards_in
from server_helpers import Client, FakeClock, clients, new_room, running_server

from boardroom.engine import pills
from boardroom.server.bot_driver import BotDriver, add_bot
from boardroom.table import Table, TableSettings


def _ended(client: Client) -> list[dict[str, Any]]:
    return [e for e in client.events if e["kind"] == "hand_ended"]


async def _ledger(running: Any, room: str) -> list[dict[str, str]]:
    response = await running.http.get(f"/api/rooms/{room}/ledger.csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.text)))


async def test_host_adds_and_removes_bots_and_every_error(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        room, secret = await new_room(running, max_seats=3, pause_between_hands=60.0)
        async with clients(running.url, 2) as (host, guest):
            await host.ok("join", room=room, host_secret=secret)
            await guest.ok("join", room=room)
            await guest.ok("sit", seat=1, name="Guest")
            added = await host.ok("add_bot", style="station")
            assert (added["seat"], added["name"], added["style"]) == (0, "Station Bot 1",
                                                                       "station")
            errors = {
                "only the host can add bot": (guest, {"type": "add_bot", "style": "tight"}),
                "unknown bot style 'genius' (one of: tight, loose, random, station)":
                    (host, {"type": "add_bot", "style": "genius"}),
                "seat 1 is taken": (host, {"type": "add_bot", "style": "tight", "seat": 1}),
                "there is no seat 7": (host, {"type": "add_bot", "style": "tight", "seat": 7}),
                "the name 'guest' is taken": (host, {"type": "add_bot", "style": "tight",
                                                      "name": "guest"}),
                "add_bot needs 'style'": (host, {"type": "add_bot"}),
                "add_bot: 'seat' must be a whole number": (host, {"type": "add_bot",
                                                                   "style": "tight",
                                                                   "seat": "2"}),
                "only the host can remove bot": (guest, {"type": "remove_bot", "seat": 0}),
                "seat 1 is not a bot: kick a player instead": (host, {"type": "remove_bot",
                                                                      "seat": 1}),
                "seat 2 is empty": (host, {"type": "remove_bot", "seat": 2}),
                "remove_bot needs 'seat'": (host, {"type": "remove_bot"}),
            }
            for error, (who, message) in errors.items():
                answer = await who.send({"id": f"e{len(who.received)}", **message})
                assert answer["ok"] is False, error
                assert error in answer["error"], (error, answer)
            named = await host.ok("add_bot", style="loose", seat=2, name="Lucy")
            assert (named["seat"], named["name"]) == (2, "Lucy")
            full = await host.cmd("add_bot", style="tight")
            assert full["ok"] is False
            assert full["error"] == "every seat is taken"
            snapshot = (await guest.ok("snapshot"))["snapshot"]
            assert snapshot["bots"] == {"0": "station", "2": "loose"}
            info = (await running.http.get(f"/api/rooms/{room}")).json()
            assert info["bots"] == {"0": "station", "2": "loose"}
            seats = {s["seat"]: s for s in snapshot["table"]["seats"]}
            assert seats[0]["stack"] == seats[2]["stack"] == 200  # bought in like a player
            buy_ins = {row["player"]: row["buy_ins"] for row in await _ledger(running, room)}
            assert buy_ins == {"Station Bot 1": "200", "Guest": "200", "Lucy": "200"}
            # No hand yet (the pause is long): a removed bot leaves at once and cashes out.
            removed = await host.ok("remove_bot", seat=2)
            assert removed["seat"] == 2
            left = await guest.wait_for(lambda e: e["kind"] == "left")
            assert left["data"] == {"seat": 2, "name": "Lucy", "kicked": False}
            again = await host.cmd("remove_bot", seat=2)
            assert again["error"] == "seat 2 is empty"
            assert (await guest.ok("snapshot"))["snapshot"]["bots"] == {"0": "station"}
            assert len(running.server.rooms[room].bots.drivers) == 1
            rows = {row["player"]: row for row in await _ledger(running, room)}
            assert (rows["Lucy"]["cash_outs"], rows["Lucy"]["net"]) == ("200", "0")
            # A busted bot buys in again by itself: the host approves no bot's rebuy.
            await host.ok("set_stack", seat=0, amount=0)
            asked = await guest.wait_for(lambda e: e["kind"] == "rebuy_requested")
            approved = await guest.wait_for(lambda e: e["kind"] == "rebuy_approved")
            assert asked["data"] == {"seat": 0, "amount": 200}
            assert approved["data"] == {"seat": 0, "amount": 200, "after_hand": False}
            seats = (await guest.ok("snapshot"))["snapshot"]["table"]["seats"]
            assert (seats[0]["stack"], seats[0]["status"]) == (200, "playing")
            rows = {row["player"]: row for row in await _ledger(running, room)}
            assert rows["Station Bot 1"]["buy_ins"] == "400"


@pytest.mark.parametrize(("game", "styles", "hands"), [
    ("esg", ["tight", "random", "station"], 6),
    ("plo", ["loose", "random", "station"], 6),
    ("allocator", ["station", "tight", "station"], 3),  # two stations always allocate
    ("dealers-choice", ["random", "loose"], 5),
    ("horse", ["tight", "station"], 5),  # heads-up, a game every 2 hands: 3 games
    ("27-triple-draw", ["tight", "random", "loose"], 4),
    ("badugi", ["station", "tight"], 4),
    ("five-card-draw", ["random", "loose"], 4),
])
async def test_bots_play_complete_games_on_a_real_server(tmp_path: Path, game: str,
                                                         styles: list[str], hands: int) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        room, secret = await new_room(running, game=game, pause_between_hands=0.0,
                                      pick_clock=30.0, action_clock=30.0)
        async with clients(running.url, 1) as (host,):
            await host.ok("join", room=room, role="spectator", host_secret=secret)
            for style in styles:
                await host.ok("add_bot", style=style)
            await _hands_played(host, hands)
            if game in DRAW_GAMES:  # a hand may end before its draw: play on to one
                await _a_draw_played(host)
            # Nobody timed out: the bots answered every turn and every allocation themselves.
            assert not [e for e in host.received if e[0] == "event"
                        and e[1]["kind"] == "timed_out"]
            if game == "dealers-choice":
                picks = [e[1]["data"] for e in host.received if e[0] == "event"
                         and e[1]["kind"] == "game_picked"]
                assert picks
                assert all(p["by_button"] for p in picks)
            if game == "horse":
                kinds = [e[1]["kind"] for e in host.received if e[0] == "event"
                         and e[1]["kind"] in ("game_changed", "hand_started")]
                dealt = [e[1]["data"]["game"] for e in host.received if e[0] == "event"
                         and e[1]["kind"] == "hand_started"]
                assert dealt[:5] == ["holdem", "holdem", "omaha-hilo", "omaha-hilo", "razz"]
                assert kinds[:7] == ["hand_started", "hand_started", "game_changed",
                                     "hand_started", "hand_started", "game_changed",
                                     "hand_started"]
            hand_events = [e[1] for e in host.received if e[0] == "event"
                           and e[1]["kind"] == "hand"]
            if game in DRAW_GAMES:
                draws = [e for e in hand_events if e["event"]["type"] == "Discarded"]
                assert draws, "nobody drew"
                # Others see how many cards a player threw, never which.
                assert all(card is None for e in draws for card in e["event"]["cards"])
            if game == "allocator":
                assert any(e["event"]["type"] == "AllocationCommitted" for e in hand_events) \
                    or any(e["event"]["type"] == "AllocationsRevealed" for e in hand_events)
            # The spectator (the host here) saw no face-down card but those shown at the
            # showdown (an all-in run-out publishes its redraws with the showdown, in one go).
            shown: dict[int, set[str]] = {}
            for event in hand_events:
                if event["event"]["type"] == "HandShown":
                    shown.setdefault(event["hand_no"], set()).update(event["event"]["cards"])
            for event in hand_events:
                if event["event"]["type"] in ("HoleDealt", "Redrawn"):
                    dealt = event["event"]
                    down = [c for c, up in zip(dealt["cards"], dealt["up"], strict=True) if not up]
                    assert cards_in(down) <= shown.get(event["hand_no"], set()), event
            await host.ok("close")
            await host.wait_for(lambda e: e["kind"] == "closed", timeout=30)
            rows = await _ledger(running, room)
            assert len(rows) == len(styles)
            assert sum(int(r["net"]) for r in rows) == 0  # every chip is someone's
            assert sum(int(r["cash_outs"]) for r in rows) == \
                sum(int(r["buy_ins"]) + int(r["adjustments"]) for r in rows) >= 200 * len(rows)
            assert all(r["on_table"] == "0" for r in rows)
            assert running.server.rooms[room].bots.drivers == {}


DRAW_GAMES = ("27-triple-draw", "badugi", "five-card-draw")


async def _a_draw_played(host: Client, most: int = 40, timeout: float = 120.0) -> None:
    """Wait for a draw (the bots' first ``Discarded``): every hand of a few may end before its
    draw (five-card draw heads-up between a random bot and a loose one once did in 4)."""
    deadline = time.monotonic() + timeout
    while not any(e[0] == "event" and e[1]["kind"] == "hand"
                  and e[1]["event"]["type"] == "Discarded" for e in host.received):
        assert len(_ended(host)) < most, f"nobody drew in {most} hands"
        assert time.monotonic() < deadline, f"nobody drew in {len(_ended(host))} hands"
        await asyncio.sleep(0.05)


async def _hands_played(host: Client, hands: int, timeout: float = 60.0) -> None:
    """Wait for ``hands`` hands to end (busted bots buy in again by themselves)."""
    deadline = time.monotonic() + timeout
    while len(_ended(host)) < hands:
        assert time.monotonic() < deadline, f"only {len(_ended(host))} hands ended"
        await asyncio.sleep(0.05)


class _Room:
    """What a bot's driver needs of its room: an id, the table, a queue (here it keeps the
    commands, applying none)."""

    def __init__(self, table: Table) -> None:
        self.id, self.table = "r1", table
        self.commands: list[Any] = []

    async def submit(self, _viewer: Any, command: Any) -> dict[str, Any]:
        self.commands.append(command)
        return {"ok": True}


async def test_a_bot_decides_from_its_seats_view_without_pills() -> None:
    """A bot reads its seat's legal actions, cards, boards and pots, never the pills (the
    category badges a person sees): its driver's view has none made (they were most of what
    a bot's view cost)."""
    clock = FakeClock()
    table = Table(TableSettings(game="esg", pause_between_hands=0.0).check(), clock=clock,
                  rng=random.Random(3))
    for seat, style in enumerate(("station", "random", "station")):
        add_bot(table, {"seat": seat, "style": style})
    deadline = table.next_deadline()
    assert deadline is not None
    clock.now = max(clock.now, deadline)
    table.tick()
    assert table.hand is not None
    assert table.hand.seat_to_act is not None
    seat = table.hand.seat_to_act
    driver = BotDriver(_Room(table), seat, table.seats[seat].player, think=0.0)
    await driver.stop()  # its own loop aside: the test asks it
    while driver._next() == "seed":  # the next hand's seeds may be open: send them
        sent = await driver._decide()
        assert sent is not None
        table.client_seed(seat, sent["hand_no"], sent["seed"])
    before = pills.cache_info()
    message = await driver._decide()
    after = pills.cache_info()
    assert message is not None
    assert message["type"] == "act", message
    assert after.hits + after.misses == before.hits + before.misses
    full = table.hand_view(seat)
    assert full is not None
    assert full.pills  # a person in the seat would see them


async def test_bots_wait_their_think_time(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.3) as running:
        room, secret = await new_room(running, game="plo", pause_between_hands=0.0)
        async with clients(running.url, 1) as (host,):
            await host.ok("join", room=room, role="spectator", host_secret=secret)
            await host.ok("add_bot", style="station")
            await host.ok("add_bot", style="station")
            first = await _bot_acted(host, 0)
            second = await _bot_acted(host, first["version"])
            # By the server's own stamps: the second bot wakes once the first one's action is
            # stored (stamped before), then thinks. (The test's clock reads when a push arrives,
            # late by however loaded the machine is; and a bot may start thinking a moment
            # before its turn is published, in the commit before.)
            assert second["at"] - first["at"] >= 0.3
            assert [first["event"]["type"], second["event"]["type"]] == ["Called", "Checked"]


async def _bot_acted(host: Client, after: int) -> dict[str, Any]:
    """The first bot action (a call or a check) pushed after version ``after``."""
    return await host.wait_for(lambda e: e["kind"] == "hand" and e["version"] > after
                               and e["event"]["type"] in ("Called", "Checked"))


@asynccontextmanager
async def _hosting(running: Any, room: str, secret: str) -> AsyncIterator[Client]:
    """The host of ``room`` on ``running``, joined as a spectator."""
    async with clients(running.url, 1) as (host,):
        await host.ok("join", room=room, role="spectator", host_secret=secret)
        yield host


@asynccontextmanager
async def _two_bots(running: Any, game: str,
                    pause: float) -> AsyncIterator[tuple[str, str, Client]]:
    """A new room of ``game`` where two bots (a station and a random) play, and its host."""
    room, secret = await new_room(running, game=game, pause_between_hands=pause)
    async with _hosting(running, room, secret) as host:
        await host.ok("add_bot", style="station")
        await host.ok("add_bot", style="random")
        yield room, secret, host


async def test_bots_play_on_after_a_restart(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running, \
            _two_bots(running, "esg", 0.0) as (room, secret, host):
        await host.wait_for(lambda e: e["kind"] == "hand_ended", timeout=30)
        await host.ok("pause")  # stop between two commands; the hand may be mid-way
        before = (await host.ok("snapshot"))["snapshot"]["table"]["hand_no"]
    async with running_server(tmp_path, bot_think=0.0) as running:
        restored = running.server.rooms[room]
        assert sorted(restored.bots.drivers) == [0, 1]
        async with _hosting(running, room, secret) as host:
            await host.ok("resume")
            await host.wait_for(lambda e: e["kind"] == "hand_ended"
                                and e["data"]["hand_no"] > before, timeout=30)
            await host.ok("close")
            await host.wait_for(lambda e: e["kind"] == "closed", timeout=30)
            rows = await _ledger(running, room)
            assert sum(int(r["net"]) for r in rows) == 0
            assert sum(int(r["cash_outs"]) for r in rows) == 400


async def test_a_bot_to_act_in_a_restored_room_acts_at_once(tmp_path: Path) -> None:
    """A room restored mid-hand (a restart, a failover) resumes at once: the bot whose turn
    it is acts without its think time again (it had begun thinking on the server that went
    down); its later turns wait their think time as usual. The think here is ten minutes, so
    a bot that waited it would not act within the test's time."""
    async with running_server(tmp_path, bot_think=600.0) as running:
        room, secret = await new_room(running, game="plo", pause_between_hands=0.0,
                                      action_clock=300.0)  # no timeout acts for the bot
        async with clients(running.url, 1) as (ann,):
            await ann.ok("join", room=room, host_secret=secret)
            await ann.ok("sit", seat=0, name="Ann")
            await ann.ok("add_bot", seat=1, style="station")
            table = running.server.rooms[room].table
            deadline = time.monotonic() + 30
            while not table.hand_turn(1):  # Ann calls until the bot is to act
                assert time.monotonic() < deadline, "the bot never came to act"
                if table.hand_turn(0):
                    legal = table.hand.legal_actions()
                    await ann.ok("act", action="check" if legal.check else "call")
                await asyncio.sleep(0.02)
            acted = len(table.hand_actions)
    async with running_server(tmp_path, bot_think=600.0) as running:
        restored = running.server.rooms[room].table
        assert restored.hand_turn(1)
        deadline = time.monotonic() + 30
        while len(restored.hand_actions) == acted:
            assert time.monotonic() < deadline, "the bot did not act after the restart"
            await asyncio.sleep(0.02)
        assert restored.hand_actions[acted][0] == 1  # the bot's move (it may act next too)


async def test_a_restarted_room_shows_the_hand_that_ended_last(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running, \
            _two_bots(running, "plo", 600.0) as (room, secret, host):
        await host.wait_for(lambda e: e["kind"] == "next_hand", timeout=30)
        await host.ok("deal_now")  # the one hand, then a pause of ten minutes
        ended = await host.wait_for(lambda e: e["kind"] == "hand_ended", timeout=30)
        before = (await host.ok("snapshot"))["snapshot"]["last_hand"]
        assert before is not None
        assert before["hand_no"] == ended["data"]["hand_no"]
    async with running_server(tmp_path, bot_think=0.0) as running, \
            _hosting(running, room, secret) as host:
        after = (await host.ok("snapshot"))["snapshot"]["last_hand"]
        assert after == before  # the result stays on screen across the restart


async def test_a_player_chooses_a_straddle_with_the_straddle_command(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        room, _ = await new_room(running, game="plo", straddle="utg")
        plain, _ = await new_room(running, game="plo")
        async with clients(running.url, 2) as (ann, bob):
            await ann.ok("join", room=room)
            await ann.ok("sit", seat=0, name="Ann")
            await ann.ok("straddle", on=True)
            chosen = await ann.wait_for(lambda e: e["kind"] == "straddle_next")
            assert chosen["data"] == {"seat": 0, "on": True}
            seats = (await ann.ok("snapshot"))["snapshot"]["table"]["seats"]
            assert seats[0]["straddle_next"] is True
            again = await ann.cmd("straddle", on=True)
            assert again["code"] == "refused"
            assert again["error"] == "seat 0 already straddles next hand"
            bad = await ann.cmd("straddle", on="yes")
            assert bad["code"] == "bad_command"
            await bob.ok("join", room=plain)
            await bob.ok("sit", seat=0, name="Bob")
            refused = await bob.cmd("straddle", on=True)
            assert refused["error"] == "the host allows no straddles at this table"


async def test_bots_straddle_by_their_own_rule(tmp_path: Path) -> None:
    # Random bots straddle half the time when a straddle position comes to them; they choose
    # in the pause before the hand, through the same command a person sends.
    async with running_server(tmp_path, bot_think=0.0) as running:
        room, secret = await new_room(running, game="plo", straddle="utg-button",
                                      pause_between_hands=0.2)
        async with clients(running.url, 1) as (host,):
            await host.ok("join", room=room, role="spectator", host_secret=secret)
            for _ in range(4):
                await host.ok("add_bot", style="random")
            chosen = await host.wait_for(lambda e: e["kind"] == "straddle_next", timeout=60)
            posted = await host.wait_for(
                lambda e: e["kind"] == "hand" and e["event"]["type"] == "BlindPosted"
                and e["event"]["blind"] == "straddle", timeout=60)
            assert posted["event"]["amount"] == 4
            assert chosen["data"]["on"] is True
            await host.ok("close")
            await host.wait_for(lambda e: e["kind"] == "closed", timeout=60)
            rows = await _ledger(running, room)
            assert sum(int(r["net"]) for r in rows) == 0
