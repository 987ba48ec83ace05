"""PostgreSQL for a development cluster: Debian's server binaries, a cluster made by ``initdb``
in the data folder the first time, a server on a loopback port only (no Unix socket), and the
``boardroom`` database. As root the server runs as the package's ``postgres`` user, which
PostgreSQL requires."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Mapping
from pathlib import Path

from boardroom.cluster.processes import Child, ClusterError, run_checked

USER = "boardroom"  # the database's superuser, trusted on loopback (a development cluster)
DATABASE = "boardroom"
DEBIAN_BINARIES = Path("/usr/lib/postgresql")


def find_binaries() -> Path:
    """The newest of Debian's PostgreSQL server versions installed (``.../NN/bin``)."""
    versions = sorted((path for path in DEBIAN_BINARIES.glob("*/bin")
                       if (path / "postgres").is_file() and path.parent.name.isdigit()),
                      key=lambda path: int(path.parent.name))
    if not versions:
        raise ClusterError("PostgreSQL is not installed: install Debian's postgresql package "
                           "(apt-get install -y postgresql)")
    return versions[-1]


def _run_as() -> str | None:
    """PostgreSQL refuses to run as root: then it runs as the postgres user."""
    return "postgres" if os.geteuid() == 0 else None


class Postgres:
    """The database server of one cluster data folder: ``folder`` is its PGDATA."""

    def __init__(self, folder: Path, port: int, log: Path, binaries: Path | None = None, *,
                 settings: Mapping[str, str] | None = None) -> None:
        self.folder, self.port, self.log = folder, port, log
        self.settings = dict(settings or {})  # more ``-c name=value`` (the tests: fsync=off)
        self.binaries = binaries or find_binaries()
        self.user = _run_as()
        self.child: Child | None = None

    @property
    def url(self) -> str:
        return self.database_url(DATABASE)

    def prepare(self) -> bool:
        """``initdb`` the folder if it holds no database cluster yet; whether it did."""
        if (self.folder / "PG_VERSION").exists():
            self._own()
            return False
        self.folder.mkdir(parents=True, exist_ok=True)
        self._own()
        try:
            run_checked([str(self.binaries / "initdb"), "-D", str(self.folder), "-U", USER,
                         "-A", "trust", "-E", "UTF8", "--no-instructions"],
                        "initdb (making the PostgreSQL database cluster)", user=self.user)
        except ClusterError as error:
            hint = ("\n  (as root PostgreSQL runs as the postgres user, who must be able to "
                    "enter every folder above the data folder)") if self.user else ""
            raise ClusterError(f"{error}{hint}") from None
        return True

    def _own(self) -> None:
        if self.user is not None:
            shutil.chown(self.folder, self.user, self.user)
        self.folder.chmod(0o700)

    def start(self, timeout: float = 120.0) -> None:
        self.child = Child("PostgreSQL", [
            str(self.binaries / "postgres"), "-D", str(self.folder), "-p", str(self.port),
            "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
            "-c", "max_connections=200",
            *(part for item in self.settings.items() for part in ("-c", "=".join(item)))],
            self.log, stop_signal=signal.SIGINT, user=self.user)
        # SIGINT is PostgreSQL's fast shutdown: it ends the sessions and stops at once.
        self.child.start()
        self.child.wait_until(self._accepts, timeout, "accept connections")
        self.create_database(DATABASE)

    def _accepts(self) -> bool:
        done = subprocess.run([str(self.binaries / "pg_isready"), "-q", "-h", "127.0.0.1",
                               "-p", str(self.port), "-U", USER, "-d", "postgres"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        return done.returncode == 0

    def _psql(self, sql: str) -> str:
        return run_checked([str(self.binaries / "psql"), "-X", "-q", "-t", "-A", "-h",
                            "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", "postgres",
                            "-c", sql], "psql")

    def database_url(self, name: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        """Make the database ``name`` unless it exists (a plain name: letters, digits and
        ``_``); its URL."""
        if not name.isidentifier():
            raise ClusterError(f"not a plain database name: {name!r}")
        query = f"select 1 from pg_database where datname = '{name}'"
        if self._psql(query).strip() != "1":
            self._psql(f'create database "{name}"')
        return self.database_url(name)

    def stop(self, timeout: float = 60.0) -> str | None:
        return self.child.stop(timeout) if self.child is not None else None
