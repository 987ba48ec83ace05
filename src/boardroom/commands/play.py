"""``boardroom play``: start Boardroom on its embedded defaults.

Until the server lands, this deals a random finished hand of a variant and settles it with the
showdown calculator, so a newcomer sees the rules at work in one command.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="esg", help="variant id (default: esg)")
    parser.add_argument("--players", type=int, default=3, help="players dealt in (default: 3)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the deal for a repeatable hand (default: a secure shuffle)")


def run(args: argparse.Namespace) -> int:
    import random

    from boardroom.cards import format_cards, shuffled_deck
    from boardroom.cli import UsageError
    from boardroom.commands import showdown
    from boardroom.rules import SpecError, find_variant

    try:
        variant = find_variant(args.variant)
    except SpecError as error:
        raise UsageError(str(error)) from None
    if not 2 <= args.players <= variant.max_players:
        raise UsageError(f"{variant.name} deals to 2 to {variant.max_players} players")
    deck = shuffled_deck(random.Random(args.seed) if args.seed is not None else None)
    boards = []
    for board in variant.boards:
        boards.append(f"{board.name}={format_cards(deck[:board.size])}")
        del deck[:board.size]
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
    hands = []
    for name in names[: args.players]:
        cards, deck = deck[: variant.hole_cards], deck[variant.hole_cards:]
        if variant.has_allocation:
            parts, start = [], 0
            for size in variant.allocation_sizes.values():
                parts.append(format_cards(cards[start:start + size]))
                start += size
            hands.append(f"{name}={'/'.join(parts)}")
        else:
            hands.append(f"{name}={format_cards(cards)}")
    print(f"Dealing one hand of {variant.name} to {args.players} players "
          f"(the table server is not built yet; `boardroom --help` lists what is).\n")
    return showdown.run(argparse.Namespace(variant=variant.id, board=boards, hand=hands,
                                           json=False))
