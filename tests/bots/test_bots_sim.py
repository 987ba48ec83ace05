"""``boardroom sim`` and ``boardroom bench bots``: small runs, the report, CSV and plots."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from boardroom.bots import make_bot
from boardroom.bots.simulate import STARTING_STACK, mean_ci, simulate
from boardroom.cli import main
from boardroom.rules import find_variant


def test_sim_reports_and_writes_csv_and_plots(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["sim", "--game", "esg", "--hands", "12", "--players",
                 "tight,random,station", "--seed", "3", "--samples", "30",
                 "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "12/12 hands" in captured.err  # the progress bar
    assert "chips/100" in captured.out
    assert "redraws cut short by the pool" in captured.out
    for name in ("A", "B", "Hand"):
        assert f"\n{name} " in captured.out
    with (out / "players.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["style"] for row in rows] == ["tight", "random", "station"]
    assert {"points_A", "points_B", "points_Hand", "ci_low"} <= set(rows[0])
    with (out / "hands.csv").open() as handle:
        hands = list(csv.DictReader(handle))
    assert len(hands) == 12
    for row in hands:  # chips move between players, none is created or lost
        assert sum(int(row[name]) for name in ("tight-1", "random-2", "station-3")) == 0
    for png in ("chips.png", "winrate.png", "categories.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"


def test_sim_is_deterministic_given_a_seed() -> None:
    def run() -> list[list[int]]:
        bots = [(s, make_bot(s, i, samples=30)) for i, s in enumerate(["loose", "random"])]
        return [p.net for p in simulate(find_variant("balance"), bots, 6, 4).players]

    assert run() == run()


def test_busted_bots_rebuy_and_the_button_moves() -> None:
    bots = [(s, make_bot(s, i, samples=20)) for i, s in enumerate(["random", "random"])]
    result = simulate(find_variant("plo"), bots, 40, 2)
    assert result.hands == 40
    assert sum(p.rebuys for p in result.players) >= 1
    for stats in result.players:
        assert all(-STARTING_STACK * 2 <= x <= STARTING_STACK * 4 for x in stats.net)


def test_sim_counts_void_lows_and_splits() -> None:
    bots = [(s, make_bot(s, i, samples=20)) for i, s in enumerate(["station", "station"])]
    result = simulate(find_variant("omaha-hilo"), bots, 30, 1)
    assert result.showdowns == 30  # two stations never fold
    assert result.void.get("Low", 0) > 0  # some boards have no low
    assert result.void.get("High", 0) == 0


@pytest.mark.parametrize("argv", [
    ["sim", "--game", "nope"],
    ["sim", "--players", "tight,maniac"],
    ["sim", "--players", "tight"],
    ["sim", "--hands", "0"],
])
def test_sim_rejects_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "boardroom sim: error:" in capsys.readouterr().err


def test_mean_ci() -> None:
    assert mean_ci([]) == (0.0, 0.0, 0.0)
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)
    mean, low, high = mean_ci([1.0, 3.0] * 50)
    assert mean == 2.0
    assert low < 2.0 < high
    assert high - 2.0 == pytest.approx(1.96 * (100 / 99) ** 0.5 / 10)


def test_bench_bots_prints_decision_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--games", "plo,esg", "--timing-hands", "2",
                 "--samples", "20"]) == 0
    out = capsys.readouterr().out
    assert "median ms" in out
    assert "p99 ms" in out
    assert "\nplo " in out
    assert "\nesg " in out


def test_bench_bots_rates_the_card_room_by_default() -> None:
    """The win margins cover razz, 5 card stud and the draw games as they do the multi-board
    variants: by default, and each as a row of its own when asked."""
    from boardroom.bench.bots import RATED

    for game in ("holdem", "stud", "razz", "stud5", "five-card-draw", "27-single-draw",
                 "27-triple-draw", "badugi", "esg"):
        assert game in RATED


def test_bench_bots_prints_a_margin_row_per_draw_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["bench", "bots", "--games", "razz,badugi", "--timing-hands", "0", "--hands", "2",
          "--samples", "10", "--jobs", "1"])
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines()
            if line.startswith(("razz ", "badugi "))]
    assert rows == [["razz", "tight"], ["razz", "loose"], ["badugi", "tight"],
                    ["badugi", "loose"]]


def test_bench_bots_rates_only_the_styles_asked(capsys: pytest.CaptureFixture[str]) -> None:
    main(["bench", "bots", "--games", "badugi", "--timing-hands", "0", "--hands", "2",
          "--samples", "10", "--jobs", "1", "--styles", "tight"])
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines()
            if line.startswith("badugi ")]
    assert rows == [["badugi", "tight"]]


def test_bench_bots_names_an_unknown_style(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--timing-hands", "0", "--styles", "tight,wild"]) != 0
    assert "--styles takes tight and/or loose, not 'tight,wild'" in capsys.readouterr().err
