"""Side pots by contribution levels and uncalled bets (RULES.md section 2).

A folded player's chips stay in the pots they reached; the seats eligible for a pot are the live
seats that contributed at least its level. Pots whose eligible seats are the same are one pot.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardroom.engine.showdown import Pot


def side_pots(contributed: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """The main pot and side pots, main first, from each seat's total contribution.

    ``contributed[seat]`` is every chip the seat put in this hand (antes, blinds, bets) after
    uncalled chips were returned; ``live[seat]`` is False for a folded seat.
    """
    # One pot when every live seat put in the same and nobody more: the usual showdown.
    top = max(contributed, default=0)
    if top > 0:
        for seat, alive in enumerate(live):
            if alive and contributed[seat] != top:
                break
        else:
            return [Pot(sum(contributed), tuple([seat for seat, alive in enumerate(live)
                                                 if alive]))]
    pots: list[Pot] = []
    previous = 0
    for level in sorted({c for c in contributed if c > 0}):
        # One pass a level (asked at every showdown and every all-in street): the chips each
        # seat put in between the previous level and this one, and who reached this one.
        amount = 0
        reached = []
        for seat, chips in enumerate(contributed):
            if chips > previous:
                amount += (chips if chips < level else level) - previous
                if chips >= level and live[seat]:
                    reached.append(seat)
        eligible = tuple(reached)
        previous = level
        if pots and (not eligible or pots[-1].eligible == eligible):
            # Same players (or chips only folded seats reached): the same pot.
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        elif eligible:
            pots.append(Pot(amount, eligible))
        else:
            # Only folded seats reached this level and no pot exists yet: cannot happen once
            # uncalled bets are returned, but keep the chips with the live seats.
            holders = tuple(seat for seat in range(len(live)) if live[seat])
            pots.append(Pot(amount, holders))
    return pots


def uncalled_bet(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, chips)`` of the part of the largest amount nobody matched, or None.

    The hand passes each seat's contribution (antes, blinds, bring-in and bets alike, RULES.md
    s.2): the part of the top one above the second largest (folded seats' chips count: they
    matched up to that point) goes back to its owner before any pot is awarded. Heads-up, ante
    2, blinds 1/2, a big blind all-in on the ante for 1 and a button that folds:
    ``uncalled_bet([1, 3]) == (1, 2)``.
    """
    if len(bets) < 2:
        top = max(bets, default=0)
        return (0, top) if top > 0 else None
    second, top = sorted(bets)[-2:]  # built-ins: asked at the end of every street
    if top <= 0 or top == second:
        return None
    return bets.index(top), top - second
