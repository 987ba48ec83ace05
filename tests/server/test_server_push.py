"""Push, don't pull: every change reaches each audience as one ``update`` (its events and its
view), so a client that folds only the pushes draws exactly what a fresh snapshot says; a change
costs one message and one view per connected audience, and no snapshot round trip."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, FakeClock, Running, clients, host_bots, new_room, running_server

import boardroom.table.views as table_module
from action_script import random_throw
from boardroom.rules import VARIANTS, find_variant
from boardroom.server import encode
from boardroom.server import patch as patches
from boardroom.server.room import Room
from boardroom.table import TableSettings

PLAYERS = 3
VIEW_KEYS = ("table", "hand", "blinds", "sizes", "last_hand", "bots", "watchers")


class Folded:
    """What the web client keeps (web/js/conn.js): the join's snapshot, then every update
    folded in (its view replaces the last, or its patch changes the last, its chat events
    join the chat), never a snapshot more. A gap in the versions, or a patch of another
    version than the one held, is a failure here: the pushes alone must be enough."""

    def __init__(self, client: Client, joined: dict[str, Any]) -> None:
        self.client = client
        snapshot = joined["snapshot"]
        self.version: int = snapshot["version"]
        self.view = {key: snapshot[key] for key in VIEW_KEYS}
        self.chat = list(snapshot["chat"])
        self.seen = len(client.updates)  # updates before the join's answer are older
        self.patches = 0  # updates folded as patches

    def fold(self) -> None:
        for update in self.client.updates[self.seen:]:
            self.seen += 1
            if update["version"] <= self.version:
                continue  # came before the join's snapshot, which holds it already
            assert update["events"][0]["version"] == self.version + 1, "a gap in the pushes"
            self.chat += [event for event in update["events"] if event["kind"] == "chat"]
            self.chat = self.chat[-50:]
            if "patch" in update:
                assert update["base"] == self.version, "a patch of another version"
                self.view = patches.apply(self.view, update["patch"])
                self.patches += 1
            else:
                self.view = dict(update["view"])
            self.version = update["version"]

    async def settled(self, version: int) -> None:
        """Fold until the pushes reach ``version`` (bounded wait)."""
        deadline = time.monotonic() + 10
        while True:
            self.fold()
            if self.version >= version:
                return
            assert time.monotonic() < deadline, f"no push up to version {version}"
            await asyncio.sleep(0.005)

    async def check(self) -> None:
        """The folded view is what a fresh snapshot gives this viewer, at the same version."""
        snapshot = (await self.client.ok("snapshot"))["snapshot"]
        self.fold()
        assert snapshot["version"] == self.version
        assert {key: snapshot[key] for key in VIEW_KEYS} == self.view
        assert snapshot["chat"] == self.chat


def _choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = view["hand"]["legal"]
    if legal["draw"] is not None:
        hand = view["hand"]
        mine = next(s for s in hand["seats"] if s["seat"] == hand["viewer"])["cards"]
        return {"action": "draw", "cards": random_throw(mine, legal["draw"], rng)}
    options: list[dict[str, Any]] = []
    if legal["fold"]:
        options.append({"action": "fold"})
    if legal["check"]:
        options += [{"action": "check"}] * 4
    if legal["call"] is not None:
        options += [{"action": "call"}] * 4
    if legal["bring_in"] is not None:
        options.append({"action": "bring_in"})
    if legal["raise_min"] is not None:
        options += [{"action": "raise", "amount": legal["raise_min"]}] * 2
        if rng.random() < 0.2:
            options.append({"action": "raise", "amount": legal["raise_max"]})
    return rng.choice(options)


async def _play_hands(running: Running, clock: FakeClock, game: str, hands: int,
                      seed: int) -> None:
    rng = random.Random(seed)
    running.server.hub.clock = itertools.count(0.0, 1.0).__next__  # no rate limit here
    room, _ = await new_room(running, game=game, pause_between_hands=1, starting_stack=2000)
    async with clients(running.url, PLAYERS + 1) as people:
        folds: list[Folded] = []
        players, watcher = people[:PLAYERS], people[PLAYERS]
        for seat, client in enumerate(players):
            folds.append(Folded(client, await client.ok("join", room=room)))
            sat = await client.ok("sit", seat=seat, name=f"P{seat}")
            await folds[-1].settled(sat["version"])
        folds.append(Folded(watcher, await watcher.ok("join", room=room, role="spectator")))
        ended = 0
        steps = 0
        while ended < hands:
            steps += 1
            view = folds[0].view
            hand, table = view["hand"], view["table"]
            assert steps < 400, f"{game}: the hands did not end: {table['phase']}, {hand}"
            if table["phase"] == "waiting" and ended:
                break  # players busted: no more hands to play
            if rng.random() < 0.1:  # chat lines are pushed too
                answer = await players[rng.randrange(PLAYERS)].ok("chat", text=f"line {steps}")
            elif hand is None or hand["is_over"]:
                clock.now += 1.5  # the pause between hands runs out
                answer = await players[0].ok("snapshot")  # wakes the actor: it deals
                await asyncio.sleep(0.02)
                answer["version"] = (await players[0].ok("snapshot"))["version"]
            elif hand["allocating"]:
                seat = hand["allocation_pending"][0]
                hint = (await players[seat].ok("suggest"))["suggestion"]
                answer = await players[seat].ok("allocate", cards=hint)
            else:
                seat = hand["actor"]
                own = folds[seat].view["hand"]
                assert own["legal"] is not None, (game, own)
                answer = await players[seat].ok("act", **_choose(folds[seat].view, rng))
            for fold in folds:
                await fold.settled(answer["version"])
            events = [e for e in watcher.events if e["kind"] == "hand_ended"]
            if len(events) > ended or rng.random() < 0.3:
                for fold in folds:
                    await fold.check()
            ended = len(events)
        # most changes reach a connection as a patch of the view it holds
        assert all(fold.patches > len(fold.client.updates) // 2 for fold in folds), \
            [(fold.patches, len(fold.client.updates)) for fold in folds]


@pytest.mark.parametrize("game", [variant.id for variant in VARIANTS])
async def test_pushes_alone_give_every_viewer_the_snapshot_s_view(tmp_path: Path,
                                                                   game: str) -> None:
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        await _play_hands(running, clock, game, hands=2, seed=sum(map(ord, game)))


async def test_a_change_costs_one_message_and_one_view_per_connected_audience(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, game="esg")
        emits: list[list[str]] = []
        snapshots: list[int] = []
        views: list[Any] = []
        transport = running.server.hub.transport
        emit = transport.emit

        def counting_emit(event: str, data: Any, to: list[str]) -> None:
            emits.append(to)
            emit(event, data, to)

        settings_made: list[int] = []
        real_to_dict = TableSettings.to_dict

        def counting_to_dict(settings: TableSettings) -> dict[str, Any]:
            settings_made.append(1)
            return real_to_dict(settings)

        real_view_for, real_views_for = table_module.view_for, table_module.views_for
        real_own_views = table_module.own_views

        def counting_view_for(hand: Any, viewer: Any) -> Any:
            views.append(viewer)
            return real_view_for(hand, viewer)

        def counting_views_for(hand: Any, viewers: Any) -> Any:  # all audiences at once
            viewers = list(viewers)
            views.extend(viewers)
            return real_views_for(hand, viewers)

        def counting_own_views(hand: Any, viewers: Any) -> Any:  # the spectators' and each
            viewers = list(viewers)                              # seat's own parts
            views.extend([None, *viewers])
            return real_own_views(hand, viewers)

        async with clients(running.url, PLAYERS + 2) as people:
            players, watchers = people[:PLAYERS], people[PLAYERS:]
            for seat, client in enumerate(players):
                await client.ok("join", room=room)
                await client.ok("sit", seat=seat, name=f"P{seat}")
            for watcher in watchers:  # two spectators: one audience
                await watcher.ok("join", room=room, role="spectator")
            sizes = find_variant("esg").allocation_sizes
            assert not sizes
            clock.now += 5
            await players[0].ok("snapshot")
            turn = await watchers[0].wait_for(lambda e: e["kind"] == "turn")
            monkeypatch.setattr(transport, "emit", counting_emit)
            monkeypatch.setattr(table_module, "view_for", counting_view_for)
            monkeypatch.setattr(table_module, "views_for", counting_views_for)
            monkeypatch.setattr(table_module, "own_views", counting_own_views)
            monkeypatch.setattr(TableSettings, "to_dict", counting_to_dict)
            room_actor = running.server.rooms[room]
            snapshot = Room.snapshot  # (a room has slots: its class's method is counted)

            def counting_snapshot(self: Room, viewer: Any) -> dict[str, Any]:
                snapshots.append(1)
                return snapshot(self, viewer)

            monkeypatch.setattr(Room, "snapshot", counting_snapshot)
            actions = 0
            for _ in range(6):
                seat = turn["data"]["seat"]
                legal = turn["data"]["legal"]
                before = len(emits), len(views)
                encoded, street = encode.ENCODINGS[0], room_actor.table.hand.street
                answer = await players[seat].ok(
                    "act", action="check" if legal["check"] else "call")
                actions += 1
                # Each part of the updates is encoded once, and a part that did not change
                # (a seat, a pill) is not encoded again: within a street, a few texts per
                # audience (its own seat, the events it sees otherwise, the actor's sizes);
                # a new street changes the boards and every audience's pills.
                encodings = encode.ENCODINGS[0] - encoded
                hand = room_actor.table.hand
                same_street = hand is not None and hand.street == street
                assert encodings <= (4 if same_street else 10) * (PLAYERS + 1), encodings
                # One update per audience (three seats, the spectators), one view each.
                assert len(emits) - before[0] == PLAYERS + 1
                assert len(views) - before[1] == PLAYERS + 1
                # each addressed to the connections of its audience, by their ids
                assert sorted(sorted(to) for to in emits[before[0]:]) == sorted(
                    [[c.sio.get_sid()] for c in players]
                    + [sorted(w.sio.get_sid() for w in watchers)])
                for client in people:
                    await client.wait_for(lambda e, v=answer["version"]: e["version"] == v)
                    # each connection held its audience's last view: the change is a patch
                    pushed = next(u for u in client.updates if u["version"] == answer["version"])
                    assert "patch" in pushed, sorted(pushed)
                nxt = [e for e in watchers[0].events if e["kind"] == "turn"
                       and e["version"] > turn["version"]]
                if not nxt:
                    break
                turn = nxt[-1]
            assert actions >= 3
            # The settings (frozen) are made plain data once, not again for every change.
            assert settings_made == []
            await asyncio.sleep(0.1)
            assert snapshots == []  # nobody asked: the pushes were enough
            for client in people:  # each connection got one update per change, no more
                versions = [u["version"] for u in client.updates]
                assert len(versions) == len(set(versions))
            # A seat nobody watches gets no update and costs no view.
            gone = players[2].sio.get_sid()
            await players[2].close()
            await asyncio.sleep(0.1)
            seat = turn["data"]["seat"]
            if seat != 2:
                before = len(emits), len(views)
                legal = turn["data"]["legal"]
                await players[seat].ok("act", action="check" if legal["check"] else "call")
                assert len(emits) - before[0] == PLAYERS
                assert len(views) - before[1] == PLAYERS
                assert all(gone not in to for to in emits[before[0]:])
            players.pop()
            people.remove(people[2])


async def test_a_finished_hand_is_hunted_once_and_never_replayed_for_its_views(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether the last hand left board cards to hunt is the same for every audience: it is
    worked out once per finished hand, not once per seat that sees the hand's result. And the
    last hand's views are built from the hand as the table played it, not from a replay of
    its record (a replay runs the whole hand and its showdown through the engine again)."""
    from boardroom.engine.hand import Hand
    from boardroom.server import room as room_module

    hunted: list[Any] = []
    real = Hand.rabbit_hunt
    replayed: list[Any] = []
    real_rebuild = room_module.rebuild_hand

    def counting(hand: Any) -> Any:
        hunted.append(hand)  # (kept alive: each id is one hand)
        return real(hand)

    def counting_rebuild(*args: Any) -> Any:
        replayed.append(args)
        return real_rebuild(*args)

    monkeypatch.setattr(Hand, "rabbit_hunt", counting)
    monkeypatch.setattr(room_module, "rebuild_hand", counting_rebuild)
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        await _play_hands(running, clock, "plo", hands=2, seed=3)
    assert hunted
    assert len(hunted) == len({id(hand) for hand in hunted})
    assert replayed == []


async def test_a_room_watched_by_spectators_alone_works_out_no_pills(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pills are a seated player's own: a room of bots watched only by spectators never
    works out one, at any street or at a hand's end (the hand that just ended was shown
    through every seat's view of it, pills and all, built for nobody), and each ended hand
    is still shown to the spectators."""
    import boardroom.engine.view as view_module

    worked_out: list[Any] = []
    real_pills_for = view_module.pills_for

    def counting_pills_for(*args: Any, **options: Any) -> Any:
        worked_out.append(args[1])
        return real_pills_for(*args, **options)

    async with running_server(tmp_path, bot_think=0.0) as running:
        # (after the start: a starting server views one example hand of every game)
        monkeypatch.setattr(view_module, "pills_for", counting_pills_for)
        room_id, secret = await new_room(running, game="esg", pause_between_hands=0,
                                         starting_stack=1000)
        async with clients(running.url, 1) as (host,):
            await host_bots(host, room_id, secret)
            room = running.server.rooms[room_id]
            deadline = time.monotonic() + 120
            while room.table.hand_no < 4:
                assert time.monotonic() < deadline, "no hands played"
                await asyncio.sleep(0.05)
            await host.wait_for(lambda e: e["kind"] == "hand_ended")
            shown = [u["view"]["last_hand"] for u in host.updates
                     if "view" in u and u["view"].get("last_hand")]
            assert shown  # the spectators saw a hand that ended
    assert worked_out == []


async def test_a_connection_an_update_surely_missed_gets_the_next_one_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An update the hub reports surely lost for a connection (another worker's, while Redis
    was unreachable) leaves that connection without the view the next patch would change: its
    next update is the whole view, while the other connections of the room get patches."""
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, game="esg")
        async with clients(running.url, 3) as people:
            players, watcher = people[:2], people[2]
            for seat, client in enumerate(players):
                await client.ok("join", room=room)
                await client.ok("sit", seat=seat, name=f"P{seat}")
            await watcher.ok("join", room=room, role="spectator")
            clock.now += 5
            await players[0].ok("snapshot")
            turn = await watcher.wait_for(lambda e: e["kind"] == "turn")
            hub = running.server.hub
            push = hub.push
            lost = players[1].sio.get_sid()
            reported: list[int] = []

            async def lossy_push(room_id: str, updates: Any) -> set[str]:
                missed = await push(room_id, updates)
                if not reported:
                    reported.append(1)
                    return missed | {lost}
                return missed

            monkeypatch.setattr(hub, "push", lossy_push)

            async def act() -> int:
                seat = turn["data"]["seat"]
                legal = turn["data"]["legal"]
                answer = await players[seat].ok("act",
                                                action="check" if legal["check"] else "call")
                version: int = answer["version"]
                for client in people:
                    await client.wait_for(lambda e, v=version: e["version"] == v)
                return version

            await act()  # pushed to all; the hub reports players[1]'s as lost
            assert reported == [1]
            turn = await watcher.wait_for(
                lambda e: e["kind"] == "turn" and e["version"] > turn["version"])
            version = await act()

            def update_at(client: Client) -> dict[str, Any]:
                return next(u for u in client.updates if u["version"] == version)

            assert "patch" not in update_at(players[1])
            assert "view" in update_at(players[1])
            assert "patch" in update_at(players[0])
            assert "patch" in update_at(watcher)
