"""A player's own straddle (issue 15): the host allows straddles (UTG, or UTG and button; off by
default), each player chooses for themselves, and only the player in the straddle position who
chose it posts, once. The choice survives a restart, shows in the public seats, is refused by
name where there is none to make, and a short stack straddles all-in with chips conserved."""

from __future__ import annotations

import pytest
from table_helpers import actor_seat, make_table, play_passively, start_hand

from boardroom.engine import Call
from boardroom.engine.events import BlindPosted
from boardroom.engine.history import dumps, replay_text
from boardroom.table import Table, TableError, TableSettings, history_for
from boardroom.table.record import rebuild_hand


def _posts(table: Table) -> list[tuple[int, int, str]]:
    assert table.hand is not None
    return [(e.seat, e.amount, e.blind) for e in table.hand.events
            if isinstance(e, BlindPosted)]


def _straddle(table: Table) -> tuple[int, int] | None:
    """The table seat that straddled the hand in play, and how much."""
    posted = [(seat, amount) for seat, amount, kind in _posts(table) if kind == "straddle"]
    assert len(posted) <= 1
    return posted[0] if posted else None


def _chips(table: Table) -> int:
    return sum(table.chips_of(seat) for seat in table.seats)


@pytest.mark.parametrize("game", ["plo", "esg", "tilt", "holdem"])
def test_only_the_player_in_the_utg_seat_who_chose_it_straddles_once(game: str) -> None:
    table, clock = make_table(4, game=game, straddle="utg")
    table.straddle_next(1, True)
    # Buttons 0, 1, 2, 3 in turn: UTG (left of the big blind) is seat 3, 0, 1, 2.
    straddles = []
    for _ in range(8):
        start_hand(table, clock)
        straddles.append(_straddle(table))
        if straddles[-1] is not None:
            assert table.hand is not None
            assert table.hand.current_bet == 4
            assert table.hand.seat_to_act == 2  # left of the straddler; it acts last
        play_passively(table)
        assert _chips(table) == 800
    assert straddles == [None, None, (1, 4), None, None, None, None, None]
    assert not table.seats[1].straddle_next  # used once: chosen again for the next one


def test_nobody_straddles_who_did_not_choose_to() -> None:
    table, clock = make_table(5, straddle="utg-button")
    for _ in range(5):
        start_hand(table, clock)
        assert [kind for _, _, kind in _posts(table)] == ["small", "big"]
        play_passively(table)


def test_a_choice_made_in_a_hand_counts_from_the_next_deal() -> None:
    table, clock = make_table(4, straddle="utg")
    start_hand(table, clock)  # button 0: seat 3 is UTG now, seat 0 next hand
    table.straddle_next(3, True)
    table.straddle_next(0, True)
    assert _straddle(table) is None
    play_passively(table)
    start_hand(table, clock)
    assert _straddle(table) == (0, 4)
    assert table.seats[3].straddle_next  # not in the position yet: its choice waits


def test_with_utg_and_button_allowed_the_button_straddles_first() -> None:
    table, clock = make_table(4, straddle="utg-button")
    table.straddle_next(0, True)  # the first button
    table.straddle_next(3, True)  # the first UTG
    start_hand(table, clock)
    assert table.button == 0
    assert _straddle(table) == (0, 4)
    assert table.hand is not None
    assert table.hand.seat_to_act == 1  # a button straddle: the small blind acts first
    assert table.seats[3].straddle_next  # one straddle a hand: the UTG's choice waits
    play_passively(table)
    start_hand(table, clock)  # button 1: UTG is seat 0; seat 3 is neither
    assert _straddle(table) is None
    play_passively(table)
    start_hand(table, clock)  # button 2: UTG is seat 1; seat 3 is neither
    play_passively(table)
    start_hand(table, clock)  # button 3: seat 3 may straddle on the button
    assert _straddle(table) == (3, 4)
    play_passively(table)
    assert _chips(table) == 800


def test_only_the_utg_seat_straddles_when_the_host_allows_only_utg() -> None:
    table, clock = make_table(4, straddle="utg")
    table.straddle_next(0, True)  # the first button: not a straddle position here
    start_hand(table, clock)
    assert _straddle(table) is None
    assert table.seats[0].straddle_next


def test_a_short_stack_straddles_all_in_and_the_full_straddle_is_the_bet() -> None:
    table, clock = make_table(4, straddle="utg")
    table.set_stack(3, 3)
    table.straddle_next(3, True)
    start_hand(table, clock)
    assert _straddle(table) == (3, 3)
    assert table.hand is not None
    assert table.hand.current_bet == 4  # RULES.md s.2: the full straddle stays the bet
    assert table.hand.legal_actions() is not None
    assert table.hand.legal_actions().call == 4  # type: ignore[union-attr]
    total = _chips(table)
    play_passively(table)
    assert _chips(table) == total
    assert table.hand is None


def test_the_choice_is_public_and_survives_a_restart() -> None:
    table, clock = make_table(4, straddle="utg")
    table.straddle_next(2, True)
    seats = {seat["seat"]: seat for seat in table.public_state()["seats"]}
    assert seats[2]["straddle_next"]
    assert not seats[1]["straddle_next"]
    assert [event.data for event in table.drain() if event.kind == "straddle_next"] == [
        {"seat": 2, "on": True}]
    restored = Table.from_state(table.settings, table.to_state(), clock=clock)
    assert restored.seats[2].straddle_next
    restored.straddle_next(2, False)
    assert not restored.seats[2].straddle_next


def test_a_straddled_hand_restored_mid_hand_goes_on_the_same() -> None:
    table, clock = make_table(4, straddle="utg")
    table.straddle_next(3, True)
    start_hand(table, clock)
    table.act(actor_seat(table), Call())
    restored = Table.from_state(table.settings, table.to_state(), clock=clock)
    assert restored.hand is not None
    assert table.hand is not None
    assert restored.hand.events == table.hand.events
    assert restored.hand.straddle_seat == table.hand.straddle_seat == 3


def test_the_history_writes_a_straddle_only_when_one_was_posted() -> None:
    table, clock = make_table(4, straddle="utg")
    table.straddle_next(0, True)
    records = []
    for _ in range(2):  # button 0 (seat 3 is UTG, no straddle), button 1 (seat 0 straddles)
        start_hand(table, clock)
        play_passively(table)
        assert table.last_record is not None
        records.append(table.last_record)
    plain, straddled = (history_for(table.settings, record, None) for record in records)
    assert plain["blinds_or_straddles"] == [1, 2, 0, 0]
    assert straddled["blinds_or_straddles"] == [1, 2, 4, 0]  # p3, UTG: table seat 0
    assert straddled["_table_seats"][2] == 0
    # Round trip: the stored hand, written with every card, reads back to the same hand.
    hand = rebuild_hand(table.settings, records[1])
    again = replay_text(dumps(hand))
    assert again.straddle_seat == hand.straddle_seat == 0  # p3 (UTG): table seat 0
    assert again.events == hand.events
    assert [again.stacks[s] for s in again.order] == straddled["finishing_stacks"]


def test_heads_up_and_ante_games_never_straddle() -> None:
    table, clock = make_table(2, straddle="utg-button")
    table.straddle_next(0, True)
    table.straddle_next(1, True)
    start_hand(table, clock)
    assert [kind for _, _, kind in _posts(table)] == ["small", "big"]
    table, clock = make_table(4, game="xmas", straddle="utg")
    table.straddle_next(3, True)
    start_hand(table, clock)
    assert _posts(table) == []
    assert table.seats[3].straddle_next


def test_the_posts_say_what_the_host_allows() -> None:
    table, _ = make_table(4, straddle="utg-button")
    assert table.public_state()["posts"] == {"forced_bets": "blinds", "small_blind": 1,
                                             "big_blind": 2, "straddle": 4,
                                             "straddles": "utg-button"}
    table, _ = make_table(4)
    assert table.public_state()["posts"]["straddle"] == 0
    assert table.public_state()["posts"]["straddles"] is None


def test_the_seats_in_a_straddle_position_next_hand() -> None:
    table, clock = make_table(4, straddle="utg-button")
    assert table.next_straddlers() == (0, 3)  # the first button, then UTG
    start_hand(table, clock)
    play_passively(table)
    assert table.next_straddlers() == (1, 0)
    assert make_table(2, straddle="utg")[0].next_straddlers() == ()
    assert make_table(4)[0].next_straddlers() == ()


@pytest.mark.parametrize(("settings", "seat", "on", "message"), [
    ({}, 0, True, "the host allows no straddles at this table"),
    ({"straddle": "utg"}, 0, False, "seat 0 has no straddle next hand"),
    ({"straddle": "utg"}, 5, True, "seat 5 is empty"),
    ({"straddle": "utg"}, 0, "yes", "a straddle choice is true or false, not 'yes'"),
])
def test_a_straddle_choice_that_cannot_be_made_is_refused_by_name(
        settings: dict[str, str], seat: int, on: object, message: str) -> None:
    table, _ = make_table(4, **settings)
    with pytest.raises(TableError, match=message):
        table.straddle_next(seat, on)  # type: ignore[arg-type]


def test_choosing_twice_is_refused() -> None:
    table, _ = make_table(4, straddle="utg")
    table.straddle_next(1, True)
    with pytest.raises(TableError, match="seat 1 already straddles next hand"):
        table.straddle_next(1, True)


def test_a_bad_straddle_setting_is_refused_by_name() -> None:
    with pytest.raises(TableError,
                       match="straddle must be one of off, utg, utg-button, not 'mississippi'"):
        TableSettings(straddle="mississippi").check()


def test_a_room_stored_with_the_old_button_straddle_reads_as_utg_and_button() -> None:
    assert TableSettings.from_dict({"straddle": "button"}).straddle == "utg-button"
