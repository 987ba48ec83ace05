"""A table across hands: seats, stacks, the button, buy-ins, sit-outs, Dealer's Choice, clocks.

``Table`` is pure and synchronous: no sockets, no SQL, no wall clock. Time comes from an injected
``clock`` (seconds) and the shuffle from an injected generator (``secrets`` by default). The
server's actor calls one method per command, ``tick()`` when ``next_deadline()`` passes, and
``drain()`` to collect the numbered ``TableEvent``s to store and publish.

Seats are numbered 0 to ``max_seats - 1`` clockwise. A hand is dealt to the seats in play
(``hand_seats``, clockwise), and the engine's hand is built with those numbers: its events, views
and refusals name the same seats as the table does (one numbering, from the engine to the
browser). ``to_state()`` is the
whole table as plain data, the shuffled deck and the hand's actions included, so
``Table.from_state`` rebuilds a hand in progress card for card (DESIGN.md: persistence is the
event log, and every hand replays exactly).

A *managed* table (``managed=True``: a tournament's) never deals on its own and never sits
anyone out: whoever runs the tournament seats players with their chips (``place``), takes them
away (``unseat``) and deals each hand it plans (``deal_planned``: the seats, the button, the
level's stakes, a dead small blind or a big-blind ante, and tags for the history).

The parts live in their own modules, each a class ``Table`` composes: ``table.base`` (the
state), ``table.ledger``, ``table.seats``, ``table.clocks``, ``table.choice`` (Dealer's Choice),
``table.driver`` (hands), ``table.persistence``, ``table.views`` and ``table.after``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardroom import fairness
from boardroom.table.after import AfterHand
from boardroom.table.base import PENDING
from boardroom.table.driver import Driver
from boardroom.table.settings import TableError
from boardroom.table.views import Views

MAX_CHAT = 500

__all__ = ["MAX_CHAT", "Table"]  # the package (``boardroom.table``) exports the rest


class Table(Views, AfterHand, Driver):
    """One table of a room, across hands. See the module docstring."""

    __slots__ = ()

    def close(self) -> None:
        """Host: close the room once the hand in progress is over, cashing everyone out."""
        self._check_open()
        if self.closing:
            raise TableError("the room is already closing")
        self.closing = True
        self._emit("closing", {})
        if self.hand is None:
            self._close_now()

    def chat(self, seat: int | None, name: str, text: str) -> None:
        self._check_open()
        if not isinstance(text, str) or not text.strip():
            raise TableError("a chat message needs some text")
        if len(text) > MAX_CHAT:
            raise TableError(f"a chat message is at most {MAX_CHAT} characters")
        self._emit("chat", {"seat": seat, "name": name, "text": text.strip()})

    def announce(self, kind: str, data: Mapping[str, Any]) -> None:
        """A public event from the room around the table (the host changed, say)."""
        self._emit(kind, dict(data))

    def client_seed(self, seat: int, hand_no: int, seed: str) -> None:
        """The player at ``seat`` adds its own random seed to hand ``hand_no``'s deal, after its
        commitment is published and before the deal (docs/fairness.md); the last one sent counts."""
        state = self._seat(seat)
        pending = self.fair_next
        if pending is None or pending["hand_no"] != hand_no:
            expected = f"hand {pending['hand_no']}" if pending is not None else "no hand"
            raise TableError(f"seeds are open for {expected} now, not hand {hand_no}: send one "
                             f"after a hand's commitment is published and before its deal")
        if state.status == PENDING:
            raise TableError(f"seat {seat} is waiting for the host's approval")
        try:
            pending["client_seeds"][str(seat)] = fairness.check_client_seed(seed)
        except fairness.FairnessError as error:
            raise TableError(str(error)) from None
        self._emit("seed_received", {"seat": seat, "hand_no": hand_no})
