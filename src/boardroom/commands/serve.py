"""``boardroom serve``: run the poker room (HTTP, socket.io) on uvicorn."""

from __future__ import annotations

import argparse
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--data", type=Path, default=Path("data"),
                        help="folder for the SQLite database and the server secret "
                             "(default: ./data)")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="a PostgreSQL URL (postgresql://user:pass@host/db) instead of "
                             "SQLite in the data folder")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the address players open (https://poker.example.org/): join links "
                             "use it instead of the request's Host header")
    parser.add_argument("--ws", default="websockets-sansio",
                        choices=["websockets-sansio", "websockets", "wsproto"],
                        help="uvicorn's WebSocket implementation (default: websockets-sansio)")
    parser.add_argument("--bot-think", type=float, default=0.8, metavar="SECONDS",
                        help="how long a bot waits before it acts (default: 0.8; 0: bot-only "
                             "rooms play flat out, as `boardroom bench soak` runs them)")
    parser.add_argument("--log-level", default="info",
                        choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from boardroom.cli import UsageError
    from boardroom.server import (
        ServerConfig,
        check_data_folder,
        create_app,
        tune_garbage_collector,
    )
    from boardroom.store import StoreError, database_url

    try:
        database_url(args.database, args.data)
    except StoreError as error:
        raise ValueError(str(error)) from None
    if not 0 <= args.bot_think <= 30:
        raise UsageError("--bot-think must be 0 to 30 seconds")
    config = ServerConfig(data=args.data, database=args.database, public_url=args.public_url,
                          bot_think=args.bot_think)
    check_data_folder(args.data)  # DataFolderInUse is a ValueError: exit 2, with the folder
    app = create_app(config)
    tune_garbage_collector()
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws=args.ws, lifespan="on")
    return 0
