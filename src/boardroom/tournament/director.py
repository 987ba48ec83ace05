"""The tournament director: one tournament's whole state and every decision about it.

The director is pure: no I/O, no wall clock (every call that depends on time takes ``now`` in
seconds), no global random (a seeded ``random.Random`` it keeps in its state). It never deals a
card. Whoever runs the tables (the in-process runner of ``boardroom.tournament.inprocess``, the
server's table actors) asks it for each table's next hand (``next_hand``) and tells it how each
hand ended (``hand_ended``); the director answers with the level, the game, the dead-button
positions and the stacks, and in between it seats, moves and eliminates players, balances and
breaks tables, runs the level clock and hand-for-hand play, and pays the places. Everything it
decides is also published as plain-data events (``drain``). ``to_state`` / ``from_state`` keep
it across a crash: the level clock resumes with the time it had left.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from boardroom.rules import DEALERS_CHOICE, Rotation, find_game
from boardroom.tournament.payouts import Finish, PayoutTable, award, preset_for, prizes
from boardroom.tournament.seating import (
    Positions,
    next_big_blind,
    next_positions,
    seat_draw,
    tables_needed,
    worst_seat,
)
from boardroom.tournament.structure import Break, Level, Structure, StructureError

MAX_TABLE_SIZE = 10
MAX_WAITING = 200  # entries waiting for the host's approval at once

# Player statuses.
REGISTERED = "registered"  # before the start
PLAYING = "playing"
OUT = "out"  # eliminated (their last entry)


class TournamentError(ValueError):
    """A command the tournament's rules or state do not allow; the text says why, and ``code``
    names the kind of refusal for a client to act on (``refused``, or ``bad_host_secret``: the
    host's command without the host's secret; the codes of ``docs/protocol.md``)."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class TournamentConfig:
    """What the host chooses: the games, the structure, the buy-in, the payouts, the tables."""

    structure: Structure
    games: tuple[str, ...] = ("plo",)  # one game, a rotation, or ("dealers-choice",)
    rotate_every: int = 0  # rotation: 0 changes the game every level, N every N hands a table
    buy_in: int = 100  # tournament units per entry, rebuy and add-on
    table_size: int = 6
    payouts: PayoutTable | None = None  # None: the preset for the field size
    entry_approval: bool = False  # a person's entry waits for the host to approve it

    def check(self) -> TournamentConfig:
        self.structure.check()
        if not self.games:
            raise TournamentError("a tournament needs a game")
        limit = MAX_TABLE_SIZE
        for game_id in self.games:
            try:
                game = find_game(game_id)
            except ValueError as error:
                raise TournamentError(f"no such game {game_id!r}: {error}") from None
            if isinstance(game, Rotation):
                raise TournamentError(f"a tournament's rotation lists its games (e.g. "
                                      f"{','.join(g.game for g in game.games)}), not "
                                      f"{game_id!r}")
            if game is DEALERS_CHOICE:
                if len(self.games) > 1:
                    raise TournamentError("Dealer's Choice cannot be part of a rotation")
                limit = min(limit, max(v.max_players for v in DEALERS_CHOICE.choices(2)))
            else:
                limit = min(limit, game.max_players)  # type: ignore[union-attr]
        if (not isinstance(self.table_size, int) or isinstance(self.table_size, bool)
                or not 2 <= self.table_size <= limit):
            raise TournamentError(f"tables seat 2 to {limit} players for these games, not "
                                  f"{self.table_size!r}")
        if not isinstance(self.buy_in, int) or isinstance(self.buy_in, bool) or self.buy_in < 0:
            raise TournamentError(f"the buy-in is a whole number of units, not {self.buy_in!r}")
        if (not isinstance(self.rotate_every, int) or isinstance(self.rotate_every, bool)
                or self.rotate_every < 0):
            raise TournamentError("rotate_every is 0 (every level) or a number of hands")
        if not isinstance(self.entry_approval, bool):
            raise TournamentError("entry_approval is true or false")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {"structure": self.structure.to_dict(), "games": list(self.games),
                "rotate_every": self.rotate_every, "buy_in": self.buy_in,
                "table_size": self.table_size,
                "payouts": self.payouts.to_dict() if self.payouts else None,
                "entry_approval": self.entry_approval}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentConfig:
        payouts = data.get("payouts")
        return cls(Structure.from_dict(data["structure"]), tuple(data["games"]),
                   data["rotate_every"], data["buy_in"], data["table_size"],
                   PayoutTable.from_dict(payouts) if payouts else None,
                   data.get("entry_approval", False)).check()


@dataclass
class Player:
    id: str
    name: str
    status: str = REGISTERED
    stack: int = 0  # during a hand: the stack it started with
    table: int | None = None
    seat: int | None = None
    entries: int = 1
    rebuys: int = 0  # this entry's
    addon: bool = False  # this entry's
    auto_rebuy: bool = False  # rebuy at once on busting while rebuys are open
    bot: bool = False
    queued: list[str] = field(default_factory=list)  # "rebuy", "addon": at this hand's end
    # what was queued and refused at the hand's end: {"what", "reason"}, kept until the
    # player asks for something again (their page says why)
    refused: list[dict[str, str]] = field(default_factory=list)


@dataclass
class TableState:
    number: int
    seats: dict[int, str] = field(default_factory=dict)  # seat -> player id
    last: Positions | None = None  # the positions of the last hand started here
    newcomers: set[int] = field(default_factory=set)  # seats not dealt the last hand
    hand: Positions | None = None  # the hand running now
    hand_no: int = 0
    start_stacks: dict[str, int] = field(default_factory=dict)  # of the running hand
    level_hands: int = 0  # hands started here in the current level
    round: int = 0  # hand-for-hand: the last round this table played (or is playing)
    movers: set[int] = field(default_factory=set)  # newcomers moved in to balance, not dealt yet

    @property
    def running(self) -> bool:
        return self.hand is not None

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seats": {str(s): p for s, p in self.seats.items()},
                "last": self.last.to_dict() if self.last else None,
                "newcomers": sorted(self.newcomers), "movers": sorted(self.movers),
                "hand": self.hand.to_dict() if self.hand else None, "hand_no": self.hand_no,
                "start_stacks": dict(self.start_stacks), "level_hands": self.level_hands,
                "round": self.round}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableState:
        return cls(data["number"], {int(s): p for s, p in data["seats"].items()},
                   Positions.from_dict(data["last"]) if data["last"] else None,
                   set(data["newcomers"]),
                   Positions.from_dict(data["hand"]) if data["hand"] else None,
                   data["hand_no"], dict(data["start_stacks"]), data["level_hands"],
                   data["round"], set(data.get("movers", ())))


@dataclass(frozen=True)
class HandPlan:
    """What a table deals next: the level's stakes, the game, the positions and the players."""

    table: int
    hand_no: int
    level: int  # 0-based
    stakes: Level
    ante_mode: str
    game: str
    positions: Positions
    players: tuple[tuple[int, str, int], ...]  # (seat, player, stack) of the dealt seats
    hand_for_hand: bool


@dataclass
class Elimination:
    """Players out in the same hand (or the same hand-for-hand round), with their stacks at its
    start; ``entries`` names each entry as (player, entry number)."""

    level: int
    entries: list[tuple[str, int, int]]  # (player, entry number, stack at the hand's start)


class Director:
    """One tournament; see the module docstring."""

    def __init__(self, config: TournamentConfig, *, seed: int | None = None) -> None:
        self.config = config.check()
        self.rng = random.Random(seed)
        self.players: dict[str, Player] = {}
        self.tables: dict[int, TableState] = {}
        self.started = False
        self.finished = False
        self.registration_open = True
        self.position = 0  # in the structure's schedule (levels and breaks)
        self.elapsed = 0.0  # seconds spent in the schedule entry, up to ``since``
        self.since: float | None = None  # the clock runs from here (None: stopped)
        self.paused = False
        self.hand_for_hand = False
        self.round = 0
        self.pending: list[tuple[str, int, int]] = []  # hand-for-hand round's eliminations
        self.eliminations: list[Elimination] = []
        self.chips = 0  # every chip issued: starting stacks, rebuys, add-ons
        self.rebuys = 0
        self.addons = 0
        self.entries = 0
        self.finishes: list[Finish] = []  # settled when the tournament ends
        self.level_eliminations: dict[int, int] = {}
        self.left = 0  # players still in (``len(self.alive)``, kept as a count)
        self.waiting: dict[str, str] = {}  # entries waiting for the host's approval: id -> name
        self.declined: dict[str, str] = {}  # entries the host declined: id -> why
        self._prizes_for: tuple[int, int] | None = None
        self._prizes: list[int] = []
        self._outbox: list[dict[str, Any]] = []

    # -- reading ----------------------------------------------------------------------------

    @property
    def structure(self) -> Structure:
        return self.config.structure

    @property
    def level_index(self) -> int:
        return self.structure.level_of_entry(self.position)

    @property
    def on_break(self) -> bool:
        return isinstance(self._entry, Break)

    @property
    def _entry(self) -> Level | Break:
        schedule = self.structure.schedule
        return schedule[min(self.position, len(schedule) - 1)]

    @property
    def level(self) -> Level:
        return self.structure.level(self.level_index)

    @property
    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.status == PLAYING]

    @property
    def prize_pool(self) -> int:
        return self.config.buy_in * (self.entries + self.rebuys + self.addons)

    @property
    def payout_table(self) -> PayoutTable:
        return self.config.payouts or preset_for(max(self.entries, 1))

    def place_prizes(self) -> list[int]:
        key = (self.prize_pool, self.entries)
        if self._prizes_for != key:
            self._prizes_for, self._prizes = key, prizes(self.prize_pool, self.payout_table)
        return list(self._prizes)

    def time_left(self, now: float) -> float | None:
        """Seconds to the end of the level or break (None: a level counted in hands)."""
        minutes = self._entry.minutes
        if minutes is None:
            return None
        return max(0.0, minutes * 60 - self._elapsed(now))

    def chips_in_play(self) -> int:
        """Every chip of every live player (a hand's chips counted at its start)."""
        return sum(p.stack for p in self.alive)

    def standings(self) -> list[Finish]:
        """Every eliminated entry's place and prize so far (final once registration closed),
        best first; the winner's once the tournament is over."""
        if self.finished:
            return list(self.finishes)
        return _places(self.eliminations, self.left, self.place_prizes())

    def drain(self) -> list[dict[str, Any]]:
        out, self._outbox = self._outbox, []
        return out

    # -- registration -----------------------------------------------------------------------

    def register(self, player: str, name: str, now: float, *, bot: bool = False) -> None:
        """A new entrant: before the start, or seated at once during late registration."""
        name = self._check_entrant(player, name, now)
        self.players[player] = Player(player, name, bot=bot)
        self.entries += 1
        self._emit("registered", player=player, name=name, entry=1)
        if self.started:
            self._enter(self.players[player], now)

    def _check_entrant(self, player: str, name: str, now: float) -> str:
        """The entrant's name, checked (``TournamentError`` saying what is wrong)."""
        if self.finished:
            raise TournamentError("the tournament is over")
        if not isinstance(player, str) or not player:
            raise TournamentError("an entrant needs an id")
        if player in self.players or player in self.waiting:
            raise TournamentError(f"{name} is already registered" if self.max_entries == 1
                                  else f"{name} is registered: re-enter after busting")
        name = name.strip() if isinstance(name, str) else ""
        if not 1 <= len(name) <= 24 or not name.isprintable():
            raise TournamentError("a name is 1 to 24 printable characters")
        taken = [p.name for p in self.players.values()] + list(self.waiting.values())
        if any(other.lower() == name.lower() for other in taken):
            raise TournamentError(f"the name {name!r} is taken in this tournament")
        self._check_registration(now)
        return name

    # -- the host's approval of entries -----------------------------------------------------

    def request_entry(self, player: str, name: str, now: float) -> bool:
        """A person asks to enter: registered at once (True), or, when the host approves each
        entry, waiting for the host (False). A waiting entry pays nothing into the pool."""
        if not self.config.entry_approval:
            self.register(player, name, now)
            return True
        name = self._check_entrant(player, name, now)
        if len(self.waiting) >= MAX_WAITING:
            raise TournamentError(f"{MAX_WAITING} entries are already waiting for the host's "
                                  f"approval: try again later")
        self.waiting[player] = name
        self._emit("entry_waiting", player=player, name=name)
        return False

    def approve(self, player: str, now: float) -> None:
        """Host: a waiting entry enters (as ``register`` does: seated at once once started)."""
        name = self._waiting(player)
        del self.waiting[player]
        try:
            self.register(player, name, now)
        except TournamentError:
            self.waiting[player] = name  # refused: it waits on, changing nothing
            raise

    def decline(self, player: str, reason: str = "the host declined this entry") -> None:
        """Host: a waiting entry does not enter (it paid nothing)."""
        name = self._waiting(player)
        del self.waiting[player]
        self.declined[player] = reason
        self._emit("entry_declined", player=player, name=name, reason=reason)

    def _waiting(self, player: str) -> str:
        name = self.waiting.get(player) if isinstance(player, str) else None
        if name is None:
            raise TournamentError("no entry with that id is waiting for approval")
        return name

    @property
    def max_entries(self) -> int:
        return self.structure.max_entries

    def reenter(self, player: str, now: float) -> None:
        """A new entry for an eliminated player, while late registration is open."""
        state = self._player(player)
        if state.status != OUT:
            raise TournamentError(f"{state.name} is still in the tournament: a re-entry comes "
                                  f"after busting")
        if state.entries >= self.max_entries:
            raise TournamentError(
                "this tournament has no re-entry" if self.max_entries == 1 else
                f"{state.name} has used all {self.max_entries} entries")
        self._check_registration(now)
        state.entries += 1
        state.rebuys, state.addon, state.auto_rebuy = 0, False, False
        self.entries += 1
        self._emit("registered", player=player, name=state.name, entry=state.entries)
        self._enter(state, now)

    def _check_registration(self, now: float) -> None:
        self.tick(now)
        if not self.registration_open:
            raise TournamentError("registration is closed")

    def close_registration(self, now: float) -> None:
        """Host: close late registration now."""
        self.tick(now)
        if not self.registration_open:
            raise TournamentError("registration is already closed")
        self._close_registration()
        self._after_change(now)

    def rebuy(self, player: str, now: float) -> None:
        """A rebuy between the player's hands, during the rebuy period, at or below the
        starting stack."""
        self.tick(now)
        state = self._player(player)
        self._check_rebuy(state)
        state.refused = []
        if not self._queue(state, "rebuy"):
            self._add_rebuy(state)

    def _queue(self, state: Player, what: str) -> bool:
        """During the player's hand: keep ``what`` for the hand's end (True)."""
        table = self.tables[state.table] if state.table is not None else None
        if table is None or not table.running or state.id not in table.start_stacks:
            return False
        if what in state.queued:
            raise TournamentError(f"{state.name} has already asked for "
                                  f"{'a rebuy' if what == 'rebuy' else 'the add-on'}: it is "
                                  f"added when this hand ends")
        state.queued.append(what)
        self._emit("queued", player=state.id, what=what)
        return True

    def _take_queued(self, state: Player) -> None:
        """At the end of the player's hand: what they asked for during it, checked again."""
        queued, state.queued = state.queued, []
        for what in queued:
            try:
                if what == "rebuy":
                    self._check_rebuy(state)
                    self._add_rebuy(state)
                else:
                    self._check_addon(state)
                    self._add_addon(state)
            except TournamentError as error:
                state.refused.append({"what": what, "reason": str(error)})
                self._emit("refused", player=state.id, what=what, reason=str(error))

    def _check_rebuy(self, state: Player) -> None:
        rules = self.structure
        if state.status != PLAYING:
            raise TournamentError(f"{state.name} is not playing")
        if not rules.rebuy_levels:
            raise TournamentError("this tournament has no rebuys")
        if self.level_index >= rules.rebuy_levels:
            raise TournamentError(f"the rebuy period ended with level {rules.rebuy_levels}")
        if state.stack > rules.starting_stack:
            raise TournamentError(f"a rebuy needs a stack at or below the starting stack "
                                  f"({rules.starting_stack})")
        if rules.max_rebuys and state.rebuys >= rules.max_rebuys:
            raise TournamentError(f"{state.name} has used all {rules.max_rebuys} rebuys")

    def _add_rebuy(self, state: Player) -> None:
        state.rebuys += 1
        state.stack += self.structure.rebuy_chips
        self.chips += self.structure.rebuy_chips
        self.rebuys += 1
        self._emit("rebuy", player=state.id, chips=self.structure.rebuy_chips,
                   stack=state.stack)

    def set_auto_rebuy(self, player: str, on: bool) -> None:
        """The player rebuys at once if they bust while rebuys are open (TDA: declared before
        the hand, so they play chips behind)."""
        self._player(player).auto_rebuy = bool(on)

    def addon(self, player: str, now: float) -> None:
        """The one add-on of an entry, in the level (or break) after the rebuy period."""
        self.tick(now)
        state = self._player(player)
        self._check_addon(state)
        state.refused = []
        if not self._queue(state, "addon"):
            self._add_addon(state)

    def _check_addon(self, state: Player) -> None:
        rules = self.structure
        if not rules.addon_chips:
            raise TournamentError("this tournament has no add-on")
        if state.status != PLAYING:
            raise TournamentError(f"{state.name} is not playing")
        if self.level_index != rules.rebuy_levels:
            raise TournamentError(f"the add-on is offered in level {rules.rebuy_levels + 1} "
                                  f"only")
        if state.addon:
            raise TournamentError(f"{state.name} has taken the add-on")

    def _add_addon(self, state: Player) -> None:
        rules = self.structure
        player = state.id
        state.addon = True
        state.stack += rules.addon_chips
        self.chips += rules.addon_chips
        self.addons += 1
        self._emit("addon", player=player, chips=rules.addon_chips, stack=state.stack)

    # -- the clock --------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """The seat draw and the first level's clock."""
        if self.started:
            raise TournamentError("the tournament has started")
        if len(self.players) < 2:
            raise TournamentError("a tournament needs at least two entrants")
        payouts = self.config.payouts
        if payouts is not None and payouts.places > len(self.players):
            raise TournamentError(f"the payout table pays {payouts.places} places, but only "
                                  f"{len(self.players)} players entered")
        size = self.config.table_size
        count = tables_needed(len(self.players), size)
        draw = seat_draw(sorted(self.players), count, size, self.rng)
        self.started = True
        self.since = None if self.paused else now  # paused before the start: still stopped
        for number, seats in enumerate(draw, 1):
            table = self.tables[number] = TableState(number)
            for seat, player in seats:
                self._seat(self.players[player], table, seat, "draw")
        for state in self.players.values():
            state.status = PLAYING
            state.stack = self.structure.starting_stack
            self.chips += state.stack
        self.left = len(self.players)
        self._emit("started", tables=count, players=len(self.players), level=self._level_data())
        if not self.structure.late_registration_levels:
            self._close_registration()

    def pause(self, now: float) -> None:
        if self.paused:
            raise TournamentError("the tournament is already paused")
        self.tick(now)
        self._stop_clock(now)
        self.paused = True
        self._emit("paused")

    def resume(self, now: float) -> None:
        if not self.paused:
            raise TournamentError("the tournament is not paused")
        self.paused = False
        if self.started and not self.finished:
            self.since = now
        self._emit("resumed", time_left=self.time_left(now))

    def add_time(self, seconds: float, now: float) -> None:
        """Host: lengthen the current level or break by ``seconds`` (negative: shorten)."""
        if self._entry.minutes is None:
            raise TournamentError("this level lasts a number of hands, not minutes")
        self.tick(now)
        self.elapsed -= seconds  # below 0: the level runs longer than its length
        self._emit("time_added", seconds=seconds, time_left=self.time_left(now))
        self.tick(now)

    def _elapsed(self, now: float) -> float:
        return self.elapsed + (now - self.since if self.since is not None else 0.0)

    def _stop_clock(self, now: float) -> None:
        self.elapsed = self._elapsed(now)
        self.since = None

    def tick(self, now: float) -> None:
        """Advance the levels and breaks the clock has finished."""
        if not self.started or self.finished or self.since is None:
            return
        while self.position < len(self.structure.schedule) - 1:
            minutes = self._entry.minutes
            if minutes is None or self._elapsed(now) < minutes * 60:
                return
            self.elapsed = self._elapsed(now) - minutes * 60
            self.since = now
            self._advance(now)

    def _advance(self, now: float) -> None:
        self.position += 1
        for table in self.tables.values():
            table.level_hands = 0
        entry = self._entry
        if isinstance(entry, Break):
            self._emit("break", minutes=entry.minutes)
        else:
            self._emit("level", level=self._level_data())
        if self.registration_open and self.level_index >= self.structure.late_registration_levels:
            self._close_registration()
            self._after_change(now)

    def _level_data(self) -> dict[str, Any]:
        return {"index": self.level_index, **asdict(self.level)}

    def _close_registration(self) -> None:
        self.registration_open = False
        for player in list(self.waiting):
            self.decline(player, "registration closed before the host approved this entry")
        self._emit("registration_closed", entries=self.entries, prize_pool=self.prize_pool,
                   paid=self.payout_table.places)

    # -- hands ------------------------------------------------------------------------------

    def next_hand(self, table_number: int, now: float) -> HandPlan | None:
        """The hand ``table_number`` deals now, or None while it must wait (not started,
        paused, a break, fewer than two players, hand-for-hand, over)."""
        self.tick(now)
        table = self.tables.get(table_number)
        if table is None:
            raise TournamentError(f"there is no table {table_number}")
        if table.running:
            raise TournamentError(f"table {table_number} is dealing hand {table.hand_no}")
        if (not self.started or self.finished or self.paused or self.on_break
                or len(table.seats) < 2):
            return None
        if self.hand_for_hand:
            if table.round >= self.round or any(
                    t.running and t.round != self.round for t in self.tables.values()):
                return None
            table.round = self.round
        size = self.config.table_size
        positions = next_positions(table.last, table.seats, table.newcomers, size, self.rng,
                                   movers=table.movers)
        table.hand, table.last = positions, positions
        table.newcomers = set(positions.waiting)
        table.movers &= table.newcomers
        table.hand_no += 1
        table.level_hands += 1
        players = tuple((seat, table.seats[seat], self.players[table.seats[seat]].stack)
                        for seat in positions.dealt)
        table.start_stacks = {player: stack for _, player, stack in players}
        plan = HandPlan(table.number, table.hand_no, self.level_index, self.level,
                        self.structure.ante_mode, self._game_for(table), positions, players,
                        self.hand_for_hand)
        self._emit("hand_started", table=table.number, hand_no=table.hand_no,
                   level=self.level_index, game=plan.game, button=positions.button,
                   small_blind=None if positions.small_blind_dead else positions.small_blind,
                   big_blind=positions.big_blind, seats=list(positions.dealt))
        return plan

    def _game_for(self, table: TableState) -> str:
        games = self.config.games
        if len(games) == 1:
            return games[0]
        if self.config.rotate_every:
            return games[((table.hand_no - 1) // self.config.rotate_every) % len(games)]
        return games[self.level_index % len(games)]

    def hand_ended(self, table_number: int, stacks: Mapping[str, int], now: float) -> None:
        """The hand of ``table_number`` is over with these stacks (every player dealt in)."""
        table = self.tables.get(table_number)
        if table is None or not table.running:
            raise TournamentError(f"table {table_number} is not dealing a hand")
        if set(stacks) != set(table.start_stacks):
            raise TournamentError(f"table {table_number}'s hand ended with the stacks of "
                                  f"{sorted(stacks)}, but it dealt {sorted(table.start_stacks)}")
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in stacks.values()):
            raise TournamentError("stacks are whole numbers of chips, 0 or more")
        before, after = sum(table.start_stacks.values()), sum(stacks.values())
        if before != after:
            raise TournamentError(f"table {table_number}'s hand {table.hand_no} ended with "
                                  f"{after} chips, not the {before} it started with")
        start = table.start_stacks
        table.hand, table.start_stacks = None, {}
        busted: list[tuple[str, int, int]] = []
        for player, stack in stacks.items():
            state = self.players[player]
            state.stack = stack
            if state.queued:
                self._take_queued(state)  # a rebuy asked during the hand keeps a bust in
            if state.stack == 0:
                if state.auto_rebuy and self._can_rebuy(state):
                    self._add_rebuy(state)
                    continue
                busted.append((player, state.entries, start[player]))
        self._emit("hand_ended", table=table_number, hand_no=table.hand_no,
                   stacks=dict(stacks))
        for player, _, _ in busted:
            state = self.players[player]
            self._unseat(state)
            state.status = OUT
            self.left -= 1
        if busted:
            if self.hand_for_hand and table.round == self.round:
                self.pending.extend(busted)
            else:
                self._eliminate(busted)
        if self.hand_for_hand and self._round_over():
            self._end_round()
        hands = None if self.on_break else self.level.hands
        if (hands is not None and table.level_hands >= hands
                and self.position < len(self.structure.schedule) - 1):
            self._advance(now)
        self.tick(now)
        self._after_change(now)

    def _can_rebuy(self, state: Player) -> bool:
        try:
            self._check_rebuy(state)
        except TournamentError:
            return False
        return True

    def _round_over(self) -> bool:
        """Every table that can deal has played the hand-for-hand round, and none is dealing."""
        return not any(t.running for t in self.tables.values()) and all(
            t.round >= self.round or len(t.seats) < 2 for t in self.tables.values())

    def _end_round(self) -> None:
        if self.pending:
            self._eliminate(self.pending)
            self.pending = []
        self.round += 1
        if self.hand_for_hand and self.left <= self.payout_table.places:
            self.hand_for_hand = False
            self._emit("hand_for_hand", on=False)

    def _eliminate(self, group: Sequence[tuple[str, int, int]]) -> None:
        level = self.level_index
        self.eliminations.append(Elimination(level, list(group)))
        self.level_eliminations[level] = self.level_eliminations.get(level, 0) + len(group)
        best = self.left + 1
        finishes = award(self.place_prizes(), [(p, s) for p, _, s in group], best)
        self._emit("eliminated", level=level, finishes=[asdict(f) for f in finishes])

    def _after_change(self, now: float) -> None:
        """Break and balance idle tables, start or stop hand-for-hand, finish."""
        if not self.started or self.finished:
            return
        alive = self.left
        if alive <= 1 and not any(t.running for t in self.tables.values()):
            self._finish()
            return
        self._break_tables()
        self._balance()
        paid = self.payout_table.places
        wanted = (not self.registration_open and len(self.tables) > 1
                  and alive == paid + 1)
        if wanted and not self.hand_for_hand:
            self.hand_for_hand = True
            self.round += 1
            self._emit("hand_for_hand", on=True, players=alive, paid=paid)
        elif (self.hand_for_hand and (len(self.tables) <= 1 or alive <= paid)
              and not self.pending):
            self.hand_for_hand = False
            self._emit("hand_for_hand", on=False)

    def _break_tables(self) -> None:
        size = self.config.table_size
        while len(self.tables) > tables_needed(self.left, size):
            target = self.tables[max(self.tables)]  # fixed order: the highest number first
            if target.running:
                return
            del self.tables[target.number]
            self._emit("table_broken", table=target.number)
            movers = list(target.seats.values())
            self.rng.shuffle(movers)
            for player in movers:
                state = self.players[player]
                state.table = state.seat = None
                short = self._shortest()
                empty = [s for s in range(size) if s not in short.seats]
                self._seat(state, short, self.rng.choice(empty), "table broken",
                           from_table=target.number)

    def _balance(self) -> None:
        """Keep the tables within one player of each other (TDA): the player who would be big
        blind next at a long table that is between hands moves to the worst seat of the
        shortest table."""
        size = self.config.table_size
        while True:
            short = self._shortest()
            limit = len(short.seats) + 1
            long = [t for t in self.tables.values() if len(t.seats) > limit and not t.running]
            if not long:
                return
            table = max(long, key=lambda t: (len(t.seats), -t.number))
            seat = next_big_blind(table.last, table.seats, table.newcomers, size,
                                  movers=table.movers)
            if seat is None:
                seat = self.rng.choice(sorted(table.seats))
            state = self.players[table.seats[seat]]
            self._unseat(state)
            target = worst_seat(short.last, short.seats, size, self.rng)
            self._seat(state, short, target, "balance", from_table=table.number,
                       from_seat=seat)
            short.movers.add(target)

    def _shortest(self) -> TableState:
        return min(self.tables.values(), key=lambda t: (len(t.seats), t.number))

    def _finish(self) -> None:
        for table in list(self.tables.values()):
            for state in [self.players[p] for p in table.seats.values()]:
                if state.status == PLAYING:
                    self.eliminations.append(Elimination(self.level_index,
                                                         [(state.id, state.entries,
                                                           state.stack)]))
        self.finishes = _places(self.eliminations, 0, self.place_prizes())
        self.finished = True
        self.since = None
        winner = self.finishes[0].player if self.finishes else None
        self._emit("finished", winner=winner, prize_pool=self.prize_pool,
                   finishes=[asdict(f) for f in self.finishes if f.prize])

    # -- seats ------------------------------------------------------------------------------

    def _enter(self, state: Player, now: float) -> None:
        """Seat a late entrant or a re-entry: a random empty seat at the shortest table (a new
        table when every seat is taken)."""
        size = self.config.table_size
        short = self._shortest()
        if len(short.seats) >= size:
            number = max(self.tables) + 1
            short = self.tables[number] = TableState(number)
            self._emit("table_opened", table=number)
        empty = [s for s in range(size) if s not in short.seats]
        state.status = PLAYING
        self.left += 1
        state.stack = self.structure.starting_stack
        self.chips += state.stack
        self._seat(state, short, self.rng.choice(empty), "late registration")
        self._after_change(now)

    def _seat(self, state: Player, table: TableState, seat: int, reason: str,
              **extra: Any) -> None:
        table.seats[seat] = state.id
        table.newcomers.add(seat)
        state.table, state.seat = table.number, seat
        self._emit("seated", player=state.id, name=state.name, table=table.number, seat=seat,
                   reason=reason, **extra)

    def _unseat(self, state: Player) -> None:
        if state.table is not None and state.seat is not None:
            table = self.tables.get(state.table)
            if table is not None:
                table.seats.pop(state.seat, None)
                table.newcomers.discard(state.seat)
                table.movers.discard(state.seat)
        state.table = state.seat = None

    def _player(self, player: str) -> Player:
        state = self.players.get(player)
        if state is None:
            raise TournamentError(f"{player!r} is not registered")
        return state

    def _emit(self, kind: str, **data: Any) -> None:
        self._outbox.append({"kind": kind, **data})

    # -- persistence ------------------------------------------------------------------------

    def to_state(self, now: float) -> dict[str, Any]:
        """The whole tournament as JSON-ready data. The level clock is saved as the time spent
        in the level, so after a restart it resumes with the time it had left."""
        version, internal, gauss = self.rng.getstate()
        return {
            "config": self.config.to_dict(),
            "rng": [version, list(internal), gauss],
            "players": {p.id: asdict(p) for p in self.players.values()},
            "tables": [t.to_dict() for t in self.tables.values()],
            "started": self.started, "finished": self.finished,
            "registration_open": self.registration_open, "position": self.position,
            "elapsed": self._elapsed(now), "running": self.since is not None,
            "paused": self.paused, "hand_for_hand": self.hand_for_hand, "round": self.round,
            "pending": [list(e) for e in self.pending],
            "eliminations": [{"level": e.level, "entries": [list(x) for x in e.entries]}
                             for e in self.eliminations],
            "chips": self.chips, "rebuys": self.rebuys, "addons": self.addons,
            "entries": self.entries, "finishes": [asdict(f) for f in self.finishes],
            "level_eliminations": {str(k): v for k, v in self.level_eliminations.items()},
            "waiting": dict(self.waiting), "declined": dict(self.declined),
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any], now: float) -> Director:
        try:
            config = TournamentConfig.from_dict(data["config"])
        except (KeyError, StructureError) as error:
            raise TournamentError(f"the stored tournament does not load: {error}") from None
        director = cls(config)
        version, internal, gauss = data["rng"]
        director.rng.setstate((version, tuple(internal), gauss))
        director.players = {pid: Player(**p) for pid, p in data["players"].items()}
        director.tables = {t["number"]: TableState.from_dict(t) for t in data["tables"]}
        for name in ("started", "finished", "registration_open", "position", "paused",
                     "hand_for_hand", "round", "chips", "rebuys", "addons", "entries"):
            setattr(director, name, data[name])
        director.elapsed = data["elapsed"]
        director.since = now if data["running"] else None
        director.pending = [(p, n, s) for p, n, s in data["pending"]]
        director.eliminations = [Elimination(e["level"], [(p, n, s) for p, n, s in e["entries"]])
                                 for e in data["eliminations"]]
        director.finishes = [Finish(**f) for f in data["finishes"]]
        director.level_eliminations = {int(k): v for k, v in data["level_eliminations"].items()}
        director.left = len(director.alive)
        director.waiting = dict(data.get("waiting", {}))
        director.declined = dict(data.get("declined", {}))
        return director


def _places(eliminations: Sequence[Elimination], alive: int,
            place_prizes: Sequence[int]) -> list[Finish]:
    """Every eliminated entry's finish, best first: the last group out takes the places just
    below the players still in, ranked by their stacks at the start of the hand."""
    finishes: list[Finish] = []
    best = alive + 1
    for group in reversed(eliminations):
        finishes += award(place_prizes, [(p, s) for p, _, s in group.entries], best)
        best += len(group.entries)
    return finishes


__all__ = ["Director", "HandPlan", "Player", "TableState", "TournamentConfig",
           "TournamentError"]
