"""The ledger: every chip that enters or leaves a table (buy-ins, rebuys, adjustments,
cash-outs, tournament transfers), so the chips on the table always equal ``balance``."""

from __future__ import annotations

from boardroom.table.base import OUT, PENDING, PLAYING, SeatState, TableBase
from boardroom.table.settings import TableError, check_chips


class Ledger(TableBase):
    """Stacks, rebuys and the ledger's entries."""

    __slots__ = ()

    def live_stack(self, seat: int) -> int:
        if self.hand is not None and self.in_hand(seat):
            return self.hand.stack(seat)
        return self.seats[seat].stack

    def chips_of(self, seat: int) -> int:
        """The chips of ``seat`` at the table: its stack and what it has put in this hand."""
        if self.hand is not None and self.in_hand(seat):
            in_pots = 0 if self.hand.is_over else self.hand.contribution(seat)
            return self.hand.stack(seat) + in_pots
        return self.seats[seat].stack

    def chips_on_table(self) -> int:
        """Every chip in a stack, a bet or a pot; always equal to ``balance``."""
        total = sum(seat.stack for n, seat in self.seats.items() if not self.in_hand(n))
        if self.hand is not None:
            total += sum(self.hand.stacks) + self.hand.chips_in_play
        return total

    def _chips(self, seat: int, entry: str, amount: int, state: SeatState | None = None) -> None:
        """A ledger entry: chips entering (buy-in, rebuy, adjust) or leaving (cash-out)."""
        state = state or self.seats[seat]
        self.balance += amount
        self._emit("chips", {"seat": seat, "name": state.name, "entry": entry,
                             "amount": amount, "stack": state.stack},
                   private={"player": state.player})

    def request_rebuy(self, seat: int, amount: int) -> None:
        """Ask the host for ``amount`` more chips (the stack may not pass the starting stack)."""
        state = self._seat(seat)
        if state.status == PENDING:
            raise TableError(f"seat {seat} is waiting for the host's approval")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise TableError(f"a rebuy is a whole number of chips above 0, not {amount!r}")
        room = self.settings.starting_stack - state.stack - state.rebuy_approved
        if amount > room:
            raise TableError(f"a rebuy may bring a stack up to the starting stack "
                             f"{self.settings.starting_stack}: at most {max(room, 0)} more")
        state.rebuy_requested = amount
        self._emit("rebuy_requested", {"seat": seat, "amount": amount})

    def approve_rebuy(self, seat: int) -> None:
        """Host: grant the requested rebuy (added now, or when the seat's hand ends)."""
        state = self._seat(seat)
        if not state.rebuy_requested:
            raise TableError(f"seat {seat} has not asked for a rebuy")
        amount, state.rebuy_requested = state.rebuy_requested, 0
        if self.in_hand(seat):
            state.rebuy_approved += amount
            self._emit("rebuy_approved", {"seat": seat, "amount": amount, "after_hand": True})
            return
        self._emit("rebuy_approved", {"seat": seat, "amount": amount, "after_hand": False})
        state.stack += amount
        self._chips(seat, "rebuy", amount)
        if state.status == OUT and not state.sit_out_next and state.stack == amount:
            state.status = PLAYING  # a busted player rebuys and is dealt in again
            self._emit("sitting_in", {"seat": seat})
        self._maybe_start()

    def set_stack(self, seat: int, amount: int) -> None:
        """Host: set a stack between its hands (the difference goes in the ledger)."""
        state = self._seat(seat)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise TableError(f"a stack is a whole number of chips, 0 or more, not {amount!r}")
        check_chips("a stack", amount)
        if self.in_hand(seat):
            raise TableError(f"seat {seat} is in a hand: set its stack between hands")
        if state.status == PENDING:
            raise TableError(f"seat {seat} is waiting for the host's approval")
        delta = amount - state.stack
        state.stack = amount
        self._chips(seat, "adjust", delta)
        if amount == 0 and state.status == PLAYING:
            state.status = OUT
            self._emit("sitting_out", {"seat": seat, "next_hand": False})
        self._maybe_start()
