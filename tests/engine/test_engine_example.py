"""The rules page's worked example hands: one finished, scored hand per variant, every hand shown,
chips conserved, the same on every run; and each category's rule in words."""

from __future__ import annotations

import pytest

from boardroom.engine.example import PLAYERS, example_hand, play_example
from boardroom.rules import VARIANTS, Variant
from boardroom.rules.describe import describe_variant


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_every_variant_has_a_scored_example_with_every_hand_shown(variant: Variant) -> None:
    example = example_hand(variant)
    view = example.view
    assert view.is_over
    assert view.viewer is None  # as a spectator sees it: only what the showdown made public
    assert sorted(shown.seat for shown in view.showdown) == list(range(len(PLAYERS)))
    assert all(shown.cards for shown in view.showdown)
    assert view.results
    assert [name for name, _ in view.results[0].categories] == [c.name for c in variant.categories]
    assert sum(seat.stack for seat in view.seats) == 200 * len(PLAYERS)
    assert sum(view.winnings.values()) == sum(r.amount for r in view.results)
    again = example_hand(variant)
    assert again.seed == example.seed
    assert again.view == view


def test_the_example_prefers_a_hand_where_the_winner_is_not_the_only_scorer() -> None:
    esg = next(v for v in VARIANTS if v.id == "esg")
    example = example_hand(esg)
    main = example.view.results[0]
    assert len(main.shares) == 1
    assert sum(1 for _, points in main.points if points) > 1
    # A seed that does not qualify (a three-way tie) exists among the ones tried.
    assert any(len(play_example(esg, seed).results[0].shares) > 1 for seed in range(12))


def test_each_category_says_how_it_is_made_and_ranked() -> None:
    hows = {(v.id, c["name"]): c["how"]
            for v in VARIANTS for c in describe_variant(v)["categories"]}
    assert hows[("esg", "A")].startswith("exactly 2 of your hole cards and exactly 3 cards of "
                                         "board A; the highest")
    assert "7-5-4-3-2" in hows[("esg-low", "Hand")]
    assert "(C3)" in hows[("tilt", "C")]
    assert "A5, B4, C3, D1" in hows[("tilt", "Tilt")]
    assert hows[("allocator-redraw", "Hand")].startswith("exactly the 3 cards you allocate")
    assert "Christmas card" in hows[("xmas", "Tree")]
    assert "5-4-3-2-A" in hows[("stud-hilo", "Low")]
    assert describe_variant(VARIANTS[0])["split_rule"].startswith("Each category is worth")
