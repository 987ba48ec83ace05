"""Multi-board golden hands (``golden/``, written by ``mb_golden_hands.py``), replayed by
``boardroom replay``: at least six per variant, each kept for a rule of RULES.md section 3 that
``mb_scenarios`` checks again on the replayed hand; RULES.md s.7's redraw example exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from mb_scenarios import MULTIBOARD, scenarios, variant_of

from boardroom.cards import format_cards
from boardroom.cli import main
from boardroom.engine import events as ev
from boardroom.engine.history import replay_text
from boardroom.rules import find_variant

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.phh"))


def replay_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    assert main(["replay", str(path), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert sum(result["final_stacks"]) == sum(result["starting_stacks"])
    return result


def broken(capsys: pytest.CaptureFixture[str], tmp_path: Path, path: Path, old: str,
           new: str) -> str:
    text = path.read_text()
    assert old in text
    bad = tmp_path / "broken.phh"
    bad.write_text(text.replace(old, new, 1))
    assert main(["replay", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_every_variant_has_at_least_six_golden_hands() -> None:
    counts = Counter(path.name.split("__")[0] for path in FILES)
    assert set(counts) == set(MULTIBOARD)
    assert min(counts.values()) >= 6
    for variant_id in MULTIBOARD:
        for scenario in scenarios(find_variant(variant_id)):
            assert (GOLDEN / f"{variant_id}__{scenario.name}.phh").exists(), scenario.name


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_hand_replays_and_shows_its_rule(capsys: pytest.CaptureFixture[str],
                                                path: Path) -> None:
    result = replay_json(capsys, path)
    variant_id, name = path.stem.split("__")
    hand = replay_text(path.read_text())
    assert hand.variant.id == variant_id
    assert result["final_stacks"] == hand.stacks
    categories = hand.variant.category_names
    for pot, settled in zip(result["pots"], hand.results, strict=True):
        # Points of a contested pot sum to its number of non-void categories (RULES.md s.3).
        points = sum((Fraction(p) for p in pot["points"].values()), Fraction(0))
        if settled.categories:
            assert list(pot["categories"]) == list(categories)
            assert points == sum(1 for winners in pot["categories"].values() if winners)
            top = max(Fraction(p) for p in pot["points"].values())
            assert {int(s) for s, p in pot["points"].items() if Fraction(p) == top} == set(
                pot["winners"])
        else:
            assert points == 0
            assert pot["winners"] == list(pot["eligible"])
    matching = [s for s in scenarios(find_variant(variant_id)) if s.name == name]
    if matching:
        assert variant_of(variant_id, matching[0]) == hand.variant
        assert matching[0].predicate(hand), name


def test_rules_example_redraws_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md s.7: stub 6; two preflop folds: pool 18; flop 3 each (pool 6); turn 1 each
    (pool 2); a turn fold returns 10 cards (pool 12); river 4 each (pool 0): 14 cards each."""
    path = GOLDEN / "esg__rules_example_redraws.phh"
    replay_json(capsys, path)
    hand = replay_text(path.read_text())
    pools = [e.size for e in hand.events if isinstance(e, ev.PoolChanged)]
    assert pools == [12, 18, 6, 2, 12, 0]
    assert hand.redraws == [8, 4, 0, 0, 8, 8]  # p2 folded on the turn; p1, p5, p6 survive
    assert [len(hand.hole[s]) for s in hand.live_seats] == [14, 14, 14]
    assert "_redraws = [\n    8,\n    4,\n    0,\n    0,\n    8,\n    8,\n]" in path.read_text()


def test_tampered_extensions_are_refused(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    path = GOLDEN / "esg__rules_example_redraws.phh"
    error = broken(capsys, tmp_path, path, "_redraws = [\n    8,", "_redraws = [\n    9,")
    assert "field '_redraws'" in error
    error = broken(capsys, tmp_path, path, '"d dh p1 Qs9d3c # redraw",\n', "")
    assert 'player "p1" (seat 1) shows' in error
    assert "but was dealt" in error
    split = GOLDEN / "esg__split_point.phh"
    assert '{ p1 = "3/2", p2 = "0", p3 = "1/2", p4 = "1" }' in split.read_text()
    error = broken(capsys, tmp_path, split, 'p1 = "3/2"', 'p1 = "7/2"')
    assert "field '_points'" in error


def test_allocation_commits_replay_and_a_bad_commit_names_its_action(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = GOLDEN / "allocator-redraw__allocation.phh"
    hand = replay_text(path.read_text())
    commits = [line for line in path.read_text().splitlines() if "_allocate" in line]
    assert len(commits) == len(hand.allocations) >= 2
    assert any("timeout" in line for line in commits)
    first = commits[0].strip().strip('",')
    label, _, parts = first.split(" ", 2)
    a_cards = parts.split()[0].removeprefix("A:")
    seat = int(label[1:]) - 1
    foreign = next(c for c in range(52) if c not in hand.hole[hand.order[seat]])
    error = broken(capsys, tmp_path, path, f"A:{a_cards}",
                   f"A:{a_cards[:2]}{format_cards([foreign])}")
    assert "_allocate" in error
    assert "allocates to A a card it does not hold" in error
    assert format_cards([foreign]) not in error.split("):", 1)[1]
