"""Shared helpers for the table tests: a clock the test moves, a table with seated players."""

from __future__ import annotations

import random
from typing import Any

from boardroom.cards import Card, format_cards
from boardroom.engine import BringIn, Call, Check, Draw
from boardroom.engine.events import BoardDealt, HandShown, HoleDealt
from boardroom.table import HAND, Table, TableEvent, TableSettings


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_table(players: int = 3, seed: int = 1, **settings: Any) -> tuple[Table, FakeClock]:
    """A table with ``players`` seated in seats 0.. and the pause before the first hand over."""
    clock = FakeClock()
    options: dict[str, Any] = {"game": "plo", "pause_between_hands": 2.0, **settings}
    table = Table(TableSettings(**options).check(), clock=clock, rng=random.Random(seed))
    for seat in range(players):
        table.sit(seat, f"player-{seat}", f"P{seat}")
    return table, clock


def start_hand(table: Table, clock: FakeClock) -> None:
    deadline = table.next_deadline()
    assert deadline is not None
    clock.now = max(clock.now, deadline)
    table.tick()


def kinds(events: list[TableEvent]) -> list[str]:
    return [event.kind for event in events]


def actor_seat(table: Table) -> int:
    assert table.hand is not None
    assert table.hand.seat_to_act is not None
    return table.hand.seat_to_act


def allocate_all(table: Table) -> None:
    """Allocator games: every pending seat commits the engine's suggestion."""
    hand = table.hand
    assert hand is not None
    for seat in hand.seats_to_allocate:
        best = hand.suggest_allocation(seat)
        table.allocate(seat, {name: format_cards(cards) for name, cards in best.items()})
        if table.hand is not hand:
            return


def answer_runs(table: Table, runs: int = 1) -> None:
    """Every player offered to run it more than once answers ``runs``."""
    hand = table.hand
    assert hand is not None
    for seat in hand.seats_choosing_runs:
        table.choose_runs(seat, runs)


def play_passively(table: Table) -> None:
    """Check or call (allocate, and run an all-in once) until the hand is over."""
    while table.hand is not None:
        passive_step(table)


def passive_step(table: Table) -> None:
    """One passive move of the hand in play: every pending allocation (the engine's
    suggestion), every answer to a run offer (once), or the actor's check, call, bring-in or
    pat draw."""
    hand = table.hand
    assert hand is not None
    if hand.is_allocating:
        allocate_all(table)
    elif hand.is_choosing_runs:
        answer_runs(table)
    else:
        legal = hand.legal_actions()
        assert legal is not None
        table.act(actor_seat(table), Draw() if legal.draw is not None  # stand pat
                  else Check() if legal.check else BringIn() if legal.bring_in is not None
                  else Call())


def cards_seen(event: TableEvent, seat: int | None) -> set[Card]:
    """Every card a hand event shows to table ``seat``."""
    view = event.view_for(seat)
    if isinstance(view, HoleDealt | HandShown):
        return {card for card in view.cards if card is not None}
    if isinstance(view, BoardDealt):
        return set(view.cards)
    return set()


def hand_events(events: list[TableEvent]) -> list[TableEvent]:
    return [event for event in events if event.kind == HAND]
