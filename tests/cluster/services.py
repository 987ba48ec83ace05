"""Real PostgreSQL, Redis and HAProxy for the cluster tests, each started in a temporary folder
on free loopback ports and stopped at the end; and ``boardroom serve`` workers on them.

PostgreSQL 15 comes from Debian's packages (``/usr/lib/postgresql/15/bin``), ``redis-server``
and ``haproxy`` too. A missing binary skips the cluster tests with a message, unless the
environment says CI: there they must run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")
REDIS = Path("/usr/bin/redis-server")
HAPROXY = Path("/usr/sbin/haproxy")


def need(binary: Path) -> None:
    """Skip (with a message) when ``binary`` is missing, except on CI, where it fails."""
    if binary.exists():
        return
    message = f"{binary} is missing: install Debian's postgresql, redis-server and haproxy"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_port(port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout:.0f} s")


def _as_postgres(args: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root: run it as the package's postgres user then.
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@dataclass
class Postgres:
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://boardroom@127.0.0.1:{self.port}/postgres"

    def database(self, name: str) -> str:
        """A new, empty database on this server: its URL."""
        subprocess.run(_as_postgres([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p",
                                     str(self.port), "-U", "boardroom", name]),
                       check=True, capture_output=True, timeout=60)
        return f"postgresql://boardroom@127.0.0.1:{self.port}/{name}"

    def sql(self, database: str, query: str) -> list[list[str]]:
        """Rows of ``query`` (psql's unaligned output, split on ``|``)."""
        done = subprocess.run(_as_postgres([
            str(PG_BIN / "psql"),
            "-h", "127.0.0.1", "-p", str(self.port), "-U", "boardroom", "-d", database,
            "-At", "-c", query]), check=True, capture_output=True, text=True, timeout=60)
        return [line.split("|") for line in done.stdout.splitlines() if line]


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    need(PG_BIN / "initdb")
    # Not under pytest's tmp folder: the postgres user cannot enter root's private folders.
    folder = Path(tempfile.mkdtemp(prefix="cluster6-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    subprocess.run(_as_postgres([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust",
                                 "-U", "boardroom"]), check=True, capture_output=True, timeout=180)
    port = free_port()
    options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
               f"-c max_connections=200")
    subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                                 "-l", str(folder / "log"), "start"]),
                   check=True, capture_output=True, timeout=180)
    try:
        yield Postgres(folder, port)
    finally:
        subprocess.run(_as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                     "-w", "stop"]), capture_output=True, timeout=180)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    folder: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with (self.folder / "log").open("ab") as log:
            self.process = subprocess.Popen(
                [str(REDIS), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder)], stdout=log,
                stderr=subprocess.STDOUT)
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
        self.process = None


@contextlib.contextmanager
def redis() -> Iterator[Redis]:
    need(REDIS)
    folder = Path(tempfile.mkdtemp(prefix="cluster6-redis-"))
    server = Redis(folder, free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Worker:
    id: str
    port: int
    log: Path
    options: tuple[str, ...]
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, database: str, redis_url: str, data: Path) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "boardroom", "serve", "--port", str(self.port),
                 "--data", str(data / self.id), "--database", database, "--redis", redis_url,
                 "--worker-id", self.id, "--log-level", "warning", *self.options],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError(f"worker {self.id} did not start: {self.log.read_text()[-3000:]}")

    def health(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.url}/healthz", timeout=10).json()
        return body

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def kill(self) -> None:
        """``kill -9``."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused worker must hear the TERM
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Cluster:
    """Workers on one database and one Redis, and HAProxy in front of them."""

    database: str
    redis: Redis
    folder: Path
    workers: list[Worker] = field(default_factory=list)
    haproxy: subprocess.Popen[bytes] | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def worker(self, worker_id: str) -> Worker:
        return next(w for w in self.workers if w.id == worker_id)

    def owner_of(self, room: str) -> Worker:
        """The worker whose health route lists ``room``."""
        for worker in self.workers:
            if worker.process is not None and worker.process.poll() is None:
                with contextlib.suppress(httpx.HTTPError):
                    if room in worker.health()["room_ids"]:
                        return worker
        raise AssertionError(f"no live worker runs room {room}")

    def logs(self) -> str:
        return "".join(w.log.read_text() for w in self.workers if w.log.exists())


HAPROXY_CONFIG = """global
    maxconn 4000
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch
    retries 3
frontend boardroom
    bind 127.0.0.1:{port}
    default_backend workers
backend workers
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
{servers}
"""


@contextlib.contextmanager
def cluster(database: str, redis_server: Redis, count: int,
            *options: str) -> Iterator[Cluster]:
    """``count`` workers (ids w1, w2...) and HAProxy in front, on free loopback ports."""
    need(HAPROXY)
    folder = Path(tempfile.mkdtemp(prefix="cluster6-workers-"))
    made = Cluster(database, redis_server, folder)
    try:
        for n in range(1, count + 1):
            worker = Worker(f"w{n}", free_port(), folder / f"w{n}.log", options)
            made.workers.append(worker)
            worker.start(database, redis_server.url, folder)
        made.port = free_port()
        servers = "\n".join(f"    server {w.id} 127.0.0.1:{w.port} check inter 500ms fall 2 rise 1"
                            for w in made.workers)
        config = folder / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(port=made.port, servers=servers))
        with (folder / "haproxy.log").open("ab") as log:
            made.haproxy = subprocess.Popen([str(HAPROXY), "-db", "-f", str(config)],
                                            stdout=log, stderr=subprocess.STDOUT)
        wait_port(made.port)
        yield made
    finally:
        if made.haproxy is not None:
            made.haproxy.terminate()
            made.haproxy.wait(30)
        for worker in made.workers:
            worker.stop()
        shutil.rmtree(folder, ignore_errors=True)
