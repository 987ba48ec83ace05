"""Every game as plain data (JSON-ready): what the CLI prints and the server serves."""

from __future__ import annotations

from typing import Any

from boardroom.evaluation import Construction, Ranking
from boardroom.rules.rotations import Rotation
from boardroom.rules.runs import runs_refusal
from boardroom.rules.spec import Category, Split, Variant
from boardroom.rules.variants import DealersChoice

# How each ranking orders hands, in the rule book's words (docs/rules.md s.3 to s.5).
RANKING_RULES = {
    Ranking.HIGH: "the highest poker hand wins (straight flush, four of a kind, full house, flush,"
                  " straight, three of a kind, two pair, pair, high card)",
    Ranking.ESG_LOW: "the lowest hand wins: five different ranks, not all one suit and not five in"
                     " a row, the ace always high; the best is 7-5-4-3-2, and without such a five"
                     " there is no low",
    Ranking.LOW8: "the lowest hand wins: five different ranks of 8 or lower, the ace low,"
                  " straights and flushes ignored; the best is 5-4-3-2-A, and without such a five"
                  " there is no low",
    Ranking.THREE_CARD: "from best: royal (A-K-Q suited), three of a kind, straight flush,"
                        " straight, flush, pair, high card; A-2-3 is the lowest straight",
    Ranking.TWO_CARD: "a pair beats no pair, pairs by rank, otherwise the high card then the"
                      " kicker; suits never count: A-A is best, 3-2 worst",
    Ranking.DEUCE_SEVEN: "deuce-to-seven lowball: the lowest poker hand wins, pairs, straights"
                         " and flushes count against you and the ace is always high; the best is"
                         " 7-5-4-3-2 in mixed suits",
    Ranking.A5_LOW: "ace-to-five low: the lowest hand wins, the ace is low, straights and flushes"
                    " do not count but pairs do; the best is 5-4-3-2-A",
    Ranking.BADUGI: "badugi: the most cards of different ranks and different suits win (four"
                    " beat three), then the lowest highest card, the ace low; the best is"
                    " 4-3-2-A in four suits",
}

SPLIT_RULES = {
    Split.POINTS: "Each category is worth one point of every pot; hands that tie share its point"
                  " and a category nobody qualifies for is void. The most points take the pot;"
                  " equal points split it.",
    Split.HI_LO: "Half of every pot goes to the best high hand and half to the best qualifying"
                 " low; with no low, the high hand takes the whole pot.",
}


def how_made(variant: Variant, category: Category) -> str:
    """How a hand of ``category`` is made, in words (docs/rules.md's table)."""
    board = category.board
    tilted = {b.name: b.tilted for b in variant.boards if b.tilted}
    made = {
        Construction.OMAHA: f"exactly 2 of your hole cards and exactly 3 cards of board {board}",
        Construction.TILT_BOARD: f"exactly 2 of your hole cards and exactly 3 cards of board"
                                 f" {board}, one of them its tilted card ({board}"
                                 f"{tilted.get(board or '', '')})",
        Construction.TILT_DIAGONAL: "exactly 2 of your hole cards and any 3 of the tilted cards ("
                                    + ", ".join(f"{n}{t}" for n, t in tilted.items())
                                    + "), scored once three of them show",
        Construction.HOLE_ONLY: "the best 5 of all your own cards",
        Construction.TREE: "exactly 4 of your hole cards and the Christmas card",
        Construction.HOLDEM: f"the best 5 of the 2 cards you allocate to board {board} and that"
                             f" board's 5, in any mix",
        Construction.ALLOCATED: f"exactly the {category.allocated}"
                                f" cards you allocate to the {category.name}",
    }[category.construction]
    return f"{made}; {RANKING_RULES[category.ranking]}"


def describe_variant(variant: Variant | DealersChoice | Rotation) -> dict[str, Any]:
    """A plain-data description of a game: ``boardroom games --json`` prints it and the
    server's ``/api/games`` serves it."""

    if isinstance(variant, Rotation):
        return {
            "id": variant.id,
            "name": variant.name,
            "summary": variant.summary,
            "rotation": [{**game.to_dict(), "name": game.variant.name} for game in variant.games],
            "every": variant.every,
            "max_players": variant.max_players,
        }
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
                "how": how_made(variant, c),
            }
            for c in variant.categories
        ],
        "split": variant.split.value,
        "split_rule": SPLIT_RULES[variant.split],
        "runs_twice": runs_refusal(variant) is None,  # an all-in may be run twice or three times
        **({"bring_in": variant.bring_in.value} if variant.bring_in else {}),
    }
