"""Bots: players that see exactly what their seat sees and answer with a person's commands.

A bot's only input is the ``HandView`` of its seat (``boardroom.engine.view.view_for``), the
view the server sends that seat's person; its answer is an action value (``engine.actions``:
``Fold()``, ``RaiseTo(12)``, ``Draw(...)``, ``Allocate(...)``), the same value a person's
protocol command is parsed into, and in Dealer's Choice the id of the game it picks. Every bot
owns a seeded generator, so the same seed and the same views give the same answers.

Styles: ``tight`` and ``loose`` decide from the Monte Carlo pot share (``boardroom.bots.equity``)
against the live opponents, the pot odds and their position; ``random`` picks any legal action
(for tests); ``station`` checks and calls everything (the benchmark's punching bag).
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardroom.bots.equity import live_opponents, pot_share, variant_of
from boardroom.engine.actions import (
    Action,
    Allocate,
    BringIn,
    Call,
    Check,
    ChooseRuns,
    Draw,
    Fold,
    RaiseTo,
)
from boardroom.engine.allocation import best_allocation
from boardroom.engine.hand import LegalActions
from boardroom.engine.view import HandView


def _seen(view: HandView) -> set[int]:
    """Every card this seat sees: its own and everyone's public ones."""
    return {card for seat in view.seats for card in seat.cards if card is not None}


def best_discards(variant: Any, hole: Sequence[int], seen: set[int], most: int,
                  rng: np.random.Generator, samples: int = 48) -> list[int]:
    """The discards (at most ``most``) whose draws make the best mean strength in the
    variant's first category, estimated with ``samples`` draws from the unseen cards.

    Every choice of discards is dealt from the same ``samples`` random orders of the unseen
    cards (the choices are compared on the same draws, which steadies the comparison), and
    all of them are scored in one batch evaluation: a triple draw hand weighs 32 choices at
    each of its three draws, and one call per choice was nearly all of a draw game's bench."""
    from itertools import combinations

    from boardroom.engine.strengths import category_strengths

    category = variant.categories[0]
    held = np.asarray(hole, dtype=np.intp)
    unseen = np.array([card for card in range(52) if card not in seen], dtype=np.intp)
    choices: list[tuple[int, ...]] = [
        throw for count in range(most + 1) for throw in combinations(range(len(hole)), count)]
    drawn = unseen[rng.random((samples, len(unseen))).argsort(axis=1)[:, :most]]
    blocks = []
    for throw in choices:
        if not throw:
            blocks.append(held[None, :])
            continue
        kept = np.delete(held, list(throw))
        blocks.append(np.concatenate([np.broadcast_to(kept, (samples, len(kept))),
                                      drawn[:, :len(throw)]], axis=1))
    strengths = category_strengths(variant, category, np.concatenate(blocks), {})
    sizes = np.array([len(block) for block in blocks])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    # Integer sums, so each mean is exact whatever the order of the additions.
    means = np.add.reduceat(strengths.astype(np.int64), starts) / sizes
    return [hole[k] for k in choices[int(np.argmax(means))]]  # ties: the first choice


class BotError(ValueError):
    """A bot asked to decide when its seat has nothing to decide, or an unknown style."""


def fold_or_check(legal: LegalActions) -> Action:
    return Check() if legal.check else Fold()


def check_or_call(legal: LegalActions) -> Action:
    if legal.bring_in is not None:
        return BringIn()
    return Check() if legal.check else Call()


class Bot(abc.ABC):
    """A player answering views with actions; ``respond`` is all a table needs."""

    style = "bot"
    straddle_chance = 0.0  # how often it straddles when a straddle position comes to it

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def straddles(self) -> bool:
        """Whether to straddle the hand about to be dealt, its seat being in a straddle
        position the host allows: a seeded draw at the style's rate (never for the tight bot
        and the calling station, sometimes for the loose bot, half the time for the random
        one)."""
        return self.straddle_chance > 0 and float(self.rng.random()) < self.straddle_chance

    def respond(self, view: HandView) -> Action | None:
        """The action for this view, or None when the seat has nothing to decide."""
        if view.viewer is None or view.is_over:
            return None
        if view.allocating and view.viewer in view.allocation_pending:
            return self.allocate(view)
        if view.viewer in view.runs_pending:
            return self.choose_runs(view)
        if view.legal is not None and view.actor == view.viewer:
            if view.legal.draw is not None:
                return self.draw(view, view.legal.draw)
            return self.act(view, view.legal)
        return None

    def draw(self, view: HandView, most: int) -> Action:
        """The draw: the cards to throw that give the best average hand after the draw (a
        Monte Carlo over the unseen cards, every choice of discards alike)."""
        assert view.viewer is not None
        hole = [card for card in view.seat_view(view.viewer).cards if card is not None]
        thrown = best_discards(variant_of(view), hole, _seen(view), most, self.rng)
        return Draw(tuple(thrown))

    @abc.abstractmethod
    def act(self, view: HandView, legal: LegalActions) -> Action:
        """A betting decision."""

    def choose_runs(self, view: HandView) -> Action:
        """Running it more than once: a bot always agrees to run it twice (when three are
        offered too: twice, the common choice; the fewest anyone chose is dealt)."""
        return ChooseRuns(min(2, view.runs_most))

    def allocate(self, view: HandView) -> Action:
        """The Allocator games: the engine's optimiser (the same hint a person can ask for)."""
        if view.viewer is None:
            raise BotError("a spectator has no cards to allocate")
        hole = [card for card in view.seat_view(view.viewer).cards if card is not None]
        boards = {name: list(cards) for name, cards in view.boards.items()}
        chosen = best_allocation(variant_of(view), hole, boards)
        return Allocate(tuple(chosen.items()))

    def pick(self, choices: Sequence[str]) -> str:
        """Dealer's Choice: any of the offered variant ids (a seeded choice)."""
        if not choices:
            raise BotError("there is no game to pick")
        return str(choices[int(self.rng.integers(len(choices)))])


class RandomBot(Bot):
    """Any legal action: fold (when facing a bet), check or call, or a raise of any legal size;
    at the draw, a random handful of cards."""

    style = "random"
    straddle_chance = 0.5

    def draw(self, view: HandView, most: int) -> Action:
        assert view.viewer is not None
        hole = [card for card in view.seat_view(view.viewer).cards if card is not None]
        count = int(self.rng.integers(most + 1))
        chosen = [int(i) for i in self.rng.choice(len(hole), size=count, replace=False)]
        return Draw(tuple(hole[i] for i in chosen))

    def act(self, view: HandView, legal: LegalActions) -> Action:
        passive = check_or_call(legal)
        options: list[Action | None] = [passive, passive]  # None: a raise, sized once chosen
        if legal.fold:
            options.append(Fold())
        if legal.raise_min is not None and legal.raise_max is not None:
            options.append(None)
        choice = options[int(self.rng.integers(len(options)))]
        if choice is None and legal.raise_min is not None and legal.raise_max is not None:
            return RaiseTo(int(self.rng.integers(legal.raise_min, legal.raise_max + 1)))
        return passive if choice is None else choice


class CallingStation(Bot):
    """Checks or calls every bet, never raises, never folds."""

    style = "station"

    def act(self, view: HandView, legal: LegalActions) -> Action:
        return check_or_call(legal)


@dataclass(frozen=True, slots=True)
class Style:
    """How an equity bot turns its pot share into actions."""

    call_margin: float  # call when share >= pot odds * margin
    value_strength: float  # bet or raise when share * players >= this
    pot_strength: float  # bet the pot when share * players >= this
    open_strength: float  # first in with no bet: bet when share * players >= this
    bluff: float  # chance of a half-pot bet with a weak hand when checked to in position
    position_bonus: float  # strength discount in position
    straddle: float = 0.0  # chance of straddling when a straddle position comes to it


TIGHT = Style(call_margin=1.25, value_strength=1.6, pot_strength=2.2, open_strength=1.5,
              bluff=0.0, position_bonus=0.05)
LOOSE = Style(call_margin=0.95, value_strength=1.3, pot_strength=1.9, open_strength=1.2,
              bluff=0.12, position_bonus=0.15, straddle=0.3)


def in_position(view: HandView) -> bool:
    """Whether the viewer acts last among the live players after this street's first action."""
    opponents = live_opponents(view)
    order = view.clockwise
    me = view.viewer if view.viewer is not None else view.seats[0].seat
    distance = order.index(me)
    return all(order.index(seat) < distance for seat in opponents)


class EquityBot(Bot):
    """Bets, calls or folds by its Monte Carlo pot share, the pot odds and its position."""

    def __init__(self, style: str, seed: int | None = None, samples: int = 200) -> None:
        super().__init__(seed)
        self.style = style
        self.params = {"tight": TIGHT, "loose": LOOSE}[style]
        self.straddle_chance = self.params.straddle
        self.samples = samples

    def act(self, view: HandView, legal: LegalActions) -> Action:
        if legal.bring_in is not None:
            return BringIn()
        players = 1 + len(live_opponents(view))
        # Fewer samples in big multiway pots keep every decision inside its time budget.
        samples = max(min(self.samples, 48), self.samples * 3 // max(3, players))
        share = pot_share(view, samples, self.rng)
        strength = share * players
        style = self.params
        if in_position(view):
            strength += style.position_bonus
        pot = sum(p.amount for p in view.pots)
        to_call = legal.call or 0
        can_raise = legal.raise_min is not None and legal.raise_max is not None
        if can_raise and strength >= style.value_strength:
            fraction = 1.0 if strength >= style.pot_strength else 0.6
            return self._raise(view, legal, pot, to_call, fraction)
        if to_call == 0:
            bluff = style.bluff and in_position(view) and self.rng.random() < style.bluff
            if can_raise and (strength >= style.open_strength or bluff):
                return self._raise(view, legal, pot, to_call, 0.5)
            return check_or_call(legal)
        odds = to_call / (pot + to_call)
        if share >= odds * style.call_margin:
            return check_or_call(legal)
        return fold_or_check(legal)

    def _raise(self, view: HandView, legal: LegalActions, pot: int, to_call: int,
               fraction: float) -> Action:
        if legal.raise_min is None or legal.raise_max is None:
            return check_or_call(legal)
        mine = view.seat_view(view.viewer).bet if view.viewer is not None else 0
        target = mine + to_call + int(fraction * (pot + to_call))
        return RaiseTo(max(legal.raise_min, min(legal.raise_max, target)))


STYLES = ("tight", "loose", "random", "station")


def make_bot(style: str, seed: int | None = None, samples: int = 200) -> Bot:
    """A bot of ``style`` (one of ``STYLES``)."""
    if style in ("tight", "loose"):
        return EquityBot(style, seed, samples)
    if style == "random":
        return RandomBot(seed)
    if style in ("station", "calling-station"):
        return CallingStation(seed)
    raise BotError(f"unknown bot style {style!r} (one of: {', '.join(STYLES)})")
