"""The director on scripted fields: registration, rebuys, the clock, balancing, breaking,
hand-for-hand, places, bad input, and its state across a restart."""

from __future__ import annotations

import json

import pytest
from tournament_helpers import director, end_hand, structure

from boardroom.tournament import Director, PayoutTable, TournamentConfig, TournamentError
from boardroom.tournament.seating import next_big_blind, worst_seat


def test_a_second_entry_without_re_entry_and_a_late_registration_are_refused() -> None:
    d = director(4, start=False)
    with pytest.raises(TournamentError, match="Player 1 is already registered"):
        d.register("p1", "Player 1", 0.0)
    d.start(0.0)
    with pytest.raises(TournamentError, match="registration is closed"):
        d.register("late", "Late", 1.0)
    assert len(d.players) == 4
    assert d.entries == 4


def test_late_registration_until_the_end_of_level_n_and_re_entry() -> None:
    d = director(4, late_registration_levels=2, max_entries=2)
    d.register("late", "Late", 60.0)
    assert d.players["late"].status == "playing"
    assert d.entries == 5
    plan = d.next_hand(1, 60.0)
    assert plan is not None
    loser = plan.players[0][1]
    end_hand(d, 1, 70.0, busted=(loser,))
    assert d.players[loser].status == "out"
    d.reenter(loser, 80.0)
    assert d.players[loser].status == "playing"
    assert d.entries == 6
    assert d.prize_pool == 6 * d.config.buy_in
    with pytest.raises(TournamentError, match="still in the tournament"):
        d.reenter(loser, 81.0)
    d.tick(20 * 60.0)  # the end of level 2
    with pytest.raises(TournamentError, match="registration is closed"):
        d.register("later", "Later", 20 * 60.0)


def test_no_re_entry_in_a_freezeout() -> None:
    d = director(3)
    plan = d.next_hand(1, 0.0)
    assert plan is not None
    loser = plan.players[0][1]
    end_hand(d, 1, 1.0, busted=(loser,))
    with pytest.raises(TournamentError, match="no re-entry"):
        d.reenter(loser, 2.0)


def test_rebuys_during_the_rebuy_period_only_and_at_most_the_starting_stack() -> None:
    d = director(3, rebuy_levels=1, rebuy_chips=1000, max_rebuys=1, addon_chips=500)
    d.players["p0"].stack = 1001
    with pytest.raises(TournamentError, match="at or below the starting stack"):
        d.rebuy("p0", 1.0)
    d.players["p0"].stack = 1000
    d.rebuy("p0", 1.0)
    assert d.players["p0"].stack == 2000
    assert d.chips == 4000
    d.players["p0"].stack = 10
    with pytest.raises(TournamentError, match="used all 1 rebuys"):
        d.rebuy("p0", 2.0)
    d.players["p0"].stack = 2000
    with pytest.raises(TournamentError, match="the add-on is offered in level 2 only"):
        d.addon("p1", 3.0)
    d.tick(600.0)
    with pytest.raises(TournamentError, match="the rebuy period ended with level 1"):
        d.rebuy("p1", 600.0)
    d.addon("p1", 601.0)
    with pytest.raises(TournamentError, match="has taken the add-on"):
        d.addon("p1", 602.0)
    assert d.prize_pool == 5 * d.config.buy_in  # 3 entries, a rebuy and an add-on


def test_an_auto_rebuy_keeps_a_busted_player_in() -> None:
    d = director(3, rebuy_levels=2, rebuy_chips=1000)
    plan = d.next_hand(1, 0.0)
    assert plan is not None
    loser = plan.players[0][1]
    d.set_auto_rebuy(loser, True)
    end_hand(d, 1, 1.0, busted=(loser,))
    assert d.players[loser].status == "playing"
    assert d.players[loser].stack == 1000
    assert d.chips_in_play() == d.chips == 4000


@pytest.mark.parametrize(("games", "size", "message"), [
    (("omaha-hi-hi",), 6, "no such game 'omaha-hi-hi'"),
    (("esg",), 7, "tables seat 2 to 6 players for these games, not 7"),
    (("plo", "dealers-choice"), 6, "Dealer's Choice cannot be part of a rotation"),
    ((), 6, "needs a game"),
    (("horse",), 6, r"a tournament's rotation lists its games \(e.g. holdem,omaha-hilo,razz,"),
])
def test_a_bad_configuration_is_refused(games: tuple[str, ...], size: int,
                                        message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        Director(TournamentConfig(structure(), games=games, table_size=size))


def test_a_hand_that_makes_or_loses_chips_is_refused_and_changes_nothing() -> None:
    d = director(3)
    plan = d.next_hand(1, 0.0)
    assert plan is not None
    before = d.to_state(1.0)
    stacks = {player: stack for _, player, stack in plan.players}
    stacks[plan.players[0][1]] += 1
    with pytest.raises(TournamentError, match="ended with 3001 chips, not the 3000"):
        d.hand_ended(1, stacks, 1.0)
    with pytest.raises(TournamentError, match="but it dealt"):
        d.hand_ended(1, {"p0": 3000}, 1.0)
    assert d.to_state(1.0) == before


def test_blinds_go_up_at_the_level_end_from_the_next_hand() -> None:
    d = director(2)
    plan = d.next_hand(1, 599.0)  # dealt in level 1, one second before its end
    assert plan is not None
    assert plan.stakes.big_blind == 20
    d.tick(601.0)
    assert d.level.big_blind == 40
    end_hand(d, 1, 650.0)
    later = d.next_hand(1, 650.0)
    assert later is not None
    assert later.stakes.big_blind == 40
    assert later.level == 1


def test_levels_counted_in_hands() -> None:
    d = director(2, minutes=None, hands=3)
    for _ in range(3):
        assert d.next_hand(1, 0.0) is not None
        end_hand(d, 1, 0.0)
    assert d.level_index == 1


def test_a_pause_stops_the_clock_and_add_time_lengthens_the_level() -> None:
    d = director(2)
    d.pause(100.0)
    assert d.next_hand(1, 200.0) is None
    d.resume(5000.0)
    assert d.time_left(5000.0) == 500.0
    d.add_time(60, 5000.0)
    assert d.time_left(5100.0) == 460.0
    with pytest.raises(TournamentError, match="not paused"):
        d.resume(5100.0)



def test_a_tournament_paused_before_its_start_starts_with_its_clock_stopped() -> None:
    d = director(2, start=False)
    d.pause(0.0)
    d.start(10.0)
    assert d.next_hand(1, 20.0) is None
    assert d.time_left(900.0) == 600.0
    d.resume(1000.0)
    assert d.time_left(1100.0) == 500.0

def test_the_state_survives_a_restart_and_the_clock_keeps_its_time_left() -> None:
    d = director(14, late_registration_levels=1)
    d.next_hand(1, 100.0)
    saved = json.loads(json.dumps(d.to_state(250.0)))
    restored = Director.from_state(saved, 10_000.0)  # down for hours: no level burnt
    assert restored.time_left(10_000.0) == d.time_left(250.0) == 350.0
    assert restored.to_state(10_000.0) == saved
    assert restored.tables[1].running  # the hand in progress is still owed its result
    end_hand(restored, 1, 10_010.0)
    assert restored.chips_in_play() == restored.chips == 14_000


def test_a_long_table_sends_its_next_big_blind_to_the_worst_seat_of_the_short_table() -> None:
    d = director(12)
    assert sorted(len(t.seats) for t in d.tables.values()) == [6, 6]
    for number in (1, 2):
        assert d.next_hand(number, 0.0) is not None
    end_hand(d, 2, 10.0)
    plan = d.next_hand(2, 10.0)
    assert plan is not None
    # Table 2 loses two players: table 1, between hands, is two players longer.
    two = [player for _, player, _ in plan.players][:2]
    end_hand(d, 2, 20.0, busted=tuple(two))
    table1, table2 = d.tables[1], d.tables[2]
    mover_seat = next_big_blind(table1.last, table1.seats, table1.newcomers, 6)
    mover = table1.seats[mover_seat]  # type: ignore[index]
    target = worst_seat(table2.last, table2.seats, 6, d.rng)
    d.drain()
    end_hand(d, 1, 30.0)
    moves = [e for e in d.drain() if e["kind"] == "seated"]
    assert moves == [{"kind": "seated", "player": mover, "name": d.players[mover].name,
                      "table": 2, "seat": target, "reason": "balance", "from_table": 1,
                      "from_seat": mover_seat}]
    assert sorted(len(t.seats) for t in d.tables.values()) == [5, 5]


def test_tables_break_in_fixed_order_the_highest_number_first() -> None:
    d = director(13)  # three tables: 5, 4, 4
    assert len(d.tables) == 3
    plan = d.next_hand(1, 0.0)
    assert plan is not None
    end_hand(d, 1, 1.0, busted=(plan.players[0][1],))  # 12 left: two tables of 6 are enough
    assert sorted(d.tables) == [1, 2]
    assert sorted(len(t.seats) for t in d.tables.values()) == [6, 6]


def test_hand_for_hand_on_the_bubble_and_a_shared_place() -> None:
    # 12 players, 3-max, a custom table paying 3: hand-for-hand at 4 players on two tables.
    d = director(12, size=3, payouts=PayoutTable.from_percents([50, 30, 20]))
    now = 0.0
    while len(d.alive) > 4:
        for number in sorted(d.tables):
            if number not in d.tables or d.tables[number].running:
                continue
            plan = d.next_hand(number, now)
            if plan is None:
                continue
            players = [p for _, p, _ in plan.players]
            busted = tuple(players[:1]) if len(d.alive) > 4 and len(players) > 2 else ()
            end_hand(d, number, now, busted=busted)
            now += 1
    assert d.hand_for_hand
    assert len(d.tables) == 2
    one, two = d.next_hand(1, now), d.next_hand(2, now)
    assert one is not None
    assert two is not None
    end_hand(d, 1, now + 1)
    assert d.next_hand(1, now + 1) is None  # waits for table 2 to finish the round
    end_hand(d, 2, now + 2)
    one, two = d.next_hand(1, now + 2), d.next_hand(2, now + 2)
    assert one is not None
    assert two is not None
    # One player busts at each table in the same round, with equal stacks: they tie for 3rd.
    out1, out2 = one.players[0][1], two.players[0][1]
    d.players[out1].stack = d.players[out2].stack  # (equal stacks, set between hands)
    d.tables[1].start_stacks[out1] = d.tables[2].start_stacks[out2]
    d.chips = d.chips_in_play()
    end_hand(d, 1, now + 3, busted=(out1,))
    assert d.players[out1].status == "out"
    assert d.hand_for_hand
    end_hand(d, 2, now + 4, busted=(out2,))
    assert not d.hand_for_hand
    tied = [f for f in d.standings() if f.player in (out1, out2)]
    assert [(f.place, f.tied) for f in tied] == [(3, 2), (3, 2)]
    assert sum(f.prize for f in tied) == d.place_prizes()[2]  # 3rd's prize (4th pays 0) split


def test_a_payout_table_paying_more_places_than_entrants_is_refused() -> None:
    d = director(2, start=False, payouts=PayoutTable.from_percents([50, 30, 20]))
    with pytest.raises(TournamentError, match="pays 3 places, but only 2 players entered"):
        d.start(0.0)
    assert not d.started


def test_a_player_moved_to_balance_never_takes_the_button_or_small_blind_before_posting() -> None:
    # Both tables deal; table 1's small and big blinds bust, so its only empty seats are the
    # next button's and the next small blind's. Table 2, two players longer, sends its next big
    # blind there: the player waits for the button to pass and posts the big blind in turn.
    d = director(12)
    plans = {number: d.next_hand(number, 0.0) for number in (1, 2)}
    first = plans[1]
    assert first is not None
    table1 = d.tables[1]
    blinds = (table1.seats[first.positions.small_blind], table1.seats[first.positions.big_blind])
    end_hand(d, 1, 10.0, busted=blinds)
    d.drain()
    end_hand(d, 2, 20.0)
    moves = [e for e in d.drain() if e["kind"] == "seated" and e["reason"] == "balance"]
    assert len(moves) == 1
    assert moves[0]["table"] == 1
    mover, seat = moves[0]["player"], moves[0]["seat"]
    assert seat == first.positions.small_blind  # the worst seat: never the small blind's
    for hand in range(8):
        plan = d.next_hand(1, 30.0 + hand)
        assert plan is not None
        if seat in plan.positions.dealt:
            assert seat == plan.positions.big_blind or seat not in (
                plan.positions.button, plan.positions.small_blind), f"hand {hand}: {plan}"
            if seat == plan.positions.big_blind:
                break
        end_hand(d, 1, 31.0 + hand)
    else:
        raise AssertionError(f"{mover} never posted the big blind at table 1")


def test_time_added_at_the_start_of_a_level_lengthens_it_beyond_its_length() -> None:
    d = director(2)  # levels of 10 minutes
    d.add_time(60, 0.0)
    assert d.time_left(0.0) == 660.0
    assert d.level_index == 0
    d.tick(630.0)
    assert d.level_index == 0  # the level lasts 11 minutes now
    d.tick(660.0)
    assert d.level_index == 1


def _approving(players: int, **settings: object) -> Director:
    config = TournamentConfig(structure(**settings), games=("plo",), table_size=6,
                              entry_approval=True)
    d = Director(config, seed=1)
    for k in range(players):
        d.register(f"p{k}", f"Player {k}", 0.0)  # the host's bots: no approval
    return d


def test_with_the_hosts_approval_an_entry_waits_and_pays_nothing_until_approved() -> None:
    d = _approving(3, late_registration_levels=1)
    assert not d.request_entry("ann", "Ann", 0.0)
    assert d.waiting == {"ann": "Ann"}
    assert "ann" not in d.players
    assert (d.entries, d.prize_pool) == (3, 300)
    with pytest.raises(TournamentError, match="the name 'ann' is taken"):
        d.request_entry("other", "ann", 0.0)  # a waiting entry holds its name
    assert not d.request_entry("bob", "Bob", 0.0)
    d.decline("bob")
    assert d.declined == {"bob": "the host declined this entry"}
    assert (d.entries, d.prize_pool) == (3, 300)  # a declined entry paid nothing
    with pytest.raises(TournamentError, match="no entry with that id is waiting"):
        d.approve("bob", 0.0)
    d.start(0.0)
    d.approve("ann", 60.0)  # during late registration: seated at once
    assert d.players["ann"].status == "playing"
    assert (d.entries, d.prize_pool) == (4, 400)
    assert d.chips == 4 * 1000
    kinds = [e["kind"] for e in d.drain()]
    assert kinds.count("entry_waiting") == 2
    assert kinds.count("entry_declined") == 1


def test_closing_registration_declines_the_entries_still_waiting() -> None:
    d = _approving(3)
    d.request_entry("ann", "Ann", 0.0)
    d.start(0.0)  # no late registration: it closes at the start
    assert d.waiting == {}
    assert d.declined == {"ann": "registration closed before the host approved this entry"}
    with pytest.raises(TournamentError, match="registration is closed"):
        d.request_entry("bob", "Bob", 1.0)
    assert d.entries == 3


def test_without_the_hosts_approval_an_entry_registers_at_once() -> None:
    d = director(2, start=False)
    assert d.request_entry("ann", "Ann", 0.0)
    assert d.players["ann"].status == "registered"
    assert d.waiting == {}


def test_waiting_and_declined_entries_survive_a_restart() -> None:
    d = _approving(3, late_registration_levels=1)
    d.request_entry("ann", "Ann", 0.0)
    d.request_entry("bob", "Bob", 0.0)
    d.decline("bob")
    state = json.loads(json.dumps(d.to_state(5.0)))
    back = Director.from_state(state, 100.0)
    assert back.config.entry_approval
    assert back.waiting == {"ann": "Ann"}
    assert back.declined == {"bob": "the host declined this entry"}
    back.approve("ann", 100.0)
    assert back.entries == 4


def test_a_rebuy_or_add_on_asked_during_a_hand_is_taken_when_the_hand_ends() -> None:
    """A player is nearly always in a hand (their table deals the next at once): what they ask
    for during one is added when it ends, checked again then (TDA: chips bought during a hand
    play from the next)."""
    d = director(3, rebuy_levels=1, rebuy_chips=1000, addon_chips=500, minutes=10)
    plan = d.next_hand(1, 0.0)
    assert plan is not None
    ann, bob = plan.players[0][1], plan.players[1][1]
    d.rebuy(ann, 1.0)
    assert d.players[ann].stack == 1000  # not during the hand
    assert d.players[ann].queued == ["rebuy"]
    assert d.chips == 3000
    with pytest.raises(TournamentError, match="already asked for a rebuy"):
        d.rebuy(ann, 1.5)
    d.rebuy(bob, 1.5)
    end_hand(d, 1, 2.0, busted=(ann,), winner=bob)  # the rebuy keeps the busted Ann in
    assert d.players[ann].status == "playing"
    assert d.players[ann].stack == 1000
    assert d.players[bob].stack == 2000  # won Ann's chips: above the starting stack
    assert d.players[bob].rebuys == 0  # so his rebuy is refused at the hand's end
    assert d.chips == d.chips_in_play() == 4000
    events = d.drain()
    refused = [e for e in events if e["kind"] == "refused"]
    assert refused == [{"kind": "refused", "player": bob, "what": "rebuy",
                        "reason": "a rebuy needs a stack at or below the starting stack "
                                  "(1000)"}]
    d.tick(600.0)  # level 2: the add-on
    plan = d.next_hand(1, 600.0)
    assert plan is not None
    d.addon(ann, 601.0)
    assert d.players[ann].stack == 1000
    end_hand(d, 1, 602.0)
    assert d.players[ann].stack == 1500
    assert d.players[ann].addon
    assert d.players[ann].queued == []
    assert d.chips == d.chips_in_play() == 4500
    assert d.prize_pool == 5 * d.config.buy_in
    state = json.loads(json.dumps(d.to_state(603.0)))
    assert Director.from_state(state, 603.0).players[ann].queued == []
