"""The HTTP routes: health, variants, creating rooms, finished hands and the ledger.

A hand history is served only once the hand is over, and with every card its reader may not see
written ``??``: a player proves who they are with their seat token in the ``X-Seat-Token``
header (never in the URL, which access logs keep) and sees their own hands; nobody else sees
cards never shown.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any, Protocol

import tomli_w
from fastapi import FastAPI, Header, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from boardroom.rules import SpecError
from boardroom.server import reads, wire
from boardroom.server.auth import AuthError, Signer
from boardroom.server.config import ServerConfig
from boardroom.server.reads import spreadsheet_safe as spreadsheet_safe  # re-exported
from boardroom.server.room import Room
from boardroom.store import Store, StoreError
from boardroom.table import TableError, TableSettings, history_for


class Service(Protocol):
    """What the routes need of the server (``app.Server`` is one)."""

    config: ServerConfig
    rooms: dict[str, Room]

    @property
    def store(self) -> Store: ...

    @property
    def signer(self) -> Signer: ...

    async def create_room(self, settings: TableSettings) -> tuple[str, str]: ...

    async def settings_of(self, room_id: str) -> TableSettings | None: ...

    async def read_room(self, room_id: str, what: str) -> Any: ...

    def health(self) -> dict[str, Any]: ...


class RoomRequest(BaseModel):
    """The host's options; anything left out takes its default (see ``TableSettings``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str | None = None
    hole_cards: int | None = None
    betting: str | None = None
    bring_in_rule: str | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    ante: int | None = None
    bring_in: int | None = None
    starting_stack: int | None = None
    max_seats: int | None = None
    action_clock: float | None = None
    time_bank: float | None = None
    pick_clock: float | None = None
    pause_between_hands: float | None = None
    spectators_allowed: bool | None = None
    seat_approval: bool | None = None
    rabbit_hunting: bool | None = None
    straddle: str | None = None  # blind games: who may straddle: "off", "utg" or "utg-button"
    run_it_twice: bool | None = None
    # game "rotation": the games in turn, each an id or {"game", "hole_cards", "betting",
    # "bring_in"}; rotate_every: hands a game, 0 an orbit (also for "horse")
    rotation: list[str | dict[str, str | int]] | None = Field(default=None, max_length=20)
    rotate_every: int | None = None


Token = Annotated[str | None, Query(
    description="refused: a seat token goes in the X-Seat-Token header, never in a URL")]
TokenHeader = Annotated[str | None, Header(alias="X-Seat-Token",
                                           description="a seat token, to see your own cards")]
# Hand numbers count from 1 and are stored as 32-bit integers.
HandNo = Annotated[int, Path(ge=1, le=2**31 - 1, description="the hand's number, from 1")]


def example_of(game_id: str) -> dict[str, Any]:
    """A game's worked example as JSON-ready data (an unknown game raises ``SpecError``)."""
    from boardroom.rules import find_variant

    return _example(find_variant(game_id).id)


@functools.cache
def _example(variant_id: str) -> dict[str, Any]:
    """Computed once per variant (at most one entry per game of the registry)."""
    from boardroom.engine.example import example_hand
    from boardroom.rules import find_variant
    from boardroom.server.encode import plain

    example = example_hand(find_variant(variant_id))
    return {"game": variant_id, "players": list(example.players), "seed": example.seed,
            "view": plain(example.view)}


class RoomCreated(BaseModel):
    room: str
    join_link: str
    host_secret: str
    settings: dict[str, Any]


def add_routes(app: FastAPI, server: Service) -> None:
    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return server.health()

    @app.get("/api/protocol.schema.json")
    async def protocol_schema() -> dict[str, Any]:
        """The JSON Schema of every message of the real-time protocol (``server.wire``): each
        top-level property is the message of one socket.io event; ``$defs`` names every type."""
        return wire.schema()

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        from boardroom.rules import iter_games
        from boardroom.rules.describe import describe_variant

        return {"games": [describe_variant(game) for game in iter_games()]}

    @app.get("/api/games/{game_id}/example")
    async def game_example(game_id: str) -> dict[str, Any]:
        """The rules page's worked example: a checked-down hand of the game, every hand shown
        (``engine.example``), computed once per game."""
        try:
            return await asyncio.to_thread(example_of, game_id)
        except SpecError as error:
            raise HTTPException(404, str(error)) from None

    # The old names (docs/decisions.md, "One vocabulary"): the same answers, deprecated.
    @app.get("/api/variants", deprecated=True)
    async def variants() -> dict[str, Any]:
        return {"variants": (await games())["games"]}

    @app.get("/api/variants/{game_id}/example", deprecated=True)
    async def variant_example(game_id: str) -> dict[str, Any]:
        return await game_example(game_id)

    @app.post("/api/rooms", status_code=201)
    async def create_room(options: RoomRequest, request: Request) -> RoomCreated:
        chosen = {k: v for k, v in options.model_dump().items() if v is not None}
        try:
            settings = TableSettings.from_dict(chosen)
        except TableError as error:
            raise HTTPException(400, str(error)) from None
        room_id, secret = await server.create_room(settings)
        base = server.config.public_url or str(request.base_url)
        link = base.rstrip("/") + f"/?room={room_id}"
        return RoomCreated(room=room_id, join_link=link, host_secret=secret,
                           settings=settings.to_dict())

    async def at_room(room_id: str, what: str) -> Any:
        """What the room's actor answers to ``what`` (``reads.READS``), here or on the worker
        that runs it; None if nobody runs it (no such room, or a closed one)."""
        found = server.rooms.get(room_id)
        if found is not None and found.running:
            return await reads.READS[what](found)
        try:
            return await server.read_room(room_id, what)
        except StoreError as error:
            raise HTTPException(503, str(error)) from None

    @app.get("/api/rooms/{room_id}")
    async def room(room_id: str) -> dict[str, Any]:
        found = await at_room(room_id, "room")
        if found is None:
            raise HTTPException(404, f"there is no open room {room_id[:40]!r}")
        answer: dict[str, Any] = found
        return answer

    async def reader(room_id: str, token: str | None,
                     in_url: str | None) -> tuple[TableSettings, str | None]:
        if in_url is not None:  # URLs are logged: a token in one is as good as published
            raise HTTPException(400, "send the seat token in the X-Seat-Token header, never in "
                                     "the URL")
        settings = await server.settings_of(room_id)
        if settings is None:
            raise HTTPException(404, f"there is no room {room_id[:40]!r}")
        if token is None:
            return settings, None
        try:
            claim = server.signer.read(token)
        except AuthError as error:
            raise HTTPException(403, str(error)) from None
        if claim.room != room_id:
            raise HTTPException(403, "this seat token is for another room")
        return settings, claim.player

    @app.get("/api/rooms/{room_id}/hands")
    async def hands(room_id: str, token: Token = None,
                    x_seat_token: TokenHeader = None) -> dict[str, Any]:
        await reader(room_id, x_seat_token, token)
        rows = await server.store.hands(room_id)
        return {"room": room_id, "hands": [
            {"hand_no": row.hand_no, "game": row.game, "ended_at": row.ended_at,
             "players": [p["name"] for p in row.record["players"]]} for row in rows]}

    @app.get("/api/rooms/{room_id}/hands/{hand_no}")
    async def hand(room_id: str, hand_no: HandNo, token: Token = None,
                   x_seat_token: TokenHeader = None) -> dict[str, Any]:
        settings, player = await reader(room_id, x_seat_token, token)
        row = await server.store.hand(room_id, hand_no)
        if row is None:
            raise HTTPException(404, f"hand {hand_no} of room {room_id} is not over or does not "
                                     f"exist")
        return {"room": room_id, "hand_no": hand_no, "game": row.game,
                "history": history_for(settings, row.record, player)}

    @app.get("/api/rooms/{room_id}/hands/{hand_no}/history.toml",
             response_class=PlainTextResponse)
    async def hand_file(room_id: str, hand_no: HandNo, token: Token = None,
                        x_seat_token: TokenHeader = None) -> PlainTextResponse:
        """The same history as a TOML file (a PHH superset), for the browser's download."""
        found = await hand(room_id, hand_no, token, x_seat_token)
        name = f"boardroom-{room_id}-hand-{hand_no}.toml"
        return PlainTextResponse(tomli_w.dumps(found["history"]), media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/rooms/{room_id}/ledger.csv", response_class=PlainTextResponse)
    async def ledger(room_id: str) -> PlainTextResponse:
        if await server.settings_of(room_id) is None:
            raise HTTPException(404, f"there is no room {room_id[:40]!r}")
        text = await at_room(room_id, "ledger")
        if text is None:  # a room nobody runs (closed): no chip is on its table
            text = await reads.ledger_csv(server.store, room_id, None)
        return PlainTextResponse(str(text), media_type="text/csv")

    web = server.config.web
    if web is not None and (web / "index.html").is_file():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    else:
        @app.get("/")
        async def index() -> JSONResponse:
            return JSONResponse({"name": "Boardroom", "docs": "/docs", "games": "/api/games",
                                 "protocol": "docs/protocol.md"})
