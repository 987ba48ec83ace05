"""Running it twice at a table (engine.runs): the offer's short clock and the answers a table
gives for a player who cannot answer (a timeout, a player leaving: once).

The hand asks every all-in player; the table publishes the offer (``choosing_runs``: the seats,
the most runs, the deadline), takes each answer as the ``runs`` command and, when the clock
runs out, answers once for everyone still to answer.
"""

from __future__ import annotations

from boardroom.engine.actions import ChooseRuns
from boardroom.table.settings import TableSettings

RUNS_CLOCK = 15.0  # seconds to answer the offer (never more than the room's action clock)
ONCE_BY_TIMEOUT = ChooseRuns(1, automatic=True)


def runs_clock(settings: TableSettings) -> float:
    """How long the all-in players have to answer the offer."""
    return min(RUNS_CLOCK, settings.action_clock)
