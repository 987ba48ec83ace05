"""Players of one table connected to different workers (one directly, one through HAProxy)
play complete hands: every command reaches the room's owner, every push reaches every player,
and each room runs on one worker."""

from __future__ import annotations

import random

import pytest
from play import Player, new_room, play_until
from server_helpers import Client
from services import Cluster

from boardroom.rules import iter_games

ALL_GAMES = [game.id for game in iter_games()]
SOME_GAMES = ["plo", "esg", "allocator-redraw", "stud-hilo", "badugi"]


async def _play_every(running: Cluster, games: list[str]) -> None:
    rng = random.Random(7)
    for n, game in enumerate(games):
        room, _ = await new_room(running.url, game=game, pause_between_hands=0.2,
                                 starting_stack=2000)
        owner = running.owner_of(room)
        other = next(w for w in running.workers if w is not owner)
        # one player on a worker that does not run the room, one through HAProxy
        players = [Player(await Client(other.url).connect(), 0),
                   Player(await Client(running.url).connect(), 1)]
        try:
            for seat, player in enumerate(players):
                await player.join(room, f"P{seat}")
            await play_until(players, 1, rng)
            for player in players:  # everyone saw the hand end, wherever they are
                await player.client.wait_for(lambda e: e["kind"] == "hand_ended")
        finally:
            for player in players:
                await player.client.close()
        assert running.owner_of(room) is owner, game  # the room stayed where it was placed
        version, hand_no = owner.health()["progress"][room]  # (what bench cluster reads)
        assert version > 0
        assert hand_no >= 1
        if n == 1:
            placed = [set(w.health()["room_ids"]) for w in running.workers]
            assert all(placed), placed  # the least-loaded worker took the second room
    placed = [set(w.health()["room_ids"]) for w in running.workers]
    assert not placed[0] & placed[1]  # no room runs on two workers
    assert "Traceback" not in running.logs()


async def test_players_on_two_workers_play_hands(shared_cluster: Cluster) -> None:
    await _play_every(shared_cluster, SOME_GAMES)


@pytest.mark.slow
@pytest.mark.timeout(1800)
async def test_players_on_two_workers_play_hands_of_every_game(shared_cluster: Cluster) -> None:
    await _play_every(shared_cluster, ALL_GAMES)
