"""Hands dealt with the fair scheme, and their histories as each viewer gets them, for the
fairness tests: the golden hands' setups and random hands of every variant through a table."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "table"))

from table_helpers import actor_seat, allocate_all, make_table, start_hand

from action_script import random_throw
from boardroom.cards import format_cards, parse_cards
from boardroom.engine import Action, ActionError, BringIn, Call, Check, Deck, Draw, Fold, Hand
from boardroom.engine import history as hist
from boardroom.engine.view import events_for
from boardroom.fairness import FIELD
from boardroom.rules import VARIANTS
from boardroom.table import fair as table_fair
from boardroom.table import history_for

TESTS = Path(__file__).parent.parent
GOLDEN = sorted((TESTS / "engine" / "golden").glob("*.phh")) + sorted(
    (TESTS / "multiboard" / "golden").glob("*.phh"))


def fair_record(hand_no: int, button: int, count: int, rng: random.Random,
                sent: dict[int, str] | None = None) -> dict[str, Any]:
    """A hand record's ``fair`` part as the table makes it (seats 0..count-1; ``sent`` are
    the client seeds the players sent, the others made by the server)."""
    pending = table_fair.new_commitment(hand_no, rng)
    pending["client_seeds"] = {str(seat): seed for seat, seed in (sent or {}).items()}
    return {"hand_no": hand_no, "button": button, "stacks": [0] * count,
            "seats": list(range(count)),
            "fair": table_fair.for_hand(pending, "test-room", list(range(count)), rng)}


def histories(hand: Hand, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The hand's history as everyone (None) and as each player may read it, with the
    revealed seeds, as ``table.history_for`` serves them."""
    fields = table_fair.history_fields(record, hand.variant)
    written = []
    for viewer in [None, *range(hand.seat_count)]:
        seen = copy.copy(hand)
        seen.events = events_for(hand, viewer)
        seen.burned = []
        text = hist.to_record(seen)
        text[FIELD] = fields
        written.append(text)
    return written


def play_golden(path: Path, rng: random.Random) -> tuple[Hand, dict[str, Any]]:
    """The golden hand's setup (variant, stakes, stacks, button) dealt from fresh fair seeds and
    played with its betting actions in order, each by the player to act (the cards differ, so
    an action that is no longer legal becomes a check or call); allocations take the engine's
    best. Returns the hand and its record."""
    setup = hist.loads(path.read_text())
    count = len(setup.stacks)
    record = fair_record(1, setup.button, count, rng, {0: rng.randbytes(8).hex()})
    seeds = table_fair.seeds_of(record)
    assert seeds is not None
    hand = Hand(setup.variant, setup.stakes, list(setup.stacks), setup.button,
                cards=Deck(seeds=seeds), manual_allocation=setup.variant.has_allocation)
    verbs = [a.split("#")[0].split()[1:] for a in setup.actions if not a.startswith("d ")]
    for verb in verbs:
        if hand.is_over:
            break
        _act(hand, verb)
    while not hand.is_over:
        _act(hand, ["cc"])
    return hand, record


def _act(hand: Hand, verb: list[str]) -> None:
    if hand.is_allocating:
        hand.allocate_best(hand.allocation_pending[0])
        return
    if hand.is_drawing:  # the cards differ from the golden hand's: every player stands pat
        hand.stand_pat()
        return
    try:
        if verb[0] == "f":
            hand.fold()
        elif verb[0] == "pb":
            hand.post_bring_in()
        elif verb[0] == "cbr":
            hand.raise_to(int(verb[1]))
        else:
            raise ActionError("check or call")
    except ActionError:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.bring_in is not None and not legal.check and legal.call is None:
            hand.post_bring_in()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()


def random_table_hands(variant_id: str, hands: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` hands of ``variant_id`` at a table of 4 (3 for the big-deck games), random
    actions, some players sending seeds: every viewer's history of every hand."""
    rng = random.Random(seed)
    variant = next(v for v in VARIANTS if v.id == variant_id)
    players = min(4, variant.max_players)
    table, clock = make_table(players=players, seed=seed, game=variant_id,
                              starting_stack=10_000)
    written: list[dict[str, Any]] = []
    for _ in range(hands):
        pending = table.fair_next
        assert pending is not None
        for seat in range(players):
            if rng.random() < 0.6:
                table.client_seed(seat, pending["hand_no"], rng.randbytes(rng.randint(1, 32))
                                  .hex())
        start_hand(table, clock)
        while table.hand is not None:
            hand = table.hand
            if hand.is_allocating:
                allocate_all(table)
                continue
            legal = hand.legal_actions()
            assert legal is not None
            if legal.draw is not None:
                seat = actor_seat(table)
                mine = format_cards(hand.cards(seat)).split()
                table.act(seat, Draw(parse_cards(random_throw(mine, legal.draw, rng))))
                continue
            choices: list[Action] = [Fold()] * (legal.fold and rng.random() < 0.3)
            choices += [Check()] * legal.check + [Call()] * (legal.call is not None)
            choices += [BringIn()] * (legal.bring_in is not None)
            action = rng.choice(choices or [Fold()])
            table.act(actor_seat(table), action)
        ended = [e for e in table.drain() if e.kind == "hand_ended"][-1]
        record = ended.private
        assert record is not None
        for viewer in [None, *(p["player"] for p in record["players"])]:
            written.append(history_for(table.settings, record, viewer))
    return written
