"""``Table.hand_turn``: whether a seat has something to do, as its view says, without the view
(the bots' drivers ask it at every change of their table); and the view a bot decides from,
the seat's view without its pills."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from table_helpers import make_table, passive_step, start_hand

from boardroom.table import Table


def _view_says(table: Table, seat: int) -> bool:
    view = table.hand_view(seat)
    return view is not None and view.viewer is not None and not view.is_over and (
        (view.allocating and view.viewer in view.allocation_pending)
        or view.viewer in view.runs_pending
        or (view.legal is not None and view.actor == view.viewer))


def _moves(game: str, seed: int, hands: int) -> Iterator[Table]:
    """A table of four players of ``game`` playing ``hands`` hands passively: the table before
    each move, and once after each hand (its hand over)."""
    table, clock = make_table(4, seed=seed, game=game)
    for _ in range(hands):
        start_hand(table, clock)
        hand = table.hand
        assert hand is not None
        while table.hand is hand:
            yield table
            passive_step(table)
        yield table


@pytest.mark.parametrize("game", ["plo", "esg", "allocator-redraw", "razz", "badugi"])
def test_hand_turn_says_what_each_seats_view_says(game: str) -> None:
    steps = 0
    for table in _moves(game, seed=3, hands=3):
        if table.hand is None:  # between hands: nobody has anything to do
            assert not any(table.hand_turn(seat) for seat in range(4))
            continue
        for seat in range(4):
            assert table.hand_turn(seat) == _view_says(table, seat), (game, seat, steps)
        steps += 1
    assert steps > 10


@pytest.mark.parametrize("game", ["plo", "allocator-redraw", "stud-hilo"])
def test_a_view_without_pills_is_the_seats_view_but_its_pills(game: str) -> None:
    steps = 0
    for table in _moves(game, seed=5, hands=2):
        if table.hand is None:
            continue
        for seat in (*range(4), None):
            view = table.hand_view(seat)
            assert view is not None
            assert table.hand_view(seat, pills=False) == replace(view, pills=()), (game, seat)
            steps += bool(view.pills)
    assert steps > 10  # seats' views had pills to leave out
