"""Whole tournaments of random actions over random structures, fields and games, with the
invariants checked after every hand: chips conserved, tables within one player, nobody in
two hands at once, nobody skipping a big blind by being moved, payouts adding up to the pool,
and the state surviving a restart."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_helpers import random_actor

from boardroom.engine import Hand
from boardroom.tournament import (
    Director,
    HandPlan,
    Level,
    PayoutTable,
    Structure,
    TournamentConfig,
)
from boardroom.tournament.inprocess import run

GAMES = [("plo",), ("esg",), ("omaha-hilo",), ("stud-hilo",), ("xmas",), ("allocator",),
         ("plo", "esg", "stud-hilo"), ("dealers-choice",)]


class Watched(Director):
    """A director that checks, at every hand it plans, that no player is already in a hand."""

    busy: dict[str, int]

    def next_hand(self, table_number: int, now: float) -> HandPlan | None:
        plan = super().next_hand(table_number, now)
        if plan is not None:
            busy = self.__dict__.setdefault("busy", {})
            for _, player, _ in plan.players:
                assert player not in busy, f"{player} dealt at {table_number} and {busy[player]}"
                busy[player] = table_number
        return plan

    def hand_ended(self, table_number: int, stacks: Any, now: float) -> None:
        for player in stacks:
            del self.busy[player]
        super().hand_ended(table_number, stacks, now)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[TournamentConfig, int, int]:
    games = draw(st.sampled_from(GAMES))
    count = draw(st.integers(3, 8))
    hands = draw(st.booleans())
    first = big = draw(st.integers(2, 40))
    small, ante, fixed = 1, 0, []
    for level in range(count):  # blinds and antes never go down; they rise fast enough to end
        big += draw(st.integers(big // 2, big)) if level else 0
        small = draw(st.integers(small, big))
        ante += draw(st.integers(0, big // 4))
        length = draw(st.integers(1, 12))
        fixed.append(Level(small, big, ante, minutes=None if hands else length,
                           hands=length if hands else None))
    structure = Structure("random", draw(st.integers(10 * first, 60 * first)), tuple(fixed),
                          ante_mode=draw(st.sampled_from(["each", "big-blind"])),
                          late_registration_levels=draw(st.integers(0, 1))).check()
    limit = 6 if games != ("plo",) and games != ("omaha-hilo",) else 10
    if "stud-hilo" in games or "allocator" in games:
        limit = min(limit, 6)
    size = draw(st.integers(2, limit))
    payouts = draw(st.sampled_from([None, PayoutTable.from_percents([60, 40]),
                                    PayoutTable.from_percents(["45.5", "30.5", "24"])]))
    field = draw(st.integers(2, 40))
    if payouts is not None and payouts.places > field:
        payouts = None
    config = TournamentConfig(structure, games=games, table_size=size, payouts=payouts)
    return config, field, draw(st.integers(0, 2**16))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_random_tournaments_keep_every_invariant(case: tuple[TournamentConfig, int, int]) -> None:
    config, field, seed = case
    director = Watched(config, seed=seed)
    director.busy = {}
    for k in range(field):
        director.register(f"p{k}", f"Player {k}", 0.0, bot=True)
    moved: dict[str, int] = {}  # player -> the table a balancing move sent them to

    def after_hand(d: Director, plan: HandPlan, hand: Hand) -> None:
        assert d.chips_in_play() == d.chips, "chips conserved"
        assert d.left == len(d.alive)
        assert sum(p.stack for p in d.players.values()) == d.chips
        counts = {n: len(t.seats) for n, t in d.tables.items()}
        for number, table in d.tables.items():
            if not table.running and len(counts) > 1:
                assert counts[number] <= min(counts.values()) + 1, f"unbalanced {counts}"
        for event in d.drain():
            if event["kind"] == "seated":
                moved.pop(event["player"], None)
                if event["reason"] == "balance":
                    moved[event["player"]] = event["table"]
        # A moved player posts the big blind before the button or the small blind reach them.
        positions = plan.positions
        seats = {player: seat for seat, player, _ in plan.players}
        for player, table in list(moved.items()):
            if table != plan.table or player not in seats:
                continue
            if seats[player] == positions.big_blind:
                del moved[player]
            elif len(positions.dealt) > 2:  # (heads-up the button posts the small blind)
                assert seats[player] not in (positions.button, positions.small_blind), \
                    f"{player} skipped the big blind after a move"
        if plan.hand_no % 7 == 0:
            state = json.loads(json.dumps(d.to_state(1.0)))
            assert Director.from_state(state, 1.0).to_state(1.0) == state

    stats = run(director, random_actor(seed), seed=seed, after_hand=after_hand)
    assert director.finished
    assert stats.hands > 0
    finishes = director.standings()
    assert sum(f.prize for f in finishes) == director.prize_pool
    assert sorted(f.player for f in finishes) == sorted(director.players)
    assert finishes[0].place == 1
    winners = [p for p in director.players.values() if p.status == "playing"]
    assert len(winners) == 1
    assert winners[0].stack == director.chips
