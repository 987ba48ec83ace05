"""What one viewer may see of a hand (DESIGN.md: hidden information never leaves the server).

A seat sees its own cards and everything public; a spectator (``None``) sees only what is
public. Public: stud's up cards, the boards, every bet and stack, the pool's size, and the cards of
hands shown at showdown (in the Allocator games only the allocated cards). Never public: other
seats' down cards and redraws, the pool, undealt board cards, burned cards, mucked hands,
discards, and allocations before every seat has committed.

A seat's view also carries its pills (``boardroom.engine.pills``); after the showdown every view
lists each shown hand with its category hands, and each pot with its category winners and points.

Viewers and every seat in a view are table seats (``Hand.seats``), as in the hand's events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import NamedTuple

from boardroom.cards import Card
from boardroom.engine import events as ev
from boardroom.engine.hand import Hand, LegalActions, clockwise
from boardroom.engine.pills import Pill, forget, pills_for
from boardroom.engine.showdown import Pot
from boardroom.evaluation.nuts import one_round

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
    redraws: int = 0  # redraw cards received this hand (public: everybody gets the same)
    allocated: bool | None = None  # allocation phase: committed yet? None outside it


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at showdown: its public cards, its hand in each category, its allocation."""

    seat: Seat
    cards: tuple[Card, ...]
    categories: tuple[tuple[str, str], ...]  # (category, hand description or "none")
    allocation: tuple[tuple[str, tuple[Card, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class PotView:
    """A settled pot: category winners (empty: void), points per seat, chips per seat."""

    index: int
    amount: int
    eligible: tuple[Seat, ...]
    categories: tuple[tuple[str, tuple[Seat, ...]], ...]
    points: tuple[tuple[Seat, Fraction], ...]
    shares: tuple[tuple[Seat, int], ...]
    run: int = 1  # the run whose share of the pot this is (engine.runs)


@dataclass(frozen=True, slots=True)
class RunView:
    """A run after the first (engine.runs): its whole boards and each live seat's cards dealt
    in it (another seat's hidden until its hand is shown)."""

    run: int
    boards: dict[str, tuple[Card, ...]]
    cards: tuple[tuple[Seat, tuple[Card | None, ...]], ...]


@dataclass(frozen=True, slots=True)
class HandView:
    viewer: Seat | None
    game: str  # the variant's id: which game is dealt
    street: str | None
    button: Seat
    seats: tuple[SeatView, ...]
    boards: dict[str, tuple[Card, ...]]
    pots: tuple[Pot, ...]
    actor: Seat | None
    legal: LegalActions | None  # only for the viewer whose turn it is
    is_over: bool
    winnings: dict[Seat, int]  # chips each seat took from the pots (once the hand is over)
    pool_size: int | None = None  # the redraw pool's size (None in games without redraws)
    pills: tuple[Pill, ...] = ()  # the viewer's pills, one per category (seats only)
    allocating: bool = False
    allocation_pending: tuple[Seat, ...] = ()
    allocation: tuple[tuple[str, tuple[Card, ...]], ...] = ()  # the viewer's own commit
    showdown: tuple[ShownHand, ...] = ()
    results: tuple[PotView, ...] = field(default=())
    # Running it more than once (engine.runs): the offer open now (the most runs, the seats
    # still to answer, each answer so far), then the runs agreed and every run after the first.
    runs_most: int = 0
    runs_pending: tuple[Seat, ...] = ()
    run_choices: tuple[tuple[Seat, int], ...] = ()
    run_count: int = 1
    runs: tuple[RunView, ...] = ()

    def seat_view(self, seat: Seat) -> SeatView:
        """The view of the player at table seat ``seat``."""
        for view in self.seats:
            if view.seat == seat:
                return view
        raise KeyError(f"seat {seat} is not in this hand")

    @property
    def clockwise(self) -> tuple[Seat, ...]:
        """The players' table seats clockwise from the first left of the button (the dealing
        order); ``seats`` runs clockwise too, from the hand's first position."""
        return clockwise(tuple(view.seat for view in self.seats), self.button)


def can_see(hand: Hand, viewer: Seat | None, seat: Seat, index: int) -> bool:
    """Whether ``viewer`` may see card ``index`` of ``seat``'s hand (both table seats)."""
    position = hand.position(seat)
    if viewer == seat or hand.up[position][index]:
        return True
    return hand.shown.get(position, False) and \
        hand.hole[position][index] in hand.public_cards(seat)


def view_for(hand: Hand, viewer: Seat | None, *, pills: bool = True) -> HandView:
    """The hand as ``viewer`` (a seat, or None for a spectator) may see it; without its pills
    (``pills=False``: what a bot decides from, which never reads them) when told."""
    return views_for(hand, (viewer,), pills=pills)[viewer]


class OwnView(NamedTuple):
    """What a seat's view of a hand has of its own beside the spectators' (``own_views``'
    base): its seat as its player sees it (the cards too), at ``position`` in the view's
    ``seats``, and the view's fields named as the rest of these (``OWN_FIELDS``). Everything
    else in the seat's view is the spectators', the same objects."""

    position: int
    seat: SeatView
    legal: LegalActions | None  # its legal actions, when it is to act
    pills: tuple[Pill, ...]
    allocation: tuple[tuple[str, tuple[Card, ...]], ...]  # its own commit
    runs: tuple[RunView, ...]  # the runs after the first, its cards shown to it


OWN_FIELDS = OwnView._fields[2:]
"""The fields of a seat's ``HandView`` an ``OwnView`` gives, beside its viewer and seats."""


def own_views(hand: Hand, viewers: Iterable[Seat], *,
              pills: bool = True) -> tuple[HandView, dict[Seat, OwnView]]:
    """The hand as a spectator sees it, and what each of ``viewers`` (table seats in the
    hand) sees of its own beside that: ``views_for`` puts them together, and a room's pushes
    encode the spectators' view once and only each seat's own parts beside it.

    What every viewer sees alike (the seats as a spectator sees them, the boards, pots, shown
    hands and results) is built once; each seat's view then differs in its own seat's cards,
    its pills, its allocation and, for the seat to act, its legal actions. The views are
    frozen, so sharing their parts is safe. Inside, players are the hand's positions; the
    views name their table seats (``names``)."""
    names = hand.seats
    pending = hand.allocation_pending
    publics = [hand.public_cards(seat) for seat in names]
    seats = tuple(SeatView(
        seat=names[seat], stack=hand.stacks[seat], bet=hand.bets[seat], folded=not hand.live[seat],
        all_in=hand.live[seat] and hand.stacks[seat] == 0,
        cards=tuple(card if card in publics[seat] else None for card in hand.hole[seat]),
        up=tuple(hand.up[seat]), shown=hand.shown.get(seat), redraws=hand.redraws[seat],
        allocated=(seat not in pending) if hand.is_allocating and hand.live[seat] else None,
    ) for seat in range(hand.seat_count))
    street = hand.street
    base = HandView(
        viewer=None, game=hand.variant.id, street=street.name if street else None,
        button=hand.button, seats=seats,
        boards={name: tuple(cards) for name, cards in hand.boards.items()},
        pots=tuple(Pot(pot.amount, tuple(names[s] for s in pot.eligible)) for pot in hand.pots())
        if not hand.is_over else (), actor=hand.seat_to_act, legal=None,
        is_over=hand.is_over, winnings=hand.winnings, pool_size=hand.pool_size,
        allocating=hand.is_allocating, allocation_pending=hand.seats_to_allocate,
        showdown=_shown_hands(hand), results=_pot_views(hand),
        runs_most=hand.runs_most if hand.is_choosing_runs else 0,
        runs_pending=hand.seats_choosing_runs,
        run_choices=tuple((names[s], runs) for s, runs in hand.run_choices.items()),
        run_count=hand.run_count, runs=_run_views(hand, None),
    )
    owns: dict[Seat, OwnView] = {}
    with one_round():  # each board's table: built once for these viewers, then dropped
        for seat_viewing in viewers:
            if seat_viewing not in names or seat_viewing in owns:
                continue
            viewer = hand.position(seat_viewing)
            seen: set[Card] = set()
            for seat, public in enumerate(publics):
                if seat != viewer:
                    seen.update(public)
            own = hand.allocations.get(viewer)
            owns[seat_viewing] = OwnView(
                viewer, replace(seats[viewer], cards=tuple(hand.hole[viewer])),
                hand.legal_actions() if hand.actor == viewer else None,
                pills_for(hand.variant, hand.hole[viewer], hand.boards, seen,
                          own if hand.allocations_revealed else None,
                          owner=(id(hand), viewer)) if pills else (),
                tuple(own.items()) if own is not None else (),
                _run_views(hand, viewer) if hand.runs else ())
    return base, owns


def views_for(hand: Hand, viewers: Iterable[Seat | None], *,
              pills: bool = True) -> dict[Seat | None, HandView]:
    """The hand as each of ``viewers`` may see it, as ``view_for`` gives it for each alone:
    ``own_views``, each seat's own parts put into the spectators' view (their shared parts
    built once)."""
    wanted = list(viewers)
    base, owns = own_views(hand, [seat for seat in wanted if seat is not None], pills=pills)
    return {viewer: base if viewer is None else with_own(base, viewer, owns.get(viewer))
            for viewer in wanted}


def with_own(base: HandView, viewer: Seat, own: OwnView | None) -> HandView:
    """Table seat ``viewer``'s view: the spectators' ``base`` with its ``own`` parts (None:
    it is not in the hand, and sees what a spectator sees)."""
    if own is None:
        return replace(base, viewer=viewer)
    position, seats = own.position, base.seats
    return replace(base, viewer=viewer, seats=(*seats[:position], own.seat, *seats[position + 1:]),
                   legal=own.legal, pills=own.pills, allocation=own.allocation, runs=own.runs)


def forget_pills(hand: Hand) -> None:
    """Drop the pills kept for ``hand``'s seats (``engine.pills`` keeps each seat's current
    ones, named by the hand and the seat): call once its last views are built."""
    forget((id(hand), position) for position in range(hand.seat_count))


def _run_views(hand: Hand, viewer: int | None) -> tuple[RunView, ...]:
    """The runs after the first as ``viewer`` (a position in the hand) sees them, their
    players named by table seat."""
    return tuple(RunView(
        run=run.number, boards=dict(run.boards),
        cards=tuple((hand.seats[seat], tuple(cards) if seat == viewer or hand.shown.get(seat)
                     else (None,) * len(cards)) for seat, cards in run.cards),
    ) for run in hand.runs[1:])


def _shown_hands(hand: Hand) -> tuple[ShownHand, ...]:
    shown = []
    for seat, showed in hand.shown.items():
        if not showed:
            continue
        hands = hand.category_hands(hand.seats[seat])
        allocation = hand.allocations.get(seat) if hand.allocations_revealed else None
        shown.append(ShownHand(
            seat=hand.seats[seat],
            cards=tuple(card for card in hand.hole[seat]
                        if card in hand.public_cards(hand.seats[seat])),
            categories=tuple((name, value.description if value is not None else "none")
                             for name, value in hands.items()),
            allocation=tuple(allocation.items()) if allocation is not None else (),
        ))
    return tuple(shown)


def _pot_views(hand: Hand) -> tuple[PotView, ...]:
    names = hand.seats
    runs = [(run.number, run.results) for run in hand.runs] or [(1, hand.results)]
    return tuple(
        PotView(
            index=index, amount=result.pot.amount,
            eligible=tuple(names[s] for s in result.pot.eligible),
            categories=tuple((c.name, tuple(names[s] for s in c.winners))
                             for c in result.categories),
            points=tuple((names[s], points) for s, points in result.points.items()),
            shares=tuple((names[s], chips) for s, chips in result.shares.items()),
            run=number,
        )
        for number, results in runs for index, result in enumerate(results)
    )


def events_for(hand: Hand, viewer: Seat | None, start: int = 0, *,
               as_they_came: bool = False) -> list[ev.Event]:
    """The hand's events from ``start`` on with every card ``viewer`` (a table seat, None: a
    spectator) may not see replaced by None. With ``as_they_came`` (pushes: each event goes
    out under its own version), an event shows only what was public when it happened: a card
    that a later event shows (the showdown in the same batch as the deal or the draw that dealt
    it) stays hidden in the earlier event, and the later one shows it."""
    if as_they_came:
        return pushed_events(hand, (viewer,), start)[viewer]
    publics: dict[Seat, set[Card]] = {}
    return [event_as_seen(hand, viewer, event, publics) for event in hand.events[start:]]


def pushed_events(hand: Hand, viewers: Iterable[Seat | None],
                  start: int = 0) -> dict[Seat | None, list[ev.Event]]:
    """``events_for(hand, viewer, start, as_they_came=True)`` for each of ``viewers`` at once:
    the cards each event must hide because a later event of the batch shows them are worked
    out once for the batch (they are the same for every viewer), not once per viewer."""
    events = hand.events[start:]
    later = _shown_later(hand, start)
    hidden = [later(start + k) for k in range(len(events))] if later is not None else \
        [None] * len(events)
    pushed: dict[Seat | None, list[ev.Event]] = {}
    for viewer in viewers:
        publics: dict[Seat, set[Card]] = {}
        pushed[viewer] = [event_as_seen(hand, viewer, event, publics, hidden=hidden[k])
                          for k, event in enumerate(events)]
    return pushed


def _shown_later(hand: Hand, start: int) -> Callable[[int], dict[Seat, set[Card]]] | None:
    """For the events from ``start`` on, a function giving, at event index ``i``, each owner's
    cards that only a show at a later index makes public (not up cards, not cards shown by
    ``i``); None when no event from ``start`` on shows a hand (nothing to hide)."""
    shows = [(i, shown) for i in range(start, len(hand.events))
             if (shown := _shown_by(hand.events[i]))]
    if not shows:
        return None
    up: dict[Seat, set[Card]] = {}  # dealt face up: public from its deal on
    for event in hand.events:
        if isinstance(event, ev.HoleDealt):
            up.setdefault(event.seat, set()).update(
                card for card, is_up in zip(event.cards, event.up, strict=True)
                if is_up and card is not None)
    before: dict[Seat, set[Card]] = {}
    for event in hand.events[:start]:
        for owner, cards in _shown_by(event).items():
            before.setdefault(owner, set()).update(cards)

    def hidden(at: int) -> dict[Seat, set[Card]]:
        so_far = {owner: set(cards) for owner, cards in before.items()}
        for i, shown in shows:
            if i <= at:
                for owner, cards in shown.items():
                    so_far.setdefault(owner, set()).update(cards)
        found: dict[Seat, set[Card]] = {}
        for i, shown in shows:
            if i > at:
                for owner, cards in shown.items():
                    found.setdefault(owner, set()).update(
                        cards - so_far.get(owner, set()) - up.get(owner, set()))
        return found

    return hidden


def _shown_by(event: ev.Event) -> dict[Seat, set[Card]]:
    """The cards ``event`` makes public, by owner (a shown hand, the revealed allocations)."""
    if isinstance(event, ev.HandShown):
        return {event.seat: set(event.cards)}
    if isinstance(event, ev.AllocationsRevealed):
        return {seat: {card for _, cards in parts for card in cards}
                for seat, parts in event.allocations}
    return {}


def event_as_seen(hand: Hand, viewer: Seat | None, event: ev.Event,
                  publics: dict[Seat, set[Card]] | None = None, *,
                  hidden: Mapping[Seat, set[Card]] | None = None) -> ev.Event:
    """One event of ``hand`` as ``viewer`` may see it now: each private card (``ev.Private``)
    only by its owner, or by anyone once it is public (an up card, a shown hand's card, unless
    the event keeps its cards private: ``ev.shown_with_hand``), except the cards of ``hidden``
    (by owner: those a later event shows). ``publics`` caches each owner's public cards
    between the events of one call."""
    reveal = ev.shown_with_hand(type(event))
    known = publics if publics is not None else {}
    later = hidden or {}

    def see(owner: Seat | None, card: Card) -> bool:
        if owner is None or owner == viewer:
            return owner is not None
        if not reveal or card in later.get(owner, ()):
            return False
        public = known.get(owner)
        if public is None:
            public = known[owner] = hand.public_cards(owner)
        return card in public

    return ev.redacted(event, see)
