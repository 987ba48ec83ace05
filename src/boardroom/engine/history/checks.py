"""The strict reader's checks: every dealt card read before the engine runs, checked for having
been dealable, handed to the engine only where and when it deals it (``HistoryCards``), and
the showdown and the extension fields checked against the replay."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from boardroom.cards import Card, format_cards, remaining_cards
from boardroom.engine.dealing import CardSource, ScriptedCards
from boardroom.engine.hand import Hand
from boardroom.engine.history.phh import HistoryError, Line, cards_text, parse_dealt
from boardroom.engine.history.reader import Setup
from boardroom.engine.history.writer import run_awards


@dataclass
class Dealt:
    """One ``d dh`` or ``d db`` action: its cards (``??`` filled in), and when it deals."""

    action: Line
    cards: list[Card]
    window: int  # the number of betting or allocation actions before it
    redraw: bool = False
    taken: int = 0

    def left(self) -> int:
        return len(self.cards) - self.taken


@dataclass
class Deal:
    """The dealing actions of a history, read before the engine runs."""

    hole: dict[int, list[Dealt]]  # by seat, in order
    boards: dict[str, list[Dealt]]
    shows: dict[int, tuple[Card, ...]]
    stand_ins: dict[int, set[int]]  # seat -> indices of its cards that are ``??`` unfilled
    folds: list[tuple[Line, int]]  # (action, seat) of every fold, in order
    discards: list[tuple[Line, int, list[Card]]] = field(default_factory=list)  # the draw


def read_deal(setup: Setup, actions: Sequence[Line], seat: Any) -> Deal:
    variant = setup.variant
    hole: dict[int, list[Dealt]] = {s: [] for s in range(len(setup.stacks))}
    raw: dict[int, list[list[Card | None]]] = {s: [] for s in hole}
    boards: dict[str, list[Dealt]] = {board.name: [] for board in variant.boards}
    shows: dict[int, tuple[Card, ...]] = {}
    at_showdown: dict[int, Line] = {}  # seat -> its ``sm`` action
    dealt_since_show: set[int] = set()  # shown seats dealt more cards since
    folds: list[tuple[Line, int]] = []
    discards: list[tuple[Line, int, list[Card]]] = []
    drew_at: dict[int, int] = {}  # the draw: seat -> the window its ``sd`` opened
    window = 0
    for action in actions:
        if action.verb == "dh":
            s = seat(action)
            cards = parse_dealt(action)
            raw[s].append(cards)
            if s in at_showdown:
                dealt_since_show.add(s)
            # PHH writes a draw's deals after every player's ``sd``: each belongs to its own.
            dealt_in = drew_at.pop(s, window)
            hole[s].append(Dealt(action, [], dealt_in, action.comment == "redraw"))
        elif action.verb == "db":
            name = variant.boards[0].name if variant.boards else ""
            if action.comment and action.comment.startswith("board "):
                name = action.comment.removeprefix("board ").strip()
            if name not in boards:
                raise HistoryError(f"{action.where()}: {variant.name} has no board {name!r}")
            dealt = parse_dealt(action)
            if None in dealt:
                raise HistoryError(f"{action.where()}: board cards must be written out")
            boards[name].append(Dealt(action, [c for c in dealt if c is not None], window))
        elif action.verb == "sm":
            s = seat(action)
            shown = parse_dealt(action) if action.argument is not None else None
            if shown is not None and None in shown:
                raise HistoryError(f"{action.where()}: shown cards must be written out")
            if s in at_showdown and not (
                    # Stud all-in before its last card: shown before the run-out, then again
                    # with every card once the last is dealt (the earlier cards among them).
                    s in dealt_since_show and s in shows and shown is not None
                    and set(shows[s]) < set(shown)):
                raise HistoryError(f"{action.where()}: {setup.player(s)} is already shown or "
                                   f"mucked at {at_showdown[s].at()}")
            at_showdown[s] = action
            dealt_since_show.discard(s)
            if shown is not None:
                shows[s] = tuple(card for card in shown if card is not None)
        elif action.verb in ("f", "cc", "cbr", "pb", "_allocate", "sd"):
            if action.verb == "f":
                folds.append((action, seat(action)))
            if action.verb == "sd":
                thrown = parse_dealt(action) if action.argument is not None else []
                if None in thrown:
                    raise HistoryError(f"{action.where()}: the cards thrown must be written "
                                       f"out")
                discards.append((action, seat(action), [c for c in thrown if c is not None]))
            else:
                drew_at.clear()
            window += 1
            if action.verb == "sd" and action.argument is not None:
                drew_at[seat(action)] = window
    stand_ins = _fill_unknown(raw, hole, shows, boards, setup.burns)
    return Deal(hole, boards, shows, stand_ins, folds, discards)


def _fill_unknown(
    raw: Mapping[int, list[list[Card | None]]],
    hole: Mapping[int, list[Dealt]],
    shows: Mapping[int, tuple[Card, ...]],
    boards: Mapping[str, list[Dealt]],
    burns: Sequence[Card] | None,
) -> dict[int, set[int]]:
    """Fill every ``??``: with the cards shown later, else with stand-ins (unused cards).

    Returns, per seat, the positions of the stand-ins (they are checked against nothing)."""
    known = [c for chunks in raw.values() for cards in chunks for c in cards if c is not None]
    known += [c for chunks in boards.values() for dealt in chunks for c in dealt.cards]
    known += list(burns or ()) + [c for cards in shows.values() for c in cards]
    # In redraw games a folded hand is recycled into the pool and its cards may be dealt again,
    # so unseen cards can outnumber the unused ones: the stand-ins then repeat (a folded hand's
    # cards are never evaluated).
    spare = itertools.cycle(remaining_cards(set(known)) or list(range(52)))
    stand_ins: dict[int, set[int]] = {}
    for s, chunks in raw.items():
        flat = [c for cards in chunks for c in cards]
        shown = [c for c in shows.get(s, ()) if c not in flat]
        stand_ins[s] = set()
        position = 0
        for cards, dealt in zip(chunks, hole[s], strict=True):
            for card in cards:
                if card is None and shown:
                    card = shown.pop(0)
                elif card is None:
                    card = next(spare)
                    stand_ins[s].add(position)
                dealt.cards.append(card)
                position += 1
    return stand_ins


def check_cards(setup: Setup, deal: Deal) -> None:
    """No card dealt twice: a board's or a burn's card is in no hand and on no other board;
    a hand's card is in no other hand, except in redraw games a card of a hand folded earlier
    (recycled into the pool, RULES.md s.3)."""
    aside: dict[Card, str] = {}  # card -> where it lies, for the errors
    for name, chunks in deal.boards.items():
        for dealt in chunks:
            for card in dealt.cards:
                if card in aside:
                    raise HistoryError(f"{dealt.action.where()}: {format_cards([card])} is "
                                       f"dealt twice to the boards (first to {aside[card]})")
                aside[card] = f"board {name} at {dealt.action.at()}"
    for card in setup.burns or ():
        if card in aside:
            raise HistoryError(f"{setup.lines.field('_burns')}: {format_cards([card])} is "
                               f"burned and dealt to {aside[card]}")
        aside[card] = f"the burns ({setup.lines.field('_burns')})"
    folds = list(deal.folds)
    discards = list(deal.discards)
    thrown_last: dict[int, set[Card]] = {}  # seat -> the cards of its latest draw
    dealing = sorted(((dealt.action.number, s, dealt) for s, chunks in deal.hole.items()
                      for dealt in chunks), key=lambda item: item[0])
    held: dict[Card, tuple[int, Dealt]] = {}
    positions = dict.fromkeys(deal.hole, 0)
    folded_at: dict[int, Line] = {}
    for number, s, dealt in dealing:
        while folds and folds[0][0].number < number:
            at, folded = folds.pop(0)
            folded_at.setdefault(folded, at)
            if setup.variant.has_redraws:  # a folded hand goes back to the pool (RULES.md s.3)
                held = {card: owner for card, owner in held.items() if owner[0] != folded}
        while discards and discards[0][0].number < number:
            # The draw: thrown cards may come back to another player once the stub runs out.
            _, drawer, thrown = discards.pop(0)
            held = {card: owner for card, owner in held.items()
                    if not (card in thrown and owner[0] == drawer)}
            thrown_last[drawer] = set(thrown)
        if s in folded_at:
            raise HistoryError(f"{dealt.action.where()}: {setup.player(s)} folded at "
                               f"{folded_at[s].at()} and is dealt no more cards")
        for card in dealt.cards:
            position = positions[s]
            positions[s] += 1
            if position in deal.stand_ins[s]:
                continue
            text, who = format_cards([card]), setup.player(s)
            if card in aside and dealt.redraw:
                raise HistoryError(f"{dealt.action.where()}: {who} redraws {text}, a card of "
                                   f"{aside[card]}; the boards' cards are never in the pool")
            if card in aside:
                raise HistoryError(f"{dealt.action.where()}: {text} is dealt to {who} and to "
                                   f"{aside[card]}")
            if card in thrown_last.get(s, ()):
                raise HistoryError(f"{dealt.action.where()}: {who} is dealt {text}, a card it "
                                   f"has just thrown; a player never draws its own discards")
            if card in held:
                owner, first = held[card]
                if dealt.redraw and owner == s:
                    problem = (f"{who} redraws {text}, a card it holds (dealt at "
                               f"{first.action.at()})")
                elif dealt.redraw:
                    problem = (f"{who} redraws {text}, a card {setup.player(owner)} holds "
                               f"(dealt at {first.action.at()}); a redraw comes from the pool")
                elif owner == s:
                    problem = f"{text} is dealt twice to {who} (first at {first.action.at()})"
                else:
                    problem = (f"{text} is dealt to {who} and to {setup.player(owner)} "
                               f"at {first.action.at()}")
                raise HistoryError(f"{dealt.action.where()}: {problem}")
            held[card] = (s, dealt)


class HistoryCards:
    """The engine's card source on replay: each dealing action's cards, handed out only where
    and when the engine deals them (between the same two betting actions), a redraw only as a
    whole ``# redraw`` action of exactly the count the engine deals, and nothing left over.

    ``window`` counts the betting and allocation actions applied so far; a dealing action is
    dealt in the window of the actions before it."""

    def __init__(self, setup: Setup, deal: Deal) -> None:
        self.setup = setup
        self.hole_chunks, self.board_chunks = deal.hole, deal.boards
        self.hole_queues = {s: deque(chunks) for s, chunks in deal.hole.items()}
        self.board_queues = {name: deque(chunks) for name, chunks in deal.boards.items()}
        self.burns = deque(setup.burns) if setup.burns is not None else None
        self.burned = 0
        self.window = 0
        self.after: Line | None = None  # the betting action of this window (None: the deal)
        self.hand: Hand | None = None  # set once the hand exists (for the redraw errors)
        self.asked: dict[tuple[str, Any], int] = {}  # cards the engine dealt in this window
        self.deferred: tuple[HistoryError, int] | None = None  # cards dealt late, at action N
        self.run_sources: list[ScriptedCards] = []  # the later runs' cards (engine.runs)

    # -- the CardSource protocol

    def hole(self, seat: int, count: int) -> tuple[Card, ...]:
        return self._take(("hole", seat), self.hole_queues[seat], count)

    def board(self, board: str, count: int) -> tuple[Card, ...]:
        return self._take(("board", board), self.board_queues.get(board, deque()), count)

    def burn(self) -> Card | None:
        if self.burns is None:
            return None
        self.burned += 1
        if not self.burns:
            raise HistoryError(f"{self.setup.lines.field('_burns')}: holds "
                               f"{self.burned - 1} burns, the hand burns more")
        return self.burns.popleft()

    def set_aside(self, count: int) -> None:
        """The history names every card: nothing to set aside."""

    def recycle(self, cards: Sequence[Card]) -> None:
        """The history names every redraw: the pool's order does not matter."""

    def shuffle_pool(self) -> None:
        """The history names every redraw: nothing to shuffle."""

    def draw(self, seat: int, count: int) -> tuple[Card, ...]:
        """The draw's cards: the seat's next ``d dh`` action, after its ``sd``."""
        return self._take(("hole", seat), self.hole_queues[seat], count)

    def discard(self, cards: Sequence[Card]) -> None:
        """The history names every card drawn: nothing to keep."""

    def run_source(self, run: int, board_cards: int) -> CardSource:
        """A later run deals the cards ``_runs.runs`` writes for it."""
        runs = self.setup.runs
        deals = runs.deals if runs is not None else ()
        if len(deals) < run - 1:
            raise HistoryError(f"{self.setup.lines.field('_runs')}: the hand runs {run} times "
                               f"or more, and _runs writes the cards of {len(deals) + 1} runs")
        deal = deals[run - 2]
        source = ScriptedCards(deal.hole, deal.boards, deal.burns)
        self.run_sources.append(source)
        return source

    def redraw(self, seat: int, count: int) -> tuple[Card, ...]:
        queue = self.hole_queues[seat]
        while queue and not queue[0].left():
            queue.popleft()
        chunk = queue[0] if queue and queue[0].window == self.window else None
        who = self.setup.player(seat)
        if chunk is None:
            chunk = self._later(queue, f"a redraw of {count} cards to {who}")
        if chunk is None:
            raise self._missing(f"a redraw of {count} cards to {who}", queue)
        if not chunk.redraw:
            raise HistoryError(f"{chunk.action.where()}: the hand redraws {count} cards to {who} "
                               f"here, and this action is not a redraw ('# redraw')")
        if len(chunk.cards) != count:
            raise HistoryError(f"{chunk.action.where()}: {who} redraws {len(chunk.cards)} "
                               f"cards where the rule book gives {self._formula(seat, count)}")
        chunk.taken = count
        return tuple(chunk.cards)

    # -- the checks

    def _formula(self, seat: int, count: int) -> str:
        """RULES.md s.3's redraw count, worked with the hand's public numbers."""
        hand = self.hand
        if hand is None or hand.street is None or hand.pool_size is None:
            return f"{count} (min(K - R, floor(pool / L)), RULES.md s.3)"
        live, cap = len(hand.live_seats), hand.street.redraw_cap
        return (f"each of the {live} players in the hand {count} on the {hand.street.name} "
                f"(min(K - R, floor(pool / L)) = min({cap} - {hand.redraws[seat]}, "
                f"floor({hand.pool_size} / {live})), RULES.md s.3)")

    def _what(self, key: tuple[str, Any], count: int) -> str:
        kind, which = key
        return (f"{count} hole cards to {self.setup.player(which)}" if kind == "hole"
                else f"{count} cards to board {which}")

    def _anchor(self) -> str:
        if self.after is None:
            return f"{self.setup.lines.field('actions')}: before the first action"
        return f"{self.after.where()}: after it"

    def _missing(self, what: str, queue: deque[Dealt]) -> HistoryError:
        later = next((chunk for chunk in queue if chunk.left()), None)
        hint = f" (its next cards for them are at {later.action.at()})" if later else ""
        return HistoryError(f"{self._anchor()}, the hand deals {what}, and the history deals "
                            f"none there{hint}")

    def _later(self, queue: deque[Dealt], what: str) -> Dealt | None:
        """Cards the history deals too late: the next action dealing them, and the error kept
        in ``deferred``. An action between (one too many, say) may be the real fault, so the
        replay goes on and reports whichever fault comes first."""
        later = next((chunk for chunk in queue if chunk.left()), None)
        if later is not None and self.deferred is None:
            self.deferred = (self._missing(what, queue), later.action.number)
        return later

    def _take(self, key: tuple[str, Any], queue: deque[Dealt], count: int) -> tuple[Card, ...]:
        taken: list[Card] = []
        self.asked[key] = self.asked.get(key, 0) + count
        while len(taken) < count:
            while queue and not queue[0].left():
                queue.popleft()
            chunk = queue[0] if queue and queue[0].window == self.window else None
            if chunk is None:
                first = self._first_here(key)
                if first is not None:
                    raise self._count_error(key, first)
                chunk = self._later(queue, self._what(key, count))
            if chunk is None:
                raise self._missing(self._what(key, count), queue)
            if chunk.redraw:
                raise HistoryError(f"{chunk.action.where()}: the hand deals "
                                   f"{self._what(key, count)} here, not a redraw")
            n = min(chunk.left(), count - len(taken))
            taken += chunk.cards[chunk.taken:chunk.taken + n]
            chunk.taken += n
        return tuple(taken)

    def _chunks(self, key: tuple[str, Any]) -> list[Dealt]:
        kind, which = key
        found = self.hole_chunks[which] if kind == "hole" else self.board_chunks[which]
        return [chunk for chunk in found if chunk.window == self.window and not chunk.redraw]

    def _first_here(self, key: tuple[str, Any]) -> Dealt | None:
        here = self._chunks(key)
        return here[0] if here else None

    def _count_error(self, key: tuple[str, Any], first: Dealt) -> HistoryError:
        kind, which = key
        written = sum(len(chunk.cards) for chunk in self._chunks(key))
        asked = self.asked.get(key, 0)
        whom = self.setup.player(which) if kind == "hole" else f"board {which}"
        cards = "hole cards" if kind == "hole" else "cards"
        why = "" if asked else self._why_none(which if kind == "hole" else None)
        return HistoryError(f"{first.action.where()}: the history deals {whom} {written} "
                            f"{cards} here, the hand deals {asked or 'none'}{why}")

    def _why_none(self, seat: int | None) -> str:
        """Why the engine deals nothing here, when the hand says: over, or ``seat`` folded."""
        hand = self.hand
        if hand is None:
            return ""
        return (" (the hand is over)" if hand.is_over else
                " (they folded)" if seat is not None and not hand.live[seat] else "")

    def close_window(self) -> None:
        """Every dealing action of this window must be dealt in full."""
        for s, queue in self.hole_queues.items():
            for chunk in queue:
                if chunk.window == self.window and chunk.left():
                    if chunk.redraw:
                        raise HistoryError(
                            f"{chunk.action.where()}: the history redraws "
                            f"{len(chunk.cards)} cards to {self.setup.player(s)} here, the "
                            f"hand redraws none{self._why_none(s)}")
                    raise self._count_error(("hole", s), chunk)
        for name, queue in self.board_queues.items():
            for chunk in queue:
                if chunk.window == self.window and chunk.left():
                    raise self._count_error(("board", name), chunk)
        self.asked = {}

    def advance(self, action: Line) -> None:
        """The betting action ``action`` is applied next: its window begins."""
        self.close_window()
        self.window += 1
        self.after = action

    def finish(self) -> None:
        self.close_window()
        if self.burns:
            raise HistoryError(f"{self.setup.lines.field('_burns')}: holds "
                               f"{self.burned + len(self.burns)} burns, the hand burns "
                               f"{self.burned}")
        runs = self.setup.runs
        if runs is not None and len(runs.deals) > len(self.run_sources):
            raise HistoryError(f"{self.setup.lines.field('_runs')}: writes {len(runs.deals) + 1} "
                               f"runs, the hand runs {len(self.run_sources) + 1}")
        for number, source in enumerate(self.run_sources, 2):
            rest = source.leftovers()
            if rest is not None:
                raise HistoryError(f"{self.setup.lines.field('_runs')}: run {number} writes "
                                   f"cards the run does not deal ({rest})")
        if self.run_sources and self.hand is not None:
            hand = self.hand
            # (live hands only: a folded hand's cards went back to the pool in the redraw games)
            cards = [*itertools.chain(*(hand.hole[s] for s in hand.live_seats)),
                     *itertools.chain(*hand.boards.values()),
                     *(c for c in hand.burned if c is not None)]
            for run in hand.runs[1:]:
                cards += [*itertools.chain(*(c for _, c in run.dealt)),
                          *itertools.chain(*(c for _, c in run.cards)),
                          *(c for c in run.burns if c is not None)]
            twice = sorted({c for c in cards if cards.count(c) > 1})
            if twice:
                raise HistoryError(f"{self.setup.lines.field('_runs')}: deals "
                                   f"{format_cards(twice)} twice")


def check_shows(setup: Setup, deal: Deal, actions: Sequence[Line], seat: Any) -> None:
    """Shown cards are the cards dealt (in the Allocator games, some of them)."""
    for action in actions:
        if action.verb != "sm" or action.argument is None:
            continue
        s = seat(action)
        cards = deal.shows[s]
        dealt = _held_at_end(deal, s)
        if setup.variant.has_allocation:
            # Only the allocated cards are shown; discards never are (RULES.md s.3).
            if not set(cards) <= set(dealt):
                raise HistoryError(f"{action.where()}: {setup.player(s)} shows cards it was "
                                   f"not dealt")
        elif sorted(cards) != sorted(dealt):
            raise HistoryError(f"{action.where()}: {setup.player(s)} shows "
                               f"{format_cards(cards)} but was dealt {format_cards(dealt)}")


def _held_at_end(deal: Deal, seat: int) -> list[Card]:
    """The cards ``seat`` holds once every card is dealt: all of them, less (the draw) the
    cards it threw, taken in the order of the actions."""
    steps: list[tuple[int, bool, list[Card]]] = [
        (chunk.action.number, True, chunk.cards) for chunk in deal.hole[seat]]
    steps += [(action.number, False, thrown) for action, drawer, thrown in deal.discards
              if drawer == seat]
    held: list[Card] = []
    for _, dealt, cards in sorted(steps, key=lambda step: step[0]):
        held = held + cards if dealt else [card for card in held if card not in cards]
    return held


def check_extensions(hand: Hand, setup: Setup) -> None:
    """``finishing_stacks``, ``_boards``, ``_redraws`` and ``_points``, when present, must match
    the replay."""
    players = range(len(setup.seat_of))
    if setup.finishing_stacks is not None:
        for s in (setup.seat_of[k] for k in players):
            if setup.finishing_stacks[s] != hand.stacks[s]:
                raise HistoryError(f"{setup.lines.field('finishing_stacks')}: says "
                                   f"{setup.player(s)} ends with {setup.finishing_stacks[s]} "
                                   f"chips, the replay with {hand.stacks[s]}")
    if setup.boards is not None:
        actual = {name: cards_text(cards) for name, cards in hand.boards.items()}
        if dict(setup.boards) != actual:
            raise HistoryError(f"{setup.lines.field('_boards')}: says {dict(setup.boards)} but "
                               f"the actions deal {actual}")
    if setup.redraws is not None:
        for s in (setup.seat_of[k] for k in players):
            if setup.redraws[s] != hand.redraws[s]:
                raise HistoryError(f"{setup.lines.field('_redraws')}: says {setup.player(s)} "
                                   f"redraws {setup.redraws[s]} cards, the replay deals "
                                   f"{hand.redraws[s]}")
    if setup.runs is not None and setup.runs.awards is not None:
        paid = run_awards(hand, {s: setup.label(s) for s in setup.seat_of})
        if list(setup.runs.awards) != paid:
            raise HistoryError(f"{setup.lines.field('_runs')}: awards say "
                               f"{list(setup.runs.awards)} but the replay pays {paid}")
    if setup.points is not None:
        actual_points = [{setup.label(s): p for s, p in result.points.items()}
                         for result in hand.results]
        try:
            written = [{k: Fraction(v) for k, v in pot.items()} for pot in setup.points]
        except (ValueError, ZeroDivisionError):
            raise HistoryError(f"{setup.lines.field('_points')}: holds a value that is not a "
                               f"fraction") from None
        if written != actual_points:
            shown = [{k: str(v) for k, v in pot.items()} for pot in actual_points]
            raise HistoryError(f"{setup.lines.field('_points')}: says {list(setup.points)} but "
                               f"the replay scores {shown}")


def check_showdown(hand: Hand, setup: Setup, deal: Deal, actions: Sequence[Line],
                    seat: Any) -> None:
    winners = {s for result in hand.results for s in result.shares}
    written = {seat(action) for action in actions if action.verb == "sm"}
    for s, shown in hand.shown.items():
        if s not in written:
            raise HistoryError(f"{setup.lines.field('actions')}: {setup.player(s)} "
                               f"{'shows' if shown else 'mucks'} at the showdown, and the "
                               f"history has no '{setup.label(s)} sm' action")
    for action in actions:
        if action.verb != "sm":
            continue
        s = seat(action)
        if action.argument is None and s in winners and hand.shown.get(s):
            raise HistoryError(f"{action.where()}: this hand wins part of the pot and is shown "
                               f"(winners are always shown, RULES.md s.4)")
        if s not in hand.shown:
            raise HistoryError(f"{action.where()}: {setup.player(s)} has no hand at showdown")
        if action.argument is not None and s in hand.allocations:
            allocated = {card for part in hand.allocations[s].values() for card in part}
            if set(deal.shows[s]) != allocated:
                raise HistoryError(f"{action.where()}: {setup.player(s)} shows other cards "
                                   f"than the ones it allocated")
    for s, positions in deal.stand_ins.items():
        if positions and s not in deal.shows and hand.shown.get(s):
            first = deal.hole[s][0].action
            raise HistoryError(f"{first.where()}: the hole cards of {setup.player(s)} are not "
                               f"written out but the hand goes to showdown; Boardroom needs "
                               f"every dealt card")

