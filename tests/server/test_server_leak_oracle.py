"""The leak oracle itself (``leaks.entitlements_of``): the cards it says a viewer was entitled
to must include every card the room rightly showed that viewer, or the leak checks that use it
fail on a fair deal (a run dealt twice showed its second boards to everyone)."""

from __future__ import annotations

import json
import random

import pytest
from leaks import cards_in, entitlements_of

from boardroom.cards import format_card
from boardroom.engine import Call, Check, Fold, RaiseTo
from boardroom.engine import events as ev
from boardroom.engine.view import views_for
from boardroom.server.encode import plain
from boardroom.server.room import _event_payload
from boardroom.table import Table, TableSettings
from boardroom.table.events import TableEvent


def _rows(events: list[TableEvent]) -> list[tuple[int, str, str]]:
    """``events`` as the room stores them (room._commit): (version, kind, payload JSON)."""
    rows = []
    for event in events:
        payload = {"data": dict(event.data)}
        if event.truth is not None:
            payload["event"] = plain(event.truth)
        rows.append((event.version, event.kind, json.dumps(payload)))
    return rows


def _dealt(game: str, seed: int) -> Table:
    """A table of ``game`` at three seats with its first hand dealt."""
    now = [1000.0]
    table = Table(TableSettings(game=game, pause_between_hands=2.0).check(),
                  clock=lambda: now[0], rng=random.Random(seed))
    for seat in range(3):
        table.sit(seat, f"player-{seat}", f"P{seat}")
    deadline = table.next_deadline()
    assert deadline is not None
    now[0] = deadline
    table.tick()
    return table


def _run_twice(game: str) -> Table:
    """A hand of ``game`` at three seats, all in on the flop and run twice."""
    table = _dealt(game, 3)
    while table.hand is not None:
        hand = table.hand
        if hand.is_choosing_runs:
            for seat in hand.seats_choosing_runs:
                table.choose_runs(seat, 2)
            continue
        legal = hand.legal_actions()
        assert legal is not None
        assert hand.seat_to_act is not None
        if hand.street_index >= 1 and legal.raise_max is not None:
            table.act(hand.seat_to_act, RaiseTo(legal.raise_max))
        else:
            table.act(hand.seat_to_act, Check() if legal.check else Call())
    return table


@pytest.mark.parametrize("game", ["esg", "tilt", "plo"])  # runs with redraws, and without
def test_a_second_run_s_boards_are_public_and_its_redraws_private_to_the_oracle(
        game: str) -> None:
    table = _run_twice(game)
    events = table.drain()
    assert any(isinstance(e.truth, ev.RunDealt) for e in events)  # the case under test
    rows = []
    for event in events:  # as the room stores them (room._commit)
        payload = {"data": dict(event.data)}
        if event.truth is not None:
            payload["event"] = plain(event.truth)
        rows.append((event.version, event.kind, json.dumps(payload)))
    entitled, _ = entitlements_of(rows)
    for viewer in (None, 0, 1, 2):
        shown: set[str] = set()
        for event in events:
            shown |= cards_in(_event_payload("room", event, viewer))
            assert shown <= entitled.at(event.version, viewer), (viewer, event.kind)


@pytest.mark.parametrize("game", ["esg", "tilt"])  # runs with redraws
def test_a_shown_hand_s_redraws_of_every_run_are_public_to_the_oracle(game: str) -> None:
    """A hand shown at the showdown shows its cards of every run (the engine's ``RunView``:
    a seat's cards of a later run are hidden until its hand is shown), though its
    ``HandShown`` event names the first run's cards only: the last hand's view, as every
    viewer is sent it until the next deal, holds the second run's redraws of each shown hand.
    (A kill test's spectator of an ESG room was sent them, and the oracle called it a leak.)"""
    table = _run_twice(game)
    events = table.drain()
    rows = [(event.version, event.kind, json.dumps(
        {"data": dict(event.data)} | ({"event": plain(event.truth)} if event.truth else {})))
        for event in events]
    entitled, _ = entitlements_of(rows)
    finished = table.finished_hand()
    assert finished is not None
    shown = [seat for seat in finished.seats if finished.showed(seat)]
    assert shown  # the case under test: a showdown
    views = views_for(finished, [None, *finished.seats])
    redraws = set()
    for run in views[None].runs:
        for seat, cards in run.cards:
            if seat in shown:
                redraws |= set(cards)
    assert redraws  # the case under test: a later run's redraws of a shown hand, seen by all
    for viewer, view in views.items():
        assert cards_in(plain(view)) <= entitled.at(events[-1].version, viewer), viewer


def test_cards_shown_after_the_hand_and_the_rabbit_s_are_public_to_the_oracle() -> None:
    """After a hand won uncontested, its winner shows a card and a player hunts the rabbit:
    both events name their cards to everyone (``shown_after``, ``rabbit``), and the last
    hand's view shows them until the next deal."""
    table = _dealt("holdem", 5)
    hand = table.hand
    assert hand is not None
    while table.hand is not None:
        assert hand.seat_to_act is not None
        table.act(hand.seat_to_act, Fold())
    winner = next(seat for seat in range(3) if hand.is_live(seat))
    table.show_after(winner, [format_card(hand.cards(winner)[0])])
    table.rabbit_hunt(winner)
    events = table.drain()
    assert {"shown_after", "rabbit"} <= {event.kind for event in events}  # the case under test
    entitled, _ = entitlements_of(_rows(events))
    for viewer in (None, 0, 1, 2):
        for event in events:
            shown = cards_in(_event_payload("room", event, viewer))
            assert shown <= entitled.at(event.version, viewer), (viewer, event.kind)
