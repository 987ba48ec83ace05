"""The leak check of the server tests: which cards a viewer was entitled to after each version
of a room's event log (its own hole cards and every public card), and which strings of a
payload read as cards. Every payload a client received must hold no other card."""

from __future__ import annotations

import bisect
import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def cards_in(value: Any) -> set[str]:
    """Every string in a payload that reads as a card."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


@dataclass
class Entitled:
    """After each version: the hand in play, its public cards and each hand seat's own."""

    versions: list[int] = field(default_factory=list)
    states: list[tuple[list[int], frozenset[str], tuple[frozenset[str], ...]]] = field(
        default_factory=list)

    def at(self, version: int, seat: int | None) -> set[str]:
        """The cards table ``seat`` (None: a spectator) may have seen by ``version``."""
        index = bisect.bisect_right(self.versions, version) - 1
        if index < 0:
            return set()
        seats, public, private = self.states[index]
        mine = private[seats.index(seat)] if seat in seats else frozenset()
        return set(public | mine)


def entitlements(database: Path, room: str) -> tuple[Entitled, dict[int, str]]:
    """What each viewer of ``room`` was entitled to, version by version, from the event log in
    the SQLite ``database``; and the kind of every stored event by version."""
    with sqlite3.connect(database) as db:
        rows = db.execute("select version, kind, payload from events where room_id = ? "
                          "order by version", (room,)).fetchall()
    return entitlements_of(rows)


def entitlements_of(rows: list[tuple[int, str, str]]) -> tuple[Entitled, dict[int, str]]:
    """``entitlements`` from a room's event log as (version, kind, payload JSON) rows, in
    order, from any store."""
    entitled = Entitled()
    kinds = {}
    seats: list[int] = []
    public: set[str] = set()
    private: list[set[str]] = []
    later: list[set[str]] = []  # each hand seat's cards of the runs after the first
    shown: set[int] = set()  # the table seats whose hands were shown
    for version, kind, text in rows:
        payload = json.loads(text)
        kinds[version] = kind
        if kind == "hand_started":
            seats = payload["data"]["seats"]
            public, private = set(), [set() for _ in seats]
            later, shown = [set() for _ in seats], set()
        elif kind == "hand":
            event = payload["event"]
            if event["type"] in ("HoleDealt", "Redrawn"):
                private[seats.index(event["seat"])] |= set(event["cards"])  # (table seats)
                public |= {c for c, up in zip(event["cards"], event["up"], strict=True) if up}
            elif event["type"] == "BoardDealt":
                public |= set(event["cards"])
            elif event["type"] == "HandShown":  # the first run's cards; it shows every run's
                public |= set(event["cards"]) | later[seats.index(event["seat"])]
                shown.add(event["seat"])
            elif event["type"] == "RunDealt":  # a later run: its boards face up, redraws private
                public |= cards_in(event["boards"])  # (until the hand is shown: engine.RunView)
                for seat, cards in event["cards"]:
                    private[seats.index(seat)] |= set(cards)
                    later[seats.index(seat)] |= set(cards)
                    if seat in shown:
                        public |= set(cards)
            elif event["type"] == "AllocationsRevealed":
                public |= cards_in(event["allocations"])
        elif kind == "shown_after":  # after the hand, until the next deal: shown to all
            public |= set(payload["data"]["cards"])
        elif kind == "rabbit":  # the rabbit's cards, never dealt, shown to all
            public |= cards_in(payload["data"]["boards"])
        entitled.versions.append(version)
        entitled.states.append((list(seats), frozenset(public),
                                tuple(frozenset(p) for p in private)))
    return entitled, kinds
