"""Driving hands: dealing, the players' actions and timeouts, publishing each hand event as
each viewer may see it, and ending a hand (stacks, winnings, the seats' next status)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, fields
from typing import Any

from boardroom import fairness
from boardroom.engine import (
    Action,
    ActionError,
    Allocate,
    AllocateBest,
    BringIn,
    Check,
    Draw,
    Fold,
    LegalActions,
    Stakes,
)
from boardroom.engine import actions as acts
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.straddle import Straddle
from boardroom.engine.view import pushed_events
from boardroom.rules import Variant
from boardroom.table import fair, rotation, runs
from boardroom.table.base import BETWEEN, CLOSED, DEALING, PICKING, WAITING, straddler_at
from boardroom.table.choice import DealersChoice
from boardroom.table.clocks import Clocks
from boardroom.table.events import HAND
from boardroom.table.persistence import Persistence
from boardroom.table.record import TABLE_SEATS, new_hand, stored_action
from boardroom.table.seats import Seating
from boardroom.table.settings import TableError

TIMEOUTS_TO_SIT_OUT = 2


class Driver(Persistence, Seating, Clocks, DealersChoice):
    """Hands from the deal to the end."""

    __slots__ = ()

    def act(self, seat: int, action: Action) -> None:
        """The player at ``seat`` plays ``action`` (``engine.actions``: ``Fold()``,
        ``RaiseTo(12)``, ...) at its turn."""
        self._check_open()
        hand = self.hand
        if hand is None or not self.in_hand(seat):
            raise TableError(f"seat {seat} is not in a hand")
        if self.paused:
            raise TableError("the table is paused")
        if hand.seat_to_act != seat:
            whose = f"seat {hand.seat_to_act}" if hand.seat_to_act is not None else "nobody"
            raise TableError(f"it is not your turn (it is {whose}'s)")
        self._apply(seat, action)
        state = self.seats[seat]
        state.timeouts = 0
        self._spend_clock(state)
        self._after_change()

    def allocate(self, seat: int, allocation: Mapping[str, Any]) -> None:
        """Allocator games: commit cards to the categories ({category: "As Kd" or [...]})."""
        self._check_open()
        hand = self.hand
        if hand is None or not self.in_hand(seat):
            raise TableError(f"seat {seat} is not in a hand")
        if not hand.variant.has_allocation:
            raise TableError(f"{hand.variant.name} has no allocation")
        if self.paused:
            raise TableError("the table is paused")
        try:
            commit = acts.from_record(Allocate.name, allocation)
        except ActionError as error:
            raise TableError(str(error)) from None
        self._apply(seat, commit)
        self.seats[seat].timeouts = 0
        self._after_change()

    def choose_runs(self, seat: int, runs: int) -> None:
        """An all-in player answers the offer to run it more than once: 1, 2 or 3 times."""
        self._check_open()
        if self.hand is None or not self.in_hand(seat):
            raise TableError(f"seat {seat} is not in a hand")
        if self.paused:
            raise TableError("the table is paused")
        self._apply(seat, ChooseRuns(runs))
        self.seats[seat].timeouts = 0
        self._after_change()

    def _apply(self, seat: int, action: Action) -> None:
        """Play ``seat``'s ``action`` and keep it in the hand's record; a refusal is a
        ``TableError`` in the engine's words (which name table seats)."""
        hand = self.hand
        assert hand is not None
        try:
            hand.apply(seat, action)
        except ActionError as error:
            raise TableError(str(error)) from None
        self.hand_actions.append(stored_action(seat, action))

    def deal_now(self) -> None:
        """End the pause before the next hand now (the host's "deal now"; ``boardroom play``
        deals its first hand as soon as its bots are seated)."""
        self._check_open()
        if self.phase == WAITING:
            raise TableError("there is no pause to end: the table waits for players")
        if self.phase == PICKING:
            raise TableError("there is no pause to end: the button is picking the game")
        if self.phase != BETWEEN:
            raise TableError("there is no pause to end: a hand is being played")
        if self.paused:
            raise TableError("the table is paused")
        self.deadline = self.clock()
        self.tick()

    def deal_planned(self, seats: Sequence[int], button: int, game: str,
                     options: Mapping[str, Any], stakes: Stakes, *, stacks: Mapping[int, int],
                     dead_small_blind: bool = False, big_blind_ante: bool = False,
                     tags: Mapping[str, Any] | None = None) -> None:
        """A managed table: deal the hand its tournament planned, to ``seats`` (clockwise) with
        the engine's button on table seat ``button``, at ``stakes``. ``stacks`` (seat -> chips)
        must be the table's own: the director and the table agree on every chip."""
        self._check_managed()
        if self.hand is not None:
            raise TableError(f"hand {self.hand_no} is still being played")
        seats = tuple(seats)
        if len(seats) < 2 or button not in seats or any(s not in self.seats for s in seats):
            raise TableError(f"a planned hand needs two or more seated players and the button "
                             f"among them, not seats {list(seats)} and button {button}")
        for seat in seats:
            if self.seats[seat].stack != stacks.get(seat):
                raise TableError(f"seat {seat} holds {self.seats[seat].stack} chips, the plan "
                                 f"says {stacks.get(seat)}")
        hooks: dict[str, Any] = {}
        if dead_small_blind:
            hooks["dead_small_blind"] = True
        if big_blind_ante:
            hooks["big_blind_ante"] = True
        if tags:
            hooks["tournament"] = dict(tags)
        self._deal(seats, button, game, options, stakes=stakes, hooks=hooks)

    def tick(self) -> None:
        """Apply whatever the clock says is due: the next hand, a missed pick, a timeout."""
        for _ in range(8):  # each step sets a new deadline; a few cover any jump in time
            now = self.clock()
            deadline = self.next_deadline()
            if deadline is None or now < deadline:
                return
            if self.phase == BETWEEN:
                self._begin_next()
            elif self.phase == PICKING:
                self._default_pick()
            elif self.phase == DEALING:
                self._timeout()

    def _maybe_start(self) -> None:
        if self.managed:
            return  # the tournament deals (``deal_planned``)
        if self.phase == WAITING and len(self._dealt_in()) >= 2:
            self.phase = BETWEEN
            self.deadline = self.clock() + self.settings.pause_between_hands
            self._publish_commitment()
            self._emit("next_hand", {"deadline": self.deadline})

    def _publish_commitment(self) -> None:
        """The next hand's commitment, made once and kept until that hand is dealt."""
        if self.fair_next is None or self.fair_next["hand_no"] != self.hand_no + 1:
            self.fair_next = fair.new_commitment(self.hand_no + 1, self.rng)
            self._emit("fair_commitment", {"hand_no": self.hand_no + 1,
                                           "commitment": self.fair_next["commitment"]})

    def _begin_next(self) -> None:
        if self.closing:
            self._close_now()
            return
        seats = self._dealt_in()
        if len(seats) < 2:
            self.phase, self.deadline = WAITING, None
            self._emit("waiting", {})
            return
        button = self._next_button(seats)
        if self.settings.is_dealers_choice:
            self.phase, self.picker, self.pick_seats = PICKING, button, seats
            self.button = button
            self.deadline = self.clock() + self.settings.pick_clock
            self._emit("pick_requested", {"seat": button, "choices": self._choice_ids(),
                                          "deadline": self.deadline})
            return
        plan = self.settings.rotation_plan
        if plan is not None:
            self.rotation_state, changed = rotation.step(plan, self.rotation_state, self.button,
                                                         button, self.seat_limit)
            now = rotation.game(plan, self.rotation_state)
            if changed:
                self._emit("game_changed", {"game": now.game, "name": now.variant.name,
                                            "options": dict(now.options),
                                            "at": self.rotation_state.at})
            self._deal(seats, button, now.game, dict(now.options))
            return
        self._deal(seats, button, self.settings.game, self.settings.options)

    def _deal(self, seats: tuple[int, ...], button: int, game: str,
              options: Mapping[str, Any], *, stakes: Stakes | None = None,
              hooks: Mapping[str, Any] | None = None) -> None:
        variant = self.settings.variant_for(game, options)
        stakes = stakes or self.settings.stakes_for(variant)
        straddle = None if self.managed else self._straddler(variant, seats, button)
        if straddle is not None:
            kind, straddler = straddle
            hooks = {**(hooks or {}), "straddle": kind.value}
            self.seats[straddler].straddle_next = False  # used: chosen again for the next one
        if self.settings.run_it_twice and not self.managed:
            hooks = {**(hooks or {}), "runs_offered": True}
        self._publish_commitment()  # (already out, unless restored from an older state)
        assert self.fair_next is not None
        dealt = fair.for_hand(self.fair_next, self.room, seats, self.rng)
        self.fair_next = None
        self.last_record, self._last_hand = None, None  # no more showing the last hand's cards
        stacks = [self.seats[s].stack for s in seats]
        self.hand_no += 1
        self.button = button
        self.hand_setup = {"game": game, "options": dict(options), "stakes": asdict(stakes),
                           "stacks": stacks, "button": button, "fair": dealt,
                           "numbering": TABLE_SEATS, **(hooks or {})}
        seeds = fair.seeds_of({**self.hand_setup, "hand_no": self.hand_no, "seats": seats})
        assert seeds is not None
        self.hand_setup["deck"] = fairness.deck(seeds)
        self.hand_actions = []
        self._allocation_clock = False
        self.phase, self.deadline = DEALING, None
        self._emit("hand_started", {
            "hand_no": self.hand_no, "game": game, "name": variant.name, "options": dict(options),
            "button": button, "seats": list(seats), "stacks": stacks, "stakes": asdict(stakes),
            "commitment": dealt["commitment"],
            "server_made": [s for s, made in zip(seats, dealt["server_made"], strict=True) if made],
        })
        self._published = 0
        self.hand = new_hand(variant, stakes, seats, stacks, button, seeds, self.hand_setup)
        self._after_change()

    def _straddler(self, variant: Variant, seats: tuple[int, ...],
                   button: int) -> tuple[Straddle, int] | None:
        """The straddle a hand dealt now posts and its table seat: the first straddle the host
        allows (``TableSettings.straddles_for``) whose seat chose to straddle; None when no
        such seat did (or heads-up)."""
        for kind in self.settings.straddles_for(variant):
            seat = straddler_at(kind, seats, button)
            if seat is not None and self.seats[seat].straddle_next:
                return kind, seat
        return None

    def _after_change(self) -> None:
        """Publish the hand's new events, fold for players who left, start the next turn."""
        hand = self.hand
        assert hand is not None
        while True:
            self._flush()
            if hand.is_over:
                self._end_hand()
                return
            if hand.is_allocating:
                gone = [s for s in hand.seats_to_allocate if self.seats[s].leaving]
                if gone and not self.paused:
                    self._allocate_best(gone[0])
                    continue
                self._start_allocation_clock()
                return
            if hand.is_choosing_runs:
                gone = [s for s in hand.seats_choosing_runs if self.seats[s].leaving]
                if gone and not self.paused:
                    self._apply(gone[0], runs.ONCE_BY_TIMEOUT)
                    continue
                self._start_runs_clock()
                return
            actor = hand.seat_to_act
            if actor is None:
                raise TableError(f"hand {self.hand_no} waits for something the table does "
                                 f"not know how to ask for")  # pragma: no cover
            if not self.seats[actor].leaving or self.paused:
                break
            self._auto_act(actor)
        self.turn_started = self.clock()
        bank = self.seats[actor].time_bank
        self.turn_deadline = self.turn_started + self.settings.action_clock + bank
        legal = hand.legal_actions()  # public: it follows from the bets, pots and stacks
        self._emit("turn", {"seat": actor, "deadline": self.turn_deadline,
                            "action_clock": self.settings.action_clock, "time_bank": bank,
                            "legal": _legal_data(legal) if legal is not None else None})

    def _allocate_best(self, seat: int) -> None:
        self._apply(seat, AllocateBest())

    def _auto_act(self, seat: int) -> None:
        """Check when free, else fold (stud: post a pending bring-in; the draw: stand pat)."""
        hand = self.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        if legal.draw is not None:  # the draw: stand pat
            self._apply(seat, Draw())
            return
        self._apply(seat, Check() if legal.check else BringIn() if legal.bring_in is not None
                    else Fold())

    def _timeout(self) -> None:
        hand = self.hand
        assert hand is not None
        if hand.is_choosing_runs:  # a player who does not answer runs it once
            for seat in hand.seats_choosing_runs:
                self._apply(seat, runs.ONCE_BY_TIMEOUT)
            self._allocation_clock = False
            self._after_change()
            return
        if hand.is_allocating:
            for seat in hand.seats_to_allocate:
                self.seats[seat].timeouts += 1
                self._emit("timed_out", {"seat": seat, "name": self.seats[seat].name,
                                         "timeouts": self.seats[seat].timeouts})
                if self.seats[seat].timeouts >= TIMEOUTS_TO_SIT_OUT:
                    self.seats[seat].sit_out_next = True
                self._allocate_best(seat)
            self._after_change()
            return
        actor = hand.seat_to_act
        assert actor is not None
        state = self.seats[actor]
        state.time_bank = 0.0
        state.timeouts += 1
        self._emit("timed_out", {"seat": actor, "name": state.name, "timeouts": state.timeouts})
        if state.timeouts >= TIMEOUTS_TO_SIT_OUT and not state.sit_out_next:
            state.sit_out_next = True
            self._emit("sitting_out", {"seat": actor, "next_hand": True})
        self._auto_act(actor)
        self._after_change()

    def _flush(self) -> None:
        """Turn the hand's new events into table events, one view per seat in the hand."""
        hand = self.hand
        assert hand is not None
        start, end = self._published, len(hand.events)
        if start == end:
            return
        views = pushed_events(hand, (None, *hand.seats), start)
        for k in range(end - start):
            self._emit(HAND, {}, truth=hand.events[start + k],
                       views={seat: events[k] for seat, events in views.items()})
        self._published = end

    def _end_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        record = self.hand_record()
        for seat in self.hand_seats:
            self.seats[seat].stack = hand.stack(seat)
        winnings = hand.winnings
        self._emit("hand_ended", {
            "hand_no": self.hand_no,
            "stacks": {str(s): self.seats[s].stack for s in self.hand_seats},
            "winnings": {str(s): chips for s, chips in winnings.items()},
            # the street the betting ended on, all-in (the room works out the equity from it)
            **({"runout": hand.runout[0].street} if hand.runout else {}),
        }, private=record)
        self.last_record, self._last_hand = record, hand
        self.last_game = (self.hand_setup["game"], dict(self.hand_setup["options"]))
        played = self.hand_seats
        self.hand, self.hand_setup, self.hand_actions = None, {}, []
        self.turn_started = self.turn_deadline = None
        for seat in played:
            self._settle_seat(seat)
        if self.closing:
            self._close_now()
            return
        self.phase = WAITING
        self._maybe_start()
        if self.phase == WAITING:
            self._emit("waiting", {})

    def _close_now(self) -> None:
        for seat in sorted(self.seats):
            self._remove(seat, kicked=False)
        self.phase, self.deadline, self.closing = CLOSED, None, False
        self._emit("closed", {})


_LEGAL_FIELDS = tuple(field.name for field in fields(LegalActions))


def _legal_data(legal: LegalActions) -> dict[str, Any]:
    """``asdict(legal)`` for a turn event, without its recursive copy (every field is a number,
    a bool or None): asked at every decision."""
    return {name: getattr(legal, name) for name in _LEGAL_FIELDS}
