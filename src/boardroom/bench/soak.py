"""``boardroom bench soak``: bot tables through a live server for many hands, and the server's
memory over time.

Starts ``boardroom serve --bot-think 0`` in a child process on 127.0.0.1 (a temporary data
folder; its output kept to count what it logs), creates ``--rooms`` rooms of the games of
``--game`` in turn and, in each, the host (a spectator connection over loopback that folds every
push, as the web client does) adds ``--bots`` bots of ``--styles``. The bots play flat out, rebuying
when they bust, until the rooms have dealt ``--hands`` hands in all (up to 1,000,000); then the
host closes every room.

Every ``--every`` hands it prints a row: hands dealt, seconds, hands a minute, the server's CPU
seconds, its resident memory (VmRSS) split into anonymous memory (RssAnon: the heap, where
anything kept per hand would grow) and file-backed pages (RssFile: the memory-mapped evaluator
tables and the libraries, which the kernel shares between processes and may drop at will; the
tables' 30 MiB are touched page by page as new boards are evaluated, so this part climbs slowly
towards its bound), its threads (glibc may give each new thread an arena of its own: a step of
the heap), the growth of RSS and of its anonymous part since the warm-up ended (the first
``--warmup`` hands), and errors so far. The server runs with ``MALLOC_ARENA_MAX=2``, as deployed
(``deploy/boardroom.env``), unless the environment sets it; the run prints the setting.
``--minutes`` ends the run at that time, with a last row, if ``--hands`` have not been dealt by
then. Then the server's hands per CPU second (and what
``MAX_HANDS`` would take at that rate); the last line gives the growth after the warm-up per
1,000 hands, as the least-squares slope over the rows, of RSS and of each part (goal: flat), the
same slopes over the second half of those rows (by hands: the caches that fill slowly have filled
by then), and the errors (goal: 0). Errors are commands
the server refused, connections lost, each room that dealt no hand for ``STALL`` seconds, and
every record the server logged (at WARNING and above: a traceback counts once). Exit 1 with errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from boardroom.bench.server import (
    Client,
    Stats,
    TableRun,
    _cpu_seconds,
    proc_status,
    raise_file_limit,
    serve_child,
)

MAX_HANDS = 1_000_000
STALL = 300.0  # seconds without a new hand in a room before the run counts it an error
DEFAULT_STYLES = ("random", "station")  # the cheap bots: the server's own cost dominates


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=5000,
                        help=f"hands dealt in all the rooms, 1 to {MAX_HANDS:,} (default: 5000, "
                             "a few minutes)")
    parser.add_argument("--rooms", type=int, default=20, help="bot rooms (default: 20)")
    parser.add_argument("--bots", type=int, default=6,
                        help="bots a room, at most the game's seats (default: 6)")
    parser.add_argument("--game", default="all",
                        help="comma-separated game ids, dealt in turn across the rooms "
                             "(default: all: every variant and Dealer's Choice)")
    parser.add_argument("--styles", default=",".join(DEFAULT_STYLES),
                        help="comma-separated bot styles, seated in turn (default: "
                             f"{','.join(DEFAULT_STYLES)}; tight and loose run Monte Carlo)")
    parser.add_argument("--every", type=int, default=None,
                        help="hands between rows (default: a twentieth of --hands)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="hands before the growth is measured (default: a tenth of --hands)")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this many minutes of play, with a last row, even if "
                             "fewer than --hands were dealt (default: no limit)")


@dataclass
class Sample:
    hands: int
    seconds: float
    rss_kib: int
    errors: int
    anon_kib: int = 0  # RssAnon: the heap and other private memory
    file_kib: int = 0  # RssFile: mapped files (the evaluator's tables, libraries)
    cpu_seconds: float = 0.0  # the server's user and system CPU time
    threads: int = 0  # the server's threads (glibc may give each one an arena of its own)


def arenas_setting(pid: int) -> str:
    """``MALLOC_ARENA_MAX`` as process ``pid`` was started with it ("unset": glibc's default of
    eight arenas a core), from /proc/PID/environ."""
    with contextlib.suppress(OSError):
        for entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
            name, _, value = entry.partition(b"=")
            if name == b"MALLOC_ARENA_MAX":
                return f"MALLOC_ARENA_MAX={value.decode(errors='replace')}"
    return "MALLOC_ARENA_MAX unset"


@dataclass
class Soak:
    """The run's rooms (one host connection each) and what it has seen."""

    tables: list[TableRun] = field(default_factory=list)
    hosts: list[Client] = field(default_factory=list)
    last_hand: list[tuple[int, float]] = field(default_factory=list)  # (hand_no, seen at)
    stalled: set[int] = field(default_factory=set)
    ever_stalled: set[int] = field(default_factory=set)  # counted once each, as errors
    refused: int = 0

    def hands(self) -> int:
        """Hands dealt so far in every room (each room's hand number, as its host sees it)."""
        total = 0
        now = time.monotonic()
        for number, host in enumerate(self.hosts):
            table = (host.view or {}).get("table") or {}
            hand_no = int(table.get("hand_no") or 0)
            if hand_no != self.last_hand[number][0]:
                self.last_hand[number] = (hand_no, now)
                self.stalled.discard(number)
            elif now - self.last_hand[number][1] > STALL and number not in self.stalled:
                self.stalled.add(number)
                self.ever_stalled.add(number)
                print(f"room {self.tables[number].room} ({table.get('game')}, "
                      f"{table.get('phase')}) dealt no hand for {STALL:.0f} s", flush=True)
            total += hand_no
        return total

    def errors(self, log: TextIO) -> int:
        lost = sum(1 for host in self.hosts if host.ws is None or host.ws.closed)
        stats = self.tables[0].stats.errors if self.tables else 0
        return self.refused + lost + len(self.ever_stalled) + stats + log_records(log)


def log_records(log: TextIO) -> int:
    """Records the server printed (its log level is WARNING): each line that starts one, and a
    traceback once, with the exception line that ends it."""
    log.flush()
    log.seek(0)
    count = 0
    in_traceback = False
    for line in log.read().splitlines():
        if in_traceback:
            if line and not line[0].isspace():
                in_traceback = False  # the exception's own line ends the traceback
            continue
        if line.startswith("Traceback"):
            count += 1
            in_traceback = True
        elif line.strip() and not line[0].isspace():
            count += 1
    log.seek(0, 2)
    return count


def run(args: argparse.Namespace) -> int:
    from boardroom.bots import STYLES
    from boardroom.cli import UsageError
    from boardroom.rules import Variant, find_game, iter_games
    from boardroom.table.settings import MAX_SEATS

    if not 1 <= args.hands <= MAX_HANDS:
        raise UsageError(f"--hands runs from 1 to {MAX_HANDS:,}")
    if not 1 <= args.rooms <= 200:
        raise UsageError("--rooms runs from 1 to 200")
    names = [g.id for g in iter_games()] if args.game == "all" else \
        [g.strip() for g in args.game.split(",") if g.strip()]
    games = []
    for name in names:
        try:
            games.append(find_game(name))
        except ValueError:
            raise UsageError(f"unknown game {name!r} (one of: "
                             f"{', '.join(g.id for g in iter_games())})") from None
    if not games:
        raise UsageError("--game names no game")
    styles = [s.strip() for s in args.styles.split(",") if s.strip()]
    if not styles or any(s not in STYLES for s in styles):
        raise UsageError(f"--styles takes bot styles (of: {', '.join(STYLES)})")
    seats = min(g.max_players if isinstance(g, Variant) else MAX_SEATS for g in games)
    if not 2 <= args.bots <= seats:
        raise UsageError(f"--bots runs from 2 to {seats} for these games")
    every = args.every if args.every is not None else max(1, args.hands // 20)
    warmup = args.warmup if args.warmup is not None else args.hands // 10
    if every < 1 or not 0 <= warmup < args.hands:
        raise UsageError("--every must be at least 1 and --warmup below --hands")
    if args.minutes is not None and not 0 < args.minutes <= 7 * 24 * 60:
        raise UsageError("--minutes runs from 0 to a week (10,080)")
    raise_file_limit(args.rooms * 2 + 200)
    print(f"boardroom bench soak: {args.rooms} rooms of {args.bots} bots ({', '.join(styles)}), "
          f"games {', '.join(g.id for g in games)}; {args.hands:,} hands, warm-up "
          f"{warmup:,} hands; server with --bot-think 0, loopback", flush=True)
    with tempfile.TemporaryFile("w+", prefix="boardroom-soak-log-") as log, \
            serve_child("--bot-think", "0", output=log) as (url, pid):
        print(f"server {url} (pid {pid})", flush=True)
        print(f"server glibc arenas: {arenas_setting(pid)}", flush=True)
        samples = asyncio.run(_soak(url, pid, [g.id for g in games], styles, args, every,
                                    warmup, log))
        errors = samples[-1].errors if samples else 0
        if log_records(log):
            log.seek(0)
            print("the server logged:\n" + log.read()[-3000:], flush=True)
    if samples and samples[-1].cpu_seconds > 0:
        rate = samples[-1].hands / samples[-1].cpu_seconds
        print(f"server CPU: {samples[-1].cpu_seconds:,.0f} s for {samples[-1].hands:,} hands "
              f"(start-up included), {rate:.2f} hands per CPU second: {MAX_HANDS:,} hands "
              f"would take about {MAX_HANDS / rate / 3600:,.0f} CPU hours of the server",
              flush=True)
    after = [s for s in samples if s.hands >= warmup]
    if len(after) >= 2:
        second = second_half(after)
        if len(second) >= 2:
            print(f"second half ({second[0].hands:,} to {second[-1].hands:,} hands): "
                  f"{_slopes(second)}", flush=True)
        first, last = after[0], after[-1]
        print(f"after the warm-up: RSS {first.rss_kib / 1024:.1f} MiB at {first.hands:,} hands "
              f"-> {last.rss_kib / 1024:.1f} MiB at {last.hands:,} hands: {_slopes(after)} "
              f"(goal: flat); errors {errors} (goal: 0)")
    else:
        print(f"too few rows after the warm-up to measure growth; errors {errors} (goal: 0)")
    return 1 if errors else 0


def second_half(samples: list[Sample]) -> list[Sample]:
    """The rows of the second half of ``samples`` by hands: from the last row at or before the
    middle, so that two rows or more make one of two rows or more however unevenly they fell
    (the watcher takes a row when it looks, not at the exact hand)."""
    middle = (samples[0].hands + samples[-1].hands) / 2
    start = max(n for n, s in enumerate(samples) if s.hands <= middle)
    return samples[start:]


def _slopes(samples: list[Sample]) -> str:
    """The least-squares growth of RSS and of each part over ``samples``, per 1,000 hands."""
    def per_1000(kib: list[int]) -> float:
        return 1000 * statistics.linear_regression([s.hands for s in samples], kib).slope

    return (f"{per_1000([s.rss_kib for s in samples]):+.0f} KiB per 1,000 hands, anonymous "
            f"{per_1000([s.anon_kib for s in samples]):+.0f}, file-backed "
            f"{per_1000([s.file_kib for s in samples]):+.0f}")


HEADER = (f"{'hands':>9} {'seconds':>8} {'hands/min':>9} {'CPU s':>7} {'RSS MiB':>8} "
          f"{'anon MiB':>8} {'file MiB':>8} {'threads':>7} {'RSS since':>9} {'anon since':>10} "
          f"{'errors':>6}")


async def _soak(url: str, pid: int, games: list[str], styles: list[str],
                args: argparse.Namespace, every: int, warmup: int, log: TextIO) -> list[Sample]:
    import aiohttp
    import httpx

    soak = Soak()
    stats = Stats()
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for number in range(args.rooms):
            made = await http.post("/api/rooms", json={
                "game": games[number % len(games)], "max_seats": args.bots,
                "pause_between_hands": 0.0, "starting_stack": 2000})
            made.raise_for_status()
            body = made.json()
            soak.tables.append(TableRun(body["room"], body["host_secret"], stats,
                                        random.Random(number), browser=True))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        try:
            for number, table in enumerate(soak.tables):
                host = Client(table, None)
                table.clients.append(host)
                await host.connect(session, url)
                answer = await host.command({"id": "join", "type": "join", "room": table.room,
                                             "role": "spectator",
                                             "host_secret": table.host_secret})
                host.apply_snapshot(answer.get("snapshot"))
                for seat in range(args.bots):
                    added = await host.command({"id": f"bot{seat}", "type": "add_bot",
                                                "seat": seat,
                                                "style": styles[(number + seat) % len(styles)]})
                    soak.refused += not added.get("ok")
                soak.hosts.append(host)
                soak.last_hand.append((0, time.monotonic()))
            return await _watch(soak, pid, args.hands, every, warmup, log,
                                None if args.minutes is None else args.minutes * 60)
        finally:
            for host in soak.hosts:
                with contextlib.suppress(Exception):
                    await host.command({"id": "bye", "type": "close"})
            for host in soak.hosts:
                await host.close()


async def _watch(soak: Soak, pid: int, hands: int, every: int, warmup: int,
                 log: TextIO, seconds: float | None = None) -> list[Sample]:
    """Print a row every ``every`` hands until ``hands`` are dealt (or ``seconds`` have gone
    by: a last row then); the samples printed."""
    start = time.monotonic()
    samples: list[Sample] = []
    warm: Sample | None = None
    print(HEADER, flush=True)
    next_row = every
    while True:
        await asyncio.sleep(0.2)
        dealt = soak.hands()
        out_of_time = seconds is not None and time.monotonic() - start >= seconds
        if dealt < min(next_row, hands) and not out_of_time:
            continue
        status = proc_status(pid, "VmRSS", "RssAnon", "RssFile", "Threads")
        rss, anon, mapped = status["VmRSS"], status["RssAnon"], status["RssFile"]
        sample = Sample(dealt, time.monotonic() - start, rss, soak.errors(log), anon, mapped,
                        _cpu_seconds(pid) or 0.0, status["Threads"])
        samples.append(sample)
        if warm is None and dealt >= warmup:
            warm = sample
        since, anon_since = ((f"{(rss - warm.rss_kib) / 1024:+.1f}",
                              f"{(anon - warm.anon_kib) / 1024:+.1f}") if warm is not None
                             else ("warm-up", "warm-up"))
        print(f"{dealt:>9,} {sample.seconds:>8.0f} {60 * dealt / sample.seconds:>9,.0f} "
              f"{sample.cpu_seconds:>7.0f} {rss / 1024:>8.1f} {anon / 1024:>8.1f} "
              f"{mapped / 1024:>8.1f} {sample.threads:>7} {since:>9} {anon_since:>10} "
              f"{sample.errors:>6}",
              flush=True)
        if dealt >= hands or out_of_time:
            return samples
        while next_row <= dealt:
            next_row += every
