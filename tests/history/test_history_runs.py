"""Hands run twice or three times in histories (issue 15): ``_runs`` writes each answer and every
run after the first, the history replays to the same hand, a run's cards are checked like any
other, and the committed deck verifies every run (the fairness check)."""

from __future__ import annotations

import random
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w

sys.path.insert(0, str(Path(__file__).parents[1] / "table"))

from table_helpers import actor_seat, make_table, start_hand

from boardroom.engine import Call, Check, Deck, Hand, RaiseTo, Stakes
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.history import HistoryError, dumps, replay_text
from boardroom.fairness import FairnessError, check_history
from boardroom.rules import ForcedBets, find_variant
from boardroom.table import history_for

GAMES = ["plo", "omaha-hilo", "holdem", "courchevel", "esg", "esg-low", "tilt", "xmas",
         "balance", "bomb"]


def _run_hand(game: str, runs: int, street: int = 1, seed: int = 2,
              timeout: bool = False) -> Hand:
    variant = find_variant(game)
    stakes = (Stakes(small_blind=1, big_blind=2) if variant.forced_bets is ForcedBets.BLINDS
              else Stakes(ante=1, big_blind=2))
    hand = Hand(variant, stakes, [150, 200, 250], 0, cards=Deck(rng=random.Random(seed)),
                runs_offered=True)
    while not hand.is_over:
        if hand.is_choosing_runs:
            pending = hand.runs_pending
            for seat in pending[:-1]:
                hand.apply(seat, ChooseRuns(runs))
            if timeout:
                hand.runs_timed_out()
            else:
                hand.apply(pending[-1], ChooseRuns(runs))
            continue
        legal = hand.legal_actions()
        assert legal is not None
        assert hand.actor is not None
        if hand.street_index >= street and legal.raise_max is not None:
            hand.apply(hand.actor, RaiseTo(legal.raise_max))
        else:
            hand.apply(hand.actor, Check() if legal.check else Call())
    return hand


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("runs", [2, 3])
def test_a_hand_run_more_than_once_replays_to_the_same_hand(game: str, runs: int) -> None:
    hand = _run_hand(game, runs)
    assert hand.run_count == runs
    text = dumps(hand)
    record = tomllib.loads(text)
    assert record["_runs"]["offered"] is True
    assert record["_runs"]["choices"] == [runs] * 3
    assert len(record["_runs"]["runs"]) == runs - 1
    again = replay_text(text)
    assert again.events == hand.events
    assert again.stacks == hand.stacks
    assert [run.boards for run in again.runs] == [run.boards for run in hand.runs]


@pytest.mark.parametrize("game", ["plo", "omaha-hilo", "esg", "tilt", "xmas"])
@pytest.mark.parametrize("runs", [2, 3])
def test_every_runs_share_of_every_pot_is_written(game: str, runs: int) -> None:
    # The replayer page and ``boardroom replay`` show what each run paid: ``_runs.awards``.
    hand = _run_hand(game, runs)
    awards = tomllib.loads(dumps(hand))["_runs"]["awards"]
    assert sorted({award["run"] for award in awards}) == list(range(1, runs + 1))
    pots = [result.pot.amount for result in hand.runs[0].results]
    for run in range(1, runs + 1):
        paid = [award for award in awards if award["run"] == run]
        assert [award["pot"] for award in paid] == list(range(len(pots)))
        assert all(sum(award["shares"].values()) == award["amount"] for award in paid)
    for index in range(len(pots)):  # a pot's runs take equal shares, the odd chips first
        shares = [award["amount"] for award in awards if award["pot"] == index]
        assert shares == sorted(shares, reverse=True)
        assert shares[0] - shares[-1] <= 1
    winnings = {f"p{k + 1}": 0 for k in range(hand.seat_count)}
    for award in awards:
        for label, chips in award["shares"].items():
            winnings[label] += chips
    assert sum(winnings.values()) == sum(result.pot.amount for result in hand.results)


def test_an_award_the_replay_does_not_pay_is_refused() -> None:
    hand = _run_hand("plo", 2)

    def more(record: dict) -> None:  # type: ignore[type-arg]
        award = record["_runs"]["awards"][-1]
        label = next(iter(award["shares"]))
        award["shares"][label] += 1

    with pytest.raises(HistoryError, match=r"_runs.*awards say .* but the replay pays"):
        replay_text(_edited(hand, more))


def test_a_timeout_and_a_refusal_replay_too() -> None:
    hand = _run_hand("esg", 2, timeout=True)
    assert hand.run_count == 1
    record = tomllib.loads(dumps(hand))
    assert record["_runs"]["timeouts"] == ["p3"]
    assert "runs" not in record["_runs"]
    assert replay_text(dumps(hand)).events == hand.events


def _edited(hand: Hand, change: object) -> str:
    record = tomllib.loads(dumps(hand))
    change(record)  # type: ignore[operator]
    return tomli_w.dumps(record)


def test_a_run_that_deals_a_card_twice_is_refused() -> None:
    hand = _run_hand("plo", 2)
    board = tomllib.loads(dumps(hand))["actions"]
    first_board = next(a for a in board if a.startswith("d db "))

    def twice(record: dict) -> None:  # type: ignore[type-arg]
        action = record["_runs"]["runs"][0]["actions"][0]
        assert action.startswith("d db ")
        record["_runs"]["runs"][0]["actions"][0] = "d db " + first_board[5:7] + action[7:]

    with pytest.raises(HistoryError, match=r"_runs.*deals .* twice"):
        replay_text(_edited(hand, twice))


def test_a_run_missing_or_left_over_is_refused() -> None:
    hand = _run_hand("plo", 3)

    def drop(record: dict) -> None:  # type: ignore[type-arg]
        record["_runs"]["runs"].pop()

    with pytest.raises(HistoryError, match="the hand runs 3 times or more, and _runs writes "
                                           "the cards of 2 runs"):
        replay_text(_edited(hand, drop))

    def extra(record: dict) -> None:  # type: ignore[type-arg]
        record["_runs"]["runs"][0]["actions"].append("d db 2c")

    with pytest.raises(HistoryError, match="run 2 writes cards the run does not deal"):
        replay_text(_edited(hand, extra))

    def bad(record: dict) -> None:  # type: ignore[type-arg]
        record["_runs"]["choices"] = [3, 3]

    with pytest.raises(HistoryError, match="choices must hold 3 numbers of runs"):
        replay_text(_edited(hand, bad))


def _table_hand(game: str) -> tuple[dict, object]:  # type: ignore[type-arg]
    table, clock = make_table(3, game=game, seed=3)
    start_hand(table, clock)
    while table.hand is not None and not table.hand.is_choosing_runs:
        hand = table.hand
        legal = hand.legal_actions()
        assert legal is not None
        seat = actor_seat(table)
        if hand.street_index >= 1 and legal.raise_max is not None:
            table.act(seat, RaiseTo(legal.raise_max))
        else:
            table.act(seat, Check() if legal.check else Call())
    assert table.hand is not None
    for index in table.hand.runs_pending:
        table.choose_runs(table.hand_seats[index], 3)
    assert table.last_record is not None
    return table.last_record, table.settings


@pytest.mark.parametrize("game", ["plo", "esg", "tilt", "xmas", "omaha-hilo", "balance"])
def test_the_committed_deck_verifies_every_run_for_every_viewer(game: str) -> None:
    record, settings = _table_hand(game)
    for player in (None, "player-0", "player-1", "player-2"):
        history = history_for(settings, record, player)  # type: ignore[arg-type]
        assert len(history["_runs"]["runs"]) == 2
        later = sum(len(a.partition("#")[0].split()[-1]) // 2
                    for run in history["_runs"]["runs"] for a in run["actions"])
        assert later > 0
        checked = check_history(history)
        assert replay_text(tomli_w.dumps(history)).run_count == 3
        # Drop the runs: the check counts fewer cards, so it did check theirs.
        del history["_runs"]
        assert check_history(history) == checked - later


@pytest.mark.parametrize("game", ["plo", "esg"])
def test_a_run_card_the_deck_did_not_deal_there_fails_the_check(game: str) -> None:
    record, settings = _table_hand(game)
    history = history_for(settings, record, None)  # type: ignore[arg-type]
    first = history["_runs"]["runs"][0]["actions"]
    last = history["_runs"]["runs"][1]["actions"]
    first[0], last[0] = first[0][:5] + last[0][5:7] + first[0][7:], \
        last[0][:5] + first[0][5:7] + last[0][7:]
    with pytest.raises(FairnessError, match="run 2, action 1"):
        check_history(history)
