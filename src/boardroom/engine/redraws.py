"""Redraws, the ESG extra-card rule (RULES.md section 3, "Redraws").

At the start of a hand every board card is set aside; the pool is the rest of the deck after the
hole cards are dealt, plus every card of every folded hand. On a street with a cumulative cap
``K``, right after its board cards and before its betting, each of the ``L`` live players (all-in
included) with ``R`` redraws so far gets ``min(K - R, pool // L)`` cards; leftovers stay in the
pool, and a street missed for lack of cards is caught up later within the caps.

These are pure functions of public numbers, and the formula itself is the rules'
(``boardroom.rules.spec.redraw_share`` and ``redraw_schedule``); the hand
(``boardroom.engine.hand``) keeps the count per seat and asks its card source for the cards.
"""

from __future__ import annotations

from boardroom.rules.spec import Variant, redraw_schedule, redraw_share

__all__ = ["redraw_share", "schedule", "starting_pool"]


def starting_pool(variant: Variant, players: int) -> int:
    """The pool once the hole cards are dealt: the deck minus hole, board and burned cards."""
    return variant.starting_pool(players)


def schedule(variant: Variant, players: int, folds: dict[str, int] | None = None,
             ) -> list[tuple[str, int, int]]:
    """The redraws of a hand with no more folds than ``folds`` (street -> players folding
    before that street's redraw, each returning their hole cards): ``(street, n, pool after)``.

    Used by tests and docs to work RULES.md s.7's example; the hand itself counts as it goes.
    """
    return redraw_schedule(variant.streets, starting_pool(variant, players), players,
                           held=variant.hole_cards, folds=folds)
