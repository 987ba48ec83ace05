"""Reading a child process's output with deadlines: a server that never prints must fail the
test, not stall the run."""

from __future__ import annotations

import subprocess
import threading
import time


class Output:
    """Collects a child's stdout on a daemon thread, which does the blocking reads, so every
    wait below has a deadline even when the child prints nothing at all."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        self._stdout = process.stdout
        self._lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()

    def _pump(self) -> None:
        for line in self._stdout:
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()

    def first(self, count: int, timeout: float = 60.0) -> str:
        """The first ``count`` lines (fewer if the output ends first)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._lines) < count and self._reader.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"only {len(self._lines)} of {count} lines within "
                                         f"{timeout:.0f} s: {''.join(self._lines)!r}")
                self._changed.wait(min(left, 0.1))
            return "".join(self._lines[:count])

    def all(self, timeout: float = 30.0) -> str:
        """Everything printed, once the output has ended."""
        self._reader.join(timeout)
        assert not self._reader.is_alive(), "the output did not end"
        return "".join(self._lines)


def stopped(process: subprocess.Popen[str], timeout: float = 30.0) -> None:
    """Wait for a child told to stop; kill it if it does not, and say so."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError(f"the process did not stop within {timeout:.0f} s") from None
