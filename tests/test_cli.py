"""The command line: help on every command, the variants listing, and ``play`` serving a room
of bots."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from boardroom.cli import COMMANDS, main
from boardroom.commands.play import open_browser
from processes import Output, stopped


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: boardroom" in capsys.readouterr().out


def test_variants_json_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    variants = json.loads(capsys.readouterr().out)["games"]
    ids = [v["id"] for v in variants]
    assert ids == ["esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw",
                   "tilt", "plo", "dealers-choice", "omaha-hilo", "courchevel", "stud-hilo",
                   "holdem", "stud", "razz", "stud5", "five-card-draw", "27-single-draw",
                   "27-triple-draw", "badugi", "horse"]
    assert variants[-1]["rotation"][0] == {"game": "holdem", "betting": "fixed-limit",
                                           "name": "Texas Hold'em"}
    tilt = variants[ids.index("tilt")]
    assert [b.get("tilted") for b in tilt["boards"]] == [5, 4, 3, 1]
    assert [c["name"] for c in tilt["categories"]] == ["A", "B", "C", "Tilt", "Hand"]
    assert variants[ids.index("bomb")]["hole_card_options"] == [4, 5, 6]


def test_variants_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "flop (A3 B3 C3 D1) redraw<=3" in out
    assert "allocation: A 2 / B 2 / Hand 3" in out


def test_play_serves_a_room_of_bots_until_interrupted(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "boardroom", "play", "--port", "0", "--data",
               str(tmp_path), "--no-browser", "--bots", "3", "--bot-think", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as process:
        try:
            output = Output(process)
            text = output.first(4)
            # --port 0: the server binds any free port and its links name it.
            match = re.search(r"Room link: http://127\.0\.0\.1:(\d+)/\?room=(\w+)", text)
            assert match, text
            port, room = int(match.group(1)), match.group(2)
            assert port != 0
            assert re.search(rf"Host link .*: http://127\.0\.0\.1:{port}/\?room={room}#host=\S+",
                             text), text
            first = _table(port, room)
            names = [seat["name"] for seat in first["seats"] if not seat["empty"]]
            assert names == ["Tight Bot 1", "Loose Bot 1", "Tight Bot 2"]
            assert first["settings"]["game"] == "esg"
            # The first hand is dealt as soon as the bots are seated, before the links are
            # printed: no pause between hands before the first one (issue 15).
            assert first["hand_no"] >= 1, first
            deadline = time.monotonic() + 60
            started = first["hand_no"]
            while _table(port, room)["hand_no"] < max(2, started + 1):  # hand after hand
                assert time.monotonic() < deadline, _table(port, room)
                time.sleep(0.2)
            # No chip made: the stacks (the pot aside) never pass what was bought in, counting
            # the rebuys busted bots take by themselves, and the ledger's nets add up to 0.
            table = _table(port, room)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/{room}/ledger.csv",
                                        timeout=10) as response:
                ledger = list(csv.DictReader(io.StringIO(response.read().decode())))
            bought = sum(int(row["buy_ins"]) + int(row["adjustments"]) for row in ledger)
            assert bought >= 600
            assert sum(seat["stack"] for seat in table["seats"] if not seat["empty"]) <= bought
            assert sum(int(row["net"]) for row in ledger) == 0
        finally:
            process.send_signal(signal.SIGINT)  # Ctrl-C
            stopped(process)
        out = output.all()
        assert process.returncode == 0, out
        assert "Traceback" not in out
    hands = sqlite3.connect(tmp_path / "boardroom.db")
    try:
        (count,) = hands.execute("select count(*) from hands").fetchone()
    finally:
        hands.close()
    assert count >= 1  # at least the first hand finished and was stored


def _table(port: int, room: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/{room}", timeout=10) as r:
        table: dict[str, Any] = json.load(r)["table"]
        return table


def test_play_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "esg", "--bots", "6", "--no-browser"]) == 2
    assert "ESG cannot seat you and 6 bots" in capsys.readouterr().err
    assert main(["play", "--game", "nope", "--no-browser"]) == 2
    assert "unknown variant 'nope'" in capsys.readouterr().err
    assert main(["play", "--bots", "-1", "--no-browser"]) == 2
    assert "--bots must be 0 to 9" in capsys.readouterr().err


def test_play_opens_no_browser_without_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda link: opened.append(link) or True)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert open_browser("http://127.0.0.1:1/?room=x") is False
    monkeypatch.setenv("DISPLAY", ":0")
    assert open_browser("http://127.0.0.1:1/?room=x") is True
    assert opened == ["http://127.0.0.1:1/?room=x"]

    def broken(link: str) -> bool:
        raise RuntimeError("no runnable browser")

    monkeypatch.setattr("webbrowser.open", broken)
    assert open_browser("http://127.0.0.1:1/?room=x") is False


# -- start-up: each command loads only what it needs ---------------------------------------

HEAVY = ("numpy", "boardroom.bots", "boardroom.evaluation._tables", "boardroom.server",
         "boardroom.table", "boardroom.store")
PLO_FILE = Path(__file__).parent / "engine" / "golden" / "pot_limit_max.phh"


def _modules_after(args: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after ``boardroom ARGS`` (its output swallowed)."""
    code = ("import contextlib, io, json, sys\n"
            "from boardroom.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            f"        main({args!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            "sys.stderr.write(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    return set(json.loads(done.stderr))


def _loaded(modules: set[str], prefix: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for name in modules)


def test_help_loads_no_command() -> None:
    """``boardroom --help`` imports no command module, so neither numpy, the bots nor the
    evaluator tables (they cost most of a launch)."""
    modules = _modules_after(["--help"])
    assert [name for name in HEAVY if _loaded(modules, name)] == []
    assert not _loaded(modules, "boardroom.commands.sim")
    assert not _loaded(modules, "boardroom.engine")


def test_replaying_one_file_loads_the_engine_only() -> None:
    modules = _modules_after(["replay", str(PLO_FILE)])
    assert _loaded(modules, "boardroom.engine.history")
    gone = ("boardroom.bots", "boardroom.server", "boardroom.table", "boardroom.store",
            "boardroom.bench", "fastapi", "sqlalchemy", "socketio", "uvicorn", "matplotlib",
            "numpy", "boardroom.evaluation.batch")
    assert [name for name in gone if _loaded(modules, name)] == []


def test_replaying_an_allocator_hand_needs_no_numpy() -> None:
    """Checking an allocation and scoring it read the evaluator's mapped tables; numpy and the
    batch evaluator load only for a search (the bots, the Suggest button)."""
    allocator = Path(__file__).parent / "multiboard" / "golden"
    modules = _modules_after(["replay", str(allocator / "allocator-redraw__all_in_run_out.phh")])
    assert _loaded(modules, "boardroom.engine.allocation")
    assert not _loaded(modules, "numpy")


def test_bench_cli_loads_no_other_benchmark() -> None:
    modules = _modules_after(["bench", "cli", "--help"])
    assert _loaded(modules, "boardroom.bench.cli")
    others = ("boardroom.bench.eval", "boardroom.bench.bots", "boardroom.bench.engine",
              "boardroom.bench.server", "numpy")
    assert [name for name in others if _loaded(modules, name)] == []


def test_output_into_a_closed_pipe_ends_quietly() -> None:
    """``boardroom games | head -1``: the reader goes away, and no traceback follows."""
    done = subprocess.run(f"{sys.executable} -m boardroom games | head -c 10 >/dev/null",
                          shell=True, capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    assert "BrokenPipeError" not in done.stderr, done.stderr


def test_serve_refuses_a_bot_think_time_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--bot-think", "31", "--data", "unused"]) == 2
    assert "--bot-think must be 0 to 30 seconds" in capsys.readouterr().err


def test_serve_on_an_unreachable_database_says_so_in_one_line(tmp_path: Path) -> None:
    """Nothing listens on port 1: one clear line naming the database, exit 2, no
    traceback (it was uvicorn's lifespan traceback, exit 3)."""
    done = subprocess.run(
        [sys.executable, "-m", "boardroom", "serve", "--port", "0", "--data", str(tmp_path),
         "--database", "postgresql://nobody@127.0.0.1:1/none"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("boardroom serve: error: cannot open the database: "), line
