"""One seat numbering: a hand dealt to seats 1, 3 and 4 names them 1, 3 and 4 in its events, its
views, its refusals and its record, its button included; a table stored before (its hand's
players, or its button alone, named 0, 1, 2, by their position in the hand) still recovers, card
for card."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from table_helpers import FakeClock, actor_seat, play_passively, start_hand

from boardroom.engine import Call, Check
from boardroom.engine import events as ev
from boardroom.table import HAND, Table, TableError, TableSettings, history_for

SEATS = (1, 3, 4)


def _table(game: str = "plo") -> tuple[Table, FakeClock]:
    clock = FakeClock()
    table = Table(TableSettings(game=game, pause_between_hands=2.0).check(), clock=clock,
                  rng=random.Random(4))
    for seat in SEATS:
        table.sit(seat, f"player-{seat}", f"P{seat}")
    start_hand(table, clock)
    return table, clock


def _seats_named(event: ev.Event) -> set[int]:
    named: set[int] = set()
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name == "seat":
            named.add(value)
        elif field.name in ("seats", "eligible"):
            named.update(value)
        elif field.name in ("shares", "stacks", "allocations"):
            named.update(seat for seat, _ in value)
    return named


def test_hand_events_views_and_refusals_name_table_seats() -> None:
    table, _ = _table()
    hand = table.hand
    assert hand is not None
    assert table.hand_seats == SEATS
    for seat in (None, *SEATS):
        view = table.hand_view(seat)
        assert view is not None
        assert view.viewer == seat
        assert [s.seat for s in view.seats] == list(SEATS)
        assert view.button in SEATS
        assert view.actor == actor_seat(table)
        if seat is not None:
            assert all(card is not None for card in view.seat_view(seat).cards)
    turn = table.public_state()["turn"]
    assert turn["seat"] == actor_seat(table) == hand.seat_to_act
    legal = table.hand_view(actor_seat(table)).legal  # type: ignore[union-attr]
    assert legal is not None
    assert legal.seat == actor_seat(table)
    facing = actor_seat(table)  # the big blind is posted: a check is refused, naming the seat
    with pytest.raises(TableError, match=f"^seat {facing} cannot check facing a bet of 2"):
        table.act(facing, Check())
    play_passively(table)
    published = [e for e in table.drain() if e.kind == HAND]
    assert published
    for event in published:
        assert event.truth is not None
        assert _seats_named(event.truth) <= set(SEATS)
        for viewer, seen in (event.views or {}).items():
            assert viewer is None or viewer in SEATS
            assert _seats_named(seen) <= set(SEATS)
    ended = next(e.truth for e in published if isinstance(e.truth, ev.HandEnded))
    assert isinstance(ended, ev.HandEnded)
    assert {seat: table.seats[seat].stack for seat, _ in ended.stacks} == dict(ended.stacks)
    record = table.last_record
    assert record is not None
    assert record["numbering"] == "table seats and button"
    assert {seat for seat, *_ in record["actions"]} <= set(SEATS)
    assert record["button"] == table.button == view.button


def test_a_hand_history_keeps_phh_numbering_and_names_the_table_seats() -> None:
    table, _ = _table()
    play_passively(table)
    record = table.last_record
    assert record is not None
    written = history_for(table.settings, record, "player-3")
    assert sorted(written["seats"]) == [1, 2, 3]  # PHH's own numbering, not the table's
    assert sorted(written["_table_seats"]) == list(SEATS)
    assert written["players"] == [f"P{seat}" for seat in written["_table_seats"]]


def _button_by_position(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as stored before its button was a seat: the button by its position."""
    old = copy.deepcopy(record)
    old["numbering"] = "table seats"
    old["button"] = old["seats"].index(old["button"])
    return old


def _by_position(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as stored before the one numbering: players by their position in the hand."""
    old = _button_by_position(record)
    del old["numbering"]
    seats = old["seats"]
    old["actions"] = [[seats.index(seat), *rest] for seat, *rest in old["actions"]]
    if "shown_after" in old:
        old["shown_after"] = {str(seats.index(int(seat))): cards
                              for seat, cards in old["shown_after"].items()}
    return old


@pytest.mark.parametrize("older", [_by_position, _button_by_position])
def test_a_table_stored_before_the_one_numbering_recovers_mid_hand(older: Any) -> None:
    table, clock = _table()
    for _ in range(2):
        legal = table.hand.legal_actions()  # type: ignore[union-attr]
        table.act(actor_seat(table), Check() if legal is not None and legal.check else Call())
    state = json.loads(json.dumps(table.to_state()))
    old = dict(state, hand=older(state["hand"]))
    assert old["hand"]["button"] != state["hand"]["button"]  # a position, not a seat
    restored = Table.from_state(table.settings, old, clock=clock, rng=random.Random(9))
    assert restored.hand is not None
    assert table.hand is not None
    assert restored.hand.events == table.hand.events
    assert restored.hand_actions == table.hand_actions
    for seat in (None, *SEATS):
        assert restored.hand_view(seat) == table.hand_view(seat)
    assert restored.public_state()["turn"] == table.public_state()["turn"]
    play_passively(restored)
    play_passively(table)
    assert {n: s.stack for n, s in restored.seats.items()} == \
        {n: s.stack for n, s in table.seats.items()}


@pytest.mark.parametrize("older", [_by_position, _button_by_position])
def test_a_finished_hand_stored_before_the_one_numbering_reads_the_same(older: Any) -> None:
    table, clock = _table()
    play_passively(table)
    state = json.loads(json.dumps(table.to_state()))
    record = dict(state["last_record"], shown_after={str(SEATS[2]): ["As", "Kd"]})
    old = older(record)
    assert old["button"] == record["seats"].index(record["button"])
    restored = Table.from_state(table.settings, dict(state, last_record=old), clock=clock,
                                rng=random.Random(9))
    assert restored.last_record == record
    for player in (None, "player-1", "player-3", "player-4"):
        assert history_for(table.settings, old, player) == \
            history_for(table.settings, record, player)
