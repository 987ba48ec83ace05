"""Bots in rooms: the host's ``add_bot`` and ``remove_bot``, and one driver task per bot seat.

A bot sits like a player: ``Table.sit`` with a player id of its own (``bot:STYLE:HEX``), the same
seat rules, the same buy-in and ledger entries. Its driver is a task in the server process that
holds a ``Viewer`` for the bot's seat and plays through the same path a person's connection
does: it learns whether the seat has something to do (``Table.hand_turn(seat)``, what the
seat's view says of it), reads the seat's view to decide (``Table.hand_view(seat,
pills=False)``, the object whose ``plain()`` is the seat's snapshot ``hand`` but for the pills,
which no bot reads; the public ``Table.public_state()`` for Dealer's Choice), asks the
bot (``boardroom.bots``), turns the action it answers into the protocol command a person
sends, parses it with ``protocol.parse`` and submits it to the room's actor queue
(``Room.submit``), where it is checked and applied like any other. It never touches
``Table.hand`` or another seat's cards.

The room wakes every driver after each commit (``BotSeats.sync``); a driver with something to
decide waits its think time (so people can follow), decides off the event loop (the equity bots'
Monte Carlo runs in a worker thread) and submits. The bot seats live in the table's state (their
player ids), so a room recovered after a restart starts its drivers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any, Protocol

from boardroom.bots import STYLES, make_bot
from boardroom.bots.players import Bot
from boardroom.engine import Action, Allocate, Draw, actions
from boardroom.engine.actions import ChooseRuns
from boardroom.server.protocol import Command, ProtocolError, RateLimit, failure, parse
from boardroom.server.viewer import Viewer
from boardroom.server.wake import Wake
from boardroom.table import BETWEEN, OUT, PENDING, PICKING, PLAYING, Table, TableError


class Room(Protocol):
    """What a bot needs of its room's actor (``room.Room`` is one): its table to read, and its
    queue to submit to like any connection."""

    @property
    def id(self) -> str: ...

    @property
    def table(self) -> Table: ...

    async def submit(self, viewer: Viewer, command: Command) -> dict[str, Any]: ...

log = logging.getLogger("boardroom.server")

PREFIX = "bot:"
RETRIES = 3  # refused commands in a row before a driver waits for the table to change


def bot_style(player: str) -> str | None:
    """The style of a bot's player id (``bot:tight:9f3a...``), or None for a person."""
    if not player.startswith(PREFIX):
        return None
    style = player[len(PREFIX):].partition(":")[0]
    return style if style in STYLES else None


def add_bot(table: Table, args: dict[str, Any]) -> dict[str, Any]:
    """Host command ``add_bot {seat?, style, name?}``: a bot takes a seat and buys in."""
    style = args["style"]
    if style not in STYLES:
        raise TableError(f"unknown bot style {style[:20]!r} (one of: {', '.join(STYLES)})")
    seat = args.get("seat")
    if seat is None:
        seat = next((n for n in range(table.seat_limit) if n not in table.seats), None)
        if seat is None:
            raise TableError("every seat is taken")
    name = args.get("name")
    if name is None:
        names = {state.name.lower() for state in table.seats.values()}
        name = next(candidate for n in range(1, 12)
                    if (candidate := f"{style.title()} Bot {n}").lower() not in names)
    player = f"{PREFIX}{style}:{secrets.token_hex(6)}"
    table.sit(seat, player, name)
    if table.seats[seat].status == PENDING:
        table.approve(seat)  # the host added it: no approval to wait for
    return {"seat": seat, "name": table.seats[seat].name, "style": style}


def remove_bot(table: Table, args: dict[str, Any]) -> dict[str, Any]:
    """Host command ``remove_bot {seat}``: the bot leaves (folding first when in a hand)."""
    seat = args["seat"]
    state = table.seats.get(seat)
    if state is None:
        raise TableError(f"seat {seat} is empty")
    if bot_style(state.player) is None:
        raise TableError(f"seat {seat} is not a bot: kick a player instead")
    if state.leaving:
        raise TableError(f"seat {seat} is already leaving after this hand")
    table.leave(seat)
    return {"seat": seat}


class BotDriver:
    """One bot seat's task: wake, look at the seat's view, think, submit a command."""

    def __init__(self, room: Room, seat: int, player: str, think: float, *,
                 resumed: bool = False) -> None:
        style = bot_style(player)
        assert style is not None
        self.room, self.seat, self.player, self.think = room, seat, player, think
        # A room restored (a restart, a failover): what the seat has to do when its driver
        # starts is done at once, without thinking again (the think had begun on the server
        # that went down, and the table waited for it meanwhile).
        self._resumed = resumed
        self.bot: Bot = make_bot(style, seed=int(player.rpartition(":")[2], 16))
        self.viewer: Viewer = Viewer(f"{player}@{room.id}", RateLimit(0.0), room=room.id,
                                     seat=seat, player=player,
                                     name=room.table.seats[seat].name)
        self._wake = Wake()  # (not an asyncio.Event: server.wake)
        self._wake.set()
        self._task = asyncio.create_task(self._run(), name=f"bot-{room.id}-{seat}")
        self._ids = 0
        self._failures = 0
        self._straddle_asked = 0  # the last hand it decided whether to straddle

    def poke(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            due = self._next()
            if due is None:
                continue
            if self.think > 0 and not self._resumed:
                await asyncio.sleep(self.think)
            if due != "seed":  # (a seed for the next deal may come first)
                self._resumed = False
            try:
                message = await self._decide()
            except Exception:  # a bot's bug must not end its seat's play for good
                log.exception("room %s: bot in seat %d failed to decide", self.room.id,
                              self.seat)
                message = None
            if message is None:
                continue
            answer = await self._submit(message)
            if answer.get("ok"):
                self._failures = 0
            else:
                self._failures += 1
                log.info("room %s: bot in seat %d: %s refused: %s", self.room.id, self.seat,
                         message["type"], answer.get("error"))
                if self._failures < RETRIES:
                    self._wake.set()  # look again (the table may have moved on)

    def _next(self) -> str | None:
        """What the seat has to do now: "hand", "seed", "pick", "straddle", "sit_in", "rebuy"
        or None."""
        table = self.room.table
        state = table.seats.get(self.seat)
        if state is None or state.player != self.player or state.leaving:
            return None
        if _seed_wanted(table, self.seat):
            return "seed"
        # Not from a view: the bots wake at every change of their table, and a view is costly
        # to build (it is built to decide).
        if table.hand_turn(self.seat):
            return "hand"
        if table.phase == PICKING and table.picker == self.seat:
            return "pick"
        if table.phase == BETWEEN and not state.straddle_next and \
                self._straddle_asked != table.hand_no + 1 and self.seat in table.next_straddlers():
            return "straddle"
        if state.status == OUT and not table.in_hand(self.seat):
            if state.stack > 0 and not state.sit_out_next:
                return "sit_in"
            if state.stack == 0 and not state.rebuy_requested and not state.rebuy_approved:
                return "rebuy"
        return None

    async def _decide(self) -> dict[str, Any] | None:
        """The protocol message for what the seat has to do now (its view read afresh)."""
        table = self.room.table
        match self._next():
            case "hand":
                view = table.hand_view(self.seat, pills=False)  # bots never read pills
                if view is None:
                    return None
                action = await asyncio.to_thread(self.bot.respond, view)
                return command_for(action) if action is not None else None
            case "seed":  # the bot's own random seed for the next deal, as a browser sends
                fair = table.fair_next  # (its hand number: not the whole public state)
                if fair is None:
                    return None
                return {"type": "seed", "hand_no": fair["hand_no"], "seed": secrets.token_hex(32)}
            case "pick":
                return {"type": "pick",
                        "game": self.bot.pick(table.public_state()["choices"] or [])}
            case "straddle":  # its seat straddles next hand if it wants to (its style's rule)
                self._straddle_asked = table.hand_no + 1
                return {"type": "straddle", "on": True} if self.bot.straddles() else None
            case "sit_in":
                return {"type": "sit_in"}
            case "rebuy":  # a busted bot asks the host for a new buy-in
                return {"type": "rebuy", "amount": table.settings.starting_stack}
        return None

    async def _submit(self, message: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        data = {"id": f"{secrets.token_hex(4)}-{self._ids}", **message}
        try:
            command = parse(data)
        except ProtocolError as error:
            return failure(data["id"], "bad_command", str(error))
        return await self.room.submit(self.viewer, command)


def command_for(action: Action) -> dict[str, Any]:
    """The protocol command a person sends for ``action``: ``allocate`` for a commit, else
    ``act`` with the action's name and amount, or a draw's cards (the words
    ``protocol.act_action`` reads)."""
    name, argument = actions.record(action)
    if isinstance(action, Allocate):
        return {"type": "allocate", "cards": argument}
    if isinstance(action, ChooseRuns):
        return {"type": "runs", "runs": action.runs}
    if isinstance(action, Draw):
        return {"type": "act", "action": name, "cards": argument}
    return {"type": "act", "action": name} | ({} if argument is None else {"amount": argument})


def _seed_wanted(table: Table, seat: int) -> bool:
    """Seeds are open for the next hand and this seat has sent none yet."""
    fair = table.fair_next
    return fair is not None and str(seat) not in fair["client_seeds"] and \
        table.seats[seat].status == PLAYING


class BotSeats:
    """A room's bot drivers, kept in step with the table's seats (every room has one: slots)."""

    __slots__ = ("_stopping", "_synced", "drivers", "room", "think")

    def __init__(self, room: Room, think: float) -> None:
        self.room = room
        self.think = think
        self.drivers: dict[int, BotDriver] = {}
        self._stopping: set[asyncio.Task[None]] = set()
        self._synced = False  # the first sync is the room's start: its bots were seated before

    def styles(self) -> dict[str, str]:
        """The bot seats and their styles (public: the table shows who is a bot)."""
        out = {}
        for seat, state in sorted(self.room.table.seats.items()):
            style = bot_style(state.player)
            if style is not None:
                out[str(seat)] = style
        return out

    def sync(self) -> None:
        """Start a driver for every bot seat, stop the drivers of bots gone, wake the rest.
        The first sync starts a restored room's bots, which resume at once."""
        seats = self.room.table.seats
        resumed, self._synced = not self._synced, True
        for seat, driver in list(self.drivers.items()):
            state = seats.get(seat)
            if state is None or state.player != driver.player:
                del self.drivers[seat]
                task = asyncio.create_task(driver.stop())
                self._stopping.add(task)
                task.add_done_callback(self._stopping.discard)
        for seat, state in seats.items():
            if seat not in self.drivers and bot_style(state.player) is not None:
                self.drivers[seat] = BotDriver(self.room, seat, state.player, self.think,
                                               resumed=resumed)
        for driver in self.drivers.values():
            driver.poke()

    async def stop(self) -> None:
        drivers, self.drivers = list(self.drivers.values()), {}
        for driver in drivers:
            await driver.stop()
        for task in list(self._stopping):
            await task

