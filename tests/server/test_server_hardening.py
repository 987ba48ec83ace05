"""Holes an attack on the running server found: each bad input gets a clear error (never a 500 or
a traceback), and nothing a player sends can hurt another room."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, FakeClock, clients, new_room, running_server

from boardroom.server.auth import AuthError, Signer
from boardroom.table import Table, TableError, TableSettings
from boardroom.table.settings import MAX_CHIPS


@pytest.mark.parametrize("token", ["é.é", "ab.cdé", "☃" * 10 + ".x", "x.\udcff"])
def test_a_non_ascii_token_is_an_auth_error(token: str) -> None:
    signer = Signer(b"k" * 32)
    with pytest.raises(AuthError, match="not a seat token"):
        signer.read(token)


async def test_a_non_ascii_token_over_http_is_a_403(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        answer = await running.http.get(f"/api/rooms/{room}/hands",
                                        headers={"X-Seat-Token": "é.é".encode()})
        assert answer.status_code == 403
        assert answer.json()["detail"] == "not a seat token"


async def test_a_seat_token_in_a_url_is_refused(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        async with clients(running.url, 1) as (client,):
            await client.ok("join", room=room)
            token = (await client.ok("sit", seat=0, name="Ann"))["token"]
        for path in (f"/api/rooms/{room}/hands", f"/api/rooms/{room}/hands/1",
                     f"/api/rooms/{room}/hands/1/history.toml"):
            answer = await running.http.get(path, params={"token": token})
            assert answer.status_code == 400
            assert answer.json()["detail"] == ("send the seat token in the X-Seat-Token header, "
                                               "never in the URL")
        assert (await running.http.get(f"/api/rooms/{room}/hands",
                                       headers={"X-Seat-Token": token})).status_code == 200


async def test_a_non_ascii_token_in_join_is_refused_and_the_room_keeps_its_clock(
        tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        async with clients(running.url, 1) as (client,):
            answer = await client.cmd("join", room=room, token="é.é")
            assert not answer["ok"]
            assert "not a seat token" in answer["error"]
            assert (await client.cmd("join", room=room))["ok"]


@pytest.mark.parametrize("field", ["small_blind", "big_blind", "ante", "bring_in",
                                   "starting_stack"])
def test_every_chip_setting_has_an_upper_bound(field: str) -> None:
    values = {"small_blind": 1, "big_blind": 2, field: MAX_CHIPS + 1}
    if field == "small_blind":
        values["big_blind"] = MAX_CHIPS + 1
    with pytest.raises(TableError, match=f"{field} must be at most {MAX_CHIPS:,}"):
        TableSettings.from_dict(values)


def test_the_largest_chip_settings_are_accepted() -> None:
    settings = TableSettings.from_dict({"small_blind": 1, "big_blind": 2,
                                        "starting_stack": MAX_CHIPS})
    assert settings.starting_stack == MAX_CHIPS


async def test_a_huge_starting_stack_is_a_400_not_a_broken_room(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        answer = await running.http.post("/api/rooms", json={"starting_stack": 2**63})
        assert answer.status_code == 400
        assert answer.json()["detail"] == f"starting_stack must be at most {MAX_CHIPS:,}"


async def test_the_host_cannot_set_a_stack_beyond_the_bound(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, secret = await new_room(running)
        async with clients(running.url, 1) as (host,):
            await host.ok("join", room=room, host_secret=secret)
            await host.ok("sit", seat=0, name="Host")
            answer = await host.cmd("set_stack", seat=0, amount=2**62)
            assert not answer["ok"]
            assert f"at most {MAX_CHIPS:,}" in answer["error"]
            assert (await host.cmd("set_stack", seat=0, amount=500))["ok"]


async def test_an_oversized_body_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        body = b'{"game": "plo", "pad": "' + b"x" * (10 * 1024 * 1024) + b'"}'
        answer = await running.http.post("/api/rooms", content=body,
                                         headers={"content-type": "application/json"})
        assert answer.status_code == 413
        assert "larger than" in answer.json()["detail"]

        async def chunks():  # no Content-Length: the limit counts what arrives
            for _ in range(200):
                yield b"x" * 65536

        chunked = await running.http.post("/api/rooms", content=chunks(),
                                          headers={"content-type": "application/json"})
        assert chunked.status_code == 413
        assert (await running.http.get("/healthz")).json()["ok"]
        small = await running.http.post("/api/rooms", json={"game": "plo"})
        assert small.status_code == 201


@pytest.mark.parametrize("hand_no", ["99999999999999999999", "2147483648", "-1", "0"])
async def test_a_hand_number_out_of_range_is_a_clear_error(tmp_path: Path, hand_no: str) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        for suffix in ("", "/history.toml"):
            answer = await running.http.get(f"/api/rooms/{room}/hands/{hand_no}{suffix}")
            assert answer.status_code == 422, answer.text
            assert "hand_no" in answer.text


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1+2", "-3", "@SUM(A1)"])
async def test_the_ledger_neutralises_formula_names(tmp_path: Path, name: str) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running)
        async with clients(running.url, 1) as (client,):
            await client.ok("join", room=room)
            await client.ok("sit", seat=0, name=name)
            ledger = (await running.http.get(f"/api/rooms/{room}/ledger.csv")).text
        rows = list(csv.DictReader(io.StringIO(ledger)))
        assert rows[0]["player"] == "'" + name
        assert rows[0]["net"] == "0"


def test_a_plain_name_in_the_ledger_is_written_as_is() -> None:
    from boardroom.server.http import spreadsheet_safe

    assert spreadsheet_safe("Ann") == "Ann"
    assert spreadsheet_safe("=1+1") == "'=1+1"
    assert spreadsheet_safe("\t=1") == "'\t=1"


async def test_the_join_link_uses_the_public_url_not_the_host_header(tmp_path: Path) -> None:
    async with running_server(tmp_path, public_url="https://poker.example.org/club/") as running:
        made = await running.http.post("/api/rooms", json={}, headers={"Host": "evil.example"})
        body = made.json()
        assert body["join_link"] == f"https://poker.example.org/club/?room={body['room']}"


@pytest.mark.parametrize("url", ["ftp://x.org", "poker.example.org", "https://", "https://a b/",
                                 "https://x.org/?a=1", "https://x.org/#f"])
def test_a_public_url_must_be_an_http_address(url: str) -> None:
    from boardroom.server import ServerConfig

    with pytest.raises(ValueError, match="the public URL must be"):
        ServerConfig(public_url=url)


def test_serve_refuses_a_bad_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    from boardroom.cli import main

    assert main(["serve", "--public-url", "ftp://x.org"]) == 2
    assert "the public URL must be" in capsys.readouterr().err


async def _seated_pair(running: Any, room: str,
                       clock: FakeClock) -> tuple[Any, Any, dict[str, Any]]:
    a, b = Client(running.url), Client(running.url)
    await a.connect()
    await b.connect()
    for seat, client in enumerate((a, b)):
        await client.ok("join", room=room)
        await client.ok("sit", seat=seat, name=f"P{seat}")
    clock.now += 1  # past the pause before the first hand
    turn = await a.wait_for(lambda e: e["kind"] == "turn", timeout=30)
    return a, b, turn


async def test_a_failed_command_keeps_the_turn_clock(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in one command reloads the table from the store; the player to act must not get a
    fresh clock from it (a staller could trigger it every few seconds and never time out)."""
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, pause_between_hands=0.2, action_clock=30)
        a, b, turn = await _seated_pair(running, room, clock)
        try:
            deadline = turn["data"]["deadline"]
            clock.now += 10

            def broken(*_args: Any) -> None:
                raise RuntimeError("a bug")

            monkeypatch.setattr(Table, "sit_out", broken)
            answer = await a.cmd("sit_out")
            assert answer == {"id": answer["id"], "ok": False, "code": "server_error",
                              "error": "the server failed to apply this command"}
            snapshot = (await a.ok("snapshot"))["snapshot"]
            assert snapshot["table"]["turn"]["deadline"] == deadline
        finally:
            await a.close()
            await b.close()


async def _raw_socket(url: str) -> Any:
    """A bare WebSocket speaking Engine.IO 4 / Socket.IO 5 text frames by hand."""
    import aiohttp

    session = aiohttp.ClientSession()
    ws = await session.ws_connect(url.replace("http", "ws", 1)
                                  + "/socket.io/?EIO=4&transport=websocket")
    assert (await ws.receive_str()).startswith("0")
    await ws.send_str("40")
    while not (await ws.receive_str()).startswith("40"):
        pass
    return session, ws


async def _drain(ws: Any, seconds: float) -> list[str]:
    frames: list[str] = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                message = await ws.receive()
                if message.type != 1:  # TEXT
                    break
                if message.data != "2":  # not a ping
                    frames.append(message.data)
    return frames


async def test_unknown_events_are_rate_limited_like_commands(tmp_path: Path) -> None:
    from boardroom.server.protocol import BURST, RATE

    async with running_server(tmp_path) as running:
        session, ws = await _raw_socket(running.url)
        try:
            start = time.monotonic()
            for n in range(200):
                await ws.send_str(f'42["bogus{n}",{{}}]')
            answers = [f for f in await _drain(ws, 1.5) if "unknown event" in f]
            # The bucket refills at RATE a second while the frames go out and are read (the
            # hub's limiter runs on the monotonic clock): past that, nothing is answered.
            refilled = RATE * (time.monotonic() - start)
            assert 1 <= len(answers) <= BURST + refilled + 2, (len(answers), refilled)
        finally:
            await ws.close()
            await session.close()


async def test_a_malformed_frame_logs_one_line_and_no_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with running_server(tmp_path) as running:
        session, ws = await _raw_socket(running.url)
        try:
            caplog.clear()
            with caplog.at_level(logging.DEBUG):
                for frame in ('42["command",', '4x', '42{}', '42[1,2]', '2probe"', '99'):
                    await ws.send_str(frame)
                    await asyncio.sleep(0.05)
                await _drain(ws, 0.5)
            noisy = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
            assert noisy == [], [r.getMessage() for r in noisy]
            assert (await running.http.get("/healthz")).json()["ok"]
        finally:
            await ws.close()
            await session.close()


@pytest.mark.parametrize("frame", ["2", "3", "2probe", "5", "40", '40{"token":"x"}', "41",
                                   '42["command",{"id":"a","type":"snapshot"}]',
                                   '421["command",{}]', '42/chat,7["x"]', '431[{"ok":true}]'])
def test_well_formed_frames_pass_the_guard(frame: str) -> None:
    from boardroom.server.limits import read_frame

    assert read_frame(frame)[0] is None


@pytest.mark.parametrize(("frame", "fault"), [
    ('42["command",', "the packet's data is not JSON"),
    ("42{}", "the packet's data is not a JSON array"),
    ("42[1,2]", "an event's first element is not its name"),
    ("42[]", "an event's first element is not its name"),
    ("4x", "not a Socket.IO packet a client sends"),
    ('45-["x",{"_placeholder":true,"num":0}]', "not a Socket.IO packet a client sends"),
    ("99", "not an Engine.IO packet a client sends"),
    ('2probe"', "not an Engine.IO packet a client sends"),
    ("40[1]", "a connect's data is not an object"),
    ("41x", "a disconnect carries nothing"),
])
def test_malformed_frames_are_named(frame: str, fault: str) -> None:
    from boardroom.server.limits import read_frame

    assert read_frame(frame) == (fault, None)


async def test_the_evaluators_tables_are_built_before_the_server_answers(tmp_path: Path) -> None:
    """The first razz, lowball or badugi hand, and the first pills, build nothing in the event
    loop: every table (and numpy) is ready before the server takes its first request (a build
    took about 0.4 s of the loop's time, stalling every table in the process)."""
    from boardroom.evaluation import _tables

    _tables.lowball_tables.cache_clear()
    _tables.arrays.cache_clear()
    async with running_server(tmp_path) as running:
        assert (await running.http.get("/healthz")).status_code == 200
        assert _tables.lowball_tables.cache_info().currsize == 1
        assert _tables.arrays.cache_info().currsize == 1
