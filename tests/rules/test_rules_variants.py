"""The variant registry against the rule book's table (RULES.md sections 3, 4 and 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from boardroom.evaluation import Ranking
from boardroom.rules import (
    DEALERS_CHOICE,
    VARIANTS,
    BettingStructure,
    Board,
    BringIn,
    Category,
    Construction,
    ForcedBets,
    Reveal,
    SpecError,
    Split,
    Street,
    find_game,
    find_variant,
)

# id: (boards, hole cards, forced bets, redraw caps, categories, max players by hole count)
RULE_BOOK = {
    "esg": ("A5 B5", 6, ForcedBets.BLINDS, [3, 6, 9], "A,B,Hand", {6: 6}),
    "esg-low": ("A5 B5", 6, ForcedBets.BLINDS, [3, 6, 9], "A,B,Hand", {6: 6}),
    "xmas": ("A5 B5 X1", 6, ForcedBets.ANTES, [0, 5, 10], "A,B,Tree", {6: 6}),
    "balance": ("A5 B5 C5", 5, ForcedBets.BLINDS, [3, 6, 9], "A,B,C,Priv Hi,Priv Lo", {5: 7}),
    "bomb": ("A5 B5", 4, ForcedBets.ANTES, [], "A,B", {4: 10, 5: 8, 6: 7}),
    "allocator": ("A5 B5", 6, ForcedBets.ANTES, [], "A,B,Hand", {6: 7}),
    "allocator-redraw": ("A5 B5", 6, ForcedBets.ANTES, [0, 3, 6], "A,B,Hand", {6: 6}),
    "tilt": ("A5 B5 C5 D1", 5, ForcedBets.BLINDS, [3, 6, 9], "A,B,C,Tilt,Hand", {5: 6}),
    "plo": ("A5", 4, ForcedBets.BLINDS, [], "High", {4: 10, 5: 8, 6: 7}),
    "omaha-hilo": ("A5", 4, ForcedBets.BLINDS, [], "High,Low", {4: 10}),
    "courchevel": ("A5", 5, ForcedBets.BLINDS, [], "High", {5: 8}),
    "stud-hilo": ("", 7, ForcedBets.BRING_IN, [], "High,Low", {7: 7}),
    "holdem": ("A5", 2, ForcedBets.BLINDS, [], "High", {2: 10}),
    "stud": ("", 7, ForcedBets.BRING_IN, [], "High", {7: 7}),
    "razz": ("", 7, ForcedBets.BRING_IN, [], "Low", {7: 7}),
    "stud5": ("", 5, ForcedBets.BRING_IN, [], "High", {5: 10}),
    "five-card-draw": ("", 5, ForcedBets.BLINDS, [], "High", {5: 6}),
    "27-single-draw": ("", 5, ForcedBets.BLINDS, [], "Low", {5: 6}),
    "27-triple-draw": ("", 5, ForcedBets.BLINDS, [], "Low", {5: 6}),
    "badugi": ("", 4, ForcedBets.BLINDS, [], "Badugi", {4: 6}),
}


@pytest.mark.parametrize("variant_id", sorted(RULE_BOOK))
def test_variant_matches_the_rule_book(variant_id: str) -> None:
    boards, hole, forced, caps, categories, max_players = RULE_BOOK[variant_id]
    variant = find_variant(variant_id)
    assert " ".join(f"{b.name}{b.size}" for b in variant.boards) == boards
    assert variant.hole_cards == hole
    assert variant.forced_bets is forced
    assert [s.redraw_cap for s in variant.streets if s.redraw_cap is not None] == caps
    assert list(variant.category_names) == categories.split(",")
    assert dict(variant.max_players_by_hole) == max_players


def test_every_variant_is_registered_once() -> None:
    assert [v.id for v in VARIANTS] == list(RULE_BOOK)


def test_tilted_cards_and_reveal_schedule() -> None:
    tilt = find_variant("tilt")
    assert [(b.name, b.tilted) for b in tilt.boards] == [("A", 5), ("B", 4), ("C", 3), ("D", 1)]
    flop = tilt.streets[1]
    assert [(r.board, r.count) for r in flop.reveals] == [("A", 3), ("B", 3), ("C", 3), ("D", 1)]


def test_bomb_street_shows_both_flops_and_the_christmas_card() -> None:
    xmas = find_variant("xmas")
    bomb = xmas.streets[0]
    assert bomb.name == "bomb"
    assert [(r.board, r.count) for r in bomb.reveals] == [("A", 3), ("B", 3), ("X", 1)]
    assert [c.construction for c in xmas.categories][-1] is Construction.TREE


def test_allocation_sizes() -> None:
    assert find_variant("allocator").allocation_sizes == {"A": 2, "B": 2, "Hand": 2}
    assert find_variant("allocator-redraw").allocation_sizes == {"A": 2, "B": 2, "Hand": 3}
    assert find_variant("esg").allocation_sizes == {}


def test_low_categories_use_the_right_ranking() -> None:
    assert find_variant("esg-low").categories[2].ranking is Ranking.ESG_LOW
    assert find_variant("balance").categories[4].ranking is Ranking.ESG_LOW
    assert find_variant("omaha-hilo").categories[1].ranking is Ranking.LOW8
    assert find_variant("stud-hilo").categories[1].ranking is Ranking.LOW8
    assert find_variant("omaha-hilo").split is Split.HI_LO


def test_aliases_and_case() -> None:
    assert find_variant("PLO").id == "plo"
    assert find_variant("omaha_hilo").id == "omaha-hilo"
    assert find_variant("Allocator Redraw").id == "allocator-redraw"
    assert find_game("dealers-choice") is DEALERS_CHOICE


def test_unknown_variant_lists_the_known_ones() -> None:
    with pytest.raises(SpecError, match=r"unknown variant 'hold-em' \(known: esg, esg-low"):
        find_variant("hold-em")
    with pytest.raises(SpecError, match="the button picks"):
        find_variant("dealers-choice")


def test_host_options() -> None:
    bomb6 = find_variant("bomb").with_options(hole_cards=6)
    assert (bomb6.hole_cards, bomb6.max_players) == (6, 7)
    with pytest.raises(SpecError, match="Bomb is dealt with 4, 5, 6 hole cards, not 7"):
        find_variant("bomb").with_options(hole_cards=7)
    fixed = find_variant("plo").with_options(betting="fixed-limit")
    assert fixed.betting is BettingStructure.FIXED_LIMIT
    assert fixed.raise_cap == 4
    with pytest.raises(SpecError, match="ESG is played pot-limit, not no-limit"):
        find_variant("esg").with_options(betting="no-limit")
    with pytest.raises(SpecError, match="unknown betting structure 'spread'"):
        find_variant("plo").with_options(betting="spread")
    stud = find_variant("stud-hilo")
    assert stud.bring_in is BringIn.HIGHEST
    assert stud.with_options(bring_in="lowest").bring_in is BringIn.LOWEST
    assert stud.with_options(betting="pot-limit").raise_cap == 4
    with pytest.raises(SpecError, match="PLO has no bring-in"):
        find_variant("plo").with_options(bring_in="lowest")
    with pytest.raises(SpecError, match="Razz brings in by highest-ace-low, not lowest"):
        find_variant("razz").with_options(bring_in="lowest")


def test_the_rest_of_the_card_room() -> None:
    holdem = find_variant("Texas Hold'em")
    assert holdem.betting is BettingStructure.NO_LIMIT
    assert set(holdem.betting_options) == set(BettingStructure)
    assert holdem.categories[0].construction is Construction.HOLDEM
    assert not holdem.has_allocation
    assert holdem.burns
    assert find_variant("stud").bring_in is BringIn.LOWEST
    assert find_variant("stud5").bring_in is BringIn.LOWEST
    razz = find_variant("razz")
    assert razz.categories[0].ranking is Ranking.A5_LOW
    assert razz.bring_in is BringIn.HIGHEST_ACE_LOW
    for game in ("stud", "razz", "stud5"):
        variant = find_variant(game)
        assert variant.betting is BettingStructure.FIXED_LIMIT
        assert variant.with_options(betting="pot-limit").betting is BettingStructure.POT_LIMIT
    assert [s.hole_down + s.hole_up for s in find_variant("stud5").streets] == [2, 1, 1, 1]


def test_dealers_choice_offers_only_variants_that_fit() -> None:
    assert "stud-hilo" in {v.id for v in DEALERS_CHOICE.choices(7)}
    eight = {v.id for v in DEALERS_CHOICE.choices(8)}
    assert eight == {"bomb", "plo", "omaha-hilo", "courchevel", "holdem", "stud5"}
    assert {v.id for v in DEALERS_CHOICE.choices(10)} == {"bomb", "plo", "omaha-hilo",
                                                         "holdem", "stud5"}


def test_spec_rejects_reveals_that_do_not_fill_the_board() -> None:
    esg = find_variant("esg")
    streets = (*esg.streets[:-1], replace(esg.streets[-1], reveals=(Reveal("A", 1),)))
    with pytest.raises(SpecError, match="board B has 5 cards but 4 are revealed"):
        replace(esg, streets=streets)


def test_spec_rejects_too_many_players_for_the_deck() -> None:
    with pytest.raises(SpecError, match="8 players with 6 cards need 58 cards"):
        replace(find_variant("esg"), max_players_by_hole={6: 8})


def test_spec_rejects_falling_redraw_caps() -> None:
    esg = find_variant("esg")
    streets = (*esg.streets[:-1], replace(esg.streets[-1], redraw_cap=5))
    with pytest.raises(SpecError, match="cumulative"):
        replace(esg, streets=streets)


def test_spec_rejects_a_tilted_card_off_its_board() -> None:
    with pytest.raises(SpecError, match="tilted position 6 is off the board"):
        Board("A", 5, tilted=6)


def test_spec_rejects_a_category_on_a_missing_board() -> None:
    with pytest.raises(SpecError, match="has no board 'C'"):
        replace(find_variant("esg"), categories=(
            Category("C", Construction.OMAHA, board="C"),))


def test_spec_rejects_hi_lo_without_high_and_low() -> None:
    with pytest.raises(SpecError, match="High and Low"):
        replace(find_variant("plo"), split=Split.HI_LO)


def test_spec_rejects_a_wrong_allocation_ranking() -> None:
    allocator = find_variant("allocator")
    bad = (*allocator.categories[:2],
           Category("Hand", Construction.ALLOCATED, Ranking.THREE_CARD, allocated=2))
    with pytest.raises(SpecError, match="2-card Hand needs a 2-card ranking"):
        replace(allocator, categories=bad)


def test_spec_rejects_stud_cards_in_a_board_game() -> None:
    plo = find_variant("plo")
    streets = (replace(plo.streets[0], hole_up=1), *plo.streets[1:])
    with pytest.raises(SpecError, match="only stud deals hole cards on streets"):
        replace(plo, streets=streets)


def test_spec_needs_a_betting_round() -> None:
    plo = find_variant("plo")
    with pytest.raises(SpecError, match="no street has a betting round"):
        replace(plo, streets=tuple(replace(s, betting=False) for s in plo.streets))
    assert isinstance(plo.streets[0], Street)


def test_allocator_redraw_always_has_seven_cards_to_allocate() -> None:
    # Six players x 6 cards + 10 board cards leave a stub of 6: one redraw each on the turn,
    # none on the river; fewer players get more.
    variant = find_variant("allocator-redraw")
    assert variant.guaranteed_redraws(6) == 1
    assert variant.guaranteed_redraws(2) == 6
    assert variant.hole_cards + variant.guaranteed_redraws(6) == 7
    with pytest.raises(SpecError, match="allocation needs 7 cards but 6 players with 6 cards "
                                        "may hold only 6"):
        replace(variant, streets=tuple(replace(s, redraw_cap=None) for s in variant.streets))


def test_worked_example_stub_math() -> None:
    # RULES.md s.7: ESG with 6 players leaves a stub of 6; with no folds each gets 1 on the flop.
    assert find_variant("esg").guaranteed_redraws(6) == 1
