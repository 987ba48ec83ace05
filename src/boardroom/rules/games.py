"""Every game a room can deal, found by id: the variants, Dealer's Choice and the preset
rotations (HORSE)."""

from __future__ import annotations

from collections.abc import Iterator

from boardroom.rules.rotations import CUSTOM, PRESETS, Rotation, find_rotation
from boardroom.rules.spec import SpecError, Variant
from boardroom.rules.variants import (
    DEALERS_CHOICE,
    PLO,
    VARIANTS,
    DealersChoice,
    canonical_id,
    find_variant,
    unknown,
)

Game = Variant | DealersChoice | Rotation


def find_game(game_id: str) -> Game:
    """A variant, Dealer's Choice or a preset rotation (HORSE), by id or alias."""
    key = canonical_id(game_id)
    if key == DEALERS_CHOICE.id:
        return DEALERS_CHOICE
    rotation = find_rotation(key)
    if rotation is not None:
        return rotation
    try:
        return find_variant(game_id)
    except SpecError:  # the games a room takes: the rotations too
        raise unknown(game_id, *PRESETS, CUSTOM) from None


def iter_games() -> Iterator[Game]:
    """Every game in the order the rule book lists them, Dealer's Choice after PLO and the
    preset rotations (HORSE) at the end."""
    for variant in VARIANTS:
        yield variant
        if variant is PLO:
            yield DEALERS_CHOICE
    yield from PRESETS.values()

