"""The command line: help on every command, the variants listing, and play's demo hand."""

from __future__ import annotations

import json

import pytest

from boardroom.cli import COMMANDS, main


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: boardroom" in capsys.readouterr().out


def test_variants_json_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "--json"]) == 0
    variants = json.loads(capsys.readouterr().out)["variants"]
    ids = [v["id"] for v in variants]
    assert ids == ["esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw",
                   "tilt", "plo", "dealers-choice", "omaha-hilo", "courchevel", "stud-hilo"]
    tilt = variants[ids.index("tilt")]
    assert [b.get("tilted") for b in tilt["boards"]] == [5, 4, 3, 1]
    assert [c["name"] for c in tilt["categories"]] == ["A", "B", "C", "Tilt", "Hand"]
    assert variants[ids.index("bomb")]["hole_card_options"] == [4, 5, 6]


def test_variants_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "flop (A3 B3 C3 D1) redraw<=3" in out
    assert "allocation: A 2 / B 2 / Hand 3" in out


@pytest.mark.parametrize("variant", ["esg", "allocator", "tilt", "stud-hilo", "xmas"])
def test_play_deals_and_settles_a_hand(capsys: pytest.CaptureFixture[str], variant: str) -> None:
    assert main(["play", "--variant", variant, "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Points:" in out
    assert "Pot:" in out


def test_play_rejects_too_many_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", "esg", "--players", "7"]) == 2
    assert "ESG deals to 2 to 6 players" in capsys.readouterr().err
