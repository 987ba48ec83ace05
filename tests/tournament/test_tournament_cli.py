"""``boardroom tournament sim`` and ``boardroom bench tournament``: whole bot tournaments from
the command line, and bad input refused with exit 2 and a clear message."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from boardroom.cli import main

FAST = ["--players", "random,station"]


def test_a_sit_and_go_of_bots_prints_places_and_writes_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["tournament", "sim", "--entrants", "9", "--game", "esg", "--seed", "4",
                 *FAST, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "turbo tournament of esg: 9 entrants" in text
    assert "prize pool 900 units, 3 places paid" in text
    with (out / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 9
    assert sum(int(row["prize"]) for row in rows) == 900
    assert rows[0]["place"] == "1"
    with (out / "levels.csv").open() as handle:
        levels = list(csv.DictReader(handle))
    assert sum(int(row["eliminations"]) for row in levels) == 8  # all but the winner
    assert (out / "players_left.png").stat().st_size > 0
    assert (out / "eliminations.png").stat().st_size > 0


def test_a_rotation_from_a_toml_structure(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "home.toml"
    path.write_text('name = "home"\nstarting_stack = 300\n'
                    '[[levels]]\nsmall_blind = 5\nbig_blind = 10\nhands = 4\n'
                    '[[levels]]\nsmall_blind = 10\nbig_blind = 20\nhands = 4\n'
                    '[[levels]]\nsmall_blind = 20\nbig_blind = 40\nhands = 4\n')
    assert main(["tournament", "sim", "--entrants", "14", "--rotation", "plo,stud-hilo",
                 "--structure", str(path), *FAST]) == 0
    assert "home tournament of plo, stud-hilo: 14 entrants" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "omaha-hi-hi"], "no such game 'omaha-hi-hi'"),
    (["--rotation", "plo"], "--rotation takes two or more"),
    (["--structure", "hyper"], "no structure preset 'hyper'"),
    (["--entrants", "1"], "--entrants must be at least 2"),
    (["--players", "shark"], "--players takes bot styles"),
    (["--game", "esg", "--table-size", "9"], "tables seat 2 to 6 players"),
])
def test_bad_input_is_refused_with_a_clear_error(args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "sim", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_structure_file_with_a_zero_length_level(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nstarting_stack = 300\n'
                    '[[levels]]\nsmall_blind = 5\nbig_blind = 10\nminutes = 0\n')
    assert main(["tournament", "sim", "--structure", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml: level 1 has zero length" in err
    assert "Traceback" not in err


def test_the_bench_compares_the_tournament_with_a_cash_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "tournament", "--entrants", "12", "--cash-hands", "20",
                 "--samples", "2", "--part", "in-process"]) == 0
    text = capsys.readouterr().out
    assert "12-entrant PLO tournament" in text
    assert "director:" in text
    assert "overhead" in text


def test_the_bench_plays_a_live_tournament_through_a_server(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "tournament", "--part", "live", "--live-entrants", "4",
                 "--live-people", "2"]) == 0
    text = capsys.readouterr().out
    assert "live: a 4-entrant ESG tournament through a server over loopback" in text
    assert "2 scripted people" in text
    rows = text.splitlines()
    figures = rows[rows.index(next(r for r in rows if r.lstrip().startswith("hands"))) + 1]
    hands, *_, finished = figures.split()
    assert int(hands) > 0
    assert finished == "yes"
    assert "a person's action -> their update: p50" in text
    assert " 0 errors" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--live-entrants", "1"], "--live-entrants must be 2 to 1000"),
    (["--live-people", "7", "--live-entrants", "6"], "--live-people must be 0 to 50"),
    (["--live-bots", "shark"], "--live-bots: styles among"),
    (["--live-game", "nope"], "--live-game: unknown variant 'nope'"),
])
def test_the_benchs_bad_live_options_are_refused(args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "tournament", "--part", "live", *args]) == 2
    assert message in capsys.readouterr().err
