"""``boardroom showdown VARIANT --board A=... --hand NAME=CARDS ... [--json]``.

Settles a finished hand typed on the command line: each category's best hands and winners, the
points (exact fractions) and who wins the pot. Allocator hands are written ``NAME=AsKs/QdQc/2c2d``
(the cards for A, for B, and for the Hand).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from boardroom.cli import UsageError

if TYPE_CHECKING:
    from boardroom.cards import Card
    from boardroom.rules import Variant


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="GAME", help="game id, as `boardroom games` "
                        "lists them (esg, esg-low, xmas, balance, bomb, allocator, ...)")
    parser.add_argument("--board", action="append", default=[], metavar="NAME=CARDS",
                        help="a board's cards, e.g. A='As Kd 7c 2h 3s' (repeat for each board)")
    parser.add_argument("--hand", action="append", default=[], metavar="NAME=CARDS",
                        help="a player's cards, e.g. alice='Ah Ad Kh Kc 9h 8h'; "
                             "Allocator: alice=AsKs/QdQc/2c2d (A/B/Hand)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass(frozen=True)
class Player:
    name: str
    hole: tuple[Card, ...]
    allocation: dict[str, Sequence[Card]] | None


def _split_assignment(text: str, what: str) -> tuple[str, str]:
    name, sep, cards = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"{what} {text!r} is not NAME=CARDS")
    return name.strip(), cards


def _parse_cards(text: str, where: str) -> tuple[Card, ...]:
    from boardroom.cards import CardError, parse_cards

    try:
        return parse_cards(text)
    except CardError as error:
        raise UsageError(f"{where}: {error}") from None


def _parse_boards(variant: Variant, assignments: Sequence[str]) -> dict[str, tuple[Card, ...]]:
    boards: dict[str, tuple[Card, ...]] = {}
    for text in assignments:
        name, cards_text = _split_assignment(text, "--board")
        name = name.upper()
        if name not in variant.board_names:
            known = ", ".join(variant.board_names) or "none"
            raise UsageError(f"{variant.name} has no board {name!r} (its boards: {known})")
        if name in boards:
            raise UsageError(f"board {name} is given twice")
        boards[name] = _parse_cards(cards_text, f"board {name}")
    for board in variant.boards:
        given = len(boards.get(board.name, ()))
        if board.name not in boards:
            raise UsageError(f"board {board.name} is missing (give --board {board.name}=CARDS)")
        if given != board.size:
            raise UsageError(f"board {board.name} needs {board.size} cards, got {given}")
    return boards


def _parse_player(variant: Variant, text: str) -> Player:
    name, cards_text = _split_assignment(text, "--hand")
    if not variant.has_allocation:
        if "/" in cards_text:
            raise UsageError(f"hand {name}: only the Allocator games split a hand with '/'")
        return Player(name, _parse_cards(cards_text, f"hand {name}"), None)
    parts = cards_text.split("/")
    sizes = variant.allocation_sizes
    if len(parts) != len(sizes):
        layout = "/".join(sizes)
        raise UsageError(f"hand {name}: {variant.name} hands are written {layout}, "
                         f"e.g. {name}=AsKs/QdQc/2c2d")
    allocation: dict[str, Sequence[Card]] = {}
    for (category, size), part in zip(sizes.items(), parts, strict=True):
        cards = _parse_cards(part, f"hand {name}, {category}")
        if len(cards) != size:
            raise UsageError(f"hand {name}: {category} takes {size} cards, got {len(cards)}")
        allocation[category] = cards
    hole = tuple(card for cards in allocation.values() for card in cards)
    return Player(name, hole, allocation)


def _check_hole_counts(variant: Variant, players: Sequence[Player]) -> Variant:
    """The variant with its hole-card option set from the hands; wrong counts are errors."""
    if variant.has_allocation:
        return variant
    counts = {len(p.hole) for p in players}
    if len(counts) > 1:
        detail = ", ".join(f"{p.name} {len(p.hole)}" for p in players)
        raise UsageError(f"every hand at a showdown holds the same number of cards ({detail})")
    (count,) = counts
    if variant.has_redraws:
        caps = [s.redraw_cap for s in variant.streets if s.redraw_cap is not None]
        low, high = variant.hole_cards, variant.hole_cards + max(caps)
        if not low <= count <= high:
            raise UsageError(f"{variant.name} hands hold {low} to {high} cards with redraws, "
                             f"not {count}")
        return variant
    if count not in variant.hole_card_options:
        options = " or ".join(str(n) for n in variant.hole_card_options)
        raise UsageError(f"{variant.name} hands hold {options} cards, not {count}")
    return variant.with_options(hole_cards=count)


def settle(variant_id: str, board_args: Sequence[str], hand_args: Sequence[str]) -> dict[str, Any]:
    """The showdown's result as plain data (the ``--json`` object)."""
    from boardroom.cards import check_distinct
    from boardroom.engine.showdown import CategoryHands, portion_fractions, score_pot
    from boardroom.rules import SpecError, find_variant
    from boardroom.rules.scoring import category_hand

    try:
        variant = find_variant(variant_id)
    except SpecError as error:
        raise UsageError(str(error)) from None
    boards = _parse_boards(variant, board_args)
    players = [_parse_player(variant, text) for text in hand_args]
    names = [p.name for p in players]
    if len(players) < 2:
        raise UsageError("a showdown needs at least two hands (--hand NAME=CARDS)")
    if len(set(names)) != len(names):
        raise UsageError("two hands have the same name")
    if len(players) > max(variant.max_players_by_hole.values()):
        raise UsageError(f"{variant.name} seats at most "
                         f"{max(variant.max_players_by_hole.values())} players")
    variant = _check_hole_counts(variant, players)
    if len(players) > variant.max_players:
        raise UsageError(f"{variant.name} with {variant.hole_cards} hole cards seats at most "
                         f"{variant.max_players} players")
    try:
        check_distinct([c for cards in boards.values() for c in cards]
                       + [c for p in players for c in p.hole])
    except ValueError as error:
        raise UsageError(str(error)) from None
    hands: dict[int, CategoryHands] = {
        seat: {c.name: category_hand(variant, c, p.hole, boards, p.allocation)
               for c in variant.categories}
        for seat, p in enumerate(players)
    }
    seats = list(range(len(players)))
    scored, points, portions = score_pot(seats, hands, variant.category_names, variant.split)
    owed = portion_fractions(portions)
    return {
        "variant": variant.id,
        "boards": {name: _format(cards) for name, cards in boards.items()},
        "categories": [
            {
                "name": result.name,
                "winners": [names[seat] for seat in result.winners],
                "hands": {names[seat]: _describe(hands[seat][result.name])
                          for seat in seats},
            }
            for result in scored
        ],
        "points": {names[seat]: str(points[seat]) for seat in seats},
        "share": {names[seat]: str(owed.get(seat, Fraction(0))) for seat in seats},
        "winners": [names[seat] for seat in seats if seat in owed],
    }


def _format(cards: Sequence[Card]) -> str:
    from boardroom.cards import format_cards

    return format_cards(cards)


def _describe(value: Any) -> str:
    if value is None:
        return "No low"
    description: str = value.description
    return f"{description} ({_format(value.cards)})"


def run(args: argparse.Namespace) -> int:
    result = settle(args.variant, args.board, args.hand)
    if args.json:
        print(json.dumps(result))
        return 0
    boards = "  ".join(f"{name}: {cards}" for name, cards in result["boards"].items())
    print(f"{result['variant']}  {boards}")
    width = max(len(name) for name in result["points"])
    for category in result["categories"]:
        void = " (void: nobody qualifies)" if not category["winners"] else ""
        print(f"\n{category['name']}{void}")
        for name, hand in category["hands"].items():
            mark = "  <- wins" if name in category["winners"] else ""
            if mark and len(category["winners"]) > 1:
                mark = "  <- ties"
            print(f"  {name:<{width}}  {hand}{mark}")
    print("\nPoints: " + ", ".join(f"{n} {p}" for n, p in result["points"].items()))
    shares = ", ".join(f"{n} {result['share'][n]}" for n in result["winners"])
    print(f"Pot:    {shares}")
    return 0
