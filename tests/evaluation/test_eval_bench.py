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


def test_bench_engine_policy_draws_each_legal_option_alike() -> None:
    """The random policy both engines' drivers share: each legal option as likely (check or
    call twice), never an illegal one; a draw throws 0 to N cards, each count as likely."""
    import random
    from collections import Counter

    from boardroom.bench import engine as bench_engine

    rng = random.Random(3)
    draws = 40_000
    for can_fold in (False, True):
        for low in (None, 4):
            seen = Counter(bench_engine._choose(rng, can_fold, low, low) for _ in range(draws))
            options = [1, 1] + [0] * can_fold + [2, 3] * (low is not None)
            assert set(seen) == set(options)
            for option in set(options):
                expected = draws * options.count(option) / len(options)
                assert abs(seen[option] - expected) < 0.05 * expected
    counts = Counter(bench_engine._how_many(rng, 3) for _ in range(draws))
    assert set(counts) == {0, 1, 2, 3}
    assert all(abs(counts[k] - draws / 4) < 0.05 * draws / 4 for k in range(4))


def test_bench_engine_hands_are_alike_in_length_on_both_sides() -> None:
    """Under the shared policy both engines play hands of the same shape (the like-for-like
    comparison): betting decisions and draws per hand within a fifth of each other."""
    from collections import Counter

    pytest.importorskip("pokerkit")
    from boardroom.bench import engine as bench_engine

    for game, betting, peer in (("holdem", "fixed-limit", "FixedLimitTexasHoldem"),
                                ("27-triple-draw", "fixed-limit",
                                 "FixedLimitDeuceToSevenLowballTripleDraw")):
        ours: Counter[str] = Counter()
        theirs: Counter[str] = Counter()
        bench_engine.play_ours(60, 1, game, betting, work=ours)
        bench_engine.play_pokerkit(60, 1, game=peer, work=theirs)
        for what in ("decisions", "draws"):
            assert abs(ours[what] - theirs[what]) <= 0.2 * max(ours[what], theirs[what], 1)
