"""``Table.hand_turn``: whether a seat has something to do, as its view says, without the view
(the bots' drivers ask it at every change of their table); and the view a bot decides from,
the seat's view without its pills."""

from __future__ import annotations

from dataclasses import replace

import pytest
from table_helpers import actor_seat, allocate_all, answer_runs, make_table, start_hand

from boardroom.engine import BringIn, Call, Check, Draw
from boardroom.table import Table


def _view_says(table: Table, seat: int) -> bool:
    view = table.hand_view(seat)
    return view is not None and view.viewer is not None and not view.is_over and (
        (view.allocating and view.viewer in view.allocation_pending)
        or view.viewer in view.runs_pending
        or (view.legal is not None and view.actor == view.viewer))


@pytest.mark.parametrize("game", ["plo", "esg", "allocator-redraw", "razz", "badugi"])
def test_hand_turn_says_what_each_seats_view_says(game: str) -> None:
    table, clock = make_table(4, seed=3, game=game)
    steps = 0
    for _ in range(3):
        start_hand(table, clock)
        hand = table.hand
        assert hand is not None
        while table.hand is hand:
            for seat in range(4):
                assert table.hand_turn(seat) == _view_says(table, seat), (game, seat, steps)
            steps += 1
            if hand.is_allocating:
                allocate_all(table)
            elif hand.is_choosing_runs:
                answer_runs(table)
            else:  # check or call, stand pat
                legal = hand.legal_actions()
                assert legal is not None
                table.act(actor_seat(table), Draw() if legal.draw is not None else Check()
                          if legal.check else BringIn() if legal.bring_in is not None
                          else Call())
        assert not any(table.hand_turn(seat) for seat in range(4))
    assert steps > 10


@pytest.mark.parametrize("game", ["plo", "allocator-redraw", "stud-hilo"])
def test_a_view_without_pills_is_the_seats_view_but_its_pills(game: str) -> None:
    table, clock = make_table(4, seed=5, game=game)
    steps = 0
    for _ in range(2):
        start_hand(table, clock)
        hand = table.hand
        assert hand is not None
        while table.hand is hand:
            for seat in (*range(4), None):
                view = table.hand_view(seat)
                assert view is not None
                assert table.hand_view(seat, pills=False) == replace(view, pills=()), (game, seat)
                steps += bool(view.pills)
            if hand.is_allocating:
                allocate_all(table)
            elif hand.is_choosing_runs:
                answer_runs(table)
            else:
                legal = hand.legal_actions()
                assert legal is not None
                table.act(actor_seat(table), Draw() if legal.draw is not None else Check()
                          if legal.check else BringIn() if legal.bring_in is not None
                          else Call())
    assert steps > 10  # seats' views had pills to leave out
