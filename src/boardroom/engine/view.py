"""What one viewer may see of a hand (DESIGN.md: hidden information never leaves the server).

A seat sees its own cards and everything public; a spectator (``None``) sees only what is
public. Public: stud's up cards, the boards, every bet and stack, and the cards of hands shown at
showdown. Never public: other seats' down cards, burned cards, mucked hands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from boardroom.cards import Card
from boardroom.engine import events as ev
from boardroom.engine.hand import Hand, LegalActions
from boardroom.engine.showdown import Pot

Seat = int


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: Seat
    stack: int
    bet: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]  # None: a card this viewer may not see
    up: tuple[bool, ...]
    shown: bool | None  # True shown, False mucked, None no showdown (yet)


@dataclass(frozen=True, slots=True)
class HandView:
    viewer: Seat | None
    variant: str
    street: str | None
    button: Seat
    seats: tuple[SeatView, ...]
    boards: dict[str, tuple[Card, ...]]
    pots: tuple[Pot, ...]
    actor: Seat | None
    legal: LegalActions | None  # only for the viewer whose turn it is
    is_over: bool
    winnings: dict[Seat, int]  # chips each seat took from the pots (once the hand is over)


def can_see(hand: Hand, viewer: Seat | None, seat: Seat, index: int) -> bool:
    """Whether ``viewer`` may see card ``index`` of ``seat``'s hand."""
    return viewer == seat or hand.up[seat][index] or hand.shown.get(seat, False)


def view_for(hand: Hand, viewer: Seat | None) -> HandView:
    """The hand as ``viewer`` (a seat, or None for a spectator) may see it."""
    seats = []
    for seat in range(hand.seat_count):
        cards = tuple(card if can_see(hand, viewer, seat, i) else None
                      for i, card in enumerate(hand.hole[seat]))
        seats.append(SeatView(
            seat=seat, stack=hand.stacks[seat], bet=hand.bets[seat], folded=not hand.live[seat],
            all_in=hand.live[seat] and hand.stacks[seat] == 0, cards=cards,
            up=tuple(hand.up[seat]), shown=hand.shown.get(seat),
        ))
    winnings: dict[Seat, int] = {}
    for result in hand.results:
        for seat, chips in result.shares.items():
            winnings[seat] = winnings.get(seat, 0) + chips
    legal = hand.legal_actions() if viewer is not None and hand.actor == viewer else None
    street = hand.street
    return HandView(
        viewer=viewer, variant=hand.variant.id, street=street.name if street else None,
        button=hand.button, seats=tuple(seats),
        boards={name: tuple(cards) for name, cards in hand.boards.items()},
        pots=tuple(hand.pots()) if not hand.is_over else (), actor=hand.actor, legal=legal,
        is_over=hand.is_over, winnings=winnings,
    )


def events_for(hand: Hand, viewer: Seat | None) -> list[ev.Event]:
    """The hand's events with every card ``viewer`` may not see replaced by None."""
    shown = {seat for seat, showed in hand.shown.items() if showed}
    visible: list[ev.Event] = []
    for event in hand.events:
        if isinstance(event, ev.HoleDealt) and event.seat != viewer and event.seat not in shown:
            event = replace(event, cards=tuple(
                card if up else None for card, up in zip(event.cards, event.up, strict=True)))
        elif isinstance(event, ev.CardBurned):
            event = ev.CardBurned(None)
        visible.append(event)
    return visible
