"""``boardroom play``: start Boardroom on its embedded defaults with a room of bots to play.

It runs the same server as ``boardroom serve``, creates a room of the chosen variant, seats N
bots through the host's ``add_bot`` command (the same path a host's browser uses), deals the first
hand at once (the host's ``deal_now``: no pause before it), prints the
room's link and the host's link, opens a browser when there is one, and serves until Ctrl-C.
(To settle a typed hand without a server: ``boardroom showdown``.)
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

STYLES = ("tight", "loose", "tight", "loose", "random", "station", "tight", "loose", "tight")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="esg",
                        help="game id, or dealers-choice (default: esg)")
    parser.add_argument("--variant", dest="game", help=argparse.SUPPRESS)  # the old name
    parser.add_argument("--bots", type=int, default=3, help="bots at the table (default: 3)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port (default: 8000; 0: any free port, shown in the links)")
    parser.add_argument("--data", type=Path, default=Path("data"),
                        help="folder for the SQLite database and the server secret "
                             "(default: ./data)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the link without opening a browser")
    parser.add_argument("--bot-think", type=float, default=0.8, metavar="SECONDS",
                        help="how long a bot waits before it acts (default: 0.8)")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from boardroom.cli import UsageError
    from boardroom.rules import SpecError, find_game
    from boardroom.table import TableError, TableSettings

    try:
        name = find_game(args.game).name
    except SpecError as error:
        raise UsageError(str(error)) from None
    if not 0 <= args.bots <= 9:
        raise UsageError("--bots must be 0 to 9 (one seat stays free for you)")
    try:
        settings = TableSettings.from_dict({"game": args.game,
                                            "max_seats": max(6, args.bots + 1)})
    except TableError as error:
        raise UsageError(f"{name} cannot seat you and {args.bots} bots: {error}") from None
    if not 0 <= args.bot_think <= 30:
        raise UsageError("--bot-think must be 0 to 30 seconds")
    from boardroom.server import check_data_folder

    check_data_folder(args.data)  # DataFolderInUse is a ValueError: exit 2, with the folder
    try:
        return asyncio.run(_serve(args, settings, name))
    except KeyboardInterrupt:
        return 0


async def _serve(args: argparse.Namespace, settings: Any, name: str) -> int:
    import asyncio
    import time

    import uvicorn

    from boardroom.server import (
        ServerConfig,
        create_app,
        tune_garbage_collector,
        uvicorn_options,
    )
    from boardroom.server.protocol import RateLimit, parse
    from boardroom.server.viewer import Viewer

    app = create_app(ServerConfig(data=args.data, bot_think=args.bot_think))
    tune_garbage_collector()
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port,
                                           log_level="warning", lifespan="on",
                                           **uvicorn_options(app)))
    serving = asyncio.create_task(server.serve())
    while not server.started and not serving.done():
        await asyncio.sleep(0.05)
    if not server.started:
        await serving
        print(f"boardroom play: could not start the server on {args.host}:{args.port}")
        return 1
    rooms = app.server
    room_id, secret = await rooms.create_room(settings)
    room = rooms.rooms[room_id]
    host = Viewer("play", RateLimit(time.monotonic()), room=room_id, host=True)
    for n in range(args.bots):
        answer = await room.submit(host, parse({"id": f"play-bot-{n}", "type": "add_bot",
                                                "style": STYLES[n % len(STYLES)]}))
        if not answer["ok"]:
            print(f"boardroom play: could not add a bot: {answer['error']}")
    if args.bots >= 2:  # no pause before the first hand: cards as soon as the bots sit
        await room.submit(host, parse({"id": "play-deal", "type": "deal_now"}))
    address = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    if ":" in address:
        address = f"[{address}]"
    port = args.port or server.servers[0].sockets[0].getsockname()[1]  # --port 0: the OS's
    link = f"http://{address}:{port}/?room={room_id}"
    host_link = f"{link}#host={secret}"
    print(f"Boardroom is running: {name} with {args.bots} bot{'s' if args.bots != 1 else ''}.",
          flush=True)
    print(f"Room link: {link}", flush=True)
    print(f"Host link (keep it to yourself: it adds and removes bots, approves rebuys): "
          f"{host_link}", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    if not args.no_browser:
        await asyncio.to_thread(open_browser, host_link)
    await serving
    return 0


def open_browser(link: str) -> bool:
    """Open ``link`` in a graphical browser when there is one; never fail without one."""
    import os
    import sys
    import webbrowser

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                  or os.environ.get("WAYLAND_DISPLAY")):
        return False  # a console browser would take over this terminal
    try:
        return webbrowser.open(link)
    except Exception:  # no browser, a broken one: the printed link is enough
        return False
