"""Which games may run the rest of an all-in hand more than once (engine.runs deals the runs):
a question of the game's data alone, asked by the engine and by the games' descriptions."""

from __future__ import annotations

from boardroom.rules.spec import Variant


def runs_refusal(variant: Variant) -> str | None:
    """Why ``variant`` never runs twice, or None when it may."""
    if variant.has_allocation:
        return f"{variant.name} allocates after the last card: a run would need its own allocation"
    if variant.is_draw:
        return f"{variant.name} players still draw: there is nothing to run twice"
    if variant.is_stud or not variant.boards:
        return f"{variant.name} deals the players' own cards to come: it runs once"
    return None
