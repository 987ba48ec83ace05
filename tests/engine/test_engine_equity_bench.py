"""``boardroom bench equity`` runs end to end on one game: a row per all-in street and player
count, and the comparison with PokerKit (no figure of time is checked: that is the bench's job)."""

from __future__ import annotations

import pytest

from boardroom.cli import main


def test_bench_equity_times_every_street_beside_pokerkit(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["bench", "equity", "--games", "holdem", "--repeat", "1"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("holdem ")
            and line.split()[1].isdigit()]
    assert [(row[1], row[2]) for row in rows] == [
        ("2", "preflop"), ("2", "flop"), ("2", "turn"),
        ("10", "preflop"), ("10", "flop"), ("10", "turn")]
    assert all(row[-1] in ("meets", "MISSES") for row in rows)
    assert "flop" in out.split("PokerKit's calculate_equities")[1]


def test_bench_equity_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "equity", "--games", "nope"]) == 2
    assert "no such game: nope" in capsys.readouterr().err
