"""The state of a table and the helpers every part of it shares (``Table`` composes the
parts: ``table.ledger``, ``table.seats``, ``table.clocks``, ``table.choice``, ``table.driver``,
``table.persistence``, ``table.views``, ``table.after``).

Seats are numbered 0 to ``max_seats - 1`` clockwise, and a seat has that one number everywhere:
a hand is dealt to the seats in play (``hand_seats``, clockwise) and the engine's hand is built
with them, so its events, views and refusals name the same seats (``engine.hand``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from boardroom.cards import RandomSource
from boardroom.engine import Hand, Stakes
from boardroom.engine.events import Event
from boardroom.engine.hand import deal_order
from boardroom.engine.straddle import Straddle, straddle_seat
from boardroom.table import rotation
from boardroom.table.events import TableEvent
from boardroom.table.settings import TableError, TableSettings

Clock = Callable[[], float]

# Seat statuses.
PENDING = "pending"  # waiting for the host to approve the seat
PLAYING = "playing"  # dealt in while it has chips
OUT = "out"  # sitting out (by choice, busted, or after two timeouts in a row)

# Table phases.
WAITING = "waiting"  # fewer than two players in
BETWEEN = "between"  # the short pause between hands
PICKING = "picking"  # Dealer's Choice: the button is picking the next game
DEALING = "playing"  # a hand is running
CLOSED = "closed"

# A planned (tournament) hand's extra setup: the engine's hooks and the history's tags.
HOOKS = ("dead_small_blind", "big_blind_ante", "tournament", "straddle", "runs_offered")


def straddler_at(kind: Straddle, seats: tuple[int, ...], button: int) -> int | None:
    """The table seat in ``kind``'s straddle position of a hand dealt to table ``seats``
    (clockwise) with the button on table seat ``button`` (the seat the hand's
    ``straddle_seat`` names), or None heads-up."""
    position = seats.index(button)
    at = straddle_seat(kind, deal_order(position, len(seats)), position)
    return None if at is None else seats[at]


@dataclass(slots=True)
class SeatState:
    player: str  # the player's id (the server's; the table only compares it)
    name: str
    stack: int = 0  # chips behind; during a hand, the stack it started with
    status: str = PENDING
    leaving: bool = False  # leaves (folding first) when the hand ends
    kicked: bool = False  # by the host
    sit_out_next: bool = False
    straddle_next: bool = False  # posts a straddle the next time its seat is in the position
    timeouts: int = 0  # in a row
    time_bank: float = 0.0
    rebuy_requested: int = 0
    rebuy_approved: int = 0  # added when the seat's hand ends


class TableBase:
    """A table's state and shared helpers; ``table.Table`` composes the parts built on it.

    Its attributes are slots, and each part adds none of its own (``__slots__ = ()``): a
    server holds a table for every room, and 30 attributes in an instance dict are about 1.6
    KB, where slots are 0.3 (docs/decisions.md, "Slots for what every table holds")."""

    __slots__ = ("_allocation_clock", "_last_hand", "_outbox", "_published", "balance", "button",
                 "clock", "closing", "deadline", "fair_next", "hand", "hand_actions", "hand_no",
                 "hand_setup", "last_game", "last_record", "managed", "paused", "paused_at",
                 "phase", "pick_seats", "picker", "rng", "room", "rotation_state", "seats",
                 "settings", "turn_deadline", "turn_started", "version")

    def __init__(self, settings: TableSettings, *, clock: Clock,
                 rng: RandomSource | None = None, room: str = "", managed: bool = False) -> None:
        self.settings = settings
        self.managed = managed
        self.clock = clock
        self.rng = rng
        self.room = room  # bound into every deal's seeds (boardroom.fairness)
        self.fair_next: dict[str, Any] | None = None  # the next hand's commitment (table.fair)
        self.seats: dict[int, SeatState] = {}
        self.version = 0
        self.hand_no = 0
        self.button: int | None = None
        self.phase = WAITING
        self.deadline: float | None = None  # of the pause between hands or of the pick
        self.paused = False
        self.paused_at: float | None = None
        self.closing = False
        self.balance = 0  # chips bought in, rebought and adjusted, minus chips cashed out
        self.last_game: tuple[str, dict[str, Any]] | None = None
        self.picker: int | None = None
        self.pick_seats: tuple[int, ...] = ()
        self.rotation_state = rotation.RotationState()  # where a rotation room is in its games
        self.hand: Hand | None = None
        self.hand_setup: dict[str, Any] = {}
        # the hand's actions as stored ([table seat, name, argument], ``acts.record``), each
        # recorded once as played: every state shares them, none is changed after
        self.hand_actions: list[list[Any]] = []
        self.turn_started: float | None = None
        self.turn_deadline: float | None = None
        self.last_record: dict[str, Any] | None = None  # the hand that ended last, until a deal
        self._last_hand: Hand | None = None  # that hand, replayed from its record (once)
        self._published = 0  # hand events already turned into table events
        self._allocation_clock = False  # the allocation phase's clock is running
        self._outbox: list[TableEvent] = []

    @property
    def seat_limit(self) -> int:
        return self.settings.seat_limit

    def seat_of(self, player: str) -> int | None:
        return next((n for n, seat in self.seats.items() if seat.player == player), None)

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The seats dealt in the running hand, clockwise (none between hands)."""
        return self.hand.seats if self.hand is not None else ()

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` is dealt in the running hand."""
        return self.hand is not None and seat in self.hand.seats

    def drain(self) -> list[TableEvent]:
        """The events since the last drain, oldest first."""
        out, self._outbox = self._outbox, []
        return out

    def _check_open(self) -> None:
        if self.phase == CLOSED:
            raise TableError("the room is closed")

    def _seat(self, seat: int) -> SeatState:
        self._check_open()
        state = self.seats.get(seat) if isinstance(seat, int) else None
        if state is None:
            raise TableError(f"seat {seat!r} is empty")
        return state

    def _emit(self, kind: str, data: Mapping[str, Any], *, truth: Event | None = None,
              views: Mapping[int | None, Event] | None = None,
              private: Mapping[str, Any] | None = None) -> None:
        self.version += 1
        hand_no = self.hand_no if (self.hand is not None or kind == "hand_ended") else None
        self._outbox.append(TableEvent(self.version, kind, data, hand_no, truth, views, private,
                                       self.clock()))

    def _dealt_in(self) -> tuple[int, ...]:
        return tuple(n for n in sorted(self.seats) if self.seats[n].status == PLAYING
                     and self.seats[n].stack > 0 and not self.seats[n].leaving)

    def _next_button(self, seats: tuple[int, ...]) -> int:
        """The button of the next hand dealt to ``seats``: the first of them clockwise after
        the last hand's button (RULES.md s.1)."""
        previous = -1 if self.button is None else self.button
        return next((s for s in seats if s > previous), seats[0])

    # -- what one part asks of another (each is defined by the part named) -----------------

    def _maybe_start(self) -> None:
        """Deal when two players can play (``table.driver``)."""
        raise NotImplementedError

    def _after_change(self) -> None:
        """Publish the hand's new events and start the next turn (``table.driver``)."""
        raise NotImplementedError

    def _deal(self, seats: tuple[int, ...], button: int, game: str,
              options: Mapping[str, Any], *, stakes: Stakes | None = None,
              hooks: Mapping[str, Any] | None = None) -> None:
        """Deal a hand (``table.driver``)."""
        raise NotImplementedError
