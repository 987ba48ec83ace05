"""A serving process's housekeeping: how its garbage collector is paced, and the C heap's free
pages given back to the system (docs/decisions.md, "The collector's passes, kept short").

A server holds every table's current state (hundreds of thousands of objects at a few hundred
tables) and replaces most of it every second or so. Python's collector, left as it is, walks
every object that survived since its last pass: with a large first threshold a young pass
walked 90,000-130,000 such objects every few seconds (60-90 ms of CPU, every table stalled at
once), and with a small one those survivors were walked again in the older generations. Here
what survives a pass of the middle generation (one every ten young passes) is frozen
(``gc.freeze``) as that pass ends: a young pass walks what was made since the one before, a
middle one what survived the last ten young passes, and the oldest generation stays empty (a
few milliseconds each at Python's default thresholds). What the passes cannot see is a cycle
that becomes garbage after its objects were frozen (a closed connection's objects, mostly); a
full pass over everything (``gc.unfreeze`` and ``gc.collect``) frees those, run from the event
loop's housekeeping task when the frozen objects have doubled since the last full pass, or every
``FULL_SECONDS``.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import gc
import time
from collections.abc import Callable
from typing import Any

# Python's default thresholds: a young pass every 700 net allocations of tracked objects.
GC_THRESHOLDS = (700, 10, 10)
# A full pass once the frozen objects have doubled since the last one (a server taking on
# tables: a few passes while it grows, none once it holds them; a quarter, Python's own rule for
# its oldest generation, ran one of 270 ms in the first half minute of 300 ESG tables' play),
# and at least every FULL_SECONDS: what it frees is the cycles of closed connections, tens of
# objects each.
FULL_GROWTH = 2.0
FULL_SECONDS = 900.0
# How often the housekeeping task runs (docs/decisions.md, "mem9": glibc keeps what a burst of
# messages freed, and a server's resident memory otherwise stays at its highest).
TRIM_SECONDS = 2.0


class _Pacing:
    """The pacing's state: whether it is on, and the frozen count and time of the last full
    pass."""

    def __init__(self) -> None:
        self.on = False
        self.thresholds = gc.get_threshold()
        self.base = 0
        self.last_full = 0.0
        self.full_passes = 0


_PACING = _Pacing()


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A collector callback: at the end of every pass of the middle generation or the oldest,
    what survived it is frozen. Not at a young pass's: what lives a few milliseconds (uvicorn's
    HTTP protocol of a connection just turned WebSocket, a cycle) is freed at the next pass."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


def tune_garbage_collector() -> None:
    """Collect and freeze what start-up made (modules, classes, functions: made once, never
    garbage), then freeze what survives every later pass of the middle generation. Call once,
    before serving."""
    if not _PACING.on:
        _PACING.thresholds = gc.get_threshold()
        gc.callbacks.append(_freeze_survivors)
        _PACING.on = True
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()  # the callback freezes what it leaves
    _PACING.base = gc.get_freeze_count()
    _PACING.last_full = time.monotonic()


def restore_garbage_collector() -> None:
    """Python's own collector again (for tests that served in their own process)."""
    if _PACING.on:
        gc.callbacks.remove(_freeze_survivors)
        _PACING.on = False
        gc.set_threshold(*_PACING.thresholds)
    gc.unfreeze()


def full_collection_due(now: float) -> bool:
    """Whether a full pass is due: the frozen objects have grown by ``FULL_GROWTH`` since the
    last one, or ``FULL_SECONDS`` have passed."""
    return _PACING.on and (gc.get_freeze_count() > _PACING.base * FULL_GROWTH
                           or now - _PACING.last_full >= FULL_SECONDS)


def collect_everything(now: float | None = None) -> int:
    """A full pass over every object, frozen ones included; returns how many it freed."""
    gc.unfreeze()
    freed = gc.collect()
    if _PACING.on:  # the callback froze the survivors
        _PACING.base = gc.get_freeze_count()
        _PACING.last_full = time.monotonic() if now is None else now
        _PACING.full_passes += 1
    return freed


def memory_trimmer() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, which returns every free page of the C heap to the system
    (the Python heap's small objects are not in it); None where the C library has none."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return functools.partial(trim, 0)


def start_housekeeping() -> asyncio.Task[None]:
    """Trim the C heap now (what the start freed goes back before the first request), then
    every ``TRIM_SECONDS`` until cancelled run a full collection when one is due and trim."""
    trim = memory_trimmer()
    if trim is not None:
        trim()

    async def every() -> None:
        while True:
            await asyncio.sleep(TRIM_SECONDS)
            if full_collection_due(time.monotonic()):
                collect_everything()
            if trim is not None:
                trim()

    return asyncio.create_task(every(), name="housekeeping")
