"""Write the multi-board golden hands of ``golden/``: for every variant and scenario of
``mb_scenarios``, the first seed whose hand satisfies the scenario, played through the engine
(so every action in the files is legal). ``python tests/multiboard/mb_golden_hands.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))  # run as a script, too

import random

from mb_scenarios import MULTIBOARD, play, scenarios, stakes_for, variant_of

from action_script import play_script
from boardroom.engine import Deck, Hand
from boardroom.engine.history import dumps
from boardroom.rules import find_variant

# RULES.md s.7: ESG with 6 players; two fold preflop, one folds on the turn (p1..p6 clockwise
# from the button's left; p1 and p2 post the blinds, p3 acts first preflop).
RULES_EXAMPLE = ("p3 f|p4 f|p5 cc|p6 cc|p1 cc|p2 cc|"  # preflop
                 "p1 cc|p2 cc|p5 cc|p6 cc|"  # flop: 3 redraws each
                 "p1 cbr 2|p2 f|p5 cc|p6 cc|"  # turn: 1 redraw each, p2 folds 10 cards
                 "p1 cc|p5 cc|p6 cc")  # river: 4 redraws each (catch-up)


def rules_example() -> Hand:
    variant = find_variant("esg")
    hand = Hand(variant, stakes_for(variant), [100] * 6, 5, cards=Deck(rng=random.Random(7)))
    return play_script(hand, RULES_EXAMPLE)


GOLDEN = Path(__file__).parent / "golden"


def main() -> None:
    (GOLDEN / "esg__rules_example_redraws.phh").write_text(dumps(rules_example()))
    for variant_id in MULTIBOARD:
        for scenario in scenarios(variant_of(variant_id, scenarios_default())):
            variant = variant_of(variant_id, scenario)
            stacks = list(scenario.stacks)[:variant.max_players]
            for seed in range(20000):
                hand = play(variant, stacks, seed % len(stacks), seed, scenario.policy,
                            scenario.deck)
                if scenario.predicate(hand):
                    path = GOLDEN / f"{variant_id}__{scenario.name}.phh"
                    path.write_text(f"# seed {seed}\n" + dumps(hand))
                    print(path.name, "seed", seed)
                    break
            else:
                print("NOT FOUND", variant_id, scenario.name)


def scenarios_default():  # type: ignore[no-untyped-def]
    from mb_scenarios import FOLDS
    return FOLDS


if __name__ == "__main__":
    main()
