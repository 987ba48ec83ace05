"""The one PostgreSQL server of a test session (each test that asks for ``database`` gets a
fresh database on it), for the store's and the cluster's tests.

Hypothesis profiles: ``dev`` (the default) draws new examples on every run, to keep finding
cases; ``ci`` (``HYPOTHESIS_PROFILE=ci``, set by .ci/run) draws the same examples on every run,
so a landing is decided by the code and not by the draw. A case found in development becomes an
explicit ``@example``."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "cluster"))

from services import Postgres, postgres

settings.register_profile("dev")
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg() -> Iterator[Postgres]:
    with postgres() as server:
        yield server


@pytest.fixture
def database(pg: Postgres) -> str:
    """A fresh database for one test: its postgresql:// URL."""
    return pg.database(f"test{next(_names)}")
