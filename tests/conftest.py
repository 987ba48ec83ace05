"""Hypothesis profiles: ``dev`` (the default) draws new examples on every run, to keep finding
cases; ``ci`` (``HYPOTHESIS_PROFILE=ci``, set by .ci/run) draws the same examples on every run,
so a landing is decided by the code and not by the draw. A case found in development becomes an
explicit ``@example``."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("dev")
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
