"""Stakes, the betting limits of RULES.md section 2, and the state of a betting round.

The hand (``boardroom.engine.hand``) holds the chips and one ``BettingRound`` per street. The
rule of the numbers it offers and accepts is ``BettingRound.bounds`` (through ``raise_range``
below), and of who acts next ``BettingRound.first_needing``; the hand works both out inline at
every decision (a cost asked thousands of times a second), checks a raise against the range
it offered, and asks ``bounds`` itself for a raise it did not offer and for a refusal's words.
Tests pin the inline answers to these at every decision of random hands, so the legal range a
client shows and the check that validates an action cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from boardroom.rules.spec import BettingStructure, ForcedBets, Street, Variant


class StakesError(ValueError):
    """Stakes that do not fit the variant (a blind game without blinds, a negative ante)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets and bet sizes of a hand, in chips.

    Blind games use ``small_blind``/``big_blind`` (and an optional ``ante``); ante games use
    ``ante`` and the big blind as the minimum bet of every round (RULES.md s.1); stud uses
    ``ante``, ``bring_in``, ``small_bet`` and ``big_bet``. Fixed-limit bet sizes default to the big
    blind and twice the big blind.
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    # Frozen and made of immutable values: a copy is the value itself. Said outright because
    # mypyc's build of this class cannot be rebuilt field by field as copy does by default.
    def __copy__(self) -> Stakes:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Stakes:
        return self

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise StakesError(f"{item.name} must be a whole number of chips >= 0, "
                                  f"not {value!r}")
        if self.big_blind and not self.small_bet:
            object.__setattr__(self, "small_bet", self.big_blind)
        if self.small_bet and not self.big_bet:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)

    def check_for(self, variant: Variant) -> None:
        """Raise ``StakesError`` unless these stakes can play ``variant``."""
        forced = variant.forced_bets
        if forced is ForcedBets.BLINDS and not 0 < self.small_blind <= self.big_blind:
            raise StakesError(f"{variant.name} needs blinds with 0 < small blind <= big blind "
                              f"(got {self.small_blind}/{self.big_blind})")
        if forced is ForcedBets.ANTES and not (self.ante > 0 and self.big_blind > 0):
            raise StakesError(f"{variant.name} needs an ante and a big blind (the minimum bet)")
        if forced is ForcedBets.BRING_IN and not 0 < self.bring_in < self.small_bet:
            raise StakesError(f"{variant.name} needs a bring-in below the small bet "
                              f"(got {self.bring_in} and {self.small_bet})")
        if (forced is ForcedBets.BRING_IN or variant.betting is BettingStructure.FIXED_LIMIT) and (
            not 0 < self.small_bet <= self.big_bet
        ):
            raise StakesError(f"{variant.name} needs 0 < small bet <= big bet "
                              f"(got {self.small_bet}/{self.big_bet})")


def street_bet(variant: Variant, stakes: Stakes, street: Street) -> int:
    """The minimum opening bet of a round, which is also the fixed-limit bet size.

    Fixed limit and stud: the small bet on the early streets, the big bet later (RULES.md s.2,
    s.5). Pot limit and no limit: the big blind (s.2, and s.1 for ante games).
    """
    if variant.betting is BettingStructure.FIXED_LIMIT or variant.is_stud:
        return stakes.big_bet if street.big_bet else stakes.small_bet
    return stakes.big_blind


def pot_limit_max_raise_to(current_bet: int, chips_in_play: int, to_call: int) -> int:
    """RULES.md s.2: ``current_bet + pot_after_calling``.

    ``chips_in_play`` is every chip in the pots plus every bet on the table; the player's call is
    added once more. Blinds 1/2: ``pot_limit_max_raise_to(2, 3, 2) == 7``.
    """
    return current_bet + chips_in_play + to_call


def raise_range(
    structure: BettingStructure,
    current_bet: int,
    full_raise: int,
    completion_to: int | None,
    chips_in_play: int,
    to_call: int,
    all_in_to: int,
) -> tuple[int, int]:
    """The (min, max) total a bet or raise may go to, before the all-in exception.

    ``full_raise`` is the smallest full raise (the largest bet or raise of the round, at least
    the minimum bet; the fixed bet size in fixed limit). ``completion_to`` is stud's completion
    target while only the bring-in is in. A player may always go all-in for less: both ends are
    capped at ``all_in_to``.
    """
    smallest = completion_to if completion_to is not None else current_bet + full_raise
    if structure is BettingStructure.FIXED_LIMIT:
        largest = smallest
    elif structure is BettingStructure.POT_LIMIT:
        largest = max(smallest, pot_limit_max_raise_to(current_bet, chips_in_play, to_call))
    else:
        largest = all_in_to
    return (smallest if smallest < all_in_to else all_in_to,
            largest if largest < all_in_to else all_in_to)


def default_stakes(variant: Variant) -> Stakes:
    """Blinds 1/2; ante 1 with a minimum bet of 2; stud: ante 1, bring-in 1, bets 2/4 (the bots'
    simulator and the rules page's example hands)."""
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    if variant.forced_bets is ForcedBets.ANTES:
        return Stakes(ante=1, big_blind=2)
    return Stakes(ante=1, bring_in=1, small_bet=2)


Seat = int


@dataclass(slots=True, init=False)
class BettingRound:
    """One street's betting (RULES.md s.2): the bet to match, the smallest full raise, who has
    acted since the last full raise and who still has a decision to make.

    The hand passes its chips (``stacks``, this round's ``bets``, ``live``) to each question:
    the round holds no chips, so nothing here can create or lose one.
    """

    current_bet: int
    full_raise: int  # the smallest full raise: the largest bet or raise so far, at least the
    # street's bet (the fixed bet size in fixed limit)
    raise_count: int  # bets and raises so far (the blinds' round opens with one: the big blind)
    acted: list[bool]  # acted since the last full raise: an all-in short of one does not reopen
    needs: list[bool]  # still to decide this round
    opener: Seat  # the round's first to act (shows first when nobody bet, RULES.md s.4)
    completion_to: int | None = None  # stud: the completion target while only the bring-in is in
    bring_in_seat: Seat | None = None  # stud: the seat that must bring in or complete
    aggressor: Seat | None = None  # the last seat to bet or raise
    played: bool = False  # had at least one decision

    def __init__(self, current_bet: int, full_raise: int, raise_count: int, acted: list[bool],
                 needs: list[bool], opener: Seat, completion_to: int | None = None,
                 bring_in_seat: Seat | None = None, aggressor: Seat | None = None,
                 played: bool = False) -> None:
        """The dataclass's own constructor, written out: mypyc's build runs a written one as
        native code, a generated one as Python (a round opens on every street)."""
        self.current_bet = current_bet
        self.full_raise = full_raise
        self.raise_count = raise_count
        self.acted = acted
        self.needs = needs
        self.opener = opener
        self.completion_to = completion_to
        self.bring_in_seat = bring_in_seat
        self.aggressor = aggressor
        self.played = played

    def __deepcopy__(self, memo: dict[int, object]) -> BettingRound:
        """The round with its own lists (its other fields are numbers). Said outright because
        mypyc's build of this class cannot be rebuilt field by field as copy does by default;
        ``replace`` copies every field, so a new number field needs nothing here."""
        return replace(self, acted=list(self.acted), needs=list(self.needs))

    @classmethod
    def open(cls, *, opener: Seat, street_bet: int, live: Sequence[bool],
             stacks: Sequence[int], current_bet: int = 0, raise_count: int = 0,
             bring_in: bool = False) -> BettingRound:
        """A new round: ``current_bet`` is the bet already to match (preflop the full big
        blind, however little the blinds could post), counted as ``raise_count`` bets;
        ``bring_in``: the opener must bring in or complete (stud)."""
        count = len(live)
        needs = [alive and stacks[seat] > 0 for seat, alive in enumerate(live)]
        round_ = cls(current_bet=current_bet, full_raise=street_bet, raise_count=raise_count,
                     acted=[False] * count,
                     needs=needs, opener=opener)
        if bring_in and needs[opener]:
            round_.bring_in_seat, round_.completion_to = opener, street_bet
        return round_

    def to_call(self, seat: Seat, bets: Sequence[int]) -> int:
        """Chips ``seat`` must add to match the current bet (before the all-in cap)."""
        return max(0, self.current_bet - bets[seat])

    @property
    def raise_word(self) -> str:
        if self.completion_to is not None:
            return "completion"
        return "bet" if self.current_bet == 0 else "raise"

    def bounds(self, seat: Seat, structure: BettingStructure, raise_cap: int | None,
               stacks: Sequence[int], bets: Sequence[int], live: Sequence[bool],
               chips_in_play: int, who: str | None = None,
               table_seat: Seat | None = None) -> tuple[int, int] | str:
        """The (min, max) raise-to for ``seat``, or the reason it may not raise (naming the
        player ``who``, else ``seat {table_seat}``, by default ``seat N``: the name is only
        written when there is a refusal to write)."""
        current = self.current_bet
        owed = current - bets[seat]
        if owed < 0:
            owed = 0
        stack = stacks[seat]
        if stack <= owed:
            return f"{self._who(seat, who, table_seat)} cannot raise: calling puts it all-in"
        if raise_cap is not None and self.raise_count >= raise_cap:
            return (f"{self._who(seat, who, table_seat)} cannot raise: the betting is capped at "
                    f"{raise_cap} bets this round")
        if self.acted[seat]:
            return (f"{self._who(seat, who, table_seat)} cannot raise: the all-in short of a "
                    f"full raise does not reopen the betting for a seat that has already acted")
        for other, alive in enumerate(live):  # a loop, not any(): asked at every decision
            if alive and other != seat and stacks[other] + bets[other] > current:
                break
        else:
            return (f"{self._who(seat, who, table_seat)} cannot raise: every other player is "
                    f"all-in or folded")
        # Positional: asked at every decision (the parameters' order is raise_range's).
        return raise_range(structure, current, self.full_raise, self.completion_to,
                           chips_in_play, owed, stack + bets[seat])

    @staticmethod
    def _who(seat: Seat, who: str | None, table_seat: Seat | None) -> str:
        if who:
            return who
        return f"seat {seat if table_seat is None else table_seat}"

    def first_needing(self, start: Seat, live: Sequence[bool], stacks: Sequence[int],
                      bets: Sequence[int]) -> Seat | None:
        """The first seat clockwise from ``start`` with a decision to make, or None.

        RULES.md s.2: a seat that has matched the bet while every other live player is all-in
        is not prompted (whatever it did, nobody could answer: no pointless check)."""
        count = len(live)
        needs = self.needs
        # Live players with chips behind, counted once (not once per seat asked).
        with_chips = -1
        for k in range(count):
            seat = (start + k) % count
            if not needs[seat]:
                continue
            if bets[seat] < self.current_bet:
                return seat
            if with_chips < 0:
                with_chips = sum(1 for other in range(count) if live[other] and stacks[other] > 0)
            if with_chips - (1 if live[seat] and stacks[seat] > 0 else 0) > 0:
                return seat
        return None

    def passed(self, seat: Seat) -> None:
        """``seat`` checked or called: it has acted and has nothing more to decide."""
        self.acted[seat] = True
        self.needs[seat] = False

    def folded(self, seat: Seat) -> None:
        self.needs[seat] = False

    def brought_in(self, seat: Seat, bet: int) -> None:
        """Stud: ``seat`` posted the bring-in, now its bet this round."""
        self.current_bet = max(self.current_bet, bet)
        self.bring_in_seat = None
        self.passed(seat)

    def raised_to(self, seat: Seat, amount: int, live: Sequence[bool],
                  stacks: Sequence[int]) -> bool:
        """``seat`` bet or raised to ``amount`` (its chips already in); whether it was a full
        bet or raise, which reopens the betting for everybody (RULES.md s.2)."""
        increment = amount - self.current_bet
        full = (amount >= self.completion_to if self.completion_to is not None
                else increment >= self.full_raise)
        if full:
            self.full_raise = max(self.full_raise, increment)
            self.acted = [False] * len(live)
        self.completion_to = None
        self.bring_in_seat = None
        self.current_bet = amount
        self.raise_count += 1
        self.aggressor = seat
        self.acted[seat] = True
        needs = self.needs = [alive and stacks[other] > 0
                              for other, alive in enumerate(live)]
        needs[seat] = False
        return full
