"""Real PostgreSQL, Redis and HAProxy for the cluster tests, and ``boardroom serve`` workers on
them, all started through ``boardroom.cluster`` (the parts of ``boardroom cluster up``) on free
loopback ports in temporary folders, and stopped at the end.

A missing program skips the cluster tests with a message, unless the environment says CI:
there they must run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from boardroom.cluster import ClusterError
from boardroom.cluster import haproxy as haproxy_part
from boardroom.cluster import postgres as postgres_part
from boardroom.cluster import redis as redis_part
from boardroom.cluster import workers as workers_part
from boardroom.cluster.processes import free_ports


def need(part: Any, *args: Any, **options: Any) -> Any:
    """``part(*args, **options)``; a skip (with its message) when its program is missing,
    except on CI, where it fails."""
    try:
        return part(*args, **options)
    except ClusterError as error:
        if os.environ.get("CI"):
            pytest.fail(str(error))
        pytest.skip(str(error))


def _folder(prefix: str) -> Path:
    # Not under pytest's tmp folder: as root, PostgreSQL runs as the postgres user, who cannot
    # enter root's private folders.
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return folder


class Postgres(postgres_part.Postgres):
    def database(self, name: str) -> str:
        """A new, empty database on this server: its URL."""
        return self.create_database(name)


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    folder = _folder("clusterops-pg-")
    (port,) = free_ports(1)
    server: Postgres = need(Postgres, folder / "data", port, folder / "postgres.log",
                            settings={"fsync": "off"})  # a test's database need not survive
    try:
        server.prepare()
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


class Redis(redis_part.Redis):
    pass


@contextlib.contextmanager
def redis() -> Iterator[Redis]:
    folder = _folder("clusterops-redis-")
    (port,) = free_ports(1)
    server: Redis = need(Redis, folder, port, folder / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


class Worker(workers_part.Worker):
    """A worker of the tests: ``cluster up``'s, with ways to signal, kill and restart it."""

    @property
    def id(self) -> str:
        return self.name

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def process(self) -> Any:
        return self.child.process

    @property
    def log(self) -> Path:
        return self.child.log

    def health(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.url}/healthz", timeout=10).json()
        return body

    def signal(self, number: int) -> None:
        self.child.send(number)

    def kill(self) -> None:
        """``kill -9``."""
        self.child.send(signal.SIGKILL)
        self.child.wait(30)

    def restart(self) -> None:
        """Start it again (after a kill) and wait until it answers."""
        self.start()
        self.wait_ready()

    def stop(self, timeout: float = 90.0) -> str | None:
        self.child.send(signal.SIGCONT)  # a paused worker must hear the TERM
        return super().stop(timeout)


@dataclass
class Cluster:
    """Workers on one database and one Redis, and HAProxy in front of them."""

    database: str
    redis: Redis
    folder: Path
    workers: list[Worker] = field(default_factory=list)
    haproxy: haproxy_part.HAProxy | None = None

    @property
    def url(self) -> str:
        assert self.haproxy is not None
        return self.haproxy.url

    def owner_of(self, room: str) -> Worker:
        """The worker whose health route lists ``room``."""
        for worker in self.workers:
            if worker.child.alive():
                with contextlib.suppress(httpx.HTTPError):
                    if room in worker.health()["room_ids"]:
                        return worker
        raise AssertionError(f"no live worker runs room {room}")

    def logs(self) -> str:
        return "".join(w.log.read_text() for w in self.workers if w.log.exists())


@contextlib.contextmanager
def cluster(database: str, redis_server: Redis, count: int,
            *options: str) -> Iterator[Cluster]:
    """``count`` workers (ids w1, w2...), started together, and HAProxy in front, on free
    loopback ports."""
    folder = _folder("clusterops-workers-")
    made = Cluster(database, redis_server, folder)
    haproxy_port, *ports = free_ports(count + 1)
    try:
        for n, port in enumerate(ports, start=1):
            made.workers.append(Worker(f"w{n}", port, folder / f"w{n}", folder / f"w{n}.log",
                                       database=database, redis=redis_server.url,
                                       public_url=f"http://127.0.0.1:{haproxy_port}",
                                       options=options))
        for worker in made.workers:
            worker.start()
        for worker in made.workers:
            worker.wait_ready()
        made.haproxy = need(haproxy_part.HAProxy, folder / "haproxy", haproxy_port,
                            [(w.name, w.port) for w in made.workers], folder / "haproxy.log")
        (folder / "haproxy").mkdir()
        made.haproxy.start()
        yield made
    finally:
        if made.haproxy is not None:
            made.haproxy.stop()
        for worker in made.workers:  # all drain at once
            worker.child.send(signal.SIGCONT)
            worker.child.send(signal.SIGTERM)
        for worker in made.workers:
            worker.stop()
        if os.environ.get("CLUSTER_TEST_LOGS"):  # keep the workers' logs, to read a failure
            kept = Path(os.environ["CLUSTER_TEST_LOGS"])
            kept.mkdir(parents=True, exist_ok=True)
            for log in folder.glob("*.log"):
                shutil.copy(log, kept / log.name)
        shutil.rmtree(folder, ignore_errors=True)
