"""The bots' batch category strengths agree with the rules' own scorer, hand by hand."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardroom.engine.strengths import category_strengths, private_high
from boardroom.evaluation import scalar
from boardroom.rules import VARIANTS, Construction
from boardroom.rules.scoring import category_hand


@pytest.mark.parametrize("size", [5, 7, 8, 11, 15, 20])
def test_private_high_matches_the_scalar_evaluator(size: int) -> None:
    rng = np.random.default_rng(size)
    rows = np.array([rng.permutation(52)[:size] for _ in range(1500)], dtype=np.intp)
    expected = [scalar.high_strength(row.tolist()) for row in rows]
    assert private_high(rows).tolist() == expected


def test_private_high_finds_quads_full_houses_and_straight_flushes() -> None:
    # AAAA KKK 2: quads with a king kicker beat the full house.
    quads = [51, 50, 49, 48, 47, 46, 45, 0]
    # 9-8-7-6-5 of hearts among other cards: a straight flush.
    straight_flush = [30, 26, 22, 18, 14, 51, 47, 0, 1]
    rows = np.array([[*quads, 4], straight_flush], dtype=np.intp)
    assert private_high(rows).tolist() == [scalar.high_strength(r) for r in rows.tolist()]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_every_category_matches_category_hand(variant: object) -> None:
    from boardroom.rules import Variant

    assert isinstance(variant, Variant)
    deal = random.Random(variant.id)
    extra = 0 if variant.is_stud else (9 if variant.has_redraws else 0)
    size = variant.hole_cards + extra
    for category in variant.categories:
        holes, boards_rows, expected = [], {b.name: [] for b in variant.boards}, []
        for _ in range(60):
            cards = deal.sample(range(52), size + variant.board_card_count)
            hole = cards[:size]
            boards, start = {}, size
            for board in variant.boards:
                boards[board.name] = cards[start:start + board.size]
                start += board.size
            value = category_hand(variant, category, hole, boards)
            if category.construction is Construction.TREE and size > 10:
                continue  # documented estimate beyond ten cards
            holes.append(hole)
            for name, board_cards in boards.items():
                boards_rows[name].append(board_cards)
            expected.append(0 if value is None else value.strength)
        if not holes:
            continue
        arrays = {name: np.array(rows, dtype=np.intp) for name, rows in boards_rows.items()}
        got = category_strengths(variant, category, np.array(holes, dtype=np.intp), arrays)
        assert got.tolist() == expected, category.name


def test_the_tree_estimate_never_undervalues_a_big_hand() -> None:
    from boardroom.rules import find_variant

    xmas = find_variant("xmas")
    tree = xmas.categories[-1]
    deal = random.Random(4)
    for _ in range(50):
        cards = deal.sample(range(52), 17)
        exact = category_hand(xmas, tree, cards[:16], {"X": cards[16:], "A": [], "B": []})
        assert exact is not None
        got = category_strengths(xmas, tree, np.array([cards[:16]]),
                                 {"X": np.array([cards[16:]])})
        assert got[0] >= exact.strength
