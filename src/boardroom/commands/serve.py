"""``boardroom serve``: run the poker room (HTTP, socket.io) on uvicorn.

The database and Redis URLs may carry passwords, and any user of the machine can read a
process's command line (``ps``, ``/proc/PID/cmdline``): they can also come from the environment
(``BOARDROOM_DATABASE_URL``, ``BOARDROOM_REDIS_URL``), readable only by the process's own user,
or from a file (``--database-file``, ``--redis-file``), which a deployment keeps private.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
from pathlib import Path

DATABASE_ENV = "BOARDROOM_DATABASE_URL"
REDIS_ENV = "BOARDROOM_REDIS_URL"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--data", type=Path, default=Path("data"),
                        help="folder for the SQLite database and the server secret "
                             "(default: ./data)")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="a PostgreSQL URL (postgresql://user@host/db) instead of SQLite "
                             f"in the data folder; one with a password goes in ${DATABASE_ENV} "
                             "or --database-file, off the command line, which every user of "
                             "the machine can read")
    parser.add_argument("--database-file", type=Path, default=None, metavar="FILE",
                        help="read the database URL from FILE's first line")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the address players open (https://poker.example.org/): join links "
                             "use it instead of the request's Host header")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="run as one worker of a cluster: Redis (redis://host:6379/0) "
                             "carries messages between the workers, which share the "
                             "PostgreSQL --database; any worker accepts any client (a URL "
                             f"with a password: ${REDIS_ENV} or --redis-file)")
    parser.add_argument("--redis-file", type=Path, default=None, metavar="FILE",
                        help="read the Redis URL from FILE's first line")
    parser.add_argument("--worker-id", default=None, metavar="ID",
                        help="this worker's name in the cluster, unique (default: the host's "
                             "name and a random suffix)")
    parser.add_argument("--ws", default="boardroom",
                        choices=["boardroom", "websockets-sansio", "websockets", "wsproto"],
                        help="how WebSockets are served: boardroom (default: frames straight "
                             "to the real-time channel) or one of uvicorn's ASGI protocols")
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
        uvicorn_options,
    )
    from boardroom.store import StoreError, database_url

    args.database = secret_url(args.database, args.database_file, DATABASE_ENV, "--database")
    args.redis = secret_url(args.redis, args.redis_file, REDIS_ENV, "--redis")
    try:
        url = database_url(args.database, args.data)
    except StoreError as error:
        raise ValueError(str(error)) from None
    if not 0 <= args.bot_think <= 30:
        raise UsageError("--bot-think must be 0 to 30 seconds")
    check_cluster_options(args.database, args.redis, args.worker_id)
    config = ServerConfig(data=args.data, database=args.database, public_url=args.public_url,
                          bot_think=args.bot_think, redis=args.redis, worker_id=args.worker_id)
    if args.redis is None:  # a cluster's workers are kept apart by their leases instead
        check_data_folder(args.data)  # DataFolderInUse is a ValueError: exit 2, with the folder
    if args.database is not None:  # reached (and migrated) now, or one clear line
        try:
            asyncio.run(_open_and_close(url))
        except StoreError as error:
            raise ValueError(str(error)) from None
    app = create_app(config)
    tune_garbage_collector()
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                lifespan="on", **uvicorn_options(app, args.ws))
    return 0


async def _open_and_close(url: str) -> None:
    """Open the database at ``url`` (migrating it) and close it: ``StoreError`` if it cannot
    be reached, before uvicorn starts, which would report it as a traceback."""
    from boardroom.store import Store

    store = await Store.open(url)
    await store.close()


def secret_url(given: str | None, file: Path | None, variable: str,
               option: str) -> str | None:
    """The URL of ``option``: given on the command line, else read from ``file``'s first line,
    else from the environment's ``variable``; None when none says. ``UsageError`` (naming the
    file, never its text) when the file cannot be read or holds nothing, or when both the
    option and its file are given."""
    from boardroom.cli import UsageError

    if file is None:
        return given or os.environ.get(variable) or None
    if given is not None:
        raise UsageError(f"give {option} or {option}-file, not both")
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise UsageError(f"{option}-file {file}: cannot read it ({reason})") from None
    url = lines[0].strip() if lines else ""
    if not url:
        raise UsageError(f"{option}-file {file} is empty: its first line is the URL")
    return url


WORKER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_cluster_options(database: str | None, redis: str | None,
                          worker: str | None) -> None:
    """``UsageError`` naming what is wrong with the cluster options, if anything is."""
    from boardroom.cli import UsageError

    if redis is None:
        if worker is not None:
            raise UsageError("--worker-id names a cluster's worker: give --redis too")
        return
    scheme = redis.partition("://")[0].lower()
    if scheme not in ("redis", "rediss", "unix") or "://" not in redis:
        raise UsageError(f"--redis must be a Redis URL like redis://127.0.0.1:6379/0 "
                         f"(got {redis.split('@')[-1][:80]!r})")
    if database is None or not database.lower().startswith(("postgresql://", "postgres://",
                                                              "postgresql+asyncpg://")):
        raise UsageError("a cluster's workers share one PostgreSQL database: give "
                         "--database postgresql://... with --redis")
    if worker is not None and not WORKER_ID.fullmatch(worker):
        raise UsageError(f"--worker-id is 1 to 64 letters, digits, '.', '_' or '-', starting "
                         f"with a letter or digit (got {worker[:80]!r})")
