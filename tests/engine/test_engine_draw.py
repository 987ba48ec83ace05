"""The draw (issue 14): each player in turn from the button's left throws 0 to N cards and is
dealt as many; when the stub runs out, the discards so far, never the drawing player's own,
are shuffled to continue."""

from __future__ import annotations

import random

import pytest
from engine_invariants import check_invariants

from boardroom.engine import ActionError, Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.history import dumps, replay_text
from boardroom.rules import find_variant

BLINDS = Stakes(small_blind=1, big_blind=2)


def _calling_down(hand: Hand, throw_all: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """Everyone calls or checks; at each draw every player throws every card (or none).
    Returns each draw as (seat, cards thrown)."""
    draws = []
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.draw is not None:
            thrown = tuple(hand.hole[legal.seat][:legal.draw]) if throw_all else ()
            draws.append((legal.seat, thrown))
            hand.draw(thrown)
        elif legal.check:
            hand.check()
        else:
            hand.call()
        check_invariants(hand)
    return draws


def test_the_stub_runs_out_and_the_others_discards_continue() -> None:
    variant = find_variant("27-triple-draw")
    hand = Hand(variant, BLINDS, [100] * 6, 5, cards=Deck(rng=random.Random(5)))
    draws = _calling_down(hand)
    assert len(draws) == 18  # 6 players, 3 draws
    assert [seat for seat, _ in draws[:6]] == [0, 1, 2, 3, 4, 5]  # from the button's left
    # 30 cards dealt, a stub of 22: the fifth player's draw of the first round runs it out.
    dealt_after: dict[int, list[tuple[int, ...]]] = {}
    thrown_by: list[tuple[int, tuple[int, ...]]] = []
    for event in hand.events:
        if isinstance(event, ev.Discarded):
            thrown_by.append((event.seat, tuple(c for c in event.cards if c is not None)))
        elif isinstance(event, ev.HoleDealt) and thrown_by and thrown_by[-1][0] == event.seat:
            seat, thrown = thrown_by[-1]
            assert not set(thrown) & {c for c in event.cards if c is not None}, (
                "a player was dealt back its own discards")
            dealt_after.setdefault(seat, []).append(tuple(c for c in event.cards
                                                          if c is not None))
    reused = {c for cards in dealt_after.values() for dealt in cards for c in dealt} & {
        c for _, thrown in thrown_by for c in thrown}
    assert reused, "the discards were never dealt again"
    assert sum(hand.stacks) == 600
    assert replay_text(dumps(hand)).stacks == hand.stacks


def test_standing_pat_and_the_draw_limits() -> None:
    hand = Hand(find_variant("badugi"), BLINDS, [50, 50, 50], 2, cards=Deck(rng=random.Random(1)))
    for _ in range(3):
        hand.call() if not hand.can_check() else hand.check()
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.draw, legal.fold, legal.call, legal.raise_min) == (
        0, 4, False, None, None)
    with pytest.raises(ActionError, match="must draw"):
        hand.check()
    with pytest.raises(ActionError, match="may throw only cards it holds"):
        hand.draw([card for card in range(52) if card not in hand.hole[0]][:1])
    with pytest.raises(ActionError, match="names a card twice"):
        hand.draw([hand.hole[0][0]] * 2)
    with pytest.raises(ActionError, match="a list of the cards"):
        hand.draw("As")  # type: ignore[arg-type]
    before = list(hand.hole[0])
    hand.stand_pat()
    assert hand.hole[0] == before
    assert hand.actor == 1
    with pytest.raises(ActionError, match="at most 4 cards"):
        hand.draw([*hand.hole[1], 99])


def test_no_draw_outside_the_draw_games() -> None:
    hand = Hand(find_variant("holdem"), BLINDS, [50, 50], 1, cards=Deck(rng=random.Random(1)))
    with pytest.raises(ActionError, match="Texas Hold'em has no draw"):
        hand.draw([])


@pytest.mark.parametrize("game", ["five-card-draw", "27-single-draw", "27-triple-draw",
                                  "badugi"])
def test_random_draw_hands_replay_from_their_histories(game: str) -> None:
    variant = find_variant(game)
    for seed in range(40):
        rng = random.Random(seed)
        count = rng.randint(2, variant.max_players)
        hand = Hand(variant, BLINDS, [rng.randint(3, 200) for _ in range(count)], count - 1,
                    cards=Deck(rng=random.Random(seed)))
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.draw is not None:
                hand.draw(rng.sample(hand.hole[legal.seat], rng.randint(0, legal.draw)))
            elif legal.fold and rng.random() < 0.2:
                hand.fold()
            elif legal.raise_min is not None and legal.raise_max is not None and (
                    rng.random() < 0.3):
                hand.raise_to(rng.randint(legal.raise_min, legal.raise_max))
            elif legal.check:
                hand.check()
            else:
                hand.call()
            check_invariants(hand)
        assert replay_text(dumps(hand)).stacks == hand.stacks


def test_discards_are_private_and_fair_deals_verify() -> None:
    """Another viewer sees how many cards a player threw, never which; the history of a fair
    draw hand, the reshuffles included, verifies against its revealed seeds (for a viewer that
    cannot see the discards, up to the reshuffled cards)."""
    import copy

    from boardroom import fairness
    from boardroom.engine import history as hist
    from boardroom.engine.view import events_for

    seeds = fairness.Seeds(bytes(range(32)), "room", 1, ("aa", "bb", "cc", "dd", "ee", "ff"))
    record_fields = {"scheme": fairness.SCHEME, "room": "room", "hand_no": 1,
                     "commitment": seeds.commitment, "server_seed": bytes(range(32)).hex(),
                     "client_seeds": list(seeds.client_seeds), "server_made": [False] * 6,
                     "burns": False, "set_aside": 0}
    hand = Hand(find_variant("27-triple-draw"), BLINDS, [100] * 6, 5, cards=Deck(seeds=seeds))
    _calling_down(hand)
    full = hist.to_record(hand)
    full[fairness.FIELD] = record_fields
    assert fairness.check_history(full) > 52  # more cards than a deck: the discards came back
    for viewer in (None, 0):
        seen = copy.copy(hand)
        seen.events = events_for(hand, viewer)
        for event in seen.events:
            if isinstance(event, ev.Discarded) and event.seat != viewer:
                assert set(event.cards) <= {None}
        text = hist.to_record(seen)
        text[fairness.FIELD] = record_fields
        assert fairness.check_history(text) > 0
    # One card changed after a reshuffle is caught.
    actions = list(full["actions"])
    last_deal = max(k for k, a in enumerate(actions) if a.startswith("d dh"))
    words = actions[last_deal].split()
    first = words[3][:2]
    other = next(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs" if f"{r}{s}" != first)
    actions[last_deal] = f"d dh {words[2]} {other}{words[3][2:]}"
    broken = dict(full, actions=actions)
    with pytest.raises(fairness.FairnessError, match="reshuffle"):
        fairness.check_history(broken)
