"""``boardroom bench cluster``: its arguments are checked before anything starts, and (slow) a
small run measures both clusters and a failover and prints its tables."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from boardroom.cli import main


@pytest.mark.parametrize(("argv", "message"), [
    (["--tables", "0"], "table counts run from 1 to 1000"),
    (["--tables", "x"], "--tables and --workers take numbers separated by commas"),
    (["--workers", "0"], "worker counts run from 1 to 16"),
    (["--game", "nope"], "unknown game 'nope'"),
    (["--failover-tables", "301"], "--failover-tables runs from 0 to 300"),
    (["--duration", "0"], "--duration runs from 0 to 300 seconds"),
])
def test_bench_cluster_rejects_bad_arguments(capsys: pytest.CaptureFixture[str],
                                             argv: list[str], message: str) -> None:
    assert main(["bench", "cluster", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_bench_cluster_measures_both_clusters_and_a_failover() -> None:
    done = subprocess.run([sys.executable, "-m", "boardroom", "bench", "cluster", "--tables",
                           "2,4", "--duration", "3", "--players", "3", "--failover-tables", "3"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert re.search(r"^ +1 +\d+$", out, re.M), out  # tables held by one worker
    assert re.search(r"^ratio 2 workers / 1: [\d.]+x \(goal 1\.7x\)$", out, re.M), out
    restored = re.search(r"^  taken and restored +([\d.]+) s", out, re.M)
    found = re.search(r"^  next hand dealt +([\d.]+) s", out, re.M)
    assert restored, out
    assert found, out
    assert float(restored.group(1)) <= float(found.group(1)) < 60
    assert re.search(r"^  longest gap between two lease renewals: w\d [\d.]+ s", out, re.M), out
    assert re.search(r"^  longest wait for the event loop's answer to the lease keeper .*: "
                     r"w\d [\d.]+ s", out, re.M), out
