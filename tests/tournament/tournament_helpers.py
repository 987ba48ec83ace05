"""Directors for the tests: small structures, scripted hands, random-action play."""

from __future__ import annotations

import random

from boardroom.engine import Hand
from boardroom.tournament import Director, Level, PayoutTable, Structure, TournamentConfig
from engine.engine_invariants import random_action


def structure(levels: int = 5, *, minutes: int | None = 10, hands: int | None = None,
              stack: int = 1000, **settings: object) -> Structure:
    schedule = tuple(Level(10 * 2**k, 20 * 2**k, minutes=minutes, hands=hands)
                     for k in range(levels))
    return Structure("test", stack, schedule, **settings).check()  # type: ignore[arg-type]


def director(players: int, *, size: int = 6, games: tuple[str, ...] = ("plo",),
             seed: int = 1, start: bool = True, payouts: PayoutTable | None = None,
             **settings: object) -> Director:
    config = TournamentConfig(structure(**settings), games=games,  # type: ignore[arg-type]
                              table_size=size, payouts=payouts)
    result = Director(config, seed=seed)
    for k in range(players):
        result.register(f"p{k}", f"Player {k}", 0.0)
    if start:
        result.start(0.0)
    return result


def random_actor(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def act(hand: Hand, seat: int, player: str) -> None:
        if hand.is_allocating:
            hand.allocate_best(seat)
            return
        legal = hand.legal_actions()
        assert legal is not None
        random_action(hand, legal, rng)

    return act


def end_hand(d: Director, table: int, now: float, busted: tuple[str, ...] = (),
             winner: str | None = None) -> None:
    """End ``table``'s running hand: ``busted`` players lose everything to ``winner`` (the
    first other player dealt in by default)."""
    stacks = dict(d.tables[table].start_stacks)
    if busted:
        winner = winner or next(p for p in stacks if p not in busted)
        for player in busted:
            stacks[winner] += stacks[player]
            stacks[player] = 0
    d.hand_ended(table, stacks, now)
