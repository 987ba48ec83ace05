"""A hand's record: dealing a hand from its setup (its seeds or, stored before fair deals,
its deck) and playing its stored actions again through the engine's one replayer.

A record names players by their table seats (``"numbering": "table seats and button"``): its
``button`` is the button's seat, its ``actions`` are ``[seat, name, argument]`` and its
``shown_after`` is keyed by seat. Records stored before named them by their position in the hand
(0..n-1, the order of ``seats``): everything without ``numbering``, the button alone with
``"numbering": "table seats"``. ``current`` turns such a record into today's form, and every
reader goes through it, so a room or a hand stored before still recovers and replays."""

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

# A record's ``numbering``: every player, the button included, named by its table seat; and
# (stored before) the players named by seat but the button by its position in the hand.
TABLE_SEATS = "table seats and button"
BUTTON_BY_POSITION = "table seats"


def new_hand(variant: Variant, stakes: Stakes, seats: Sequence[int], stacks: Sequence[int],
             button: int, cards: fairness.Seeds | Sequence[int],
             setup: Mapping[str, Any]) -> Hand:
    """A hand dealt to table ``seats`` (clockwise; ``button``: the button's seat among them)
    from its committed seeds (or, stored before fair deals, from its deck), with the tournament
    hooks its setup names."""
    deck = Deck(seeds=cards) if isinstance(cards, fairness.Seeds) else Deck(list(cards))
    return Hand(variant, stakes, stacks, button, cards=deck, manual_allocation=True,
                dead_small_blind=bool(setup.get("dead_small_blind")),
                big_blind_ante=bool(setup.get("big_blind_ante")), straddle=setup.get("straddle"),
                runs_offered=bool(setup.get("runs_offered")), seats=seats)


def current(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` naming its players and its button by table seat: as it is, or (stored before,
    by position in the hand) a copy with its positions turned into seats."""
    numbering = record.get("numbering")
    if numbering == TABLE_SEATS:
        return record if isinstance(record, dict) else dict(record)
    seats = record.get("seats")
    if not isinstance(seats, list):
        return dict(record)  # not a hand record: the reader that needs it says what is missing

    def seat(position: Any) -> Any:
        ok = isinstance(position, int) and not isinstance(position, bool)
        return seats[position] if ok and 0 <= position < len(seats) else position

    upgraded = dict(record, numbering=TABLE_SEATS)
    if "button" in record:
        upgraded["button"] = seat(record["button"])
    if numbering == BUTTON_BY_POSITION:
        return upgraded
    actions = record.get("actions")
    if isinstance(actions, list):
        upgraded["actions"] = [[seat(stored[0]), *stored[1:]]
                               if isinstance(stored, list | tuple) and stored else stored
                               for stored in actions]
    shown = record.get("shown_after")
    if isinstance(shown, Mapping):
        upgraded["shown_after"] = {str(seat(int(key))) if key.isdigit() else key: cards
                                   for key, cards in shown.items()}
    return upgraded


def rebuild_hand(settings: TableSettings, record: Mapping[str, Any]) -> Hand:
    """The hand of ``record`` (``Table.hand_record``), dealt from its deck with its actions
    (through the engine's one replayer, as a hand history replays)."""
    record = current(record)
    variant = settings.variant_for(record["game"], record["options"])
    hand = new_hand(variant, Stakes(**record["stakes"]), record["seats"], record["stacks"],
                    record["button"], fair.seeds_of(record) or record["deck"], record)
    try:
        return replay(hand, stored_actions(record))
    except ReplayError as error:
        why = f"seat {error.seat} acts out of turn" if error.out_of_turn else error.reason
        raise TableError(f"the stored hand {record.get('hand_no')} does not replay: {why} "
                         f"(action {error.index + 1})") from None


def stored_action(seat: int, action: Action) -> list[Any]:
    """``action`` of table ``seat`` as a record stores it: ``[seat, name, argument]``."""
    return [seat, *acts.record(action)]


def stored_actions(record: Mapping[str, Any]) -> list[tuple[int, Action]]:
    """A stored hand's actions, ``[seat, name, argument]`` each, as values."""
    steps = []
    for number, stored in enumerate(current(record)["actions"], 1):
        try:
            seat, name, argument = stored
            steps.append((int(seat), acts.from_record(name, argument)))
        except (TypeError, ValueError) as error:
            # A draw's or an allocation's cards are private: the error names no card.
            private = isinstance(stored, list | tuple) and len(stored) == 3 and \
                stored[1] in (Draw.name, Allocate.name)
            why = f"its {stored[1]} cannot be read" if private else str(error)
            raise TableError(f"the stored hand {record.get('hand_no')} does not replay: action "
                             f"{number} is not a stored action: {why}") from None
    return steps
