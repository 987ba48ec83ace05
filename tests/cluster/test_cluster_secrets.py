"""The database and Redis URLs (which may hold passwords) reach a cluster's workers in their
environment, never on their command line, which every user of the machine can read (``ps``,
``/proc/PID/cmdline``)."""

from __future__ import annotations

from pathlib import Path

from services import Cluster


def test_no_worker_command_line_carries_a_url(shared_cluster: Cluster) -> None:
    for worker in shared_cluster.workers:
        assert worker.child.pid is not None
        words = Path(f"/proc/{worker.child.pid}/cmdline").read_bytes().decode().split("\0")
        line = " ".join(words)
        assert "serve" in words, line
        assert shared_cluster.database not in line, line
        assert shared_cluster.redis.url not in line, line
        assert "postgresql://" not in line, line
        assert "redis://" not in line, line
