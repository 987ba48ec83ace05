"""One hand of poker, for any variant described as data: a pure, deterministic state machine.

Create a ``Hand`` with a concrete variant (after ``with_options``), ``Stakes``, the stacks of the
dealt-in seats in clockwise order, the button, and a card source. It posts the forced bets, deals,
and stops whenever a player must decide: ``actor`` says who, ``legal_actions()`` says what (with
amounts). ``apply(seat, action)`` applies any action value (``engine.actions``: ``Fold()``,
``RaiseTo(12)``, ``Draw(...)``, ``Allocate(...)``) or raises an ``ActionError`` (a
``ValueError``) saying why not; behind it ``fold()``, ``check()``, ``call()``,
``raise_to(amount)``, ``post_bring_in()`` and ``complete()`` each have a ``verify_`` and a
``can_`` twin built on the same check. The betting round's state is a ``BettingRound``
(``engine.betting``). Between decisions everything runs by itself: bets are collected,
unmatched chips returned, streets dealt (all-in run-outs without betting), hands shown or mucked
and pots paid. Every change appends an event to ``events``, the hand's history.

The flow follows the variant's data: ``variant.streets`` (reveals, hole cards dealt down and up,
betting, who acts first, big-bet streets) and ``variant.categories``; nothing here asks which
game it is. No I/O, no clock, no global random.

Seats. A hand is built with the table seat numbers of its players (``seats``, clockwise, in the
order of ``stacks``; by default 0..n-1) and its button's seat, and it names them by those numbers
wherever it speaks to the world: in every event, every error message, ``legal_actions()``,
``seat_to_act``, ``seats_to_allocate``, ``seats_choosing_runs``, ``button``, ``clockwise``,
``winnings``, and in the views (``engine.view``). Every method that takes a player takes its
table seat: ``apply(seat, action)``, ``to_call``, ``allocate`` (and its ``verify_``/``can_``
twins), ``allocate_best``, ``suggest_allocation``, ``choose_runs``, ``public_cards``,
``category_hands``, ``ask_to_show``, and the readers of one player, ``stack``, ``bet``,
``contribution``, ``cards``, ``is_live`` and ``showed``; so do ``show_requests`` and a history's
``run_choices``. Inside, in its per-player lists (``stacks``, ``hole``, ``live``, ``bets``...)
and what is built on them (``actor``, ``order``, ``live_seats``, ``allocation_pending``,
``runs_pending``, ``results``), a player is its position 0..n-1 in the hand: the engine's own
state, read by its own modules (views, histories) through ``position(seat)`` and
``seats[position]``, never by the layers above.

Multi-board variants (RULES.md s.3) add two things, both driven by the spec. Redraws: in a game
whose streets have redraw caps the board cards are set aside after the deal, ``pool_size`` is
public, and right after a street's board cards every live seat gets
``min(K - R, pool // L)`` cards (``redraws[seat]`` counts them), all-in run-outs included.
Allocation: in a game whose categories take allocated cards, the river betting closing with two
or more players opens the allocation phase (``is_allocating``, ``allocation_pending``): each
live seat calls ``allocate(seat, {category: cards})`` in any order, or ``allocate_best(seat)``
on a timeout; ``suggest_allocation(seat)`` is the same optimiser as a hint. Once all are in,
every allocation is revealed at once and the pots are scored by points. The phase waits for the
players only with ``Hand(..., manual_allocation=True)``; by default (a table that does not offer
it) every seat gets the engine's best allocation at once, exactly as on a timeout.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress

from boardroom.cards import Card, RandomSource
from boardroom.engine import events as ev
from boardroom.engine.actions import (
    Action,
    Allocate,
    AllocateBest,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    ChooseRuns,
    Complete,
    Draw,
    Fold,
    RaiseTo,
)
from boardroom.engine.allocation import Allocation, best_allocation, check_allocation
from boardroom.engine.betting import BettingRound, Stakes, StakesError, street_bet
from boardroom.engine.dealing import CardSource, Deck
from boardroom.engine.errors import ActionError, NotYourTurnError
from boardroom.engine.pots import side_pots, uncalled_bet
from boardroom.engine.redraws import redraw_share, starting_pool
from boardroom.engine.runout import RunoutSpot
from boardroom.engine.runs import Run, most_runs, run_needs, run_pool, run_shares, runs_refusal
from boardroom.engine.showdown import CategoryHands, Pot, PotResult, settle_pots
from boardroom.engine.straddle import Straddle, straddle_amount, straddle_seat
from boardroom.engine.stud import bring_in_seat, showing_key
from boardroom.evaluation import HandValue, Ranking, describe
from boardroom.evaluation.hands import best_strength
from boardroom.evaluation.scalar import omaha_high_strength
from boardroom.rules.scoring import category_hand
from boardroom.rules.spec import (
    BettingStructure,
    Construction,
    FirstToAct,
    ForcedBets,
    Split,
    Street,
    Variant,
)

Seat = int
_FIXED_LIMIT = BettingStructure.FIXED_LIMIT
_POT_LIMIT = BettingStructure.POT_LIMIT


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do. Amounts are chips; raise bounds are totals ("raise to")."""

    seat: Seat
    fold: bool
    check: bool
    call: int | None  # chips a call adds (less than the bet when it puts the seat all-in)
    raise_min: int | None  # smallest total bet/raise/completion, None: no raise allowed
    raise_max: int | None
    bring_in: int | None  # stud: the bring-in this seat may post instead of completing
    is_bet: bool  # True when nothing has been bet this round (a bet, not a raise)
    draw: int | None = None  # the draw: the most cards this seat may throw (0: stand pat)

    # Frozen and made of immutable values: a copy is the value itself. Said outright because
    # mypyc's build of this class cannot be rebuilt field by field as copy does by default.
    def __copy__(self) -> LegalActions:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> LegalActions:
        return self


# Legal actions are frozen values that recur (the same seat, the same call, the same limits),
# so each is built once and shared: a dict look-up costs less than a frozen dataclass's
# construction, which is asked at every decision. Bounded: cleared when full. An entry (its
# key, its value) is about 330 bytes: 4,096 of them, filled within two minutes of 100 tables'
# play, were about 13 KiB a table; a decision asks for its value several times within a few
# milliseconds (the turn, each audience's view), which 1,024 entries still serve.
_LEGAL_VALUES: dict[tuple[object, ...], LegalActions] = {}
_LEGAL_VALUES_MAX = 1024


def _legal_value(seat: Seat, fold: bool, check: bool, call: int | None, raise_min: int | None,
                 raise_max: int | None, bring_in: int | None, is_bet: bool,
                 draw: int | None) -> LegalActions:
    key = (seat, fold, check, call, raise_min, raise_max, bring_in, is_bet, draw)
    found = _LEGAL_VALUES.get(key)
    if found is None:
        if len(_LEGAL_VALUES) >= _LEGAL_VALUES_MAX:
            _LEGAL_VALUES.clear()
        found = _LEGAL_VALUES[key] = LegalActions(seat, fold, check, call, raise_min, raise_max,
                                                  bring_in, is_bet, draw)
    return found


@functools.lru_cache(maxsize=1024)  # about 290 bytes each; built again in about a microsecond
def _strength_value(ranking: Ranking, strength: int) -> HandValue:
    """A settling value (the strength and its words, no cards): frozen, so one value serves
    every showdown of that strength, and its description is written once."""
    return HandValue(ranking, strength, (), describe(ranking, strength))


@dataclass(frozen=True, slots=True)
class RunDeal:
    """What one run of the rest of a hand dealt (engine.runs), and each live seat's hands."""

    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    dealt: tuple[tuple[str, tuple[Card, ...]], ...]
    cards: tuple[tuple[Seat, tuple[Card, ...]], ...]
    burns: tuple[Card | None, ...]
    hands: dict[Seat, CategoryHands]
    deals: tuple[ev.Event, ...] = ()


@functools.cache
def _rings(count: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For a hand of ``count`` players: per position, the other positions in order, and the
    positions clockwise from the next one round to itself."""
    return (tuple(tuple(o for o in range(count) if o != s) for s in range(count)),
            tuple(tuple((s + 1 + k) % count for k in range(count)) for s in range(count)))


@functools.lru_cache(maxsize=256)
def deal_order(button: int, count: int) -> tuple[Seat, ...]:
    """The hand's positions clockwise from the first left of the button's: the dealing order
    (PHH's p1, p2, ...) and the odd-chip order."""
    return tuple((button + 1 + k) % count for k in range(count))


def clockwise(seats: Sequence[Seat], button: Seat) -> tuple[Seat, ...]:
    """Table ``seats`` (clockwise) in the dealing order: from the button's left, the button
    last."""
    start = list(seats).index(button) + 1
    return (*seats[start:], *seats[:start])


class Hand:
    """A hand in progress or finished; see the module docstring."""

    def __new__(cls, *args: object, **kwargs: object) -> Hand:
        """A bare instance, ``__init__`` not run: what ``copy.copy`` and ``copy.deepcopy``
        (``_copy``, a table's history) start from. Compiled by mypyc, a class without its own
        ``__new__`` runs ``__init__`` inside ``__new__``, which a copy cannot call."""
        return super().__new__(cls)

    def __init__(
        self,
        variant: Variant,
        stakes: Stakes,
        stacks: Sequence[int],
        button: Seat,
        *,
        cards: CardSource | None = None,
        rng: RandomSource | None = None,
        show_requests: Collection[Seat] = (),
        manual_allocation: bool = False,
        dead_small_blind: bool = False,
        big_blind_ante: bool = False,
        seats: Sequence[Seat] | None = None,
        straddle: Straddle | str | None = None,
        runs_offered: bool = False,
        run_choices: Mapping[Seat, int] | None = None,
        run_timeouts: Collection[Seat] = (),
    ) -> None:
        count = len(stacks)
        # The table seat of each position; the events and errors name these (module docstring).
        self.seats: tuple[Seat, ...] = tuple(seats) if seats is not None else tuple(range(count))
        if seats is not None and (len(self.seats) != count or len(set(self.seats)) != count
                                  or not all(isinstance(seat, int) and not isinstance(seat, bool)
                                             for seat in self.seats)):
            raise StakesError(f"a hand of {count} players needs {count} different seat "
                              f"numbers, not {list(self.seats)!r:.60}")
        self._positions = {seat: position for position, seat in enumerate(self.seats)}
        self._renamed = self.seats != tuple(range(count))
        if not 2 <= count <= variant.max_players:
            raise StakesError(f"{variant.name} with {variant.hole_cards} hole cards deals 2 to "
                              f"{variant.max_players} players, not {count}")
        for seat, stack in enumerate(stacks):
            if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
                raise StakesError(f"{self._who(seat)} has a stack of {stack!r}; stacks are whole "
                                  f"numbers of chips above 0")
        if not isinstance(button, int) or button not in self._positions:
            raise StakesError(f"the button must be one of the seats "
                              f"{', '.join(map(str, self.seats))}, not {button!r:.12}")
        stakes.check_for(variant)
        if (dead_small_blind or big_blind_ante) and variant.forced_bets is not ForcedBets.BLINDS:
            raise StakesError(f"{variant.name} has no blinds: no dead small blind or big-blind "
                              f"ante")
        if dead_small_blind and count < 3:
            raise StakesError("heads-up the button posts the small blind: it is never dead")
        kind: Straddle | None = None
        if straddle is not None:
            try:
                kind = Straddle(straddle)
            except ValueError:
                raise StakesError(f"a straddle is 'utg' or 'button', not {straddle!r}") from None
            if variant.forced_bets is not ForcedBets.BLINDS:
                raise StakesError(f"{variant.name} has no blinds: no straddle")
            if dead_small_blind:
                raise StakesError("a hand with a dead small blind has no straddle")
        # Tournaments (TDA): a dead small blind (nobody posts it; the big blind is left of the
        # button) and the big-blind ante (the big blind alone posts the ante, after its blind).
        self.dead_small_blind = dead_small_blind
        self.big_blind_ante = big_blind_ante
        self.variant = variant
        self.stakes = stakes
        self.button: Seat = button  # the button's table seat
        self._button = self._positions[button]
        self.starting_stacks = tuple(stacks)
        self.seat_count = count
        self.order: tuple[Seat, ...] = deal_order(self._button, count)
        # Per position, the other positions in order, and every position clockwise after it
        # (itself last): the loops of every decision, without arithmetic (``_rings``).
        self._others, self._after = _rings(count)
        self._betting = variant.betting  # read at every decision
        self._raise_cap = variant.raise_cap  # a per-position list's items in ``order``
        # The straddle (engine.straddle): its kind, and the seat that posts it (None heads-up).
        self.straddle = kind
        self.straddle_seat: Seat | None = straddle_seat(kind, self.order, self._button)
        self.stacks = list(stacks)
        self.bets = [0] * count
        self.contributed = [0] * count
        self.live = [True] * count
        self.hole: list[list[Card]] = [[] for _ in range(count)]
        self.up: list[list[bool]] = [[] for _ in range(count)]
        self.boards: dict[str, list[Card]] = {board.name: [] for board in variant.boards}
        self.burned: list[Card | None] = []
        self.events: list[ev.Event] = []
        self.street_index = -1
        self.actor: Seat | None = None
        self.is_over = False
        self.shown: dict[Seat, bool] = {}  # seat -> shown (True) or mucked (False)
        self.results: tuple[PotResult, ...] = ()
        self.show_requests = {self.seats[self.position(seat)] for seat in show_requests}
        self._cards: CardSource = cards if cards is not None else Deck(rng=rng)
        # The betting round (``engine.betting``), and the last one played: its last aggressor
        # (else its first to act) shows first (RULES.md s.4).
        self._round = BettingRound(current_bet=0, full_raise=0, raise_count=0,
                                   acted=[False] * count, needs=[False] * count,
                                   opener=self.order[0])  # nobody to act before the deal
        self._last_round: BettingRound | None = None
        self._street: Street = variant.streets[0]
        # Redraws and allocation (multi-board variants).
        self.redraws = [0] * count  # redraw cards each seat received this hand
        self.pool_size: int | None = None  # public; None in games without redraws
        self.is_allocating = False
        self.allocations: dict[Seat, Allocation] = {}  # committed (hidden until all are in)
        self.allocations_revealed = False
        # False: every seat gets the engine's best allocation at once, as on a timeout (for a
        # table that does not offer the allocation phase yet); True: seats call ``allocate``.
        self.manual_allocation = manual_allocation
        # The draw (draw games): who is still to draw on this street, in turn.
        self.is_drawing = False
        self._to_draw: list[Seat] = []
        # The all-in run-out, street by street, for the equity display (engine.runout).
        self.runout: list[RunoutSpot] = []
        # Running it more than once (engine.runs): offered once every player left is all-in
        # with cards to come (``runs_offered``: the room allows it). ``run_choices`` (a history's)
        # answers the offer at once, as recorded, with ``run_timeouts`` the seats whose clock ran
        # out.
        self.runs_offered = runs_offered
        self.is_choosing_runs = False
        self.runs_most = 1
        self.run_choices: dict[Seat, int] = {}
        self.run_count = 1
        self.runs: tuple[Run, ...] = ()  # every run once dealt (empty for a hand run once)
        self._runs_asked = False
        self._recorded_runs = {self.position(seat): runs for seat, runs in run_choices.items()} \
            if run_choices is not None else None
        self._recorded_timeouts = {self.position(seat) for seat in run_timeouts}
        self._branch: Hand | None = None  # the hand where the runs part
        self._run_only = False  # a later run's copy: deals its cards, settles nothing
        # The decision asked about, worked out once: every change records an event, which
        # moves ``_version`` on, so a cached answer of the same version is still the answer.
        self._version = 0
        self._legal: LegalActions | None = None
        self._legal_version = -1  # the version ``_legal`` answers
        self._bounds: tuple[int, Seat, tuple[int, int] | str] | None = None
        self._start()

    # -- reading the state ----------------------------------------------------------------

    @property
    def street(self) -> Street | None:
        """The current street (None before the deal and once the hand is over)."""
        return None if self.is_over or self.street_index < 0 else self._street

    @property
    def chips_in_play(self) -> int:
        """Chips in the pots and on the table (0 once the pots are paid)."""
        return 0 if self.is_over else sum(self.contributed)

    @property
    def live_seats(self) -> tuple[Seat, ...]:
        live = self.live  # a plain loop: mypyc's build runs it natively (boardroom.native)
        return tuple([seat for seat in self.order if live[seat]])

    def _others_with_chips(self) -> bool:
        """Whether two or more live players have chips behind (betting can still happen)."""
        found = False
        for alive, stack in zip(self.live, self.stacks, strict=True):
            if alive and stack > 0:
                if found:
                    return True
                found = True
        return False

    @property
    def current_bet(self) -> int:
        """The bet to match this round (the big blind preflop, even when posted short)."""
        return self._round.current_bet

    def to_call(self, seat: Seat) -> int:
        """Chips the player at table seat ``seat`` must add to match the current bet (before
        the all-in cap)."""
        return self._round.to_call(self.position(seat), self.bets)

    # -- one player, by table seat (the lists above are by position: module docstring) ------

    def stack(self, seat: Seat) -> int:
        """The chips behind of the player at table seat ``seat``."""
        return self.stacks[self.position(seat)]

    def bet(self, seat: Seat) -> int:
        """The chips ``seat`` has bet this betting round."""
        return self.bets[self.position(seat)]

    def contribution(self, seat: Seat) -> int:
        """The chips ``seat`` has put in this hand (antes, blinds, bets; less what came back
        uncalled), paid out or not."""
        return self.contributed[self.position(seat)]

    def cards(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` holds (every one of them: private)."""
        return tuple(self.hole[self.position(seat)])

    def is_live(self, seat: Seat) -> bool:
        """Whether ``seat`` still has a hand (has not folded)."""
        return self.live[self.position(seat)]

    def showed(self, seat: Seat) -> bool | None:
        """At the showdown: True if ``seat`` showed its hand, False if it mucked, None
        without a showdown (yet) or when it had no hand there."""
        return self.shown.get(self.position(seat))

    @property
    def winnings(self) -> dict[Seat, int]:
        """The chips each table seat took from the pots (empty until the hand is over)."""
        won: dict[Seat, int] = {}
        for result in self.results:
            for position, chips in result.shares.items():
                seat = self.seats[position]
                won[seat] = won.get(seat, 0) + chips
        return won

    @property
    def clockwise(self) -> tuple[Seat, ...]:
        """The table seats in the dealing order: from the button's left, the button last."""
        return clockwise(self.seats, self.button)

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand (bets on the table included)."""
        return side_pots(self.contributed, self.live)

    @property
    def allocation_pending(self) -> tuple[Seat, ...]:
        """Seats that still have to allocate (empty outside the allocation phase)."""
        if not self.is_allocating:
            return ()
        return tuple(seat for seat in self.live_seats if seat not in self.allocations)

    def public_cards(self, seat: Seat) -> set[Card]:
        """The cards of table seat ``seat``'s hand everybody may see: up cards, and once
        shown, the hand (in the Allocator games only its allocated cards: discards are never
        shown)."""
        return self._public_cards(self.position(seat))

    def _public_cards(self, seat: int) -> set[Card]:
        cards = {card for card, up in zip(self.hole[seat], self.up[seat], strict=True) if up}
        if self.shown.get(seat):
            if seat in self.allocations and self.allocations_revealed:
                cards.update(card for part in self.allocations[seat].values() for card in part)
            else:
                cards.update(self.hole[seat])
        return cards

    # -- the actions ------------------------------------------------------------------------

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do; None when nobody is to act."""
        seat = self.actor
        if seat is None:
            return None
        if self._legal_version == self._version:
            return self._legal
        legal = self._legal_now(seat)
        self._legal = legal
        self._legal_version = self._version
        return legal

    def _legal_now(self, seat: Seat) -> LegalActions:
        if self.is_drawing:
            return _legal_value(self.seats[seat], False, False, None, None, None, None, False,
                                self._street.draw)
        # The raise bounds, as ``BettingRound.bounds`` works them out, inlined: asked at every
        # decision. A refusal (its words) is only written when asked for (``raise_refusal``,
        # ``verify_raise_to``); here it is just "no raise".
        round_ = self._round
        stacks, bets = self.stacks, self.bets
        current = round_.current_bet
        bet = bets[seat]
        owed = current - bet
        stack = stacks[seat]
        low = high = None
        cap = self._raise_cap
        if (stack > owed if owed > 0 else stack > 0) and (
                cap is None or round_.raise_count < cap) and not round_.acted[seat]:
            live = self.live
            for other in self._others[seat]:
                if live[other] and stacks[other] + bets[other] > current:
                    completion = round_.completion_to
                    low = completion if completion is not None else current + round_.full_raise
                    all_in_to = stack + bet
                    betting = self._betting
                    if betting is _FIXED_LIMIT:
                        high = low
                    elif betting is _POT_LIMIT:
                        high = current + sum(self.contributed) + (owed if owed > 0 else 0)
                        if high < low:
                            high = low
                    else:
                        high = all_in_to
                    if low > all_in_to:
                        low = all_in_to
                    if high > all_in_to:
                        high = all_in_to
                    break
        if round_.bring_in_seat == seat:
            bring_in = self.stakes.bring_in
            return _legal_value(self.seats[seat], False, False, None, low, high,
                                bring_in if bring_in < stack else stack, current == 0, None)
        if owed > 0:  # fold, or call (at most all-in)
            return _legal_value(self.seats[seat], True, False, owed if owed < stack else stack,
                                low, high, None, current == 0, None)
        return _legal_value(self.seats[seat], False, True, None, low, high, None, current == 0,
                            None)

    def raise_refusal(self) -> str | None:
        """Why the seat to act may not bet or raise, or None when it may."""
        if self.actor is None:
            return "nobody is to act"
        if self.is_drawing:
            return "the draw comes before the betting"
        bounds = self._raise_bounds(self.actor)
        return bounds if isinstance(bounds, str) else None

    def _asked(self) -> LegalActions | None:
        """The legal actions already worked out for this decision, if they were asked (an
        action checked against them needs no second look at the round)."""
        return self._legal if self._legal_version == self._version else None

    def verify_fold(self) -> Seat:
        asked = self._asked()
        if asked is not None and asked.fold:
            return self._positions[asked.seat]
        seat = self._verify_turn("fold")
        if self._round.bring_in_seat == seat:
            raise ActionError(f"{self._who(seat)} must post the bring-in or complete, not fold")
        if self._round.to_call(seat, self.bets) == 0:
            raise ActionError(f"{self._who(seat)} cannot fold: nothing to call, check instead")
        return seat

    def verify_check(self) -> Seat:
        asked = self._asked()
        if asked is not None and asked.check:
            return self._positions[asked.seat]
        seat = self._verify_turn("check")
        if self._round.bring_in_seat == seat:
            raise ActionError(f"{self._who(seat)} must post the bring-in or complete, not check")
        owed = self._round.to_call(seat, self.bets)
        if owed:
            raise ActionError(f"{self._who(seat)} cannot check facing a bet of {self.current_bet} "
                              f"(call {min(owed, self.stacks[seat])})")
        return seat

    def verify_call(self) -> Seat:
        asked = self._asked()
        if asked is not None and asked.call is not None:
            return self._positions[asked.seat]
        seat = self._verify_turn("call")
        if self._round.bring_in_seat == seat:
            raise ActionError(f"{self._who(seat)} must post the bring-in or complete, not call")
        if not self._round.to_call(seat, self.bets):
            raise ActionError(f"{self._who(seat)} cannot call: there is no bet to call, check "
                              f"instead")
        return seat

    def verify_post_bring_in(self) -> Seat:
        asked = self._asked()
        if asked is not None and asked.bring_in is not None:
            return self._positions[asked.seat]
        seat = self._verify_turn("post the bring-in")
        if self._round.bring_in_seat != seat:
            raise ActionError(f"{self._who(seat)} has no bring-in to post")
        return seat

    def verify_raise_to(self, amount: int) -> Seat:
        asked = self._asked()
        if (asked is not None and asked.raise_min is not None and asked.raise_max is not None
                and amount.__class__ is int and asked.raise_min <= amount <= asked.raise_max):
            return self._positions[asked.seat]
        seat = self._verify_turn("bet or raise")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ActionError(f"a bet is a whole number of chips, not {amount!r}")
        bounds = self._raise_bounds(seat)
        if isinstance(bounds, str):
            raise ActionError(bounds)
        low, high = bounds
        word = self._round.raise_word
        if amount < low:
            raise ActionError(f"{word} to {amount} is below the minimum of {low}")
        if amount > high:
            if self.variant.betting is BettingStructure.POT_LIMIT and high < self._all_in_to(seat):
                raise ActionError(f"{word} to {amount} is above the pot limit of {high}")
            if amount > self._all_in_to(seat):
                raise ActionError(f"{word} to {amount} is more than {self._who(seat)} has "
                                  f"(all-in is {self._all_in_to(seat)})")
            raise ActionError(f"{word} to {amount} is above the maximum of {high}")
        return seat

    def can_fold(self) -> bool:
        return self._can(self.verify_fold)

    def can_check(self) -> bool:
        return self._can(self.verify_check)

    def can_call(self) -> bool:
        return self._can(self.verify_call)

    def can_post_bring_in(self) -> bool:
        return self._can(self.verify_post_bring_in)

    def can_raise_to(self, amount: int) -> bool:
        try:
            self.verify_raise_to(amount)
        except ActionError:
            return False
        return True

    def fold(self) -> None:
        seat = self.verify_fold()
        self.live[seat] = False
        self._round.needs[seat] = False  # self._round.folded(seat)
        self._record(ev.Folded(seat))
        if self.pool_size is not None:
            # A folded hand goes back to the pool (RULES.md s.3).
            self._cards.recycle(self.hole[seat])
            self.pool_size += len(self.hole[seat])
            self._record(ev.PoolChanged(self.pool_size))
        if sum(self.live) == 1:
            self._end_round()
        else:
            self._next_actor(seat)

    def check(self) -> None:
        seat = self.verify_check()
        round_ = self._round
        round_.acted[seat] = True  # round_.passed(seat), inlined: at every decision
        round_.needs[seat] = False
        self._record(ev.Checked(seat))
        self._next_actor(seat)

    def call(self) -> None:
        asked = self._legal if self._legal_version == self._version else None
        if asked is not None and asked.call is not None:
            # The call the legal actions of this decision offer: min(to call, stack).
            seat, chips = self._positions[asked.seat], asked.call
        else:
            seat = self.verify_call()
            chips = min(self._round.to_call(seat, self.bets), self.stacks[seat])
        self.stacks[seat] -= chips  # self._put_in, inlined
        self.bets[seat] += chips
        self.contributed[seat] += chips
        round_ = self._round
        round_.acted[seat] = True  # round_.passed(seat)
        round_.needs[seat] = False
        self._record(ev.Called(seat, chips))
        self._next_actor(seat)

    def post_bring_in(self) -> None:
        seat = self.verify_post_bring_in()
        chips = min(self.stakes.bring_in, self.stacks[seat])
        self._put_in(seat, chips)
        self._round.brought_in(seat, self.bets[seat])
        self._record(ev.BringInPosted(seat, chips))
        self._next_actor(seat)

    def raise_to(self, amount: int) -> None:
        """Bet, raise or (stud) complete so that this seat's bet this round totals ``amount``."""
        seat = self.verify_raise_to(amount)
        chips = amount - self.bets[seat]
        self.stacks[seat] -= chips  # self._put_in, inlined
        self.bets[seat] = amount
        self.contributed[seat] += chips
        # ``BettingRound.raised_to``, inlined (asked at every bet and raise): a full bet or
        # raise reopens the betting for everybody; every live seat with chips is to decide
        # again but the raiser (built in C: ``alive and stack > 0`` for every seat).
        round_ = self._round
        increment = amount - round_.current_bet
        completion = round_.completion_to
        full = amount >= completion if completion is not None else increment >= round_.full_raise
        if full:
            if increment > round_.full_raise:
                round_.full_raise = increment
            round_.acted = [False] * self.seat_count
        round_.completion_to = None
        round_.bring_in_seat = None
        round_.current_bet = amount
        round_.raise_count += 1
        round_.aggressor = seat
        round_.acted[seat] = True
        stacks = self.stacks
        needs = round_.needs = [alive and stacks[other] > 0
                                for other, alive in enumerate(self.live)]
        needs[seat] = False
        self._record(ev.RaisedTo(seat, amount, full))
        self._next_actor(seat)

    def verify_complete(self) -> tuple[Seat, int]:
        """Stud: the seat to act and the total it completes to (the full small bet, or all-in
        for less), if a completion is what it may do now."""
        seat = self._verify_turn("complete")
        if self._round.completion_to is None:
            raise ActionError(f"{self._who(seat)} has no bring-in to complete"
                              if self.variant.is_stud
                              else f"{self.variant.name} has no completion: bet or raise")
        bounds = self._raise_bounds(seat)
        if isinstance(bounds, str):
            raise ActionError(bounds)
        return seat, bounds[0]

    def can_complete(self) -> bool:
        return self._can(self.verify_complete)

    def complete(self) -> None:
        """Stud: bring the bet up to the full small bet (RULES.md s.5)."""
        self.raise_to(self.verify_complete()[1])

    # -- one action, as a value -------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        """Apply the action of the player at table seat ``seat`` (``engine.actions``): a
        betting or draw action of the seat to act, an allocation of a seat still to allocate.
        Raises ``ActionError`` saying why not (``NotYourTurnError`` when another seat is to
        act); the hand is then unchanged."""
        position = self._positions.get(seat) if isinstance(seat, int) else None
        if position is None:
            raise ActionError(f"seat {seat!r:.12} is not in this hand")
        match action:
            case Allocate():
                self.allocate(seat, action.mapping())
                return
            case AllocateBest():
                self.allocate_best(seat)
                return
            case ChooseRuns(runs, automatic):
                self.choose_runs(seat, runs, automatic=automatic)
                return
        if not hasattr(action, "name") or isinstance(action, str):
            raise ActionError(f"not an action: {action!r:.40}")
        if self.actor is not None and position != self.actor:
            raise NotYourTurnError(f"seat {seat} cannot {action.name.replace('_', ' ')} now: "
                                   f"{self._who(self.actor)} is to act")
        match action:
            case Fold():
                self.fold()
            case Check():
                self.check()
            case Call():
                self.call()
            case CheckOrCall():
                self.check() if self.can_check() else self.call()
            case RaiseTo(amount):
                self.raise_to(amount)
            case BringIn():
                self.post_bring_in()
            case Complete():
                self.complete()
            case Draw(discards):
                self.draw(discards)
            case _:
                raise ActionError(f"not an action: {action!r:.40}")

    # -- the players' table seats (module docstring) ------------------------------------------

    def position(self, seat: Seat) -> int:
        """The position in this hand of the player at table seat ``seat``."""
        position = self._positions.get(seat) if isinstance(seat, int) else None
        if position is None:
            raise ActionError(f"seat {seat!r:.12} is not in this hand")
        return position

    @property
    def seat_to_act(self) -> Seat | None:
        """The table seat of the player to act (None: nobody, e.g. while allocating)."""
        return None if self.actor is None else self.seats[self.actor]

    @property
    def seats_to_allocate(self) -> tuple[Seat, ...]:
        """The table seats still to allocate (empty outside the allocation phase)."""
        return tuple(self.seats[position] for position in self.allocation_pending)

    def _who(self, position: int) -> str:
        """A player as the hand's messages name it: ``seat N``, its table seat."""
        if isinstance(position, int) and 0 <= position < len(self.seats):
            return f"seat {self.seats[position]}"
        return f"seat {position!r:.12}"

    def _record(self, event: ev.Event) -> None:
        """Append ``event`` to the hand's events, its players named by their table seats."""
        self._version += 1
        self.events.append(ev.renamed(event, self.seats) if self._renamed else event)

    # -- the draw (draw games) ------------------------------------------------------------

    def verify_draw(self, discards: Sequence[Card]) -> Seat:
        """The seat to draw, if it may throw ``discards`` (cards it holds, at most the
        street's draw, none to stand pat); else an ``ActionError`` naming no card."""
        asked = self._legal if self._legal_version == self._version else None
        if asked is not None and asked.draw is not None:
            # This decision's legal actions say the seat is to draw, and how many it may throw.
            seat, limit = self._positions[asked.seat], asked.draw
        else:
            if not self.is_drawing and self.actor is not None:
                raise ActionError(f"{self._who(self.actor)} cannot draw now: "
                                  + ("the draw is over" if self.variant.is_draw
                                     else f"{self.variant.name} has no draw"))
            seat = self._verify_turn("draw")
            limit = self._street.draw or 0
        # A list or tuple of plain ints is checked without the ABC's isinstance, and in loops
        # rather than all()/any() over generators: asked at every draw.
        kind = discards.__class__
        if kind is not list and kind is not tuple and (
                not isinstance(discards, Sequence) or isinstance(discards, str)):
            raise ActionError("a draw is a list of the cards to throw (card numbers)")
        for card in discards:
            if card.__class__ is not int and (not isinstance(card, int)
                                              or isinstance(card, bool)):
                raise ActionError("a draw is a list of the cards to throw (card numbers)")
        count = len(discards)
        if count > limit:
            raise ActionError(f"{self._who(seat)} may throw at most {limit} cards, not "
                              f"{count}")
        if count:
            thrown = set(discards)
            if len(thrown) != count:
                raise ActionError(f"{self._who(seat)} names a card twice in its draw")
            if not thrown.issubset(self.hole[seat]):
                raise ActionError(f"{self._who(seat)} may throw only cards it holds")
        return seat

    def can_draw(self, discards: Sequence[Card]) -> bool:
        try:
            self.verify_draw(discards)
        except ActionError:
            return False
        return True

    def draw(self, discards: Sequence[Card]) -> None:
        """The seat to draw throws ``discards`` and is dealt as many (none: stands pat)."""
        seat = self.verify_draw(discards)
        thrown = tuple(discards)
        self._record(ev.Discarded(seat, thrown))
        if thrown:
            dealt = self._cards.draw(seat, len(thrown))
            self._cards.discard(thrown)  # after the deal: never back to the same player
            self.hole[seat] = [card for card in self.hole[seat] if card not in thrown]
            self.up[seat] = [False] * len(self.hole[seat])
            self._deal_hole(seat, dealt, False)
        self._to_draw.remove(seat)
        self._next_drawer()

    def stand_pat(self) -> None:
        self.draw(())

    def _begin_draw(self) -> None:
        """RULES (the draw): each live player in turn from the button's left, all-in or not."""
        self.is_drawing = True
        self._to_draw = list(self.live_seats)
        self._next_drawer()

    def _next_drawer(self) -> None:
        if self._to_draw:
            self.actor = self._to_draw[0]
            return
        self.is_drawing = False
        self.actor = None
        if self._street.betting:
            self._begin_round(self._street)
        else:
            self._end_round()

    # -- the allocation phase (Allocator games, RULES.md s.3) ------------------------------

    def verify_allocate(self, seat: Seat,
                        allocation: Mapping[str, Sequence[Card] | str]) -> Allocation:
        """The checked allocation of table seat ``seat``, or an ``ActionError`` saying why not
        (naming no card)."""
        seat = self.position(seat)
        if not self.is_allocating:
            raise ActionError("there is no allocation to make now" if self.variant.has_allocation
                              else f"{self.variant.name} has no allocation phase")
        if not self.live[seat]:
            raise ActionError(f"{self._who(seat)} has no hand to allocate")
        if seat in self.allocations:
            raise ActionError(f"{self._who(seat)} has already committed its allocation")
        try:
            return check_allocation(self.variant, self.hole[seat], allocation)
        except ValueError as error:
            raise ActionError(str(error)) from None

    def can_allocate(self, seat: Seat, allocation: Mapping[str, Sequence[Card] | str]) -> bool:
        try:
            self.verify_allocate(seat, allocation)
        except ActionError:
            return False
        return True

    def allocate(self, seat: Seat, allocation: Mapping[str, Sequence[Card] | str],
                 *, automatic: bool = False) -> None:
        """Commit table seat ``seat``'s allocation: category name -> its cards (ints or
        notation)."""
        checked = self.verify_allocate(seat, allocation)
        seat = self._positions[seat]
        self.allocations[seat] = checked
        self._record(ev.AllocationCommitted(seat, automatic))
        if not self.allocation_pending:
            self.is_allocating = False
            self.allocations_revealed = True
            self._record(ev.AllocationsRevealed(tuple(
                (s, tuple(self.allocations[s].items())) for s in self.live_seats)))
            self._showdown()

    def suggest_allocation(self, seat: Seat) -> Allocation:
        """The engine's best allocation of table seat ``seat``'s cards now (deterministic; a
        hint)."""
        seat = self.position(seat)
        if not self.hole[seat]:
            raise ActionError(f"{self._who(seat)} has no cards to allocate")
        if not self.variant.has_allocation:
            raise ActionError(f"{self.variant.name} has no allocation phase")
        return best_allocation(self.variant, self.hole[seat], self.boards)

    def allocate_best(self, seat: Seat) -> None:
        """A timeout: commit the engine's best allocation for table seat ``seat`` (RULES.md
        s.3)."""
        if not self.is_allocating or seat not in self.seats_to_allocate:
            self.verify_allocate(seat, {})  # raises the precise reason
        self.allocate(seat, self.suggest_allocation(seat), automatic=True)

    # -- running it more than once (engine.runs) -------------------------------------------

    @property
    def runs_pending(self) -> tuple[Seat, ...]:
        """Seats still to answer the offer to run it more than once (empty without one)."""
        if not self.is_choosing_runs:
            return ()
        return tuple(seat for seat in self.live_seats if seat not in self.run_choices)

    @property
    def seats_choosing_runs(self) -> tuple[Seat, ...]:
        """The table seats still to answer the offer to run it more than once."""
        return tuple(self.seats[position] for position in self.runs_pending)

    def verify_choose_runs(self, seat: Seat, runs: int) -> None:
        """An ``ActionError`` saying why table seat ``seat`` may not answer ``runs`` now, if
        it may not."""
        seat = self.position(seat)
        if not self.is_choosing_runs:
            raise ActionError("nobody is offered to run it more than once now")
        if not self.live[seat]:
            raise ActionError(f"{self._who(seat)} has no hand in the pot")
        if seat in self.run_choices:
            raise ActionError(f"{self._who(seat)} has already answered")
        if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= self.runs_most:
            raise ActionError(f"{self._who(seat)} may run it 1 to {self.runs_most} times, "
                              f"not {runs!r:.20}")

    def choose_runs(self, seat: Seat, runs: int, *, automatic: bool = False) -> None:
        """Table seat ``seat`` answers the offer: 1 (once), 2 or 3. Once every seat has
        answered, the rest is dealt the fewest times anyone chose."""
        self.verify_choose_runs(seat, runs)
        seat = self._positions[seat]
        self.run_choices[seat] = runs
        self._record(ev.RunsChosen(seat, runs, automatic))
        if self.runs_pending:
            return
        self.is_choosing_runs = False
        self.run_count = min(self.run_choices.values())
        self._record(ev.RunsAgreed(self.run_count))
        if self.run_count > 1:
            if self.pool_size is not None:  # each run redraws from its share of the pool
                self.pool_size = run_pool(self.pool_size, self._run_board_cards(),
                                          self.run_count)
                self._record(ev.PoolChanged(self.pool_size))
            self._branch = self._copy()
        self._deal_rest()

    def runs_timed_out(self) -> None:
        """The offer's clock ran out: every seat still to answer runs it once."""
        for seat in self.seats_choosing_runs:
            if self.is_choosing_runs:
                self.choose_runs(seat, 1, automatic=True)

    def _copy(self) -> Hand:
        """A deep copy of the hand that deals from the same card source (its rules and
        stakes are frozen data, shared; its events are not copied)."""
        memo: dict[int, object] = {id(self._cards): self._cards, id(self.variant): self.variant,
                                   id(self.stakes): self.stakes, id(self.events): []}
        return copy.deepcopy(self, memo)

    def _deal_rest(self) -> None:
        self._note_runout()
        self._begin_street(self.street_index + 1)

    def _offer_runs(self) -> bool:
        """Offer the runs if every player left is all-in with cards to come and the cards
        allow two runs (else say why); True while the hand waits for the answers."""
        if not self.runs_offered or self._runs_asked or self._others_with_chips():
            return False
        self._runs_asked = True
        variant, live = self.variant, self.live_seats
        refusal = runs_refusal(variant)
        if refusal is None:
            most, refusal = most_runs(
                variant, variant.streets[self.street_index + 1:],
                boards_dealt=sum(len(cards) for cards in self.boards.values()),
                cards_used=sum(map(len, self.hole)) + sum(map(len, self.boards.values()))
                + len(self.burned), pool=self.pool_size)
            if most >= 2:
                self.runs_most = most
                self.is_choosing_runs = True
                self._record(ev.RunsOffered(live, most))
                if self._recorded_runs is not None:
                    for seat in live:
                        self.choose_runs(self.seats[seat], self._recorded_runs.get(seat, 1),
                                         automatic=seat in self._recorded_timeouts)
                return True
        self._record(ev.RunsUnavailable(refusal))
        return False

    def _deal_other_runs(self) -> list[RunDeal]:
        """Runs 2.. of the rest, each from the cards after the run before (``RunDealt``)."""
        branch = self._branch
        assert branch is not None
        board_cards = branch._run_board_cards()
        dealt = []
        for number in range(2, self.run_count + 1):
            run = branch._copy()
            run._cards = self._cards.run_source(number, board_cards)
            run._run_only, run.runs_offered = True, False
            run._deal_rest()
            deal = branch._run_deal(run)
            self._record(ev.RunDealt(number, deal.dealt, deal.cards))
            dealt.append(deal)
        return dealt

    def _run_board_cards(self) -> int:
        """The board cards one run of the rest of the hand deals."""
        return run_needs(self.variant, self.variant.streets[self.street_index + 1:],
                         sum(len(cards) for cards in self.boards.values()))[0]

    def _run_deal(self, run: Hand) -> RunDeal:
        """What ``run`` (this hand, the branch, dealt on) dealt, and its hands."""
        live = self.live_seats
        return RunDeal(
            boards=tuple((name, tuple(cards)) for name, cards in run.boards.items()),
            dealt=tuple((name, tuple(cards[len(self.boards[name]):]))
                        for name, cards in run.boards.items() if cards[len(self.boards[name]):]),
            cards=tuple((seat, tuple(run.hole[seat][len(self.hole[seat]):])) for seat in live),
            burns=tuple(run.burned[len(self.burned):]),
            hands={seat: run._showdown_values(seat) for seat in live},
            deals=tuple(e for e in run.events if isinstance(e, ev.BoardDealt | ev.HoleDealt
                                                              | ev.CardBurned))
            if run is not self else ())

    def rabbit_hunt(self) -> tuple[tuple[str, tuple[Card, ...]], ...]:
        """After a hand that ended before its last card: the board cards that would have come,
        as (board, cards) deals in the order the streets would have dealt them (burns skipped,
        XMAS's Christmas card included), from a copy of the hand's card source. Never a hole
        card or a redraw: stud, whose cards left are all hole cards, hunts nothing. The hand is
        unchanged."""
        if not self.is_over:
            raise ActionError("the hand is not over: no rabbit hunting yet")
        variant = self.variant
        if variant.is_stud:
            return ()
        source = copy.deepcopy(self._cards)
        deals: list[tuple[str, tuple[Card, ...]]] = []
        for street in variant.streets[self.street_index + 1:]:
            if not street.reveals:
                continue
            if variant.burns:
                source.burn()
            deals += [(reveal.board, source.board(reveal.board, reveal.count))
                      for reveal in street.reveals]
        return tuple(deals)

    def ask_to_show(self, seat: Seat) -> None:
        """The player at table seat ``seat`` will show at showdown even a hand that cannot
        win."""
        self.position(seat)  # a seat of this hand
        if self.is_over:
            raise ActionError("the hand is over")
        self.show_requests.add(seat)

    # -- checks behind the actions ----------------------------------------------------------

    def _can(self, verify: object) -> bool:
        try:
            verify()  # type: ignore[operator]
        except ActionError:
            return False
        return True

    def _verify_turn(self, what: str) -> Seat:
        if self.actor is None:
            raise NotYourTurnError(f"nobody can {what} now: "
                                   f"{'the hand is over' if self.is_over else 'no one is to act'}")
        if self.is_drawing != (what == "draw"):
            raise ActionError(f"{self._who(self.actor)} must draw (throw 0 to {self._street.draw} "
                              f"cards) before the betting" if self.is_drawing else
                              f"{self._who(self.actor)} cannot draw now: the draw is over")
        return self.actor

    def _all_in_to(self, seat: Seat) -> int:
        return self.stacks[seat] + self.bets[seat]

    def _raise_bounds(self, seat: Seat) -> tuple[int, int] | str:
        """The (min, max) raise-to for ``seat``, or the reason it may not raise (worked out
        once per decision: the legal actions and the check of the raise both ask)."""
        cached = self._bounds
        if cached is not None and cached[0] == self._version and cached[1] == seat:
            return cached[2]
        variant = self.variant
        betting = variant.betting
        # Positional (asked at every decision): stacks, bets, live, the chips in play (only
        # the pot limit reads them), no name, and the table seat to name in a refusal.
        bounds = self._round.bounds(seat, betting, variant.raise_cap, self.stacks, self.bets,
                                    self.live, sum(self.contributed)
                                    if betting is BettingStructure.POT_LIMIT else 0, None,
                                    self.seats[seat] if self._renamed else None)
        self._bounds = (self._version, seat, bounds)
        return bounds

    # -- the flow of the hand ---------------------------------------------------------------

    def _put_in(self, seat: Seat, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contributed[seat] += chips

    def _start(self) -> None:
        stakes = self.stakes
        if stakes.ante and not self.big_blind_ante:
            for seat in self.order:
                chips = min(stakes.ante, self.stacks[seat])
                self.stacks[seat] -= chips
                self.contributed[seat] += chips
                self._record(ev.AntePosted(seat, chips))
        if self.variant.forced_bets is ForcedBets.BLINDS:
            small, big = self._blind_seats()
            blinds = [(big, stakes.big_blind, "big")]
            if small is not None:
                blinds.insert(0, (small, stakes.small_blind, "small"))
            if self.straddle_seat is not None:
                blinds.append((self.straddle_seat, straddle_amount(stakes.big_blind),
                               "straddle"))
            for seat, amount, name in blinds:
                chips = min(amount, self.stacks[seat])
                self._put_in(seat, chips)
                self._record(ev.BlindPosted(seat, chips, name))
            if self.big_blind_ante and stakes.ante:
                chips = min(stakes.ante, self.stacks[big])  # TDA: the blind before the ante
                if chips:
                    self.stacks[big] -= chips
                    self.contributed[big] += chips
                    self._record(ev.AntePosted(big, chips))
        self._begin_street(0)

    @property
    def big_blind_seat(self) -> Seat:
        return self._blind_seats()[1]

    def _blind_seats(self) -> tuple[Seat | None, Seat]:
        """Small and big blind: left of the button; heads-up the button posts the small blind.
        A dead small blind (tournaments) is None, and the big blind is left of the button."""
        if self.dead_small_blind:
            return None, self.order[0]
        if self.seat_count == 2:
            return self._button, self.order[0]
        return self.order[0], self.order[1]

    def _begin_street(self, index: int) -> None:
        variant = self.variant
        street = variant.streets[index]
        self.street_index = index
        self._street = street
        self._record(ev.StreetStarted(street.name))
        cards = self._cards
        if index == 0 and not variant.is_stud:
            for seat in self.order:
                self._deal_hole(seat, cards.hole(seat, variant.hole_cards), False)
            if variant.has_redraws:
                # Every board card is set aside before any redraw (RULES.md s.3).
                cards.set_aside(variant.board_card_count)
                self.pool_size = starting_pool(variant, self.seat_count)
        down, up = street.hole_down, street.hole_up
        if down or up:
            live, hole, ups = self.live, self.hole, self.up
            for seat in self.order:
                if live[seat]:
                    # A source deals nothing for a count of 0: no call for none. The deal is
                    # ``_deal_hole``'s, inlined (every seat, every street).
                    for count, face_up in ((down, False), (up, True)):
                        dealt = cards.hole(seat, count) if count else None
                        if dealt:
                            hole[seat].extend(dealt)
                            ups[seat].extend([face_up] * len(dealt))
                            self._record(ev.HoleDealt(seat, dealt, (face_up,) * len(dealt)))
        if street.reveals:
            if variant.burns:
                card = cards.burn()
                self.burned.append(card)
                self._record(ev.CardBurned(card))
            for reveal in street.reveals:
                dealt = cards.board(reveal.board, reveal.count)
                self.boards[reveal.board].extend(dealt)
                self._record(ev.BoardDealt(reveal.board, dealt))
        if street.redraw_cap is not None and self.pool_size is not None:
            self._redraw(street.redraw_cap)
        if street.draw:
            self._begin_draw()
        elif street.betting:
            self._begin_round(street)
        else:
            self._end_round()

    def _redraw(self, cap: int) -> None:
        """RULES.md s.3: every live seat gets ``min(K - R, pool // L)``, from a shuffled pool."""
        live = self.live_seats
        assert self.pool_size is not None
        n = redraw_share(cap, self.redraws[live[0]], self.pool_size, len(live))
        if n == 0:
            return
        self._cards.shuffle_pool()
        for seat in live:
            dealt = self._cards.redraw(seat, n)
            self.hole[seat].extend(dealt)
            self.up[seat].extend([False] * n)
            self.redraws[seat] += n
            self._record(ev.Redrawn(seat, dealt, (False,) * n))
        self.pool_size -= n * len(live)
        self._record(ev.PoolChanged(self.pool_size))

    def _deal_hole(self, seat: Seat, dealt: tuple[Card, ...], up: bool) -> None:
        if dealt:
            self.hole[seat].extend(dealt)
            self.up[seat].extend([up] * len(dealt))
            self._record(ev.HoleDealt(seat, dealt, (up,) * len(dealt)))

    def _begin_round(self, street: Street) -> None:
        # RULES.md s.2: the blinds' round opens with the full big blind to call, however little
        # the blinds could post (both may be all-in on their antes); it is the round's first bet.
        # A straddle is the same: the full straddle to call, the round's second bet, and (pot
        # and no limit) the smallest full raise, as a blind of its size would be.
        blinds_in = self.variant.forced_bets is ForcedBets.BLINDS and self.street_index == 0
        straddled = blinds_in and self.straddle_seat is not None
        opener = self._round_opener(street)
        bet = street_bet(self.variant, self.stakes, street)
        to_match = self.stakes.big_blind
        if straddled:
            to_match = straddle_amount(self.stakes.big_blind)
            if self.variant.betting is not BettingStructure.FIXED_LIMIT:
                bet = max(bet, to_match)
        self._round = BettingRound.open(
            opener=opener, street_bet=bet,
            live=self.live, stacks=self.stacks,
            current_bet=max(to_match, max(self.bets)) if blinds_in else 0,
            raise_count=(2 if straddled else 1) if blinds_in else 0,
            bring_in=street.first_to_act is FirstToAct.BRING_IN)
        self.actor = self._first_needing(opener)
        if self.actor is None:
            self._end_round()  # all-in: no betting on this street (RULES.md s.2)
            return
        self._round.played = True

    def _round_opener(self, street: Street) -> Seat:
        rule = street.first_to_act
        if rule is FirstToAct.LEFT_OF_BIG_BLIND:
            _, big = self._blind_seats()
            if self.straddle_seat is not None and self.street_index == 0:
                return (self.straddle_seat + 1) % self.seat_count  # the straddler acts last
            return (big + 1) % self.seat_count
        hole, up, live = self.hole, self.up, self.live
        if rule is FirstToAct.BRING_IN:
            # Each live seat's last up card (``up`` pairs with ``hole``).
            candidates = [(s, cards[-1]) for s in self.order if live[s]
                          for cards in (list(compress(hole[s], up[s])),) if cards]
            if candidates and self.variant.bring_in is not None:
                return bring_in_seat(candidates, self.variant.bring_in, self.stacks)
        if rule is FirstToAct.BEST_SHOWING or rule is FirstToAct.LOW_SHOWING:
            # ``best_showing_ranks`` of the live seats' up cards, in one loop (every street of
            # every stud hand): the first live seat showing nothing opens as the button's left.
            low = rule is FirstToAct.LOW_SHOWING
            best_seat, best = -1, None
            for s in self.order:
                if live[s]:
                    ranks = tuple([card >> 2 for card in compress(hole[s], up[s])])
                    if best is None:
                        if not ranks:
                            break
                        best_seat, best = s, showing_key(ranks, low)
                        continue
                    key = showing_key(ranks, low)
                    if key > best:
                        best_seat, best = s, key
            if best is not None:
                return best_seat
        return self.order[0]

    def _first_needing(self, start: Seat) -> Seat | None:
        """The first seat clockwise from ``start`` with a decision to make, or None:
        ``BettingRound.first_needing``'s rule inlined (asked after every action), the seats
        read from the per-position ring."""
        round_ = self._round
        needs, bets, current = round_.needs, self.bets, round_.current_bet
        with_chips = -1
        for other in self._after[start - 1]:  # from ``start`` round to the seat before it
            if not needs[other]:
                continue
            if bets[other] < current:
                return other
            live, stacks = self.live, self.stacks
            if with_chips < 0:  # ``alive and stack > 0`` counted over the seats
                with_chips = 0
                for position, alive in enumerate(live):
                    if alive and stacks[position] > 0:
                        with_chips += 1
            if with_chips - (1 if live[other] and stacks[other] > 0 else 0) > 0:
                return other
        return None

    def _next_actor(self, seat: Seat) -> None:
        following = self._first_needing(self._after[seat][0])
        if following is None:
            self._end_round()
        else:
            self.actor = following

    def _end_round(self) -> None:
        self.actor = None
        # Chips no other player matched go back to their owner, antes and blinds included
        # (RULES.md s.2): contributions, not this round's bets, decide.
        returned = uncalled_bet(self.contributed)
        if returned is not None:
            seat, chips = returned
            self.stacks[seat] += chips
            self.contributed[seat] -= chips
            self._record(ev.UncalledReturned(seat, chips))
        self.bets = [0] * self.seat_count
        if self._round.played:
            self._last_round = self._round
        if sum(self.live) == 1:
            self._award_uncontested()
        elif self.street_index + 1 < len(self.variant.streets):
            if not self._offer_runs():
                self._deal_rest()
        elif self.variant.has_allocation:
            # The river betting closed with two or more players (RULES.md s.3).
            self.is_allocating = True
            self._record(ev.AllocationStarted(self.live_seats))
            if not self.manual_allocation:
                for seat in self.live_seats:
                    self.allocate_best(self.seats[seat])
        else:
            self._showdown()

    def _note_runout(self) -> None:
        """Record the spot when no more betting can happen and cards are still to come (the
        Allocator games and the draw still have decisions to make: no spot)."""
        variant = self.variant
        if variant.has_allocation or variant.is_draw or self._others_with_chips():
            return
        live = self.live_seats
        self.runout.append(RunoutSpot(
            street=self._street.name, street_index=self.street_index,
            boards=tuple((name, tuple(cards)) for name, cards in self.boards.items()),
            hands=tuple((self.seats[seat], tuple(self.hole[seat])) for seat in live),
            pots=tuple(Pot(pot.amount, tuple(self.seats[s] for s in pot.eligible))
                       for pot in self.pots()),
            pool=self.pool_size, redraws=self.redraws[live[0]]))

    def _award_uncontested(self) -> None:
        winner = next(seat for seat in range(self.seat_count) if self.live[seat])
        total = sum(self.contributed)
        self.stacks[winner] += total
        self._record(ev.PotAwarded(0, total, (winner,), ((winner, total),), False))
        self.results = (PotResult(Pot(total, (winner,)), (), {}, (), {winner: total}),)
        self._finish()

    def _finish(self) -> None:
        self.is_over = True
        self.actor = None
        self._record(ev.HandEnded(tuple(enumerate(self.stacks))))

    def category_hands(self, seat: Seat) -> dict[str, HandValue | None]:
        """Table seat ``seat``'s hand in every scoring category, from the cards dealt so far."""
        seat = self.position(seat)
        allocation = self.allocations.get(seat) if self.allocations_revealed else None
        return {category.name: category_hand(self.variant, category, self.hole[seat], self.boards,
                                             allocation)
                for category in self.variant.categories}

    def _showdown_values(self, seat: Seat) -> CategoryHands:
        """The seat's hand per category, for settling: only strengths matter there, so Omaha
        high boards take the scalar value-only path (a redraw hand may hold 15 cards)."""
        values: dict[str, HandValue | None] = {}
        allocation = self.allocations.get(seat) if self.allocations_revealed else None
        for category in self.variant.categories:
            board = self.boards.get(category.board or "", [])
            construction = category.construction
            if (construction is Construction.OMAHA and category.ranking is Ranking.HIGH
                    and len(board) >= 3):
                strength = omaha_high_strength(self.hole[seat], board)
                values[category.name] = _strength_value(Ranking.HIGH, strength)
            elif construction is Construction.HOLE_ONLY or (
                    construction is Construction.HOLDEM and not category.allocated
                    and len(board) >= 3):
                # Stud, the draw, Texas Hold'em: the best hand of the cards, any mix.
                ranking = category.ranking
                strength = best_strength(ranking, [*self.hole[seat], *board])
                values[category.name] = _strength_value(ranking, strength) if strength else None
            else:
                values[category.name] = category_hand(self.variant, category, self.hole[seat],
                                                      self.boards, allocation)
        return values

    def _showdown(self) -> None:
        if self._run_only:
            return  # a later run's copy: the hand itself settles every run
        live = self.live_seats
        hands: dict[Seat, CategoryHands] = {seat: self._showdown_values(seat) for seat in live}
        pots = self.pots()
        others = self._deal_other_runs() if self.run_count > 1 else []
        for seat in self._showing_order(live):
            if self._must_show(seat, pots, hands):
                self.shown[seat] = True
                self._record(ev.HandShown(seat, self._shown_cards(seat)))
            else:
                self.shown[seat] = False
                self._record(ev.HandMucked(seat))
        # A mucked hand cannot win anything (that is why it was mucked), so settling every live
        # hand pays exactly the shown ones. Run more than once, each run settles its share of
        # every pot with its own cards (engine.runs).
        count = self.run_count
        # A hand run once settles its own hands (no ``RunDeal`` to build: one per showdown).
        deals: list[RunDeal | None] = (
            [self._branch._run_deal(self), *others] if self._branch is not None else [None])
        results: list[PotResult] = []
        settled: list[Run] = []
        for number, deal in enumerate(deals, 1):
            parts = pots if count == 1 else [
                Pot(run_shares(pot.amount, count)[number - 1], pot.eligible) for pot in pots]
            run_results = settle_pots(parts, hands if deal is None else deal.hands,
                                      self.variant.category_names, self.variant.split,
                                      self.order)
            for index, result in enumerate(run_results):
                for seat, chips in result.shares.items():
                    self.stacks[seat] += chips
                if any(not self.shown[seat] for seat in result.shares):
                    raise AssertionError("a mucked hand was paid")  # pragma: no cover
                self._record(ev.PotAwarded(index, result.pot.amount, result.pot.eligible,
                                           tuple(result.shares.items()), True, number))
            results.extend(run_results)
            if deal is not None and count > 1:
                settled.append(Run(number, deal.boards, deal.dealt, deal.cards, deal.burns,
                                   run_results, deal.deals))
        self.results = tuple(results)
        if count > 1:
            self.runs = tuple(settled)
        self._finish()

    def _shown_cards(self, seat: Seat) -> tuple[Card, ...]:
        """A shown hand's public cards in the order it holds them: every card it holds (its
        allocated ones in the Allocator games)."""
        hole = self.hole[seat]
        if (seat in self.allocations and self.allocations_revealed) or len(set(hole)) != len(
                hole):
            return tuple(sorted(self._public_cards(seat), key=hole.index))
        return tuple(hole)  # ``_public_cards`` of a shown hand: all of it, in its order

    def _showing_order(self, live: Sequence[Seat]) -> list[Seat]:
        """RULES.md s.4: the last aggressor of the last betting round first, else the round's
        first to act (the first live seat left of the button; stud: the best hand showing)."""
        last = self._last_round
        start = self.order[0] if last is None else (
            last.aggressor if last.aggressor is not None else last.opener)
        count = self.seat_count
        return [(start + k) % count for k in range(count) if self.live[(start + k) % count]]

    def _must_show(
        self, seat: Seat, pots: Sequence[Pot], hands: dict[Seat, CategoryHands]
    ) -> bool:
        """Shown unless it can win nothing against the hands shown before it (RULES.md s.4).

        Points games show every hand (s.3); so does an all-in showdown (TDA: once a player is
        all-in and the betting is over, every hand is tabled); a player may ask to show.
        """
        if self.seats[seat] in self.show_requests or any(
                self.stacks[s] == 0 for s in self.live_seats):
            return True
        if self.variant.split is Split.POINTS and len(self.variant.categories) > 1:
            return True
        mine = hands[seat]
        for pot in pots:
            if seat not in pot.eligible:
                continue
            rivals = [s for s in pot.eligible if self.shown.get(s)]
            for name, value in mine.items():
                if value is None:
                    continue
                best = max((hands[s][name].strength for s in rivals  # type: ignore[union-attr]
                            if hands[s][name] is not None), default=None)
                if best is None or value.strength >= best:
                    return True
        return False
