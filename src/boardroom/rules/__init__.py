"""Variants as frozen, self-checking data, and the registry that finds them by id."""

from boardroom.rules.spec import (
    BettingStructure,
    Board,
    BringIn,
    Category,
    Construction,
    FirstToAct,
    ForcedBets,
    Reveal,
    SpecError,
    Split,
    Street,
    Variant,
    redraw_schedule,
    redraw_share,
)
from boardroom.rules.variants import (
    DEALERS_CHOICE,
    VARIANTS,
    DealersChoice,
    find_game,
    find_variant,
    iter_games,
)

__all__ = [
    "DEALERS_CHOICE",
    "VARIANTS",
    "BettingStructure",
    "Board",
    "BringIn",
    "Category",
    "Construction",
    "DealersChoice",
    "FirstToAct",
    "ForcedBets",
    "Reveal",
    "SpecError",
    "Split",
    "Street",
    "Variant",
    "find_game",
    "find_variant",
    "iter_games",
    "redraw_schedule",
    "redraw_share",
]
