"""``boardroom replay PATH...``: several files and folders (recursively), one JSON line per hand,
each refused file reported without stopping the others, exit code 2 when any was refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from boardroom.cli import main

TESTS = Path(__file__).parents[1]
PLO = TESTS / "engine" / "golden" / "pot_limit_max.phh"
ESG = TESTS / "multiboard" / "golden" / "esg__catch_up.phh"
STUD = TESTS / "engine" / "golden" / "stud_hilo.phh"


def test_files_and_folders_print_one_json_line_per_hand(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    nested = tmp_path / "hands" / "esg"
    nested.mkdir(parents=True)
    shutil.copy(PLO, tmp_path / "hands" / "a.phh")
    shutil.copy(ESG, nested / "b.phh")
    (tmp_path / "hands" / "notes.txt").write_text("not a history")
    assert main(["replay", str(tmp_path / "hands"), str(STUD), "--json"]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["file"] for line in lines] == [str(tmp_path / "hands" / "a.phh"),
                                                str(nested / "b.phh"), str(STUD)]
    assert [line["variant"] for line in lines] == ["plo", "esg", "stud-hilo"]
    assert lines[0]["final_stacks"] == [199, 198, 227, 176]
    assert captured.err == "boardroom replay: 3 of 3 histories replayed, 0 refused\n"


def test_a_refused_file_does_not_stop_the_others(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(PLO.read_text().replace('"d db Kh"', '"d db Kd"'))
    missing = tmp_path / "missing.phh"
    assert main(["replay", str(bad), str(missing), str(PLO), "--json"]) == 2
    captured = capsys.readouterr()
    assert [json.loads(line)["file"] for line in captured.out.splitlines()] == [str(PLO)]
    assert captured.err.splitlines() == [
        f"boardroom replay: error: {bad}: line 22: action 1 ('d dh p1 AcAdKcKd'): Kd is dealt "
        f"to player \"p1\" (seat 1) and to board A at line 34, action 13",
        f"boardroom replay: error: {missing}: cannot read it: No such file or directory",
        "boardroom replay: 1 of 3 histories replayed, 2 refused",
    ]


def test_a_folder_without_histories_is_an_error(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"boardroom replay: error: {tmp_path}: no .phh file in "
                                       f"this folder\n")


def test_one_file_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(PLO)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "PLO: 4 players, button p4"
    assert "main pot 51: p3 51" in captured.out
    assert captured.err == ""


def test_a_hand_run_three_times_prints_every_runs_boards_and_share(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_history_runs import _run_hand

    from boardroom.cards import format_cards
    from boardroom.engine.history import dumps

    hand = _run_hand("esg", 3)
    path = tmp_path / "esg-three-runs.phh"
    path.write_text(dumps(hand), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    for run in hand.runs:
        for name, cards in run.boards:
            assert f"  run {run.number} board {name}: {format_cards(cards)}" in out
        for index, result in enumerate(run.results):
            kind = "main pot" if index == 0 else f"side pot {index}"
            winners = ", ".join(f"p{hand.order.index(s) + 1} {c}"
                                for s, c in result.shares.items())
            assert f"  run {run.number}: {kind} {result.pot.amount}: {winners}" in out
    assert main(["replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [run["run"] for run in summary["runs"]] == [1, 2, 3]
    assert summary["runs"][1]["boards"] == {name: format_cards(cards)
                                            for name, cards in hand.runs[1].boards}
    assert [pot["run"] for pot in summary["pots"]] == [
        run.number for run in hand.runs for _ in run.results]
