"""What a table shows: its public state, and the running hand as each viewer may see it."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from boardroom.engine.straddle import straddle_amount
from boardroom.engine.view import HandView, OwnView, events_for, own_views, view_for, views_for
from boardroom.rules import ForcedBets
from boardroom.table import fair, rotation
from boardroom.table.base import PICKING, straddler_at
from boardroom.table.choice import DealersChoice
from boardroom.table.ledger import Ledger
from boardroom.table.settings import TableSettings


class Views(Ledger, DealersChoice):
    """The table's public state and hand views."""

    __slots__ = ()

    def hand_view(self, seat: int | None, *, pills: bool = True) -> HandView | None:
        """The running (or just finished) hand as table ``seat`` may see it (None: spectator);
        ``pills=False`` leaves the seat's pills out (a bot's view: it never reads them)."""
        if self.hand is None:
            return None
        return view_for(self.hand, seat if seat is not None and self.in_hand(seat) else None,
                        pills=pills)

    def hand_turn(self, seat: int) -> bool:
        """Whether table ``seat`` has something to do in the running hand now, as its view
        would say (its turn to act, its allocation or its answer to running it more than once
        pending), without building the view."""
        hand = self.hand
        return hand is not None and self.in_hand(seat) and not hand.is_over and (
            (hand.is_allocating and seat in hand.seats_to_allocate)
            or seat in hand.seats_choosing_runs
            or (hand.seat_to_act == seat and hand.legal_actions() is not None))

    def hand_views(self, seats: Iterable[int | None]) -> dict[int | None, HandView | None]:
        """``hand_view`` of each of ``seats`` at once, their shared parts built once."""
        wanted = list(seats)
        if self.hand is None:
            return dict.fromkeys(wanted)
        viewer = {seat: seat if seat is not None and self.in_hand(seat) else None
                  for seat in wanted}
        views = views_for(self.hand, set(viewer.values()))
        return {seat: views[viewer[seat]] for seat in wanted}

    def own_views(self, seats: Iterable[int | None]) -> tuple[HandView | None, dict[int, OwnView]]:
        """The running hand as a spectator sees it (None: no hand), and what each of ``seats``
        in the hand sees of its own beside that (``engine.view.own_views``); a seat that is
        not in the hand sees what a spectator sees."""
        if self.hand is None:
            return None, {}
        return own_views(self.hand, [seat for seat in seats
                                     if seat is not None and self.in_hand(seat)])

    def hand_story(self, seat: int | None) -> dict[str, Any] | None:
        """The running hand so far as table ``seat`` (None: a spectator) may see it: its table
        seats, its stacks at the deal and its events, for a log that joins mid-hand."""
        if self.hand is None:
            return None
        viewer = seat if seat is not None and self.in_hand(seat) else None
        return {"hand_no": self.hand_no, "name": self.hand.variant.name,
                "seats": list(self.hand_seats),
                "stacks": list(self.hand_setup["stacks"]),
                "events": events_for(self.hand, viewer)}

    def public_state(self) -> dict[str, Any]:
        """Everything about the table that every viewer may know, as plain data."""
        seats: list[dict[str, Any]] = []
        for number in range(self.seat_limit):
            seat = self.seats.get(number)
            if seat is None:
                seats.append({"seat": number, "empty": True})
                continue
            seats.append({
                "seat": number, "empty": False, "name": seat.name,
                "stack": self.live_stack(number), "status": seat.status,
                "in_hand": self.in_hand(number), "leaving": seat.leaving,
                "sit_out_next": seat.sit_out_next, "straddle_next": seat.straddle_next,
                "timeouts": seat.timeouts,
                "time_bank": round(seat.time_bank, 3), "rebuy_requested": seat.rebuy_requested,
                "rebuy_approved": seat.rebuy_approved,
            })
        actor = self.hand.seat_to_act if self.hand is not None else None
        game, options = self.last_game if self.last_game else (None, {})
        if self.hand is not None:
            game, options = self.hand_setup["game"], self.hand_setup["options"]
        return {
            "posts": self._posts(game, options),
            "version": self.version, "hand_no": self.hand_no, "phase": self.phase,
            "deadline": self.deadline, "paused": self.paused, "closing": self.closing,
            "button": self.button, "game": game, "options": options,
            "picker": self.picker if self.phase == PICKING else None,
            "choices": self._choice_ids() if self.phase == PICKING else None,
            "turn": {"seat": actor, "deadline": self.turn_deadline} if actor is not None else None,
            "seats": seats, "settings": settings_plain(self.settings), "fair": self._fair_public(),
            "rotation": self._rotation_public(),
        }

    def _rotation_public(self) -> dict[str, Any] | None:
        plan = self.settings.rotation_plan
        if plan is None:
            return None
        seats = self._dealt_in()
        upcoming = None if self.button is None or not seats else self._next_button(seats)
        return rotation.public(plan, self.rotation_state, self.button, upcoming,
                               self.seat_limit)

    def next_straddlers(self) -> tuple[int, ...]:
        """The seats in a straddle position the host allows if the next hand were dealt now
        (public: it follows from the seats and the button), for a player or bot about to
        choose; empty between fewer than three players or with no straddles allowed."""
        seats = self._dealt_in()
        if len(seats) < 3 or self.managed:
            return ()
        button = self._next_button(seats)
        found = (straddler_at(kind, seats, button) for kind in self.settings.straddles)
        return tuple(dict.fromkeys(seat for seat in found if seat is not None))

    def _posts(self, game: str | None, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the game of the hand in play (or of the next one) posts, for the top bar: its
        blinds, its ante and minimum bet, or stud's ante, bring-in and bet sizes. None in
        Dealer's Choice before the first pick."""
        if game is None and self.settings.is_dealers_choice:
            return None
        plan = self.settings.rotation_plan
        if game is None and plan is not None:
            now = rotation.game(plan, self.rotation_state)
            game, options = now.game, dict(now.options)
        if game is None:
            game, options = self.settings.game, self.settings.options
        return dict(_posts(self.settings, game, tuple(sorted(options.items()))))

    def _fair_public(self) -> dict[str, Any] | None:
        """The commitment players can see: the next hand's while seeds are open, else the
        running hand's (its seeds stay secret until it ends)."""
        if self.fair_next is not None:
            return fair.public(self.fair_next)
        if self.hand is not None and "fair" in self.hand_setup:
            return {"hand_no": self.hand_no, "commitment": self.hand_setup["fair"]["commitment"],
                    "seeded": None, "open": False}
        return None


@functools.lru_cache(maxsize=256)
def settings_plain(settings: TableSettings) -> dict[str, Any]:
    """``settings.to_dict()``, made once per settings (they are frozen) rather than at every
    change of every table (it copies every field): shared, so never change it."""
    return settings.to_dict()


@functools.lru_cache(maxsize=256)
def _posts(settings: TableSettings, game: str,
           options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    variant = settings.variant_for(game, dict(options))
    stakes = settings.stakes_for(variant)
    kind = variant.forced_bets
    if kind is ForcedBets.BLINDS:
        allowed = settings.straddles_for(variant)
        posts = {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind,
                 "straddle": straddle_amount(stakes.big_blind) if allowed else 0,
                 "straddles": settings.straddle if allowed else None}
    elif kind is ForcedBets.ANTES:
        posts = {"ante": stakes.ante, "min_bet": stakes.big_blind}
    else:
        posts = {"ante": stakes.ante, "bring_in": stakes.bring_in,
                 "small_bet": stakes.small_bet, "big_bet": stakes.big_bet}
    return (("forced_bets", kind.value), *posts.items())
