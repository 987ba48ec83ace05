"""Managed tables (a tournament's): seated and dealt by their director, never on their own; a
planned hand's dead small blind and big-blind ante, its history's tournament tags, its chips."""

from __future__ import annotations

import random

import pytest
import tomli_w
from table_helpers import FakeClock

from boardroom.engine import Fold, Stakes
from boardroom.engine import events as ev
from boardroom.engine.history import replay_text
from boardroom.table import Table, TableError, TableSettings
from boardroom.table.history import history_for

TAGS = {"id": "t1", "name": "Sunday", "level": 3, "table": 2}


def _managed(seed: int = 1) -> tuple[Table, FakeClock]:
    clock = FakeClock()
    table = Table(TableSettings(game="plo", max_seats=6).check(), clock=clock,
                  rng=random.Random(seed), managed=True)
    for seat, stack in ((0, 500), (2, 300), (4, 200)):
        table.place(seat, f"p{seat}", f"P{seat}", stack, "draw")
    return table, clock


def test_a_managed_table_never_deals_on_its_own_and_deals_the_plan() -> None:
    table, clock = _managed()
    clock.advance(3600)
    table.tick()
    assert table.hand is None
    assert table.next_deadline() is None
    stakes = Stakes(small_blind=10, big_blind=20, ante=5)
    table.deal_planned((0, 2, 4), 0, "plo", {}, stakes, stacks={0: 500, 2: 300, 4: 200},
                       dead_small_blind=True, big_blind_ante=True, tags=TAGS)
    hand = table.hand
    assert hand is not None
    posts = [(e.seat, e.amount) for e in hand.events
             if isinstance(e, ev.BlindPosted | ev.AntePosted)]
    assert posts == [(2, 20), (2, 5)]  # the big blind (table seat 2) alone: blind then ante
    while table.hand is not None:
        table.act(table.hand.seat_to_act, Fold())  # type: ignore[arg-type]
    assert table.chips_on_table() == table.balance == 1000
    assert all(state.status == "playing" for state in table.seats.values())
    record = table.last_record
    assert record is not None
    written = history_for(table.settings, record, None)
    assert (written["_tournament"], written["_level"], written["_table"]) == ("t1", 3, 2)
    assert written["_dead_small_blind"] == 10
    again = replay_text(tomli_w.dumps(written))
    assert again.dead_small_blind
    assert again.big_blind_ante
    # The state keeps the table managed across a restart.
    restored = Table.from_state(table.settings, table.to_state(), clock=clock)
    assert restored.managed


def test_a_managed_table_refuses_what_its_director_did_not_plan() -> None:
    table, _ = _managed()
    stakes = Stakes(small_blind=10, big_blind=20)
    with pytest.raises(TableError, match="seat 2 holds 300 chips, the plan says 250"):
        table.deal_planned((0, 2, 4), 0, "plo", {}, stakes, stacks={0: 500, 2: 250, 4: 200})
    with pytest.raises(TableError, match="two or more seated players"):
        table.deal_planned((0, 1), 0, "plo", {}, stakes, stacks={0: 500, 1: 0})
    with pytest.raises(TableError, match="seat 2 is taken"):
        table.place(2, "p9", "P9", 100, "balance")
    with pytest.raises(TableError, match="1 chip or more"):
        table.place(3, "p9", "P9", 0, "balance")
    table.deal_planned((0, 2, 4), 4, "plo", {}, stakes, stacks={0: 500, 2: 300, 4: 200})
    with pytest.raises(TableError, match="in hand 1"):
        table.unseat(2, "balance")
    with pytest.raises(TableError, match="still being played"):
        table.deal_planned((0, 2, 4), 4, "plo", {}, stakes, stacks={0: 500, 2: 300, 4: 200})
    cash = Table(TableSettings().check(), clock=FakeClock())
    with pytest.raises(TableError, match="only a tournament table"):
        cash.place(0, "p0", "P0", 100, "draw")


def test_unseating_takes_the_chips_away_through_the_ledger() -> None:
    table, _ = _managed()
    table.drain()
    assert table.unseat(4, "balance") == 200
    events = table.drain()
    assert [(e.kind, e.data.get("entry"), e.data.get("amount")) for e in events] == [
        ("chips", "transfer-out", -200), ("left", None, None)]
    assert table.balance == table.chips_on_table() == 800
