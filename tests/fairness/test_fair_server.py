"""Fair deals through a real server: bots and people send their seeds with the ``seed``
command, a spectator never sees one, and every finished hand's history verifies."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_helpers import clients, new_room, running_server

from boardroom.fairness import FIELD, check_history


async def test_bots_send_their_seeds_and_every_history_verifies(tmp_path: Path) -> None:
    async with running_server(tmp_path, bot_think=0.0) as running:
        room, secret = await new_room(running, game="esg", max_seats=4,
                                      pause_between_hands=1.0)
        async with clients(running.url, 3) as (host, player, spectator):
            await host.ok("join", room=room, host_secret=secret, role="spectator")
            await spectator.ok("join", room=room, role="spectator")
            await player.ok("join", room=room)
            await player.ok("sit", seat=3, name="Me")
            refused = await player.cmd("seed", hand_no=99, seed="ab")
            assert refused["ok"] is False
            assert refused["error"].startswith(  # one player: no hand is coming yet
                "seeds are open for no hand now, not hand 99: send one after a hand's "
                "commitment is published and before its deal")
            bad = await player.cmd("seed", hand_no=1, seed=12)
            assert bad == {"id": bad["id"], "ok": False, "code": "bad_command",
                           "error": "seed: 'seed' must be a string, not int"}
            mine = "5eed" * 16
            for seat in range(2):
                await host.ok("add_bot", style="station", seat=seat)
            await player.wait_for(lambda e: e["kind"] == "fair_commitment"
                                  and e["data"]["hand_no"] == 1)
            await player.ok("seed", hand_no=1, seed=mine)
            watching = await spectator.cmd("seed", hand_no=1, seed="ab")
            assert watching["error"] == "spectators cannot act"
            await player.wait_for(lambda e: e["kind"] == "hand_started")
            await player.ok("leave")  # folds at its turn; the bots play on
            await spectator.wait_for(lambda e: e["kind"] == "hand_ended"
                                     and e["data"]["hand_no"] == 2, timeout=60)
            for number in (1, 2):
                found = (await running.http.get(f"/api/rooms/{room}/hands/{number}")).json()
                history = found["history"]
                assert check_history(history) > 0
                fields = history[FIELD]
                made = dict(zip(history["_table_seats"], fields["server_made"], strict=True))
                assert made[0] is False  # the bots sent theirs
                assert made[1] is False
                if number == 1:
                    assert made[3] is False
                    seeds = dict(zip(history["_table_seats"], fields["client_seeds"],
                                     strict=True))
                    assert seeds[3] == mine
                    for watcher in (spectator, host):
                        assert mine not in json.dumps(watcher.received)
                        assert fields["server_seed"] not in json.dumps(watcher.received)
