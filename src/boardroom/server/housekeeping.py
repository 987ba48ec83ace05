"""A serving process's housekeeping: its garbage collector's thresholds, and the C heap's free
pages given back to the system (docs/decisions.md, "The load generator's own pauses, and the
collector's passes").
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import gc
from collections.abc import Callable

# The collector's thresholds for a serving process (Python's default: 700, 10, 10). At a few
# hundred tables the process holds hundreds of thousands of tracked objects; with the default
# first threshold, objects that live for one command (its task, its futures, the store write)
# reach the oldest generation, and a full collection of every object follows every few
# seconds, stalling every table at once. Young collections every 50,000 allocations let those
# objects die young. (Freezing each pass's survivors instead, session 12, made shorter passes
# but more of them: on a quiet machine at 300 ESG tables, p99 36-41 ms and 2.0 ms of CPU an
# action against 27-29 ms and 1.8 ms with these thresholds.)
GC_THRESHOLDS = (50_000, 20, 10)
# How often the housekeeping task trims the C heap (docs/decisions.md, "mem9": glibc keeps
# what a burst of messages freed, and a server's resident memory otherwise stays at its
# highest).
TRIM_SECONDS = 2.0


def tune_garbage_collector() -> None:
    """Set the thresholds above and move everything alive so far (modules, classes, functions:
    made once, never garbage) out of the collector's sight. Call once, before serving."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def restore_garbage_collector(thresholds: tuple[int, int, int] = (700, 10, 10)) -> None:
    """Python's own collector again (for tests that served in their own process)."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)


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
    every ``TRIM_SECONDS`` until cancelled."""
    trim = memory_trimmer()
    if trim is not None:
        trim()

    async def every() -> None:
        while True:
            await asyncio.sleep(TRIM_SECONDS)
            if trim is not None:
                trim()

    return asyncio.create_task(every(), name="housekeeping")
