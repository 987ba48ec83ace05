"""A hand's record: dealing a hand from its setup (its seeds or, stored before fair deals,
its deck) and playing its stored actions again through the engine's one replayer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardroom import fairness
from boardroom.engine import Action, Allocate, Deck, Draw, Hand, Stakes
from boardroom.engine import actions as acts
from boardroom.engine.replay import ReplayError, replay
from boardroom.rules import Variant
from boardroom.table import fair
from boardroom.table.settings import TableError, TableSettings


def new_hand(variant: Variant, stakes: Stakes, stacks: Sequence[int], button: int,
              cards: fairness.Seeds | Sequence[int], setup: Mapping[str, Any]) -> Hand:
    """A hand dealt from its committed seeds (or, stored before fair deals, from its deck),
    with the tournament hooks its setup names."""
    deck = Deck(seeds=cards) if isinstance(cards, fairness.Seeds) else Deck(list(cards))
    return Hand(variant, stakes, stacks, button, cards=deck, manual_allocation=True,
                dead_small_blind=bool(setup.get("dead_small_blind")),
                big_blind_ante=bool(setup.get("big_blind_ante")))


def rebuild_hand(settings: TableSettings, record: Mapping[str, Any]) -> Hand:
    """The hand of ``record`` (``Table.hand_record``), dealt from its deck with its actions
    (through the engine's one replayer, as a hand history replays)."""
    variant = settings.variant_for(record["game"], record["options"])
    hand = new_hand(variant, Stakes(**record["stakes"]), record["stacks"], record["button"],
                     fair.seeds_of(record) or record["deck"], record)
    try:
        return replay(hand, stored_actions(record))
    except ReplayError as error:
        why = f"seat {error.seat} acts out of turn" if error.out_of_turn else error.reason
        raise TableError(f"the stored hand {record.get('hand_no')} does not replay: {why} "
                         f"(action {error.index + 1})") from None


def stored_actions(record: Mapping[str, Any]) -> list[tuple[int, Action]]:
    """A stored hand's actions, ``[hand seat, name, argument]`` each, as values."""
    steps = []
    for number, stored in enumerate(record["actions"], 1):
        try:
            index, name, argument = stored
            steps.append((int(index), acts.from_record(name, argument)))
        except (TypeError, ValueError) as error:
            # A draw's or an allocation's cards are private: the error names no card.
            private = isinstance(stored, list | tuple) and len(stored) == 3 and \
                stored[1] in (Draw.name, Allocate.name)
            why = f"its {stored[1]} cannot be read" if private else str(error)
            raise TableError(f"the stored hand {record.get('hand_no')} does not replay: action "
                             f"{number} is not a stored action: {why}") from None
    return steps
