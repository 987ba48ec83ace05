"""Digests of the engine's behaviour, to compare before and after a change meant to change none.

For every game setting below, ``--hands`` seeded random hands (random table seats, button,
stacks from 3 to 500 chips, straddles and runs where a game has them) are played with random
actions; every legal action, probe (``can_*``, ``to_call``, ``pots``, ``raise_refusal``), the
message of every refused action, every event, the results, the run-outs and the views (every
seat and a spectator at every fifth hand's decisions, and at every hand's end) go into one
SHA-256 per setting. Run it on the code before a change and after it: the lines must match.

    python scripts/engine_digest.py --hands 300 > before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections.abc import Callable

from boardroom.engine import Deck, Hand
from boardroom.engine.betting import default_stakes
from boardroom.engine.errors import ActionError
from boardroom.engine.view import view_for
from boardroom.rules import find_variant

SETTINGS: tuple[tuple[str, str | None], ...] = (
    ("holdem", "no-limit"), ("holdem", "pot-limit"), ("holdem", "fixed-limit"),
    ("stud", "fixed-limit"), ("stud", "pot-limit"), ("razz", "fixed-limit"), ("stud5", None),
    ("stud-hilo", None), ("five-card-draw", None), ("27-single-draw", None),
    ("27-triple-draw", None), ("badugi", None), ("plo", None), ("omaha-hilo", None),
    ("esg", None), ("tilt", None), ("allocator-redraw", None), ("xmas", None),
)


def _probe(out: list[str], what: str, call: Callable[[], object]) -> None:
    try:
        out.append(f"{what}={call()!r}")
    except (ActionError, ValueError) as error:
        out.append(f"{what}!{type(error).__name__}:{error}")


def play(variant_id: str, betting: str | None, number: int, out: list[str]) -> None:
    rng = random.Random(f"{variant_id}/{betting}/{number}")
    variant = find_variant(variant_id).with_options(betting=betting)
    count = rng.randint(2, min(variant.max_players, 8))
    seats = sorted(rng.sample(range(10), count))
    stacks = [rng.choice((3, 7, 20, 60, 200, 500)) for _ in range(count)]
    button = rng.choice(seats)
    views = number % 5 == 0
    options: dict[str, object] = {}
    if variant_id in ("holdem", "plo") and count >= 3 and rng.random() < 0.3:
        options["straddle"] = "utg"
    if rng.random() < 0.3:
        options["runs_offered"] = True
    hand = Hand(variant, default_stakes(variant), stacks, button, seats=seats,
                cards=Deck(rng=rng), **options)  # type: ignore[arg-type]
    steps = 0
    while not hand.is_over:
        steps += 1
        if steps > 500:
            raise RuntimeError(f"{variant_id} hand {number} does not end")
        if hand.is_choosing_runs:
            for seat in hand.seats_choosing_runs:
                hand.choose_runs(seat, rng.randint(1, hand.runs_most))
            continue
        legal = hand.legal_actions()
        out.append(repr(legal))
        for name in ("can_fold", "can_check", "can_call", "can_post_bring_in", "can_complete"):
            _probe(out, name, getattr(hand, name))
        _probe(out, "refusal", hand.raise_refusal)
        _probe(out, "pots", hand.pots)
        _probe(out, "stacks", lambda: [hand.stack(s) for s in seats])
        if legal is None:
            raise RuntimeError("nobody to act")
        _probe(out, "to_call", lambda seat=legal.seat: hand.to_call(seat))
        for bad in (hand.fold, hand.check, hand.call, hand.post_bring_in, hand.complete):
            name = bad.__name__
            if not getattr(hand, f"can_{name}")():
                _probe(out, f"refused {name}", bad)
        _probe(out, "raise 1", lambda: hand.verify_raise_to(1))
        _probe(out, "raise 10**6", lambda: hand.verify_raise_to(10**6))
        if views:
            for viewer in (*seats, None):
                out.append(repr(view_for(hand, viewer)))
        if legal.draw is not None:
            held = list(hand.cards(legal.seat))
            _probe(out, "draw too many", lambda cards=held + held: hand.verify_draw(cards))
            hand.draw(rng.sample(held, rng.randint(0, legal.draw)))
            continue
        if legal.bring_in is not None:
            hand.post_bring_in() if rng.random() < 0.7 else hand.complete()
            continue
        choice = rng.random()
        if legal.fold and choice < 0.2:
            hand.fold()
        elif choice < 0.65 or legal.raise_min is None or legal.raise_max is None:
            hand.check() if legal.check else hand.call()
        else:
            hand.raise_to(rng.randint(legal.raise_min, legal.raise_max))
    for event in hand.events:
        out.append(repr(event))
    out.append(repr(hand.results))
    out.append(repr(hand.winnings))
    out.append(repr(hand.runout))
    out.append(repr(hand.runs))
    for viewer in (*seats, None):
        out.append(repr(view_for(hand, viewer)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--games", default=None, help="comma-separated game ids")
    args = parser.parse_args()
    chosen = set(args.games.split(",")) if args.games else None
    for variant_id, betting in SETTINGS:
        if chosen is not None and variant_id not in chosen:
            continue
        digest = hashlib.sha256()
        for number in range(args.hands):
            lines: list[str] = []
            play(variant_id, betting, number, lines)
            digest.update("\n".join(lines).encode())
        print(f"{variant_id:<18}{betting or '-':<13}{digest.hexdigest()[:32]}", flush=True)


if __name__ == "__main__":
    main()
