"""A table across hands: seats, stacks, the button, buy-ins, sit-outs, Dealer's Choice, clocks.

``Table`` is pure and synchronous: no sockets, no SQL, no wall clock. Time comes from an injected
``clock`` (seconds) and the shuffle from an injected generator (``secrets`` by default). The
server's actor calls one method per command, ``tick()`` when ``next_deadline()`` passes, and
``drain()`` to collect the numbered ``TableEvent``s to store and publish.

Seats are numbered 0 to ``max_seats - 1`` clockwise. A hand is dealt to the seats in play
(``hand_seats``, clockwise); the engine numbers them 0..n-1 (hand seats). ``to_state()`` is the
whole table as plain data, the shuffled deck and the hand's actions included, so
``Table.from_state`` rebuilds a hand in progress card for card (DESIGN.md: persistence is the
event log, and every hand replays exactly).

A *managed* table (``managed=True``: a tournament's) never deals on its own and never sits
anyone out: whoever runs the tournament seats players with their chips (``place``), takes them
away (``unseat``) and deals each hand it plans (``deal_planned``: the seats, the button, the
level's stakes, a dead small blind or a big-blind ante, and tags for the history).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from boardroom import fairness
from boardroom.cards import RandomSource, format_card, parse_cards
from boardroom.engine import (
    Action,
    ActionError,
    Allocate,
    AllocateBest,
    BringIn,
    Check,
    Deck,
    Draw,
    Fold,
    Hand,
    Stakes,
)
from boardroom.engine import actions as acts
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.events import Event
from boardroom.engine.replay import ReplayError, replay
from boardroom.engine.straddle import straddle_amount
from boardroom.engine.view import HandView, events_for, view_for, views_for
from boardroom.rules import DEALERS_CHOICE, ForcedBets, Variant
from boardroom.table import fair, rotation, runs
from boardroom.table.events import HAND, TableEvent
from boardroom.table.settings import TableError, TableSettings, check_chips

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

TIMEOUTS_TO_SIT_OUT = 2
MAX_CHAT = 500
_SEAT_WORD = re.compile(r"\bseat (\d+)")
# A planned (tournament) hand's extra setup: the engine's hooks and the history's tags.
HOOKS = ("dead_small_blind", "big_blind_ante", "tournament", "straddle", "runs_offered")


@dataclass
class SeatState:
    player: str  # the player's id (the server's; the table only compares it)
    name: str
    stack: int = 0  # chips behind; during a hand, the stack it started with
    status: str = PENDING
    leaving: bool = False  # leaves (folding first) when the hand ends
    kicked: bool = False  # by the host
    sit_out_next: bool = False
    timeouts: int = 0  # in a row
    time_bank: float = 0.0
    rebuy_requested: int = 0
    rebuy_approved: int = 0  # added when the seat's hand ends


class Table:
    """One table of a room, across hands. See the module docstring."""

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
        self.hand_seats: tuple[int, ...] = ()
        self.hand_setup: dict[str, Any] = {}
        self.hand_actions: list[tuple[int, Action]] = []  # (hand seat, action)
        self.turn_started: float | None = None
        self.turn_deadline: float | None = None
        self.last_record: dict[str, Any] | None = None  # the hand that ended last, until a deal
        self._last_hand: Hand | None = None  # that hand, replayed from its record (once)
        self._published = 0  # hand events already turned into table events
        self._allocation_clock = False  # the allocation phase's clock is running
        self._outbox: list[TableEvent] = []

    # -- reading ----------------------------------------------------------------------------

    @property
    def seat_limit(self) -> int:
        return self.settings.seat_limit

    def seat_of(self, player: str) -> int | None:
        return next((n for n, seat in self.seats.items() if seat.player == player), None)

    def hand_seat(self, seat: int) -> int | None:
        """The engine's number for table ``seat`` in the running hand, or None."""
        if self.hand is None or seat not in self.hand_seats:
            return None
        return self.hand_seats.index(seat)

    def live_stack(self, seat: int) -> int:
        index = self.hand_seat(seat)
        if index is not None and self.hand is not None:
            return self.hand.stacks[index]
        return self.seats[seat].stack

    def chips_of(self, seat: int) -> int:
        """The chips of ``seat`` at the table: its stack and what it has put in this hand."""
        index = self.hand_seat(seat)
        if index is not None and self.hand is not None:
            in_pots = 0 if self.hand.is_over else self.hand.contributed[index]
            return self.hand.stacks[index] + in_pots
        return self.seats[seat].stack

    def chips_on_table(self) -> int:
        """Every chip in a stack, a bet or a pot; always equal to ``balance``."""
        total = sum(seat.stack for n, seat in self.seats.items() if self.hand_seat(n) is None)
        if self.hand is not None:
            total += sum(self.hand.stacks) + self.hand.chips_in_play
        return total

    def next_deadline(self) -> float | None:
        """When ``tick()`` has something to do next (None: nothing until a command)."""
        if self.paused or self.phase == CLOSED:
            return None
        if self.phase in (BETWEEN, PICKING):
            return self.deadline
        if self.phase == DEALING:
            return self.turn_deadline
        return None

    def hand_view(self, seat: int | None) -> HandView | None:
        """The running (or just finished) hand as table ``seat`` may see it (None: spectator)."""
        if self.hand is None:
            return None
        return view_for(self.hand, self.hand_seat(seat) if seat is not None else None)

    def hand_views(self, seats: Iterable[int | None]) -> dict[int | None, HandView | None]:
        """``hand_view`` of each of ``seats`` at once, their shared parts built once."""
        wanted = list(seats)
        if self.hand is None:
            return dict.fromkeys(wanted)
        index = {seat: self.hand_seat(seat) if seat is not None else None for seat in wanted}
        views = views_for(self.hand, set(index.values()))
        return {seat: views[index[seat]] for seat in wanted}

    def hand_story(self, seat: int | None) -> dict[str, Any] | None:
        """The running hand so far as table ``seat`` (None: a spectator) may see it: its table
        seats, its stacks at the deal and its events, for a log that joins mid-hand."""
        if self.hand is None:
            return None
        index = self.hand_seat(seat) if seat is not None else None
        return {"hand_no": self.hand_no, "name": self.hand.variant.name,
                "seats": list(self.hand_seats),
                "stacks": list(self.hand_setup["stacks"]),
                "events": events_for(self.hand, index)}

    def public_state(self) -> dict[str, Any]:
        """Everything about the table that every viewer may know, as plain data."""
        seats: list[dict[str, Any]] = []
        for number in range(self.seat_limit):
            seat = self.seats.get(number)
            if seat is None:
                seats.append({"seat": number, "empty": True})
                continue
            seats.append({
                "seat": number, "empty": False, "name": seat.name,
                "stack": self.live_stack(number), "status": seat.status,
                "in_hand": self.hand_seat(number) is not None, "leaving": seat.leaving,
                "sit_out_next": seat.sit_out_next, "timeouts": seat.timeouts,
                "time_bank": round(seat.time_bank, 3), "rebuy_requested": seat.rebuy_requested,
                "rebuy_approved": seat.rebuy_approved,
            })
        actor = None
        if self.hand is not None and self.hand.actor is not None:
            actor = self.hand_seats[self.hand.actor]
        game, options = self.last_game if self.last_game else (None, {})
        if self.hand is not None:
            game, options = self.hand_setup["game"], self.hand_setup["options"]
        return {
            "posts": self._posts(game, options),
            "version": self.version, "hand_no": self.hand_no, "phase": self.phase,
            "deadline": self.deadline, "paused": self.paused, "closing": self.closing,
            "button": self.button, "game": game, "options": options,
            "picker": self.picker if self.phase == PICKING else None,
            "choices": self._choice_ids() if self.phase == PICKING else None,
            "hand_seats": list(self.hand_seats) if self.hand is not None else None,
            "turn": {"seat": actor, "deadline": self.turn_deadline} if actor is not None else None,
            "seats": seats, "settings": self.settings.to_dict(), "fair": self._fair_public(),
            "rotation": self._rotation_public(),
        }

    def _rotation_public(self) -> dict[str, Any] | None:
        plan = self.settings.rotation_plan
        if plan is None:
            return None
        seats = self._dealt_in()
        upcoming = None if self.button is None or not seats else \
            next((s for s in seats if s > self.button), seats[0])
        return rotation.public(plan, self.rotation_state, self.button, upcoming,
                               self.seat_limit)

    def _posts(self, game: str | None, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the game of the hand in play (or of the next one) posts, for the top bar: its
        blinds, its ante and minimum bet, or stud's ante, bring-in and bet sizes. None in
        Dealer's Choice before the first pick."""
        if game is None and self.settings.is_dealers_choice:
            return None
        plan = self.settings.rotation_plan
        if game is None and plan is not None:
            now = rotation.game(plan, self.rotation_state)
            game, options = now.game, dict(now.options)
        if game is None:
            game, options = self.settings.game, self.settings.options
        return dict(_posts(self.settings, game, tuple(sorted(options.items()))))

    def _fair_public(self) -> dict[str, Any] | None:
        """The commitment players can see: the next hand's while seeds are open, else the
        running hand's (its seeds stay secret until it ends)."""
        if self.fair_next is not None:
            return fair.public(self.fair_next)
        if self.hand is not None and "fair" in self.hand_setup:
            return {"hand_no": self.hand_no, "commitment": self.hand_setup["fair"]["commitment"],
                    "seeded": None, "open": False}
        return None

    def drain(self) -> list[TableEvent]:
        """The events since the last drain, oldest first."""
        out, self._outbox = self._outbox, []
        return out

    # -- seats ------------------------------------------------------------------------------

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
        index = self.hand_seat(seat)
        if index is None:
            self._remove(seat, kicked)
            return
        state.leaving, state.kicked = True, kicked
        self._emit("leaving", {"seat": seat, "kicked": kicked})
        if self.hand is not None and not self.paused and (
                self.hand.actor == index or index in self.hand.runs_pending):
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
        if self.hand_seat(seat) is not None:
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
        if state.stack == 0 and self.hand_seat(seat) is None:
            raise TableError(f"seat {seat} has no chips: ask the host for a rebuy")
        state.status = PLAYING
        state.timeouts = 0
        self._emit("sitting_in", {"seat": seat})
        self._maybe_start()

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
        if self.hand_seat(seat) is not None:
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
        if self.hand_seat(seat) is not None:
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

    # -- the table --------------------------------------------------------------------------

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

    # -- playing ----------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> None:
        """The player at ``seat`` plays ``action`` (``engine.actions``: ``Fold()``,
        ``RaiseTo(12)``, ...) at its turn."""
        self._check_open()
        hand, index = self.hand, self.hand_seat(seat)
        if hand is None or index is None:
            raise TableError(f"seat {seat} is not in a hand")
        if self.paused:
            raise TableError("the table is paused")
        if hand.actor != index:
            whose = (f"seat {self.hand_seats[hand.actor]}" if hand.actor is not None
                     else "nobody")
            raise TableError(f"it is not your turn (it is {whose}'s)")
        self._apply(index, action)
        state = self.seats[seat]
        state.timeouts = 0
        self._spend_clock(state)
        self._after_change()

    def allocate(self, seat: int, allocation: Mapping[str, Any]) -> None:
        """Allocator games: commit cards to the categories ({category: "As Kd" or [...]})."""
        self._check_open()
        hand, index = self.hand, self.hand_seat(seat)
        if hand is None or index is None:
            raise TableError(f"seat {seat} is not in a hand")
        if not hand.variant.has_allocation:
            raise TableError(f"{hand.variant.name} has no allocation")
        if self.paused:
            raise TableError("the table is paused")
        try:
            commit = acts.from_record(Allocate.name, allocation)
        except ActionError as error:
            raise TableError(str(error)) from None
        self._apply(index, commit)
        self.seats[seat].timeouts = 0
        self._after_change()

    def choose_runs(self, seat: int, runs: int) -> None:
        """An all-in player answers the offer to run it more than once: 1, 2 or 3 times."""
        self._check_open()
        hand, index = self.hand, self.hand_seat(seat)
        if hand is None or index is None:
            raise TableError(f"seat {seat} is not in a hand")
        if self.paused:
            raise TableError("the table is paused")
        self._apply(index, ChooseRuns(runs))
        self.seats[seat].timeouts = 0
        self._after_change()

    def _apply(self, index: int, action: Action) -> None:
        """Play hand seat ``index``'s ``action`` and keep it in the hand's record; a refusal is
        a ``TableError`` naming table seats."""
        hand = self.hand
        assert hand is not None
        try:
            hand.apply(index, action)
        except ActionError as error:
            raise TableError(self._table_seats(str(error))) from None
        self.hand_actions.append((index, action))

    def pick(self, seat: int, game: str, options: Mapping[str, Any] | None = None) -> None:
        """Dealer's Choice: the button picks the next hand's game and options."""
        self._check_open()
        if self.phase != PICKING:
            raise TableError("nobody is picking a game now")
        if seat != self.picker:
            raise TableError(f"the button (seat {self.picker}) picks the game, not seat {seat}")
        if not isinstance(game, str):
            raise TableError("a pick names a variant id")
        variant = self.settings.variant_for(game, dict(options or {}))
        if variant.id not in self._choice_ids():
            raise TableError(f"{variant.name} is not one of the games to pick from")
        players = len(self.pick_seats)
        if variant.max_players < players:
            raise TableError(f"{variant.name} with {variant.hole_cards} hole cards deals to at "
                             f"most {variant.max_players} players, not {players}")
        self._picked(seat, variant.id, dict(options or {}), chosen=True)

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

    def deal_now(self) -> None:
        """End the pause before the next hand now (the host's "deal now"; ``boardroom play``
        deals its first hand as soon as its bots are seated)."""
        self._check_open()
        if self.phase == WAITING:
            raise TableError("there is no pause to end: the table waits for players")
        if self.phase == PICKING:
            raise TableError("there is no pause to end: the button is picking the game")
        if self.phase != BETWEEN:
            raise TableError("there is no pause to end: a hand is being played")
        if self.paused:
            raise TableError("the table is paused")
        self.deadline = self.clock()
        self.tick()

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
        if self.hand_seat(seat) is not None:
            raise TableError(f"seat {seat} is in hand {self.hand_no}: it leaves when it ends")
        stack = state.stack
        self.seats.pop(seat)
        if stack:
            self._chips(seat, "transfer-out", -stack, state)
        self._emit("left", {"seat": seat, "name": state.name, "kicked": False,
                            "reason": reason})
        return stack

    def deal_planned(self, seats: Sequence[int], button: int, game: str,
                     options: Mapping[str, Any], stakes: Stakes, *, stacks: Mapping[int, int],
                     dead_small_blind: bool = False, big_blind_ante: bool = False,
                     tags: Mapping[str, Any] | None = None) -> None:
        """A managed table: deal the hand its tournament planned, to ``seats`` (clockwise) with
        the engine's button on table seat ``button``, at ``stakes``. ``stacks`` (seat -> chips)
        must be the table's own: the director and the table agree on every chip."""
        self._check_managed()
        if self.hand is not None:
            raise TableError(f"hand {self.hand_no} is still being played")
        seats = tuple(seats)
        if len(seats) < 2 or button not in seats or any(s not in self.seats for s in seats):
            raise TableError(f"a planned hand needs two or more seated players and the button "
                             f"among them, not seats {list(seats)} and button {button}")
        for seat in seats:
            if self.seats[seat].stack != stacks.get(seat):
                raise TableError(f"seat {seat} holds {self.seats[seat].stack} chips, the plan "
                                 f"says {stacks.get(seat)}")
        hooks: dict[str, Any] = {}
        if dead_small_blind:
            hooks["dead_small_blind"] = True
        if big_blind_ante:
            hooks["big_blind_ante"] = True
        if tags:
            hooks["tournament"] = dict(tags)
        self._deal(seats, button, game, options, stakes=stakes, hooks=hooks)

    def show_after(self, seat: int, cards: str | Sequence[str]) -> None:
        """After the hand, until the next deal: a player who won uncontested or mucked shows
        any of their cards to the table. The hand's record (its history) keeps them."""
        self._check_open()
        if self.hand is not None:
            raise TableError("show your cards once the hand is over")
        record = self.last_record
        if record is None:
            raise TableError("there is no finished hand to show cards from")
        state = self._seat(seat)
        index = next((n for n, p in enumerate(record["players"])
                      if p["player"] == state.player), None)
        if index is None:
            raise TableError(f"you were not dealt in hand {record['hand_no']}")
        if self._last_hand is None:
            self._last_hand = rebuild_hand(self.settings, record)
        hand = self._last_hand
        if not hand.live[index]:
            raise TableError("you folded this hand: folded cards are not shown")
        if hand.shown.get(index):
            raise TableError("your hand was shown at the showdown")
        try:
            chosen = parse_cards(cards)
        except ValueError as error:
            raise TableError(str(error)) from None
        if not chosen:
            raise TableError("name the cards to show, e.g. 'As Kd'")
        held = hand.hole[index]
        for card in chosen:
            if card not in held:
                raise TableError(f"you did not hold {format_card(card)}")
        shown = dict(record.get("shown_after", {}))
        before = set(parse_cards(shown.get(str(index), [])))
        codes = [format_card(card) for card in held if card in before or card in chosen]
        shown[str(index)] = codes
        record = {**record, "shown_after": shown}
        self.last_record = record
        self._emit("shown_after", {"seat": seat, "name": state.name,
                                   "hand_no": record["hand_no"], "cards": codes},
                   private=record)

    def rabbit_hunt(self, seat: int) -> None:
        """After a hand that ended before its last card, any seated player may ask for the
        board cards that would have come (``Hand.rabbit_hunt``): shown to everyone, once, as
        cards not dealt; they change nothing and join the hand's record (its history)."""
        self._check_open()
        state = self._seat(seat)
        if not self.settings.rabbit_hunting:
            raise TableError("the host turned rabbit hunting off")
        if self.hand is not None:
            raise TableError("hunt the rabbit once the hand is over")
        record = self.last_record
        if record is None:
            raise TableError("there is no finished hand to hunt the rabbit of")
        if "rabbit" in record:
            raise TableError(f"the rabbit of hand {record['hand_no']} is already out")
        if self._last_hand is None:
            self._last_hand = rebuild_hand(self.settings, record)
        hunted = self._last_hand.rabbit_hunt()
        if not hunted:
            raise TableError(f"every card of hand {record['hand_no']} was dealt: "
                             f"no rabbit to hunt")
        boards: dict[str, list[str]] = {}
        for name, cards in hunted:
            boards.setdefault(name, []).extend(format_card(card) for card in cards)
        deals = [[name, [format_card(card) for card in cards]] for name, cards in hunted]
        record = {**record, "rabbit": deals}
        self.last_record = record
        self._emit("rabbit", {"hand_no": record["hand_no"], "name": state.name,
                              "boards": boards}, private=record)

    def tick(self) -> None:
        """Apply whatever the clock says is due: the next hand, a missed pick, a timeout."""
        for _ in range(8):  # each step sets a new deadline; a few cover any jump in time
            now = self.clock()
            deadline = self.next_deadline()
            if deadline is None or now < deadline:
                return
            if self.phase == BETWEEN:
                self._begin_next()
            elif self.phase == PICKING:
                self._default_pick()
            elif self.phase == DEALING:
                self._timeout()

    # -- internals: flow ---------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.managed:
            return  # the tournament deals (``deal_planned``)
        if self.phase == WAITING and len(self._dealt_in()) >= 2:
            self.phase = BETWEEN
            self.deadline = self.clock() + self.settings.pause_between_hands
            self._publish_commitment()
            self._emit("next_hand", {"deadline": self.deadline})

    def _publish_commitment(self) -> None:
        """The next hand's commitment, made once and kept until that hand is dealt."""
        if self.fair_next is None or self.fair_next["hand_no"] != self.hand_no + 1:
            self.fair_next = fair.new_commitment(self.hand_no + 1, self.rng)
            self._emit("fair_commitment", {"hand_no": self.hand_no + 1,
                                           "commitment": self.fair_next["commitment"]})

    def _dealt_in(self) -> tuple[int, ...]:
        return tuple(n for n in sorted(self.seats) if self.seats[n].status == PLAYING
                     and self.seats[n].stack > 0 and not self.seats[n].leaving)

    def _begin_next(self) -> None:
        if self.closing:
            self._close_now()
            return
        seats = self._dealt_in()
        if len(seats) < 2:
            self.phase, self.deadline = WAITING, None
            self._emit("waiting", {})
            return
        previous = -1 if self.button is None else self.button
        button = next((s for s in seats if s > previous), seats[0])
        if self.settings.is_dealers_choice:
            self.phase, self.picker, self.pick_seats = PICKING, button, seats
            self.button = button
            self.deadline = self.clock() + self.settings.pick_clock
            self._emit("pick_requested", {"seat": button, "choices": self._choice_ids(),
                                          "deadline": self.deadline})
            return
        plan = self.settings.rotation_plan
        if plan is not None:
            self.rotation_state, changed = rotation.step(plan, self.rotation_state, self.button,
                                                         button, self.seat_limit)
            now = rotation.game(plan, self.rotation_state)
            if changed:
                self._emit("game_changed", {"game": now.game, "name": now.variant.name,
                                            "options": dict(now.options),
                                            "at": self.rotation_state.at})
            self._deal(seats, button, now.game, dict(now.options))
            return
        self._deal(seats, button, self.settings.game, self.settings.options)

    def _choice_ids(self) -> list[str]:
        return [v.id for v in DEALERS_CHOICE.choices(max(len(self.pick_seats), 2))]

    def _default_pick(self) -> None:
        """No pick in time: the previous hand's game again (ESG first), if it fits the table."""
        players = len(self.pick_seats)
        game, options = self.last_game or (DEALERS_CHOICE.default, {})
        variant = self.settings.variant_for(game, options)
        if variant.max_players < players:
            variant, options = _first_fitting(DEALERS_CHOICE.choices(players), players)
        self._picked(self.picker, variant.id, options, chosen=False)

    def _picked(self, seat: int | None, game: str, options: dict[str, Any], *,
                chosen: bool) -> None:
        variant = self.settings.variant_for(game, options)
        self._emit("game_picked", {"seat": seat, "game": game, "name": variant.name,
                                   "options": options, "by_button": chosen})
        seats = tuple(s for s in self.pick_seats if s in self._dealt_in())
        button = self.picker
        self.picker, self.pick_seats = None, ()
        if len(seats) < 2 or button is None:
            self.phase, self.deadline = WAITING, None
            self.last_game = (game, options)
            self._emit("waiting", {})
            return
        if button not in seats:
            button = next((s for s in seats if s > button), seats[0])
        self._deal(seats, button, game, options)

    def _deal(self, seats: tuple[int, ...], button: int, game: str,
              options: Mapping[str, Any], *, stakes: Stakes | None = None,
              hooks: Mapping[str, Any] | None = None) -> None:
        variant = self.settings.variant_for(game, options)
        stakes = stakes or self.settings.stakes_for(variant)
        straddle = None if self.managed else self.settings.straddle_for(variant)
        if straddle is not None:
            hooks = {**(hooks or {}), "straddle": straddle}
        if self.settings.run_it_twice and not self.managed:
            hooks = {**(hooks or {}), "runs_offered": True}
        self._publish_commitment()  # (already out, unless restored from an older state)
        assert self.fair_next is not None
        dealt = fair.for_hand(self.fair_next, self.room, seats, self.rng)
        self.fair_next = None
        self.last_record, self._last_hand = None, None  # no more showing the last hand's cards
        stacks = [self.seats[s].stack for s in seats]
        self.hand_no += 1
        self.button = button
        self.hand_seats = seats
        self.hand_setup = {"game": game, "options": dict(options), "stakes": asdict(stakes),
                           "stacks": stacks, "button": seats.index(button), "fair": dealt,
                           **(hooks or {})}
        seeds = fair.seeds_of({**self.hand_setup, "hand_no": self.hand_no})
        assert seeds is not None
        self.hand_setup["deck"] = fairness.deck(seeds)
        self.hand_actions = []
        self._allocation_clock = False
        self.phase, self.deadline = DEALING, None
        self._emit("hand_started", {
            "hand_no": self.hand_no, "game": game, "name": variant.name, "options": dict(options),
            "button": button, "seats": list(seats), "stacks": stacks, "stakes": asdict(stakes),
            "commitment": dealt["commitment"],
            "server_made": [s for s, made in zip(seats, dealt["server_made"], strict=True) if made],
        })
        self._published = 0
        self.hand = _new_hand(variant, stakes, stacks, seats.index(button), seeds,
                              self.hand_setup)
        self._after_change()

    def _after_change(self) -> None:
        """Publish the hand's new events, fold for players who left, start the next turn."""
        hand = self.hand
        assert hand is not None
        while True:
            self._flush()
            if hand.is_over:
                self._end_hand()
                return
            if hand.is_allocating:
                gone = [i for i in hand.allocation_pending
                        if self.seats[self.hand_seats[i]].leaving]
                if gone and not self.paused:
                    self._allocate_best(gone[0])
                    continue
                self._start_allocation_clock()
                return
            if hand.is_choosing_runs:
                gone = [i for i in hand.runs_pending if self.seats[self.hand_seats[i]].leaving]
                if gone and not self.paused:
                    self._apply(gone[0], runs.ONCE_BY_TIMEOUT)
                    continue
                self._start_runs_clock()
                return
            actor = hand.actor
            if actor is None:
                raise TableError(f"hand {self.hand_no} waits for something the table does "
                                 f"not know how to ask for")  # pragma: no cover
            if not self.seats[self.hand_seats[actor]].leaving or self.paused:
                break
            self._auto_act(actor)
        self.turn_started = self.clock()
        bank = self.seats[self.hand_seats[actor]].time_bank
        self.turn_deadline = self.turn_started + self.settings.action_clock + bank
        legal = hand.legal_actions()  # public: it follows from the bets, pots and stacks
        self._emit("turn", {"seat": self.hand_seats[actor], "deadline": self.turn_deadline,
                            "action_clock": self.settings.action_clock, "time_bank": bank,
                            "legal": asdict(legal) if legal is not None else None})

    def _start_allocation_clock(self) -> None:
        hand = self.hand
        assert hand is not None
        pending = [self.hand_seats[i] for i in hand.allocation_pending]
        if self._allocation_clock:
            self._emit("allocating", {"seats": pending, "deadline": self.turn_deadline})
            return
        self._allocation_clock = True
        self.turn_started = self.clock()
        self.turn_deadline = self.turn_started + self.settings.action_clock
        self._emit("allocating", {"seats": pending, "deadline": self.turn_deadline})

    def _start_runs_clock(self) -> None:
        """The offer to run it more than once: its seats, the most runs and a short clock,
        started once (each answer announces the seats still to answer)."""
        hand = self.hand
        assert hand is not None
        if not self._allocation_clock:  # (the one phase clock: no allocation runs twice)
            self._allocation_clock = True
            self.turn_started = self.clock()
            self.turn_deadline = self.turn_started + runs.runs_clock(self.settings)
        self._emit("choosing_runs", {"seats": [self.hand_seats[i] for i in hand.runs_pending],
                                     "most": hand.runs_most, "deadline": self.turn_deadline})

    def _allocate_best(self, index: int) -> None:
        self._apply(index, AllocateBest())

    def _auto_act(self, index: int) -> None:
        """Check when free, else fold (stud: post a pending bring-in; the draw: stand pat)."""
        hand = self.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        if legal.draw is not None:  # the draw: stand pat
            self._apply(index, Draw())
            return
        self._apply(index, Check() if legal.check else BringIn() if legal.bring_in is not None
                    else Fold())

    def _timeout(self) -> None:
        hand = self.hand
        assert hand is not None
        if hand.is_choosing_runs:  # a player who does not answer runs it once
            for index in hand.runs_pending:
                self._apply(index, runs.ONCE_BY_TIMEOUT)
            self._allocation_clock = False
            self._after_change()
            return
        if hand.is_allocating:
            for index in hand.allocation_pending:
                seat = self.hand_seats[index]
                self.seats[seat].timeouts += 1
                self._emit("timed_out", {"seat": seat, "name": self.seats[seat].name,
                                         "timeouts": self.seats[seat].timeouts})
                if self.seats[seat].timeouts >= TIMEOUTS_TO_SIT_OUT:
                    self.seats[seat].sit_out_next = True
                self._allocate_best(index)
            self._after_change()
            return
        assert hand.actor is not None
        seat = self.hand_seats[hand.actor]
        state = self.seats[seat]
        state.time_bank = 0.0
        state.timeouts += 1
        self._emit("timed_out", {"seat": seat, "name": state.name, "timeouts": state.timeouts})
        if state.timeouts >= TIMEOUTS_TO_SIT_OUT and not state.sit_out_next:
            state.sit_out_next = True
            self._emit("sitting_out", {"seat": seat, "next_hand": True})
        self._auto_act(hand.actor)
        self._after_change()

    def _spend_clock(self, state: SeatState) -> None:
        if self.turn_started is not None:
            over = self.clock() - self.turn_started - self.settings.action_clock
            if over > 0:
                state.time_bank = max(0.0, state.time_bank - over)

    def _flush(self) -> None:
        """Turn the hand's new events into table events, one view per seat in the hand."""
        hand = self.hand
        assert hand is not None
        start, end = self._published, len(hand.events)
        if start == end:
            return
        views: dict[int | None, list[Event]] = {None: events_for(hand, None, start)}
        for index, seat in enumerate(self.hand_seats):
            views[seat] = events_for(hand, index, start)
        for k in range(end - start):
            self._emit(HAND, {}, truth=hand.events[start + k],
                       views={seat: events[k] for seat, events in views.items()})
        self._published = end

    def _end_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        record = self.hand_record()
        for index, seat in enumerate(self.hand_seats):
            self.seats[seat].stack = hand.stacks[index]
        winnings: dict[int, int] = {}
        for result in hand.results:
            for index, chips in result.shares.items():
                seat = self.hand_seats[index]
                winnings[seat] = winnings.get(seat, 0) + chips
        self._emit("hand_ended", {
            "hand_no": self.hand_no,
            "stacks": {str(s): self.seats[s].stack for s in self.hand_seats},
            "winnings": {str(s): chips for s, chips in winnings.items()},
            # the street the betting ended on, all-in (the room works out the equity from it)
            **({"runout": hand.runout[0].street} if hand.runout else {}),
        }, private=record)
        self.last_record, self._last_hand = record, hand
        self.last_game = (self.hand_setup["game"], dict(self.hand_setup["options"]))
        played = self.hand_seats
        self.hand, self.hand_seats, self.hand_setup, self.hand_actions = None, (), {}, []
        self.turn_started = self.turn_deadline = None
        for seat in played:
            self._settle_seat(seat)
        if self.closing:
            self._close_now()
            return
        self.phase = WAITING
        self._maybe_start()
        if self.phase == WAITING:
            self._emit("waiting", {})

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

    def _close_now(self) -> None:
        for seat in sorted(self.seats):
            self._remove(seat, kicked=False)
        self.phase, self.deadline, self.closing = CLOSED, None, False
        self._emit("closed", {})

    # -- internals: helpers ------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.phase == CLOSED:
            raise TableError("the room is closed")

    def _seat(self, seat: int) -> SeatState:
        self._check_open()
        state = self.seats.get(seat) if isinstance(seat, int) else None
        if state is None:
            raise TableError(f"seat {seat!r} is empty")
        return state

    def _chips(self, seat: int, entry: str, amount: int, state: SeatState | None = None) -> None:
        """A ledger entry: chips entering (buy-in, rebuy, adjust) or leaving (cash-out)."""
        state = state or self.seats[seat]
        self.balance += amount
        self._emit("chips", {"seat": seat, "name": state.name, "entry": entry,
                             "amount": amount, "stack": state.stack},
                   private={"player": state.player})

    def _table_seats(self, message: str) -> str:
        """An engine message with its hand seat numbers turned into table seat numbers."""
        def seat(match: re.Match[str]) -> str:
            index = int(match.group(1))
            if 0 <= index < len(self.hand_seats):
                return f"seat {self.hand_seats[index]}"
            return match.group(0)
        return _SEAT_WORD.sub(seat, message)

    def _emit(self, kind: str, data: Mapping[str, Any], *, truth: Event | None = None,
              views: Mapping[int | None, Event] | None = None,
              private: Mapping[str, Any] | None = None) -> None:
        self.version += 1
        hand_no = self.hand_no if (self.hand is not None or kind == "hand_ended") else None
        self._outbox.append(TableEvent(self.version, kind, data, hand_no, truth, views, private,
                                       self.clock()))

    # -- persistence -------------------------------------------------------------------------

    def hand_record(self) -> dict[str, Any]:
        """The running hand as plain data: its setup (the shuffled deck included), the players
        and every action so far. ``rebuild_hand`` plays it again card for card."""
        return {
            "hand_no": self.hand_no, **self.hand_setup, "seats": list(self.hand_seats),
            "players": [{"seat": s, "player": self.seats[s].player, "name": self.seats[s].name}
                        for s in self.hand_seats],
            "actions": [[index, *acts.record(action)] for index, action in self.hand_actions],
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
            "seats": {str(n): dict(vars(seat)) for n, seat in self.seats.items()},
            "hand": self.hand_record() if self.hand is not None else None,
            "turn_started": self.turn_started, "turn_deadline": self.turn_deadline,
            # a copy: the client seeds come into this dict while it is open
            "fair_next": fair.copy(self.fair_next), "last_record": self.last_record,
            "managed": self.managed,
        }

    @classmethod
    def from_state(cls, settings: TableSettings, state: Mapping[str, Any], *, clock: Clock,
                   rng: RandomSource | None = None, room: str = "",
                   keep_clocks: bool = False) -> Table:
        """A table as ``to_state`` left it; a hand in progress is dealt again from its deck and
        its actions replayed. After a restart clocks start afresh (the time the server was down
        is not charged to anyone), so a hand or a pick resumes with a full action clock; with
        ``keep_clocks`` (a running server going back to its last commit after a failed command)
        every deadline stays as it was, so a failure never hands anyone a fresh clock."""
        table = cls(settings, clock=clock, rng=rng, room=room,
                    managed=bool(state.get("managed", False)))
        table.fair_next = state.get("fair_next")
        table.last_record = state.get("last_record")
        names = {item.name for item in fields(SeatState)}
        table.seats = {int(n): SeatState(**{k: v for k, v in seat.items() if k in names})
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
            table.deadline = now + settings.pause_between_hands
        elif table.phase == PICKING:
            table.deadline = now + settings.pick_clock
        record = state["hand"]
        if record is not None:
            table.hand = rebuild_hand(settings, record)
            table.hand_seats = tuple(record["seats"])
            table.hand_setup = {key: record[key] for key in
                                ("game", "options", "stakes", "stacks", "button", "deck", "fair",
                                 *HOOKS) if key in record}
            table.hand_actions = _stored_actions(record)
            table._published = len(table.hand.events)
            if table.hand.is_allocating or table.hand.is_choosing_runs:
                table._allocation_clock = True
                table.turn_started = now
                table.turn_deadline = now + (runs.runs_clock(settings)
                                             if table.hand.is_choosing_runs
                                             else settings.action_clock)
            elif table.hand.actor is not None:
                table.turn_started = now
                bank = table.seats[table.hand_seats[table.hand.actor]].time_bank
                table.turn_deadline = now + settings.action_clock + bank
        if keep_clocks:
            table.deadline, table.paused_at = state["deadline"], state["paused_at"]
            table.turn_started, table.turn_deadline = state["turn_started"], state["turn_deadline"]
        return table


def _new_hand(variant: Variant, stakes: Stakes, stacks: Sequence[int], button: int,
              cards: fairness.Seeds | Sequence[int], setup: Mapping[str, Any]) -> Hand:
    """A hand dealt from its committed seeds (or, stored before fair deals, from its deck),
    with the tournament hooks its setup names."""
    deck = Deck(seeds=cards) if isinstance(cards, fairness.Seeds) else Deck(list(cards))
    return Hand(variant, stakes, stacks, button, cards=deck, manual_allocation=True,
                dead_small_blind=bool(setup.get("dead_small_blind")),
                big_blind_ante=bool(setup.get("big_blind_ante")), straddle=setup.get("straddle"),
                runs_offered=bool(setup.get("runs_offered")))


def rebuild_hand(settings: TableSettings, record: Mapping[str, Any]) -> Hand:
    """The hand of ``record`` (``Table.hand_record``), dealt from its deck with its actions
    (through the engine's one replayer, as a hand history replays)."""
    variant = settings.variant_for(record["game"], record["options"])
    hand = _new_hand(variant, Stakes(**record["stakes"]), record["stacks"], record["button"],
                     fair.seeds_of(record) or record["deck"], record)
    try:
        return replay(hand, _stored_actions(record))
    except ReplayError as error:
        why = f"seat {error.seat} acts out of turn" if error.out_of_turn else error.reason
        raise TableError(f"the stored hand {record.get('hand_no')} does not replay: {why} "
                         f"(action {error.index + 1})") from None


def _stored_actions(record: Mapping[str, Any]) -> list[tuple[int, Action]]:
    """A stored hand's actions, ``[hand seat, name, argument]`` each, as values."""
    steps = []
    for number, stored in enumerate(record["actions"], 1):
        try:
            index, name, argument = stored
            steps.append((int(index), acts.from_record(name, argument)))
        except (TypeError, ValueError) as error:
            # A draw's or an allocation's cards are private: the error names no card.
            private = isinstance(stored, list | tuple) and len(stored) == 3 and \
                stored[1] in (Draw.name, Allocate.name)
            why = f"its {stored[1]} cannot be read" if private else str(error)
            raise TableError(f"the stored hand {record.get('hand_no')} does not replay: action "
                             f"{number} is not a stored action: {why}") from None
    return steps


@functools.lru_cache(maxsize=256)
def _posts(settings: TableSettings, game: str,
           options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    variant = settings.variant_for(game, dict(options))
    stakes = settings.stakes_for(variant)
    kind = variant.forced_bets
    if kind is ForcedBets.BLINDS:
        straddle = settings.straddle_for(variant)
        posts = {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind,
                 "straddle": straddle_amount(stakes.big_blind) if straddle else 0,
                 "straddler": straddle}
    elif kind is ForcedBets.ANTES:
        posts = {"ante": stakes.ante, "min_bet": stakes.big_blind}
    else:
        posts = {"ante": stakes.ante, "bring_in": stakes.bring_in,
                 "small_bet": stakes.small_bet, "big_bet": stakes.big_bet}
    return (("forced_bets", kind.value), *posts.items())


def _first_fitting(choices: Sequence[Variant], players: int) -> tuple[Variant, dict[str, Any]]:
    for variant in choices:
        for hole in variant.hole_card_options:
            if variant.max_players_by_hole[hole] >= players:
                if hole == variant.hole_cards:
                    return variant, {}
                return variant.with_options(hole_cards=hole), {"hole_cards": hole}
    raise TableError(f"no game deals to {players} players")  # pragma: no cover
