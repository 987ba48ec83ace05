"""``boardroom cluster up``: a whole cluster on this machine, for development and tests.

It starts PostgreSQL (a database cluster made in the data folder the first time), Redis, N
``boardroom serve`` workers on that database and Redis, and HAProxy in front of them, all on
loopback; prints the one address to open; and on Ctrl-C (or SIGTERM) stops them in order, the
workers first so they hand their rooms over. The data folder is kept: the next ``cluster up`` on
it finds every room again. Running it for real across machines: ``docs/deploy.md``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardroom.cluster import Cluster
    from boardroom.cluster.processes import Child


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    up = actions.add_parser("up", help="start PostgreSQL, Redis, N workers and HAProxy on "
                            "loopback until Ctrl-C",
                            description="Start PostgreSQL, Redis, N `boardroom serve` workers "
                            "and HAProxy on loopback, print the address to open, and stop "
                            "them all on Ctrl-C (the workers drain first).")
    up.add_argument("--workers", type=int, default=2, metavar="N",
                    help="how many workers (default: 2)")
    up.add_argument("--data", type=Path, default=Path("cluster-data"),
                    help="folder for the database, the generated configurations and the logs; "
                         "kept, and reused by the next run (default: ./cluster-data)")
    up.add_argument("--port", type=int, default=8000,
                    help="HAProxy's port on 127.0.0.1, the address to open (default: 8000; "
                         "0: any free port, printed)")
    up.add_argument("--bot-think", type=float, default=None, metavar="SECONDS",
                    help="passed to every worker's `boardroom serve --bot-think`")


class Interrupted(Exception):
    """Ctrl-C or SIGTERM reached ``cluster up``."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signal.Signals(signum).name)


def run(args: argparse.Namespace) -> int:
    from boardroom.cli import UsageError
    from boardroom.cluster import MAX_WORKERS, Cluster
    from boardroom.cluster.processes import port_is_free

    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers takes 1 to {MAX_WORKERS}, not {args.workers}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port takes 0 to 65535, not {args.port}")
    if args.port and not port_is_free(args.port):
        raise UsageError(f"port {args.port} on 127.0.0.1 is taken: stop what listens there or "
                         f"choose another --port (0: any free port)")
    if args.data.exists() and not args.data.is_dir():
        raise UsageError(f"--data {args.data} is a file, not a folder")
    options: list[str] = []
    if args.bot_think is not None:
        if not 0 <= args.bot_think <= 30:
            raise UsageError("--bot-think must be 0 to 30 seconds")
        options = ["--bot-think", f"{args.bot_think:g}"]
    cluster = Cluster(args.data, args.workers, args.port, worker_options=options)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _up(cluster)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _up(cluster: Cluster) -> int:
    from boardroom.cluster import ClusterError

    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        cluster.start(say=lambda line: print(line, flush=True))
    except Interrupted:
        print("boardroom cluster up: interrupted while starting; everything started is "
              "stopped", file=sys.stderr)
        return 1
    except ClusterError as error:
        print(f"boardroom cluster up: error: {error}", file=sys.stderr)
        return 1
    _banner(cluster)
    code = 0
    try:
        while True:
            time.sleep(0.5)
            notes, fatal = cluster.check()
            for note in notes:
                print(f"boardroom cluster up: {note}", file=sys.stderr, flush=True)
            if fatal is not None:
                print(f"boardroom cluster up: error: {fatal}\nStopping the cluster.",
                      file=sys.stderr, flush=True)
                code = 1
                break
    except Interrupted:
        pass

    def again(signum: int, frame: FrameType | None) -> None:
        print("Still stopping: the workers drain first.", flush=True)

    signal.signal(signal.SIGINT, again)
    signal.signal(signal.SIGTERM, again)
    print("Stopping: the workers drain, then HAProxy, Redis and PostgreSQL stop.", flush=True)
    for note in cluster.stop():
        print(f"boardroom cluster up: {note}", file=sys.stderr, flush=True)
    print(f"Stopped. The data folder {cluster.data} is kept for the next run.", flush=True)
    return code


def _pid(child: Child | None) -> int | None:
    return child.pid if child is not None else None


def _banner(cluster: Cluster) -> None:
    assert cluster.postgres is not None
    assert cluster.redis is not None
    count = len(cluster.workers)
    print(f"Boardroom cluster is up: {count} worker{'s' if count != 1 else ''} behind HAProxy.",
          flush=True)
    print(f"Open {cluster.url}/", flush=True)
    assert cluster.haproxy is not None
    print(f"  PostgreSQL  {cluster.postgres.url} (pid {_pid(cluster.postgres.child)})")
    print(f"  Redis       {cluster.redis.url} (pid {_pid(cluster.redis.child)})")
    for worker in cluster.workers:
        print(f"  worker {worker.name:<4} http://127.0.0.1:{worker.port} (pid {worker.child.pid})")
    print(f"  HAProxy     {cluster.haproxy.url}, admin socket {cluster.haproxy.stats_socket} "
          f"(pid {_pid(cluster.haproxy.child)})")
    print(f"  logs        {cluster.data / 'logs'}")
    print("Press Ctrl-C to stop (the workers drain first).", flush=True)
