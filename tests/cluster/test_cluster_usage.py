"""``bench cluster``'s counters (``bench.cluster_usage``): a process tree's CPU counts its
descendants, running or ended (a PostgreSQL backend that ends within a window still counts),
and Redis's publishes and PostgreSQL's write transactions are read from the servers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import redis
from services import Postgres, Redis

from boardroom.bench.cluster_usage import postgres_counts, redis_publishes, tree_cpu
from boardroom.cluster.postgres import USER

BURN = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass\n"
# A parent that waits for a child that burned 0.4 s of CPU and ended, then starts another that
# burns as much and lives on; it says "ready" once the second has burned.
PARENT = f"""
import subprocess, sys
subprocess.run([sys.executable, "-c", {BURN!r}], check=True)
second = subprocess.Popen([sys.executable, "-c", {BURN!r} + "print('ready', flush=True)\\n"
                           "import time; time.sleep(60)"], stdout=subprocess.PIPE, text=True)
print(second.stdout.readline(), end="", flush=True)
second.wait()
"""


def test_a_process_trees_cpu_counts_its_descendants_running_and_ended() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"
        assert tree_cpu([parent.pid]) >= 0.8  # two children's 0.4 s, the pythons' start too
        assert tree_cpu([999_999_999]) == 0.0  # no such process
    finally:
        os.killpg(parent.pid, signal.SIGKILL)  # the parent and its living child
        parent.communicate()


def test_redis_publishes_and_postgres_write_transactions_are_counted(
        redis_server: Redis, pg: Postgres) -> None:
    before = redis_publishes(redis_server.port)
    assert before is not None
    client = redis.Redis(host="127.0.0.1", port=redis_server.port)
    try:
        for _ in range(3):
            client.publish("boardroom:usage-test", b"x")
    finally:
        client.close()
    assert redis_publishes(redis_server.port) == before + 3

    pg.database("usage")
    psql = pg.binaries / "psql"
    first = postgres_counts(psql, pg.port, USER, "usage")
    assert first is not None
    for _ in range(2):  # two write transactions, and a read
        subprocess.run([str(psql), "-X", "-q", "-h", "127.0.0.1", "-p", str(pg.port), "-U",
                        USER, "-d", "usage", "-c",
                        "create table if not exists t (n int); insert into t values (1)"],
                       check=True, capture_output=True)
    time.sleep(0.1)
    second = postgres_counts(psql, pg.port, USER, "usage")
    assert second is not None
    assert second[0] - first[0] >= 2  # transaction ids (the whole server's: other tests too)
    assert postgres_counts(psql, pg.port, USER, "no_such_database") is None
