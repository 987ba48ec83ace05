"""Tests that must see the pure Python engine (``boardroom.native``).

mypyc's build of the engine calls its own functions and methods directly, so a test that patches
one of them (to count calls) or pins a detail of the pure modules (the events' generated
constructors) runs its body under the pure engine. ``ran_in_pure_child(request)`` does that:
under the compiled engine it runs the calling test again in a child process with
``BOARDROOM_ENGINE=pure``, asserts that it passed there and returns True (the caller returns);
under the pure engine it returns False and the caller runs its body. Either way the test's
checks run once, on the pure engine; never skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardroom import native


def ran_in_pure_child(request: pytest.FixtureRequest) -> bool:
    if not native.status().compiled:
        return False
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "",
         request.node.nodeid],
        cwd=request.config.rootpath, env={**os.environ, native.ENGINE_VARIABLE: "pure"},
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"under the pure engine:\n{done.stdout[-4000:]}{done.stderr}"
    assert "1 passed" in done.stdout, done.stdout[-2000:]
    return True
