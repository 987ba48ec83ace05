"""Actions as values (engine/actions.py): every action type round-trips through the protocol's
``act`` parser, the table's record, the history's writer and reader, and the engine, which
applies any of them with one method (``Hand.apply``)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from pure_engine import ran_in_pure_child

from boardroom.cards import parse_cards
from boardroom.engine import (
    Action,
    ActionError,
    Allocate,
    AllocateBest,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    Complete,
    Deck,
    Draw,
    Fold,
    Hand,
    NotYourTurnError,
    RaiseTo,
    Stakes,
)
from boardroom.engine import actions as acts
from boardroom.engine import events as ev
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.betting import default_stakes
from boardroom.engine.history import History, dumps, replay_text
from boardroom.engine.history.phh import action_line, parse_line
from boardroom.engine.replay import ReplayError, replay
from boardroom.engine.stud import best_showing_ranks
from boardroom.rules import VARIANTS, find_variant
from boardroom.rules.spec import FirstToAct
from boardroom.server.bot_driver import command_for
from boardroom.server.protocol import ACTS, ProtocolError, parse

EVERY_KIND: list[Action] = [
    Fold(), Check(), Call(), CheckOrCall(), RaiseTo(12), BringIn(), Complete(),
    Draw(parse_cards("As Kd")), Draw(),
    Allocate((("A", parse_cards("As Kd")), ("Hand", parse_cards("2c 3c 4c")))),
    AllocateBest(), ChooseRuns(2),
]


def test_every_kind_of_action_is_listed() -> None:
    assert {type(action).name for action in EVERY_KIND} == set(acts.NAMES)
    raised = RaiseTo(12)
    with pytest.raises(dataclasses.FrozenInstanceError):
        raised.amount = 13  # type: ignore[misc]
    assert len({*EVERY_KIND, RaiseTo(12)}) == len(EVERY_KIND)  # values: equal ones hash alike


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda a: type(a).__name__)
def test_every_action_round_trips_through_its_record(action: Action) -> None:
    name, argument = acts.record(action)
    assert name == action.name
    assert acts.from_record(name, argument) == action


def test_records_name_what_is_wrong() -> None:
    cases = [(("shove", None), "unknown action 'shove'"),
             (("raise", None), "a raise needs an amount"),
             (("raise", True), "a raise needs an amount"),
             (("fold", 3), "fold takes no amount"),
             (("draw", "Zz"), "a draw names the cards to throw"),
             (("draw", 5), "a draw names the cards to throw"),
             (("allocate", "As"), "an allocation maps each category to its cards"),
             (("allocate", {"A": "As K"}), "the cards for A are not readable card notation")]
    for (name, argument), message in cases:
        with pytest.raises(ActionError, match=message):
            acts.from_record(name, argument)


@pytest.mark.parametrize("action", [Fold(), Check(), Call(), RaiseTo(12), BringIn(),
                                    Complete()], ids=lambda a: type(a).__name__)
def test_the_act_command_parses_into_action_values_and_back(action: Action) -> None:
    assert action.name in ACTS
    message = command_for(action)
    assert message["type"] == "act"
    assert parse({"id": "1", **message}).action == action


def test_an_allocation_is_the_allocate_command() -> None:
    commit = EVERY_KIND[9]
    message = command_for(commit)
    assert message == {"type": "allocate", "cards": {"A": "As Kd", "Hand": "2c 3c 4c"}}
    command = parse({"id": "1", **message})
    assert command.action is None  # the allocate command is parsed at the table
    assert acts.from_record("allocate", command.args["cards"]) == commit


def test_the_act_command_takes_only_the_betting_words_and_the_draw() -> None:
    assert parse({"id": "1", "type": "act", "action": "draw", "cards": "As 2d"}).action == \
        Draw(parse_cards("As 2d"))
    assert parse({"id": "1", "type": "act", "action": "draw"}).action == Draw()  # stands pat
    for word in ("allocate", "allocate_best", "check_or_call", "shove"):
        with pytest.raises(ProtocolError, match=f"unknown action '{word}'"):
            parse({"id": "1", "type": "act", "action": word})
    with pytest.raises(ProtocolError, match="a raise needs an amount"):
        parse({"id": "1", "type": "act", "action": "raise"})


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda a: type(a).__name__)
def test_history_lines_parse_into_action_values_and_print_back(action: Action) -> None:
    if isinstance(action, Complete | AllocateBest | ChooseRuns):
        with pytest.raises(ActionError, match="a history writes"):
            action_line("p2", action)
        return
    text = action_line("p2", action)
    line = parse_line(1, text)
    assert line.actor == "p2"
    # PHH's ``cc`` is a check or a call: the engine tells which.
    assert line.action == (CheckOrCall() if isinstance(action, Check | Call) else action)
    assert action_line("p2", line.action) == text


def _choose(hand: Hand, rng: random.Random) -> tuple[int, Action]:
    """A random legal action value for whoever must act, every kind the hand allows."""
    if hand.is_allocating:
        seat = hand.allocation_pending[0]
        if rng.random() < 0.5:
            return seat, AllocateBest()
        return seat, Allocate(tuple(hand.suggest_allocation(seat).items()))
    legal = hand.legal_actions()
    assert legal is not None
    seat = legal.seat
    if legal.draw is not None:
        held = hand.hole[seat]
        return seat, Draw(tuple(rng.sample(held, rng.randint(0, min(legal.draw, len(held))))))
    options: list[Action] = [CheckOrCall()]
    options += [Fold()] * legal.fold + [Check()] * legal.check
    options += [Call()] * 3 * (legal.call is not None) + [BringIn()] * (legal.bring_in is not None)
    if legal.raise_min is not None and legal.raise_max is not None:
        options.append(RaiseTo(rng.randint(legal.raise_min, legal.raise_max)))
        if hand.can_complete():
            options.append(Complete())
    return seat, rng.choice(options)


@pytest.mark.parametrize("variant", [v.id for v in VARIANTS if v.id != "dealers-choice"])
def test_random_hands_of_action_values_replay_from_their_history(variant: str) -> None:
    spec = find_variant(variant)
    for seed in range(3):
        rng = random.Random(seed)
        count = rng.randint(2, min(5, spec.max_players))
        hand = Hand(spec, default_stakes(spec), [rng.randint(20, 200) for _ in range(count)],
                    seed % count, cards=Deck(rng=rng), manual_allocation=spec.has_allocation)
        played: list[tuple[int, Action]] = []
        while not hand.is_over:
            seat, action = _choose(hand, rng)
            hand.apply(seat, action)
            played.append((seat, action))
        # The table's record of the same actions, and the one replayer, give the same hand.
        stored = [(seat, acts.from_record(*acts.record(action))) for seat, action in played]
        assert stored == played
        # The history writes them, its reader parses them back and the replayer plays them.
        text = dumps(hand)
        again = replay_text(text)
        assert again.stacks == hand.stacks
        # (A timeout's commit is written as its cards with a comment, so it replays as a
        # commit of those cards: the same hand, the flag aside.)
        assert again.events == [ev.AllocationCommitted(e.seat, False)
                                if isinstance(e, ev.AllocationCommitted) else e
                                for e in hand.events]
        assert History.loads(text).dumps() == text


def test_a_completion_is_the_raise_to_the_small_bet() -> None:
    stud = find_variant("stud")
    stakes = default_stakes(stud)
    for seed in range(20):
        hand = Hand(stud, stakes, [100] * 4, 0, cards=Deck(rng=random.Random(seed)))
        legal = hand.legal_actions()
        assert legal is not None
        assert legal.bring_in is not None
        assert hand.can_complete()
        twin = Hand(stud, stakes, [100] * 4, 0, cards=Deck(rng=random.Random(seed)))
        assert legal.raise_min is not None
        hand.apply(legal.seat, Complete())
        twin.apply(legal.seat, RaiseTo(legal.raise_min))
        assert hand.events == twin.events
        assert not hand.can_complete()  # the bet is complete: a raise now
        seat = hand.actor
        assert seat is not None
        with pytest.raises(ActionError, match=f"seat {seat} has no bring-in to complete"):
            hand.apply(seat, Complete())
    plo = Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [100] * 3, 0,
               cards=Deck(rng=random.Random(1)))
    assert plo.actor is not None
    with pytest.raises(ActionError, match="has no completion: bet or raise"):
        plo.apply(plo.actor, Complete())


def test_an_action_out_of_turn_is_refused_and_changes_nothing() -> None:
    hand = Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [100] * 3, 0,
                cards=Deck(rng=random.Random(3)))
    actor = hand.actor
    assert actor is not None
    other = (actor + 1) % 3
    before = list(hand.events)
    with pytest.raises(NotYourTurnError, match=f"seat {other} cannot fold now: seat {actor} "
                                               f"is to act"):
        hand.apply(other, Fold())
    assert hand.events == before
    assert hand.actor == actor


def test_the_replayer_says_which_step_it_refuses_and_why() -> None:
    def fresh() -> Hand:
        return Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [100] * 2, 0,
                    cards=Deck(rng=random.Random(4)))

    hand = fresh()
    first = hand.actor
    assert first is not None
    with pytest.raises(ReplayError) as refused:
        replay(fresh(), [(first, Call()), (first, Check())])
    assert (refused.value.index, refused.value.out_of_turn) == (1, True)
    with pytest.raises(ReplayError) as over:
        replay(fresh(), [(first, Fold()), (1 - first, Check())])
    assert (over.value.index, over.value.over) == (1, True)
    with pytest.raises(ReplayError, match="above the pot limit of 6"):
        replay(fresh(), [(first, RaiseTo(7))])
    with pytest.raises(ReplayError, match="the actions end before the hand does"):
        replay(fresh(), [(first, Call())], to_the_end=True)
    steps: list[int] = []
    replay(fresh(), [(first, Call())], before=lambda index, seat, action: steps.append(index))
    assert steps == [0]


def test_something_that_is_not_an_action_is_refused_and_changes_nothing() -> None:
    """A word where an action value belongs (the old string API) is an error, never a no-op
    that a caller could loop on."""
    variant = find_variant("plo")
    hand = Hand(variant, default_stakes(variant), [200, 200], 0, cards=Deck(rng=random.Random(1)))
    before = len(hand.events)
    with pytest.raises(ActionError, match="not an action: 'fold'"):
        hand.apply(hand.actor, "fold")  # type: ignore[arg-type]
    assert len(hand.events) == before


def test_a_decision_s_raise_bounds_are_worked_out_once(monkeypatch: pytest.MonkeyPatch,
                                                       request: pytest.FixtureRequest) -> None:
    """The legal actions, asked twice, and the check of the raise that follows share one
    working-out of the decision (the raise bounds inlined in it: ``BettingRound.bounds`` is
    not asked again); the next decision works it out afresh. It counts calls by patching the
    engine's methods: on the pure engine (``pure_engine``)."""
    if ran_in_pure_child(request):
        return
    from boardroom.engine.betting import BettingRound

    calls = []
    bounds_calls = []
    real = Hand._legal_now
    real_bounds = BettingRound.bounds

    def counted(self: Hand, seat: int) -> object:
        calls.append(seat)
        return real(self, seat)

    def counted_bounds(self: BettingRound, *args: object, **kwargs: object) -> object:
        bounds_calls.append(args[0])
        return real_bounds(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Hand, "_legal_now", counted)
    monkeypatch.setattr(BettingRound, "bounds", counted_bounds)
    variant = find_variant("holdem")
    hand = Hand(variant, default_stakes(variant), [200, 200, 200], 2,
                cards=Deck(rng=random.Random(5)), seats=[2, 5, 7])
    first = hand.legal_actions()
    assert first is not None
    assert first.raise_min is not None
    assert hand.legal_actions() is first
    assert hand.can_raise_to(first.raise_min)
    hand.raise_to(first.raise_min)
    assert len(calls) == 1
    assert bounds_calls == []
    after = hand.legal_actions()
    # The button (seat 2) raised to 4; the small blind (seat 5, 1 in) has 3 to call.
    assert after is not None
    assert after.seat == 5
    assert after.call == 3
    assert len(calls) == 2
    assert bounds_calls == []


@pytest.mark.parametrize(("game", "betting"), [
    ("holdem", "no-limit"), ("holdem", "pot-limit"), ("holdem", "fixed-limit"),
    ("stud", "fixed-limit"), ("stud", "pot-limit"), ("razz", "fixed-limit"), ("stud5", None),
    ("27-triple-draw", None), ("badugi", None), ("plo", None), ("esg", None),
])
def test_the_inlined_betting_answers_are_the_betting_round_s(game: str,
                                                             betting: str | None) -> None:
    """The legal actions work the raise bounds out inline, and the hand finds the next seat
    to act itself (both asked at every decision); at every decision of 150 random hands
    (random stacks from 1 to 300 chips, so short all-ins and capped rounds happen) the
    bounds are ``BettingRound.bounds``' answer, and None exactly where it refuses, as
    ``raise_refusal`` says, and the first seat needing a decision from every seat is
    ``BettingRound.first_needing``'s; a bet or raise leaves the round as
    ``BettingRound.raised_to`` would; a stud street's opener is ``best_showing_ranks``' seat;
    a shown hand shows its public cards in its order."""
    variant = find_variant(game).with_options(betting=betting)
    rng = random.Random(f"{game}/{betting}")
    checked = refused = shown = raised = opened = 0
    for number in range(150):
        count = rng.randint(2, min(6, variant.max_players))
        stacks = [rng.choice((1, 2, 3, 5, 9, 30, 300)) for _ in range(count)]
        hand = Hand(variant, default_stakes(variant), stacks, number % count,
                    cards=Deck(rng=rng))
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.draw is not None:
                hand.draw(())
                continue
            seat = hand.position(legal.seat)
            rule = hand._street.first_to_act
            if rule in (FirstToAct.BEST_SHOWING, FirstToAct.LOW_SHOWING):
                showing = [(s, tuple(card >> 2 for card, up in zip(hand.hole[s], hand.up[s],
                                                                  strict=True) if up))
                           for s in hand.order if hand.live[s]]
                assert hand._round_opener(hand._street) == best_showing_ranks(
                    showing, low=rule is FirstToAct.LOW_SHOWING)
                opened += 1
            for start in range(count):
                assert hand._first_needing(start) == hand._round.first_needing(
                    start, hand.live, hand.stacks, hand.bets)
            bounds = hand._round.bounds(
                seat, variant.betting, variant.raise_cap, hand.stacks, hand.bets, hand.live,
                sum(hand.contributed))
            if isinstance(bounds, str):
                refused += 1
                assert (legal.raise_min, legal.raise_max) == (None, None)
                assert hand.raise_refusal() == bounds
            else:
                checked += 1
                assert (legal.raise_min, legal.raise_max) == bounds
                assert hand.raise_refusal() is None
            options = ["bring_in" if legal.bring_in is not None else "call"] * 2 \
                + ["raise"] * (legal.raise_min is not None) + ["fold"] * legal.fold
            match rng.choice(options):
                case "fold":
                    hand.fold()
                case "raise":
                    assert legal.raise_min is not None
                    assert legal.raise_max is not None
                    amount = rng.choice((legal.raise_min, legal.raise_max))
                    round_, expected = hand._round, copy.deepcopy(hand._round)
                    live, stacks = list(hand.live), list(hand.stacks)
                    stacks[seat] -= amount - hand.bets[seat]
                    hand.raise_to(amount)
                    expected.raised_to(seat, amount, live, stacks)
                    assert round_ == expected
                    raised += 1
                case "bring_in":
                    hand.post_bring_in()
                case _:
                    hand.check() if legal.check else hand.call()
        for event in hand.events:  # a shown hand: its public cards in the order it holds them
            if isinstance(event, ev.HandShown):
                held = hand.cards(event.seat)
                assert event.cards == tuple(sorted(hand.public_cards(event.seat),
                                                   key=held.index))
                shown += 1
    assert shown > 20
    assert checked > 100
    assert refused > 10
    assert raised > 50
    assert opened > 50 or not variant.is_stud


def test_the_shared_legal_values_stay_bounded() -> None:
    """Legal actions are shared values kept in a bounded table (engine.hand): many different
    ones never grow it past its bound, and each is the value asked for."""
    from boardroom.engine import hand as engine_hand

    bound = engine_hand._LEGAL_VALUES_MAX
    for call in range(1, 3 * bound):
        value = engine_hand._legal_value(0, True, False, call, 2 * call, 10 * call, None, False,
                                         None)
        assert (value.call, value.raise_min, value.raise_max) == (call, 2 * call, 10 * call)
        assert len(engine_hand._LEGAL_VALUES) <= bound
