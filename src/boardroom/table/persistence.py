"""A table as plain data for the store (``to_state``) and back (``from_state``): a hand in
progress is dealt again from its deck and its actions replayed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Self

from boardroom.cards import RandomSource
from boardroom.table import fair, rotation, runs
from boardroom.table.base import BETWEEN, HOOKS, PICKING, Clock, SeatState, TableBase
from boardroom.table.record import current, rebuild_hand, stored_action, stored_actions
from boardroom.table.settings import TableSettings

_SEAT_FIELDS = tuple(item.name for item in fields(SeatState))  # a seat's state, in this order


class Persistence(TableBase):
    """The table's stored state."""

    __slots__ = ()

    def hand_record(self) -> dict[str, Any]:
        """The running hand as plain data: its setup (the shuffled deck included), the players
        and every action so far. ``rebuild_hand`` plays it again card for card."""
        return {
            "hand_no": self.hand_no, **self.hand_setup, "seats": list(self.hand_seats),
            "players": [{"seat": s, "player": self.seats[s].player, "name": self.seats[s].name}
                        for s in self.hand_seats],
            "actions": list(self.hand_actions),  # a new list of the recorded ones
        }

    def to_state(self) -> dict[str, Any]:
        """The whole table as JSON-ready data (for the store; it holds the deck: never send).
        Every part is a new value or one the table never changes in place, so a state kept
        stays as it was (``table.changes`` compares one with the next)."""
        return {
            "version": self.version, "hand_no": self.hand_no, "button": self.button,
            "phase": self.phase, "deadline": self.deadline, "paused": self.paused,
            "paused_at": self.paused_at, "closing": self.closing, "balance": self.balance,
            "last_game": list(self.last_game) if self.last_game else None,
            "picker": self.picker, "pick_seats": list(self.pick_seats),
            "rotation": self.rotation_state.to_dict(),
            "seats": {str(n): {name: getattr(seat, name) for name in _SEAT_FIELDS}
                      for n, seat in self.seats.items()},
            "hand": self.hand_record() if self.hand is not None else None,
            "turn_started": self.turn_started, "turn_deadline": self.turn_deadline,
            # a copy: the client seeds come into this dict while it is open
            "fair_next": fair.copy(self.fair_next), "last_record": self.last_record,
            "managed": self.managed,
        }

    @classmethod
    def from_state(cls, settings: TableSettings, state: Mapping[str, Any], *, clock: Clock,
                   rng: RandomSource | None = None, room: str = "",
                   keep_clocks: bool = False) -> Self:
        """A table as ``to_state`` left it; a hand in progress is dealt again from its deck and
        its actions replayed. After a restart clocks start afresh (the time the server was down
        is not charged to anyone), so a hand or a pick resumes with a full action clock. The
        pause between hands is nobody's clock: it resumes with what was left of it
        (``_pause_left``), so a restart or a failover in its middle does not wait it again. With
        ``keep_clocks`` (a running server going back to its last commit after a failed command)
        every deadline stays as it was, so a failure never hands anyone a fresh clock."""
        table = cls(settings, clock=clock, rng=rng, room=room,
                    managed=bool(state.get("managed", False)))
        table.fair_next = state.get("fair_next")
        last = state.get("last_record")
        table.last_record = current(last) if last is not None else None
        table.seats = {int(n): SeatState(**{k: v for k, v in seat.items() if k in _SEAT_FIELDS})
                       for n, seat in state["seats"].items()}
        table.version, table.hand_no = state["version"], state["hand_no"]
        table.button, table.phase = state["button"], state["phase"]
        table.paused, table.closing = state["paused"], state["closing"]
        table.balance = state["balance"]
        table.last_game = (state["last_game"][0], dict(state["last_game"][1])) \
            if state["last_game"] else None
        table.picker, table.pick_seats = state["picker"], tuple(state["pick_seats"])
        table.rotation_state = rotation.RotationState.from_dict(state.get("rotation"))
        now = clock()
        table.paused_at = now if table.paused else None
        if table.phase == BETWEEN:
            table.deadline = now + _pause_left(settings, state, now)
        elif table.phase == PICKING:
            table.deadline = now + settings.pick_clock
        record = state["hand"]
        if record is not None:
            record = current(record)
            table.hand = rebuild_hand(settings, record)
            table.hand_setup = {key: record[key] for key in
                                ("game", "options", "stakes", "stacks", "button", "deck", "fair",
                                 "numbering", *HOOKS) if key in record}
            table.hand_actions = [stored_action(seat, action)
                                  for seat, action in stored_actions(record)]
            table._published = len(table.hand.events)
            if table.hand.is_allocating or table.hand.is_choosing_runs:
                table._allocation_clock = True
                table.turn_started = now
                table.turn_deadline = now + (runs.runs_clock(settings)
                                             if table.hand.is_choosing_runs
                                             else settings.action_clock)
            elif table.hand.seat_to_act is not None:
                table.turn_started = now
                bank = table.seats[table.hand.seat_to_act].time_bank
                table.turn_deadline = now + settings.action_clock + bank
        if keep_clocks:
            table.deadline, table.paused_at = state["deadline"], state["paused_at"]
            table.turn_started, table.turn_deadline = state["turn_started"], state["turn_deadline"]
        return table


def _pause_left(settings: TableSettings, state: Mapping[str, Any], now: float) -> float:
    """Seconds left of a stored table's pause between hands: its stored deadline less the
    moment it counted from (when the host paused the table, else now), from none (it ran out
    while the server was down: the next hand is dealt at once) to a whole pause (a deadline
    further off was written by a worker whose clock runs ahead of this one's)."""
    whole = settings.pause_between_hands
    deadline = state.get("deadline")
    if deadline is None:
        return whole
    paused_at = state.get("paused_at")
    since = paused_at if state.get("paused") and paused_at is not None else now
    return min(whole, max(0.0, float(deadline) - float(since)))
