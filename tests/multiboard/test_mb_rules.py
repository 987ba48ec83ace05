"""RULES.md section 3 rule by rule: forced bets and streets, reveal schedules, redraws, points,
pills and NUTS, views, Dealer's Choice."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardroom.cards import parse_cards
from boardroom.engine import Deck, Hand, Stakes, StakesError
from boardroom.engine import events as ev
from boardroom.engine.pills import NOT_YET, pills_for
from boardroom.engine.redraws import redraw_share, schedule, starting_pool
from boardroom.engine.showdown import Pot, settle_pots
from boardroom.engine.view import events_for, view_for
from boardroom.evaluation import HandValue, Ranking
from boardroom.rules import DEALERS_CHOICE, VARIANTS, ForcedBets, Split, Variant, find_variant

BLINDS = Stakes(small_blind=1, big_blind=2)
ANTES = Stakes(ante=1, big_blind=2)
MULTI = [v for v in VARIANTS if v.split is Split.POINTS and len(v.categories) > 1]


def new_hand(variant_id: str, players: int = 3, seed: int = 1, button: int = 0,
             stacks: int = 100) -> Hand:
    variant = find_variant(variant_id)
    stakes = BLINDS if variant.forced_bets is ForcedBets.BLINDS else ANTES
    return Hand(variant, stakes, [stacks] * players, button, cards=Deck(rng=random.Random(seed)),
                manual_allocation=True)


def passive(hand: Hand) -> None:
    hand.check() if hand.can_check() else hand.call()


def to_street(hand: Hand, name: str) -> None:
    while hand.street is not None and hand.street.name != name:
        passive(hand)


# -- forced bets and streets ----------------------------------------------------------------


@pytest.mark.parametrize("variant_id", ["xmas", "bomb", "allocator", "allocator-redraw"])
def test_ante_games_open_on_the_bomb_street_left_of_the_button(variant_id: str) -> None:
    hand = new_hand(variant_id, players=4, button=2)
    assert [type(e) for e in hand.events[:4]] == [ev.AntePosted] * 4
    assert not any(isinstance(e, ev.BlindPosted) for e in hand.events)
    assert hand.street is not None
    assert hand.street.name == "bomb"
    assert {e.board: len(e.cards) for e in hand.events if isinstance(e, ev.BoardDealt)} == {
        name: (1 if name == "X" else 3) for name in hand.variant.board_names}
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.check
    assert legal.is_bet
    assert legal.raise_min == 2
    assert legal.raise_max == 4  # pot limit: the 4 antes are the pot


@pytest.mark.parametrize("variant_id", ["esg", "esg-low", "balance", "tilt"])
def test_blind_games_have_a_preflop_round(variant_id: str) -> None:
    hand = new_hand(variant_id, players=4, button=0)
    assert hand.street is not None
    assert hand.street.name == "preflop"
    assert [(e.seat, e.amount) for e in hand.events if isinstance(e, ev.BlindPosted)] == [
        (1, 1), (2, 2)]
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.raise_max == 7


def test_xmas_bomb_street_shows_both_flops_and_the_christmas_card_without_redraws() -> None:
    hand = new_hand("xmas", players=3)
    assert [len(hand.boards[b]) for b in "ABX"] == [3, 3, 1]
    assert not any(isinstance(e, ev.Redrawn) for e in hand.events)
    to_street(hand, "turn")
    # 3 players: stub 52 - 18 - 11 = 23; turn cap 5: min(5, 23 // 3) = 5 each.
    assert hand.redraws == [5, 5, 5]
    assert hand.pool_size == 8


def test_tilt_reveals_and_pills_follow_the_tilted_cards() -> None:
    hand = new_hand("tilt", players=3, seed=4)
    ready = {p.category: p.ready for p in view_for(hand, 0).pills}
    assert ready == {"A": False, "B": False, "C": False, "Tilt": False, "Hand": True}
    to_street(hand, "flop")
    assert [len(hand.boards[b]) for b in "ABCD"] == [3, 3, 3, 1]
    ready = {p.category: p.ready for p in view_for(hand, 0).pills}
    assert ready == {"A": False, "B": False, "C": True, "Tilt": False, "Hand": True}
    to_street(hand, "turn")
    assert [len(hand.boards[b]) for b in "ABCD"] == [4, 4, 4, 1]
    ready = {p.category: p.ready for p in view_for(hand, 0).pills}
    assert ready == {"A": False, "B": True, "C": True, "Tilt": True, "Hand": True}
    assert next(p.description for p in view_for(hand, 0).pills) == NOT_YET
    to_street(hand, "river")
    assert all(p.ready for p in view_for(hand, 0).pills)


@pytest.mark.parametrize(("hole", "players"), [(4, 10), (5, 8), (6, 7)])
def test_bomb_host_options(hole: int, players: int) -> None:
    variant = find_variant("bomb").with_options(hole_cards=hole)
    hand = Hand(variant, ANTES, [50] * players, 0, cards=Deck(rng=random.Random(2)))
    assert all(len(cards) == hole for cards in hand.hole)
    with pytest.raises(StakesError, match=f"2 to {players} players"):
        Hand(variant, ANTES, [50] * (players + 1), 0)


def test_dealers_choice_offers_the_variants_whose_max_players_fit() -> None:
    seven = {v.id for v in DEALERS_CHOICE.choices(7)}
    assert {"balance", "bomb", "allocator", "plo", "stud-hilo"} <= seven
    assert not {"esg", "esg-low", "xmas", "tilt", "allocator-redraw"} & seven
    assert {v.id for v in DEALERS_CHOICE.choices(10)} == {"bomb", "plo", "omaha-hilo",
                                                         "holdem", "stud5"}
    for variant in DEALERS_CHOICE.choices(7):
        # The pick (variant and options) is an input to the hand.
        for hole in variant.hole_card_options:
            picked = variant.with_options(hole_cards=hole)
            if picked.max_players >= 7 and not picked.is_stud:
                stakes = BLINDS if picked.forced_bets is ForcedBets.BLINDS else ANTES
                assert Hand(picked, stakes, [100] * 7, 3).variant is picked


# -- redraws --------------------------------------------------------------------------------


def test_redraw_share_and_the_rules_example() -> None:
    assert redraw_share(3, 0, 18, 4) == 3
    assert redraw_share(6, 3, 6, 4) == 1
    assert redraw_share(9, 4, 12, 3) == 4
    assert redraw_share(None, 0, 30, 2) == 0
    assert redraw_share(0, 0, 30, 2) == 0
    esg = find_variant("esg")
    assert starting_pool(esg, 6) == 6
    assert schedule(esg, 6, {"flop": 2, "river": 1}) == [("flop", 3, 6), ("turn", 1, 2),
                                                         ("river", 4, 0)]
    assert esg.guaranteed_redraws(6) == 1


def test_all_in_players_get_redraws_equal_to_everyone_else() -> None:
    variant = find_variant("esg")
    hand = Hand(variant, BLINDS, [6, 100, 100], 0, cards=Deck(rng=random.Random(3)))
    hand.raise_to(6)  # seat 0 (the button acts first 3-handed) all-in
    hand.call()
    hand.call()
    assert hand.stacks[0] == 0
    to_street(hand, "river")
    # Stub 52 - 18 - 10 = 24: flop 3 each (15 left), turn 3 (6), river min(3, 6 // 3) = 2.
    assert hand.redraws == [8, 8, 8]
    assert [len(cards) for cards in hand.hole] == [14, 14, 14]
    assert hand.pool_size == 0


def test_a_given_deck_replays_the_same_redraws() -> None:
    deck = list(range(52))
    random.Random(9).shuffle(deck)
    runs = []
    for _ in range(2):
        hand = Hand(find_variant("balance"), BLINDS, [100] * 3, 0, cards=Deck(list(deck)))
        while not hand.is_over:
            passive(hand)
        runs.append([e for e in hand.events if isinstance(e, ev.Redrawn)])
    assert runs[0] == runs[1]
    other = deck[:]
    other[-1], other[-2] = other[-2], other[-1]
    hand = Hand(find_variant("balance"), BLINDS, [100] * 3, 0, cards=Deck(other))
    while not hand.is_over:
        passive(hand)
    assert [e for e in hand.events if isinstance(e, ev.Redrawn)] != runs[0]


def test_redraws_and_the_pool_are_hidden_but_the_pool_size_is_public() -> None:
    hand = new_hand("esg", players=3, seed=6)
    to_street(hand, "turn")
    for viewer in (None, 0, 1, 2):
        view = view_for(hand, viewer)
        assert view.pool_size == hand.pool_size == 52 - 18 - 10 - 18
        assert [s.redraws for s in view.seats] == [6, 6, 6]
        for event in events_for(hand, viewer):
            if isinstance(event, ev.Redrawn) and event.seat != viewer:
                assert set(event.cards) == {None}


# -- points (RULES.md s.7's side-pot example) -------------------------------------------------


def _value(strength: int) -> HandValue:
    return HandValue(Ranking.HIGH, strength, (), "")


def test_points_with_a_side_pot_as_in_the_rules_example() -> None:
    """P1 all-in: main pot A to P1, B to P2, Hand tied P2/P3 -> P2 takes it; side pot: A to
    P3, B to P2, Hand tied -> 3/2 each, split."""
    hands = {
        0: {"A": _value(900), "B": _value(100), "Hand": _value(100)},
        1: {"A": _value(300), "B": _value(800), "Hand": _value(500)},
        2: {"A": _value(400), "B": _value(200), "Hand": _value(500)},
    }
    main, side = settle_pots([Pot(30, (0, 1, 2)), Pot(41, (1, 2))], hands, ("A", "B", "Hand"),
                             Split.POINTS, (0, 1, 2))
    assert main.points == {0: 1, 1: Fraction(3, 2), 2: Fraction(1, 2)}
    assert main.shares == {1: 30}
    assert side.points == {1: Fraction(3, 2), 2: Fraction(3, 2)}
    assert [c.winners for c in side.categories] == [(2,), (1,), (1, 2)]
    assert side.shares == {1: 21, 2: 20}  # the odd chip to the first clockwise from the button


# -- pills and NUTS ---------------------------------------------------------------------------


def test_pills_and_nuts() -> None:
    esg = find_variant("esg")
    boards = {"A": parse_cards("As Ks Qs 2d 7h"), "B": parse_cards("2c 3c 4c 9h 9d")}
    royal = pills_for(esg, parse_cards("Js Ts 5c 6c 8h 8d"), boards)
    assert [(p.category, p.nuts) for p in royal] == [("A", True), ("B", True), ("Hand", False)]
    assert royal[0].text == "A: Royal flush"
    weak = pills_for(esg, parse_cards("Jd Td 5h 6d 8h 8c"), boards)
    assert [p.nuts for p in weak] == [False, False, False]
    low = find_variant("esg-low")
    none = pills_for(low, parse_cards("2s 2h 3s 3h 4s 4h"), boards)
    assert none[2].text == "Hand: none"
    nut_low = pills_for(low, parse_cards("7d 5h 4d 3h 2h Kd"), boards)
    assert nut_low[2].nuts
    assert nut_low[2].description == "Low 7-5-4-3-2"


def test_every_seat_gets_its_own_pills_and_the_spectator_none() -> None:
    hand = new_hand("balance", players=7, seed=2)
    to_street(hand, "river")
    assert view_for(hand, None).pills == ()
    for seat in range(7):
        view = view_for(hand, seat)
        assert [p.category for p in view.pills] == list(hand.variant.category_names)
        assert all(p.ready for p in view.pills)


@pytest.mark.parametrize("variant", MULTI, ids=[v.id for v in MULTI])
def test_showdown_views_list_every_shown_hand_with_its_categories(variant: Variant) -> None:
    hand = new_hand(variant.id, players=3, seed=8)
    while not hand.is_over:
        if hand.is_allocating:
            for seat in hand.allocation_pending:
                hand.allocate_best(seat)
        else:
            passive(hand)
    view = view_for(hand, None)
    assert {s.seat for s in view.showdown} == {0, 1, 2}
    for shown in view.showdown:
        assert [name for name, _ in shown.categories] == list(hand.variant.category_names)
    assert sum(sum(p for _, p in pot.points) for pot in view.results) == sum(
        sum(1 for _, winners in pot.categories if winners) for pot in view.results)


def test_bench_engine_prints_every_variant_beside_pokerkit(
        capsys: pytest.CaptureFixture[str]) -> None:
    from boardroom.cli import main

    assert main(["bench", "engine", "--hands", "10", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("boardroom plo", "boardroom esg ", "boardroom allocator-redraw",
                 "boardroom tilt", "pokerkit 0.7.7 plo 2 boards"):
        assert name in out
    assert "ESG / PokerKit 2-board PLO:" in out
    assert "views with pills and NUTS, all 7 seats of a Balance river:" in out
    assert "allocation suggestion, 15 cards into 2/2/3:" in out


def test_bench_engine_card_room_prints_each_game_against_pokerkits_same_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    from boardroom.bench.engine import CARD_ROOM
    from boardroom.cli import main

    assert main(["bench", "engine", "--hands", "4", "--repeat", "1", "--card-room"]) == 0
    out = capsys.readouterr().out
    assert "CPU seconds" in out
    for game, betting, peer in CARD_ROOM:
        assert f"{game} {betting} / pokerkit {peer}: " in out
    assert "boardroom esg" not in out
    assert "ESG / PokerKit" not in out


@pytest.mark.parametrize("variant_id", ["esg", "balance", "allocator-redraw", "xmas"])
def test_a_viewers_history_replays_with_unseen_and_recycled_cards(variant_id: str) -> None:
    """Per-viewer histories write unseen cards as ``??``; recycled folded hands make them
    outnumber the unused cards, and the replay still ends with the same stacks."""
    import copy

    import tomli_w

    from boardroom.engine.history import replay_text, to_record

    for seed in range(6):
        hand = new_hand(variant_id, players=4, seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            if hand.is_allocating:
                hand.allocate_best(hand.allocation_pending[0])
            elif hand.can_fold() and rng.random() < 0.15:
                hand.fold()
            else:
                passive(hand)
        for viewer in (None, 1):
            seen = copy.copy(hand)
            seen.events = events_for(hand, viewer)
            text = tomli_w.dumps(to_record(seen))
            assert replay_text(text).stacks == hand.stacks
