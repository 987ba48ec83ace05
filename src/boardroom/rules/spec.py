"""Variants as frozen, self-checking data (DESIGN.md: "Variants are data").

A ``Variant`` says everything the engine needs to deal and score a hand: the boards and their
reveal schedule, hole cards, streets with their redraw caps, forced bets, betting structure,
scoring categories, how a pot is split, and the deck math that bounds the players. A host's
choices (hole cards, betting structure, bring-in rule) are applied with ``Variant.with_options``,
which returns a new, fully concrete ``Variant``. Every ``Variant`` checks itself when built.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from boardroom.cards import DECK_SIZE
from boardroom.evaluation import Construction as Construction  # the rules name it too
from boardroom.evaluation import Ranking


class SpecError(ValueError):
    """A variant spec that contradicts itself, or a host option the variant does not offer."""


class BettingStructure(enum.Enum):
    """RULES.md section 2."""

    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"
    FIXED_LIMIT = "fixed-limit"


class ForcedBets(enum.Enum):
    """Blinds (with an optional ante), antes only, or stud's antes with a bring-in."""

    BLINDS = "blinds"
    ANTES = "antes"
    BRING_IN = "bring-in"


class BringIn(enum.Enum):
    """Who pays stud's bring-in (RULES.md section 5)."""

    HIGHEST = "highest"  # as seed 004 says: the highest up card, ties by suit s > h > c > d
    LOWEST = "lowest"  # the common rule: the lowest up card, ties by suit c < d < h < s
    # (bridge order, clubs lowest, as PokerKit orders suits; see boardroom.engine.stud)
    HIGHEST_ACE_LOW = "highest-ace-low"  # razz: the highest up card with the ace low (a king
    # brings in, an ace never does), ties by suit s > h > d > c (bridge order)


class FirstToAct(enum.Enum):
    """Who opens a betting round."""

    LEFT_OF_BIG_BLIND = "left-of-big-blind"  # preflop in blind games (heads-up: the button)
    LEFT_OF_BUTTON = "left-of-button"  # every later round, and every round of ante games
    BRING_IN = "bring-in"  # stud's third street: the player after the bring-in
    BEST_SHOWING = "best-showing"  # stud's later streets: the best hand showing
    LOW_SHOWING = "low-showing"  # razz's later streets: the best (lowest) hand showing


class Split(enum.Enum):
    """How each pot is divided at showdown."""

    POINTS = "points"  # categories worth 1 point each; most points takes the pot (RULES.md s.3)
    HI_LO = "hi-lo"  # half to the best high, half to the best low; no low: high scoops (s.4)


@dataclass(frozen=True)
class Board:
    """A community board: its name (``A``..``D``, ``X``), size, and tilted position if any."""

    name: str
    size: int
    tilted: int | None = None  # 1-based position of the tilted card (Tilt: A5, B4, C3, D1)

    def __post_init__(self) -> None:
        if not 1 <= self.size <= 5:
            raise SpecError(f"board {self.name} has {self.size} cards; a board has 1 to 5")
        if self.tilted is not None and not 1 <= self.tilted <= self.size:
            raise SpecError(f"board {self.name}: tilted position {self.tilted} is off the board")


@dataclass(frozen=True)
class Reveal:
    """``count`` more cards of board ``board`` turned face up at the start of a street."""

    board: str
    count: int


@dataclass(frozen=True)
class Street:
    """One street: what it reveals, what it deals to each player, its redraws and its betting."""

    name: str
    reveals: tuple[Reveal, ...] = ()
    hole_down: int = 0  # cards dealt face down to each player on this street
    hole_up: int = 0  # cards dealt face up to each player (stud)
    redraw_cap: int | None = None  # cumulative redraw cap per player; None: no redraw here
    betting: bool = True
    first_to_act: FirstToAct = FirstToAct.LEFT_OF_BUTTON
    big_bet: bool = False  # fixed limit: this street's bets are the big bet
    draw: int | None = None  # the draw: before the betting, each player in turn from the
    # button's left discards 0 to ``draw`` cards and is dealt as many (draw games)


def redraw_share(cap: int | None, received: int, pool: int, live: int) -> int:
    """Redraws each live player gets on a street (RULES.md s.3, "Redraws"): with cumulative cap
    ``K``, ``R`` redraws each so far, a pool of ``pool`` and ``L`` live players (all-in
    included), ``min(K - R, floor(pool / L))``, never negative; none without a cap."""
    if not cap or live <= 0:
        return 0
    return max(0, min(cap - received, pool // live))


def redraw_schedule(streets: Sequence[Street], pool: int, live: int, *, received: int = 0,
                    held: int = 0, folds: Mapping[str, int] | None = None,
                    ) -> list[tuple[str, int, int]]:
    """The redraws of ``streets`` in order: ``(street, cards each, pool after)`` for every
    street with a redraw cap, for ``live`` players holding ``held`` hole cards and ``received``
    redraws each, with ``pool`` cards in the pool. ``folds`` (street -> players folding before
    that street's redraw) returns each folded hand, hole cards and redraws, to the pool; without
    it nobody folds, the fewest redraws anyone can get. The one place the formula is iterated:
    the spec's deck check, the engine's worked example and the bots' estimate all call it."""
    result = []
    for street in streets:
        gone = (folds or {}).get(street.name, 0)
        pool += gone * (held + received)
        live -= gone
        n = redraw_share(street.redraw_cap, received, pool, live)
        received += n
        pool -= n * live
        if street.redraw_cap is not None:
            result.append((street.name, n, pool))
    return result


@dataclass(frozen=True)
class Category:
    """A scoring category worth one point (or one half of a hi-lo pot)."""

    name: str
    construction: Construction
    ranking: Ranking = Ranking.HIGH
    board: str | None = None  # the board it plays on, for board constructions
    allocated: int = 0  # Allocator games: how many of the player's cards are committed here


_BOARD_CONSTRUCTIONS = {
    Construction.OMAHA,
    Construction.TILT_BOARD,
    Construction.TREE,
    Construction.HOLDEM,
}


@dataclass(frozen=True)
class Variant:
    """A concrete game, or (before ``with_options``) a game with its host's choices open."""

    id: str
    name: str
    boards: tuple[Board, ...]
    hole_cards: int  # cards each player starts with (stud: all seven streets' cards)
    streets: tuple[Street, ...]
    categories: tuple[Category, ...]
    forced_bets: ForcedBets
    split: Split = Split.POINTS
    betting: BettingStructure = BettingStructure.POT_LIMIT
    max_players_by_hole: Mapping[int, int] = field(default_factory=dict)
    betting_options: tuple[BettingStructure, ...] = (BettingStructure.POT_LIMIT,)
    burns: bool = False  # one card burned before each street that reveals board cards
    bring_in: BringIn | None = None
    bring_in_options: tuple[BringIn, ...] = (BringIn.HIGHEST, BringIn.LOWEST)
    raise_cap: int | None = None  # bets + raises allowed per round (fixed limit and stud: 4)
    summary: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_players_by_hole", MappingProxyType(dict(
            self.max_players_by_hole or {self.hole_cards: 2})))
        self._check()

    # -- derived facts (the ones the engine asks at every street are worked out once: a
    # variant is frozen) -------------------------------------------------------------------

    @property
    def hole_card_options(self) -> tuple[int, ...]:
        """The hole-card counts a host may pick (a single value when there is no choice)."""
        return tuple(sorted(self.max_players_by_hole))

    @property
    def max_players(self) -> int:
        return self.max_players_by_hole[self.hole_cards]

    @functools.cached_property
    def board_names(self) -> tuple[str, ...]:
        return tuple(board.name for board in self.boards)

    @functools.cached_property
    def board_card_count(self) -> int:
        return sum(board.size for board in self.boards)

    @functools.cached_property
    def burn_count(self) -> int:
        return sum(1 for street in self.streets if street.reveals) if self.burns else 0

    @functools.cached_property
    def has_redraws(self) -> bool:
        return any(street.redraw_cap for street in self.streets)

    @functools.cached_property
    def has_allocation(self) -> bool:
        return any(category.allocated for category in self.categories)

    @property
    def allocation_sizes(self) -> dict[str, int]:
        """Category name -> cards committed to it, for the Allocator games."""
        return {c.name: c.allocated for c in self.categories if c.allocated}

    @property
    def is_stud(self) -> bool:
        return self.forced_bets is ForcedBets.BRING_IN

    @functools.cached_property
    def is_draw(self) -> bool:
        """A draw game: some street begins with the draw (``Street.draw``)."""
        return any(street.draw for street in self.streets)

    @functools.cached_property
    def category_names(self) -> tuple[str, ...]:
        return tuple(category.name for category in self.categories)

    def starting_pool(self, players: int, hole_cards: int | None = None) -> int:
        """The redraw pool once the hole cards are dealt: the deck minus hole, board and burned
        cards (RULES.md s.3)."""
        hole = self.hole_cards if hole_cards is None else hole_cards
        return DECK_SIZE - players * hole - self.board_card_count - self.burn_count

    def guaranteed_redraws(self, players: int, hole_cards: int | None = None) -> int:
        """Redraws each player is sure to get by the river with ``players`` live and no folds.

        The pool is then only the stub (RULES.md s.3); folds only add cards, so this is the
        worst case.
        """
        schedule = redraw_schedule(self.streets, self.starting_pool(players, hole_cards), players)
        return sum(n for _, n, _ in schedule)

    def board(self, name: str) -> Board:
        for board in self.boards:
            if board.name == name:
                return board
        raise SpecError(f"{self.id} has no board {name!r} (boards: {', '.join(self.board_names)})")

    def with_options(
        self,
        *,
        hole_cards: int | None = None,
        betting: BettingStructure | str | None = None,
        bring_in: BringIn | str | None = None,
    ) -> Variant:
        """This variant with a host's choices applied; an option it does not offer is an error."""
        changes: dict[str, object] = {}
        if hole_cards is not None:
            if hole_cards not in self.max_players_by_hole:
                options = ", ".join(str(n) for n in self.hole_card_options)
                raise SpecError(f"{self.name} is dealt with {options} hole cards, not {hole_cards}")
            changes["hole_cards"] = hole_cards
        if betting is not None:
            structure = _enum_option(BettingStructure, betting, "betting structure")
            if structure not in self.betting_options:
                offered = ", ".join(option.value for option in self.betting_options)
                raise SpecError(f"{self.name} is played {offered}, not {structure.value}")
            changes["betting"] = structure
            capped = structure is BettingStructure.FIXED_LIMIT or self.is_stud
            changes["raise_cap"] = 4 if capped else None
        if bring_in is not None:
            if self.bring_in is None:
                raise SpecError(f"{self.name} has no bring-in")
            rule = _enum_option(BringIn, bring_in, "bring-in rule")
            if rule not in self.bring_in_options:
                offered = ", ".join(option.value for option in self.bring_in_options)
                raise SpecError(f"{self.name} brings in by {offered}, not {rule.value}")
            changes["bring_in"] = rule
        return replace(self, **changes) if changes else self  # type: ignore[arg-type]

    # -- self-check ------------------------------------------------------------------------

    def _check(self) -> None:
        fail = self._error
        names = self.board_names
        if len(set(names)) != len(names):
            raise fail("board names repeat")
        revealed = dict.fromkeys(names, 0)
        for street in self.streets:
            for reveal in street.reveals:
                if reveal.board not in revealed:
                    raise fail(f"street {street.name} reveals unknown board {reveal.board}")
                revealed[reveal.board] += reveal.count
        for board in self.boards:
            if revealed[board.name] != board.size:
                raise fail(f"board {board.name} has {board.size} cards but "
                           f"{revealed[board.name]} are revealed")
        if not any(street.betting for street in self.streets):
            raise fail("no street has a betting round")
        caps = [s.redraw_cap for s in self.streets if s.redraw_cap is not None]
        if caps != sorted(caps):
            raise fail("redraw caps are cumulative and may not fall")
        dealt_on_streets = sum(s.hole_down + s.hole_up for s in self.streets)
        if self.is_stud != (dealt_on_streets > 0):
            raise fail("only stud deals hole cards on streets")
        if self.is_stud and dealt_on_streets != self.hole_cards:
            raise fail(f"streets deal {dealt_on_streets} cards but the hand has {self.hole_cards}")
        if self.is_stud != (self.bring_in is not None):
            raise fail("a bring-in rule belongs to stud games only")
        if self.bring_in is not None and self.bring_in not in self.bring_in_options:
            raise fail(f"bring-in {self.bring_in.value} is not among its bring-in options")
        if self.betting not in self.betting_options:
            raise fail(f"{self.betting.value} is not among its betting options")
        # Fixed limit allows a bet and three raises (RULES.md s.2); stud caps every structure (s.5).
        if (self.betting is BettingStructure.FIXED_LIMIT or self.is_stud) != (
            self.raise_cap is not None
        ):
            raise fail("fixed limit and stud need a raise cap, other games none")
        category_names = self.category_names
        if len(set(category_names)) != len(category_names) or not category_names:
            raise fail("category names must be present and distinct")
        for category in self.categories:
            self._check_category(category)
        if self.split is Split.HI_LO and category_names != ("High", "Low"):
            raise fail("a hi-lo split scores exactly the categories High and Low")
        allocated = sum(c.allocated for c in self.categories)
        if allocated and not all(c.allocated for c in self.categories):
            raise fail("in an allocation game every category takes allocated cards")
        for hole, players in self.max_players_by_hole.items():
            fewest = hole + self.guaranteed_redraws(players, hole)
            if allocated > fewest:
                raise fail(f"allocation needs {allocated} cards but {players} players with "
                           f"{hole} cards may hold only {fewest} at the river")
        if self.is_draw and (self.boards or self.is_stud or self.has_redraws):
            raise fail("a draw game has no boards, no stud streets and no redraws")
        for hole, players in self.max_players_by_hole.items():
            most = max((street.draw or 0 for street in self.streets), default=0)
            if most > hole:
                raise fail(f"a draw of {most} cards is more than the {hole} a player holds")
            if self.is_draw and DECK_SIZE - players * hole < most:
                # The discards of the others always refill the stub (RULES: the draw).
                raise fail(f"{players} players with {hole} cards leave {DECK_SIZE - players * hole}"
                           f" cards to draw from, fewer than a draw of {most}")
        for hole, players in self.max_players_by_hole.items():
            needed = players * hole + self.board_card_count + self.burn_count
            if needed > DECK_SIZE or players < 2:
                raise fail(f"{players} players with {hole} cards need {needed} cards; "
                           f"the deck has {DECK_SIZE}")
        if self.hole_cards not in self.max_players_by_hole:
            raise fail(f"{self.hole_cards} hole cards is not among its options")

    def _error(self, message: str) -> SpecError:
        return SpecError(f"variant {self.id}: {message}")

    def _check_category(self, category: Category) -> None:
        fail = self._error
        construction = category.construction
        if construction in _BOARD_CONSTRUCTIONS:
            if category.board is None:
                raise fail(f"category {category.name} needs a board")
            board = self.board(category.board)
            if construction is Construction.TILT_BOARD and board.tilted is None:
                raise fail(f"category {category.name}: board {board.name} has no tilted card")
            if construction is Construction.TREE and board.size != 1:
                raise fail(f"category {category.name}: the Christmas card is one card")
        elif category.board is not None:
            raise fail(f"category {category.name} plays on no board")
        if construction is Construction.TILT_DIAGONAL and sum(
            1 for board in self.boards if board.tilted is not None
        ) < 3:
            raise fail("the Tilt diagonal needs at least three tilted cards")
        if category.allocated and construction not in (Construction.HOLDEM,
                                                       Construction.ALLOCATED):
            raise fail(f"category {category.name}: only Hold'em boards and the allocated Hand "
                       f"take allocated cards")
        if construction is Construction.ALLOCATED and not category.allocated:
            raise fail(f"category {category.name}: an allocated Hand takes allocated cards")
        if construction is Construction.ALLOCATED:
            expected = {Ranking.TWO_CARD: 2, Ranking.THREE_CARD: 3}.get(category.ranking)
            if expected != category.allocated:
                raise fail(f"category {category.name}: a {category.allocated}-card Hand needs "
                           f"a {category.allocated}-card ranking")
        if construction is Construction.HOLDEM and category.allocated not in (0, 2):
            raise fail(f"category {category.name}: a Hold'em board takes 2 allocated cards "
                       f"(Allocator) or plays the two hole cards (Texas Hold'em)")
        if construction is Construction.HOLDEM and not category.allocated and (
            self.hole_cards != 2
        ):
            raise fail(f"category {category.name}: Texas Hold'em plays exactly two hole cards")


E = TypeVar("E", bound=enum.Enum)


def _enum_option(kind: type[E], value: E | str, what: str) -> E:
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        offered = ", ".join(str(member.value) for member in kind)
        raise SpecError(f"unknown {what} {value!r} (one of: {offered})") from None
