"""The table's side of provably fair deals (``boardroom.fairness``; docs/fairness.md).

The window (docs/decisions.md): when the pause before a hand begins, the table draws the next
hand's server seed and publishes its commitment (event ``fair_commitment``, and ``fair`` in the
public state). From then until the deal, each seated player may send a client seed for that hand
(``Table.client_seed``); at the deal every player dealt in without one gets one made by the
server, and the hand's record says which. The record keeps the server seed for the store (so a
recovered hand is dealt again from the same seeds); only a finished hand's history reveals it.

Plain data throughout, as the table's state is: seeds are hex strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from boardroom import fairness
from boardroom.cards import RandomSource
from boardroom.engine.hand import clockwise
from boardroom.rules import Variant

T = TypeVar("T")


def _new_seed(rng: RandomSource | None) -> bytes:
    """A fresh 32-byte seed: ``secrets`` in play, a test's seeded generator
    (``random.Random``) when one is injected."""
    randbytes = getattr(rng, "randbytes", None)
    if callable(randbytes):
        made = randbytes(fairness.SEED_BYTES)
        assert isinstance(made, bytes)
        return made
    return fairness.new_server_seed()


def new_commitment(hand_no: int, rng: RandomSource | None) -> dict[str, Any]:
    """The next hand's secret server seed and its public commitment, before any client seed."""
    seed = _new_seed(rng)
    return {"hand_no": hand_no, "server_seed": seed.hex(),
            "commitment": fairness.commitment(seed), "client_seeds": {}}


def copy(pending: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A commitment's own copy (its client seeds are a dict of their own)."""
    if pending is None:
        return None
    return {**pending, "client_seeds": dict(pending["client_seeds"])}


def public(pending: Mapping[str, Any]) -> dict[str, Any]:
    """What everyone may know of the next hand's commitment: never a seed."""
    return {"hand_no": pending["hand_no"], "commitment": pending["commitment"],
            "seeded": sorted(int(seat) for seat in pending["client_seeds"]), "open": True}


def for_hand(pending: Mapping[str, Any], room: str, seats: Sequence[int],
             rng: RandomSource | None) -> dict[str, Any]:
    """The hand's ``fair`` record: the seeds by hand seat (``seats[i]`` is hand seat ``i``'s
    table seat), a seed made by the server for each seat that sent none."""
    sent: Mapping[str, str] = pending["client_seeds"]
    made = [str(seat) not in sent for seat in seats]
    clients = [sent[str(seat)] if str(seat) in sent
               else _new_seed(rng).hex() for seat in seats]
    return {"scheme": fairness.SCHEME, "room": room, "commitment": pending["commitment"],
            "server_seed": pending["server_seed"], "client_seeds": clients, "server_made": made}


def seeds_of(record: Mapping[str, Any]) -> fairness.Seeds | None:
    """The seeds hand ``record`` was dealt from (None: a hand stored before fair deals)."""
    fair = record.get("fair")
    if fair is None:
        return None
    return fairness.Seeds(bytes.fromhex(fair["server_seed"]), fair["room"], record["hand_no"],
                          tuple(_in_deal_order(record, fair["client_seeds"])))


def history_fields(record: Mapping[str, Any], variant: Variant) -> dict[str, Any] | None:
    """The ``_fairness`` table of a finished hand's history (docs/history.md): the scheme, the
    commitment, the revealed server seed, the client seeds and who made them (p1 first), and
    how the deck was dealt (burns, cards set aside for the boards)."""
    fair = record.get("fair")
    if fair is None:
        return None
    return {
        "scheme": fair["scheme"], "room": fair["room"], "hand_no": record["hand_no"],
        "commitment": fair["commitment"], "server_seed": fair["server_seed"],
        "client_seeds": _in_deal_order(record, fair["client_seeds"]),
        "server_made": _in_deal_order(record, fair["server_made"]),
        "burns": variant.burns,
        "set_aside": variant.board_card_count if variant.has_redraws else 0,
    }


def _in_deal_order(record: Mapping[str, Any], values: Sequence[T]) -> list[T]:
    """``values``, one for each of the hand's ``seats`` in their order, in the dealing order
    (from the button's left: PHH's p1 first)."""
    by_seat = dict(zip(record["seats"], values, strict=True))
    return [by_seat[seat] for seat in clockwise(record["seats"], record["button"])]
