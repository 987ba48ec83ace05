"""Clocks: the pause between hands, the pick clock, the action clock and time banks, and
pausing the table (every deadline moves by the time it was paused)."""

from __future__ import annotations

from boardroom.table import runs
from boardroom.table.base import BETWEEN, CLOSED, DEALING, PICKING, SeatState, TableBase
from boardroom.table.settings import TableError


class Clocks(TableBase):
    """Deadlines and pausing."""

    __slots__ = ()

    def next_deadline(self) -> float | None:
        """When ``tick()`` has something to do next (None: nothing until a command)."""
        if self.paused or self.phase == CLOSED:
            return None
        if self.phase in (BETWEEN, PICKING):
            return self.deadline
        if self.phase == DEALING:
            return self.turn_deadline
        return None

    def pause(self) -> None:
        self._check_open()
        if self.paused:
            raise TableError("the table is already paused")
        self.paused, self.paused_at = True, self.clock()
        self._emit("paused", {})

    def resume(self) -> None:
        self._check_open()
        if not self.paused or self.paused_at is None:
            raise TableError("the table is not paused")
        stopped = self.clock() - self.paused_at
        self.paused, self.paused_at = False, None
        if self.deadline is not None:
            self.deadline += stopped
        if self.turn_deadline is not None and self.turn_started is not None:
            self.turn_deadline += stopped
            self.turn_started += stopped
        self._emit("resumed", {"deadline": self.deadline, "turn_deadline": self.turn_deadline})
        if self.hand is not None:
            self._after_change()  # a seat that left while paused folds now

    def _spend_clock(self, state: SeatState) -> None:
        if self.turn_started is not None:
            over = self.clock() - self.turn_started - self.settings.action_clock
            if over > 0:
                state.time_bank = max(0.0, state.time_bank - over)

    def _start_runs_clock(self) -> None:
        """The offer to run it more than once: its seats, the most runs and a short clock,
        started once (each answer announces the seats still to answer)."""
        hand = self.hand
        assert hand is not None
        if not self._allocation_clock:  # (the one phase clock: no allocation runs twice)
            self._allocation_clock = True
            self.turn_started = self.clock()
            self.turn_deadline = self.turn_started + runs.runs_clock(self.settings)
        self._emit("choosing_runs", {"seats": list(hand.seats_choosing_runs),
                                     "most": hand.runs_most, "deadline": self.turn_deadline})

    def _start_allocation_clock(self) -> None:
        hand = self.hand
        assert hand is not None
        pending = list(hand.seats_to_allocate)
        if self._allocation_clock:
            self._emit("allocating", {"seats": pending, "deadline": self.turn_deadline})
            return
        self._allocation_clock = True
        self.turn_started = self.clock()
        self.turn_deadline = self.turn_started + self.settings.action_clock
        self._emit("allocating", {"seats": pending, "deadline": self.turn_deadline})
