"""Run it twice at a table (issue 15): the offer is published with its seats and a short
clock, each player answers with ``choose_runs``, a clock that runs out answers once, a player
leaving answers once, a restart mid-offer goes on, and the host can switch it off."""

from __future__ import annotations

import pytest
from table_helpers import actor_seat, make_table, start_hand

from boardroom.engine import Call, Check, RaiseTo
from boardroom.engine import events as ev
from boardroom.table import Table, TableError
from boardroom.table.runs import RUNS_CLOCK


def _all_in(table: Table, street: int = 1) -> None:
    while table.hand is not None and not table.hand.is_choosing_runs:
        hand = table.hand
        legal = hand.legal_actions()
        assert legal is not None
        seat = actor_seat(table)
        if hand.street_index >= street and legal.raise_max is not None:
            table.act(seat, RaiseTo(legal.raise_max))
        else:
            table.act(seat, Check() if legal.check else Call())


def _offer(game: str = "esg", players: int = 3, **settings: object) -> tuple[Table, object]:
    table, clock = make_table(players, game=game, **settings)
    start_hand(table, clock)
    _all_in(table)
    return table, clock


def test_the_offer_is_published_with_its_seats_and_a_short_clock() -> None:
    table, clock = _offer()
    assert table.hand is not None
    offers = [e for e in table.drain() if e.kind == "choosing_runs"]
    assert set(offers[-1].data["seats"]) == {0, 1, 2}
    assert offers[-1].data["most"] == 3
    assert offers[-1].data["deadline"] == clock.now + min(RUNS_CLOCK, 30.0)  # type: ignore[attr-defined]
    table.choose_runs(0, 2)
    again = [e for e in table.drain() if e.kind == "choosing_runs"]
    assert set(again[-1].data["seats"]) == {1, 2}
    assert again[-1].data["deadline"] == offers[-1].data["deadline"]  # one clock for the offer
    table.choose_runs(1, 2)
    table.choose_runs(2, 3)
    assert table.hand is None
    assert table._last_hand is not None
    assert table._last_hand.run_count == 2
    assert sum(table.chips_of(seat) for seat in range(3)) == 600


def test_a_clock_that_runs_out_runs_it_once() -> None:
    table, clock = _offer()
    table.choose_runs(0, 2)
    deadline = table.next_deadline()
    assert deadline is not None
    clock.now = deadline  # type: ignore[attr-defined]
    table.tick()
    assert table.hand is None
    hand = table._last_hand
    assert hand is not None
    assert hand.run_count == 1
    chosen = [e for e in hand.events if isinstance(e, ev.RunsChosen)]
    assert [(e.runs, e.automatic) for e in chosen] == [(2, False), (1, True), (1, True)]


def test_a_player_leaving_during_the_offer_runs_it_once() -> None:
    table, _ = _offer()
    table.leave(2)
    assert table.hand is not None
    assert table.hand_view(None).run_choices == ((2, 1),)  # type: ignore[union-attr]
    table.choose_runs(0, 2)
    table.choose_runs(1, 2)
    assert table._last_hand is not None
    assert table._last_hand.run_count == 1


def test_a_restart_mid_offer_keeps_the_answers_and_the_runs_deal_the_same() -> None:
    table, clock = _offer("plo")
    table.choose_runs(0, 3)
    restored = Table.from_state(table.settings, table.to_state(), clock=clock)  # type: ignore[arg-type]
    assert restored.hand is not None
    assert restored.hand.is_choosing_runs
    assert restored.next_deadline() is not None
    for seat in (1, 2):
        table.choose_runs(seat, 3)
        restored.choose_runs(seat, 3)
    assert table._last_hand is not None
    assert restored._last_hand is not None
    assert [r.boards for r in restored._last_hand.runs] == [r.boards for r in
                                                             table._last_hand.runs]
    assert restored._last_hand.stacks == table._last_hand.stacks


def test_the_host_can_switch_it_off() -> None:
    table, clock = make_table(3, game="esg", run_it_twice=False)
    start_hand(table, clock)
    _all_in(table)
    assert table.hand is None
    assert table._last_hand is not None
    assert not [e for e in table._last_hand.events if isinstance(e, ev.RunsOffered)]


def test_answers_out_of_place_are_refused_by_name() -> None:
    table, _ = _offer()
    with pytest.raises(TableError, match="seat 5 is not in a hand"):
        table.choose_runs(5, 2)
    with pytest.raises(TableError, match="may run it 1 to 3 times, not 0"):
        table.choose_runs(0, 0)
