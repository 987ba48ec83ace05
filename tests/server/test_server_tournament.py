"""Tournaments on a live server: a multi-table bots tournament to the end with every chip
accounted for, the host's controls and their errors, a connected player following a table
break, and a restart in the middle."""

from __future__ import annotations

import asyncio
import csv
import io
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, running_server

FAST = {"name": "fast", "starting_stack": 200, "late_registration_levels": 0,
        "levels": [{"small_blind": 10 * 2**k, "big_blind": 20 * 2**k, "ante": 2**k, "hands": 4}
                   for k in range(8)]}


async def _create(running: Any, **options: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Live", "games": ["plo"], "structure": FAST, "table_size": 4,
            "action_clock": 5.0, **options}
    response = await running.http.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    return created["tournament"], {"X-Host-Secret": created["host_secret"]}


async def _until_finished(running: Any, tournament: str, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lobby = (await running.http.get(f"/api/tournaments/{tournament}")).json()
        assert lobby["chips"] == sum(p["stack"] for p in lobby["players"]), "chips conserved"
        if lobby["finished"]:
            return lobby
        await asyncio.sleep(0.2)
    raise AssertionError(f"the tournament did not finish in {seconds} s: {lobby}")


def _conserved(running: Any, lobby: dict[str, Any]) -> None:
    """Every table room's chips are its ledger's, and the tables hold the director's chips."""
    host = running.server.tournaments[lobby["tournament"]]
    on_tables = 0
    for room_id in [*host.rooms.values(), *host.closed_rooms]:
        table = running.server.rooms[room_id].table
        assert table.chips_on_table() == table.balance
        on_tables += table.chips_on_table()
    if not lobby["finished"]:
        assert on_tables == host.director.chips


async def test_a_multi_table_bots_tournament_plays_to_the_end_with_every_chip(
        tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        tournament, host = await _create(running)
        added = await running.http.post(f"/api/tournaments/{tournament}/bots",
                                        json={"style": "loose", "count": 11}, headers=host)
        assert added.status_code == 201, added.text
        await running.http.post(f"/api/tournaments/{tournament}/bots",
                                json={"style": "station", "count": 3}, headers=host)
        started = await running.http.post(f"/api/tournaments/{tournament}/start", headers=host)
        assert started.status_code == 200, started.text
        lobby = started.json()
        assert len(lobby["tables"]) == 4
        assert lobby["entrants"] == 14
        assert lobby["chips"] == 14 * 200
        _conserved(running, lobby)
        lobby = await _until_finished(running, tournament, 240)
        _conserved(running, lobby)
        results = (await running.http.get(f"/api/tournaments/{tournament}/results")).json()
        places = [row["place"] for row in results["results"]]
        assert sorted(places) == places
        assert places[0] == 1
        assert len(places) == 14
        assert sum(row["prize"] for row in results["results"]) == 14 * 100
        winner = next(p for p in lobby["players"] if p["place"] == 1)
        assert winner["stack"] == 14 * 200
        text = (await running.http.get(f"/api/tournaments/{tournament}/results.csv")).text
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [int(r["place"]) for r in rows] == places
        # Every hand's history names the tournament, the level and the table.
        host_state = running.server.tournaments[tournament]
        room = host_state.closed_rooms[0] if host_state.closed_rooms else \
            next(iter(host_state.rooms.values()))
        hands = (await running.http.get(f"/api/rooms/{room}/hands")).json()["hands"]
        assert hands
        history = (await running.http.get(f"/api/rooms/{room}/hands/1")).json()["history"]
        assert history["_tournament"] == tournament
        assert history["_level"] == 1


async def test_the_hosts_controls_and_bad_requests(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        bad = {
            "zero length": (400, {"structure": {"name": "x", "starting_stack": 100,
                                           "levels": [{"small_blind": 10, "big_blind": 20,
                                                       "minutes": 0}]}}),
            "no such game": (400, {"games": ["no-such-game"]}),
            "100": (400, {"payouts": [50, 30]}),
        }
        for text, (status, body) in bad.items():
            response = await running.http.post("/api/tournaments", json={"name": "T", **body})
            assert response.status_code == status, (text, response.text)
            assert text in response.json()["detail"], (text, response.text)
        tournament, host = await _create(running, structure={**FAST, "levels": [
            {"small_blind": 10, "big_blind": 20, "minutes": 10},
            {"small_blind": 20, "big_blind": 40, "minutes": 10}]})
        url = f"/api/tournaments/{tournament}"
        assert (await running.http.post(f"{url}/start")).status_code == 403
        assert (await running.http.post(f"{url}/start", headers={"X-Host-Secret": "x"})
                ).status_code == 403
        assert (await running.http.post(f"{url}/explode", headers=host)).status_code == 404
        # The status follows the error's code, not its words: a refusal that quotes the words
        # "host secret" is still a 400.
        _says(await running.http.post(f"{url}/bots", json={"style": "host secret"},
                                      headers=host), 400, "unknown bot style 'host secret'")
        answer = await running.http.post(f"{url}/start", headers=host)
        assert "at least two entrants" in answer.json()["detail"]
        me = await running.http.post(f"{url}/entries", json={"name": "Ann"})
        assert me.status_code == 201
        _says(await running.http.post(f"{url}/entries", json={"name": "ann"}), 400, "taken")
        await running.http.post(f"{url}/bots", json={"style": "tight", "count": 3},
                                headers=host)
        assert (await running.http.post(f"{url}/start", headers=host)).status_code == 200
        late = await running.http.post(f"{url}/entries", json={"name": "Late"})
        assert "registration is closed" in late.json()["detail"]
        paused = (await running.http.post(f"{url}/pause", headers=host)).json()
        assert paused["paused"]
        host_state = running.server.tournaments[tournament]
        assert all(running.server.rooms[r].table.paused for r in host_state.rooms.values())
        left = paused["time_left"]
        await asyncio.sleep(0.5)
        assert (await running.http.get(url)).json()["time_left"] == left  # the clock stopped
        twice = await running.http.post(f"{url}/pause", headers=host)
        assert "already paused" in twice.json()["detail"]
        resumed = (await running.http.post(f"{url}/resume", headers=host)).json()
        assert not resumed["paused"]
        more = (await running.http.post(f"{url}/add_time", json={"seconds": 60},
                                        headers=host)).json()
        assert more["time_left"] > left
        token = me.json()["token"]
        where = (await running.http.get(f"{url}/me", headers={"X-Seat-Token": token})).json()
        assert where["room"] in host_state.rooms.values()
        assert (await running.http.get(f"{url}/me")).status_code == 401
        assert (await running.http.get("/api/tournaments/nope")).status_code == 404


# Blinds that stop at 150/300 (ante 25): Ann's 2,000 chips can never all be posted at once.
CAPPED = {"name": "capped", "starting_stack": 2000, "late_registration_levels": 1,
          "levels": [{"small_blind": sb, "big_blind": 2 * sb, "ante": ante, "hands": 4}
                     for sb, ante in ((10, 0), (20, 0), (40, 5), (80, 10), (150, 25))]}


async def _act_until(client: Client, done: Any) -> None:
    """Ann folds (or checks, where she may not fold) whenever it is her turn, until ``done()``."""
    while not done():
        answer = await client.cmd("act", action="fold")
        if not answer["ok"] and "not your turn" not in answer["error"]:
            await client.cmd("act", action="check")
        await asyncio.sleep(0.05)


async def test_a_connected_player_follows_a_table_break(tmp_path: Path) -> None:
    """The field is made so that Ann must be moved before she can bust, whatever the timing:
    eight bots fill two tables of four while the tournament is paused, so Ann's late entry
    opens table 3 (balanced to three players each), the first table to break. Her action clock
    is long and she acts only once a bot is out: until then her table waits on her, so she has
    lost at most one hand's blind and ante when her table breaks."""
    async with running_server(tmp_path, bot_think=0.0) as running:
        tournament, host = await _create(running, action_clock=600.0, structure=CAPPED)
        url = f"/api/tournaments/{tournament}"
        await running.http.post(f"{url}/bots", json={"style": "loose", "count": 8},
                                headers=host)
        assert (await running.http.post(f"{url}/pause", headers=host)).status_code == 200
        started = (await running.http.post(f"{url}/start", headers=host)).json()
        assert [t["players"] for t in started["tables"]] == [4, 4]
        me = (await running.http.post(f"{url}/entries", json={"name": "Ann"})).json()
        where = (await running.http.get(f"{url}/me",
                                        headers={"X-Seat-Token": me["token"]})).json()
        lobby = await _lobby(running.http, tournament)
        assert where["table"] == 3
        assert [t["players"] for t in lobby["tables"]] == [3, 3, 3]
        client = await Client(running.url).connect()
        notices: list[dict[str, Any]] = []
        client.sio.on("tournament", notices.append)
        try:
            await client.ok("join", room=where["room"], token=where["token"])
            assert (await running.http.post(f"{url}/resume", headers=host)).status_code == 200
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and \
                    (await _lobby(running.http, tournament))["left"] == 9:
                await asyncio.sleep(0.1)
            assert (await _lobby(running.http, tournament))["left"] < 9, "nobody busted"
            assert not notices  # Ann's table waits on her: it cannot break mid-hand
            await asyncio.wait_for(_act_until(client, lambda: notices), 60)
            notice = notices[0]
            assert notice["kind"] == "moved", notice
            assert notice["reason"] == "table broken"
            assert notice["from_table"] == 3
            assert notice["room"] != where["room"]
            assert notice["stack"] >= 2000 - 300 - 25
            joined = await client.ok("join", room=notice["room"], token=notice["token"])
            assert joined["you"]["seat"] == notice["seat"]
            assert {"seat": notice["seat"], "name": "Ann"}.items() <= next(
                s for s in joined["snapshot"]["table"]["seats"] if s.get("name") == "Ann").items()
            seen = len(client.updates)
            # The new table's pushes reach her (her own fold, if the table waits on her).
            await asyncio.wait_for(_act_until(client, lambda: len(client.updates) > seen), 60)
        finally:
            await client.close()


def _says(response: Any, status: int, words: str) -> None:
    """``response`` is a ``status`` whose detail says ``words``."""
    assert response.status_code == status, response.text
    assert words in response.json()["detail"], response.text


async def _lobby(http: Any, tournament: str) -> dict[str, Any]:
    response = await http.get(f"/api/tournaments/{tournament}")
    assert response.status_code == 200, response.text
    lobby: dict[str, Any] = response.json()
    return lobby


@pytest.mark.slow  # about 3 minutes on a loaded machine: two server processes killed
async def test_kill_9_twice_restart_and_finish_with_every_chip_and_prize(tmp_path: Path) -> None:
    import httpx
    from server_helpers import free_port, serve

    data, log = tmp_path / "data", tmp_path / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    minutes = {**FAST, "levels": [{"small_blind": 10 * 2**k, "big_blind": 20 * 2**k,
                                   "ante": 2**k, "minutes": 1} for k in range(8)]}
    kills, tournament = 0, ""
    level, time_left, placed = 0, 0.0, []  # at the last kill
    while True:
        with serve(data, port, log, "--bot-think", "0") as process:
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                if not tournament:
                    body = {"name": "Kill", "games": ["plo"], "structure": minutes,
                            "table_size": 4, "action_clock": 5.0}
                    created = (await http.post("/api/tournaments", json=body)).json()
                    tournament = created["tournament"]
                    host = {"X-Host-Secret": created["host_secret"]}
                    await http.post(f"/api/tournaments/{tournament}/bots",
                                    json={"style": "loose", "count": 14}, headers=host)
                    await http.post(f"/api/tournaments/{tournament}/start", headers=host)
                else:
                    lobby = await _lobby(http, tournament)
                    # The level clock resumed with the time it had left: the seconds the
                    # server was down were not spent.
                    assert lobby["level"]["number"] == level
                    assert lobby["time_left"] >= time_left - 6.0  # (saved every 5 s)
                    assert lobby["chips"] == 14 * 200
                    now_placed = [p for p in lobby["players"] if p["place"]]
                    for finish in placed:  # every elimination and prize stands
                        assert any(p["name"] == finish["name"] and p["place"] == finish["place"]
                                   and p["prize"] == finish["prize"] for p in now_placed)
                if kills == 2:
                    lobby = await _lobby(http, tournament)
                    deadline = time.monotonic() + 300
                    while not lobby["finished"] and time.monotonic() < deadline:
                        await asyncio.sleep(0.3)
                        lobby = await _lobby(http, tournament)
                    assert lobby["finished"], lobby
                    for room in [t["room"] for t in lobby["tables"]] + lobby["closed_tables"]:
                        ledger = (await http.get(f"/api/rooms/{room}/ledger.csv")).text
                        rows = list(csv.DictReader(io.StringIO(ledger)))
                        assert rows
                        assert sum(int(r["net"]) for r in rows) == 0, ledger  # no chip lost
                    break
                # Let some hands end (and some players bust), then kill -9 mid-play.
                start = await _lobby(http, tournament)
                hands = sum(t["hand_no"] for t in start["tables"])
                deadline = time.monotonic() + 60
                lobby = start
                while time.monotonic() < deadline and \
                        sum(t["hand_no"] for t in lobby["tables"]) < hands + 3 + 4 * kills:
                    await asyncio.sleep(0.05)
                    lobby = await _lobby(http, tournament)
                level, time_left = lobby["level"]["number"], lobby["time_left"]
                placed = [p for p in lobby["players"] if p["place"]]
                process.kill()
                process.wait()
                kills += 1
                await asyncio.sleep(3.0)  # down for a while: the clock must not run
        # (the context manager saw the process dead and left it)
    results = lobby["players"]
    assert sorted(p["place"] for p in results) == list(range(1, 15))
    assert sum(p["prize"] for p in results) == lobby["prize_pool"] == 1400
    assert next(p for p in results if p["place"] == 1)["stack"] == 14 * 200


async def test_the_lobby_has_a_version_and_an_unchanged_lobby_answers_only_its_clock(
        tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        minutes = {**FAST, "levels": [{"small_blind": 10, "big_blind": 20, "minutes": 10},
                                      {"break": 5},
                                      {"small_blind": 20, "big_blind": 40, "minutes": 10}]}
        tournament, host = await _create(running, structure=minutes)
        url = f"/api/tournaments/{tournament}"
        first = await _lobby(running.http, tournament)
        assert first["next_level"] is None or first["next_level"]["big_blind"] == 40
        same = (await running.http.get(url, params={"since": first["version"]})).json()
        assert same == {"tournament": tournament, "version": first["version"],
                        "unchanged": True, "paused": False, "time_left": 600.0,
                        "next_break": 600.0}
        await running.http.post(f"{url}/entries", json={"name": "Ann"})
        changed = (await running.http.get(url, params={"since": first["version"]})).json()
        assert changed["version"] > first["version"]
        assert [p["name"] for p in changed["players"]] == ["Ann"]
        await running.http.post(f"{url}/bots", json={"count": 2}, headers=host)
        await running.http.post(f"{url}/pause", headers=host)
        started = (await running.http.post(f"{url}/start", headers=host)).json()
        assert started["next_level"]["big_blind"] == 40
        assert started["time_left"] == 600
        assert started["next_break"] == 600
        await asyncio.sleep(0.3)
        clock = (await running.http.get(url, params={"since": started["version"]})).json()
        assert clock["unchanged"]
        assert clock["paused"]
        assert clock["time_left"] == 600  # started while paused: the clock waits for resume
        bad = await running.http.get(url, params={"since": "x"})
        assert bad.status_code == 422


async def test_structures_are_listed_saved_as_toml_and_read_back(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        presets = (await running.http.get("/api/structures")).json()["presets"]
        assert set(presets) == {"turbo", "standard", "deep"}
        assert presets["turbo"]["starting_stack"] == 1500
        saved = await running.http.post("/api/structures/toml", json=presets["deep"])
        assert saved.status_code == 200, saved.text
        assert 'filename="deep.toml"' in saved.headers["content-disposition"]
        back = await running.http.post("/api/structures/parse", json={"toml": saved.text})
        assert back.json() == presets["deep"]
        bad = {**FAST, "levels": [{"small_blind": 20, "big_blind": 40, "hands": 3},
                                  {"small_blind": 10, "big_blind": 20, "hands": 3}]}
        _says(await running.http.post("/api/structures/toml", json=bad), 400, "level 2")
        _says(await running.http.post("/api/structures/parse", json={"toml": "levels = ["}),
              400, "not a TOML structure")


async def test_a_player_rebuys_re_enters_and_takes_the_add_on_with_their_entry_token(
        tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        rebuys = {**FAST, "late_registration_levels": 1, "max_entries": 2, "rebuy_levels": 1,
                  "rebuy_chips": 200, "max_rebuys": 1, "addon_chips": 300}
        tournament, host = await _create(running, structure=rebuys)
        url = f"/api/tournaments/{tournament}"
        me, token = await _ann_and_bots(running, url, host, 3)
        _says(await running.http.post(f"{url}/me/rebuy", headers=token), 400, "not playing")
        await running.http.post(f"{url}/pause", headers=host)  # no hand dealt: between hands
        await running.http.post(f"{url}/start", headers=host)
        _says(await running.http.post(f"{url}/me/reenter", headers=token),
              400, "still in the tournament")
        _says(await running.http.post(f"{url}/me/addon", headers=token),
              400, "the add-on is offered in level 2 only")
        bought = await running.http.post(f"{url}/me/rebuy", headers=token)
        assert bought.status_code == 200, bought.text
        assert bought.json()["stack"] == 400
        lobby = await _lobby(running.http, tournament)
        assert lobby["chips"] == 4 * 200 + 200
        assert lobby["prize_pool"] == 5 * 100
        twice = await running.http.post(f"{url}/me/rebuy", headers=token)
        assert "a rebuy needs a stack at or below the starting stack" in twice.json()["detail"]
        assert (await _lobby(running.http, tournament))["chips"] == 1000  # nothing changed
        host_state = running.server.tournaments[tournament]
        ann = next(p for p in lobby["players"] if p["name"] == "Ann")
        room = running.server.rooms[host_state.rooms[ann["table"]]]
        seats = {s.player: s.stack for s in room.table.seats.values()}
        assert seats[me["player"]] == 400  # the table's seat has the rebuy's chips
        assert (await running.http.post(f"{url}/me/rebuy")).status_code == 401
        _says(await running.http.post(f"{url}/me/explode", headers=token),
              404, "rebuy, addon, reenter")


async def test_the_host_approves_or_declines_entries_and_the_answers_survive_a_restart(
        tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        tournament, host = await _create(running, entry_approval=True)
        url = f"/api/tournaments/{tournament}"
        await running.http.post(f"{url}/bots", json={"count": 3}, headers=host)  # no approval
        ann = (await running.http.post(f"{url}/entries", json={"name": "Ann"})).json()
        bob = (await running.http.post(f"{url}/entries", json={"name": "Bob"})).json()
        cat = (await running.http.post(f"{url}/entries", json={"name": "Cat"})).json()
        assert ann["status"] == "waiting"
        tokens = {name: {"X-Seat-Token": e["token"]} for name, e in
                  (("Ann", ann), ("Bob", bob), ("Cat", cat))}
        me = (await running.http.get(f"{url}/me", headers=tokens["Ann"])).json()
        assert me["status"] == "waiting"
        assert "room" not in me
        lobby = await _lobby(running.http, tournament)
        assert lobby["entry_approval"]
        assert lobby["waiting"] == 3
        assert lobby["entrants"] == 3
        assert lobby["prize_pool"] == 300
        assert "Ann" not in [p["name"] for p in lobby["players"]]
        assert (await running.http.get(f"{url}/waiting")).status_code == 403
        listed = (await running.http.get(f"{url}/waiting", headers=host)).json()["waiting"]
        assert [w["name"] for w in listed] == ["Ann", "Bob", "Cat"]
        assert (await running.http.post(f"{url}/waiting/{ann['player']}/approve")
                ).status_code == 403
        _says(await running.http.post(f"{url}/waiting/{ann['player']}/maybe", headers=host),
              404, "approve, decline")
        _says(await running.http.post(f"{url}/waiting/nobody/approve", headers=host),
              400, "no entry with that id is waiting")
        approved = await running.http.post(f"{url}/waiting/{ann['player']}/approve",
                                           headers=host)
        assert approved.status_code == 200, approved.text
        assert approved.json()["entrants"] == 4
        declined = await running.http.post(f"{url}/waiting/{bob['player']}/decline",
                                           headers=host)
        assert declined.json()["waiting"] == 1
        assert declined.json()["prize_pool"] == 400  # the declined entry paid nothing
        me = (await running.http.get(f"{url}/me", headers=tokens["Bob"])).json()
        assert me == {"tournament": tournament, "player": bob["player"], "status": "declined",
                      "reason": "the host declined this entry"}
        again = await running.http.post(f"{url}/waiting/{bob['player']}/approve", headers=host)
        assert again.status_code == 400
    async with running_server(tmp_path, bot_think=0.0) as running:  # a restart
        url = f"/api/tournaments/{tournament}"
        answers = {name: (await running.http.get(f"{url}/me", headers=token)).json()["status"]
                   for name, token in tokens.items()}
        assert answers == {"Ann": "registered", "Bob": "declined", "Cat": "waiting"}
        lobby = await _lobby(running.http, tournament)
        assert (lobby["entrants"], lobby["waiting"], lobby["prize_pool"]) == (4, 1, 400)
        started = await running.http.post(f"{url}/start", headers=host)
        assert started.status_code == 200, started.text
        # Registration closed at the start: Cat's entry, never approved, is declined.
        me = (await running.http.get(f"{url}/me", headers=tokens["Cat"])).json()
        assert me["status"] == "declined"
        assert "registration closed" in me["reason"]
        assert started.json()["waiting"] == 0
        assert started.json()["entrants"] == 4


async def _stations_play(running: Any, *, bots: int, hands: int, **options: Any) -> None:
    """A tournament of ``bots`` calling stations plays until its tables have dealt ``hands``
    hands in all (two minutes at most), then pauses."""
    tournament, host = await _create(running, **options)
    url = f"/api/tournaments/{tournament}"
    await running.http.post(f"{url}/bots", json={"style": "station", "count": bots},
                            headers=host)
    await running.http.post(f"{url}/start", headers=host)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and sum(
            t["hand_no"] for t in (await _lobby(running.http, tournament))["tables"]) < hands:
        await asyncio.sleep(0.1)
    await running.http.post(f"{url}/pause", headers=host)


async def _ann_and_bots(running: Any, url: str, host: dict[str, str], bots: int,
                        style: str = "tight") -> tuple[dict[str, Any], dict[str, str]]:
    """Ann enters, then ``bots`` bots of ``style``: her entry and her token's header."""
    me: dict[str, Any] = (await running.http.post(f"{url}/entries", json={"name": "Ann"})).json()
    await running.http.post(f"{url}/bots", json={"style": style, "count": bots}, headers=host)
    return me, {"X-Seat-Token": me["token"]}


async def _where(running: Any, url: str, token: dict[str, str]) -> dict[str, Any]:
    """``/me`` of the entry whose token's header is ``token``."""
    where: dict[str, Any] = (await running.http.get(f"{url}/me", headers=token)).json()
    return where


async def test_a_hand_that_moves_nobody_calls_no_other_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work counted, not timed: every call the tournament makes into a table room changes that
    table (a hand's end used to visit every table's actor twice, to seat nobody anew)."""
    from boardroom.server.room import Room

    calls = {"changed": 0, "idle": 0}
    original = Room.call

    async def counted(room: Room, change: Any) -> Any:
        before = room.table.version
        result = await original(room, change)
        calls["changed" if room.table.version != before else "idle"] += 1
        return result

    monkeypatch.setattr(Room, "call", counted)
    async with running_server(tmp_path, bot_think=0.0) as running:
        await _stations_play(running, bots=14, hands=20)
    assert calls["changed"] >= 20
    assert calls["idle"] == 0, calls


async def test_a_bot_builds_its_view_only_when_it_has_something_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work counted, not timed: a table's bots wake at every change of their table, and each
    used to build its whole hand view to learn that it was not its turn; now a bot's view is
    built for its decisions only (one per command it sends)."""
    from boardroom.server.room import Room
    from boardroom.table import Table

    counts = {"views": 0, "commands": 0}
    view, submit = Table.hand_view, Room.submit

    def counted_view(table: Table, seat: int | None, **options: Any) -> Any:
        counts["views"] += 1
        return view(table, seat, **options)

    async def counted_submit(room: Room, viewer: Any, command: Any) -> Any:
        counts["commands"] += 1
        return await submit(room, viewer, command)

    monkeypatch.setattr(Table, "hand_view", counted_view)
    monkeypatch.setattr(Room, "submit", counted_submit)
    async with running_server(tmp_path, bot_think=0.0) as running:
        await _stations_play(running, bots=12, hands=12, table_size=6)
    assert counts["commands"] >= 50
    assert counts["views"] <= counts["commands"] + 2 * 2, counts  # (a view a table at most
    # for a decision overtaken by the pause)


async def test_a_tournament_table_refuses_the_cash_games_commands_by_code(
        tmp_path: Path) -> None:
    """A tournament player cannot leave, sit out or buy chips at the table (TDA: an away
    player is blinded off), nor can the host seat, unseat or restack anyone there: each such
    command is refused with the code ``tournament_table``, naming why, and changes nothing.
    The table's snapshot names its tournament (the page links back to the lobby)."""
    async with running_server(tmp_path, bot_think=0.0) as running:
        tournament, host = await _create(running)
        url = f"/api/tournaments/{tournament}"
        _, token = await _ann_and_bots(running, url, host, 2)
        await running.http.post(f"{url}/pause", headers=host)  # no hand dealt: between hands
        await running.http.post(f"{url}/start", headers=host)
        where = await _where(running, url, token)
        table = running.server.rooms[where["room"]].table
        ann, other = await Client(running.url).connect(), await Client(running.url).connect()
        try:
            joined = await ann.ok("join", room=where["room"], token=where["token"])
            assert joined["snapshot"]["tournament"] == tournament
            await other.ok("join", room=where["room"], host_secret=host["X-Host-Secret"])
            before = (table.version, {s: st.stack for s, st in table.seats.items()})
            bot_seat = next(s for s in table.seats if s != where["seat"])
            empty = next(s for s in range(4) if s not in table.seats)
            refused = {
                ann: [("leave", {}), ("sit_out", {}), ("sit_in", {}), ("rebuy", {"amount": 50}),
                      ("straddle", {"on": True})],
                other: [("sit", {"seat": empty, "name": "Bob"}), ("kick", {"seat": bot_seat}),
                        ("set_stack", {"seat": bot_seat, "amount": 5}),
                        ("approve", {"seat": bot_seat}), ("approve_rebuy", {"seat": bot_seat}),
                        ("transfer_host", {"seat": bot_seat}), ("deal_now", {}), ("close", {}),
                        ("add_bot", {"style": "tight"}), ("remove_bot", {"seat": bot_seat})],
            }
            for client, commands in refused.items():
                for kind, args in commands:
                    answer = await client.cmd(kind, **args)
                    assert not answer["ok"], (kind, answer)
                    assert answer["code"] == "tournament_table", (kind, answer)
                    assert "tournament table" in answer["error"], (kind, answer)
            assert (table.version, {s: st.stack for s, st in table.seats.items()}) == before
            watcher = await Client(running.url).connect()
            try:
                seen = await watcher.ok("join", room=where["room"], role="spectator")
                assert seen["snapshot"]["tournament"] == tournament
            finally:
                await watcher.close()
        finally:
            await ann.close()
            await other.close()


async def test_a_rebuy_refused_at_the_hands_end_reaches_the_player(tmp_path: Path) -> None:
    """Ann asks for a rebuy during her hand (at her turn, so the hand waits on her); the host
    ends the rebuy period (level 1) before she acts, so the rebuy is refused when the hand
    ends: her connection is told why (a ``tournament`` message ``refused``), ``/me`` says
    so, and no chip is added."""
    async with running_server(tmp_path, bot_think=0.0) as running:
        rebuys = {**FAST, "rebuy_levels": 1, "rebuy_chips": 200, "levels": [
            {"small_blind": 10, "big_blind": 20, "minutes": 10},
            {"small_blind": 20, "big_blind": 40, "minutes": 10}]}
        tournament, host = await _create(running, structure=rebuys, action_clock=600.0)
        url = f"/api/tournaments/{tournament}"
        _, token = await _ann_and_bots(running, url, host, 2, "station")
        await running.http.post(f"{url}/start", headers=host)
        where = await _where(running, url, token)
        table = running.server.rooms[where["room"]].table
        client = await Client(running.url).connect()
        notices: list[dict[str, Any]] = []
        client.sio.on("tournament", notices.append)
        try:
            await client.ok("join", room=where["room"], token=where["token"])
            deadline = time.monotonic() + 60
            while not table.hand_turn(where["seat"]) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert table.hand_turn(where["seat"]), "Ann's turn never came"
            asked = (await running.http.post(f"{url}/me/rebuy", headers=token)).json()
            assert asked["queued"] == ["rebuy"], asked
            assert asked["refused"] == []
            chips = (await _lobby(running.http, tournament))["chips"]
            ended = await running.http.post(f"{url}/add_time", json={"seconds": -600},
                                            headers=host)
            assert ended.json()["level"]["number"] == 2, ended.text
            await asyncio.wait_for(_act_until(client, lambda: notices), 30)  # the hand ends
            assert [n["kind"] for n in notices] == ["refused"], notices
            assert notices[0]["what"] == "rebuy"
            assert notices[0]["reason"] == "the rebuy period ended with level 1"
            now = await _where(running, url, token)
            assert now["queued"] == []
            assert now["refused"] == [{"what": "rebuy",
                                       "reason": "the rebuy period ended with level 1"}]
            assert now["rebuys"] == 0
            assert (await _lobby(running.http, tournament))["chips"] == chips
        finally:
            await client.close()
