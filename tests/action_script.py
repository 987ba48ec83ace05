"""Playing a hand from a short action script, for the scripts that write the golden hands:
``"p3 f|p1 cc|p2 cbr 40|pb"``. ``f`` folds, ``pb`` posts the bring-in, ``cbr N`` bets or raises
to N, ``sd [CARDS]`` throws those cards at the draw (none: stands pat), anything else checks
when it may and calls when it must; each action names the seat that must be acting (``p1`` is
hand seat 0)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from boardroom.cards import parse_cards
from boardroom.engine import Hand


def play_script(hand: Hand, script: str) -> Hand:
    for text in script.split("|"):
        player, verb, *rest = text.split()
        assert hand.actor == int(player[1:]) - 1, (text, hand.actor)
        if verb == "f":
            hand.fold()
        elif verb == "pb":
            hand.post_bring_in()
        elif verb == "cbr":
            hand.raise_to(int(rest[0]))
        elif verb == "sd":
            hand.draw(parse_cards(rest[0]) if rest else [])
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    assert hand.is_over
    return hand


def random_throw(cards: Sequence[str], most: int, rng: random.Random) -> str:
    """A random draw for the random-play tests: 0 to ``most`` of ``cards`` (notation), as the
    ``act`` command's ``cards`` takes them ("" stands pat)."""
    return " ".join(rng.sample(list(cards), rng.randint(0, min(most, len(cards)))))


def play_passively(hand: Hand) -> Hand:
    """Play ``hand`` to its end with nobody betting: the bring-in posted when it is due, a check
    when one may, a call otherwise."""
    while not hand.is_over:
        if hand.can_post_bring_in():
            hand.post_bring_in()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    return hand
