"""Tables as data: a table saved mid-hand comes back card for card, from its whole state or
from an older state and the changes since; random play conserves chips and never shows a viewer
a card before its time; hand histories hide unseen cards."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from table_helpers import (
    FakeClock,
    actor_seat,
    allocate_all,
    cards_seen,
    make_table,
    play_passively,
    start_hand,
)

from action_script import random_throw
from boardroom.cards import format_cards, parse_cards
from boardroom.engine import Action, BringIn, Call, Check, Draw, Fold, RaiseTo
from boardroom.engine.events import BoardDealt, HandShown, HoleDealt, Redrawn
from boardroom.engine.view import view_for
from boardroom.table import (
    CLOSED,
    DEALING,
    HAND,
    Table,
    TableError,
    TableEvent,
    TableSettings,
    history_for,
)
from boardroom.table.changes import state_change, with_changes

GAMES = ["plo", "esg", "xmas", "balance", "bomb", "allocator", "allocator-redraw", "tilt",
         "omaha-hilo", "courchevel", "stud-hilo", "esg-low", "holdem", "razz", "stud5",
         "27-triple-draw", "badugi", "five-card-draw"]


def _restored(table: Table, clock: FakeClock) -> Table:
    state = json.loads(json.dumps(table.to_state()))
    return Table.from_state(table.settings, state, clock=clock, rng=random.Random(99))


@pytest.mark.parametrize("game", GAMES)
def test_a_table_saved_mid_hand_continues_with_the_same_cards(game: str) -> None:
    table, clock = make_table(players=3, game=game, seed=7)
    start_hand(table, clock)
    rng = random.Random(3)
    for _ in range(rng.randint(1, 4)):
        if table.hand is None:
            break
        legal = table.hand.legal_actions()
        assert legal is not None
        table.act(actor_seat(table), Check() if legal.check else BringIn()
                  if legal.bring_in is not None else Call())
    assert table.hand is not None
    table.drain()
    copy = _restored(table, clock)
    assert copy.version == table.version
    assert copy.hand is not None
    assert copy.hand.events == table.hand.events
    for seat in (None, *table.hand_seats):
        assert copy.hand_view(seat) == table.hand_view(seat)
    assert copy.public_state()["seats"] == table.public_state()["seats"]
    assert copy.drain() == []
    play_passively(table)
    play_passively(copy)
    assert [s.stack for s in copy.seats.values()] == [s.stack for s in table.seats.values()]
    theirs = [(e.version, e.kind, e.truth) for e in table.drain()]
    ours = [(e.version, e.kind, e.truth) for e in copy.drain()]
    assert [(v, k, t) for v, k, t in ours if k == HAND] == \
        [(v, k, t) for v, k, t in theirs if k == HAND]


def test_a_restored_table_restarts_the_clocks() -> None:
    table, clock = make_table(players=2, action_clock=10.0, time_bank=4.0)
    start_hand(table, clock)
    clock.advance(9.0)
    copy = _restored(table, clock)
    assert copy.next_deadline() == clock.now + 14.0
    between, clock2 = make_table(players=2)
    copy2 = _restored(between, clock2)
    assert copy2.next_deadline() == clock2.now + 2.0


def test_a_table_restored_between_hands_waits_only_the_rest_of_its_pause() -> None:
    """The pause between hands is nobody's clock: a restart or a failover in the middle of it
    does not start it again (a whole pause from the restore), it resumes with what was left,
    and one that ran out meanwhile deals at once. Paused between hands, what was left when
    the host paused stays left. A deadline further off than a whole pause (a worker whose
    clock runs behind wrote it) waits one pause, never more."""
    table, clock = make_table(players=2)  # a 2 s pause
    start_hand(table, clock)
    play_passively(table)
    assert table.phase == "between"
    ended = clock.now
    clock.advance(0.5)
    copy = _restored(table, clock)
    assert copy.next_deadline() == ended + 2.0  # 1.5 s left, not 2 s from now
    clock.advance(5.0)
    late = _restored(table, clock)
    assert late.next_deadline() == clock.now  # the pause ran out while it was down
    late.tick()
    assert late.hand is not None
    assert late.hand_no == table.hand_no + 1
    paused, clock2 = make_table(players=2)
    start_hand(paused, clock2)
    play_passively(paused)
    clock2.advance(0.5)
    paused.pause()  # 1.5 s left
    clock2.advance(30.0)
    copy = _restored(paused, clock2)
    assert copy.next_deadline() is None
    copy.resume()
    assert copy.next_deadline() == clock2.now + 1.5
    ahead = json.loads(json.dumps(paused.to_state()))
    ahead["paused"], ahead["paused_at"], ahead["deadline"] = False, None, clock2.now + 60.0
    behind = Table.from_state(paused.settings, ahead, clock=clock2)
    assert behind.next_deadline() == clock2.now + 2.0


def test_a_state_shares_the_hand_s_recorded_actions_with_the_last_one() -> None:
    """Counted, not timed: a hand's actions are recorded once, as they are played, and every
    state after shares them (a room keeps the last state it stored to write only what
    changed: the actions then were a second copy, made again at every commit); a state kept
    is never changed by the play after it, and a restored table records the same."""
    table, clock = make_table(players=3, game="plo", seed=7)
    start_hand(table, clock)
    table.act(actor_seat(table), Call())
    first = table.to_state()
    kept = json.loads(json.dumps(first))
    table.act(actor_seat(table), Call())
    second = table.to_state()
    assert len(second["hand"]["actions"]) == len(first["hand"]["actions"]) + 1
    done = first["hand"]["actions"]
    assert all(a is b for a, b in zip(done, second["hand"]["actions"][:len(done)], strict=True))
    assert json.loads(json.dumps(first)) == kept  # the state kept did not change
    restored = _restored(table, clock)
    assert restored.to_state()["hand"]["actions"] == second["hand"]["actions"]
    seat = actor_seat(restored)
    restored.act(seat, Check())
    assert restored.to_state()["hand"]["actions"][-1] == [seat, Check.name, None]


def test_a_stored_hand_that_does_not_replay_is_an_error() -> None:
    table, clock = make_table(players=2)
    start_hand(table, clock)
    state = table.to_state()
    state["hand"]["actions"] = [[1 - table.hand.actor, "call", None]]
    with pytest.raises(TableError, match=r"does not replay: seat \d acts out of turn"):
        Table.from_state(table.settings, state, clock=clock)
    for stored, why in (([0, "shove", None], "unknown action 'shove'"),
                        ([0, "raise", "lots"], "a raise needs an amount"),
                        ([0, "draw", "AsAs"], "its draw cannot be read"),
                        ([0, "allocate", {"A": "As Zz"}], "its allocate cannot be read"),
                        ([0, "fold"], "not a stored action")):
        state["hand"]["actions"] = [stored]
        with pytest.raises(TableError, match="action 1 is not a stored action") as refused:
            Table.from_state(table.settings, state, clock=clock)
        assert why in str(refused.value)
        assert "As" not in str(refused.value)  # a private card is never named


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from([*GAMES, "dealers-choice"]))
@example(seed=1661, game="balance")  # all-in on the small blind: dealt and shown in one batch
@example(seed=170, game="five-card-draw")  # a draw's cards dealt and shown in one batch
def test_random_play_conserves_chips_and_shows_no_card_early(seed: int, game: str) -> None:
    rng = random.Random(seed)
    table, clock = make_table(players=rng.randint(2, 5), game=game, seed=seed,
                              action_clock=5.0, time_bank=1.0, max_seats=6)
    seats: list[int] = []
    for _ in range(120):
        _random_step(table, clock, rng)
        assert table.chips_on_table() == table.balance
        events = table.drain()
        _check_views(events, seats)
        if table.phase == CLOSED:
            break
    assert table.balance == table.chips_on_table()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from([*GAMES, "dealers-choice"]))
def test_a_state_and_its_changes_give_back_every_later_state(seed: int, game: str) -> None:
    rng = random.Random(seed)
    table, clock = make_table(players=rng.randint(2, 5), game=game, seed=seed,
                              action_clock=5.0, time_bank=1.0, max_seats=6)
    whole = stored = json.loads(json.dumps(table.to_state()))
    changes: list[dict[str, object]] = []
    for _ in range(120):
        in_hand = table.hand is not None
        actions = len(table.hand_actions)
        _random_step(table, clock, rng)
        table.drain()
        state = json.loads(json.dumps(table.to_state()))
        change = state_change(stored, state)
        if change is None:  # a hand dealt or ended, a seat taken or left: written whole
            whole, changes = state, []
        else:
            changes.append(json.loads(json.dumps(change)))
            assert with_changes(whole, changes) == state
            restored = Table.from_state(table.settings, with_changes(whole, changes),
                                        clock=clock, rng=random.Random(99))
            assert json.loads(json.dumps(restored.to_state()))["hand"] == state["hand"]
        if in_hand and table.hand is not None and len(table.hand_actions) > actions:
            assert change is not None  # an action is stored as its change
            assert change["actions"] == state["hand"]["actions"][actions:]
        stored = state
        if table.phase == CLOSED:
            break


def _random_step(table: Table, clock: FakeClock, rng: random.Random) -> None:
    roll = rng.random()
    try:
        if table.phase == DEALING and table.hand is not None and table.hand.is_allocating \
                and roll < 0.8:
            allocate_all(table)
        elif table.phase == DEALING and table.hand is not None and table.hand.is_choosing_runs \
                and roll < 0.8:
            hand = table.hand
            table.choose_runs(hand.seats_choosing_runs[0], rng.randint(1, hand.runs_most))
        elif table.phase == DEALING and table.hand is not None and roll < 0.8:
            legal = table.hand.legal_actions()
            assert legal is not None
            seat = actor_seat(table)
            if legal.draw is not None:
                held = format_cards(table.hand.cards(seat)).split()
                table.act(seat, Draw(parse_cards(random_throw(held, legal.draw, rng))))
                return
            options: list[Action] = []
            if legal.fold:
                options.append(Fold())
            if legal.check:
                options.append(Check())
            if legal.call is not None:
                options += [Call()] * 3
            if legal.bring_in is not None:
                options.append(BringIn())
            if legal.raise_min is not None and legal.raise_max is not None:
                options.append(RaiseTo(rng.randint(legal.raise_min, legal.raise_max)))
            table.act(seat, rng.choice(options))
        elif table.phase == "picking" and roll < 0.5 and table.picker is not None:
            choices = table.public_state()["choices"]
            table.pick(table.picker, rng.choice(choices))
        elif roll < 0.9:
            deadline = table.next_deadline()
            if deadline is not None:
                clock.now = max(clock.now, deadline)
            table.tick()
        else:
            seat = rng.randrange(6)
            command = rng.choice(["sit", "leave", "sit_out", "sit_in", "rebuy", "approve_rebuy",
                                  "set_stack", "pause", "resume"])
            if command == "sit":
                table.sit(seat, f"p{rng.random()}", f"N{rng.randrange(10**6)}")
            elif command == "rebuy":
                table.request_rebuy(seat, rng.randint(1, 50))
            elif command == "set_stack":
                table.set_stack(seat, rng.randint(0, 300))
            elif command in ("pause", "resume"):
                getattr(table, command)()
            else:
                getattr(table, command)(seat)
    except TableError:
        pass


def _check_views(events: list[TableEvent], seats: list[int]) -> None:
    """No hand event shows a viewer another seat's down card (before showdown) or a card that
    is not in the event; ``seats`` follows the hand's table seats across calls.

    A deal's down cards may show only when the same batch (one commit, published at once)
    shows that hand: a hand that is all-in before any decision is dealt and shown together.
    The pushes go further (``events_for(..., as_they_came=True)``): a card that a later event
    of the batch shows stays hidden in its deal and the show shows it (a draw's cards, dealt
    and shown in one commit: hypothesis's seed 170 of five-card draw), so a deal shows its
    owner and the up cards at least, and at most those and the batch's shown cards."""
    shown_in_batch: dict[int, set[int]] = {}
    for event in events:
        if event.kind == "hand_started":
            shown_in_batch.clear()
        if event.kind == HAND and isinstance(event.truth, HandShown):
            shown_in_batch.setdefault(event.truth.seat, set()).update(event.truth.cards)
    for event in events:
        if event.kind == "hand_started":
            seats[:] = event.data["seats"]
        if event.kind != HAND:
            assert event.views is None
            continue
        assert event.views is not None
        truth = event.truth
        for viewer in event.views:
            visible = cards_seen(event, viewer)
            if isinstance(truth, HoleDealt):
                mine = truth.seat == viewer
                # (a redraw stays hidden in its own event: the HandShown shows it)
                shown = set() if isinstance(truth, Redrawn) else shown_in_batch.get(truth.seat,
                                                                                      set())
                allowed = {c for c, up in zip(truth.cards, truth.up, strict=True)
                           if up or mine or c in shown}
                needed = {c for c, up in zip(truth.cards, truth.up, strict=True) if up or mine}
                assert needed <= visible <= allowed
            elif isinstance(truth, BoardDealt | HandShown):
                assert visible == set(truth.cards)
            else:
                assert visible == set()


def test_hand_histories_hide_unseen_cards_from_everyone_but_their_holder() -> None:
    table, clock = make_table(players=3, seed=5)
    start_hand(table, clock)
    table.act(actor_seat(table), Fold())  # one hand folds: never shown
    play_passively(table)
    ended = next(e for e in table.drain() if e.kind == "hand_ended")
    record = ended.private
    assert record is not None
    folder = record["actions"][0][0]
    holder = record["players"][folder]["player"]
    folded_cards = record["deck"]  # the deck order is the truth; find the folder's hole cards
    settings_ = table.settings
    mine = history_for(settings_, record, holder)
    public = history_for(settings_, record, None)
    other = history_for(settings_, record, record["players"][(folder + 1) % 3]["player"])
    assert mine["players"] == public["players"]
    assert public["_hand_no"] == 1
    assert "_burns" not in public
    dealt_public = [a for a in public["actions"] if a.startswith("d dh")]
    dealt_mine = [a for a in mine["actions"] if a.startswith("d dh")]
    hidden = {a.split()[2] for a in dealt_public if "????" in a}
    shown = {a.split()[0] for a in public["actions"] if len(a.split()) == 3 and " sm " in a}
    assert hidden == {f"p{k}" for k in range(1, 4)} - shown  # the folded hand, and any mucked
    order = [(record["button"] + 1 + k) % 3 for k in range(3)]
    label = {seat: f"p{order.index(seat) + 1}" for seat in range(3)}
    assert label[folder] in hidden  # a folded hand is never shown
    assert {a.split()[2] for a in dealt_mine if "??" in a} == hidden - {label[folder]}
    viewer = (folder + 1) % 3
    assert {a.split()[2] for a in other["actions"]
            if a.startswith("d dh") and "??" in a} == hidden - {label[viewer]}
    assert len(folded_cards) == 52


def test_settings_checks_name_what_is_wrong() -> None:
    with pytest.raises(TableError, match="blinds must satisfy"):
        TableSettings(small_blind=3, big_blind=2).check()
    with pytest.raises(TableError, match="PLO with 6 hole cards seats at most 7, not 9"):
        TableSettings(game="plo", hole_cards=6, max_seats=9).check()
    with pytest.raises(TableError, match="unknown variant 'go'"):
        TableSettings(game="go").check()
    with pytest.raises(TableError, match="the button picks the options"):
        TableSettings(game="dealers-choice", hole_cards=5).check()
    with pytest.raises(TableError, match="unknown settings \\['colour'\\]"):
        TableSettings.from_dict({"colour": 1})
    with pytest.raises(TableError, match="small_blind must be a whole number"):
        TableSettings.from_dict({"small_blind": 1.5})
    with pytest.raises(TableError, match="action_clock must be a number of seconds"):
        TableSettings.from_dict({"action_clock": "soon"})
    with pytest.raises(TableError, match="max seats must be 2 to 10"):
        TableSettings(max_seats=11).check()
    with pytest.raises(TableError, match="ESG is played pot-limit, not no-limit"):
        TableSettings(game="esg", betting="no-limit").check()
    stud = TableSettings(game="stud-hilo", small_blind=2, big_blind=4, ante=1).check()
    stakes = stud.stakes_for(stud.variant_for("stud-hilo", {}))
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (1, 2, 4, 8)
    ante_game = TableSettings(game="bomb").check()
    stakes = ante_game.stakes_for(ante_game.variant_for("bomb", {}))
    assert (stakes.ante, stakes.big_blind) == (1, 2)


def test_a_viewer_sees_its_own_cards_and_no_one_elses() -> None:
    table, clock = make_table(players=3)
    start_hand(table, clock)
    assert table.hand is not None
    for seat in table.hand_seats:
        view = table.hand_view(seat)
        assert view is not None
        assert view == view_for(table.hand, seat)
        assert view.viewer == seat
        assert [other.seat for other in view.seats] == list(table.hand_seats)
        for other in view.seats:
            known = [c for c in other.cards if c is not None]
            assert bool(known) == (other.seat == seat)
    spectator = table.hand_view(None)
    assert spectator is not None
    assert all(c is None for s in spectator.seats for c in s.cards)
