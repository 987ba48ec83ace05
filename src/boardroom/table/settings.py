"""A room's host settings: the game, the stakes, the stacks, the clocks and who may sit or watch.

Settings are plain, frozen data checked once when the room is created (``TableSettings.check``).
They turn into the engine's inputs here and nowhere else: ``variant_for`` applies the host's (or
the button's) options through ``Variant.with_options`` and ``stakes_for`` builds the ``Stakes``
of any variant from the room's one set of blinds, so Dealer's Choice needs no per-game code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from boardroom.engine import Stakes
from boardroom.engine.straddle import Straddle
from boardroom.rules import DEALERS_CHOICE, ForcedBets, SpecError, Variant, find_game, find_variant
from boardroom.rules.rotations import CUSTOM, Rotation, RotationGame, find_rotation
from boardroom.rules.variants import canonical_id

MAX_SEATS = 10
# The most chips any one amount (a blind, an ante, a stack, a buy-in) may be: every ledger amount
# fits a 32-bit database integer, and a whole table's chips stay exact as JavaScript numbers.
MAX_CHIPS = 1_000_000_000
OPTION_NAMES = ("hole_cards", "betting", "bring_in")
# Who may straddle (a player's own choice, each time the position comes to them): nobody, the
# UTG seat, or the UTG seat and the button. "button" is the name stored before the choice was
# the player's (the host's straddle, posted every hand), read as "utg-button".
STRADDLES = ("off", "utg", "utg-button")
OLD_STRADDLES = {"button": "utg-button"}
CHIP_SETTINGS = ("small_blind", "big_blind", "ante", "bring_in", "starting_stack")


def check_chips(name: str, value: int) -> None:
    """``TableError`` unless ``value`` is at most ``MAX_CHIPS`` (the one bound on amounts)."""
    if value > MAX_CHIPS:
        raise TableError(f"{name} must be at most {MAX_CHIPS:,}")


class TableError(ValueError):
    """A table command that the room's rules or state do not allow; the text says why, and
    ``code`` names the kind of refusal for a client to act on (``docs/protocol.md``)."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the host chooses when creating a room. Chips are ints, clocks are seconds."""

    game: str = "plo"  # a variant id, "dealers-choice", a preset rotation ("horse") or "rotation"
    hole_cards: int | None = None  # the variant's hole-card option (PLO 4/5/6, Bomb 4/5/6)
    betting: str | None = None  # pot-limit, no-limit or fixed-limit, where the variant offers it
    bring_in_rule: str | None = None  # stud: highest or lowest
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0  # ante games and stud; 0 means the small blind
    bring_in: int = 0  # stud; 0 means the small blind (or half the big blind)
    starting_stack: int = 200  # the buy-in, and the most a rebuy may bring a stack up to
    max_seats: int = 6
    action_clock: float = 30.0
    time_bank: float = 60.0
    pick_clock: float = 20.0  # Dealer's Choice: how long the button has to pick
    pause_between_hands: float = 3.0
    spectators_allowed: bool = True
    seat_approval: bool = False  # the host approves every player who takes a seat
    rabbit_hunting: bool = True  # seated players may see the board cards a hand did not deal
    straddle: str = "off"  # blind games: who may straddle (2 big blinds): "utg" or "utg-button"
    run_it_twice: bool = True  # all-in players may agree to deal the rest twice or three times
    rotation: tuple[RotationGame, ...] = ()  # game "rotation": the host's games, in turn
    rotate_every: int = 0  # a rotation's game changes every N hands; 0: every orbit

    def __post_init__(self) -> None:
        # A rotation's games may come as plain data (ids, or objects with options).
        games: Any = self.rotation
        if not isinstance(games, list | tuple):
            raise TableError(f"rotation must be a list of games, not {games!r}")
        try:
            listed = tuple(game if isinstance(game, RotationGame) else RotationGame.from_data(game)
                           for game in games)
        except SpecError as error:
            raise TableError(str(error)) from None
        object.__setattr__(self, "rotation", listed)
        if isinstance(self.straddle, str) and self.straddle in OLD_STRADDLES:
            object.__setattr__(self, "straddle", OLD_STRADDLES[self.straddle])

    # -- checks ---------------------------------------------------------------------------

    def check(self) -> TableSettings:
        """Raise ``TableError`` naming the first setting that cannot work; return self."""
        for item in fields(self):
            value = getattr(self, item.name)
            if item.type in ("int", "int | None") and value is not None and (
                not isinstance(value, int) or isinstance(value, bool)
            ):
                raise TableError(f"{item.name} must be a whole number, not {value!r}")
            if item.type == "float" and (
                not isinstance(value, int | float) or isinstance(value, bool)
                or not math.isfinite(value)
            ):
                raise TableError(f"{item.name} must be a number of seconds, not {value!r}")
            if item.type == "bool" and not isinstance(value, bool):
                raise TableError(f"{item.name} must be true or false, not {value!r}")
        for name in CHIP_SETTINGS:
            check_chips(name, getattr(self, name))
        if not 0 < self.small_blind <= self.big_blind:
            raise TableError(f"blinds must satisfy 0 < small blind <= big blind "
                             f"(got {self.small_blind}/{self.big_blind})")
        if self.ante < 0 or self.bring_in < 0:
            raise TableError("the ante and the bring-in cannot be negative")
        if self.starting_stack < self.big_blind:
            raise TableError(f"the starting stack ({self.starting_stack}) must cover at least "
                             f"the big blind ({self.big_blind})")
        if not 2 <= self.max_seats <= MAX_SEATS:
            raise TableError(f"max seats must be 2 to {MAX_SEATS}, not {self.max_seats}")
        for name in ("action_clock", "pick_clock"):
            if not 1 <= getattr(self, name) <= 3600:
                raise TableError(f"{name} must be 1 to 3600 seconds")
        for name in ("time_bank", "pause_between_hands"):
            if not 0 <= getattr(self, name) <= 3600:
                raise TableError(f"{name} must be 0 to 3600 seconds")
        if self.straddle not in STRADDLES:
            raise TableError(f"straddle must be one of {', '.join(STRADDLES)}, "
                             f"not {self.straddle!r}")
        if self.rotation and canonical_id(self.game) != CUSTOM:
            raise TableError(f"a list of rotation games goes with game \"{CUSTOM}\", "
                             f"not {self.game!r}")
        if self.is_rotation:
            self._check_rotation()
            return self
        try:
            game = find_game(self.game)
        except ValueError as error:
            raise TableError(str(error)) from None
        if game is DEALERS_CHOICE:
            if any(getattr(self, name) is not None for name in ("hole_cards", "betting",
                                                                 "bring_in_rule")):
                raise TableError("in Dealer's Choice the button picks the options with the game")
            for variant in DEALERS_CHOICE.choices(2):
                self.stakes_for(variant)
        else:
            variant = self.variant_for(self.game, self.options)
            self.stakes_for(variant)
            if self.max_seats > variant.max_players:
                raise TableError(f"{variant.name} with {variant.hole_cards} hole cards seats at "
                                 f"most {variant.max_players}, not {self.max_seats}")
        return self

    def _check_rotation(self) -> None:
        if any(getattr(self, name) is not None for name in ("hole_cards", "betting",
                                                             "bring_in_rule")):
            raise TableError("in a rotation each game carries its own options")
        rotation = self.rotation_plan
        assert rotation is not None
        for item in rotation.games:
            self.stakes_for(self.variant_for(item.game, dict(item.options)))
        if self.max_seats > rotation.max_players:
            raise TableError(f"{rotation.name} seats at most {rotation.max_players} (its "
                             f"smallest game), not {self.max_seats}")

    # -- derived --------------------------------------------------------------------------

    @property
    def is_rotation(self) -> bool:
        return canonical_id(self.game) == CUSTOM or find_rotation(self.game) is not None

    @property
    def rotation_plan(self) -> Rotation | None:
        """The rotation this room deals (HORSE, or the host's own), or None."""
        key = canonical_id(self.game)
        preset = find_rotation(key)
        try:
            if preset is not None:
                return preset.with_every(self.rotate_every)
            if key == CUSTOM:
                return Rotation.custom([item.to_dict() for item in self.rotation],
                                       self.rotate_every)
        except SpecError as error:
            raise TableError(str(error)) from None
        return None

    @property
    def is_dealers_choice(self) -> bool:
        return not self.is_rotation and find_game(self.game) is DEALERS_CHOICE

    @property
    def options(self) -> dict[str, Any]:
        """The host's variant options, as ``Variant.with_options`` takes them."""
        chosen = {"hole_cards": self.hole_cards, "betting": self.betting,
                  "bring_in": self.bring_in_rule}
        return {name: value for name, value in chosen.items() if value is not None}

    def variant_for(self, variant_id: str, options: Mapping[str, Any]) -> Variant:
        """The concrete variant with ``options`` applied; ``TableError`` if it cannot be."""
        unknown = set(options) - set(OPTION_NAMES)
        if unknown:
            raise TableError(f"unknown variant options {sorted(unknown)} "
                             f"(known: {', '.join(OPTION_NAMES)})")
        try:
            variant = find_variant(variant_id).with_options(**options)
        except (ValueError, TypeError) as error:
            raise TableError(str(error)) from None
        return variant

    def stakes_for(self, variant: Variant) -> Stakes:
        """The room's stakes as ``variant`` plays them (RULES.md s.1: ante games use the big
        blind as the minimum bet; stud uses the big blind as its small bet)."""
        ante = self.ante or self.small_blind
        args: dict[str, int] = {"small_blind": self.small_blind, "big_blind": self.big_blind}
        if variant.forced_bets is ForcedBets.ANTES:
            args["ante"] = ante
        elif variant.forced_bets is ForcedBets.BRING_IN:
            args = {"ante": ante, "small_bet": self.big_blind, "big_bet": 2 * self.big_blind,
                    "bring_in": self.bring_in or (self.small_blind if self.small_blind
                                                  < self.big_blind else self.big_blind // 2)}
        try:
            stakes = Stakes(**args)
            stakes.check_for(variant)
        except ValueError as error:
            raise TableError(f"these stakes cannot play {variant.name}: {error}") from None
        return stakes

    @property
    def straddles(self) -> tuple[Straddle, ...]:
        """The straddles a player may choose in this room's blind games (``engine.straddle``),
        the one that goes first when two players chose: with both allowed the button's
        straddle comes before the UTG's (the Mississippi rule)."""
        if self.straddle == "off":
            return ()
        return (Straddle.UTG,) if self.straddle == "utg" else (Straddle.BUTTON, Straddle.UTG)

    def straddles_for(self, variant: Variant) -> tuple[Straddle, ...]:
        """``straddles`` in a hand of ``variant``: only blind games straddle."""
        return self.straddles if variant.forced_bets is ForcedBets.BLINDS else ()

    @property
    def seat_limit(self) -> int:
        return min(self.max_seats, MAX_SEATS)

    # -- plain data -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rotation": [item.to_dict() for item in self.rotation]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings from plain data (a request body, a stored row); unknown keys are errors."""
        names = {item.name for item in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise TableError(f"unknown settings {sorted(unknown)}")
        return cls(**data).check()
