"""One seat numbering, the engine's side: everything public on a ``Hand`` that takes or names a
player speaks its table seat (the button, ``to_call``, the allocation, the runs, the cards shown),
so no caller translates; a hand dealt to seats 2, 5 and 7 plays exactly as one dealt to 0, 1, 2."""

from __future__ import annotations

import dataclasses
import random
import types
import typing

import pytest

from boardroom.engine import ActionError, Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.view import view_for
from boardroom.rules import find_variant

SEATS = (2, 5, 7)
RENAME = dict(enumerate(SEATS))


def _pair(game: str, seed: int, button: int = 1, show: tuple[int, ...] = (),
          **options: object) -> tuple[Hand, Hand]:
    """The same deal twice: to seats 0, 1, 2 and to seats 2, 5, 7, the button on the same
    player (position ``button``), the same players (positions ``show``) asking to show."""
    variant = find_variant(game)
    stakes = Stakes(small_blind=1, big_blind=2) if variant.forced_bets.name == "BLINDS" else \
        Stakes(ante=1, big_blind=2)
    hands = []
    for seats in (None, SEATS):
        named = dict(enumerate(seats or range(3)))
        hands.append(Hand(variant, stakes, [100, 80, 120], named[button], cards=Deck(
            rng=random.Random(seed)), manual_allocation=True, seats=seats,
            show_requests=[named[p] for p in show], **options))  # type: ignore[arg-type]
    return hands[0], hands[1]


def _both(plain: Hand, seated: Hand, act: str, seat: int, *args: object) -> None:
    getattr(plain, act)(seat, *args)
    getattr(seated, act)(RENAME[seat], *args)


def test_the_button_is_a_table_seat() -> None:
    plain, seated = _pair("plo", 3)
    assert (plain.button, seated.button) == (1, 5)
    assert view_for(seated, None).button == 5
    assert seated.clockwise == (7, 2, 5)  # from the button's left, the button last
    assert plain.clockwise == (2, 0, 1)
    blinds = [(e.seat, e.blind) for e in seated.events if isinstance(e, ev.BlindPosted)]
    assert blinds == [(7, "small"), (2, "big")]
    with pytest.raises(ValueError, match="the button must be one of the seats 2, 5, 7"):
        Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [100] * 3, 1,
             cards=Deck(rng=random.Random(3)), seats=SEATS)


def test_to_call_and_the_seat_readers_take_table_seats() -> None:
    plain, seated = _pair("plo", 3)
    for position, seat in RENAME.items():
        assert seated.to_call(seat) == plain.to_call(position)
        assert seated.stack(seat) == plain.stack(position)
        assert seated.bet(seat) == plain.bet(position)
        assert seated.contribution(seat) == plain.contribution(position)
        assert seated.cards(seat) == plain.cards(position)
        assert seated.is_live(seat)
        assert seated.showed(seat) is None
    assert seated.to_call(7) == 1  # the small blind
    for reader in (seated.to_call, seated.stack, seated.cards, seated.is_live, seated.showed):
        with pytest.raises(ActionError, match="seat 1 is not in this hand"):
            reader(1)  # a position of the hand, but no table seat of it


def _to_allocation(game: str, seed: int) -> tuple[Hand, Hand]:
    plain, seated = _pair(game, seed)
    while not plain.is_allocating:
        action = "check" if plain.can_check() else "call"
        getattr(plain, action)()
        getattr(seated, action)()
    return plain, seated


def test_the_allocation_takes_table_seats() -> None:
    plain, seated = _to_allocation("allocator", 5)
    assert seated.seats_to_allocate == tuple(RENAME[p] for p in plain.seats_to_allocate)
    first = plain.seats_to_allocate[0]
    assert seated.suggest_allocation(RENAME[first]) == plain.suggest_allocation(first)
    assert seated.can_allocate(RENAME[first], plain.suggest_allocation(first))
    _both(plain, seated, "allocate", first, plain.suggest_allocation(first))
    with pytest.raises(ActionError, match=f"seat {RENAME[first]} has already committed"):
        seated.allocate(RENAME[first], seated.suggest_allocation(RENAME[first]))
    with pytest.raises(ActionError, match="seat 1 is not in this hand"):
        seated.suggest_allocation(1)
    for position in plain.seats_to_allocate:
        _both(plain, seated, "allocate_best", position)
    assert plain.is_over
    assert seated.is_over
    for position, seat in RENAME.items():
        assert seated.stack(seat) == plain.stack(position)
        assert seated.showed(seat) == plain.showed(position)
        assert seated.public_cards(seat) == plain.public_cards(position)
        assert seated.category_hands(seat) == plain.category_hands(position)
    assert seated.winnings == {RENAME[p]: chips for p, chips in plain.winnings.items()}
    assert sum(seated.winnings.values()) == sum(seated.contribution(s) for s in SEATS)


def test_the_runs_and_the_requests_to_show_take_table_seats() -> None:
    plain, seated = _pair("plo", 8, show=(1,), runs_offered=True)
    assert seated.show_requests == {5}
    for hand in (plain, seated):  # everybody all-in
        while (legal := hand.legal_actions()) is not None:
            if legal.raise_max is not None:
                hand.raise_to(legal.raise_max)
            else:
                hand.call()
    assert plain.is_choosing_runs
    assert seated.seats_choosing_runs == tuple(RENAME[p] for p in plain.seats_choosing_runs)
    for position in plain.seats_choosing_runs:
        _both(plain, seated, "choose_runs", position, 2)
    with pytest.raises(ActionError, match="nobody is offered"):
        seated.choose_runs(5, 2)
    assert seated.run_count == plain.run_count == 2
    assert seated.winnings == {RENAME[p]: chips for p, chips in plain.winnings.items()}
    seated_again = _pair("plo", 8)[1]
    seated_again.ask_to_show(5)
    assert seated_again.show_requests == {5}
    with pytest.raises(ActionError, match="seat 0 is not in this hand"):
        seated_again.ask_to_show(0)


# -- every event's seats are renamed: by their annotation, with no list to keep ---------------

# The fields of events that name no player. A new field outside this list must be a ``Seat``
# (alone, in a tuple, leading a pair), or be added here knowingly.
NOT_SEATS = {"amount", "automatic", "blind", "board", "boards", "card", "cards", "full", "index",
             "most", "reason", "run", "runs", "showdown", "size", "street", "up"}


def _event_types() -> list[type[ev.Event]]:
    found, todo = [], [ev.Event]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return [kind for kind in found if kind is not ev.Event]


def _names_seats(hint: object) -> bool:
    if typing.get_origin(hint) is typing.Annotated:
        return ev.SEAT in typing.get_args(hint)[1:] or _names_seats(typing.get_args(hint)[0])
    return any(_names_seats(arg) for arg in typing.get_args(hint))


def _sample(hint: object, seat: typing.Callable[[int], int], count: list[int]) -> object:
    """A value of type ``hint``, its seats ``seat(k)`` for the k-th seat in it, every other
    leaf the same from call to call."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        if ev.SEAT in args[1:]:
            count[0] += 1
            return seat(count[0] % 3)
        return _sample(args[0], seat, count)
    if origin is tuple:
        items = (args[0], args[0]) if len(args) == 2 and args[1] is Ellipsis else args
        return tuple(_sample(item, seat, count) for item in items)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(arg for arg in args if arg is not type(None)), seat, count)
    count[1] += 1
    return {bool: True, str: f"text {count[1]}"}.get(hint, 40 + count[1])  # type: ignore[call-overload]


def test_every_event_type_marks_its_seats() -> None:
    kinds = _event_types()
    assert ev.RunDealt in kinds
    assert ev.Redrawn in kinds
    for kind in kinds:
        hints = ev.field_hints(kind)
        for field in dataclasses.fields(kind):
            if not _names_seats(hints[field.name]):
                assert field.name in NOT_SEATS, (
                    f"{kind.__name__}.{field.name} is not annotated as naming players "
                    f"(engine.events.Seat) and not known to name none")


def test_renamed_renames_every_seat_of_every_event_type() -> None:
    renamed_any = set()
    for kind in _event_types():
        hints = ev.field_hints(kind)

        def build(seat: typing.Callable[[int], int], kind: type[ev.Event] = kind,
                  hints: dict[str, object] = hints) -> ev.Event:
            count = [0, 0]
            return kind(**{f.name: _sample(hints[f.name], seat, count)
                           for f in dataclasses.fields(kind)})

        by_position = build(lambda position: position)
        assert ev.renamed(by_position, SEATS) == build(lambda position: SEATS[position])
        assert ev.renamed(by_position, (0, 1, 2)) == by_position
        if ev.renamed(by_position, SEATS) != by_position:
            renamed_any.add(kind)
    assert {ev.RunDealt, ev.PotAwarded, ev.HandEnded, ev.AllocationsRevealed,
            ev.Folded, ev.AllocationStarted} <= renamed_any
