"""The ``boardroom serve`` workers of a development cluster: each on its own loopback port and
data folder, all on one PostgreSQL database and one Redis, all holding the same server secret
(a seat token signed by one worker is read by every other)."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardroom.cluster.processes import Child

SECRET = "secret.key"  # the server secret's file in a data folder (server.auth.Signer)


def health(port: int) -> dict[str, Any] | None:
    """A worker's health answer (its id, its rooms, whether it is draining), or None when it
    does not answer 200."""
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(
            f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
        if response.status == 200:
            answer: dict[str, Any] = json.load(response)
            return answer
    return None


def worker_id(answer: dict[str, Any]) -> object:
    return answer.get("worker", answer.get("worker_id"))


class Worker:
    def __init__(self, name: str, port: int, folder: Path, log: Path, *, database: str,
                 redis: str, public_url: str, options: Sequence[str] = ()) -> None:
        self.name, self.port, self.folder = name, port, folder
        self.child = Child(f"worker {name}", [
            sys.executable, "-m", "boardroom", "serve", "--host", "127.0.0.1",
            "--port", str(port), "--data", str(folder), "--database", database,
            "--redis", redis, "--worker-id", name, "--public-url", public_url,
            "--log-level", "warning", *options], log, stop_signal=signal.SIGTERM)

    def start(self, secret: Path) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        shutil.copy2(secret, self.folder / SECRET)  # owner-only, as the original
        self.child.start()

    def ready(self) -> bool:
        answer = health(self.port)
        return answer is not None and worker_id(answer) in (None, self.name)

    def wait_ready(self, timeout: float = 180.0) -> None:
        self.child.wait_until(self.ready, timeout, f"answer on 127.0.0.1:{self.port}")

    def stop(self, timeout: float = 90.0) -> str | None:
        """SIGTERM: the worker hands its rooms over (drains), then exits."""
        return self.child.stop(timeout)
