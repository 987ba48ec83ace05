"""The all-in equity of a finished hand, as the room publishes it (``equity`` event and
``last_hand.equity``).

A hand that ran out all-in (``Hand.runout``) gets, for each spot of its run-out, every live
player's chance of winning each pot and expected share of it (``engine.equity``), with table
seats and names. It is public only because every live hand of an all-in showdown is face up:
a hand in which any of them was not shown gets none. The room computes it in a worker thread
once the hand is over, off the actor's path, once for every audience.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from boardroom.engine.equity import runout_equity, supports
from boardroom.engine.hand import Hand
from boardroom.rules import Split
from boardroom.table import TableSettings, rebuild_hand


def percent(value: Fraction) -> str:
    """A fraction as a percentage to one decimal, rounded half up: 2/3 -> '66.7'."""
    tenths = int(value * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}"


def hand_equity(hand: Hand, record: dict[str, Any]) -> dict[str, Any] | None:
    """The run-out's equity, street by street, for everyone; None when there is none to show."""
    variant = hand.variant
    if not hand.is_over or not hand.runout or not supports(variant):
        return None
    if not all(hand.showed(seat) for spot in hand.runout
               for seat, _ in spot.hands):
        return None  # a live hand still face down: its chances would tell its cards
    names = {player["seat"]: player["name"] for player in record["players"]}
    streets = []
    for spot in hand.runout:
        equity = runout_equity(variant, spot)
        streets.append({
            "street": equity.street, "exact": equity.exact, "deals": equity.deals,
            "margin": percent(equity.margin),
            "pots": [{"index": pot.index, "amount": pot.amount, "seats": [
                {"seat": s.seat, "name": names.get(s.seat, ""),
                 "win": str(s.win), "share": str(s.share),
                 "win_pct": percent(s.win), "share_pct": percent(s.share)}
                for s in pot.seats]} for pot in equity.pots]})
    return {"hand_no": record["hand_no"], "game": variant.id,
            "points": variant.split is Split.POINTS and len(variant.categories) > 1,
            # where a share differs from winning outright: points and hi-lo pots
            "shares": len(variant.categories) > 1, "streets": streets}


def equity_of_record(settings: TableSettings, record: dict[str, Any]) -> dict[str, Any] | None:
    """``hand_equity`` of a finished hand's record (replayed first): the worker thread's job."""
    return hand_equity(rebuild_hand(settings, record), record)
