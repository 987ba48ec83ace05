"""Tournaments hosted by the server: one director actor per tournament, one room per table.

A ``TournamentHost`` owns one tournament's ``Director`` (its state and its level clock) and
runs it as an actor: every change (a table's hand ended, a registration, a host command, the
clock) is applied under one lock, in order. Its tables are ordinary rooms whose tables are
*managed* (``Table(managed=True)``): they deal only the hands the director plans, so the room
machinery (the actor, the store, the pushes, the bot drivers, seat tokens, spectators) is the
cash game's. After each change the host

1. makes every table room seat exactly the players the director seats there, with the
   director's stacks (``Table.place`` / ``unseat``, through the ledger), and tells each moved
   or eliminated person's connections where they are now (a ``tournament`` message);
2. saves the tournament (the director's state, its rooms and the hands it planned) in the
   store, and only then
3. deals the next hand at every idle table (``Table.deal_planned``).

A table room tells the host of every hand it ends (``Room.listener``). Crash safety: the store
holds each table's room (its hand in progress replays card for card) and the tournament; on a
restart ``recover`` compares each table's last hand with the plan the tournament saved: a hand
the table ended is reported again, a planned hand the table never dealt is dealt, a hand in
progress plays on. The level clock resumes with the time it had left (``Director.from_state``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from boardroom.bots import STYLES
from boardroom.rules import DEALERS_CHOICE, find_variant
from boardroom.server import bot_driver
from boardroom.server.auth import Signer, is_host_secret, new_host_secret, secret_hash
from boardroom.store import LeaseLost, TournamentRow, leases, save_tournament
from boardroom.table import CLOSED, Table, TableError, TableSettings
from boardroom.table.events import TableEvent
from boardroom.tournament import Director, HandPlan, TournamentConfig, TournamentError
from boardroom.tournament.inprocess import stakes_for, variant_for
from boardroom.tournament.seating import Positions
from boardroom.tournament.structure import Break, Level

if TYPE_CHECKING:
    from boardroom.server.realtime import SocketHub
    from boardroom.server.room import Room
    from boardroom.server.viewer import Viewer
    from boardroom.store import Store

class Server(Protocol):
    """What a tournament needs of the server (``app.Server`` is one)."""

    rooms: dict[str, Room]
    hub: SocketHub

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def store(self) -> Store: ...

    @property
    def signer(self) -> Signer: ...

    async def create_managed_room(self, settings: TableSettings,
                                  host: TournamentHost) -> str: ...

log = logging.getLogger("boardroom.server")

SAVE_EVERY = 5.0  # seconds: the level clock's time left is saved at least this often
PLAYER_COMMANDS = ("rebuy", "addon", "reenter")  # what an entry token may ask for itself

def plan_to_dict(plan: HandPlan) -> dict[str, Any]:
    return {"table": plan.table, "hand_no": plan.hand_no, "level": plan.level,
            "stakes": asdict(plan.stakes), "ante_mode": plan.ante_mode, "game": plan.game,
            "positions": plan.positions.to_dict(), "players": [list(p) for p in plan.players],
            "hand_for_hand": plan.hand_for_hand}

def plan_from_dict(data: Mapping[str, Any]) -> HandPlan:
    return HandPlan(data["table"], data["hand_no"], data["level"], Level(**data["stakes"]),
                    data["ante_mode"], data["game"], Positions.from_dict(data["positions"]),
                    tuple((s, p, k) for s, p, k in data["players"]), data["hand_for_hand"])

class TournamentHost:
    """One live tournament; see the module docstring."""

    def __init__(self, server: Server, tournament_id: str, name: str, director: Director,
                 host_hash: str, created_at: float) -> None:
        self.server = server
        self.id = tournament_id
        self.name = name
        self.director = director
        self.host_hash = host_hash
        self.created_at = created_at
        self.rooms: dict[int, str] = {}  # table number -> room id
        self.plans: dict[int, HandPlan] = {}  # the hand each table was last told to deal
        self.styles: dict[str, str] = {}  # bot player id -> style
        self.closed_rooms: list[str] = []  # the rooms of broken tables (their hands stay)
        self.action_clock = 30.0
        self.news: list[dict[str, Any]] = []  # the director's events, for the lobby (recent)
        self.version = 0  # counts the changes the lobby shows (its pages poll with it)
        self.rng = random.Random(secrets.randbits(64))  # Dealer's Choice picks for bots
        self._lock = asyncio.Lock()
        self._clock_task: asyncio.Task[None] | None = None
        self._pending: list[asyncio.Task[None]] = []
        self._stopped = False
        self._followers: dict[str, list[Viewer]] = {}  # player -> connections, before a move
        # A cluster's worker runs the tournament under a lease (``store.leases``): every save
        # carries its token, so a worker that lost it never writes the tournament again.
        self.lease: int | None = None

    # -- the clock and the store -------------------------------------------------------------

    @property
    def clock(self) -> Callable[[], float]:
        return self.server.clock

    @property
    def signer(self) -> Signer:
        return self.server.signer

    def start(self) -> None:
        self._clock_task = asyncio.create_task(self._run_clock(), name=f"tournament-{self.id}")

    async def finish(self) -> None:
        """Stop once the director's work in hand is done (a worker's drain hands the
        tournament over): the hand reports under way are finished, each with its moves and
        its save (cut half-way, a report left a table's room closed and its players moved out
        while the saved state had them playing there, and the next owner waited for that
        hand's end for good); no report starts after them, and the clock stops between two of
        its steps."""
        self._stopped = True  # no new report
        while pending := [task for task in self._pending if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)
        async with self._lock:  # the clock's step in hand, if any, is done
            await self.stop()

    async def stop(self) -> None:
        self._stopped = True
        tasks = [t for t in (self._clock_task, *self._pending) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._clock_task, self._pending = None, []

    async def _run_clock(self) -> None:
        """Wake at the level's end (or every few seconds, to save the clock) and apply it."""
        while not self.director.finished:
            left = self.director.time_left(self.clock())
            wait = SAVE_EVERY if left is None else min(SAVE_EVERY, max(0.05, left))
            await asyncio.sleep(wait)
            try:
                async with self._lock:
                    await self._sync()
            except Exception as error:  # a bug must not stop the clock for good
                _failed(self.id, "the clock", error)

    def to_state(self) -> dict[str, Any]:
        now = self.clock()
        return {"name": self.name, "director": self.director.to_state(now),
                "rooms": {str(n): room for n, room in self.rooms.items()},
                "plans": {str(n): plan_to_dict(p) for n, p in self.plans.items()},
                "styles": dict(self.styles), "action_clock": self.action_clock,
                "closed_rooms": list(self.closed_rooms), "version": self.version}

    async def save(self) -> None:
        lease = None if self.lease is None else (leases.tournament_key(self.id), self.lease)
        await save_tournament(self.server.store, TournamentRow(
            self.id, self.created_at, self.host_hash, self.to_state(), self.director.finished),
            lease=lease)

    @classmethod
    def from_row(cls, server: Server, row: TournamentRow) -> TournamentHost:
        state = row.state
        director = Director.from_state(state["director"], server.clock())
        host = cls(server, row.id, state["name"], director, row.host_hash, row.created_at)
        host.rooms = {int(n): room for n, room in state["rooms"].items()}
        host.plans = {int(n): plan_from_dict(p) for n, p in state["plans"].items()}
        host.styles = dict(state["styles"])
        host.action_clock = state["action_clock"]
        host.closed_rooms = list(state["closed_rooms"])
        host.version = state.get("version", 0) + 1  # a restart is a change: pages reload
        return host

    # -- commands ----------------------------------------------------------------------------

    def check_host(self, secret: str | None) -> None:
        if secret is None or not is_host_secret(secret, self.host_hash):
            raise TournamentError("only the host can do that: wrong or missing host secret",
                                  "bad_host_secret")

    async def register(self, name: str, *, style: str | None = None) -> dict[str, Any]:
        """A person (``style`` None) or a bot of ``style`` enters; a person gets an entry
        token (their proof of who they are, for ``/me`` and the tables' seats)."""
        if style is not None and style not in STYLES:
            raise TournamentError(f"unknown bot style {style[:20]!r} (one of: "
                                  f"{', '.join(STYLES)})")
        player = (f"{bot_driver.PREFIX}{style}:{secrets.token_hex(6)}" if style is not None
                  else secrets.token_hex(8))
        async with self._lock:
            if style is not None:
                self.director.register(player, name, self.clock(), bot=True)
                self.styles[player] = style
            else:  # a person: with the host's approval if the host asks for it
                self.director.request_entry(player, name, self.clock())
            await self._sync()
        answer: dict[str, Any] = {"player": player, "name": name.strip(),
                                  "status": self.where(player)["status"]}
        if style is None:
            answer["token"] = self.signer.seat_token(self.id, 0, player)
        return answer

    async def answer_entry(self, player: str, approve: bool) -> None:
        """The host approves or declines a waiting entry."""
        async with self._lock:
            if approve:
                self.director.approve(player, self.clock())
            else:
                self.director.decline(player)
            await self._sync()

    def waiting(self) -> list[dict[str, str]]:
        """The entries waiting for the host's approval, first asked first (for the host)."""
        return [{"player": p, "name": n} for p, n in self.director.waiting.items()]

    async def command(self, kind: str, args: Mapping[str, Any]) -> None:
        """The host's controls: start, pause, resume, add_time, close_registration."""
        async with self._lock:
            now = self.clock()
            director = self.director
            if kind == "start":
                director.start(now)
            elif kind == "pause":
                director.pause(now)
            elif kind == "resume":
                director.resume(now)
            elif kind == "add_time":
                seconds = args.get("seconds")
                if not isinstance(seconds, int | float) or isinstance(seconds, bool) or \
                        not -3600 <= seconds <= 3600:
                    raise TournamentError("add_time takes 'seconds', a number from -3600 to "
                                          "3600")
                director.add_time(float(seconds), now)
            elif kind == "close_registration":
                director.close_registration(now)
            else:
                raise TournamentError(f"unknown tournament command {kind[:30]!r} (start, pause, "
                                      f"resume, add_time, close_registration)")
            if kind in ("pause", "resume"):
                await self._every_table(kind)
            await self._sync()

    async def player_command(self, player: str, kind: str) -> None:
        """A player's own: a rebuy, the add-on, a re-entry (each refused, changing nothing,
        with the director's reason)."""
        async with self._lock:
            now = self.clock()
            if kind == "rebuy":
                self.director.rebuy(player, now)
            elif kind == "addon":
                self.director.addon(player, now)
            elif kind == "reenter":
                self.director.reenter(player, now)
            else:
                raise TournamentError(f"unknown entry command {kind[:30]!r} (one of: "
                                      f"{', '.join(PLAYER_COMMANDS)})")
            await self._sync()

    async def _every_table(self, kind: str) -> None:
        """Pause or resume every table's clocks (a paused tournament stops every clock)."""
        for room in self._rooms():
            def change(table: Table, kind: str = kind) -> None:
                if table.phase == CLOSED:
                    return
                if kind == "pause" and not table.paused:
                    table.pause()
                elif kind == "resume" and table.paused:
                    table.resume()
            await room.call(change)

    def where(self, player: str) -> dict[str, Any]:
        """Where ``player`` is now: their table's room and seat (with a seat token), or their
        place and prize once out."""
        state = self.director.players.get(player)
        if state is None:
            if player in self.director.waiting:
                return {"tournament": self.id, "player": player, "status": "waiting",
                        "name": self.director.waiting[player]}
            if player in self.director.declined:
                return {"tournament": self.id, "player": player, "status": "declined",
                        "reason": self.director.declined[player]}
            raise TournamentError("this entry is not in the tournament")
        answer: dict[str, Any] = {"tournament": self.id, "player": player, "name": state.name,
                                  "status": state.status, "stack": state.stack,
                                  "queued": list(state.queued),
                                  "refused": [dict(r) for r in state.refused],
                                  "rebuys": state.rebuys, "addon": state.addon}
        if state.table is not None and state.seat is not None and state.table in self.rooms:
            room = self.rooms[state.table]
            answer.update(table=state.table, room=room, seat=state.seat,
                          token=self.signer.seat_token(room, state.seat, player))
        finish = next((f for f in self.director.standings() if f.player == player), None)
        if finish is not None and (state.status == "out" or self.director.finished):
            answer.update(place=finish.place, prize=finish.prize)
        return answer

    # -- the tables --------------------------------------------------------------------------

    def _rooms(self) -> list[Room]:
        return [self.server.rooms[r] for r in self.rooms.values() if r in self.server.rooms]

    def listen(self, room: Room, events: list[TableEvent]) -> None:
        """A table room committed ``events``: a hand that ended goes to the director (in a
        task of the host's: the room's actor must not wait for the director)."""
        ended = [e for e in events if e.kind == "hand_ended"]
        if not ended or self._stopped:
            return
        number = next((n for n, r in self.rooms.items() if r == room.id), None)
        if number is None:
            return
        stacks = {room.table.seats[int(seat)].player: stack
                  for seat, stack in ended[-1].data["stacks"].items()}
        hand_no = ended[-1].data["hand_no"]
        task = asyncio.create_task(self._hand_ended(number, hand_no, stacks))
        self._pending.append(task)
        task.add_done_callback(lambda t: self._pending.remove(t) if t in self._pending else None)

    async def _hand_ended(self, number: int, hand_no: int, stacks: dict[str, int]) -> None:
        try:
            async with self._lock:
                table = self.director.tables.get(number)
                if table is None or not table.running or table.hand_no != hand_no:
                    return  # already reported (a restart replays the report)
                self.director.hand_ended(number, stacks, self.clock())
                await self._sync()
        except Exception as error:
            _failed(self.id, f"table {number}'s hand {hand_no}", error)

    async def _sync(self) -> None:
        """Seat, save, deal (the module docstring's three steps), until nothing changes."""
        director = self.director
        director.tick(self.clock())
        events = director.drain()
        if not director.finished:
            await self._seat_everyone()
        await self._publish(events)  # once seated: a moved player's new seat token is good
        deals: list[HandPlan] = []
        for number in sorted(director.tables):
            if director.tables[number].running:
                continue
            plan = director.next_hand(number, self.clock())
            if plan is not None:
                self.plans[number] = plan
                deals.append(plan)
        later = director.drain()
        await self._publish(later)
        if events or later:
            self.version += 1  # every change the lobby shows comes with a director's event
        await self.save()
        for plan in deals:
            await self._deal(plan)
        if director.finished:
            await self._close_rooms()

    async def _publish(self, events: list[dict[str, Any]]) -> None:
        """Keep the director's news for the lobby; tell moved and eliminated people."""
        for event in events:
            if event["kind"] != "hand_started" and event["kind"] != "hand_ended":
                self.news.append(event)
        del self.news[:-200]
        for event in events:
            if event["kind"] == "seated" and event["reason"] in ("balance", "table broken"):
                await self._tell(event["player"], "moved", reason=event["reason"],
                                 from_table=event.get("from_table"))
            elif event["kind"] == "refused":  # asked during the hand, refused at its end
                await self._tell(event["player"], "refused", what=event["what"],
                                 reason=event["reason"])
            elif event["kind"] == "eliminated":
                for finish in event["finishes"]:
                    await self._tell(finish["player"], "eliminated")
            elif event["kind"] == "finished":
                for player in self.director.players:
                    await self._tell(player, "finished")

    async def _tell(self, player: str, kind: str, **data: Any) -> None:
        """Send ``player``'s connections (at any table of the tournament) where they are now."""
        if player in self.styles:
            return
        viewers = list(self._followers.get(player, []))
        for room in self.rooms.values():
            viewers += [v for v in self.server.hub.viewers(room)
                        if v.player == player and v not in viewers]
        if not viewers:
            return
        payload = {"kind": kind, **data, **self.where(player)}
        for viewer in viewers:
            await self.server.hub.send_to(viewer, "tournament", payload)

    async def _room_for(self, number: int) -> Room:
        room_id = self.rooms.get(number)
        if room_id is None or room_id not in self.server.rooms:
            room_id = await self.server.create_managed_room(self._settings(), self)
            self.rooms[number] = room_id
            await self.save()
        return self.server.rooms[room_id]

    def _settings(self) -> TableSettings:
        config = self.director.config
        game = config.games[0]
        return TableSettings(game=game, max_seats=config.table_size,
                             action_clock=self.action_clock, time_bank=0.0,
                             pause_between_hands=0.0, spectators_allowed=True).check()

    async def _seat_everyone(self) -> None:
        """Every table room seats exactly the director's players there, with their stacks."""
        director = self.director
        # A connection loses its player when the seat goes: remember whose it was, to tell
        # them where they went.
        self._followers = {}
        for room_id in self.rooms.values():
            for viewer in self.server.hub.viewers(room_id):
                if viewer.player is not None:
                    self._followers.setdefault(viewer.player, []).append(viewer)
        wanted: dict[str, dict[int, str]] = {}
        for number, table in director.tables.items():
            room = await self._room_for(number)
            wanted[room.id] = dict(table.seats)
        for number in [n for n in self.rooms if n not in director.tables]:
            wanted.setdefault(self.rooms[number], {})  # a broken table: everyone leaves
        # Only the rooms with something to change are called (most hands change no seat, and
        # each call is a trip through a room's actor).
        for room in self._rooms():
            seats = wanted.get(room.id, {})

            def leave(table: Table, seats: dict[int, str] = seats) -> None:
                for seat in _leaving(table, seats):
                    table.unseat(seat, "moved" if table.seats[seat].stack else "eliminated")
            if _leaving(room.table, seats):
                await room.call(leave)
        for room in self._rooms():
            seats = wanted.get(room.id, {})

            def sit(table: Table, seats: dict[int, str] = seats) -> None:
                for seat, player in _sitting(table, seats, director):
                    state = director.players[player]
                    if seat not in table.seats:
                        table.place(seat, player, state.name, state.stack, "tournament")
                    else:
                        table.set_stack(seat, state.stack)  # a rebuy or an add-on
            if _sitting(room.table, seats, director):
                await room.call(sit)
        for number in [n for n in self.rooms if n not in director.tables]:
            room_id = self.rooms.pop(number)
            self.closed_rooms.append(room_id)
            closing = self.server.rooms.get(room_id)
            if closing is not None and not closing.table.seats:
                await closing.call(_close)

    async def _deal(self, plan: HandPlan) -> None:
        room = await self._room_for(plan.table)
        variant = variant_for(plan, self.rng)
        stakes, big_blind_ante = stakes_for(variant, plan.stakes, plan.ante_mode)
        dealt, button, dead = plan.positions.engine_seating()
        options: dict[str, Any] = {}
        if plan.game == DEALERS_CHOICE.id and variant.hole_cards != \
                find_variant(variant.id).hole_cards:
            options["hole_cards"] = variant.hole_cards
        stacks = {seat: stack for seat, _, stack in plan.players}
        tags = {"id": self.id, "name": self.name, "level": plan.level + 1,
                "table": plan.table}
        blinds = variant.forced_bets.value == "blinds"

        def deal(table: Table) -> None:
            if table.hand_no >= plan.hand_no:
                return  # dealt before a restart
            table.deal_planned(dealt, dealt[button], variant.id, options, stakes,
                               stacks=stacks, dead_small_blind=dead and blinds,
                               big_blind_ante=big_blind_ante, tags=tags)
        await room.call(deal)

    async def _close_rooms(self) -> None:
        for room in self._rooms():
            if room.table.phase == CLOSED:
                continue
            with contextlib.suppress(TableError):
                await room.call(_close)

    # -- recovery ----------------------------------------------------------------------------

    async def recover(self) -> None:
        """After a restart: report the hands the tables ended, deal the planned hands they never
        dealt, then carry on (see the module docstring)."""
        async with self._lock:
            for number, table in list(self.director.tables.items()):
                plan = self.plans.get(number)
                room = self.server.rooms.get(self.rooms.get(number, ""))
                if not table.running or plan is None or room is None:
                    continue
                current = room.table
                if current.hand is not None:
                    continue  # the hand plays on; its end is reported as usual
                if current.hand_no >= plan.hand_no:
                    stacks = await self._ended_stacks(room, plan)
                    self.director.hand_ended(number, stacks, self.clock())
                else:
                    await self._deal(plan)
            await self._sync()

    async def _ended_stacks(self, room: Room, plan: HandPlan) -> dict[str, int]:
        """The stacks the players of ``plan`` ended its hand with, as the table said when it
        ended (its ``hand_ended``, from the store): a player the director unseated after it
        (eliminated, moved) before the crash is no longer at the table to ask."""
        ended = await self.server.store.hand_event(room.id, plan.hand_no, "hand_ended")
        if ended is None:  # (not stored: the table's seats are all there is)
            return {p: room.table.seats[s].stack for s, p, _ in plan.players
                    if s in room.table.seats}
        by_seat = ended.payload["data"]["stacks"]
        return {player: by_seat[str(seat)] for seat, player, _ in plan.players}

    # -- reading -----------------------------------------------------------------------------

    def _clocks(self) -> tuple[float | None, float | None]:
        """Seconds to the level's (or break's) end, and to the next break (None: not timed)."""
        d = self.director
        next_break = None
        elapsed_left = d.time_left(self.clock())
        if elapsed_left is not None:
            seconds: float | None = elapsed_left
            for entry in d.structure.schedule[d.position + 1:]:
                if entry.minutes is None:
                    seconds = None
                    break
                if isinstance(entry, Break):
                    next_break = seconds
                    break
                assert seconds is not None
                seconds += entry.minutes * 60
        return elapsed_left, next_break

    def clock_state(self) -> dict[str, Any]:
        """The lobby of a page that has the current version: the version and the clocks."""
        elapsed_left, next_break = self._clocks()
        return {"tournament": self.id, "version": self.version, "unchanged": True,
                "paused": self.director.paused, "time_left": elapsed_left,
                "next_break": next_break}

    def lobby(self) -> dict[str, Any]:
        """Everything the lobby page shows (public: no cards, no tokens)."""
        d = self.director
        structure = d.structure
        level = d.level
        schedule = structure.schedule
        elapsed_left, next_break = self._clocks()
        upcoming = next((e for e in schedule[d.position + 1:] if isinstance(e, Level)), None)
        stacks = sorted((p.stack for p in d.alive), reverse=True)
        prizes = d.place_prizes()
        standings = {f.player: f for f in d.standings()}
        players: list[dict[str, Any]] = []
        for p in d.players.values():
            finish = standings.get(p.id) if p.status == "out" or d.finished else None
            players.append({"name": p.name, "status": p.status, "stack": p.stack,
                            "table": p.table, "bot": p.bot,
                            "place": finish.place if finish else None,
                            "prize": finish.prize if finish else None})
        players.sort(key=lambda p: (p["place"] or 0, -p["stack"]))
        tables = [{"table": n, "room": self.rooms.get(n), "players": len(t.seats),
                   "hand_no": t.hand_no, "running": t.running}
                  for n, t in sorted(d.tables.items())]
        return {
            "tournament": self.id, "version": self.version, "name": self.name,
            "games": list(d.config.games), "rotate_every": d.config.rotate_every,
            "table_size": d.config.table_size,
            "started": d.started, "finished": d.finished, "paused": d.paused,
            "registration_open": d.registration_open, "on_break": d.on_break,
            "hand_for_hand": d.hand_for_hand,
            "level": {"number": d.level_index + 1, **asdict(level)},
            "next_level": None if upcoming is None else asdict(upcoming),
            "levels": len(structure.levels),
            "ante_mode": structure.ante_mode, "starting_stack": structure.starting_stack,
            "max_entries": structure.max_entries, "rebuy_levels": structure.rebuy_levels,
            "rebuy_chips": structure.rebuy_chips, "max_rebuys": structure.max_rebuys,
            "addon_chips": structure.addon_chips,
            "time_left": elapsed_left, "next_break": next_break,
            "entry_approval": d.config.entry_approval, "waiting": len(d.waiting),
            "entrants": d.entries, "left": d.left, "buy_in": d.config.buy_in,
            "prize_pool": d.prize_pool, "chips": d.chips,
            "average_stack": sum(stacks) // len(stacks) if stacks else 0,
            "largest_stack": stacks[0] if stacks else 0,
            "payouts": [{"place": k + 1, "prize": prize} for k, prize in enumerate(prizes)],
            "players": players, "tables": tables, "closed_tables": list(self.closed_rooms),
        }

    def results(self) -> list[dict[str, Any]]:
        names = {p.id: p.name for p in self.director.players.values()}
        return [{"place": f.place, "name": names[f.player], "prize": f.prize, "tied": f.tied}
                for f in self.director.standings()]

def _failed(tournament_id: str, what: str, error: Exception) -> None:
    """Log a failure of the director's work: a lease lost to another worker (which runs the
    tournament now) or a table that moved with it in one line, any other error in full."""
    if isinstance(error, LeaseLost) or (isinstance(error, TableError)
                                         and error.code == "unavailable"):
        log.warning("tournament %s: %s: %s", tournament_id, what, error)
    else:
        log.error("tournament %s: %s failed", tournament_id, what, exc_info=error)

def table_rooms(state: Mapping[str, Any]) -> list[str]:
    """The table rooms a tournament's saved state names: its tables' and its broken ones'."""
    return [*state["rooms"].values(), *state["closed_rooms"]]

def _leaving(table: Table, seats: Mapping[int, str]) -> list[int]:
    """The seats of ``table`` whose player the director no longer seats there (between the
    player's hands)."""
    return [seat for seat, state in table.seats.items()
            if seats.get(seat) != state.player and not table.in_hand(seat)]

def _sitting(table: Table, seats: Mapping[int, str],
             director: Director) -> list[tuple[int, str]]:
    """The director's seats of ``table`` to fill, or whose stack to set (a rebuy or an add-on,
    between the player's hands)."""
    out = []
    for seat, player in seats.items():
        here = table.seats.get(seat)
        if here is None or (here.player == player and not table.in_hand(seat)
                            and here.stack != director.players[player].stack):
            out.append((seat, player))
    return out

def _close(table: Table) -> None:
    if table.phase != CLOSED and table.hand is None:
        table.close()

def new_tournament(server: Server, config: TournamentConfig, name: str, *,
                   action_clock: float) -> tuple[TournamentHost, str]:
    """A tournament not yet started, and its host's secret (shown once)."""
    secret = new_host_secret()
    tournament_id = secrets.token_hex(6)
    director = Director(config, seed=secrets.randbits(64))
    host = TournamentHost(server, tournament_id, name, director, secret_hash(secret),
                          server.clock())
    host.action_clock = action_clock
    return host, secret

__all__ = ["PLAYER_COMMANDS", "TournamentHost", "new_tournament", "plan_from_dict",
           "plan_to_dict", "table_rooms"]
