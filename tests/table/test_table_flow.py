"""The table across hands: seats, buy-ins, the button, the action clock, leaving and the host."""

from __future__ import annotations

import json

import pytest
from table_helpers import (
    FakeClock,
    actor_seat,
    answer_runs,
    hand_events,
    kinds,
    make_table,
    play_passively,
    start_hand,
)

from boardroom.cards import format_cards
from boardroom.engine import Call, Check, Fold, RaiseTo
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.events import BlindPosted, Checked, Folded
from boardroom.table import (
    BETWEEN,
    CLOSED,
    DEALING,
    OUT,
    PENDING,
    PLAYING,
    WAITING,
    Table,
    TableError,
)


def test_two_players_start_a_hand_after_the_pause() -> None:
    table, clock = make_table(players=1)
    assert table.phase == WAITING
    assert table.next_deadline() is None
    table.sit(1, "player-1", "P1")
    assert table.phase == BETWEEN
    assert table.next_deadline() == clock.now + 2.0
    clock.advance(1.9)
    table.tick()
    assert table.hand is None
    clock.advance(0.1)
    table.tick()
    assert table.phase == DEALING
    assert table.hand is not None
    events = table.drain()
    assert kinds(events)[:4] == ["seated", "chips", "seated", "chips"]
    assert "hand_started" in kinds(events)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    blinds = [e.truth for e in hand_events(events) if isinstance(e.truth, BlindPosted)]
    # Heads-up the button posts the small blind (RULES.md s.1).
    assert table.hand.button == table.button
    assert blinds[0] is not None
    assert blinds[0].seat == table.hand.button


def test_button_moves_every_hand_among_dealt_in_players() -> None:
    table, clock = make_table(players=4)
    buttons = []
    for _ in range(6):
        start_hand(table, clock)
        buttons.append(table.button)
        if len(buttons) == 2:
            table.sit_out(3)  # dealt in this hand; sits out from the next one
        play_passively(table)
    assert buttons[:2] == [0, 1]
    assert buttons[2:] == [2, 0, 1, 2]  # seat 3 is skipped once it sits out
    assert table.seats[3].status == OUT


def test_chips_are_conserved_and_stacks_change_only_through_the_ledger() -> None:
    table, clock = make_table(players=3)
    for _ in range(4):
        start_hand(table, clock)
        while table.hand is not None:
            assert table.chips_on_table() == table.balance == 600
            legal = table.hand.legal_actions()
            assert legal is not None
            seat = actor_seat(table)
            if legal.raise_min is not None and table.hand_no % 2 and table.hand.current_bet <= 2:
                table.act(seat, RaiseTo(legal.raise_min))
            else:
                table.act(seat, Check() if legal.check else Call())
    chips = [e for e in table.drain() if e.kind == "chips"]
    assert sum(e.data["amount"] for e in chips) == 600
    assert sum(seat.stack for seat in table.seats.values()) == 600


def test_acting_out_of_turn_or_out_of_the_hand_is_an_error() -> None:
    table, clock = make_table(players=3)
    table.sit(4, "late", "Late")
    start_hand(table, clock)
    seat = actor_seat(table)
    other = next(s for s in table.hand_seats if s != seat)
    with pytest.raises(TableError, match=rf"not your turn \(it is seat {seat}'s\)"):
        table.act(other, Fold())
    with pytest.raises(TableError, match="seat 5 is not in a hand"):
        table.act(5, Fold())
    table.sit(5, "later", "Later")
    with pytest.raises(TableError, match="seat 5 is not in a hand"):
        table.act(5, Call())
    with pytest.raises(TableError, match="above the pot limit of 7"):
        table.act(seat, RaiseTo(8))
    big_blind = table.hand.clockwise[1]
    table.act(seat, Call())
    # An engine message names table seats, not the hand's own numbering.
    while actor_seat(table) != big_blind:
        table.act(actor_seat(table), Call())
    with pytest.raises(TableError, match=rf"seat {big_blind} cannot fold: nothing to call"):
        table.act(big_blind, Fold())


def test_timeout_checks_when_free_else_folds_and_spends_the_time_bank() -> None:
    table, clock = make_table(players=3, action_clock=10.0, time_bank=5.0)
    start_hand(table, clock)
    table.drain()
    first = actor_seat(table)
    assert table.next_deadline() == clock.now + 15.0
    clock.advance(14.9)
    table.tick()
    assert actor_seat(table) == first
    clock.advance(0.1)
    table.tick()
    events = table.drain()
    assert "timed_out" in kinds(events)
    # The notice names the player, not the seat (issue 15).
    timed = next(e for e in events if e.kind == "timed_out")
    assert timed.data == {"seat": first, "name": f"P{first}", "timeouts": 1}
    assert any(isinstance(e.truth, Folded) and e.truth.seat == first
               for e in hand_events(events)) or table.hand is None
    assert table.seats[first].time_bank == 0.0
    assert table.seats[first].timeouts == 1
    # Everybody calls to the flop; then a timeout checks.
    while table.hand is not None and table.hand.street is not None \
            and table.hand.street.name == "preflop":
        table.act(actor_seat(table), Check() if table.hand.legal_actions().check else Call())
    seat = actor_seat(table)
    table.drain()
    clock.advance(15.0)
    table.tick()
    checked = [e.truth for e in hand_events(table.drain()) if isinstance(e.truth, Checked)]
    assert checked
    assert checked[0].seat == seat


def test_time_bank_pays_for_a_slow_decision() -> None:
    table, clock = make_table(players=2, action_clock=10.0, time_bank=8.0)
    start_hand(table, clock)
    seat = actor_seat(table)
    clock.advance(13.0)
    table.act(seat, Call())
    assert table.seats[seat].time_bank == pytest.approx(5.0)
    assert table.seats[seat].timeouts == 0


def test_two_timeouts_in_a_row_sit_the_player_out() -> None:
    table, clock = make_table(players=3, action_clock=5.0, time_bank=0.0)
    start_hand(table, clock)
    sleeper = actor_seat(table)
    clock.advance(5.0)
    table.tick()  # folds preflop
    play_passively(table)
    assert table.seats[sleeper].timeouts == 1
    start_hand(table, clock)
    while actor_seat(table) != sleeper:
        table.act(actor_seat(table), Call())
    clock.advance(5.0)
    table.tick()
    assert table.seats[sleeper].sit_out_next
    play_passively(table)
    assert table.seats[sleeper].status == OUT
    start_hand(table, clock)
    assert sleeper not in table.hand_seats
    table.sit_in(sleeper)
    assert table.seats[sleeper].status == PLAYING
    assert table.seats[sleeper].timeouts == 0


def test_a_voluntary_action_resets_the_timeout_count() -> None:
    table, clock = make_table(players=2, action_clock=5.0, time_bank=0.0)
    start_hand(table, clock)
    seat = actor_seat(table)
    clock.advance(5.0)
    table.tick()
    assert table.seats[seat].timeouts == 1
    start_hand(table, clock)
    while table.hand is not None and actor_seat(table) != seat:
        table.act(actor_seat(table), Call())
    table.act(seat, Check() if table.hand.legal_actions().check else Call())
    assert table.seats[seat].timeouts == 0


def test_leaving_between_hands_cashes_out_at_once() -> None:
    table, _clock = make_table(players=3)
    table.drain()
    table.leave(2)
    events = table.drain()
    assert kinds(events) == ["chips", "left"]
    assert events[0].data == {"seat": 2, "name": "P2", "entry": "cash-out", "amount": -200,
                              "stack": 200}
    assert 2 not in table.seats
    assert table.balance == 400


def test_leaving_during_a_hand_folds_at_the_turn_and_leaves_at_the_end() -> None:
    table, clock = make_table(players=3)
    start_hand(table, clock)
    seat = actor_seat(table)
    waiting = next(s for s in table.hand_seats if s != seat and table.hand.to_call(s) > 0)
    table.leave(waiting)
    assert table.seats[waiting].leaving
    table.drain()
    while table.hand is not None and waiting in table.hand_seats and \
            table.hand.is_live(waiting):
        table.act(actor_seat(table), Call())
    events = table.drain()
    assert any(isinstance(e.truth, Folded) for e in hand_events(events))
    play_passively(table)
    assert waiting not in table.seats
    assert table.chips_on_table() == table.balance


def test_the_player_to_act_who_leaves_folds_at_once() -> None:
    table, clock = make_table(players=3)
    start_hand(table, clock)
    seat = actor_seat(table)
    table.leave(seat)
    assert actor_seat(table) != seat
    assert not table.hand.is_live(seat)


def test_seat_approval_rebuys_and_stacks_need_the_host() -> None:
    table, clock = make_table(players=0, seat_approval=True)
    table.sit(0, "a", "Ann")
    table.sit(1, "b", "Bob")
    assert table.seats[0].status == PENDING
    assert table.balance == 0
    assert table.phase == WAITING
    with pytest.raises(TableError, match="waiting for the host's approval"):
        table.request_rebuy(0, 10)
    table.approve(0)
    table.approve(1)
    with pytest.raises(TableError, match="seat 1 is not waiting for approval"):
        table.approve(1)
    assert table.phase == BETWEEN
    start_hand(table, clock)
    with pytest.raises(TableError, match="at most 0 more"):
        table.request_rebuy(0, 1)  # the stack it started the hand with is the starting stack
    with pytest.raises(TableError, match="seat 0 is in a hand: set its stack between hands"):
        table.set_stack(0, 50)
    winner = actor_seat(table)
    table.act(winner, RaiseTo(6))
    loser = actor_seat(table)
    table.act(loser, Fold())
    assert table.hand is None
    assert table.seats[loser].stack < 200
    with pytest.raises(TableError, match="has not asked for a rebuy"):
        table.approve_rebuy(loser)
    missing = 200 - table.seats[loser].stack
    with pytest.raises(TableError, match=f"at most {missing} more"):
        table.request_rebuy(loser, missing + 1)
    table.request_rebuy(loser, missing)
    table.approve_rebuy(loser)
    assert table.seats[loser].stack == 200
    table.set_stack(winner, 150)
    entries = [(e.data["entry"], e.data["amount"]) for e in table.drain() if e.kind == "chips"]
    assert entries[-2:] == [("rebuy", missing), ("adjust", 150 - (200 + missing))]
    assert table.chips_on_table() == table.balance == 350


def test_a_rebuy_approved_during_a_hand_arrives_when_it_ends() -> None:
    table, clock = make_table(players=2)
    table.set_stack(0, 150)
    table.set_stack(1, 150)
    start_hand(table, clock)
    table.act(actor_seat(table), RaiseTo(6))
    table.act(actor_seat(table), Call())
    seat = actor_seat(table)
    with pytest.raises(TableError, match="at most 50 more"):
        table.request_rebuy(seat, 51)
    table.request_rebuy(seat, 6)
    table.approve_rebuy(seat)
    assert table.seats[seat].rebuy_approved == 6
    before = table.balance
    play_passively(table)
    assert table.balance == before + 6
    assert table.chips_on_table() == table.balance


def test_a_busted_player_sits_out_until_a_rebuy() -> None:
    table, clock = make_table(players=2, starting_stack=20, betting="no-limit")
    start_hand(table, clock)
    table.act(actor_seat(table), RaiseTo(6))
    table.act(actor_seat(table), RaiseTo(20))
    table.act(actor_seat(table), Call())
    answer_runs(table)  # all-in preflop: both run it once
    assert table.hand is None
    busted = next(n for n, s in table.seats.items() if s.stack == 0) \
        if any(s.stack == 0 for s in table.seats.values()) else None
    if busted is None:  # a split pot: both keep 20
        assert all(s.stack == 20 for s in table.seats.values())
        return
    assert table.seats[busted].status == OUT
    assert table.phase == WAITING
    with pytest.raises(TableError, match="has no chips: ask the host for a rebuy"):
        table.sit_in(busted)
    table.request_rebuy(busted, 20)
    table.approve_rebuy(busted)
    assert table.seats[busted].status == PLAYING
    assert table.phase == BETWEEN


def test_kick_and_sit_errors() -> None:
    table, _clock = make_table(players=2, max_seats=3)
    with pytest.raises(TableError, match="seat 1 is taken"):
        table.sit(1, "x", "X")
    with pytest.raises(TableError, match="there is no seat 3: seats are 0 to 2"):
        table.sit(3, "x", "X")
    with pytest.raises(TableError, match="you already sit in seat 0"):
        table.sit(2, "player-0", "Again")
    with pytest.raises(TableError, match="the name 'p1' is taken"):
        table.sit(2, "x", "p1")
    with pytest.raises(TableError, match="a name is 1 to 24 printable characters"):
        table.sit(2, "x", "  ")
    with pytest.raises(TableError, match="seat 2 is empty"):
        table.kick(2)
    table.kick(1)
    assert 1 not in table.seats
    assert table.drain()[-1].data == {"seat": 1, "name": "P1", "kicked": True}


def test_pause_stops_the_clock_and_the_actions() -> None:
    table, clock = make_table(players=2, action_clock=10.0, time_bank=0.0)
    start_hand(table, clock)
    seat = actor_seat(table)
    deadline = table.next_deadline()
    table.pause()
    with pytest.raises(TableError, match="already paused"):
        table.pause()
    assert table.next_deadline() is None
    with pytest.raises(TableError, match="the table is paused"):
        table.act(seat, Call())
    clock.advance(100.0)
    table.tick()
    assert actor_seat(table) == seat
    table.resume()
    with pytest.raises(TableError, match="not paused"):
        table.resume()
    assert table.next_deadline() == deadline + 100.0


def test_close_waits_for_the_hand_then_cashes_everyone_out() -> None:
    table, clock = make_table(players=3)
    start_hand(table, clock)
    table.close()
    with pytest.raises(TableError, match="already closing"):
        table.close()
    assert table.phase == DEALING
    play_passively(table)
    assert table.phase == CLOSED
    assert table.seats == {}
    assert table.balance == 0
    assert table.chips_on_table() == 0
    with pytest.raises(TableError, match="the room is closed"):
        table.sit(0, "x", "X")
    assert table.next_deadline() is None


def test_allocation_commits_hidden_and_a_timeout_allocates_the_best() -> None:
    table, clock = make_table(players=2)
    with pytest.raises(TableError, match="seat 0 is not in a hand"):
        table.allocate(0, {})
    start_hand(table, clock)
    with pytest.raises(TableError, match="PLO has no allocation"):
        table.allocate(0, {"A": ["As", "Kd"]})
    table, clock = make_table(players=3, game="allocator", action_clock=5.0)
    start_hand(table, clock)
    with pytest.raises(TableError, match="an allocation maps each category to its cards"):
        table.allocate(0, {"A": [1, 2]})
    with pytest.raises(TableError, match="there is no allocation to make now"):
        table.allocate(0, {"A": "As Kd", "B": "Qs Js", "Hand": "2c 3c"})
    while table.hand is not None and not table.hand.is_allocating:
        legal = table.hand.legal_actions()
        assert legal is not None
        table.act(actor_seat(table), Check() if legal.check else Call())
    assert table.hand is not None
    pending = list(table.hand.seats_to_allocate)
    assert len(pending) == 3
    events = table.drain()
    assert events[-1].kind == "allocating"
    assert events[-1].data == {"seats": pending, "deadline": clock.now + 5.0}
    best = table.hand.suggest_allocation(pending[0])
    with pytest.raises(TableError, match="Hand takes 2 cards, not 1"):
        table.allocate(pending[0], {**{k: list(format_cards(v).split())
                                       for k, v in best.items()}, "Hand": "2c"})
    table.allocate(pending[0], {k: format_cards(v) for k, v in best.items()})
    with pytest.raises(TableError, match="already committed"):
        table.allocate(pending[0], {k: format_cards(v) for k, v in best.items()})
    state = json.loads(json.dumps(table.to_state()))
    copy = Table.from_state(table.settings, state, clock=clock)
    assert copy.hand is not None
    assert copy.hand.allocation_pending == table.hand.allocation_pending
    clock.advance(5.0)
    table.tick()
    assert table.hand is None
    timed = [e.data["seat"] for e in table.drain() if e.kind == "timed_out"]
    assert timed == pending[1:]
    assert table.chips_on_table() == table.balance


def test_chat_is_a_public_event() -> None:
    table, _ = make_table(players=1)
    table.drain()
    table.chat(0, "P0", "  hello  ")
    assert table.drain()[0].data == {"seat": 0, "name": "P0", "text": "hello"}
    with pytest.raises(TableError, match="needs some text"):
        table.chat(0, "P0", " ")
    with pytest.raises(TableError, match="at most 500 characters"):
        table.chat(None, "spectator", "x" * 501)


def test_the_clock_is_only_the_injected_one() -> None:
    clock = FakeClock(5.0)
    table, _ = make_table(players=0)
    table.clock = clock
    table.sit(0, "a", "A")
    table.sit(1, "b", "B")
    assert table.next_deadline() == 7.0


def test_no_turn_and_no_clock_for_a_seat_nobody_could_answer() -> None:
    """Heads-up, the button's small blind calls all-in for less than the big blind: the big
    blind has nothing to decide, so the table gives it no turn and no clock (RULES.md s.2)."""
    # (Without the offer to run it twice, which gives both players a decision: see test_table_runs.)
    table, clock = make_table(players=2, small_blind=2, big_blind=4, action_clock=10.0,
                              run_it_twice=False)
    table.set_stack(0, 3)  # seat 0 has the button in the first hand: it posts the small blind
    start_hand(table, clock)
    assert table.hand is not None
    assert actor_seat(table) == 0
    table.drain()
    table.act(0, Call())
    events = table.drain()
    assert "turn" not in kinds(events)
    assert table.hand is None  # dealt out to the end at once
    assert table.next_deadline() == clock.now + 2.0  # only the pause before the next hand
    assert table.chips_on_table() == table.balance


def test_no_turn_for_a_big_blind_when_everyone_else_is_all_in() -> None:
    table, clock = make_table(players=3, action_clock=10.0, run_it_twice=False)
    # The first hand: seat 0 has the button, seat 1 the small blind, seat 2 the big blind.
    table.set_stack(0, 2)
    table.set_stack(1, 2)
    start_hand(table, clock)
    assert actor_seat(table) == 0
    table.act(0, Call())  # all-in
    table.drain()
    table.act(1, Call())  # the small blind, all-in
    events = table.drain()
    assert [e.data["seat"] for e in events if e.kind == "turn"] == []
    assert table.hand is None


def test_bots_with_short_stacks_are_only_asked_real_decisions() -> None:
    """Random bots at a table where forced bets often put players all-in: every turn a bot
    gets has something to decide, and the chips stay on the ledger."""
    from boardroom.bots import RandomBot

    table, clock = make_table(players=3, action_clock=10.0)
    bots = {seat: RandomBot(seed=seat) for seat in range(3)}
    turns = 0
    for hand_no in range(30):
        for seat in range(3):
            if table.seats[seat].stack < 5 or (hand_no + seat) % 4 == 0:
                table.set_stack(seat, 1 + (hand_no + seat) % 4)  # 1 to 4 chips, blinds 1/2
                if table.seats[seat].status == OUT:
                    table.sit_in(seat)
        start_hand(table, clock)
        while table.hand is not None:
            if table.hand.is_choosing_runs:  # all-in: every bot answers the offer to run it twice
                for seat in table.hand.seats_choosing_runs:
                    answer = bots[seat].respond(table.hand_view(seat))  # type: ignore[arg-type]
                    assert isinstance(answer, ChooseRuns)
                    table.choose_runs(seat, answer.runs)
                continue
            seat = actor_seat(table)
            view = table.hand_view(seat)
            assert view is not None
            assert view.legal is not None
            assert not (view.legal.check and view.legal.raise_min is None), "a pointless turn"
            action = bots[seat].respond(view)
            assert action is not None
            table.act(seat, action)
            turns += 1
        assert table.chips_on_table() == table.balance
    assert turns > 0


def test_deal_now_ends_the_pause_before_a_hand() -> None:
    # `boardroom play` deals its first hand as soon as the bots are seated (issue 15): the
    # host's deal_now ends the pause at once, without the clock moving.
    table, _clock = make_table(players=2)
    assert table.phase == BETWEEN
    table.deal_now()
    assert table.phase == DEALING
    assert table.hand is not None
    assert table.hand_no == 1
    with pytest.raises(TableError, match="no pause to end: a hand is being played"):
        table.deal_now()


def test_deal_now_needs_two_players() -> None:
    table, _clock = make_table(players=1)
    with pytest.raises(TableError, match="no pause to end: the table waits for players"):
        table.deal_now()


@pytest.mark.parametrize(("game", "posts"), [
    ("plo", {"forced_bets": "blinds", "small_blind": 1, "big_blind": 2, "straddle": 0,
             "straddles": None}),
    ("xmas", {"forced_bets": "antes", "ante": 1, "min_bet": 2}),
    ("stud-hilo", {"forced_bets": "bring-in", "ante": 1, "bring_in": 1, "small_bet": 2,
                    "big_bet": 4}),
])
def test_public_state_says_what_the_game_posts(game: str, posts: dict[str, object]) -> None:
    # The top bar shows what the game posts, not "1/2" for an ante game (issue 15).
    table, _clock = make_table(players=2, game=game)
    assert table.public_state()["posts"] == posts
    table.deal_now()
    assert table.public_state()["posts"] == posts


def test_dealers_choice_posts_what_the_picked_game_posts() -> None:
    table, clock = make_table(players=2, game="dealers-choice", ante=3)
    assert table.public_state()["posts"] is None  # nothing picked yet
    start_hand(table, clock)
    table.pick(table.button, "bomb", {})
    assert table.public_state()["posts"] == {"forced_bets": "antes", "ante": 3, "min_bet": 2}
