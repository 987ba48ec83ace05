"""``boardroom cluster up`` for real: PostgreSQL, Redis, two workers and HAProxy on free loopback
ports; a room made and a hand played through HAProxy's one address; a worker killed is reported
and the other serves on; Ctrl-C stops every process it started, and the data folder serves a
second run that finds the room again."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import Client

from processes import Output, stopped


@pytest.fixture
def data() -> Iterator[Path]:
    # Not under pytest's tmp folder: as root, PostgreSQL runs as the postgres user, who cannot
    # enter root's private folders.
    folder = Path(tempfile.mkdtemp(prefix="boardroom-cluster-test-"))
    folder.chmod(0o755)
    try:
        yield folder / "cluster"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Up:
    """A running ``cluster up``: its output, its address and every pid it printed."""

    def __init__(self, data: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "boardroom", "cluster", "up", "--port", "0", "--data",
             str(data), "--bot-think", "0", *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output = Output(self.process)
        self.banner = self.wait_for("Press Ctrl-C to stop", timeout=300)
        text = self.banner
        found = re.search(r"^Open (http://127\.0\.0\.1:(\d+))/$", text, re.M)
        assert found, text
        self.url, self.port = found.group(1), int(found.group(2))
        self.pids = [int(pid) for pid in re.findall(r"\(pid (\d+)\)", text)]
        self.ports = [int(port) for port in re.findall(r"127\.0\.0\.1:(\d+)", text)]

    def wait_for(self, words: str, timeout: float = 60) -> str:
        """The output up to the first line holding ``words``."""
        deadline = time.monotonic() + timeout
        lines = 1
        while words not in (text := self.output.first(lines, timeout=timeout)):
            assert self.process.poll() is None or text.count("\n") >= lines, text
            assert time.monotonic() < deadline, text
            lines += 1
        return text

    def stop(self, sig: signal.Signals) -> str:
        self.process.send_signal(sig)
        stopped(self.process, timeout=180)
        out = self.output.all()
        assert self.process.stdout is not None
        self.process.stdout.close()
        assert self.process.returncode == 0, out
        assert "Traceback" not in out, out
        return out


def _gone(up: Up, data: Path) -> None:
    """No process that ``cluster up`` started is left, and nothing listens on its ports."""
    assert [pid for pid in up.pids if Path(f"/proc/{pid}").exists()] == []
    left = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(data).encode() in cmdline.read_bytes():
                left.append(cmdline.parent.name)
        except OSError:
            continue
    assert left == [], f"processes still naming {data}: {left}"
    for port in up.ports:
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still answers"


async def _play_a_hand(url: str) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        page = await http.get("/")
        assert page.status_code == 200
        assert "BOARDROOM_WORKER" in page.headers.get("set-cookie", "")  # sticky for polling
        made = await http.post("/api/rooms", json={"game": "plo", "max_seats": 6})
        assert made.status_code == 201, made.text
        body = made.json()
    room, secret = body["room"], body["host_secret"]
    assert body["join_link"].startswith(f"{url}/?room={room}")  # HAProxy's address
    host = await Client(url).connect()
    try:
        await host.ok("join", room=room, role="spectator", host_secret=secret)
        for _ in range(3):
            await host.ok("add_bot", style="station")
        await host.ok("deal_now")
        await host.wait_for(lambda event: event["kind"] == "hand_ended", timeout=120)
    finally:
        await host.close()
    return room


def test_cluster_up_plays_through_haproxy_and_stops_everything(data: Path) -> None:
    up = Up(data, "--workers", "2")
    try:
        assert "made a new PostgreSQL database cluster" in up.banner
        assert len(up.pids) == 5  # PostgreSQL, Redis, two workers, HAProxy
        room = asyncio.run(_play_a_hand(up.url))
        # A worker that dies is reported, and the cluster carries on without it.
        w2 = re.search(r"worker w2 +http://\S+ \(pid (\d+)\)", up.banner)
        assert w2, up.banner
        os.kill(int(w2.group(1)), signal.SIGKILL)
        said = up.wait_for("The other workers carry on.")
        assert re.search(r"worker w2 stopped \(exited with code -9\); the end of \S+w2\.log",
                         said), said
        assert httpx.get(f"{up.url}/healthz", timeout=30).json()["worker"] == "w1"
    finally:
        out = up.stop(signal.SIGINT)  # Ctrl-C
    assert "Stopping: the workers drain" in out
    _gone(up, data)

    again = Up(data, "--workers", "1")  # the same folder: its database has the room
    try:
        assert "made a new PostgreSQL" not in again.banner
        table = httpx.get(f"{again.url}/api/rooms/{room}", timeout=30)
        assert table.status_code == 200, table.text
        assert table.json()["table"]["hand_no"] >= 1
        ledger = httpx.get(f"{again.url}/api/rooms/{room}/ledger.csv", timeout=30)
        rows = list(csv.DictReader(io.StringIO(ledger.text)))
        assert len(rows) == 3
        assert sum(int(row["net"]) for row in rows) == 0  # no chip made or lost
    finally:
        again.stop(signal.SIGTERM)
    _gone(again, data)
    assert os.listdir(data / "logs")
