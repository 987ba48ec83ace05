"""Bots against bots with no server: the engine's ``Hand`` driven directly, hand after hand.

The button moves one seat every hand, a bot whose stack falls below the big blind is topped up
to the starting stack (a rebuy, so the game goes on), and every bot answers the view of its own
seat only. The simulator itself reads the finished hands (results, events) to count what the
report needs: chips won, showdowns, category points, split and void categories, redraws cut
short by the pool, pot sizes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from boardroom.bots.players import Bot
from boardroom.engine import events as ev
from boardroom.engine.betting import Stakes, default_stakes
from boardroom.engine.hand import Hand
from boardroom.engine.view import view_for
from boardroom.rules import Variant

BIG_BLIND = 2
STARTING_STACK = 100 * BIG_BLIND


@dataclass
class PlayerStats:
    name: str
    style: str
    net: list[int] = field(default_factory=list)  # chips won or lost each hand
    showdowns: int = 0
    rebuys: int = 0
    points: dict[str, Fraction] = field(default_factory=dict)  # main pot, per category
    decisions: list[float] = field(default_factory=list)  # seconds per decision

    @property
    def hands(self) -> int:
        return len(self.net)

    def per_100(self) -> tuple[float, float, float]:
        """Chips won per 100 hands with a 95% confidence interval (normal approximation)."""
        return mean_ci([100 * x for x in self.net])

    @property
    def showdown_rate(self) -> float:
        return self.showdowns / self.hands if self.hands else 0.0


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and the bounds of its 95% confidence interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    variance = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = 1.96 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


@dataclass
class SimResult:
    variant: Variant
    players: list[PlayerStats]
    hands: int = 0
    showdowns: int = 0
    split: dict[str, int] = field(default_factory=dict)  # main pot: category split
    void: dict[str, int] = field(default_factory=dict)  # main pot: nobody qualified
    redraw_hands: int = 0  # hands that reached a street with redraws
    redraws_cut: int = 0  # ... where the pool gave fewer cards than the cap allowed
    pots: list[int] = field(default_factory=list)

    @property
    def average_pot(self) -> float:
        return sum(self.pots) / len(self.pots) if self.pots else 0.0

    def rate(self, counts: dict[str, int], category: str) -> float:
        return counts.get(category, 0) / self.showdowns if self.showdowns else 0.0


def simulate(variant: Variant, bots: Sequence[tuple[str, Bot]], hands: int, seed: int,
             *, progress: Callable[[int], None] | None = None,
             stakes: Stakes | None = None) -> SimResult:
    """Play ``hands`` hands between ``bots`` (name, bot) seated in order."""
    stakes = stakes or default_stakes(variant)
    count = len(bots)
    if not 2 <= count <= variant.max_players:
        raise ValueError(f"{variant.name} deals to 2 to {variant.max_players} players, "
                         f"not {count}")
    dealer = random.Random(seed)
    result = SimResult(variant, [PlayerStats(name, bot.style) for name, bot in bots])
    stacks = [STARTING_STACK] * count
    for number in range(hands):
        for seat in range(count):
            if stacks[seat] < BIG_BLIND:
                stacks[seat] = STARTING_STACK
                result.players[seat].rebuys += 1
        hand = Hand(variant, stakes, stacks, number % count, rng=dealer,
                    manual_allocation=variant.has_allocation)
        _play(hand, bots, result)
        _record(hand, result)
        stacks = list(hand.stacks)
        if progress is not None:
            progress(number + 1)
    return result


def _play(hand: Hand, bots: Sequence[tuple[str, Bot]], result: SimResult) -> None:
    while not hand.is_over:
        seats = hand.allocation_pending if hand.is_allocating else (hand.actor,)
        if not seats or seats[0] is None:
            raise RuntimeError("the hand waits for nobody")  # pragma: no cover
        for seat in seats:
            assert seat is not None
            started = time.perf_counter()
            action = bots[seat][1].respond(view_for(hand, seat))
            result.players[seat].decisions.append(time.perf_counter() - started)
            if action is None:
                raise RuntimeError(f"bot at seat {seat} did not answer")  # pragma: no cover
            hand.apply(seat, action)


def _record(hand: Hand, result: SimResult) -> None:
    result.hands += 1
    for seat, stats in enumerate(result.players):
        stats.net.append(hand.stacks[seat] - hand.starting_stacks[seat])
    result.pots.append(sum(r.pot.amount for r in hand.results))
    if hand.shown:
        result.showdowns += 1
        for seat, showed in hand.shown.items():
            if showed or hand.live[seat]:
                result.players[seat].showdowns += 1
        main = hand.results[0]
        for category in main.categories:
            winners = category.winners
            if not winners:
                result.void[category.name] = result.void.get(category.name, 0) + 1
            elif len(winners) > 1:
                result.split[category.name] = result.split.get(category.name, 0) + 1
            for seat in winners:
                points = result.players[seat].points
                points[category.name] = points.get(category.name, Fraction(0)) + Fraction(
                    1, len(winners))
    _count_redraws(hand, result)


def _count_redraws(hand: Hand, result: SimResult) -> None:
    """Whether a redraw street gave fewer cards than its cap allowed (RULES.md s.3)."""
    caps = {street.name: street.redraw_cap for street in hand.variant.streets
            if street.redraw_cap}
    if not caps:
        return
    received = 0
    street: str | None = None
    given: dict[str, int] = {}
    reached: list[str] = []
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street = event.street
            if street in caps:
                reached.append(street)
        elif isinstance(event, ev.Redrawn) and street is not None:
            given.setdefault(street, len(event.cards))  # everybody gets the same number
    if not reached:
        return
    result.redraw_hands += 1
    cut = False
    for name in reached:
        cap = caps[name]
        n = given.get(name, 0)
        if received + n < cap:
            cut = True
        received += n
    if cut:
        result.redraws_cut += 1
