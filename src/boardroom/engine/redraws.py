"""Redraws, the ESG extra-card rule (RULES.md section 3, "Redraws").

At the start of a hand every board card is set aside; the pool is the rest of the deck after the
hole cards are dealt, plus every card of every folded hand. On a street with a cumulative cap
``K``, right after its board cards and before its betting, each of the ``L`` live players (all-in
included) with ``R`` redraws so far gets ``min(K - R, pool // L)`` cards; leftovers stay in the
pool, and a street missed for lack of cards is caught up later within the caps.

These are pure functions of public numbers; the hand (``boardroom.engine.hand``) keeps the count
per seat and asks its card source for the cards.
"""

from __future__ import annotations

from boardroom.cards import DECK_SIZE
from boardroom.rules.spec import Variant


def redraw_share(cap: int | None, received: int, pool: int, live: int) -> int:
    """Cards each live player gets now: ``min(K - R, floor(pool / L))`` (never negative)."""
    if not cap or live <= 0:
        return 0
    return max(0, min(cap - received, pool // live))


def starting_pool(variant: Variant, players: int) -> int:
    """The pool once the hole cards are dealt: the deck minus hole, board and burned cards."""
    return DECK_SIZE - players * variant.hole_cards - variant.board_card_count - (
        variant.burn_count)


def schedule(variant: Variant, players: int, folds: dict[str, int] | None = None,
             ) -> list[tuple[str, int, int]]:
    """The redraws of a hand with no more folds than ``folds`` (street -> players folding
    before that street's redraw, each returning their hole cards): ``(street, n, pool after)``.

    Used by tests and docs to work RULES.md s.7's example; the hand itself counts as it goes.
    """
    pool = starting_pool(variant, players)
    live = players
    received = 0
    held = variant.hole_cards
    result = []
    for street in variant.streets:
        gone = (folds or {}).get(street.name, 0)
        pool += gone * (held + received)
        live -= gone
        n = redraw_share(street.redraw_cap, received, pool, live)
        received += n
        pool -= n * live
        if street.redraw_cap is not None:
            result.append((street.name, n, pool))
    return result
