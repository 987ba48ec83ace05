"""Mixed games: a rotation deals a list of games in turn, each for an orbit or for N hands.

HORSE is the classic one (fixed-limit Hold'em, Omaha Hi-Lo, Razz, Stud and Stud Hi-Lo, a game an
orbit). A host can make a rotation of any games a table deals, the multi-board ones included, each
with its options. A rotation is data: which game comes next and when is decided by the table
(``boardroom.table.rotation``), which knows the button and the seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardroom.rules.spec import SpecError, Variant
from boardroom.rules.variants import DEALERS_CHOICE, canonical_id, find_variant

MAX_GAMES = 20  # the most games one rotation lists
MAX_EVERY = 100  # the most hands one game of a rotation may last
OPTION_NAMES = ("hole_cards", "betting", "bring_in")


@dataclass(frozen=True)
class RotationGame:
    """One game of a rotation: a variant id and the options it is dealt with."""

    game: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def variant(self) -> Variant:
        return find_variant(self.game).with_options(**dict(self.options))

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, **dict(self.options)}

    @classmethod
    def from_data(cls, data: str | Mapping[str, Any]) -> RotationGame:
        """A game from plain data: ``"razz"`` or ``{"game": "holdem", "betting": "fixed-limit"}``.
        ``SpecError`` names what is wrong."""
        if isinstance(data, str):
            data = {"game": data}
        if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
            raise SpecError(f"a rotation's game is a game id or an object with a \"game\", "
                            f"not {data!r}")
        unknown = set(data) - {"game", *OPTION_NAMES}
        if unknown:
            raise SpecError(f"unknown options {sorted(unknown)} for {data['game']!r} in the "
                            f"rotation (known: {', '.join(OPTION_NAMES)})")
        key = canonical_id(data["game"])
        if key in (DEALERS_CHOICE.id, CUSTOM, *PRESETS):
            raise SpecError(f"a rotation cannot include {data['game']!r}: list the games "
                            f"themselves")
        variant = find_variant(data["game"])
        options = tuple(sorted((name, data[name]) for name in OPTION_NAMES
                               if data.get(name) is not None))
        try:
            variant.with_options(**dict(options))
        except (ValueError, TypeError) as error:
            raise SpecError(f"{variant.name} in the rotation: {error}") from None
        return cls(variant.id, options)


@dataclass(frozen=True)
class Rotation:
    """A list of games dealt in turn; ``every`` hands each, or an orbit each when 0."""

    id: str
    name: str
    games: tuple[RotationGame, ...]
    every: int = 0
    summary: str = ""

    def __post_init__(self) -> None:
        if not 2 <= len(self.games) <= MAX_GAMES:
            raise SpecError(f"a rotation lists 2 to {MAX_GAMES} games, not {len(self.games)}")
        if isinstance(self.every, bool) or not isinstance(self.every, int) or not (
                0 <= self.every <= MAX_EVERY):
            raise SpecError(f"a rotation changes game every 1 to {MAX_EVERY} hands, or every "
                            f"orbit (0), not {self.every!r}")

    @property
    def variants(self) -> tuple[Variant, ...]:
        return tuple(game.variant for game in self.games)

    @property
    def max_players(self) -> int:
        """The most players every game of the rotation deals to."""
        return min(variant.max_players for variant in self.variants)

    @property
    def period(self) -> str:
        return "an orbit" if self.every == 0 else \
            "a hand" if self.every == 1 else f"{self.every} hands"

    def with_every(self, every: int) -> Rotation:
        return Rotation(self.id, self.name, self.games, every, self.summary)

    @classmethod
    def custom(cls, games: Sequence[str | Mapping[str, Any]], every: int = 0) -> Rotation:
        """A host's rotation of ``games`` (ids or objects with options)."""
        listed = tuple(RotationGame.from_data(game) for game in games)
        names = ", ".join(game.variant.name for game in listed[:MAX_GAMES])
        return cls("rotation", "Rotation", listed, every, summary=f"In turn: {names}.")


def _fixed_limit(game: str) -> RotationGame:
    return RotationGame(game, (("betting", "fixed-limit"),))


HORSE = Rotation(
    id="horse", name="HORSE",
    games=(_fixed_limit("holdem"), _fixed_limit("omaha-hilo"), RotationGame("razz"),
           RotationGame("stud"), RotationGame("stud-hilo")),
    summary="Hold'em, Omaha Hi-Lo, Razz, 7 Card Stud and Stud Hi-Lo in turn, fixed limit, "
            "a game an orbit.",
)

PRESETS: dict[str, Rotation] = {HORSE.id: HORSE}
CUSTOM = "rotation"  # the game id of a host-made rotation


def find_rotation(game_id: str) -> Rotation | None:
    """The preset rotation with this id (``horse``), or None."""
    return PRESETS.get(canonical_id(game_id))
