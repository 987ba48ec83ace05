"""The issues' claim: over 5,000 hands per game (the multi-board variants, and the rest of the
card room: Hold'em, the studs, the draw games), each equity style beats the random bot and a
calling station by a margin whose 95% CI excludes zero. Slow: run with
``pytest -m slow tests/bots`` (or ``boardroom bench bots --hands 5000``).

Each case plays 5,000 hands of a four-bot table: 6 to 10 minutes on one core of this 2-core
machine for a multi-board variant, more under load, and the draw games' bots weigh every choice
of discards (a triple draw case takes about three times a single draw's), so the cases carry
their own one-hour timeout instead of the suite's 600 s (which exists to turn a hang into a
failure, not to bound a long check)."""

from __future__ import annotations

import pytest

from boardroom.bench.bots import RATED, margins


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("style", ["tight", "loose"])
@pytest.mark.parametrize("variant", RATED)
def test_equity_styles_beat_random_and_the_calling_station(variant: str, style: str) -> None:
    _, _, over_random, over_station = margins(variant, style, 5000, 100, 1)
    assert over_random[1] > 0, over_random
    assert over_station[1] > 0, over_station
