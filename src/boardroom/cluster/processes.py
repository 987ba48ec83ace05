"""The child processes of a development cluster: started in their own session (so a Ctrl-C at
the terminal reaches only ``boardroom cluster up``, which stops them in order), told by the
kernel to stop when ``cluster up`` itself dies (``PR_SET_PDEATHSIG``), their output in a log
file, and every wait bounded, naming the log when something does not come up."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class ClusterError(Exception):
    """Something the cluster needs is missing or did not start; the message says what."""


def find_binary(name: str, package: str, *folders: Path) -> Path:
    """The program ``name`` on PATH or in ``folders``; a clear error naming the Debian package
    that provides it when it is missing."""
    for folder in folders:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if found is None:
        raise ClusterError(f"{name} is not installed: install Debian's {package} package "
                           f"(apt-get install -y {package})")
    return Path(found)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def free_ports(count: int) -> list[int]:
    """``count`` different ports on 127.0.0.1 that nothing listens on now (probed together, so
    no two are the same)."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]


def port_is_free(port: int) -> bool:
    """Whether a server could listen on 127.0.0.1:``port`` now (as servers do, with
    SO_REUSEADDR: a port whose last connections linger in TIME_WAIT is free)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _die_with_parent(sig: int) -> Callable[[], None] | None:
    """A pre-exec hook that has the kernel send ``sig`` to the child when its parent dies, so
    a ``cluster up`` killed outright leaves no server behind (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)  # loaded before the fork, not in the child

    def hook() -> None:
        libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)

    return hook


class Child:
    """One server process of the cluster, its output appended to ``log``."""

    def __init__(self, name: str, argv: list[str], log: Path, *,
                 stop_signal: int = signal.SIGTERM, user: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self.name, self.argv, self.log = name, argv, log
        self.stop_signal, self.user = stop_signal, user
        self.env = dict(env) if env is not None else None  # None: this process's environment
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=_die_with_parent(self.stop_signal),
                user=self.user, group=self.user, extra_groups=[] if self.user else None,
                env=self.env)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def tail(self, lines: int = 15) -> str:
        """The last lines of the log, for an error message."""
        with contextlib.suppress(OSError):
            text = self.log.read_text(errors="replace").rstrip().splitlines()
            return "\n".join(f"  {line}" for line in text[-lines:])
        return "  (no log)"

    def failed(self, what: str) -> ClusterError:
        code = self.process.poll() if self.process is not None else None
        state = f"exited with code {code}" if code is not None else "is still running"
        return ClusterError(f"{self.name} {what} ({state}); the end of {self.log}:\n"
                            f"{self.tail()}")

    def wait_until(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        """Poll ``ready`` until it holds; a clear error, with the log's end, if the child exits
        or ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        while not ready():
            if not self.alive():
                raise self.failed(f"did not {what}")
            if time.monotonic() > deadline:
                raise self.failed(f"did not {what} within {timeout:.0f} s")
            time.sleep(0.1)

    def send(self, sig: int) -> None:
        if self.alive():
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)

    def wait(self, timeout: float) -> bool:
        """Whether the child has exited within ``timeout`` seconds."""
        if self.process is None:
            return True
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self, timeout: float) -> str | None:
        """Ask the child to stop and wait; kill it past ``timeout``. A note when it had to be
        killed or had exited on its own with an error, else None."""
        if self.process is None:
            return None
        if not self.alive():
            code = self.process.returncode
            return None if code in (0, -self.stop_signal) else \
                f"{self.name} had exited with code {code} (see {self.log})"
        self.send(self.stop_signal)
        if self.wait(timeout):
            return None
        self.process.kill()
        self.process.wait()
        return f"{self.name} did not stop within {timeout:.0f} s and was killed"


def run_checked(argv: list[str], what: str, *, user: str | None = None,
                timeout: float = 120.0) -> str:
    """Run a short command to completion; its output, or a clear error with it."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, user=user, group=user,
                              extra_groups=[] if user else None)
    except subprocess.TimeoutExpired:
        raise ClusterError(f"{what} took longer than {timeout:.0f} s") from None
    if done.returncode != 0:
        output = "\n".join(f"  {line}" for line in
                           (done.stderr or done.stdout).strip().splitlines())
        raise ClusterError(f"{what} failed (exit code {done.returncode}):\n{output}")
    return done.stdout
