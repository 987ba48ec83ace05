"""``boardroom bench cluster``: the browser-like clients of ``bench server`` against one worker
and against two behind HAProxy, then the failover time after ``kill -9`` of a worker.

Each cluster is ``boardroom cluster up``'s (PostgreSQL, Redis, the workers and HAProxy on
loopback, in a temporary folder), and the clients reach the workers through HAProxy only. For
each worker count the table counts run in ascending order until one's p99 (sending an action to
every client of the table hearing of it) passes 100 ms: the tables *held* are the last count under
it. The ratio of two workers' tables to one's is the goal's measure (1.7x).

The failover run makes heads-up bot rooms (the bots live in the room, so they move with it) until
one worker owns ``--failover-tables`` of them, reads each of its rooms' version and hand number
from its health route, kills it with SIGKILL, and polls the other workers' health routes (each
lists the rooms it runs, with their versions and hand numbers): for each of its rooms, the
seconds until another worker lists it (taken and restored: a worker lists a room once it is
restored from the store; the issue's 5 s), until its version moves on (acting again) and until
its hand number does (its next hand dealt: the hand in progress played out by its bots, then
the pause between hands). The bots are a calling station and a random player: they cost next
to nothing to decide, where an equity bot's Monte Carlo took most of the survivor's CPU and so
measured the bots more than the failover. Everything runs on this machine, so the load
generator, the databases and the workers share its cores: the load average is printed with each
run, each worker's longest gap between two renewals of its leases, and the longest its event
loop took to answer the thread that renews them.

Under each table run's row, what each action cost over the measuring window
(``bench.cluster_usage``): the CPU milliseconds of the workers (each), PostgreSQL (all its
processes), Redis, HAProxy and the load generator (this process), read from ``/proc``; how busy
the machine's cores were; the messages published on Redis and PostgreSQL's write transactions
and commits. Whether two workers can hold 1.7 times one worker's tables on a machine is a
question of its cores: these are the evidence.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

P99_GOAL_MS = 100.0
RATIO_GOAL = 1.7
TABLES = "5,10,25,50,100,150,200,300,400,500"
MAX_WAIT = 120.0  # seconds the failover run waits for every room
FAILOVER_BOTS = ("station", "random")  # cheap deciders: the failover is measured, not the bots


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", default=TABLES,
                        help="comma-separated table counts, tried in ascending order until the "
                             f"p99 passes 100 ms (default: {TABLES})")
    parser.add_argument("--game", default="plo", help="variant id of the tables (default: plo)")
    parser.add_argument("--players", type=int, default=6, help="players per table (default: 6)")
    parser.add_argument("--duration", type=float, default=20.0,
                        help="seconds of play per run (default: 20)")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="actions per table per second (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--workers", default="1,2",
                        help="comma-separated worker counts (default: 1,2)")
    parser.add_argument("--no-tables", action="store_true",
                        help="skip the table runs: the failover run only")
    parser.add_argument("--direct", action="store_true",
                        help="each table's clients connect to the worker running its room, "
                             "not through HAProxy (what routing players to their table's "
                             "worker would save: no command or update crosses Redis)")
    parser.add_argument("--failover-tables", type=int, default=100,
                        help="rooms the killed worker owns in the failover run (default: 100; "
                             "0: no failover run)")


def run(args: argparse.Namespace) -> int:
    from boardroom.bench.server import MAX_DURATION, MAX_TABLES, Result, raise_file_limit
    from boardroom.cli import UsageError
    from boardroom.cluster import MAX_WORKERS
    from boardroom.rules import VARIANTS

    try:
        counts = sorted({int(n) for n in args.tables.split(",") if n.strip()})
        workers = [int(n) for n in args.workers.split(",") if n.strip()]
    except ValueError:
        raise UsageError("--tables and --workers take numbers separated by commas") from None
    if not counts or any(not 1 <= n <= MAX_TABLES for n in counts):
        raise UsageError(f"table counts run from 1 to {MAX_TABLES}")
    if not workers or any(not 1 <= n <= MAX_WORKERS for n in workers):
        raise UsageError(f"worker counts run from 1 to {MAX_WORKERS}")
    if args.game not in {variant.id for variant in VARIANTS}:
        raise UsageError(f"unknown game {args.game!r}")
    if not 0 < args.duration <= MAX_DURATION:
        raise UsageError(f"--duration runs from 0 to {MAX_DURATION:g} seconds")
    if not 2 <= args.players <= 10 or not 0 < args.rate <= 10:
        raise UsageError("--players runs from 2 to 10 and --rate from 0 to 10")
    if not 0 <= args.failover_tables <= 300:
        raise UsageError("--failover-tables runs from 0 to 300")
    raise_file_limit(max(counts) * (args.players + 1) * 2 + 200)
    args.clients = "browser"
    print(f"boardroom bench cluster: {args.game}, {args.players} players and 1 spectator a "
          f"table, {args.rate:g} action/table/s, {args.duration:g} s a run, browser clients "
          f"through HAProxy, loopback; {os.cpu_count()} cores shared by everything, load "
          f"average {os.getloadavg()[0]:.1f} now", flush=True)
    try:
        _bench(workers, counts, args, Result)
    except (RuntimeError, OSError) as error:  # a cluster that does not start, a refused room
        print(f"boardroom bench cluster: error: {error}", file=sys.stderr)
        return 1
    return 0


def _bench(workers: list[int], counts: list[int], args: argparse.Namespace,
           result_type: Any) -> None:
    held: dict[int, int] = {}
    for count in [] if args.no_tables else workers:
        held[count] = _tables_held(count, counts, args, result_type)
    if held:
        print()
        print(f"{'workers':>7} {'tables held at p99 < 100 ms':>28}")
    for count, tables in held.items():
        print(f"{count:>7} {tables:>28}")
    if 1 in held and len(held) > 1:
        for count, tables in held.items():
            if count != 1 and held[1]:
                print(f"ratio {count} workers / 1: {tables / held[1]:.2f}x (goal {RATIO_GOAL}x)")
            elif count != 1:
                print(f"ratio {count} workers / 1: none (one worker held none of the counts "
                      f"tried; try smaller ones)")
    if args.failover_tables:
        print()
        _failover(args.failover_tables)


def _cluster(workers: int, options: list[str]) -> tuple[Any, Path]:
    from boardroom.cluster import Cluster, ClusterError

    folder = Path(tempfile.mkdtemp(prefix="boardroom-bench-cluster-"))
    folder.chmod(0o755)  # as root PostgreSQL runs as the postgres user, who must enter it
    cluster = Cluster(folder / "cluster", workers, 0, worker_options=options)
    try:
        cluster.start()
    except ClusterError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(str(error)) from None
    return cluster, folder


def _stop(cluster: Any, folder: Path) -> None:
    for note in cluster.stop():
        print(f"  note: {note}", flush=True)
    shutil.rmtree(folder, ignore_errors=True)


def _tables_held(workers: int, counts: list[int], args: argparse.Namespace,
                 result_type: Any) -> int:
    from boardroom.bench.cluster_usage import Meter
    from boardroom.bench.server import _run, run_light

    cluster, folder = _cluster(workers, ["--log-level", "warning"])
    meter = Meter(cluster)
    held = 0
    try:
        pid = cluster.workers[0].child.pid if workers == 1 else None
        where = "each table's clients on its room's worker" if args.direct else \
            f"behind {cluster.url}"
        print(f"\n{workers} worker{'s' if workers != 1 else ''} {where}"
              + ("" if pid else " (CPU and memory columns: one worker only)"), flush=True)
        print(f"{'workers':>7} " + result_type.HEADER, flush=True)
        for count in counts:
            result = run_light(_run(cluster.url, pid, args.game, count, args,
                                    window=meter.window,
                                    url_of=_owners(cluster) if args.direct else None))
            print(f"{workers:>7} " + result.row(), flush=True)
            if meter.usage is not None:
                print(meter.usage.line(result.actions), flush=True)
            p99 = _p99(result.latencies)
            if p99 >= P99_GOAL_MS or result.errors:
                break
            held = count
    finally:
        _stop(cluster, folder)
    return held


def _owners(cluster: Any) -> Callable[[str], str]:
    """The URL of the worker running a room (its health route lists it), for ``--direct``;
    the workers are asked again for a room none listed yet."""
    from boardroom.cluster.workers import health

    known: dict[str, str] = {}

    def url_of(room: str) -> str:
        for _ in range(50):
            if room in known:
                return known[room]
            for worker in cluster.workers:
                answer = health(worker.port, 10.0) or {}
                known.update((listed, f"http://127.0.0.1:{worker.port}")
                             for listed in answer.get("room_ids", []))
            if room not in known:
                time.sleep(0.1)
        raise RuntimeError(f"no worker runs room {room}")

    return url_of


def _p99(latencies: list[float]) -> float:
    ms = sorted(1000 * x for x in latencies) or [0.0]
    return ms[min(len(ms) - 1, int(0.99 * len(ms)))]


# -- failover ------------------------------------------------------------------------------------


def _failover(wanted: int) -> None:
    cluster, folder = _cluster(2, [])
    try:
        print(f"failover: 2 workers behind {cluster.url}, heads-up bot rooms ("
              f"{' and '.join(FAILOVER_BOTS)} bots, thinking 0.8 s; a pause of 1 s between "
              f"hands), kill -9 of the worker owning {wanted} or more; load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        report = asyncio.run(_kill_and_watch(cluster, wanted))
        print(report, flush=True)
        for worker in cluster.workers:  # the survivors' own account of their adoptions
            log = worker.child.log
            for line in log.read_text().splitlines() if log.exists() else []:
                if "orphaned rooms" in line:
                    print(f"  {line.strip()}", flush=True)
    finally:
        _stop(cluster, folder)


async def _kill_and_watch(cluster: Any, wanted: int) -> str:
    import httpx

    from boardroom.cluster.workers import health

    # Idle connections dropped before HAProxy's keep-alive timeout (10 s) closes them: one
    # reused as HAProxy closed it failed a run ("Server disconnected without sending a
    # response") while the health routes were slow to answer.
    limits = httpx.Limits(keepalive_expiry=5.0)
    async with httpx.AsyncClient(base_url=cluster.url, timeout=30, limits=limits) as http:
        made = 0
        while True:
            owned = {worker.name: set(await _rooms_of(worker.port)) for worker in
                     cluster.workers}
            victim = max(cluster.workers, key=lambda worker: len(owned[worker.name]))
            if len(owned[victim.name]) >= wanted or made >= 3 * wanted:
                break
            batch = min(25, 3 * wanted - made)
            await asyncio.gather(*(_bot_room(http, cluster.url) for _ in range(batch)))
            made += batch
        await asyncio.sleep(2.0)  # the last rooms' first hands are dealt
        last = await asyncio.to_thread(health, victim.port, 10.0)
        if last is None:
            raise RuntimeError(f"{victim.name} does not answer its health route")
        before: dict[str, list[int]] = dict(last.get("progress", {}))  # version, hand number
        rooms = sorted(before)
        victim_gap = float(last.get("renewal_gap", 0.0))
        victim_lag = float(last.get("loop_lag", 0.0))
        victim.child.send(signal.SIGKILL)
        killed = time.monotonic()
        cluster.workers.remove(victim)  # expected to be gone: not reported when stopping
        cluster.exited.append(victim)
        survivors = list(cluster.workers)
        taken: dict[str, float] = {}
        acting: dict[str, float] = {}
        dealt: dict[str, float] = {}
        while len(dealt) < len(rooms) and time.monotonic() - killed < MAX_WAIT:
            answers = await asyncio.gather(*(asyncio.to_thread(health, worker.port, 5.0)
                                             for worker in survivors))
            now = time.monotonic() - killed  # (a slow answer counts as late as it came)
            for answer in answers:
                progress = answer.get("progress", {}) if answer else {}
                for room in _room_ids(answer):
                    if room in before:
                        taken.setdefault(room, now)
                    if room in progress and room in before:
                        version, hand_no = progress[room]
                        if version > before[room][0]:
                            acting.setdefault(room, now)
                        if hand_no > before[room][1]:
                            dealt.setdefault(room, now)
            await asyncio.sleep(0.25)
    lines = [f"killed {victim.name} (owning {len(rooms)} of {made} rooms); seconds after the "
             f"kill, every room / the median room (the survivors' health routes polled every "
             f"0.25 s, or slower: each lists its rooms, restored, with their versions and "
             f"hand numbers):"]
    for name, seen in (("taken and restored", taken), ("acting again", acting),
                       ("next hand dealt", dealt)):
        if len(seen) == len(rooms) and rooms:
            values = list(seen.values())
            lines.append(f"  {name:<24} {max(values):6.1f} s  {statistics.median(values):6.1f} s")
        else:
            lines.append(f"  {name:<24} only {len(seen)} of {len(rooms)} rooms within "
                         f"{MAX_WAIT:.0f} s")
    gaps = await asyncio.gather(*(asyncio.to_thread(health, worker.port, 10.0)
                                  for worker in survivors))
    lines.append("  longest gap between two lease renewals: "
                 + ", ".join(f"{worker.name} {answer.get('renewal_gap', 0.0):.2f} s"
                             if answer else f"{worker.name} (no answer)"
                             for worker, answer in zip(survivors, gaps, strict=True))
                 + f"; {victim.name}, until it was killed, {victim_gap:.2f} s")
    lines.append("  longest wait for the event loop's answer to the lease keeper (renewals "
                 "stop past half a lease): "
                 + ", ".join(f"{worker.name} {answer.get('loop_lag', 0.0):.2f} s"
                             if answer else f"{worker.name} (no answer)"
                             for worker, answer in zip(survivors, gaps, strict=True))
                 + f"; {victim.name}, until it was killed, {victim_lag:.2f} s")
    return "\n".join(lines)


def _room_ids(answer: dict[str, Any] | None) -> list[str]:
    return list(answer.get("room_ids", [])) if answer else []


async def _rooms_of(port: int) -> list[str]:
    """The rooms a worker runs, from its health route (asked again while it is too busy to
    answer, for up to a minute)."""
    from boardroom.cluster.workers import health

    deadline = time.monotonic() + 60
    while (answer := await asyncio.to_thread(health, port, 10.0)) is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker on port {port} does not answer its health route")
        await asyncio.sleep(0.5)
    return _room_ids(answer)


async def _bot_room(http: Any, url: str) -> str:
    """A heads-up room of two bots, dealing, made through HAProxy by its host."""
    import aiohttp
    import httpx

    for attempt in range(3):
        try:
            made = await http.post("/api/rooms", json={"game": "plo", "max_seats": 2,
                                                       "pause_between_hands": 1.0})
            break
        except httpx.RemoteProtocolError:
            # The connection closed before any answer (twice in runs at a load over 20, both
            # workers alive and silent in their logs): ask again.
            if attempt == 2:
                raise
    made.raise_for_status()
    body = made.json()
    async with aiohttp.ClientSession() as session, session.ws_connect(
            url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket") as ws:
        await _expect(ws, "0")
        await ws.send_str("40")
        await _expect(ws, "40")
        for number, command in enumerate([
                {"type": "join", "room": body["room"], "role": "spectator",
                 "host_secret": body["host_secret"]},
                *({"type": "add_bot", "style": style} for style in FAILOVER_BOTS),
                {"type": "deal_now"}]):  # refused when the first hand has started already
            await ws.send_str(f"42{number}" + json.dumps(
                ["command", {"id": f"bench-{number}", **command}]))
            answer = json.loads((await _expect(ws, f"43{number}"))[2 + len(str(number)):])[0]
            if not answer["ok"] and command["type"] != "deal_now":
                raise RuntimeError(f"the host's {command['type']} was refused: "
                                   f"{answer.get('error')}")
    room: str = body["room"]
    return room


async def _expect(ws: Any, prefix: str) -> str:
    """The next frame starting with ``prefix`` (answering pings, skipping pushes)."""
    async with asyncio.timeout(30):
        while True:
            text = await ws.receive_str()
            if text == "2":
                await ws.send_str("3")
            elif text.startswith(prefix):
                return str(text)
