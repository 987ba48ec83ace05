"""The HTTP routes of tournaments: create one, its lobby, entries, bots, the host's controls,
where a player is now, and the results (JSON and CSV). See docs/protocol.md, "Tournaments".

The host proves who they are with the tournament's host secret in the ``X-Host-Secret``
header, a person with their entry token in ``X-Seat-Token``; neither ever goes in a URL.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict

from boardroom.server.auth import AuthError, Signer
from boardroom.server.config import ServerConfig
from boardroom.server.tournament import PLAYER_COMMANDS, TournamentHost
from boardroom.tournament import (
    PRESETS,
    PayoutError,
    PayoutTable,
    Structure,
    StructureError,
    TournamentConfig,
    TournamentError,
    find_structure,
)

MAX_BOTS = 200  # bots added by one request
T = TypeVar("T")
# The HTTP status of a tournament's refusal, by its code (docs/protocol.md); others are 400.
STATUS_OF_CODE = {"bad_host_secret": 403}


def http_error(error: TournamentError) -> HTTPException:
    """A tournament's refusal as HTTP: its status by its code, its words as the detail."""
    return HTTPException(STATUS_OF_CODE.get(error.code, 400), str(error))


class Service(Protocol):
    config: ServerConfig
    tournaments: dict[str, TournamentHost]

    @property
    def signer(self) -> Signer: ...

    async def create_tournament(self, config: TournamentConfig, name: str, *,
                                action_clock: float) -> tuple[TournamentHost, str]: ...


class TournamentRequest(BaseModel):
    """The host's choices; anything left out takes its default."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = "Tournament"
    games: list[str] = ["plo"]
    rotate_every: int = 0
    structure: str | dict[str, Any] = "turbo"  # a preset's name, or a structure's settings
    buy_in: int = 100
    table_size: int = 6
    payouts: list[int | float | str] | None = None  # percents, best place first
    action_clock: float = 30.0
    entry_approval: bool = False  # the host approves each person's entry


class BotsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    style: str = "tight"
    count: int = 1


class EntryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str


class StructureText(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    toml: str


class ControlRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seconds: float | None = None


HostSecret = Annotated[str | None, Header(alias="X-Host-Secret",
                                          description="the tournament's host secret")]
EntryToken = Annotated[str | None, Header(alias="X-Seat-Token",
                                          description="a player's entry token")]
CONTROLS = ("start", "pause", "resume", "add_time", "close_registration")
ENTRY_ANSWERS = ("approve", "decline")


def config_of(request: TournamentRequest) -> TournamentConfig:
    """The tournament the request describes; ``TournamentError`` saying what is wrong."""
    try:
        structure = (find_structure(request.structure) if isinstance(request.structure, str)
                     else Structure.from_dict(request.structure).check())
        payouts = (PayoutTable.from_percents(request.payouts) if request.payouts is not None
                   else None)
    except (StructureError, PayoutError) as error:
        raise TournamentError(str(error)) from None
    name = request.name.strip()
    if not 1 <= len(name) <= 60 or not name.isprintable():
        raise TournamentError("a tournament's name is 1 to 60 printable characters")
    if not 1 <= request.action_clock <= 600:
        raise TournamentError("the action clock is 1 to 600 seconds")
    return TournamentConfig(structure, tuple(request.games), request.rotate_every,
                            request.buy_in, request.table_size, payouts,
                            request.entry_approval).check()


def add_tournament_routes(app: FastAPI, server: Service) -> None:
    def find(tournament_id: str) -> TournamentHost:
        host = server.tournaments.get(tournament_id)
        if host is None:
            raise HTTPException(404, f"there is no tournament {tournament_id[:40]!r}")
        return host

    @app.get("/api/structures")
    async def structures() -> dict[str, Any]:
        """The structure presets, as settings a host can edit and send back."""
        return {"presets": {name: preset.to_dict() for name, preset in PRESETS.items()}}

    @app.post("/api/structures/toml", response_class=PlainTextResponse)
    async def structure_toml(settings: dict[str, Any]) -> PlainTextResponse:
        """A structure's settings as a TOML file (checked first: a structure that cannot run
        is refused, naming what is wrong)."""
        try:
            structure = Structure.from_dict(settings)
        except StructureError as error:
            raise HTTPException(400, str(error)) from None
        name = "".join(c if c.isalnum() or c in "-_" else "-" for c in structure.name)[:40]
        return PlainTextResponse(structure.to_toml(), media_type="application/toml",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="{name or "structure"}.toml"'})

    @app.post("/api/structures/parse")
    async def structure_parse(body: StructureText) -> dict[str, Any]:
        """A TOML structure file read back into settings, or what is wrong with it."""
        if len(body.toml) > 200_000:
            raise HTTPException(400, "a structure file is at most 200,000 characters")
        try:
            return Structure.from_toml(body.toml).to_dict()
        except StructureError as error:
            raise HTTPException(400, str(error)) from None

    @app.post("/api/tournaments", status_code=201)
    async def create(request: TournamentRequest, http: Request) -> dict[str, Any]:
        try:
            config = config_of(request)
            host, secret = await server.create_tournament(config, request.name.strip(),
                                                          action_clock=request.action_clock)
        except TournamentError as error:
            raise http_error(error) from None
        base = server.config.public_url or str(http.base_url)
        return {"tournament": host.id, "host_secret": secret,
                "lobby_link": base.rstrip("/") + f"/?tournament={host.id}",
                "config": config.to_dict()}

    @app.get("/api/tournaments/{tournament_id}")
    async def lobby(tournament_id: str,
                    since: Annotated[int | None, Query(
                        description="the version the page has: an unchanged lobby answers "
                                    "only its version and clock")] = None) -> dict[str, Any]:
        host = find(tournament_id)
        if since is not None and since == host.version:
            return host.clock_state()
        return host.lobby()

    @app.post("/api/tournaments/{tournament_id}/entries", status_code=201)
    async def enter(tournament_id: str, entry: EntryRequest) -> dict[str, Any]:
        host = find(tournament_id)
        try:
            return await host.register(entry.name)
        except TournamentError as error:
            raise http_error(error) from None

    async def as_host(tournament_id: str, secret: str | None,
                      work: Callable[[TournamentHost], Awaitable[T]]) -> T:
        """``work`` done for the tournament's host: 403 without the host secret, a refusal a
        400 naming why (changing nothing)."""
        host = find(tournament_id)
        try:
            host.check_host(secret)
            return await work(host)
        except TournamentError as error:
            raise http_error(error) from None

    @app.post("/api/tournaments/{tournament_id}/bots", status_code=201)
    async def bots(tournament_id: str, request: BotsRequest,
                   x_host_secret: HostSecret = None) -> dict[str, Any]:
        async def add(host: TournamentHost) -> dict[str, Any]:
            if not 1 <= request.count <= MAX_BOTS:
                raise TournamentError(f"add 1 to {MAX_BOTS} bots at a time")
            names = {p.name.lower() for p in host.director.players.values()}
            added = []
            number = 0
            for _ in range(request.count):
                while True:
                    number += 1
                    name = f"{request.style.title()} Bot {number}"
                    if name.lower() not in names:
                        break
                names.add(name.lower())
                added.append((await host.register(name, style=request.style))["name"])
            return {"added": added}
        return await as_host(tournament_id, x_host_secret, add)

    @app.get("/api/tournaments/{tournament_id}/waiting")
    async def waiting(tournament_id: str, x_host_secret: HostSecret = None) -> dict[str, Any]:
        """The host's list of the entries waiting for approval."""
        async def listed(host: TournamentHost) -> dict[str, Any]:
            return {"tournament": host.id, "waiting": host.waiting()}
        return await as_host(tournament_id, x_host_secret, listed)

    @app.post("/api/tournaments/{tournament_id}/waiting/{player}/{answer}")
    async def answer_entry(tournament_id: str, player: str, answer: str,
                           x_host_secret: HostSecret = None) -> dict[str, Any]:
        """The host approves or declines a waiting entry; answers the lobby."""
        find(tournament_id)
        if answer not in ENTRY_ANSWERS:
            raise HTTPException(404, f"unknown answer {answer[:30]!r} to an entry (one of: "
                                     f"{', '.join(ENTRY_ANSWERS)})")

        async def answered(host: TournamentHost) -> dict[str, Any]:
            await host.answer_entry(player, answer == "approve")
            return host.lobby()
        return await as_host(tournament_id, x_host_secret, answered)

    @app.post("/api/tournaments/{tournament_id}/{control}")
    async def control(tournament_id: str, control: str, request: ControlRequest | None = None,
                      x_host_secret: HostSecret = None) -> dict[str, Any]:
        find(tournament_id)
        if control not in CONTROLS:
            raise HTTPException(404, f"unknown tournament control {control[:30]!r} (one of: "
                                     f"{', '.join(CONTROLS)})")
        args = {"seconds": request.seconds} if request and request.seconds is not None else {}

        async def controlled(host: TournamentHost) -> dict[str, Any]:
            await host.command(control, args)
            return host.lobby()
        return await as_host(tournament_id, x_host_secret, controlled)

    def entrant(tournament_id: str, token: str | None) -> tuple[TournamentHost, str]:
        """The tournament and the player an entry token names (401, 403 otherwise)."""
        host = find(tournament_id)
        if token is None:
            raise HTTPException(401, "send your entry token in the X-Seat-Token header")
        try:
            claim = server.signer.read(token)
        except AuthError as error:
            raise HTTPException(403, str(error)) from None
        if claim.room != tournament_id:
            raise HTTPException(403, "this entry token is for another tournament")
        return host, claim.player

    @app.get("/api/tournaments/{tournament_id}/me")
    async def me(tournament_id: str, x_seat_token: EntryToken = None) -> dict[str, Any]:
        host, player = entrant(tournament_id, x_seat_token)
        try:
            return host.where(player)
        except TournamentError as error:
            raise HTTPException(404, str(error)) from None

    @app.post("/api/tournaments/{tournament_id}/me/{command}")
    async def my_command(tournament_id: str, command: str,
                         x_seat_token: EntryToken = None) -> dict[str, Any]:
        """A player's rebuy, add-on or re-entry; answers where they are now."""
        host, player = entrant(tournament_id, x_seat_token)
        if command not in PLAYER_COMMANDS:
            raise HTTPException(404, f"unknown entry command {command[:30]!r} (one of: "
                                     f"{', '.join(PLAYER_COMMANDS)})")
        try:
            await host.player_command(player, command)
            return host.where(player)
        except TournamentError as error:
            raise http_error(error) from None

    @app.get("/api/tournaments/{tournament_id}/results")
    async def results(tournament_id: str) -> dict[str, Any]:
        host = find(tournament_id)
        return {"tournament": host.id, "name": host.name, "finished": host.director.finished,
                "prize_pool": host.director.prize_pool, "results": host.results()}

    @app.get("/api/tournaments/{tournament_id}/results.csv", response_class=PlainTextResponse)
    async def results_csv(tournament_id: str) -> PlainTextResponse:
        from boardroom.server.http import spreadsheet_safe

        host = find(tournament_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["place", "name", "prize", "tied"])
        for row in host.results():
            writer.writerow([row["place"], spreadsheet_safe(row["name"]), row["prize"],
                             row["tied"]])
        name = f"boardroom-tournament-{host.id}-results.csv"
        return PlainTextResponse(out.getvalue(), media_type="text/csv",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="{name}"'})
