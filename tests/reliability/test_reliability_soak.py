"""``boardroom bench soak`` runs end to end: bot rooms through a live server, a row of the
server's CPU and memory (all of it, anonymous and file-backed) every so many hands, its hands per
CPU second, the growth after the warm-up and the errors (none); bad options are clear errors;
what the server logs counts as errors, a traceback once."""

from __future__ import annotations

import io
import subprocess
import sys

from boardroom.bench.soak import Sample, log_records, second_half


def _soak(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardroom", "bench", "soak", *args],
                          capture_output=True, text=True, timeout=400)


def test_a_short_soak_reports_memory_over_time_and_no_error() -> None:
    done = _soak("--hands", "24", "--rooms", "2", "--game", "plo,esg", "--every", "6",
                 "--warmup", "6")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    start = next(n for n, line in enumerate(lines) if line.split()[:2] == ["hands", "seconds"])
    assert lines[start].split()[3:8] == ["CPU", "s", "RSS", "MiB", "anon"]
    assert lines[start].split()[11] == "threads"
    # the server runs with glibc's arenas as deployed (deploy/boardroom.env), and says so
    assert "server glibc arenas: MALLOC_ARENA_MAX=2" in lines
    rows = [line.split() for line in lines[start + 1:] if line.split()[0][0].isdigit()]
    assert len(rows) >= 2
    for row in rows:
        cpu, rss, anon, mapped = (float(value) for value in row[3:7])
        assert cpu > 0  # the server's CPU seconds so far
        assert rss > 10  # the server's RSS, in MiB: its anonymous and its file-backed parts
        assert anon > 0
        assert mapped > 0
        assert anon + mapped <= rss + 0.15 + 1e-9  # three figures, each rounded to 0.1 MiB
        assert int(row[7]) >= 2  # the server's threads (a new one gets an arena of its own)
        assert row[-1] == "0"  # errors so far
    assert int(rows[-1][0].replace(",", "")) >= 24
    rate = next(line for line in lines if line.startswith("server CPU: "))
    assert "hands per CPU second: 1,000,000 hands would take about" in rate
    assert "KiB per 1,000 hands, anonymous" in lines[-1]
    assert lines[-2].startswith("second half (")
    assert "KiB per 1,000 hands" in lines[-2]
    assert lines[-1].endswith("errors 0 (goal: 0)")


def test_bad_options_are_clear_errors() -> None:
    for args, message in ((["--hands", "0"], "--hands runs from 1 to 1,000,000"),
                          (["--game", "nope"], "unknown game 'nope'"),
                          (["--styles", "shark"], "--styles takes bot styles"),
                          (["--bots", "11"], "--bots runs from 2 to"),
                          (["--minutes", "0"], "--minutes runs from 0 to a week")):
        done = _soak(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr
        assert "Traceback" not in done.stderr


def test_what_the_server_logged_counts_as_errors() -> None:
    log = io.StringIO("room a: command failed\nTraceback (most recent call last):\n"
                      '  File "x.py", line 1, in f\n    g()\nKeyError: 3\n'
                      "a bad frame from a connection\n")
    assert log_records(log) == 3
    assert log_records(io.StringIO("")) == 0


def test_the_second_half_has_two_rows_however_unevenly_the_rows_fell() -> None:
    # rows fall where the hands are when the watcher looks: 6, 14, 26 put the middle (16) past
    # all but the last row; the second half starts at the last row at or before the middle
    rows = [Sample(hands, 1.0, 1000, 0) for hands in (6, 14, 26)]
    assert [s.hands for s in second_half(rows)] == [14, 26]
    rows = [Sample(hands, 1.0, 1000, 0) for hands in (6, 12, 18, 24, 30)]
    assert [s.hands for s in second_half(rows)] == [18, 24, 30]
    assert [s.hands for s in second_half(rows[:2])] == [6, 12]
