"""What a ``bench cluster`` run costs, per action, over its measuring window: the CPU time of
each group of processes (the workers, PostgreSQL with all its backends, Redis, HAProxy, the load
generator: this process) read from ``/proc``, the machine's busy cores, the messages the workers
published on Redis (its ``INFO commandstats``) and PostgreSQL's write transactions (transaction
ids assigned) and commits. Everything runs on one machine, so the judgement whether N workers
can hold more tables on it is one of CPU: these figures are its evidence."""

from __future__ import annotations

import os
import resource
import subprocess
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (None: no such process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def _children() -> dict[int, list[int]]:
    """Every process's children, from ``/proc/*/stat``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def tree_cpu(pids: Iterable[int], children: Mapping[int, list[int]] | None = None) -> float:
    """Seconds of CPU (user and system) of processes ``pids`` and all their descendants, with
    the time of those that exited and were waited for (their parents' ``cutime``, ``cstime``):
    a PostgreSQL backend that ends within a window still counts."""
    tree = _children() if children is None else children
    total, stack, seen = 0, list(pids), set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        fields = _stat(pid)
        if fields is None:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        stack += tree.get(pid, [])
    return total / TICK


def own_cpu() -> float:
    """Seconds of CPU of this process (the load generator), its children not counted."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy() -> tuple[float, float]:
    """Seconds of CPU busy and in all, summed over the machine's cores (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    total = sum(values[:8])  # not guest time, which user time includes already
    return (total - idle) / TICK, total / TICK


def redis_publishes(port: int) -> int | None:
    """How many PUBLISH commands the Redis on 127.0.0.1:``port`` has run."""
    import redis

    try:
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)
        try:
            stats: dict[str, Any] = client.info("commandstats")
        finally:
            client.close()
    except (redis.RedisError, OSError):
        return None
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


def postgres_counts(psql: Path, port: int, user: str, database: str) -> tuple[int, int] | None:
    """PostgreSQL's transaction ids assigned so far (each write transaction takes one; the
    next to be assigned) and the commits of ``database``."""
    sql = ("select pg_snapshot_xmax(pg_current_snapshot()), xact_commit from pg_stat_database "
           f"where datname = '{database}'")
    try:
        done = subprocess.run([str(psql), "-X", "-q", "-t", "-A", "-F", " ", "-h", "127.0.0.1",
                               "-p", str(port), "-U", user, "-d", database, "-c", sql],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30, check=True)
        xids, commits = done.stdout.split()
        return int(xids), int(commits)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


@dataclass
class Sample:
    cpu: dict[str, float]  # group -> seconds
    busy: tuple[float, float]
    publishes: int | None
    postgres: tuple[int, int] | None


@dataclass
class Usage:
    """What a window cost: ``cpu`` (group -> seconds), the machine's busy and total CPU
    seconds, Redis's publishes and PostgreSQL's write transactions and commits (None: not
    read)."""

    seconds: float
    cpu: dict[str, float]
    busy: float
    total: float
    publishes: int | None
    writes: int | None
    commits: int | None
    workers: list[str] = field(default_factory=list)  # the groups that are workers

    def line(self, actions: int) -> str:
        """The window's figures per action, on two lines."""
        if not actions:
            return "  (no action: no cost per action)"
        per = {name: 1000 * seconds / actions for name, seconds in self.cpu.items()}
        workers = self.workers
        parts = [f"workers {sum(per[name] for name in workers):.2f} ("
                 + ", ".join(f"{name} {per[name]:.2f}" for name in workers) + ")"]
        parts += [f"{name} {value:.2f}" for name, value in per.items() if name not in workers]
        parts.append(f"all {sum(per.values()):.2f}")
        if self.seconds:
            parts.append(f"machine {self.busy / self.seconds:.2f} of {os.cpu_count()} cores "
                         f"busy (other processes too)")
        counts = []
        if self.publishes is not None:
            counts.append(f"Redis publishes/action {self.publishes / actions:.2f}")
        if self.writes is not None and self.commits is not None:
            counts.append(f"PostgreSQL write transactions/action {self.writes / actions:.2f}, "
                          f"commits/action {self.commits / actions:.2f}")
        return "  CPU ms/action: " + ", ".join(parts) + \
            ("\n  " + "; ".join(counts) if counts else "")


class Meter:
    """Reads the cluster's counters as a window opens and as it closes (``window``, the hook
    of ``bench.server._run``); ``usage`` is the last window's."""

    def __init__(self, cluster: Any) -> None:
        from boardroom.cluster.postgres import DATABASE, USER

        self.cluster = cluster
        self.database, self.user = DATABASE, USER
        self.usage: Usage | None = None

    def groups(self) -> dict[str, list[int]]:
        """Each group's root processes: each worker (by its name), PostgreSQL (its postmaster:
        the backends are its children), Redis and HAProxy."""
        cluster = self.cluster
        groups = {worker.name: [worker.child.pid] for worker in cluster.workers}
        for name, part in (("PostgreSQL", cluster.postgres), ("Redis", cluster.redis),
                           ("HAProxy", cluster.haproxy)):
            if part is not None and part.child is not None and part.child.pid is not None:
                groups[name] = [part.child.pid]
        return groups

    def _sample(self) -> tuple[Sample, Callable[[], None]]:
        """The counters now, and a call that completes them with PostgreSQL's, read from a
        thread (``psql`` takes a while to start: the load generator's loop, which calls this,
        must not wait for it)."""
        cluster = self.cluster
        sample = Sample({}, (0.0, 0.0), None, None)
        thread = None
        if cluster.postgres is not None:
            def read() -> None:
                sample.postgres = postgres_counts(cluster.postgres.binaries / "psql",
                                                  cluster.postgres.port, self.user,
                                                  self.database)

            thread = threading.Thread(target=read, daemon=True)
            thread.start()
        tree = _children()
        sample.cpu = {name: tree_cpu(pids, tree) for name, pids in self.groups().items()}
        sample.cpu["load generator"] = own_cpu()
        sample.publishes = redis_publishes(cluster.redis.port) if cluster.redis else None
        sample.busy = machine_busy()
        return sample, (lambda: thread.join(60)) if thread is not None else (lambda: None)

    def window(self) -> Callable[[], None]:
        import time

        (start, started), opened = self._sample(), time.monotonic()

        def close() -> None:
            end, ended = self._sample()
            started()
            ended()
            cpu = {name: end.cpu[name] - start.cpu.get(name, 0.0) for name in end.cpu}
            self.usage = Usage(
                time.monotonic() - opened, cpu, end.busy[0] - start.busy[0],
                end.busy[1] - start.busy[1],
                None if end.publishes is None or start.publishes is None
                else end.publishes - start.publishes,
                None if end.postgres is None or start.postgres is None
                else end.postgres[0] - start.postgres[0],
                None if end.postgres is None or start.postgres is None
                else end.postgres[1] - start.postgres[1],
                [worker.name for worker in self.cluster.workers])

        return close
