"""Stakes and the betting limits of RULES.md section 2, as pure functions.

The hand (``boardroom.engine.hand``) keeps the round's state; the numbers it offers a player and
the numbers it accepts both come from ``raise_range`` below, so the legal range a client shows
and the check that validates an action can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

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
    *,
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
    return min(smallest, all_in_to), min(largest, all_in_to)


def default_stakes(variant: Variant) -> Stakes:
    """Blinds 1/2; ante 1 with a minimum bet of 2; stud: ante 1, bring-in 1, bets 2/4 (the bots'
    simulator and the rules page's example hands)."""
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    if variant.forced_bets is ForcedBets.ANTES:
        return Stakes(ante=1, big_blind=2)
    return Stakes(ante=1, bring_in=1, small_bet=2)
