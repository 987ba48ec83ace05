"""Showing cards after the hand (issue 15): a player who won uncontested or mucked may show any
of their cards to the table until the next deal; the hand's record (its history) keeps them."""

from __future__ import annotations

import pytest
from table_helpers import actor_seat, make_table, start_hand

from boardroom.cards import format_cards
from boardroom.engine import BringIn, Call, Check, Fold, RaiseTo
from boardroom.table import Table, TableError, history_for


def _fold_to_the_big_blind(table: Table) -> int:
    """Everybody folds preflop: the big blind wins uncontested. Returns its table seat."""
    assert table.hand is not None
    while table.hand is not None:
        table.act(actor_seat(table), Fold())
    record = table.last_record
    assert record is not None
    winner = max(record["seats"], key=lambda s: table.seats[s].stack)
    return int(winner)


def test_the_uncontested_winner_may_show_any_of_their_cards() -> None:
    table, clock = make_table(players=3)
    start_hand(table, clock)
    assert table.hand is not None
    holes = {seat: list(table.hand.cards(seat)) for seat in table.hand_seats}
    winner = _fold_to_the_big_blind(table)
    table.drain()
    first_two = format_cards(holes[winner][:2])
    table.show_after(winner, first_two)
    events = table.drain()
    assert [e.kind for e in events] == ["shown_after"]
    assert events[0].data == {"seat": winner, "name": f"P{winner}", "hand_no": 1,
                              "cards": first_two.split()}
    assert events[0].private is not None
    assert events[0].private["shown_after"] == {
        str(table.last_record["seats"].index(winner)): first_two.split()}  # type: ignore[index]
    # More later: the shown cards add up; one already shown is not shown twice.
    table.show_after(winner, format_cards(holes[winner][1:3]))
    shown = table.drain()[0].data["cards"]
    assert shown == format_cards(holes[winner][:3]).split()


def test_show_after_refuses_what_is_not_yours_to_show() -> None:
    table, clock = make_table(players=3)
    with pytest.raises(TableError, match="there is no finished hand to show cards from"):
        table.show_after(0, "As")
    start_hand(table, clock)
    assert table.hand is not None
    holes = {seat: list(table.hand.cards(seat)) for seat in table.hand_seats}
    with pytest.raises(TableError, match="show your cards once the hand is over"):
        table.show_after(0, format_cards(holes[0][:1]))
    winner = _fold_to_the_big_blind(table)
    folded = next(s for s in holes if s != winner)
    with pytest.raises(TableError, match="you folded this hand: folded cards are not shown"):
        table.show_after(folded, format_cards(holes[folded][:1]))
    other = format_cards(holes[folded][:1])
    with pytest.raises(TableError, match=f"you did not hold {other}"):
        table.show_after(winner, other)
    with pytest.raises(TableError, match="name the cards to show"):
        table.show_after(winner, "")
    with pytest.raises(TableError, match="'Zz' is not a card"):
        table.show_after(winner, "Zz")
    # The next deal ends the window.
    start_hand(table, clock)
    with pytest.raises(TableError, match="show your cards once the hand is over"):
        table.show_after(winner, format_cards(holes[winner][:1]))


def test_a_seat_that_was_not_in_the_hand_has_nothing_to_show() -> None:
    table, clock = make_table(players=2)
    start_hand(table, clock)
    table.sit(2, "late", "Late")
    _fold_to_the_big_blind(table)
    with pytest.raises(TableError, match="you were not dealt in hand 1"):
        table.show_after(2, "As")


def test_a_seated_player_hunts_the_rabbit_once_for_everyone() -> None:
    table, clock = make_table(players=3, game="esg")
    start_hand(table, clock)
    assert table.hand is not None
    hand = table.hand
    _fold_to_the_big_blind(table)
    table.drain()
    table.sit(4, "late", "Late")  # any seated player may ask, dealt in or not
    table.drain()
    table.rabbit_hunt(4)
    events = table.drain()
    assert [e.kind for e in events] == ["rabbit"]
    hunted = hand.rabbit_hunt()
    boards: dict[str, list[str]] = {}
    for name, cards in hunted:
        boards.setdefault(name, []).extend(format_cards(cards).split())
    assert events[0].data == {"hand_no": 1, "name": "Late", "boards": boards}
    assert set(boards) == {"A", "B"}
    assert all(len(cards) == 5 for cards in boards.values())
    assert events[0].private is not None
    assert events[0].private["rabbit"] == [[name, format_cards(cards).split()]
                                           for name, cards in hunted]
    with pytest.raises(TableError, match="the rabbit of hand 1 is already out"):
        table.rabbit_hunt(0)


def test_no_rabbit_when_the_board_is_out_or_the_host_said_no() -> None:
    table, clock = make_table(players=2, game="plo")
    start_hand(table, clock)
    with pytest.raises(TableError, match="hunt the rabbit once the hand is over"):
        table.rabbit_hunt(0)
    while table.hand is not None:  # check and call to the river: every card is out
        legal = table.hand.legal_actions()
        assert legal is not None
        table.act(actor_seat(table), Check() if legal.check else Call())
    with pytest.raises(TableError, match="every card of hand 1 was dealt: no rabbit to hunt"):
        table.rabbit_hunt(0)
    off, clock = make_table(players=2, game="plo", rabbit_hunting=False)
    start_hand(off, clock)
    _fold_to_the_big_blind(off)
    with pytest.raises(TableError, match="the host turned rabbit hunting off"):
        off.rabbit_hunt(0)


def _win_uncontested(table: Table) -> int:
    """The first to act bets (stud: brings in) and everybody else folds. Returns the winner."""
    first = None
    while table.hand is not None:
        seat = actor_seat(table)
        legal = table.hand.legal_actions()
        assert legal is not None
        if first is None:
            first = seat
            assert legal.bring_in is not None or legal.raise_min is not None
            table.act(seat, BringIn() if legal.bring_in is not None
                      else RaiseTo(legal.raise_min or 0))
        else:
            table.act(seat, Fold())
    assert first is not None
    return first


@pytest.mark.parametrize("game", ["esg", "esg-low", "xmas", "balance", "bomb", "allocator",
                                  "allocator-redraw", "tilt", "omaha-hilo", "stud-hilo"])
def test_every_game_lets_the_uncontested_winner_show_and_its_history_keeps_it(game: str) -> None:
    table, clock = make_table(players=3, game=game)
    start_hand(table, clock)
    assert table.hand is not None
    holes = {table.hand_seats[i]: list(cards) for i, cards in enumerate(table.hand.hole)}
    winner = _win_uncontested(table)
    assert table.last_record is not None
    assert sum(table.chips_of(seat) for seat in table.seats) == 600
    shown = format_cards(holes[winner][-1:])
    table.show_after(winner, shown)
    assert [e.data["cards"] for e in table.drain() if e.kind == "shown_after"] == [shown.split()]
    history = history_for(table.settings, table.last_record, None)
    label = f"p{history['_table_seats'].index(winner) + 1}"
    assert history["_shown_after"] == {label: shown.replace(" ", "")}
