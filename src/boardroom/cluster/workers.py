"""The ``boardroom serve`` workers of a development cluster: each on its own loopback port and
data folder, all on one PostgreSQL database (which also keeps the seat-token secret they share)
and one Redis. The database and Redis URLs reach each worker in its environment, never on its
command line, which every user of the machine can read."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardroom.cluster.processes import Child
from boardroom.commands.serve import DATABASE_ENV, REDIS_ENV


def health(port: int, timeout: float = 2.0) -> dict[str, Any] | None:
    """A worker's health answer (its id, its rooms, whether it is draining), or None when it
    does not answer 200 within ``timeout`` seconds."""
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(
            f"http://127.0.0.1:{port}/healthz", timeout=timeout) as response:
        if response.status == 200:
            answer: dict[str, Any] = json.load(response)
            return answer
    return None


class Worker:
    def __init__(self, name: str, port: int, folder: Path, log: Path, *, database: str,
                 redis: str, public_url: str, options: Sequence[str] = ()) -> None:
        self.name, self.port, self.folder = name, port, folder
        self.child = Child(f"worker {name}", [
            sys.executable, "-m", "boardroom", "serve", "--host", "127.0.0.1",
            "--port", str(port), "--data", str(folder), "--worker-id", name,
            "--public-url", public_url, "--log-level", "warning", *options], log,
            stop_signal=signal.SIGTERM,
            # two malloc arenas, not eight a core: less memory kept free (docs/decisions.md)
            env={"MALLOC_ARENA_MAX": "2", **os.environ, DATABASE_ENV: database,
                 REDIS_ENV: redis})

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.child.start()

    def ready(self) -> bool:
        """Whether this worker (and not some other server on its port) answers as up."""
        answer = health(self.port)
        return answer is not None and answer.get("worker") == self.name

    def wait_ready(self, timeout: float = 180.0) -> None:
        self.child.wait_until(self.ready, timeout, f"answer on 127.0.0.1:{self.port}")

    def stop(self, timeout: float = 90.0) -> str | None:
        """SIGTERM: the worker hands its rooms over (drains), then exits."""
        return self.child.stop(timeout)
