"""Tournaments (DESIGN.md, tournament layer): the structure and level clock, registration,
the seat draw, balancing and breaking, eliminations and payouts.

``Director`` owns one tournament's state and decides everything about it; it is pure (no I/O,
no wall clock, no cards) and drives tables through plans (``HandPlan``) and their results.
``boardroom.tournament.inprocess`` plays a whole tournament in one process with the engine.
"""

from boardroom.tournament.director import (
    Director,
    HandPlan,
    TournamentConfig,
    TournamentError,
)
from boardroom.tournament.payouts import Finish, PayoutError, PayoutTable, preset_for, prizes
from boardroom.tournament.seating import Positions
from boardroom.tournament.structure import (
    PRESETS,
    Break,
    Level,
    Structure,
    StructureError,
    find_structure,
    load_structure,
    save_structure,
)

__all__ = [
    "PRESETS",
    "Break",
    "Director",
    "Finish",
    "HandPlan",
    "Level",
    "PayoutError",
    "PayoutTable",
    "Positions",
    "Structure",
    "StructureError",
    "TournamentConfig",
    "TournamentError",
    "find_structure",
    "load_structure",
    "preset_for",
    "prizes",
    "save_structure",
]
