"""``boardroom bench server`` runs end to end: browser-like clients (the default) against a
server that pushes never ask for a snapshot, the scripted mode still works, and each run reports
its figures; bad options are clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardroom", "bench", "server", *args],
                          capture_output=True, text=True, timeout=240)


def _rows(out: str) -> list[list[str]]:
    lines = out.splitlines()
    start = next(n for n, line in enumerate(lines) if line.split()[:2] == ["game", "tables"])
    return [line.split() for line in lines[start + 1:] if line.strip()]


def test_browser_clients_play_from_pushes_and_report_every_figure() -> None:
    done = _bench("--tables", "2", "--duration", "3", "--game", "esg,allocator-redraw")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = _rows(done.stdout)
    assert [row[:2] for row in rows] == [["esg", "2"], ["allocator-redraw", "2"]]
    for row in rows:
        game, tables, clients, actions = row[0], int(row[1]), int(row[2]), int(row[3])
        assert clients == tables * 7  # six players and a spectator
        assert actions > 0, (game, row)
        snapshots, errors = int(row[13]), int(row[14])
        assert snapshots == 0, row  # the server pushes: nothing to pull
        assert errors == 0, row
        assert row[10] != "-"  # server CPU per action
        assert float(row[10]) > 0
        # memory per table: each row's own fresh server, so every row's tables show (one
        # server for every row printed 0 for a row that reused an earlier row's freed memory)
        assert float(row[11]) > 0, row
        # its anonymous part (the heaps, not the evaluator's mapped tables)
        assert float(row[12]) > 0, row
        assert row[16].replace(".", "").isdigit()  # the load average at the start
        assert float(row[17]) > 0  # KiB of pushes per action, at all of a table's clients


def test_scripted_clients_and_bad_options() -> None:
    done = _bench("--tables", "1", "--duration", "2", "--game", "plo", "--clients", "scripted")
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(_rows(done.stdout)[0][3]) > 0
    wrong = _bench("--tables", "1", "--game", "nope")
    assert wrong.returncode != 0
    assert "unknown game 'nope'" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    assert "table counts run from 1 to 1000" in _bench("--tables", "1001").stderr


def test_a_server_that_does_not_start_is_a_clear_error() -> None:
    from boardroom.bench.server import BenchError, serve_child

    assert issubclass(BenchError, ValueError)  # the command line prints it, no traceback
    with pytest.raises(BenchError, match=r"the server exited \(status 2\) before it answered"), \
            serve_child("--no-such-option"):
        pass


def test_the_load_generator_runs_on_uvloop_without_the_cyclic_collector() -> None:
    """2,100 clients in one process hold every client's view: the collector's passes over them
    stalled every client at once (a p99 of 1.5 s at 200 ESG tables, 85 ms without), which no
    browser with its own heap sees. It is off for the run and back on after."""
    import asyncio
    import gc

    from boardroom.bench.server import run_light

    async def inside() -> tuple[bool, str]:
        return gc.isenabled(), type(asyncio.get_running_loop()).__module__

    assert gc.isenabled()
    collecting, loop = run_light(inside())
    assert not collecting
    assert loop.startswith("uvloop")
    assert gc.isenabled()


def test_players_seed_as_soon_as_they_hear_the_commitment_and_hands_are_counted() -> None:
    """As each browser does (web/js/seed.js): a seated client sends its own seed for the hand
    as soon as it hears the commitment, once, not at the table's next action (the deal that
    came first refused it). Hands that end are counted once a table (at its spectator), and
    only while the run records."""
    import asyncio
    import random

    from boardroom.bench.server import Client, Stats, TableRun

    sent: list[tuple[int | None, dict[str, object]]] = []

    async def scenario() -> Stats:
        stats = Stats()
        table = TableRun("room", "secret", stats, random.Random(1), True)
        clients = [Client(table, seat) for seat in (0, 1, 2)] + [Client(table, None)]
        for client in clients:
            async def command(message: dict[str, object], client: Client = client) -> object:
                sent.append((client.seat, message))
                return {"ok": True}
            client.command = command  # type: ignore[method-assign]
        table.clients.extend(clients)
        commitment = [{"kind": "fair_commitment", "data": {"hand_no": 4}}]
        for client in clients:
            table.on_message(client, 10, commitment)
        table.on_message(clients[0], 11, commitment)  # heard again: not sent again
        await asyncio.sleep(0)
        await asyncio.gather(*table.seeding)
        ended = [{"kind": "hand_ended", "data": {}}]
        for client in clients:
            table.on_message(client, 12, ended)  # before the run records: not counted
        stats.recording = True
        for client in clients:
            table.on_message(client, 13, ended)
        return stats

    stats = asyncio.run(scenario())
    assert sorted(seat for seat, _ in sent) == [0, 1, 2]
    assert all(message["type"] == "seed" and message["hand_no"] == 4 for _, message in sent)
    assert stats.hands == 1
