"""The draw games at a table: a seat throws cards by name or stands pat, a clock that runs out
stands pat, others see only how many cards were thrown, and a restart replays every draw."""

from __future__ import annotations

import random

import pytest
from table_helpers import actor_seat, make_table, play_passively, start_hand

from boardroom.cards import format_cards, parse_cards
from boardroom.engine import Call, Check, Draw
from boardroom.engine.actions import record
from boardroom.engine.events import Discarded
from boardroom.engine.view import events_for
from boardroom.table import HAND, Table, TableError


def to_the_draw(table: Table) -> int:
    """Check or call the predraw betting; the seat to draw."""
    assert table.hand is not None
    while (legal := table.hand.legal_actions()) is not None and legal.draw is None:
        table.act(actor_seat(table), Check() if legal.check else Call())
    return actor_seat(table)


def test_a_seat_throws_cards_by_name_and_is_dealt_as_many() -> None:
    table, clock = make_table(players=3, game="27-triple-draw")
    start_hand(table, clock)
    seat = to_the_draw(table)
    hand = table.hand
    assert hand is not None
    before = list(hand.cards(seat))
    thrown = format_cards(before[:2])
    table.drain()
    table.act(seat, Draw(parse_cards(thrown)))
    after = hand.cards(seat)
    assert len(after) == 5
    assert not set(before[:2]) & set(after)
    assert table.hand_actions[-1] == [seat, *record(Draw(tuple(before[:2])))]  # as stored
    # The thrower sees its cards go; every other seat and a spectator, a count of two.
    others = [None, *(s for s in table.hand_seats if s != seat)]
    for viewer in (seat, *others):
        drawn = [e for e in events_for(hand, viewer) if isinstance(e, Discarded)]
        assert len(drawn) == 1
        assert drawn[0].seat == seat
        assert drawn[0].cards == (tuple(before[:2]) if viewer == seat else (None, None))
    assert any(e.kind == HAND for e in table.drain())


def test_a_bad_draw_is_refused_naming_why_and_changes_nothing() -> None:
    table, clock = make_table(players=2, game="badugi")
    start_hand(table, clock)
    seat = to_the_draw(table)
    state = table.to_state()
    held = list(table.hand.cards(seat))  # type: ignore[union-attr]
    other = next(c for c in range(52) if c not in held)
    with pytest.raises(TableError, match=f"^seat {seat} may throw only cards it holds$"):
        table.act(seat, Draw((other,)))
    with pytest.raises(TableError, match=f"^seat {seat} names a card twice in its draw$"):
        table.act(seat, Draw((held[0], held[0])))
    with pytest.raises(TableError, match="it is not your turn"):
        table.act(next(s for s in table.hand_seats if s != seat), Draw())
    assert table.to_state() == state


def test_a_clock_that_runs_out_in_the_draw_stands_pat() -> None:
    table, clock = make_table(players=2, game="five-card-draw", action_clock=10.0, time_bank=0.0)
    start_hand(table, clock)
    seat = to_the_draw(table)
    assert table.hand is not None
    held = list(table.hand.cards(seat))
    clock.advance(10.0)
    table.tick()
    assert table.hand_actions[-1] == [seat, *record(Draw())]
    assert list(table.hand.cards(seat)) == held


def test_a_restart_mid_hand_replays_every_draw() -> None:
    table, clock = make_table(players=3, game="27-triple-draw", seed=5)
    start_hand(table, clock)
    for _ in range(3):  # the first draw, seat by seat: throw one card each
        seat = to_the_draw(table)
        hand = table.hand
        assert hand is not None
        table.act(seat, Draw(hand.cards(seat)[:1]))
    again = Table.from_state(table.settings, table.to_state(), clock=clock,
                             rng=random.Random(9))
    assert again.hand is not None
    assert table.hand is not None
    assert again.hand.hole == table.hand.hole
    assert again.hand_actions == table.hand_actions
    play_passively(again)
    assert again.chips_on_table() == again.balance
