"""Every game as plain data (JSON-ready): what the CLI prints and the server serves."""

from __future__ import annotations

from typing import Any

from boardroom.rules.spec import Variant
from boardroom.rules.variants import DealersChoice


def describe_variant(variant: Variant | DealersChoice) -> dict[str, Any]:
    """A plain-data description of a game: ``boardroom variants --json`` prints it and the
    server's ``/api/variants`` serves it."""

    if isinstance(variant, DealersChoice):
        return {
            "id": variant.id,
            "name": variant.name,
            "summary": variant.summary,
            "default": variant.default,
            "choices": [v.id for v in variant.choices(2)],
        }
    return {
        "id": variant.id,
        "name": variant.name,
        "summary": variant.summary,
        "boards": [
            {"name": b.name, "size": b.size, **({"tilted": b.tilted} if b.tilted else {})}
            for b in variant.boards
        ],
        "hole_cards": variant.hole_cards,
        "hole_card_options": list(variant.hole_card_options),
        "max_players": {str(h): n for h, n in variant.max_players_by_hole.items()},
        "forced_bets": variant.forced_bets.value,
        "betting": variant.betting.value,
        "betting_options": [b.value for b in variant.betting_options],
        "streets": [
            {
                "name": s.name,
                "reveals": {r.board: r.count for r in s.reveals},
                **({"redraw_cap": s.redraw_cap} if s.redraw_cap is not None else {}),
                **({"hole_down": s.hole_down} if s.hole_down else {}),
                **({"hole_up": s.hole_up} if s.hole_up else {}),
                "betting": s.betting,
            }
            for s in variant.streets
        ],
        "allocation": variant.allocation_sizes or None,
        "categories": [
            {
                "name": c.name,
                "construction": c.construction.value,
                "ranking": c.ranking.name.lower(),
                **({"board": c.board} if c.board else {}),
            }
            for c in variant.categories
        ],
        "split": variant.split.value,
        **({"bring_in": variant.bring_in.value} if variant.bring_in else {}),
    }
