"""Hand histories: TOML, a superset of PHH (the Poker Hand History format, uoftcprg/phh-std).

4-card pot-limit ``plo`` is written as PHH ``PO``, fixed-limit ``omaha-hilo`` as ``FO/8`` and
fixed-limit ``stud-hilo`` with the lowest-card bring-in as ``F7S/8``: plain PHH that PokerKit
loads. Every other game or option is written with the same fields and action grammar plus
``_``-prefixed extensions (``_variant``, ``_options``, ``_burns``), which PHH readers keep as
user-defined fields. Players ``p1..pn`` are the seats clockwise from the button's left, so the
button is the last player (PHH's convention); ``seats`` keeps our seat numbers (1-based). Every
dealt card is written out. ``docs/history.md`` describes the format.

The multi-board variants add ``d db CARDS # board B`` (the board dealt), ``d dh pK CARDS #
redraw`` (redraws from the pool), ``pK _allocate A:CARDS B:CARDS Hand:CARDS`` (an allocation
commit), and the fields ``_boards``, ``_redraws`` and ``_points``, checked on replay.

A history is one value, ``History`` (its fields as TOML data), with ``History.of(hand)``,
``dumps``, ``History.loads`` and ``replay``. The parts: ``phh`` (the variant codes and the
action grammar, lines to action values and back), ``writer`` (a hand to its fields),
``reader`` (the fields checked into a ``Setup``) and ``checks`` (the strict reader's card and
showdown checks); the replay itself is the engine's one replayer (``engine.replay``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from boardroom.engine.actions import Action, Allocate
from boardroom.engine.hand import Hand
from boardroom.engine.history.checks import (
    HistoryCards,
    check_cards,
    check_extensions,
    check_showdown,
    check_shows,
    read_deal,
)
from boardroom.engine.history.phh import (
    PHH_CODES,
    HistoryError,
    Line,
    action_line,
    parse_line,
    phh_code,
)
from boardroom.engine.history.reader import NO_LINES, Lines, Setup, locate, setup_of
from boardroom.engine.history.writer import to_record
from boardroom.engine.replay import ReplayError, Step
from boardroom.engine.replay import replay as replay_steps

__all__ = [
    "PHH_CODES",
    "History",
    "HistoryError",
    "Line",
    "Lines",
    "Setup",
    "action_line",
    "dumps",
    "loads",
    "locate",
    "parse_line",
    "phh_code",
    "replay",
    "replay_text",
    "setup_of",
    "to_record",
]


@dataclass(frozen=True)
class History:
    """A hand history: its fields as TOML data (``record``), and where they are in the text it
    was read from (``lines``, for the errors). ``History.of(hand)`` writes a hand, ``dumps``
    gives the text, ``History.loads`` reads text back, ``read`` checks the fields into a
    ``Setup`` and ``replay`` plays the hand again, checking every action and card."""

    record: Mapping[str, Any]
    lines: Lines = field(default=NO_LINES, compare=False)

    @classmethod
    def of(cls, hand: Hand) -> History:
        """The history of ``hand``, finished or running."""
        return cls(to_record(hand))

    @classmethod
    def loads(cls, text: str) -> History:
        """A history from TOML text; ``HistoryError`` when it is not TOML."""
        try:
            record = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise HistoryError(f"not valid TOML: {error}") from None
        return cls(record, locate(text))

    def dumps(self) -> str:
        return tomli_w.dumps(dict(self.record))

    def read(self) -> Setup:
        """The fields checked (not yet the actions). Raises ``HistoryError``."""
        return setup_of(self.record, self.lines)

    def replay(self) -> Hand:
        return replay(self.read())


def dumps(hand: Hand) -> str:
    """The history of ``hand`` as TOML text."""
    return History.of(hand).dumps()


def loads(text: str) -> Setup:
    """Read a history's fields (not yet its actions). Raises ``HistoryError``."""
    return History.loads(text).read()


def replay_text(text: str) -> Hand:
    """Read and replay a history written as TOML text."""
    return History.loads(text).replay()


def replay(setup: Setup) -> Hand:
    """Play the history's actions through the engine (``engine.replay``), checking every one
    and every card. Raises ``HistoryError`` naming the line and the action or field at fault.
    """
    count = len(setup.stacks)
    lines = [parse_line(k + 1, text, setup.lines.action(k + 1))
             for k, text in enumerate(setup.actions)]
    seat_of_label = {f"p{k + 1}": seat for k, seat in enumerate(setup.seat_of)}

    def seat(line: Line) -> int:
        if line.actor not in seat_of_label:
            raise HistoryError(f"{line.where()}: there is no player {line.actor!r}; the "
                               f"players are p1 to p{count}")
        return seat_of_label[line.actor]

    deal = read_deal(setup, lines, seat)
    check_cards(setup, deal)
    check_shows(setup, deal, lines, seat)
    source = HistoryCards(setup, deal)
    try:
        hand = Hand(setup.variant, setup.stakes, setup.stacks, setup.button, cards=source,
                    show_requests=set(deal.shows), manual_allocation=True,
                    dead_small_blind=setup.dead_small_blind,
                    big_blind_ante=setup.big_blind_ante, straddle=setup.straddle,
                    runs_offered=setup.runs is not None,
                    run_choices=setup.runs.choices if setup.runs is not None else None,
                    run_timeouts=setup.runs.timeouts if setup.runs is not None else ())
    except HistoryError:
        raise
    except ValueError as error:
        raise HistoryError(f"the hand cannot start: {error}") from None
    source.hand = hand
    played = [line for line in lines if line.verb not in ("dh", "db", "sm", "")]
    current: list[Line] = []  # the line being replayed

    def steps() -> Iterator[Step]:
        for line in played:
            current[:] = [line]
            if line.action is None:  # a draw with cards not written out (read_deal refuses)
                raise HistoryError(f"{line.where()}: the cards thrown must be written out")
            yield seat(line), line.action

    def before(index: int, acting: int, action: Action) -> None:
        line = played[index]
        source.advance(line)
        if isinstance(action, Allocate):
            # A commit of cards the player holds (named by category, never by card).
            held = set(hand.hole[acting])
            for name, cards in action.categories:
                if not set(cards) <= held:
                    raise HistoryError(f"{line.where()}: {setup.player(acting)} allocates to "
                                       f"{name} a card it does not hold")

    try:
        replay_steps(hand, steps(), before=before)
    except ReplayError as error:
        line = played[error.index]
        acting = seat(line)
        if error.over:
            message = "the hand is already over"
        elif error.out_of_turn:
            message = f"{setup.player(acting)} acts out of turn; " + (
                f"{setup.player(hand.actor)} is to act" if hand.actor is not None else
                "the players allocate now" if hand.is_allocating else "nobody is to act")
        else:  # the engine names the seat 0-based
            message = re.sub(rf"\bseat {acting}\b", setup.player(acting), error.reason)
        raise _first_fault(source, line, HistoryError(f"{line.where()}: {message}")) from None
    except HistoryError as error:
        raise _first_fault(source, current[0], error) from None
    except ValueError as error:  # a card source's or the engine's other refusals
        line = current[0]
        message = re.sub(rf"\bseat {seat(line)}\b", setup.player(seat(line)), str(error))
        raise _first_fault(source, line, HistoryError(f"{line.where()}: {message}")) from None
    if source.deferred is not None:
        raise source.deferred[0]
    if not hand.is_over:
        raise HistoryError(
            f"{setup.lines.field('actions')}: the actions end before the hand does"
            + (f" ({setup.player(hand.actor)} is to act)" if hand.actor is not None else
               f" ({', '.join(setup.player(s) for s in hand.allocation_pending)} to allocate)"
               if hand.is_allocating else ""))
    source.finish()
    check_showdown(hand, setup, deal, lines, seat)
    check_extensions(hand, setup)
    return hand


def _first_fault(source: HistoryCards, line: Line, error: HistoryError) -> HistoryError:
    """``error`` at ``line``, unless cards were dealt late and written only after it."""
    if source.deferred is not None and source.deferred[1] < line.number:
        return source.deferred[0]
    return error
