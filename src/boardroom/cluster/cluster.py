"""A whole development cluster in one data folder: PostgreSQL, Redis, N workers and HAProxy on
loopback, started in that order (each waits for the one before) and stopped in the reverse
order, the workers first so they drain.

The folder, reused from one run to the next (the database keeps every room)::

    DATA/boardroom.lock   held while a cluster runs on the folder
    DATA/postgres/        the PostgreSQL database cluster (PGDATA)
    DATA/redis/           redis.conf (generated)
    DATA/haproxy/         haproxy.cfg (generated) and the admin socket haproxy.sock
    DATA/workers/wN/      each worker's data folder
    DATA/logs/            postgres.log, redis.log, haproxy.log, wN.log
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boardroom.cluster.haproxy import HAProxy
from boardroom.cluster.postgres import Postgres
from boardroom.cluster.processes import Child, ClusterError, free_port, free_ports, port_is_free
from boardroom.cluster.redis import Redis
from boardroom.cluster.workers import Worker

if TYPE_CHECKING:
    from boardroom.server.app import DataFolderLock

MAX_WORKERS = 16


class Cluster:
    def __init__(self, data: Path, workers: int, port: int = 0, *,
                 worker_options: Sequence[str] = ()) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise ClusterError(f"a cluster has 1 to {MAX_WORKERS} workers, not {workers}")
        if not 0 <= port <= 65535:
            raise ClusterError(f"--port takes 0 to 65535, not {port}")
        self.data = data.resolve()
        self.worker_count, self.requested_port = workers, port
        self.worker_options = list(worker_options)
        self.postgres: Postgres | None = None
        self.redis: Redis | None = None
        self.workers: list[Worker] = []
        self.haproxy: HAProxy | None = None
        self.exited: list[Worker] = []  # workers that stopped on their own
        self._lock: DataFolderLock | None = None

    @property
    def url(self) -> str:
        if self.haproxy is None:
            raise RuntimeError("the cluster is not started")
        return self.haproxy.url

    def children(self) -> list[Child]:
        parts = [self.postgres, self.redis, *self.workers, self.haproxy]
        return [part.child for part in parts if part is not None and part.child is not None]

    def start(self, say: Callable[[str], None] = lambda line: None) -> None:
        """Start everything; on any failure stop what was started and raise ClusterError."""
        from boardroom.server.app import DataFolderLock  # the servers' own folder lock

        port = self.requested_port or free_port()
        if not port_is_free(port):
            raise ClusterError(f"port {port} on 127.0.0.1 is taken: stop what listens there "
                               f"or choose another --port (0: any free port)")
        names = [f"w{n}" for n in range(1, self.worker_count + 1)]
        postgres_port, redis_port, *worker_ports = [
            free for free in free_ports(len(names) + 3) if free != port][:len(names) + 2]
        postgres = Postgres(self.data / "postgres", postgres_port,
                            self.data / "logs" / "postgres.log")
        redis = Redis(self.data / "redis", redis_port, self.data / "logs" / "redis.log")
        ports = dict(zip(names, worker_ports, strict=True))
        haproxy = HAProxy(self.data / "haproxy", port, list(ports.items()),
                          self.data / "logs" / "haproxy.log")  # every binary found first
        lock = DataFolderLock(self.data)
        try:
            lock.acquire()
        except ValueError as error:
            raise ClusterError(str(error)) from None
        self._lock = lock
        try:
            if postgres.prepare():
                say(f"made a new PostgreSQL database cluster in {postgres.folder}")
            self.postgres = postgres
            postgres.start()
            self.redis = redis
            redis.start()
            self.workers = [Worker(name, ports[name], self.data / "workers" / name,
                                   self.data / "logs" / f"{name}.log", database=postgres.url,
                                   redis=redis.url, public_url=f"http://127.0.0.1:{port}",
                                   options=self.worker_options) for name in names]
            for worker in self.workers:
                worker.start()
            for worker in self.workers:
                worker.wait_ready()
            self.haproxy = haproxy
            (self.data / "haproxy").mkdir(parents=True, exist_ok=True)
            haproxy.start()
        except BaseException:
            self.stop()
            raise

    def check(self) -> tuple[list[str], str | None]:
        """What went wrong since the last check: the workers that exited (the rest carries on)
        and, when PostgreSQL, Redis or HAProxy exited, why the cluster cannot go on."""
        gone = [worker for worker in self.workers if not worker.child.alive()]
        notes = [f"{worker.child.failed('stopped')}\nThe other workers carry on."
                 for worker in gone]
        self.workers = [worker for worker in self.workers if worker not in gone]
        self.exited += gone
        for part in (self.postgres, self.redis, self.haproxy):
            if part is not None and part.child is not None and not part.child.alive():
                return notes, str(part.child.failed("stopped"))
        return notes, None

    def stop(self) -> list[str]:
        """Stop everything, the workers first (SIGTERM: they drain, all at once), then HAProxy,
        Redis and PostgreSQL; notes on anything that had to be killed."""
        notes: list[str] = []
        for worker in self.workers:
            worker.child.send(worker.child.stop_signal)
        for worker in self.workers:
            note = worker.stop()
            if note:
                notes.append(note)
        for part in (self.haproxy, self.redis, self.postgres):
            if part is not None:
                note = part.stop()
                if note:
                    notes.append(note)
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        return notes
