"""``boardroom bench eval`` runs end to end on a tiny size and reports every target."""

from __future__ import annotations

import argparse

import pytest

from boardroom.bench import eval as bench_eval


def test_bench_eval_prints_every_workload_and_target(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    bench_eval.configure(parser)
    args = parser.parse_args(["--hands", "3000", "--pokerkit-hands", "20", "--repeat", "1"])
    assert bench_eval.run(args) == 0
    out = capsys.readouterr().out
    for workload in ("5-card high", "7-card high", "Omaha 4+5 high", "Omaha 6+5 high",
                     "ESG low 5-card", "8-or-better 5-card", "Omaha 4+5 8-or-better",
                     "2-7 lowball 5-card", "Razz 7-card", "Badugi 4-card"):
        assert f"| {workload} | ours batch |" in out
    for peer in ("phevaluator", "phevaluator C", "eval7", "PokerKit (first 20 hands)"):
        assert f"| {peer} |" in out
    assert out.count("\ntarget ") == 5


def test_bench_engine_times_every_variants_river_views_first_and_again() -> None:
    from boardroom.bench import engine as bench_engine

    table = bench_engine.view_table(seed=1, repeats=1).splitlines()
    assert table[1].split() == ["variant", "seats", "first", "ms", "again", "ms"]
    rows = {line.split()[0]: line.split()[1:] for line in table[2:]}
    assert set(rows) == set(bench_engine.VIEW_VARIANTS)
    assert rows["balance"][0] == "7"
