"""Lock-step play of our engine against PokerKit 0.7.7 (RULES.md section 6).

Both engines get the same seats, stakes and cards (ours deals from a seeded deck; every card,
burns included, is then dealt into PokerKit by hand). At every decision the seat to act and the
legal actions must agree, except where a known PokerKit departure explains the difference; only
actions legal under both rule sets are taken. At the end the stacks must agree, except where a
known departure decides a split: ``pokerkit_settlement`` recomputes the showdown PokerKit's way
from our hand and names the departures that make the difference.
"""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine_invariants import random_action
from pokerkit import (
    Automation,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    HandHistory,
    NoLimitDeuceToSevenLowballSingleDraw,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

from boardroom.cards import format_cards
from boardroom.engine import Hand, LegalActions, Stakes
from boardroom.engine import events as ev
from boardroom.engine.dealing import Deck
from boardroom.engine.history import dumps, replay_text
from boardroom.engine.pots import side_pots
from boardroom.engine.showdown import Pot
from boardroom.rules import Split, Variant, find_variant

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

# The departures of RULES.md section 6 (and one more found by this cross-check, see below).
REOPEN = "short all-in reopens the betting"
BLIND_OPTION = "short all-in takes the raise from a seat that has not acted"
REMAINDER = "split remainder to the first winner"
NO_LOW_HALVED = "side pot without a low still halved"
SHORT_BIG_BLIND = "a big blind all-in for less lowers the amount to call"
BLIND_NOT_A_BET = "fixed limit preflop: the big blind is not counted in the four bets"


@dataclass(frozen=True)
class Game:
    name: str
    variant: Variant
    stakes: Stakes
    max_players: int
    peer: Callable[[Sequence[int]], State]


def _plo_peer(stacks: Sequence[int]) -> State:
    return PotLimitOmahaHoldem.create_state(AUTOMATIONS, False, 0, (1, 2), 2, tuple(stacks),
                                            len(stacks))


def _hilo_peer(stacks: Sequence[int]) -> State:
    # Pot limit inside (RULES.md s.6): small bet = big bet = the big blind.
    return FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
        AUTOMATIONS, False, 0, (1, 2), 2, 2, tuple(stacks), len(stacks))


def _stud_peer(stacks: Sequence[int]) -> State:
    # Ante trimming on: an ante nobody matched goes back (RULES.md s.2), as our PHH says.
    return FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
        AUTOMATIONS, True, 1, 2, 5, 10, tuple(stacks), len(stacks))


def _nlhe_peer(stacks: Sequence[int]) -> State:
    return NoLimitTexasHoldem.create_state(AUTOMATIONS, False, 0, (1, 2), 2, tuple(stacks),
                                           len(stacks))


def _flhe_peer(stacks: Sequence[int]) -> State:
    return FixedLimitTexasHoldem.create_state(AUTOMATIONS, False, 0, (1, 2), 2, 4, tuple(stacks),
                                              len(stacks))


def _stud_high_peer(stacks: Sequence[int]) -> State:
    return FixedLimitSevenCardStud.create_state(AUTOMATIONS, True, 1, 2, 5, 10, tuple(stacks),
                                                len(stacks))


def _razz_peer(stacks: Sequence[int]) -> State:
    return FixedLimitRazz.create_state(AUTOMATIONS, True, 1, 2, 5, 10, tuple(stacks),
                                       len(stacks))


def _single_draw_peer(stacks: Sequence[int]) -> State:
    return NoLimitDeuceToSevenLowballSingleDraw.create_state(
        AUTOMATIONS, False, 0, (1, 2), 2, tuple(stacks), len(stacks))


def _triple_draw_peer(stacks: Sequence[int]) -> State:
    return FixedLimitDeuceToSevenLowballTripleDraw.create_state(
        AUTOMATIONS, False, 0, (1, 2), 2, 4, tuple(stacks), len(stacks))


def _badugi_peer(stacks: Sequence[int]) -> State:
    return FixedLimitBadugi.create_state(AUTOMATIONS, False, 0, (1, 2), 2, 4, tuple(stacks),
                                         len(stacks))


BLINDS = Stakes(small_blind=1, big_blind=2)
STUD_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)

GAMES: dict[str, Game] = {
    "plo": Game("plo", find_variant("plo"), Stakes(small_blind=1, big_blind=2), 9, _plo_peer),
    "omaha-hilo": Game("omaha-hilo", find_variant("omaha-hilo").with_options(betting="pot-limit"),
                       Stakes(small_blind=1, big_blind=2), 9, _hilo_peer),
    "stud-hilo": Game("stud-hilo", find_variant("stud-hilo").with_options(bring_in="lowest"),
                      STUD_STAKES, 7, _stud_peer),
    "holdem-nl": Game("holdem-nl", find_variant("holdem"), BLINDS, 10, _nlhe_peer),
    "holdem-fl": Game("holdem-fl", find_variant("holdem").with_options(betting="fixed-limit"),
                      BLINDS, 10, _flhe_peer),
    "stud": Game("stud", find_variant("stud"), STUD_STAKES, 7, _stud_high_peer),
    "razz": Game("razz", find_variant("razz"), STUD_STAKES, 7, _razz_peer),
    "27-single-draw": Game("27-single-draw", find_variant("27-single-draw"), BLINDS, 6,
                           _single_draw_peer),
    "27-triple-draw": Game("27-triple-draw", find_variant("27-triple-draw"), BLINDS, 6,
                           _triple_draw_peer),
    "badugi": Game("badugi", find_variant("badugi"), BLINDS, 6, _badugi_peer),
}


class Mismatch(AssertionError):
    """The engines disagree in a way no known departure explains."""


@dataclass
class Outcome:
    hand: Hand
    peer: State
    decision_departures: set[str] = field(default_factory=set)
    stack_departures: tuple[str, ...] = ()

    @property
    def identical(self) -> bool:
        return tuple(self.hand.stacks) == tuple(self.peer.stacks)


def _cards(cards: Sequence[int]) -> str:
    return format_cards(cards).replace(" ", "")


def sync_cards(hand: Hand, peer: State) -> None:
    """Deal into PokerKit whatever our hand has dealt that PokerKit is waiting for."""
    while True:
        if peer.can_burn_card():
            # Stud burns nothing in our rules (RULES.md s.1); PokerKit burns an unknown card.
            burned = sum(1 for op in peer.operations if type(op).__name__ == "CardBurning")
            card = hand.burned[burned] if burned < len(hand.burned) else None
            peer.burn_card("??" if card is None else _cards([card]))
        elif peer.can_deal_hole():
            seat = peer.hole_dealee_index
            have = len(peer.hole_cards[seat])
            peer.deal_hole(_cards([hand.hole[seat][have]]), seat)
        elif peer.can_deal_board():
            have = len(list(peer.get_board_cards(0)))
            count = peer.board_dealing_count
            peer.deal_board(_cards(hand.boards["A"][have:have + count]))
        else:
            return


def peer_range(peer: State) -> tuple[int, int] | None:
    if not peer.can_complete_bet_or_raise_to():
        return None
    return (peer.min_completion_betting_or_raising_to_amount,
            peer.max_completion_betting_or_raising_to_amount)


def compare_decision(hand: Hand, peer: State, legal: LegalActions) -> set[str]:
    """Raise ``Mismatch`` unless the engines agree here; return the departures seen."""
    where = f"seat {legal.seat}, street {hand.street.name if hand.street else '-'}"
    if peer.actor_index != legal.seat:
        raise Mismatch(f"{where}: PokerKit has seat {peer.actor_index} to act")
    if peer.can_fold() != legal.fold:
        raise Mismatch(f"{where}: fold {legal.fold} vs PokerKit {peer.can_fold()}")
    if peer.can_post_bring_in() != (legal.bring_in is not None):
        raise Mismatch(f"{where}: bring-in {legal.bring_in} vs PokerKit")
    ours_cc = 0 if legal.check else legal.call
    peer_cc = peer.checking_or_calling_amount if peer.can_check_or_call() else None
    if ours_cc != peer_cc:
        raise Mismatch(f"{where}: check/call {ours_cc} vs PokerKit {peer_cc}")
    ours = (legal.raise_min, legal.raise_max) if legal.raise_min is not None else None
    theirs = peer_range(peer)
    if ours == theirs:
        return set()
    if ours is None and theirs is not None:
        reason = hand.raise_refusal()
        if reason is not None and "does not reopen" in reason:
            return {REOPEN}
        if (reason is not None and "capped at 4 bets" in reason and hand.street is not None
                and hand.street_index == 0 and hand.stakes.big_blind
                and peer.completion_betting_or_raising_count == 3):
            # PokerKit caps completions, bets and raises at 4 without counting the big blind,
            # so preflop it allows a fifth bet (RULES.md s.2: the blind is the first of four).
            return {BLIND_NOT_A_BET}
    refusal = _peer_refusal(peer)
    if ours is not None and theirs is None and refusal == "Short all-in cannot be raised.":
        return {BLIND_OPTION}
    raise Mismatch(f"{where}: raise range {ours} vs PokerKit {theirs} "
                   f"({hand.raise_refusal()})")


def _peer_refusal(peer: State) -> str | None:
    try:
        peer._verify_completion_betting_or_raising()
    except ValueError as error:
        return str(error)
    return None


def choose(rng: random.Random, legal: LegalActions, peer: State) -> tuple[str, int]:
    """A random action legal under both rule sets."""
    theirs = peer_range(peer)
    options: list[tuple[str, int]] = []
    if legal.fold:
        options.append(("fold", 0))
    if legal.bring_in is not None:
        options.append(("bring_in", 0))
    if legal.check or legal.call is not None:
        options += [("call", 0)] * 3
    if legal.raise_min is not None and theirs is not None:
        low = max(legal.raise_min, theirs[0])
        high = min(legal.raise_max or 0, theirs[1])
        if low <= high:
            options += [("raise", low), ("raise", high), ("raise", rng.randint(low, high))]
    return rng.choice(options)


def apply(hand: Hand, peer: State, action: tuple[str, int]) -> None:
    kind, amount = action
    if kind == "fold":
        hand.fold()
        peer.fold()
    elif kind == "bring_in":
        hand.post_bring_in()
        peer.post_bring_in()
    elif kind == "call":
        if hand.can_check():
            hand.check()
        else:
            hand.call()
        peer.check_or_call()
    else:
        hand.raise_to(amount)
        peer.complete_bet_or_raise_to(amount)


def draw(hand: Hand, peer: State, legal: LegalActions, rng: random.Random) -> None:
    """The draw in both engines: the same player, the same discards (0 to the street's draw)."""
    if not peer.can_stand_pat_or_discard():
        raise Mismatch(f"seat {legal.seat} draws; PokerKit does not ask for a draw")
    if peer.stand_patter_or_discarder_index != legal.seat:
        raise Mismatch(f"seat {legal.seat} draws; PokerKit has seat "
                       f"{peer.stand_patter_or_discarder_index} drawing")
    assert legal.draw is not None
    thrown = rng.sample(hand.hole[legal.seat], rng.randint(0, legal.draw))
    hand.draw(thrown)
    peer.stand_pat_or_discard(_cards(thrown))


def random_stacks(rng: random.Random, count: int, game: Game) -> list[int]:
    """Uneven stacks, often short, so that all-ins and multi-way side pots are common."""
    floor = 3 * (game.stakes.big_blind or game.stakes.small_bet) + game.stakes.ante
    return [rng.choice((rng.randint(floor, 60), rng.randint(floor, 300), rng.randint(floor, 1000)))
            for _ in range(count)]


def play(game: Game, seed: int, on_decision: Callable[[Hand], None] | None = None) -> Outcome:
    """One lock-step hand; raises ``Mismatch`` on an unexplained difference."""
    with warnings.catch_warnings():
        # The draw: PokerKit's refill of its deck differs from ours (docs/rules.md, "Where
        # PokerKit differs") and it warns when it refills, and when our card is not one it
        # would deal; the cards are dealt into it by hand, so the play is the same.
        warnings.filterwarnings("ignore", "Returning reserved", UserWarning)
        warnings.filterwarnings("ignore", "A card being dealt", UserWarning)
        return _play(game, seed, on_decision)


def _play(game: Game, seed: int, on_decision: Callable[[Hand], None] | None) -> Outcome:
    rng = random.Random(seed)
    count = rng.randint(2, game.max_players)
    stacks = random_stacks(rng, count, game)
    hand = Hand(game.variant, game.stakes, stacks, count - 1,
                cards=Deck(rng=random.Random(rng.getrandbits(64))))
    peer = game.peer(stacks)
    outcome = Outcome(hand, peer)
    sync_cards(hand, peer)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if on_decision is not None:
            on_decision(hand)
        if legal.draw is not None:
            draw(hand, peer, legal, rng)
        else:
            outcome.decision_departures |= compare_decision(hand, peer, legal)
            apply(hand, peer, choose(rng, legal, peer))
        sync_cards(hand, peer)
    if peer.status:
        raise Mismatch(f"our hand is over, PokerKit's is not (actor {peer.actor_index})")
    if not outcome.identical:
        outcome.stack_departures = explain(hand, peer)
    return outcome


# -- showdown recomputed PokerKit's way -----------------------------------------------------


def pokerkit_settlement(
    hand: Hand, *, rebuild: bool, remainder_to_first: bool, halve_without_low: bool
) -> list[int]:
    """Final stacks if the pots were paid with the chosen PokerKit departures.

    ``rebuild``: PokerKit kills every hand that cannot win anything and rebuilds the side pots
    from the survivors (so pots that differed only by a loser merge, changing odd chips).
    """
    stacks = [start - put for start, put in zip(hand.starting_stacks, hand.contributed,
                                                strict=True)]
    live = [seat for seat in range(hand.seat_count) if hand.live[seat]]
    if len(live) == 1:
        stacks[live[0]] += sum(hand.contributed)
        return stacks
    hands = {seat: hand.category_hands(seat) for seat in live}
    pots = hand.pots()
    if rebuild:
        survivors = {seat for seat in live if _can_win(seat, pots, hands)}
        pots = side_pots(hand.contributed, [seat in survivors for seat in range(hand.seat_count)])
        hands = {seat: hands[seat] for seat in survivors}
    any_low = any(values.get("Low") is not None for values in hands.values())
    for pot in pots:
        seats = sorted(s for s in pot.eligible if s in hands)  # PokerKit order: p1 first
        halves: list[tuple[int, str]]
        if hand.variant.split is Split.HI_LO:
            has_low = any_low if halve_without_low else any(
                hands[s]["Low"] is not None for s in seats)
            if has_low:
                halves = [(pot.amount - pot.amount // 2, "High"), (pot.amount // 2, "Low")]
            else:
                halves = [(pot.amount, "High")]
        else:
            halves = [(pot.amount, hand.variant.category_names[0])]
        for amount, name in halves:
            _pay(stacks, amount, _best(seats, hands, name), hand.order, remainder_to_first)
    return stacks


def _can_win(seat: int, pots: Sequence[Pot], hands: Mapping[int, Mapping[str, Any]]) -> bool:
    """PokerKit's ``can_win_now`` with every hand shown."""
    for pot in pots:
        if seat not in pot.eligible:
            continue
        for name, value in hands[seat].items():
            others = [hands[s][name].strength for s in pot.eligible
                      if s in hands and hands[s][name] is not None]
            if value is not None and value.strength >= max(others):
                return True
    return False


def _best(seats: Sequence[int], hands: Mapping[int, Mapping[str, Any]], name: str) -> list[int]:
    values = {s: hands[s][name] for s in seats}
    strengths = [v.strength for v in values.values() if v is not None]
    if not strengths:
        return list(seats)  # PokerKit: nobody qualifies, every eligible seat "ties"
    top = max(strengths)
    return [s for s in seats if values[s] is not None and values[s].strength == top]


def _pay(stacks: list[int], amount: int, winners: Sequence[int], order: Sequence[int],
         remainder_to_first: bool) -> None:
    share, odd = divmod(amount, len(winners))
    ranked = sorted(winners, key=order.index)
    for i, seat in enumerate(ranked):
        extra = (odd if i == 0 else 0) if remainder_to_first else (1 if i < odd else 0)
        stacks[seat] += share + extra


DEPARTURE_FLAGS = (("rebuild", "hands that cannot win killed, side pots rebuilt"),
                   ("remainder_to_first", REMAINDER), ("halve_without_low", NO_LOW_HALVED))


def explain(hand: Hand, peer: State) -> tuple[str, ...]:
    """The smallest set of known departures that turns our stacks into PokerKit's."""
    theirs = list(peer.stacks)
    ours_again = pokerkit_settlement(hand, rebuild=False, remainder_to_first=False,
                                     halve_without_low=False)
    if ours_again != list(hand.stacks):
        raise Mismatch(f"our recomputation {ours_again} differs from our hand {hand.stacks}")
    for flags in sorted(itertools.product((False, True), repeat=3), key=sum)[1:]:
        chosen = dict(zip((key for key, _ in DEPARTURE_FLAGS), flags, strict=True))
        if pokerkit_settlement(hand, **chosen) == theirs:
            return tuple(name for (_, name), on in zip(DEPARTURE_FLAGS, flags, strict=True) if on)
    raise Mismatch(f"final stacks {hand.stacks} vs PokerKit {theirs}, not explained by a known "
                   f"departure")


def main_pot(hand: Hand) -> Pot:
    return hand.pots()[0]


# -- short stacks: our PHH read back by PokerKit --------------------------------------------

SHORT_GAMES: dict[str, tuple[Variant, Stakes]] = {
    "plo": (find_variant("plo"), Stakes(small_blind=1, big_blind=2)),
    "plo-ante": (find_variant("plo"), Stakes(small_blind=1, big_blind=2, ante=1)),
    "stud-hilo": (find_variant("stud-hilo").with_options(bring_in="lowest"),
                  Stakes(ante=2, bring_in=2, small_bet=5, big_bet=10)),
}


def short_stack_hand(name: str, seed: int) -> Hand:
    """A random hand with stacks from 1 chip up, so antes and blinds often put players all-in
    (for less or exactly), played to the end with random legal actions."""
    variant, stakes = SHORT_GAMES[name]
    rng = random.Random(seed)
    count = rng.randint(2, min(variant.max_players, 7))
    stacks = [rng.choice((rng.randint(1, 6), rng.randint(1, 40), rng.randint(1, 200)))
              for _ in range(count)]
    hand = Hand(variant, stakes, stacks, count - 1, cards=Deck(rng=random.Random(seed)))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        random_action(hand, legal, rng)
    return hand


def _short_big_blind(hand: Hand) -> bool:
    return any(isinstance(e, ev.BlindPosted) and e.blind == "big"
               and e.amount < hand.stakes.big_blind for e in hand.events)


def phh_peer_check(hand: Hand) -> tuple[str, ...]:
    """Write ``hand`` as PHH, replay it ourselves and in PokerKit's ``HandHistory``.

    Returns the RULES.md s.6 departures that explain a difference in PokerKit's final stacks
    (empty: identical); raises ``Mismatch`` otherwise, or when PokerKit had to fill in a show
    (our file must say where each hand is shown).
    """
    text = dumps(hand)
    if replay_text(text).stacks != hand.stacks:
        raise Mismatch("our own replay of our PHH differs")
    short = _short_big_blind(hand)
    repairs: list[str] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            state = None
            for state, action in HandHistory.loads(text).state_actions:
                if action is None and state.operations:
                    repairs.append(type(state.operations[-1]).__name__)
    except (ValueError, UserWarning) as error:
        # With a short big blind PokerKit offers other actions (a check where we call, no
        # fold), so our actions may not fit its game at all.
        if short:
            return (SHORT_BIG_BLIND,)
        raise Mismatch(f"PokerKit cannot read our PHH: {error}") from None
    assert state is not None
    if short and (list(state.stacks) != hand.stacks or "HoleCardsShowingOrMucking" in repairs):
        return (SHORT_BIG_BLIND,)
    if "HoleCardsShowingOrMucking" in repairs:
        raise Mismatch("PokerKit had to fill in a show")
    if list(state.stacks) == hand.stacks:
        return ()
    return explain(hand, state)
