"""Writing a hand's history: the record (TOML-ready data) of a hand, finished or running, with
every card its events show (a viewer's events write the cards it may not see as ``??``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomli_w

from boardroom.cards import Card, format_cards
from boardroom.engine import events as ev
from boardroom.engine.actions import Action, Allocate, BringIn, Call, Check, Draw, Fold, RaiseTo
from boardroom.engine.hand import Hand
from boardroom.engine.history.phh import (
    action_line,
    cards_text,
    draw_line,
    phh_code,
    variant_options,
)
from boardroom.engine.straddle import straddle_amount
from boardroom.rules import BettingStructure, ForcedBets, Split


def to_record(hand: Hand) -> dict[str, Any]:
    """The history of ``hand`` (finished or running) as a TOML-ready dict."""
    variant, stakes, order = hand.variant, hand.stakes, hand.order
    label = {seat: f"p{k + 1}" for k, seat in enumerate(order)}  # by position
    named = {hand.seats[seat]: name for seat, name in label.items()}  # by table seat (events)
    count = hand.seat_count
    record: dict[str, Any] = {}
    code = phh_code(variant)
    if code is not None:
        record["variant"] = code
    record["antes"] = [stakes.ante] * count
    if hand.big_blind_ante:  # tournaments: the big blind alone posts the ante
        record["antes"] = [0] * count
        record["antes"][order.index(hand.big_blind_seat)] = stakes.ante
    if stakes.ante and len(variant.boards) <= 1:
        # PHH's flag for RULES.md s.2: an ante nobody matched goes back like any bet (written
        # for the single-board games, the PHH family; the multi-board readers need no flag).
        record["ante_trimming_status"] = True
    if variant.forced_bets is ForcedBets.BLINDS:
        record["blinds_or_straddles"] = [stakes.small_blind, stakes.big_blind] + [0] * (count - 2)
        if hand.straddle_seat is not None:  # PHH's straddle: p3 (UTG) or the button (the last)
            record["blinds_or_straddles"][order.index(hand.straddle_seat)] = straddle_amount(
                stakes.big_blind)
        if hand.dead_small_blind:  # tournaments: nobody posts the small blind (p1 is the big)
            record["blinds_or_straddles"] = [stakes.big_blind] + [0] * (count - 1)
            record["_dead_small_blind"] = stakes.small_blind  # the level's, posted by nobody
    if variant.is_stud:
        record["bring_in"] = stakes.bring_in
    if variant.is_stud or variant.betting is BettingStructure.FIXED_LIMIT:
        record["small_bet"] = stakes.small_bet
        record["big_bet"] = stakes.big_bet
    else:
        record["min_bet"] = stakes.big_blind
    record["starting_stacks"] = [hand.starting_stacks[seat] for seat in order]
    record["actions"] = _actions(hand, named)
    record["seats"] = [seat + 1 for seat in order]
    if hand.is_over:
        record["finishing_stacks"] = [hand.stacks[seat] for seat in order]
    record["_variant"] = variant.id
    record["_options"] = variant_options(variant)
    burns = [card for card in hand.burned if card is not None]
    if burns:
        record["_burns"] = format_cards(burns).split()
    if len(variant.boards) > 1:
        record["_boards"] = {name: cards_text(cards) for name, cards in hand.boards.items()}
    if variant.has_redraws:
        record["_redraws"] = [hand.redraws[seat] for seat in order]
    if hand.runs_offered:
        record["_runs"] = _runs_record(hand, label)
    if hand.is_over and variant.split is Split.POINTS and len(variant.categories) > 1:
        record["_points"] = [
            {label[seat]: str(points) for seat, points in result.points.items()}
            for result in hand.results
        ]
    return record


def _runs_record(hand: Hand, label: Mapping[int, str]) -> dict[str, Any]:
    """Running it more than once (engine.runs): whether the room offered it, each player's
    answer (0: not asked), whose clock ran out, and the cards of every run after the first
    (the first is the actions')."""
    runs: dict[str, Any] = {"offered": True}
    if hand.run_choices:
        runs["choices"] = [hand.run_choices.get(seat, 0) for seat in hand.order]
        runs["timeouts"] = [label[e.seat] for e in hand.events
                            if isinstance(e, ev.RunsChosen) and e.automatic]
    single_board = len(hand.variant.boards) == 1
    later = []
    for run in hand.runs[1:]:
        actions = []
        for event in run.deals:
            match event:
                case ev.BoardDealt(board, cards):
                    actions.append(f"d db {cards_text(cards)}"
                                   + ("" if single_board else f" # board {board}"))
                case ev.HoleDealt(seat, cards):
                    actions.append(f"d dh {label[seat]} {cards_text(cards)} # redraw")
        # A viewer's history hides the burns (its hand has none): so do its runs.
        burns = [c for c in run.burns if c is not None] if hand.burned else []
        later.append({"actions": actions, "burns": format_cards(burns).split()})
    if later:
        runs["runs"] = later
    if hand.runs:  # what each run's share of each pot paid, run by run (a replayer's figures)
        runs["awards"] = run_awards(hand, label)
    return runs


def run_awards(hand: Hand, label: Mapping[int, str]) -> list[dict[str, Any]]:
    """``_runs.awards``: every run's share of every pot, ``{run, pot, amount, shares}`` with
    the chips each winner took by PHH label, in the order the pots were paid."""
    return [{"run": run.number, "pot": index, "amount": result.pot.amount,
             "shares": {label[seat]: chips for seat, chips in result.shares.items()}}
            for run in hand.runs for index, result in enumerate(run.results)]


_BETTING = (ev.Folded, ev.Checked, ev.Called, ev.RaisedTo, ev.BringInPosted)


def _early_shows(hand: Hand) -> tuple[int, dict[int, str], set[int]] | None:
    """Where PHH tables the hands of an all-in run-out, or None when there is none.

    PHH (and PokerKit) shows every live hand as soon as the betting is over for good, before
    the remaining cards are dealt; a hand dealt a down card later (stud's seventh street) is
    shown again, whole, at the end. Returns the index of the event before which the shows go,
    each shown seat's ``sm`` action with the cards it held then, and the seats to show again.
    Only single-board games: the multi-board histories keep their shows at the end (redraws
    come in the run-out, and an Allocator hand shows only its allocated cards).
    """
    if len(hand.variant.boards) > 1 or hand.variant.is_draw:
        return None  # (the draw: all-in players still draw, so the shows come at the end)
    events = hand.events
    shown = [e for e in events if isinstance(e, ev.HandShown | ev.HandMucked)]
    if not shown:
        return None
    starts = [k for k, e in enumerate(events) if isinstance(e, ev.StreetStarted)]
    last = max((k for k, e in enumerate(events) if isinstance(e, _BETTING)), default=starts[0])
    point = next((k for k in starts if k > last), None)
    if point is None:
        return None  # the betting went to the last street: the shows come at the end
    held: dict[int, list[Card | None]] = {}
    again: set[int] = set()
    for k, event in enumerate(events):
        if isinstance(event, ev.HoleDealt):
            if k < point:
                held.setdefault(event.seat, []).extend(event.cards)
            elif not all(event.up):
                again.add(event.seat)
    lines: dict[int, str] = {}
    for event in shown:
        cards = held.get(event.seat, []) if isinstance(event, ev.HandShown) else None
        lines[event.seat] = f" sm {cards_text(cards)}" if cards is not None else " sm"
    return point, lines, {e.seat for e in shown if isinstance(e, ev.HandShown)} & again


def action_of(event: ev.Event) -> tuple[int, Action] | None:
    """The seat and the action a betting or draw event records (None for other events, and
    for discards a viewer may not see)."""
    match event:
        case ev.Folded(seat):
            return seat, Fold()
        case ev.Checked(seat):
            return seat, Check()
        case ev.Called(seat, _):
            return seat, Call()
        case ev.RaisedTo(seat, amount, _):
            return seat, RaiseTo(amount)
        case ev.BringInPosted(seat, _):
            return seat, BringIn()
        case ev.Discarded(seat, cards) if None not in cards:
            return seat, Draw(tuple(card for card in cards if card is not None))
    return None


def _actions(hand: Hand, label: Mapping[int, str]) -> list[str]:
    """The PHH actions of ``hand``'s events; ``label``: each table seat's PHH player."""
    actions: list[str] = []
    single_board = len(hand.variant.boards) == 1
    pending: tuple[int, list[Card | None]] | None = None  # hole cards merged per seat and street
    early = _early_shows(hand)
    for index, event in enumerate(hand.events):
        if early is not None and index == early[0]:
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {cards_text(pending[1])}")
                pending = None
            actions.extend(f"{label[seat]}{line}" for seat, line in early[1].items())
        if (early is not None and isinstance(event, ev.HandShown | ev.HandMucked)
                and event.seat not in early[2]):
            continue  # already shown before the run-out
        if isinstance(event, ev.Redrawn):
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {cards_text(pending[1])}")
                pending = None
            actions.append(f"d dh {label[event.seat]} {cards_text(event.cards)} # redraw")
            continue
        if isinstance(event, ev.AllocationCommitted):
            committed = Allocate(tuple(hand.allocations[hand.position(event.seat)].items()))
            note = " # timeout: the engine's allocation" if event.automatic else ""
            actions.append(f"{action_line(label[event.seat], committed)}{note}")
            continue
        if isinstance(event, ev.HoleDealt):
            if pending is not None and pending[0] == event.seat:
                pending[1].extend(event.cards)
                continue
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {cards_text(pending[1])}")
            pending = (event.seat, list(event.cards))
            continue
        if pending is not None:
            actions.append(f"d dh {label[pending[0]]} {cards_text(pending[1])}")
            pending = None
        played = action_of(event)
        if played is not None:
            actions.append(action_line(label[played[0]], played[1]))
            continue
        match event:
            case ev.BoardDealt(board, cards):
                suffix = "" if single_board else f" # board {board}"
                actions.append(f"d db {cards_text(cards)}{suffix}")
            case ev.HandShown(seat, cards):
                actions.append(f"{label[seat]} sm {cards_text(cards)}")
            case ev.HandMucked(seat):
                actions.append(f"{label[seat]} sm")
            case ev.Discarded(seat, cards):  # thrown by another player: written ??
                actions.append(draw_line(label[seat], cards))
            case ev.StreetStarted(_) if hand.variant.is_draw:
                actions.append(_STREET_MARK)
    if pending is not None:
        actions.append(f"d dh {label[pending[0]]} {cards_text(pending[1])}")
    return _draws_first(actions) if hand.variant.is_draw else actions


_STREET_MARK = ""  # between the streets of a draw game's actions, for ``_draws_first`` only


def _draws_first(actions: list[str]) -> list[str]:
    """PHH's order of a draw: every player's ``sd`` in turn, then the cards each is dealt, in
    the same order (the engine deals each player right after its discards; which cards each
    gets is the same either way, since the stub is dealt in the players' order)."""
    result: list[str] = []
    block_sd: list[str] = []
    block_dh: list[str] = []
    for action in actions:
        words = action.split()
        if len(words) >= 2 and words[1] == "sd":
            block_sd.append(action)
            continue
        if block_sd and words[:2] == ["d", "dh"]:
            block_dh.append(action)
            continue
        result += block_sd + block_dh
        block_sd, block_dh = [], []
        if action != _STREET_MARK:
            result.append(action)
    return result + block_sd + block_dh


def dumps(hand: Hand) -> str:
    """The history of ``hand`` as TOML text."""
    return tomli_w.dumps(to_record(hand))

