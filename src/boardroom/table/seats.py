"""Seats: taking one (with the host's approval if required), leaving, sitting out and in;
a tournament's table is seated by its director (``place``, ``unseat``)."""

from __future__ import annotations

from boardroom.table.base import OUT, PENDING, PLAYING, SeatState
from boardroom.table.ledger import Ledger
from boardroom.table.settings import TableError


class Seating(Ledger):
    """The seat commands."""

    __slots__ = ()

    def sit(self, seat: int, player: str, name: str) -> None:
        """``player`` takes empty ``seat`` and buys in (after the host's approval if required)."""
        self._check_open()
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seat_limit:
            raise TableError(f"there is no seat {seat!r}: seats are 0 to {self.seat_limit - 1}")
        if seat in self.seats:
            raise TableError(f"seat {seat} is taken")
        if self.seat_of(player) is not None:
            raise TableError(f"you already sit in seat {self.seat_of(player)}")
        name = name.strip() if isinstance(name, str) else ""
        if not 1 <= len(name) <= 24 or not name.isprintable():
            raise TableError("a name is 1 to 24 printable characters")
        if any(other.name.lower() == name.lower() for other in self.seats.values()):
            raise TableError(f"the name {name!r} is taken at this table")
        self.seats[seat] = SeatState(player, name, time_bank=self.settings.time_bank)
        self._emit("seated", {"seat": seat, "name": name,
                              "pending": self.settings.seat_approval})
        if not self.settings.seat_approval:
            self._buy_in(seat)

    def approve(self, seat: int) -> None:
        """Host: let a pending player take the seat and buy in."""
        state = self._seat(seat)
        if state.status != PENDING:
            raise TableError(f"seat {seat} is not waiting for approval")
        self._buy_in(seat)

    def _buy_in(self, seat: int) -> None:
        state = self.seats[seat]
        state.stack = self.settings.starting_stack
        state.status = PLAYING
        self._chips(seat, "buy-in", self.settings.starting_stack)
        self._maybe_start()

    def leave(self, seat: int, *, kicked: bool = False) -> None:
        """Leave now, or (in a hand) fold at the next turn and leave when the hand ends."""
        state = self._seat(seat)
        if not self.in_hand(seat):
            self._remove(seat, kicked)
            return
        state.leaving, state.kicked = True, kicked
        self._emit("leaving", {"seat": seat, "kicked": kicked})
        if self.hand is not None and not self.paused and (
                self.hand.seat_to_act == seat or seat in self.hand.seats_choosing_runs):
            self._after_change()  # (an offer to run it twice: the leaver runs it once)

    def kick(self, seat: int) -> None:
        """Host: remove a player (folding first when in a hand)."""
        self.leave(seat, kicked=True)

    def sit_out(self, seat: int) -> None:
        state = self._seat(seat)
        if state.status == OUT:
            raise TableError(f"seat {seat} is already sitting out")
        if state.status == PENDING:
            raise TableError(f"seat {seat} is waiting for the host's approval")
        if self.in_hand(seat):
            state.sit_out_next = True  # plays the hand in progress out
            self._emit("sitting_out", {"seat": seat, "next_hand": True})
            return
        state.status = OUT
        self._emit("sitting_out", {"seat": seat, "next_hand": False})

    def sit_in(self, seat: int) -> None:
        state = self._seat(seat)
        if state.sit_out_next:
            state.sit_out_next = False
        elif state.status != OUT:
            raise TableError(f"seat {seat} is not sitting out")
        if state.stack == 0 and not self.in_hand(seat):
            raise TableError(f"seat {seat} has no chips: ask the host for a rebuy")
        state.status = PLAYING
        state.timeouts = 0
        self._emit("sitting_in", {"seat": seat})
        self._maybe_start()

    def straddle_next(self, seat: int, on: bool) -> None:
        """The player's own straddle: ``on``, the seat posts a straddle (twice the big blind)
        the next time a hand is dealt with it in a straddle position the host allows (UTG, or
        UTG and button), and the choice is then used up; ``off`` takes it back. Read when each
        hand is dealt (``table.driver``)."""
        state = self._seat(seat)
        if not isinstance(on, bool):
            raise TableError(f"a straddle choice is true or false, not {on!r}")
        if self.managed:
            raise TableError("a tournament table has no straddles")
        if self.settings.straddle == "off":
            raise TableError("the host allows no straddles at this table")
        if state.straddle_next == on:
            raise TableError(f"seat {seat} {'already straddles' if on else 'has no straddle'} "
                             f"next hand")
        state.straddle_next = on
        self._emit("straddle_next", {"seat": seat, "on": on})

    def _settle_seat(self, seat: int) -> None:
        state = self.seats[seat]
        if self.managed:
            return  # the tournament seats and unseats (an away player is blinded off)
        if state.leaving:
            self._remove(seat, kicked=state.kicked)
            return
        if state.rebuy_approved:
            amount, state.rebuy_approved = state.rebuy_approved, 0
            state.stack += amount
            self._chips(seat, "rebuy", amount)
        if state.sit_out_next or state.stack == 0:
            state.status, state.sit_out_next = OUT, False
            self._emit("sitting_out", {"seat": seat, "next_hand": False,
                                       "busted": state.stack == 0})

    def _remove(self, seat: int, kicked: bool) -> None:
        state = self.seats.pop(seat)
        if state.stack:
            self._chips(seat, "cash-out", -state.stack, state)
        self._emit("left", {"seat": seat, "name": state.name, "kicked": kicked})

    # -- managed tables (tournaments) -------------------------------------------------------

    def _check_managed(self) -> None:
        self._check_open()
        if not self.managed:
            raise TableError("only a tournament table is seated and dealt by its director")

    def place(self, seat: int, player: str, name: str, stack: int, reason: str) -> None:
        """A managed table: ``player`` sits in empty ``seat`` with ``stack`` chips (a ledger
        entry ``transfer-in``), dealt in from the next planned hand."""
        self._check_managed()
        if not isinstance(seat, int) or not 0 <= seat < self.seat_limit:
            raise TableError(f"there is no seat {seat!r}: seats are 0 to {self.seat_limit - 1}")
        if seat in self.seats:
            raise TableError(f"seat {seat} is taken")
        if self.seat_of(player) is not None:
            raise TableError(f"{name} already sits in seat {self.seat_of(player)}")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 1:
            raise TableError(f"a tournament player sits with 1 chip or more, not {stack!r}")
        self.seats[seat] = SeatState(player, name, stack=stack, status=PLAYING,
                                     time_bank=self.settings.time_bank)
        self._emit("seated", {"seat": seat, "name": name, "pending": False, "reason": reason})
        self._chips(seat, "transfer-in", stack)

    def unseat(self, seat: int, reason: str) -> int:
        """A managed table: the player of ``seat`` (not in a hand) leaves with their chips (a
        ledger entry ``transfer-out``); returns the stack they take."""
        self._check_managed()
        state = self._seat(seat)
        if self.in_hand(seat):
            raise TableError(f"seat {seat} is in hand {self.hand_no}: it leaves when it ends")
        stack = state.stack
        self.seats.pop(seat)
        if stack:
            self._chips(seat, "transfer-out", -stack, state)
        self._emit("left", {"seat": seat, "name": state.name, "kicked": False,
                            "reason": reason})
        return stack
