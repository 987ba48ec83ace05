"""One room: its table and the actor that applies every command to it, in order.

The actor is one asyncio task with a queue (DESIGN.md: one actor per table). For each command or
clock tick it calls the table, writes the new events and state to the store, and only then
pushes them: one ``update`` per audience (each seat with someone connected, and the spectators)
holding that audience's events and its view of the room, computed once per commit, sent whole or
as a patch of the audience's last view (``server.patch``). Clients
draw from these pushes alone and ask for a snapshot only on joining, on a version gap and on
reconnecting. A command id already applied answers with the first answer (the last
``REMEMBERED_EACH`` ids of each sender's commands are kept, and reloaded from the store on a
restart), so a retried command is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardroom.engine import events as ev
from boardroom.engine.betting import pot_limit_max_raise_to
from boardroom.engine.example import play_example
from boardroom.engine.hand import Hand
from boardroom.engine.view import HandView, forget_pills, views_for
from boardroom.rules import VARIANTS
from boardroom.server import bot_driver
from boardroom.server.auth import (
    AuthError,
    Signer,
    is_host_secret,
    new_host_secret,
    secret_hash,
)
from boardroom.server.encode import (
    Fragment,
    KeptTexts,
    SharedTexts,
    ViewTexts,
    dumps,
    dumps_shared,
    labels,
    own_texts,
    plain,
    spectators_texts,
)
from boardroom.server.equity import equity_of_record
from boardroom.server.patch import changes
from boardroom.server.protocol import (
    HOST,
    PLAYER,
    READ_ONLY,
    SEATED,
    Command,
    failure,
)
from boardroom.server.viewer import Audience, Viewer
from boardroom.server.wake import Wake
from boardroom.store import EventRow, HandRow, LeaseLost, LedgerRow, Store, StoreError
from boardroom.table import (
    CLOSED,
    HAND,
    Table,
    TableError,
    TableEvent,
    TableSettings,
    rebuild_hand,
)
from boardroom.table.changes import state_change, with_changes

log = logging.getLogger("boardroom.server")

# Commands' answers kept for retries. A retry comes after a timeout or a reconnect, of the
# sender's latest commands, so each sender's last few are kept, however busy the others are;
# a room keeps those of its most recent senders (a sender is a player, or a connection that
# has not sat). A restart reads back the room's last REMEMBERED_COMMANDS from the store.
REMEMBERED_EACH = 16
REMEMBERED_SENDERS = 32
REMEMBERED_COMMANDS = 256
MAX_QUEUE = 2000
RELOAD_WAIT = 2.0  # seconds, at most, between two tries to read a room's state back
MAX_CHANGES = 200  # commits between whole writes of the state, at most (a recovery replays them)
RECENT_CHAT = 50




class Hub(Protocol):
    """What a room needs from the transport: an audience per connection, and sending."""

    async def place(self, viewer: Viewer) -> None: ...

    def viewers(self, room: str) -> list[Viewer]: ...

    async def push(self, room: str,
                   updates: list[tuple[list[Viewer], Fragment]]) -> set[str]: ...

    async def send_to(self, viewer: Viewer, kind: str, payload: dict[str, Any]) -> None: ...


@dataclass
class _Job:
    viewer: Viewer | None  # None: a clock tick
    command: Command | None
    done: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())
    call: Callable[[Table], Any] | None = None  # the server's own change (a tournament's)


class Room:
    """A room's table, its actor task and what it remembers of recent commands."""

    # Slots: a server holds a room for every table, and 38 attributes in an instance dict
    # are about 1.6 KB, where slots are 0.3 (docs/decisions.md, "Slots for what every table
    # holds").
    __slots__ = ("_changes", "_equity", "_equity_ready", "_equity_task", "_finishing", "_job",
                 "_jobs", "_kept", "_last_hand", "_last_hand_views", "_last_hunt", "_last_record",
                 "_last_texts", "_last_views", "_pending_host_hash", "_private", "_pushed",
                 "_pushed_table", "_smalls", "_stored", "_task", "_wake", "_watchers_moved",
                 "_watchers_told", "answers", "bots", "chat", "clock", "host_hash", "hub", "id",
                 "lease", "listener", "on_lost", "signer", "store", "table", "tournament")

    def __init__(self, room_id: str, table: Table, host_hash: str, *, store: Store, hub: Hub,
                 signer: Signer, clock: Callable[[], float], bot_think: float = 0.0,
                 tournament: str | None = None) -> None:
        self.id = room_id
        self.tournament = tournament  # a tournament's table: the tournament's id
        self.table = table
        self.host_hash = host_hash
        self.store = store
        self.hub = hub
        self.signer = signer
        self.clock = clock
        # sender -> command id -> its answer, each oldest first (plain dicts: a third of an
        # OrderedDict's size); a plain success ({"id", "ok", "version"}) as its version alone
        self.answers: dict[str, dict[str, int | dict[str, Any]]] = {}
        # Lists, not deques, and a Wake, not an asyncio.Event: an empty deque is 760 bytes,
        # and a room holds these for its whole life (docs/decisions.md, "Slots for what every
        # table holds").
        self.chat: list[dict[str, Any]] = []  # the last RECENT_CHAT messages, oldest first
        self._jobs: list[_Job] = []  # oldest first (a few at a time: a list's pop(0) is cheap)
        self._job: _Job | None = None  # the job in hand (a stop answers it too)
        self._wake = Wake()
        self._task: asyncio.Task[None] | None = None
        self._pending_host_hash: str | None = None
        self._private: list[tuple[Viewer, dict[str, Any]]] = []
        self._last_record: dict[str, Any] | None = None  # of the hand that ended last
        self._last_views: dict[int | None, str] = {}  # seat in it -> its last hand, as JSON
        self._last_hand: Hand | None = None  # the last hand, replayed (once) from its record
        self._last_hand_views: dict[int | None, HandView] = {}  # by seat, built at once
        self._last_texts: SharedTexts = {}  # their shared parts, encoded once
        self._last_hunt: tuple[Hand, bool] | None = None  # whether it left cards to hunt
        self._kept = KeptTexts()  # views' seats, pills and pots as the last change encoded them
        # What each audience was sent last, and the table then: the next update patches it.
        self._pushed: dict[Audience, _Pushed] = {}
        self._pushed_table: tuple[int, dict[str, Any]] | None = None
        self._smalls: dict[str, tuple[Any, str]] = {}  # the bots, blinds, watchers: texts
        self.bots = bot_driver.BotSeats(self, bot_think)  # the bot seats' driver tasks
        self._watchers_told: dict[str, Any] = {"count": 0, "names": []}
        self._watchers_moved = False  # a connection came, went or sat: recount the watchers
        # All-in equity of the last hand, worked out in a thread once it is over (server.equity).
        self._equity: dict[str, Any] | None = None
        self._equity_ready: list[dict[str, Any]] = []
        self._equity_task: asyncio.Task[None] | None = None
        self._stored: dict[str, Any] | None = None  # the state the store holds (None: unknown)
        self._changes = 0  # commits stored as changes since the state was last written whole
        # Told of every commit's events once they are published (a tournament's director
        # listens to its tables); it must not wait on this room.
        self.listener: Callable[[Room, list[TableEvent]], None] | None = None
        # A cluster's worker runs the room under a lease: every write carries its token, and
        # a write refused for a stale token ends the actor and tells ``on_lost`` (the worker
        # gives the room up: another has taken it). None: a single server.
        self.lease: int | None = None
        self.on_lost: Callable[[Room], None] | None = None
        self._finishing = False  # finish(): the actor ends after the job in hand
    @property
    def settings(self) -> TableSettings:
        return self.table.settings

    def remember(self, sender: str, command_id: str, answer: dict[str, Any]) -> None:
        """Keep ``answer`` to ``sender``'s command ``command_id`` for a retry (a plain success
        as its version): the sender's last ``REMEMBERED_EACH``, of the last
        ``REMEMBERED_SENDERS`` senders."""
        kept = self.answers.pop(sender, None)
        if kept is None:
            kept = {}
        self.answers[sender] = kept  # the most recent sender last
        version = answer.get("version")
        if isinstance(version, int) and answer.get("ok") is True and len(answer) == 3 \
                and "id" in answer:
            kept[command_id] = version
        else:
            kept[command_id] = answer
        while len(kept) > REMEMBERED_EACH:
            del kept[next(iter(kept))]
        while len(self.answers) > REMEMBERED_SENDERS:
            del self.answers[next(iter(self.answers))]

    def recall(self, sender: str, command_id: str) -> dict[str, Any] | None:
        """The answer remembered for ``sender``'s command ``command_id``, or None."""
        kept = self.answers.get(sender)
        found = kept.get(command_id) if kept is not None else None
        if isinstance(found, int):
            return {"id": command_id, "ok": True, "version": found}
        return found

    def remembered(self) -> int:
        """How many answers are kept for retries."""
        return sum(len(kept) for kept in self.answers.values())

    # -- the actor ---------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room-{self.id}")
        self.bots.sync()  # a recovered room's bots play on

    async def stop(self) -> None:
        await self.bots.stop()
        if self._equity_task is not None:
            self._equity_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._equity_task
            self._equity_task = None
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            except Exception:  # a bug ended the actor: say so, and stop all the same
                log.exception("room %s: its actor had failed", self.id)
            self._task = None
        for job in (self._job, *self._jobs):
            if job is not None and not job.done.done():
                job.done.set_result(_error(job.command, "the server is shutting down",
                                           "unavailable"))
        self._jobs.clear()

    async def finish(self) -> None:
        """Stop once the job in hand (a command being written, say) is done, so the store
        holds every change the room made; then stop as ``stop`` does. A worker handing its
        rooms over (a cluster's drain) finishes them."""
        await self.bots.stop()
        self._finishing = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.stop()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def call(self, change: Callable[[Table], Any]) -> Any:
        """Apply the server's own ``change`` to the table in the actor, in order with the
        commands, and commit it; returns what it returns, raises its ``TableError``."""
        if self._task is None or self._task.done():
            raise TableError("this room is not running", "unavailable")
        job = _Job(None, None, call=change)
        self._jobs.append(job)
        self._wake.set()
        answer = await job.done
        if not answer.get("ok", True):
            raise TableError(answer["error"], answer.get("code", "refused"))
        return answer.get("result")

    async def submit(self, viewer: Viewer, command: Command) -> dict[str, Any]:
        """Queue a command for the actor and wait for its answer."""
        if self._task is None or self._task.done():
            return _error(command, "this room is not running", "unavailable")
        if len(self._jobs) >= MAX_QUEUE:
            return _error(command, "the table is busy: try again in a moment", "busy")
        job = _Job(viewer, command)
        self._jobs.append(job)
        self._wake.set()
        return await job.done

    def watchers_changed(self) -> None:
        """A connection joined, left or took a seat: the actor recounts the watchers and, when
        the count or the names changed, tells everyone (a ``watchers`` event)."""
        self._watchers_moved = True
        self._wake.set()

    def watchers(self) -> dict[str, Any]:
        """How many connections watch without a seat, and the names of those who gave one."""
        watching = [viewer for viewer in self.hub.viewers(self.id) if viewer.seat is None]
        return {"count": len(watching),
                "names": sorted(viewer.name for viewer in watching if viewer.name)}

    async def _run(self) -> None:
        while not self._finishing:
            if not self._jobs and not self._watchers_moved and not self._equity_ready:
                deadline = self.table.next_deadline()
                timeout = None if deadline is None else max(0.0, deadline - self.clock())
                self._wake.clear()
                # asyncio.timeout, not wait_for: on Python 3.11, wait_for swallows a cancel
                # that lands as the wake-up does, and the room would outlive its stop.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._wake.wait()
                if self._finishing:
                    return
            if self._jobs:
                job = self._jobs.pop(0)
            else:
                job = _Job(None, None)
            self._job = job
            try:
                answer = await self._execute(job)
            except LeaseLost:  # another worker runs the room now: nothing more from here
                if not job.done.done():
                    job.done.set_result(_error(job.command, "this room moved to another "
                                               "server: join it again", "unavailable"))
                self._lost()
                return
            except StoreError as error:  # the database failed: back to what it holds
                log.warning("room %s: could not save: %s", self.id, error)
                answer = _error(job.command, "the server could not save this command: try "
                                "again", "not_saved")
                await self._reload()
            except Exception:  # a bug must not take the table down with it
                log.exception("room %s: command failed", self.id)
                answer = _error(job.command, "the server failed to apply this command",
                                "server_error")
                await self._reload()
            if not job.done.done():
                job.done.set_result(answer)
            self._job = None

    async def _execute(self, job: _Job) -> dict[str, Any]:
        viewer, command = job.viewer, job.command
        if job.call is not None:
            try:
                result = job.call(self.table)
            except TableError as error:
                self.table.drain()
                return _error(None, str(error), error.code)
            await self._commit(None)
            return {"ok": True, "result": result}
        if viewer is None or command is None:
            self.table.tick()
            if self._watchers_moved:
                self._watchers_moved = False
                watchers = self.watchers()
                if watchers != self._watchers_told and self.table.phase != CLOSED:
                    self._watchers_told = watchers
                    self.table.announce("watchers", watchers)
            self._publish_equity()
            await self._commit(None)
            return {}
        sender = viewer.player or viewer.sid
        # A bot's commands come from its driver in this process, never again with the same
        # id: nothing to remember for a retry (a bot room played on would keep every one).
        retried = command.type not in READ_ONLY and \
            bot_driver.bot_style(viewer.player or "") is None
        remembered = self.recall(sender, command.id) if retried else None
        if remembered is not None:
            return {**remembered, "duplicate": True}
        try:
            result = self._apply(viewer, command)
        except (TableError, AuthError) as error:
            self.table.drain()  # a refused command changes nothing, but be sure
            answer = _error(command, str(error), error.code)
        else:
            if command.type == "sit":
                await self.hub.place(viewer)  # the sit's own update is the seat's first
                self.watchers_changed()
            try:
                await self._commit(f"{sender}:{command.id}" if retried else None)
            except LeaseLost:
                raise
            except StoreError as error:
                log.warning("room %s: could not save: %s", self.id, error)
                await self._reload()
                return _error(command, "the server could not save this command: try again",
                              "not_saved")
            answer = {"id": command.id, "ok": True, "version": self.table.version, **result}
            if command.type == "join":
                await self.hub.place(viewer)
                self.watchers_changed()
        if retried:
            self.remember(sender, command.id, answer)
        return answer

    async def _commit(self, key: str | None) -> None:
        """Store the table's new events and state, then publish the events. The state is
        written whole at hand boundaries, when seats or the ledger change, after a reload and
        every ``MAX_CHANGES`` commits; otherwise as its change (``table.changes``): an action
        stores the action, not the table again."""
        events = self.table.drain()
        if not events:
            return
        rows, ledger, hands, revised = [], [], [], []
        ended = False
        for event in events:
            payload: dict[str, Any] = {"data": dict(event.data)}
            if event.truth is not None:
                payload["event"] = plain(event.truth)
            rows.append(EventRow(event.version, event.kind, event.hand_no,
                                 key if event is events[-1] else None, event.at, payload))
            if event.kind == "chips":
                private = event.private or {}
                ledger.append(LedgerRow(event.version, event.at, event.data["seat"],
                                        str(private.get("player", "")), event.data["name"],
                                        event.data["entry"], event.data["amount"]))
            elif event.kind == "hand_ended" and event.private is not None:
                hands.append(HandRow(event.data["hand_no"], event.private["game"], event.at,
                                     dict(event.private)))
                self.recall_last_hand(event.private)
                ended = True
                if "runout" in event.data and self.hub.viewers(self.id):
                    self._equity_task = asyncio.create_task(
                        self._work_out_equity(dict(event.private)))
            elif event.kind in ("shown_after", "rabbit") and event.private is not None:
                revised.append(HandRow(event.data["hand_no"], event.private["game"], event.at,
                                       dict(event.private)))
                self._last_record, self._last_views = dict(event.private), {}
            elif event.kind == "chat":
                self.chat.append(_event_payload(self.id, event, None))
                del self.chat[:-RECENT_CHAT]
            elif event.kind == "hand_started":
                self._forget_last_views()
        host_hash = self._pending_host_hash
        self._pending_host_hash = None
        state = self.table.to_state()
        change = None
        if self._stored is not None and not (ledger or hands or revised) and \
                self._changes < MAX_CHANGES and state["phase"] == self._stored["phase"]:
            change = state_change(self._stored, state)
        await self.store.append(self.id, version=self.table.version,
                                state=state if change is None else None, change=change,
                                closed=self.table.phase == CLOSED, events=rows, ledger=ledger,
                                hands=hands, revised=revised, host_hash=host_hash,
                                token=self.lease)
        self._stored = state
        self._changes = 0 if change is None else self._changes + 1
        if host_hash is not None:
            self.host_hash = host_hash
        await self._after_seat_changes(events)
        missed = await self.hub.push(self.id, self._updates(events))
        if missed:  # surely lost (another worker's, with Redis down): their next update whole
            self._pushed = {
                audience: dataclasses.replace(
                    last, sids=tuple(sid for sid in last.sids if sid not in missed))
                for audience, last in self._pushed.items()}
        for viewer, payload in self._private:
            await self.hub.send_to(viewer, "host", payload)
        self._private = []
        self._let_go_last_views()
        self._kept.previous = None  # the change before this one's parts: not asked for again
        if ended and (finished := self.table.finished_hand()) is not None:
            # its last views are built: nobody asks for its seats' pills now (about 1 KB a
            # seat; its boards' tables went with each round of views)
            forget_pills(finished)
        self.bots.sync()
        if self.listener is not None:
            self.listener(self, events)

    def _lost(self) -> None:
        log.warning("room %s: its lease was taken by another worker: giving it up", self.id)
        self._finishing = True
        if self.on_lost is not None:
            self.on_lost(self)

    async def _work_out_equity(self, record: dict[str, Any]) -> None:
        """The last hand's all-in equity, in a worker thread; the actor publishes it."""
        try:
            payload = await asyncio.to_thread(equity_of_record, self.settings, record)
        except Exception:  # the table plays on without it
            log.exception("room %s: could not work out the equity of hand %s", self.id,
                          record.get("hand_no"))
            return
        if payload is not None:
            self._equity_ready.append(payload)
            self._wake.set()

    def _publish_equity(self) -> None:
        """Announce the equity worked out for the hand that ended last (not an older one)."""
        while self._equity_ready:
            payload = self._equity_ready.pop(0)
            last = self._last_record
            if last is not None and last["hand_no"] == payload["hand_no"]:
                self._equity, self._last_views = payload, {}
                self.table.announce("equity", payload)

    async def _after_seat_changes(self, events: list[TableEvent]) -> None:
        """Connections of a player who left lose the seat (and see what a spectator sees)."""
        for event in events:
            if event.kind == "left":
                for viewer in self.hub.viewers(self.id):
                    if viewer.seat == event.data["seat"]:
                        viewer.seat, viewer.player = None, None
                        await self.hub.place(viewer)
                        self.watchers_changed()

    def _updates(self, events: list[TableEvent]) -> list[tuple[list[Viewer], Fragment]]:
        """One ``update`` per audience with someone connected: the commit's events as that
        audience may see them, and its view of the room after them, as JSON text: whole, or
        (``patch``) the parts that changed since the audience's last update, for those of its
        connections that got that update, when that is shorter. The parts every audience
        shares (the table and its changes, table events, hand events alike for all) are built
        and encoded once; each audience adds its own hand view, raise sizes and last hand."""
        members: dict[Audience, list[Viewer]] = {}
        for viewer in self.hub.viewers(self.id):
            members.setdefault(viewer.seat, []).append(viewer)
        pushed, self._pushed = self._pushed, {}
        last_table, self._pushed_table = self._pushed_table, None
        if not members:
            return []
        table = self.table.public_state()
        table_text = dumps(table)
        self._pushed_table = (self.table.version, table)
        base = events[0].version - 1
        changed_table: str | None = None  # the table's changes, once, if anyone gets a patch
        small = {key: self._small_text(key, value) for key, value in (
            ("bots", self.bots.styles()), ("blinds", blinds(self.table)),
            ("watchers", self._watchers_told))}
        shared = f'"table":{table_text},"bots":{small["bots"]},"blinds":{small["blinds"]},' \
                 f'"watchers":{small["watchers"]}'
        public = [dumps(_event_payload(self.id, event, None)) for event in events]
        head = f'{{"room":{dumps(self.id)},"version":{self.table.version},"events":['
        memo: SharedTexts = {}  # the views' parts that audiences share, encoded once
        self._kept = KeptTexts(self._kept)  # this change's, on top of the last one's
        ordered = sorted(members, key=lambda a: -1 if a is None else a)
        watched, owns = self.table.own_views(ordered)  # the spectators' hand view
        spectators = spectators_texts(watched, memo, self._kept)
        updates: list[tuple[list[Viewer], Fragment]] = []
        for audience in ordered:
            texts = [dumps(_event_payload(self.id, event, audience))
                     if _differs(event, audience) else text
                     for event, text in zip(events, public, strict=True)]
            own = owns.get(audience) if audience is not None else None
            before = pushed.get(audience)
            hand = spectators if own is None or audience is None else \
                own_texts(spectators, audience, own, memo, self._kept,
                          before.hand if before is not None else None)
            sizes = _sizes_text(raise_sizes(self.table, audience))
            last_hand = self.last_hand(audience) if watched is None else "null"
            start = f'{head}{",".join(texts)}],'
            whole = f'{start}"view":{{{shared},"hand":{hand.text},"sizes":{sizes},' \
                    f'"last_hand":{last_hand}}}}}'
            now = _Pushed(self.table.version, tuple(v.sid for v in members[audience]),
                          (small["bots"], small["blinds"], small["watchers"], sizes, last_hand),
                          hand._replace(text=""))
            self._pushed[audience] = now
            if before is None or before.version != base or last_table is None or \
                    last_table[0] != base:
                updates.append((members[audience], Fragment(whole)))
                continue
            if changed_table is None:
                changed_table = dumps(changes(last_table[1], table, ["table"]))[1:-1]
            patch = _patch(changed_table, before, now, hand.text)
            if len(patch) >= len(whole) - len(start):
                updates.append((members[audience], Fragment(whole)))
                continue
            got = [viewer for viewer in members[audience] if viewer.sid in before.sids]
            new = [viewer for viewer in members[audience] if viewer.sid not in before.sids]
            updates.append((got, Fragment(f'{start}"base":{base},"patch":{patch}}}')))
            if new:
                updates.append((new, Fragment(whole)))
        return updates

    def _small_text(self, key: str, value: Any) -> str:
        """The text of a small part of the view that seldom changes (the bots, the blinds,
        the watchers), encoded again only when it changed."""
        kept = self._smalls.get(key)
        if kept is not None and kept[0] == value:
            return kept[1]
        text = dumps(value)
        self._smalls[key] = (value, text)
        return text

    async def _reload(self) -> None:
        """After a failure, go back to what the store holds. While the store cannot be read
        (a database restarting), try again after a while, longer each time up to
        ``RELOAD_WAIT``: the room takes no command meanwhile (they wait in line), and a stop
        ends the wait."""
        self._stored = None  # the next commit writes the whole state
        self._pushed, self._pushed_table = {}, None  # the next updates are whole
        wait = 0.05
        while True:
            try:
                row = await self.store.room(self.id)
                break
            except StoreError as error:
                if self._finishing:  # a drain: the store's state is the room's, whoever next
                    return
                log.warning("room %s: cannot read its state back: %s; again in %.2f s",
                            self.id, error, wait)
                await asyncio.sleep(wait)
                wait = min(2 * wait, RELOAD_WAIT)
        if row is not None:
            self.table = Table.from_state(self.settings, with_changes(row.state, row.changes),
                                          clock=self.clock, rng=self.table.rng, room=self.id,
                                          keep_clocks=True)
            self.host_hash = row.host_hash

    # -- commands ----------------------------------------------------------------------------

    def _apply(self, viewer: Viewer, command: Command) -> dict[str, Any]:
        from boardroom.server.protocol import COMMANDS

        kind, args, table = command.type, command.args, self.table
        who = COMMANDS[kind].who
        if kind == "join":
            return self._join(viewer, args)
        if viewer.room != self.id:
            raise TableError("join the room first")
        if who == PLAYER and viewer.role == "spectator":
            raise TableError("spectators cannot take a seat: join as a player")
        if who == SEATED:
            if viewer.role == "spectator":
                raise TableError("spectators cannot act")
            if viewer.seat is None or viewer.player is None or \
                    table.seat_of(viewer.player) != viewer.seat:
                raise TableError("you have no seat at this table")
        if who == HOST and not viewer.host:
            raise TableError(f"only the host can {kind.replace('_', ' ')}")
        if COMMANDS[kind].cash_only and table.managed:
            raise TableError(f"{kind!r} is a cash game's command: at a tournament table the "
                             f"director seats the players and sets their chips (a player "
                             f"away is blinded off; rebuys and the add-on are the lobby's)",
                             "tournament_table")
        seat = viewer.seat
        match kind:
            case "snapshot":
                return {"snapshot": self.snapshot(viewer)}
            case "suggest":
                hint = allocation_hint(table, seat)
                if hint is None:
                    raise TableError("you have nothing to allocate now")
                return {"suggestion": hint}
            case "sit":
                if viewer.seat is not None:
                    raise TableError(f"you already sit in seat {viewer.seat}")
                player = secrets.token_hex(8)
                table.sit(args["seat"], player, args["name"])
                viewer.seat, viewer.player = args["seat"], player
                viewer.name = args["name"]
                return {"seat": args["seat"],
                        "token": self.signer.seat_token(self.id, args["seat"], player)}
            case "leave":
                table.leave(_int(seat))
            case "sit_out":
                table.sit_out(_int(seat))
            case "sit_in":
                table.sit_in(_int(seat))
            case "rebuy":
                table.request_rebuy(_int(seat), args["amount"])
                if bot_driver.bot_style(viewer.player or "") is not None:
                    table.approve_rebuy(_int(seat))  # the host's bots rebuy without asking
            case "act":
                assert command.action is not None  # (parsed with the command)
                table.act(_int(seat), command.action)
            case "allocate":
                table.allocate(_int(seat), args["cards"])
            case "runs":
                table.choose_runs(_int(seat), args["runs"])
            case "straddle":
                table.straddle_next(_int(seat), args["on"])
            case "pick":
                table.pick(_int(seat), args["game"], args.get("options"))
            case "show":
                table.show_after(_int(seat), args["cards"])
            case "rabbit":
                table.rabbit_hunt(_int(seat))
            case "seed":
                table.client_seed(_int(seat), args["hand_no"], args["seed"])
            case "chat":
                name = (table.seats[seat].name if seat is not None and seat in table.seats
                        else viewer.name or "spectator")
                table.chat(seat, name, args["text"])
            case "approve":
                table.approve(args["seat"])
            case "approve_rebuy":
                table.approve_rebuy(args["seat"])
            case "kick":
                table.kick(args["seat"])
            case "set_stack":
                table.set_stack(args["seat"], args["amount"])
            case "pause":
                table.pause()
            case "resume":
                table.resume()
            case "deal_now":
                table.deal_now()
            case "close":
                table.close()
            case "transfer_host":
                self._transfer_host(viewer, args["seat"])
            case "add_bot":
                return bot_driver.add_bot(table, args)
            case "remove_bot":
                return bot_driver.remove_bot(table, args)
        return {}

    def _join(self, viewer: Viewer, args: dict[str, Any]) -> dict[str, Any]:
        role = args.get("role", "player")
        if role not in ("player", "spectator"):
            raise TableError(f"join as 'player' or 'spectator', not {str(role)[:20]!r}")
        host = False
        if "host_secret" in args:
            if not is_host_secret(args["host_secret"], self.host_hash):
                raise AuthError("wrong host secret", "bad_host_secret")
            host = True
        if role == "spectator" and not self.settings.spectators_allowed and not host:
            raise TableError("this room does not allow spectators")
        seat = player = None
        if "token" in args:
            if role == "spectator":
                raise TableError("a spectator has no seat token: join as a player")
            claim = self.signer.read(args["token"])
            if claim.room != self.id:
                raise AuthError("this seat token is for another room")
            if self.table.seat_of(claim.player) != claim.seat:
                raise AuthError(f"this seat token is no longer valid: seat {claim.seat} "
                                f"is not yours any more")
            seat, player = claim.seat, claim.player
        name = args.get("name")
        if name is not None and not (0 < len(name.strip()) <= 24 and name.isprintable()):
            raise TableError("a name is 1 to 24 printable characters", "bad_name")
        viewer.room, viewer.role, viewer.seat, viewer.player = self.id, role, seat, player
        viewer.host, viewer.name = host, name.strip() if name else None
        return {"you": viewer.describe(), "snapshot": self.snapshot(viewer)}

    def _transfer_host(self, viewer: Viewer, seat: int) -> None:
        state = self.table.seats.get(seat) if isinstance(seat, int) else None
        if state is None:
            raise TableError(f"seat {seat!r} is empty: the host passes to a seated player")
        online = [other for other in self.hub.viewers(self.id)
                  if other.seat == seat and other.player == state.player]
        if not online:
            raise TableError(f"seat {seat} is not connected: the new host must be online to "
                             f"receive the host secret")
        secret = new_host_secret()
        self._pending_host_hash = secret_hash(secret)
        self._private = []
        for other in self.hub.viewers(self.id):
            other.host = other.seat == seat and other.player == state.player
            if other.host:
                self._private.append((other, {"room": self.id, "host_secret": secret}))
        viewer.host = viewer.seat == seat
        self.table.announce("host_changed", {"seat": seat, "name": state.name})

    # -- views -------------------------------------------------------------------------------

    def snapshot(self, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may know about the room now (DESIGN.md: per-viewer views): its
        view, as the pushes carry it, with who the viewer is, the recent chat and the hand's
        events so far (for the action log of a browser that joins mid-hand)."""
        seat = viewer.seat if viewer.room == self.id else None
        story = self.table.hand_story(seat)
        return {"room": self.id, "version": self.table.version, "you": viewer.describe(),
                **self._view(seat, self._shared_view()), "chat": list(self.chat),
                "hand_log": plain(story) if story is not None else None,
                "tournament": self.tournament}

    def _shared_view(self) -> dict[str, Any]:
        """The parts of the view that every audience sees alike."""
        return {"table": self.table.public_state(), "bots": self.bots.styles(),
                "blinds": blinds(self.table), "watchers": self._watchers_told}

    def _view(self, seat: Audience, shared: dict[str, Any]) -> dict[str, Any]:
        """What table ``seat`` (None: a spectator) needs to draw the room: the shared parts,
        its hand view, its raise sizes and the hand that just ended."""
        own = self._own_view(seat)
        last = own["last_hand"]
        return {**shared, "hand": json.loads(own["hand"]), "sizes": own["sizes"],
                "last_hand": json.loads(last) if last != "null" else None}

    def _own_view(self, seat: Audience) -> dict[str, Any]:
        """The parts of ``seat``'s view that are its own; the hand and the last hand as JSON
        text."""
        view = self.table.hand_view(seat)
        return {"hand": dumps_shared(view, {}, kept=self._kept),
                "sizes": raise_sizes(self.table, seat),
                "last_hand": self.last_hand(seat) if view is None else "null"}

    def recall_last_hand(self, record: Mapping[str, Any]) -> None:
        """Show ``record`` (a stored hand's) as the hand that ended last: a restored room
        keeps the result on screen until the next deal, as it did before the restart."""
        self._last_record, self._last_views = dict(record), {}
        self._last_hand, self._equity = None, None

    def _let_go_last_views(self) -> None:
        """Once a commit is pushed, keep the last hand's views as the texts sent (they are
        what is sent again) and let the view objects and their shared texts go: rebuilt
        only for an audience that has no text yet, or when the hand's record changes."""
        self._last_hand_views, self._last_texts = {}, {}

    def _forget_last_views(self) -> None:
        """Drop the last hand's replay, views and texts once the next hand is dealt: nobody is
        shown it again, and they weigh about 150 KiB. Its record (about 10 KiB) goes too,
        unless its equity is still being worked out: that is announced when it comes."""
        self._last_views, self._last_hand_views, self._last_texts = {}, {}, {}
        self._last_hand, self._last_hunt = None, None
        task = self._equity_task
        if (task is None or task.done()) and not self._equity_ready:
            self._last_record = None

    def last_hand(self, seat: Audience) -> str:
        """The hand that just ended as table ``seat`` may see it (shown hands, category
        winners, points and awards), as JSON text ("null": none), so the table keeps the
        result on screen until the next deal. The seat's own cards are shown only to the
        player who held them, not to whoever sits there next. The hand is replayed once, and
        each of its players' views of it built once."""
        record = self._last_record
        if record is None:
            return "null"
        held = self._held_in(record, seat)
        if held not in self._last_views:
            if self._last_hand is None:  # the table's, as played, when it is that hand
                played = self.table.last_record
                same = played is not None and played["hand_no"] == record["hand_no"]
                hand = self.table.finished_hand() if same else None
                self._last_hand = hand or rebuild_hand(self.settings, record)
            hand = self._last_hand
            if not self._last_views:
                self._last_hand_views, self._last_texts = {}, {}
            if held not in self._last_hand_views:
                # The views of the audiences connected now that have none, at once (their
                # parts shared), and no other: a seat's pills are worked out for its own
                # audience alone, so a room watched by spectators works out none. The views
                # are let go once the commit is pushed (``_let_go_last_views``): their texts
                # are what is sent again.
                wanted = {None, held, *(self._held_in(record, viewer.seat)
                                        for viewer in self.hub.viewers(self.id))}
                wanted.difference_update(self._last_views)
                wanted.add(held)
                self._last_hand_views.update(views_for(hand, wanted))
            head = dumps({"hand_no": record["hand_no"]})[:-1]
            tail = dumps({
                "shown_after": record.get("shown_after", {}), "rabbit": rabbit_boards(record),
                "equity": self._equity,
                "can_hunt": "rabbit" not in record and self._can_hunt(hand),
                # the show command's rule: a hand that won uncontested or was mucked
                "can_show": held is not None and hand.is_live(held)
                and not hand.showed(held)})[1:]
            view = dumps_shared(self._last_hand_views[held], self._last_texts)
            self._last_views[held] = f'{head},"view":{view},{tail}'
        return self._last_views[held]

    def _held_in(self, record: Mapping[str, Any], seat: Audience) -> int | None:
        """The seat in hand ``record`` of the player at table ``seat`` now (None: a spectator,
        or someone who was not in that hand)."""
        occupant = self.table.seats.get(seat) if seat is not None else None
        if occupant is None:
            return None
        return next((p["seat"] for p in record["players"]  # each with its seat in the hand
                     if p["player"] == occupant.player), None)

    def _can_hunt(self, hand: Hand) -> bool:
        """``can_hunt`` for the last hand, worked out once for every audience (it copies the
        hand's card source)."""
        if self._last_hunt is None or self._last_hunt[0] is not hand:
            self._last_hunt = (hand, can_hunt(self.settings, hand))
        return self._last_hunt[1]


def warm_up_views() -> None:
    """One example hand of every game played to its end and viewed by each seat (its pills,
    NUTS and the boards' holdings tables), then forgotten, as a server starts: the code play
    runs (numpy's among it: about 0.5 MB of its library's pages came in with a server's first
    tables) is in memory before the first request, not counted against the tables (about 40 ms
    of CPU; docs/decisions.md, "mem13")."""
    for variant in VARIANTS:
        hand = play_example(variant, 1)
        views_for(hand, hand.seats)  # its boards' tables go with the round
        forget_pills(hand)


def rabbit_boards(record: dict[str, Any]) -> dict[str, list[str]] | None:
    """The rabbit's cards of a finished hand, board by board (None: nobody asked)."""
    if "rabbit" not in record:
        return None
    boards: dict[str, list[str]] = {}
    for board, cards in record["rabbit"]:
        boards.setdefault(board, []).extend(cards)
    return boards


def can_hunt(settings: TableSettings, hand: Hand) -> bool:
    """Whether a finished hand left board cards to hunt (and the host allows it)."""
    return settings.rabbit_hunting and bool(hand.rabbit_hunt())


def allocation_hint(table: Table, seat: int | None) -> dict[str, Any] | None:
    """The engine's best allocation of the viewer's own cards while they still have to commit
    (the "suggest" of the Allocator games); None otherwise."""
    hand = table.hand
    if hand is None or seat is None or seat not in hand.seats_to_allocate:
        return None
    return {name: plain(cards, cards=True)
            for name, cards in hand.suggest_allocation(seat).items()}


def blinds(table: Table) -> dict[str, str]:
    """The table seats that posted the blinds of the hand in play (public)."""
    hand = table.hand
    if hand is None:
        return {}
    return {str(event.seat): event.blind for event in hand.events
            if isinstance(event, ev.BlindPosted)}


def raise_sizes(table: Table, seat: int | None) -> dict[str, Any] | None:
    """What the browser's action bar shows without computing a rule: for the seat to act, its
    quick raise sizes (totals to raise to, each within the legal range): min, half pot, pot
    (RULES.md s.2's pot-limit maximum), all-in and max. None for everybody else."""
    hand = table.hand
    if hand is None or seat is None:
        return None
    legal = hand.legal_actions() if hand.seat_to_act == seat else None
    if legal is None or legal.raise_min is None or legal.raise_max is None:
        return None
    low, high = legal.raise_min, legal.raise_max
    to_call = hand.to_call(seat)
    pot = pot_limit_max_raise_to(hand.current_bet, hand.chips_in_play, to_call)
    half = hand.current_bet + (hand.chips_in_play + to_call) // 2
    all_in = hand.bet(seat) + hand.stack(seat)
    return {"min": low, "half_pot": min(high, max(low, half)), "pot": min(high, max(low, pot)),
            "all_in": all_in if low <= all_in <= high else None, "max": high}


_TOPS = ("bots", "blinds", "watchers", "sizes", "last_hand")


@dataclass(frozen=True, slots=True)
class _Pushed:
    """An audience's last update: its version, the connections it went to, and the texts of
    its view's parts, to send only what changed the next time (kept for every audience of
    every room: slots and tuples, fewer objects for the collector to walk)."""

    version: int
    sids: tuple[str, ...]  # one or a few: a tuple is 48 bytes, a frozenset 216
    tops: tuple[str, ...]  # the texts of the view's parts named by _TOPS, in that order
    hand: ViewTexts  # the texts of its hand view's fields and seats (not the whole text)


_HAND_FIELDS = tuple(f.name for f in dataclasses.fields(HandView))
_SEATS = _HAND_FIELDS.index("seats")
_HAND_PATHS = tuple(f'[["hand",{label}],' for label in labels(HandView))
_LABELLED = tuple(len(label) + 1 for label in labels(HandView))  # a field's text's '"name":'


def _patch(table: str, before: _Pushed, now: _Pushed, hand: str) -> str:
    """The changes from an audience's last view to its view now, as JSON text: ``table``,
    the table's (the same for every audience), then the parts of its own that changed;
    ``hand``: its hand view's text now."""
    out = [table] if table else []
    out += [f'[["{key}"],{text}]' for key, text, was in zip(_TOPS, now.tops, before.tops,
                                                             strict=True) if was != text]
    fields, seats = now.hand.fields, now.hand.seats
    fields_were, seats_were = before.hand.fields, before.hand.seats
    if fields is None or fields_were is None or seats_were is None or seats is None:
        if (fields is None) != (fields_were is None):  # a hand began or ended
            out.append(f'[["hand"],{hand}]')
        return "[" + ",".join(out) + "]"
    for index, (text, was) in enumerate(zip(fields, fields_were, strict=True)):
        if text != was:
            out.append(f"{_HAND_PATHS[index]}{text[_LABELLED[index]:]}]")
    if len(seats) != len(seats_were):
        out.append(f'{_HAND_PATHS[_SEATS]}[{",".join(seats)}]]')
    else:
        out += [f'[["hand","seats",{index}],{text}]'
                for index, (text, was) in enumerate(zip(seats, seats_were, strict=True))
                if text != was]
    return "[" + ",".join(out) + "]"


def _sizes_text(sizes: dict[str, Any] | None) -> str:
    """The raise sizes as JSON: only the seat to act has any."""
    return "null" if sizes is None else dumps(sizes)


def _differs(event: TableEvent, seat: Audience) -> bool:
    """Whether table ``seat`` sees this event otherwise than a spectator does."""
    views = event.views
    return views is not None and seat is not None and seat in views and \
        views[seat] != views[None]


def _event_payload(room: str, event: TableEvent, seat: int | None) -> dict[str, Any]:
    payload: dict[str, Any] = {"room": room, "version": event.version, "kind": event.kind,
                               "data": dict(event.data), "at": event.at}
    if event.kind == HAND:
        payload["hand_no"] = event.hand_no
        payload["event"] = plain(event.view_for(seat))
    return payload


def _error(command: Command | None, message: str, code: str) -> dict[str, Any]:
    return failure(command.id if command else None, code, message)


def _int(seat: int | None) -> int:
    assert seat is not None
    return seat
