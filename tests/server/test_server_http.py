"""HTTP routes: health, variants, room creation and its errors, hands and the ledger."""

from __future__ import annotations

import asyncio
import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest
from server_helpers import clients, new_room, running_server

import boardroom
from boardroom.server import DataFolderInUse, Server, ServerConfig
from boardroom.table import TableSettings


async def test_health_variants_docs_and_index(tmp_path: Path) -> None:
    async with running_server(tmp_path, web=None) as running:
        health = await running.http.get("/healthz")
        assert health.json() == {"ok": True, "rooms": 0}
        variants = (await running.http.get("/api/games")).json()["games"]
        ids = [v["id"] for v in variants]
        assert "plo" in ids
        assert "dealers-choice" in ids
        assert variants[ids.index("esg")]["categories"][0]["name"] == "A"
        assert "badugi" in ids  # the draw games too
        assert (await running.http.post("/api/rooms", json={"game": "badugi"})).status_code == 201
        assert (await running.http.get("/docs")).status_code == 200
        assert "/api/rooms" in (await running.http.get("/openapi.json")).json()["paths"]
        assert (await running.http.get("/")).json()["docs"] == "/docs"


async def test_the_web_folder_is_served_at_the_root_when_it_has_an_index(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>Boardroom</h1>")
    async with running_server(tmp_path / "data", web=web) as running:
        assert (await running.http.get("/")).text == "<h1>Boardroom</h1>"
        assert (await running.http.get("/healthz")).json()["ok"]


async def test_creating_rooms_and_their_errors(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        made = await running.http.post("/api/rooms", json={
            "game": "plo", "hole_cards": 5, "small_blind": 5, "big_blind": 10,
            "starting_stack": 1000, "max_seats": 8, "action_clock": 20, "time_bank": 30,
            "spectators_allowed": False, "seat_approval": True})
        assert made.status_code == 201
        body = made.json()
        assert body["join_link"].endswith(f"/?room={body['room']}")
        assert len(body["host_secret"]) >= 32
        assert body["settings"]["hole_cards"] == 5
        room = (await running.http.get(f"/api/rooms/{body['room']}")).json()
        assert len(room["table"]["seats"]) == 8
        assert "host_secret" not in str(room)
        bad = await running.http.post("/api/rooms", json={"game": "plo", "hole_cards": 6,
                                                          "max_seats": 9})
        assert bad.status_code == 400
        assert bad.json()["detail"] == "PLO with 6 hole cards seats at most 7, not 9"
        assert (await running.http.post("/api/rooms", json={"colour": "red"})).status_code == 422
        assert (await running.http.post("/api/rooms", json={"big_blind": "2"})).status_code == 422
        wrong = await running.http.post("/api/rooms", json={"game": "poker"})
        assert "unknown variant 'poker'" in wrong.json()["detail"]
        dc = await running.http.post("/api/rooms", json={"game": "dealers-choice"})
        assert dc.status_code == 201
        assert (await running.http.get("/api/rooms/nope")).status_code == 404
        assert (await running.http.get("/api/rooms/nope/hands")).status_code == 404
        assert (await running.http.get("/api/rooms/nope/ledger.csv")).status_code == 404


async def test_finished_hands_hide_unseen_cards_and_the_ledger_adds_up(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, game="plo", pause_between_hands=0.2)
        async with clients(running.url, 3) as (a, b, c):
            tokens = []
            for seat, client in enumerate((a, b, c)):
                await client.ok("join", room=room)
                tokens.append((await client.ok("sit", seat=seat, name=f"P{seat}"))["token"])
            started = await a.wait_for(lambda e: e["kind"] == "turn", timeout=40)
            assert (await running.http.get(f"/api/rooms/{room}/hands/1")).status_code == 404
            by_seat = {0: a, 1: b, 2: c}
            first = started["data"]["seat"]
            await by_seat[first].ok("act", action="fold")
            while True:
                after = started["version"]
                turn = await a.wait_for(lambda e, after=after: e["kind"] in ("turn", "hand_ended")
                                        and e["version"] > after)
                if turn["kind"] == "hand_ended":
                    break
                started = turn
                actor = by_seat[turn["data"]["seat"]]
                snap = (await actor.ok("snapshot"))["snapshot"]
                legal = snap["hand"]["legal"]
                await actor.ok("act", action="check" if legal["check"] else "call")
            listing = (await running.http.get(f"/api/rooms/{room}/hands")).json()
            assert [h["hand_no"] for h in listing["hands"]] == [1]
            public = (await running.http.get(f"/api/rooms/{room}/hands/1")).json()["history"]
            folder = (await running.http.get(f"/api/rooms/{room}/hands/1", headers={
                "X-Seat-Token": tokens[first]})).json()["history"]
            other = (await running.http.get(f"/api/rooms/{room}/hands/1", headers={
                "X-Seat-Token": tokens[(first + 1) % 3]})).json()["history"]
            def hidden(history: dict[str, object], seat: int) -> bool:
                label = f"p{history['_table_seats'].index(seat) + 1}"  # type: ignore[attr-defined]
                (dealt,) = [a for a in history["actions"]  # type: ignore[attr-defined]
                            if a.startswith(f"d dh {label} ")]
                return "??" in dealt

            second = (first + 1) % 3
            assert hidden(public, first)
            assert not hidden(folder, first)
            assert hidden(other, first)
            assert not hidden(other, second)
            for history in (public, folder, other):
                shown = [a.split()[0] for a in history["actions"] if " sm " in a]
                for label in shown:
                    assert not hidden(history, history["_table_seats"][int(label[1:]) - 1])
            assert public["players"] == folder["players"]
            assert "_burns" not in public
            forged = await running.http.get(f"/api/rooms/{room}/hands/1",
                                            headers={"X-Seat-Token": tokens[0][:-2] + "xx"})
            assert forged.status_code == 403
            ledger = (await running.http.get(f"/api/rooms/{room}/ledger.csv")).text
            rows = list(csv.DictReader(io.StringIO(ledger)))
            assert len(rows) == 3
            assert sum(int(r["buy_ins"]) for r in rows) == 600
            assert sum(int(r["on_table"]) for r in rows) == 600
            assert sum(int(r["net"]) for r in rows) == 0


async def test_stopping_while_a_command_arrives_stops_the_room(tmp_path: Path) -> None:
    """The stop's cancel lands in the same turn of the loop as a wake-up of the idle actor:
    the actor must still stop (asyncio.wait_for on Python 3.11 swallowed such a cancel, and
    the server's shutdown then waited forever)."""
    server = Server(ServerConfig(data=tmp_path))
    await server.start()
    room_id, _ = await server.create_room(TableSettings(game="plo"))
    room = server.rooms[room_id]
    room.table.sit(0, "ann", "Ann")
    room.table.sit(1, "bob", "Bob")
    room._wake.set()
    await asyncio.sleep(0.2)  # the actor waits for work, or for the next hand's deal
    assert room.table.next_deadline() is not None
    room._wake.set()  # work arrives as the server stops
    stopping = asyncio.create_task(server.stop())
    done, _ = await asyncio.wait({stopping}, timeout=5)  # no cancel on a timeout
    assert done, "the room did not stop"
    assert room._task is None


def test_serving_processes_tune_the_garbage_collector() -> None:
    """`serve` and `play` set the collector's thresholds and freeze what start-up made (in a
    child process: the test worker keeps Python's defaults); ``restore_garbage_collector``
    puts Python's defaults back."""
    code = ("import gc\n"
            "from boardroom.server import tune_garbage_collector\n"
            "from boardroom.server.housekeeping import GC_THRESHOLDS, restore_garbage_collector\n"
            "before = gc.get_threshold()\n"
            "tune_garbage_collector()\n"
            "print(before == (700, 10, 10), gc.get_threshold() == GC_THRESHOLDS,\n"
            "      gc.get_freeze_count() > 10000)\n"
            "restore_garbage_collector()\n"
            "print(gc.get_threshold() == before, gc.get_freeze_count() == 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.split() == ["True"] * 5
    for module in ("serve", "play"):
        source = (Path(boardroom.__file__).parent / "commands" / f"{module}.py").read_text()
        assert "tune_garbage_collector()" in source, module


async def test_a_second_server_on_the_same_data_folder_is_refused(tmp_path: Path) -> None:
    """Two servers on one folder would both deal the same rooms: the second is refused, with
    the folder named, and may start once the first has stopped."""
    first = Server(ServerConfig(data=tmp_path))
    await first.start()
    try:
        second = Server(ServerConfig(data=tmp_path))
        with pytest.raises(DataFolderInUse, match=f"the data folder {tmp_path} is in use by "
                                                  r"another Boardroom server \(pid \d+\)"):
            await second.start()
        # The command line says so before starting anything.
        done = subprocess.run([sys.executable, "-m", "boardroom", "serve", "--data",
                               str(tmp_path), "--port", "1"], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2, done.stderr
        assert "in use by another Boardroom server" in done.stderr
    finally:
        await first.stop()
    again = Server(ServerConfig(data=tmp_path))
    await again.start()
    await again.stop()


async def test_a_variants_worked_example_and_unknown_games(tmp_path: Path) -> None:
    async with running_server(tmp_path, web=None) as running:
        answer = await running.http.get("/api/games/ESG/example")
        assert answer.status_code == 200
        body = answer.json()
        assert body["game"] == "esg"
        assert body["players"] == ["Ann", "Ben", "Cal"]
        view = body["view"]
        assert set(view["boards"]) == {"A", "B"}
        assert all(len(cards) == 5 for cards in view["boards"].values())
        assert [c[0] for c in view["results"][0]["categories"]] == ["A", "B", "Hand"]
        assert all(isinstance(card, str) for shown in view["showdown"] for card in shown["cards"])
        unknown = await running.http.get("/api/games/nope/example")
        assert unknown.status_code == 404
        assert "nope" in unknown.json()["detail"]
        choice = await running.http.get("/api/games/dealers-choice/example")
        assert choice.status_code == 404
        assert "picks a variant" in choice.json()["detail"]
