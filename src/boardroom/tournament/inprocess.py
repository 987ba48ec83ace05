"""A whole tournament played in one process, with no server: the director's plans dealt by the
engine, hand after hand, table after table.

The tables play at once on a simulated clock: each hand takes a random number of seconds
(``hand_seconds``), and the runner handles the director's calls in time order, so a player moved
to a table in the middle of its hand waits for the next one there, exactly as with live tables.
Who acts is the caller's business (``act``: bots in ``boardroom tournament sim``, random actions
in the tests); the runner never looks at a hidden card.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from boardroom.engine import Deck, Hand, Stakes
from boardroom.rules import DEALERS_CHOICE, ForcedBets, Variant, find_variant
from boardroom.table import TableSettings
from boardroom.tournament.director import Director, HandPlan, TournamentError
from boardroom.tournament.structure import Level

# act(hand, engine seat, player id): make one decision for that seat (an action, or an
# allocation when the hand is allocating).
Act = Callable[[Hand, int, str], None]
AfterHand = Callable[[Director, HandPlan, Hand], None]


def stakes_for(variant: Variant, level: Level, ante_mode: str) -> tuple[Stakes, bool]:
    """The engine's stakes for ``level`` in ``variant``, and whether the big blind alone posts
    the ante. Ante games and stud derive them as rooms do (``TableSettings.stakes_for``); blind
    games add the level's ante, from every player or from the big blind."""
    room = TableSettings(small_blind=level.small_blind, big_blind=level.big_blind,
                         ante=level.ante)
    stakes = room.stakes_for(variant)
    if variant.forced_bets is ForcedBets.BLINDS and level.ante:
        return replace(stakes, ante=level.ante), ante_mode == "big-blind"
    return stakes, False


def variant_for(plan: HandPlan, rng: random.Random) -> Variant:
    """The plan's game; Dealer's Choice: the button's pick, drawn at random among the games that
    deal to this many players (bots do not pick games)."""
    players = len(plan.players)
    if plan.game != DEALERS_CHOICE.id:
        return find_variant(plan.game)
    variant = rng.choice(DEALERS_CHOICE.choices(players))
    if variant.max_players >= players:
        return variant
    hole = next(h for h in variant.hole_card_options if variant.max_players_by_hole[h] >= players)
    return variant.with_options(hole_cards=hole)


def deal(plan: HandPlan, rng: random.Random) -> Hand:
    """The engine hand of ``plan``: its players in seat order, the dead-button positions."""
    variant = variant_for(plan, rng)
    stakes, big_blind_ante = stakes_for(variant, plan.stakes, plan.ante_mode)
    _, button, dead = plan.positions.engine_seating()
    blinds = variant.forced_bets is ForcedBets.BLINDS
    return Hand(variant, stakes, [stack for _, _, stack in plan.players], button,
                cards=Deck(rng=rng), manual_allocation=variant.has_allocation,
                dead_small_blind=dead and blinds, big_blind_ante=big_blind_ante)


def play_hand(hand: Hand, plan: HandPlan, act: Act) -> None:
    players = [player for _, player, _ in plan.players]
    while not hand.is_over:
        seats = hand.allocation_pending if hand.is_allocating else (hand.actor,)
        if not seats or seats[0] is None:
            raise TournamentError("the hand waits for nobody")  # pragma: no cover
        for seat in seats:
            assert seat is not None
            act(hand, seat, players[seat])


@dataclass
class RunStats:
    hands: int = 0
    seconds: float = 0.0  # on the simulated clock


def run(director: Director, act: Act, *, seed: int = 0,
        hand_seconds: tuple[float, float] = (30.0, 90.0),
        after_hand: AfterHand | None = None, max_hands: int = 10_000_000) -> RunStats:
    """Start ``director``'s tournament (its entrants registered) and play it to the end."""
    rng = random.Random(seed)
    stats = RunStats()
    now = 0.0
    if not director.started:
        director.start(now)
    running: list[tuple[float, int, int]] = []  # (ends at, order, table)
    hands: dict[int, tuple[HandPlan, Hand]] = {}
    order = 0
    while not director.finished:
        for number in list(director.tables):
            if number in hands:
                continue
            plan = director.next_hand(number, now)
            if plan is None:
                continue
            hand = deal(plan, rng)
            play_hand(hand, plan, act)
            hands[number] = (plan, hand)
            order += 1
            heapq.heappush(running, (now + rng.uniform(*hand_seconds), order, number))
        if not running:
            left = director.time_left(now)
            if not left:
                raise TournamentError("no table can deal and the clock is stopped")
            now += left  # a break (or a level every table waits out)
            continue
        now, _, number = heapq.heappop(running)
        plan, hand = hands.pop(number)
        stacks = {player: hand.stacks[index] for index, (_, player, _) in enumerate(plan.players)}
        director.hand_ended(number, stacks, now)
        stats.hands += 1
        if after_hand is not None:
            after_hand(director, plan, hand)
        if stats.hands >= max_hands:
            raise TournamentError(f"the tournament did not end in {max_hands} hands")
    stats.seconds = now
    return stats
