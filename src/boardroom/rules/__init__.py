"""Variants as frozen, self-checking data, and the registry that finds them by id."""

from boardroom.rules.games import Game, find_game, iter_games
from boardroom.rules.rotations import HORSE, Rotation, RotationGame
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
    find_variant,
)

__all__ = [
    "DEALERS_CHOICE",
    "HORSE",
    "VARIANTS",
    "BettingStructure",
    "Board",
    "BringIn",
    "Category",
    "Construction",
    "DealersChoice",
    "FirstToAct",
    "ForcedBets",
    "Game",
    "Reveal",
    "Rotation",
    "RotationGame",
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
