"""The table's side of fair deals: the commitment before the hand, the players' seeds in their
window, the revealed history, crash recovery from the seeds, and no seed in any message."""

from __future__ import annotations

import hashlib
import json
import random

import fair_hands  # noqa: F401  (puts the table tests' helpers on the path)
import pytest
from table_helpers import actor_seat, kinds, make_table, play_passively, start_hand

from boardroom.engine import Call, Check, Fold
from boardroom.engine.events import HoleDealt
from boardroom.fairness import FIELD, check_history
from boardroom.table import Table, TableError, history_for
from boardroom.table.events import TableEvent


def _payloads(events: list[TableEvent], seats: range) -> str:
    """Everything these events send to anyone: public data and every viewer's hand event."""
    sent = [e.data for e in events]
    sent += [repr(e.view_for(seat)) for e in events for seat in [None, *seats]]
    return json.dumps(sent, default=repr)


def test_the_commitment_comes_before_the_seeds_and_the_history_reveals_its_seed() -> None:
    table, clock = make_table(players=3)
    events = table.drain()
    commitment = next(e for e in events if e.kind == "fair_commitment")
    assert kinds(events).index("fair_commitment") < kinds(events).index("next_hand")
    assert commitment.data["hand_no"] == 1
    assert table.public_state()["fair"] == {"hand_no": 1, "seeded": [], "open": True,
                                            "commitment": commitment.data["commitment"]}
    table.client_seed(0, 1, "ABCDEF")
    table.client_seed(2, 1, "01")
    table.client_seed(2, 1, "02")  # the last one before the deal counts
    assert table.public_state()["fair"]["seeded"] == [0, 2]
    start_hand(table, clock)
    started = next(e for e in table.drain() if e.kind == "hand_started")
    assert started.data["commitment"] == commitment.data["commitment"]
    assert started.data["server_made"] == [1]
    assert table.public_state()["fair"]["open"] is False
    with pytest.raises(TableError, match="seeds are open for no hand now, not hand 1"):
        table.client_seed(1, 1, "ab")  # the deal is done: too late
    play_passively(table)
    record = next(e for e in table.drain() if e.kind == "hand_ended").private
    assert record is not None
    history = history_for(table.settings, record, None)
    fields = history[FIELD]
    assert hashlib.sha256(bytes.fromhex(fields["server_seed"])).hexdigest() == \
        commitment.data["commitment"]
    by_seat = dict(zip(history["_table_seats"], fields["client_seeds"], strict=True))
    made = dict(zip(history["_table_seats"], fields["server_made"], strict=True))
    assert (by_seat[0], by_seat[2]) == ("abcdef", "02")
    assert made == {0: False, 1: True, 2: False}
    assert len(by_seat[1]) == 64
    assert check_history(history) > 0
    assert table.public_state()["fair"]["hand_no"] == 2  # the next commitment is already out


def test_seeds_outside_their_window_or_malformed_are_refused_by_name() -> None:
    table, _ = make_table(players=1)
    with pytest.raises(TableError, match="seeds are open for no hand now, not hand 1"):
        table.client_seed(0, 1, "ab")  # one player: no hand is coming, no commitment
    table.sit(1, "player-1", "P1")
    with pytest.raises(TableError, match="seeds are open for hand 1 now, not hand 2"):
        table.client_seed(0, 2, "ab")
    for bad in ("", "not hex", "a" * 65):
        with pytest.raises(TableError, match="a client seed is 1 to 64 hex digits"):
            table.client_seed(0, 1, bad)
    with pytest.raises(TableError, match="seat 4 is empty"):
        table.client_seed(4, 1, "ab")


def test_a_seed_waiting_for_approval_is_refused() -> None:
    table, _ = make_table(players=2, seat_approval=True)
    for seat in (0, 1):
        table.approve(seat)
    table.sit(2, "player-2", "P2")
    with pytest.raises(TableError, match="waiting for the host's approval"):
        table.client_seed(2, 1, "ab")


def test_no_seed_reaches_anyone_before_the_hand_ends() -> None:
    table, clock = make_table(players=3, seed=4)
    sent = {seat: random.Random(seat).randbytes(32).hex() for seat in range(3)}
    for seat, seed in sent.items():
        table.client_seed(seat, 1, seed)
    start_hand(table, clock)
    pending = table.public_state()
    table.act(actor_seat(table), Fold())
    play_passively(table)
    events = table.drain()
    record = next(e for e in events if e.kind == "hand_ended").private
    assert record is not None
    secrets_ = {record["fair"]["server_seed"], *sent.values()}
    assert set(record["fair"]["client_seeds"]) == set(sent.values())
    text = _payloads(events, range(3)) + json.dumps(pending) + json.dumps(table.public_state())
    assert [s for s in secrets_ if s in text] == []
    assert any(isinstance(e.truth, HoleDealt) for e in events)  # the events were real


def test_a_restored_table_keeps_the_commitment_the_seeds_and_the_deal() -> None:
    def run(restart_between: bool, restart_mid_hand: bool) -> dict[str, object]:
        table, clock = make_table(players=3, seed=8, game="esg", starting_stack=500)
        for seat in range(3):  # (a seed the server makes is made at the deal, so send them all)
            table.client_seed(seat, 1, f"c0ffee{seat}")
        if restart_between:
            table = Table.from_state(table.settings, json.loads(json.dumps(table.to_state())),
                                     clock=clock, rng=random.Random(1), room=table.room)
        start_hand(table, clock)
        for _ in range(4):
            assert table.hand is not None
            legal = table.hand.legal_actions()
            assert legal is not None
            table.act(actor_seat(table), Call() if legal.call is not None else Check())
        if restart_mid_hand:
            table = Table.from_state(table.settings, json.loads(json.dumps(table.to_state())),
                                     clock=clock, rng=random.Random(2), room=table.room)
        play_passively(table)
        ended = [e for e in table.drain() if e.kind == "hand_ended"][-1]
        assert ended.private is not None
        return history_for(table.settings, ended.private, None)

    straight = run(False, False)
    assert run(True, False) == straight
    assert run(False, True) == straight
    assert check_history(straight) > 10
