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
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import tomli_w

from boardroom.cards import Card, format_cards, parse_cards, remaining_cards
from boardroom.engine import events as ev
from boardroom.engine.betting import Stakes
from boardroom.engine.hand import Hand
from boardroom.rules import BettingStructure, BringIn, ForcedBets, Split, Variant, find_variant


class HistoryError(ValueError):
    """A history that cannot be read or does not replay: names the field or action at fault."""


@dataclass(frozen=True)
class _Code:
    variant: str
    hole_cards: int
    betting: BettingStructure
    bring_in: BringIn | None = None


PHH_CODES: dict[str, _Code] = {
    "PO": _Code("plo", 4, BettingStructure.POT_LIMIT),
    "FO/8": _Code("omaha-hilo", 4, BettingStructure.FIXED_LIMIT),
    "F7S/8": _Code("stud-hilo", 7, BettingStructure.FIXED_LIMIT, BringIn.LOWEST),
    "NT": _Code("holdem", 2, BettingStructure.NO_LIMIT),
    "FT": _Code("holdem", 2, BettingStructure.FIXED_LIMIT),
    "F7S": _Code("stud", 7, BettingStructure.FIXED_LIMIT, BringIn.LOWEST),
    "FR": _Code("razz", 7, BettingStructure.FIXED_LIMIT, BringIn.HIGHEST_ACE_LOW),
    "N2L1D": _Code("27-single-draw", 5, BettingStructure.NO_LIMIT),
    "F2L3D": _Code("27-triple-draw", 5, BettingStructure.FIXED_LIMIT),
    "FB": _Code("badugi", 4, BettingStructure.FIXED_LIMIT),
}


def phh_code(variant: Variant) -> str | None:
    """The PHH variant code that describes ``variant`` exactly, or None."""
    for code, spec in PHH_CODES.items():
        if (variant.id, variant.hole_cards, variant.betting, variant.bring_in) == (
            spec.variant, spec.hole_cards, spec.betting, spec.bring_in
        ):
            return code
    return None


def _options(variant: Variant) -> dict[str, Any]:
    options: dict[str, Any] = {"hole_cards": variant.hole_cards, "betting": variant.betting.value}
    if variant.bring_in is not None:
        options["bring_in"] = variant.bring_in.value
    return options


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else format_cards([card]) for card in cards)


# -- writing --------------------------------------------------------------------------------


def to_record(hand: Hand) -> dict[str, Any]:
    """The history of ``hand`` (finished or running) as a TOML-ready dict."""
    variant, stakes, order = hand.variant, hand.stakes, hand.order
    label = {seat: f"p{k + 1}" for k, seat in enumerate(order)}
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
    record["actions"] = _actions(hand, label)
    record["seats"] = [seat + 1 for seat in order]
    if hand.is_over:
        record["finishing_stacks"] = [hand.stacks[seat] for seat in order]
    record["_variant"] = variant.id
    record["_options"] = _options(variant)
    burns = [card for card in hand.burned if card is not None]
    if burns:
        record["_burns"] = format_cards(burns).split()
    if len(variant.boards) > 1:
        record["_boards"] = {name: _cards(cards) for name, cards in hand.boards.items()}
    if variant.has_redraws:
        record["_redraws"] = [hand.redraws[seat] for seat in order]
    if hand.is_over and variant.split is Split.POINTS and len(variant.categories) > 1:
        record["_points"] = [
            {label[seat]: str(points) for seat, points in result.points.items()}
            for result in hand.results
        ]
    return record


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
        lines[event.seat] = f" sm {_cards(cards)}" if cards is not None else " sm"
    return point, lines, {e.seat for e in shown if isinstance(e, ev.HandShown)} & again


def _actions(hand: Hand, label: Mapping[int, str]) -> list[str]:
    actions: list[str] = []
    single_board = len(hand.variant.boards) == 1
    pending: tuple[int, list[Card | None]] | None = None  # hole cards merged per seat and street
    early = _early_shows(hand)
    for index, event in enumerate(hand.events):
        if early is not None and index == early[0]:
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
                pending = None
            actions.extend(f"{label[seat]}{line}" for seat, line in early[1].items())
        if (early is not None and isinstance(event, ev.HandShown | ev.HandMucked)
                and event.seat not in early[2]):
            continue  # already shown before the run-out
        if isinstance(event, ev.Redrawn):
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
                pending = None
            actions.append(f"d dh {label[event.seat]} {_cards(event.cards)} # redraw")
            continue
        if isinstance(event, ev.AllocationCommitted):
            parts = " ".join(f"{name}:{_cards(cards)}"
                             for name, cards in hand.allocations[event.seat].items())
            note = " # timeout: the engine's allocation" if event.automatic else ""
            actions.append(f"{label[event.seat]} _allocate {parts}{note}")
            continue
        if isinstance(event, ev.HoleDealt):
            if pending is not None and pending[0] == event.seat:
                pending[1].extend(event.cards)
                continue
            if pending is not None:
                actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
            pending = (event.seat, list(event.cards))
            continue
        if pending is not None:
            actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
            pending = None
        match event:
            case ev.BoardDealt(board, cards):
                suffix = "" if single_board else f" # board {board}"
                actions.append(f"d db {_cards(cards)}{suffix}")
            case ev.BringInPosted(seat, _):
                actions.append(f"{label[seat]} pb")
            case ev.Folded(seat):
                actions.append(f"{label[seat]} f")
            case ev.Checked(seat) | ev.Called(seat, _):
                actions.append(f"{label[seat]} cc")
            case ev.RaisedTo(seat, amount, _):
                actions.append(f"{label[seat]} cbr {amount}")
            case ev.HandShown(seat, cards):
                actions.append(f"{label[seat]} sm {_cards(cards)}")
            case ev.HandMucked(seat):
                actions.append(f"{label[seat]} sm")
            case ev.Discarded(seat, cards):
                actions.append(f"{label[seat]} sd {_cards(cards)}" if cards
                               else f"{label[seat]} sd")
            case ev.StreetStarted(_) if hand.variant.is_draw:
                actions.append(_STREET_MARK)
    if pending is not None:
        actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
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


# -- reading and replaying ------------------------------------------------------------------
#
# A history is trusted in nothing: every field is checked for its type and its sense, every card
# for having been dealable (never twice, never a board's or a burn's card in a hand, a redraw
# only from the pool), every dealt card for being dealt where and when the engine deals it (the
# redraw counts street by street, no card left over), and every action by the engine. Errors
# name the line of the file, and players one way: ``player "bob" (seat 3)``.

_PLAYER = re.compile(r"p([1-9][0-9]*)$")
_KEY = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)""")


@dataclass(frozen=True)
class Lines:
    """Where things are in a history's text: each top-level field's line, each action's line."""

    fields: Mapping[str, int]
    actions: tuple[int, ...]

    def field(self, name: str) -> str:
        """``line 7: field 'antes'`` (without the line when it is not known)."""
        line = self.fields.get(name)
        return f"field {name!r}" if line is None else f"line {line}: field {name!r}"

    def action(self, number: int) -> str:
        """``line 31`` for the action numbered ``number`` (1-based), or ``""``."""
        return f"line {self.actions[number - 1]}" if 0 < number <= len(self.actions) else ""


NO_LINES = Lines({}, ())


def locate(text: str) -> Lines:
    """The lines of the top-level keys, table headers and ``actions`` elements of TOML ``text``
    (already known to parse): a small scanner of strings, comments and brackets."""
    fields: dict[str, int] = {}
    actions: list[int] = []
    line, at, depth, key, in_table = 1, 0, 0, "", False
    expect_key = True
    size = len(text)
    while at < size:
        char = text[at]
        if char == "\n":
            line += 1
            at += 1
            expect_key = expect_key or depth == 0
            continue
        if char in " \t\r,":
            at += 1
            continue
        if char == "#":
            end = text.find("\n", at)
            at = size if end < 0 else end
            continue
        if expect_key and depth == 0:
            if char == "[":
                end = text.find("]", at)
                name = text[at:end].strip("[] \t").split(".")[0].strip("\"'")
                fields.setdefault(name, line)
                in_table, at = True, (size if end < 0 else end + 1)
                continue
            match = _KEY.match(text, at)
            equals = text.find("=", at)
            if match is None or equals < 0:
                return NO_LINES
            key = match.group(1).strip("\"'")
            if not in_table:
                fields.setdefault(key, line)
            at, expect_key = equals + 1, False
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, at) else char
            end = at + len(quote)
            while end < size and not text.startswith(quote, end):
                end += 2 if char == '"' and text[end] == "\\" else 1
            if key == "actions" and not in_table and depth == 1:
                actions.append(line)
            line += text.count("\n", at, end)
            at = end + len(quote)
            continue
        at += 1
    return Lines(fields, tuple(actions))


@dataclass(frozen=True)
class Setup:
    """What a history says about the hand before its actions."""

    variant: Variant
    stakes: Stakes
    stacks: tuple[int, ...]  # by seat
    button: int
    seat_of: tuple[int, ...]  # PHH player k (0-based) -> our seat
    actions: tuple[str, ...]
    burns: tuple[Card, ...] | None
    finishing_stacks: tuple[int, ...] | None  # by seat
    boards: Mapping[str, str] | None = None  # _boards, as written
    redraws: tuple[int, ...] | None = None  # _redraws, by seat
    points: tuple[Mapping[str, str], ...] | None = None  # _points, per pot, by PHH label
    names: tuple[str, ...] = ()  # PHH player k's name: ``players`` when written, else pK
    seat_numbers: tuple[int, ...] = ()  # PHH player k's seat number (``seats``, 1-based)
    lines: Lines = NO_LINES
    dead_small_blind: bool = False  # tournaments: ``_dead_small_blind``
    big_blind_ante: bool = False  # tournaments: the one ante in ``antes`` is the big blind's

    def label(self, seat: int) -> str:
        """The PHH label (``p1``) of our ``seat``."""
        return f"p{self.seat_of.index(seat) + 1}"

    def player(self, seat: int) -> str:
        """Our ``seat`` as every error names a player: ``player "bob" (seat 3)``."""
        k = self.seat_of.index(seat)
        name = self.names[k] if self.names else f"p{k + 1}"
        number = self.seat_numbers[k] if self.seat_numbers else k + 1
        return f'player "{name}" (seat {number})'


def loads(text: str) -> Setup:
    """Read a history's fields (not yet its actions). Raises ``HistoryError``."""
    try:
        record = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from None
    return setup_of(record, locate(text))


def _to_seats(values: Sequence[Any], seat_of: tuple[int, ...]) -> list[Any]:
    """A per-player list, from PHH player order (``values[k]`` is player k) to our seats."""
    by_seat: list[Any] = [0] * len(seat_of)
    for k, seat in enumerate(seat_of):
        by_seat[seat] = values[k]
    return by_seat


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: dict[type, str] = {int: "a whole number", str: "a string", list: "a list",
                           dict: "a table", bool: "true or false"}


class _Fields:
    """Typed access to a history's fields; every error names the field and its line."""

    def __init__(self, record: Mapping[str, Any], lines: Lines) -> None:
        self.record, self.lines = record, lines

    def fail(self, name: str, message: str) -> HistoryError:
        return HistoryError(f"{self.lines.field(name)}: {message}")

    def get(self, name: str, kind: type, default: Any = ...) -> Any:
        if name not in self.record:
            if default is ...:
                raise HistoryError(f"field {name!r} is missing")
            return default
        value = self.record[name]
        if not (_is_int(value) if kind is int else isinstance(value, kind)):
            raise self.fail(name, f"must be {_KINDS[kind]}, not {value!r}")
        return value

    def chips(self, name: str, default: Any = ...) -> int:
        value: int = self.get(name, int, default)
        if value < 0:
            raise self.fail(name, f"must be a whole number of chips (0 or more), not {value}")
        return value

    def ints(self, name: str, count: int | None, what: str, minimum: int = 0,
             default: Any = ...) -> list[int]:
        """A list of whole numbers ``>= minimum``, ``count`` long when given."""
        values: list[Any] = self.get(name, list, default)
        for value in values:
            if not _is_int(value) or value < minimum:
                raise self.fail(name, f"holds {value!r}, which is not {what}")
        if count is not None and len(values) != count:
            raise self.fail(name, f"must hold {count} values, one per player, not {len(values)}")
        return values

    def strings(self, name: str, default: Any = ...) -> list[str]:
        values: list[Any] = self.get(name, list, default)
        for value in values:
            if not isinstance(value, str):
                raise self.fail(name, f"holds {value!r}, which is not a string")
        return values


def _variant_of(fields: _Fields) -> Variant:
    record = fields.record
    if "_variant" in record:
        variant_id = fields.get("_variant", str)
        options = dict(fields.get("_options", dict, {}))
        unknown = set(options) - {"hole_cards", "betting", "bring_in"}
        if unknown:
            raise fields.fail("_options", f"has unknown options {sorted(unknown)} (known: "
                              f"hole_cards, betting, bring_in)")
        for option, kind in (("hole_cards", int), ("betting", str), ("bring_in", str)):
            if option in options and not (_is_int(options[option]) if kind is int
                                          else isinstance(options[option], kind)):
                raise fields.fail("_options", f"option {option!r} must be {_KINDS[kind]}, "
                                  f"not {options[option]!r}")
        try:
            variant = find_variant(variant_id)
        except ValueError as error:
            raise fields.fail("_variant", str(error)) from None
        try:
            return variant.with_options(**options)
        except ValueError as error:
            raise fields.fail("_options", str(error)) from None
    code = fields.get("variant", str)
    if code not in PHH_CODES:
        raise fields.fail("variant", f"Boardroom replays PHH codes {', '.join(PHH_CODES)} "
                          f"(and its own games with '_variant'), not {code!r}")
    spec = PHH_CODES[code]
    return find_variant(spec.variant).with_options(
        hole_cards=spec.hole_cards, betting=spec.betting, bring_in=spec.bring_in)


def _stakes_of(fields: _Fields, variant: Variant, count: int) -> tuple[Stakes, bool, bool]:
    """The stakes, and the tournament hooks: a dead small blind, a big-blind ante."""
    antes = fields.ints("antes", count, "a whole number of chips", default=[0] * count)
    blind_game = variant.forced_bets is ForcedBets.BLINDS
    dead = blind_game and "_dead_small_blind" in fields.record
    big_blind_ante = len(set(antes)) > 1
    if big_blind_ante:
        # Tournaments: the big blind alone posts the ante (p1 when the small blind is dead or
        # heads-up, else p2).
        big = 0 if dead or count == 2 else 1
        if not blind_game or sorted(antes)[:-1] != [0] * (count - 1) or antes[big] == 0:
            raise fields.fail("antes", f"Boardroom plays one ante for every player, or one "
                              f"from the big blind (p{big + 1}) in blind games, got {antes}")
    ante = max(antes) if antes else 0
    blinds = (0, 0)
    if blind_game:
        raw = fields.ints("blinds_or_straddles", None, "a whole number of chips")
        if dead:
            small = fields.chips("_dead_small_blind")
            if count < 3 or len(raw) != count or any(raw[1:]):
                raise fields.fail("blinds_or_straddles", f"with a dead small blind, expected "
                                  f"the big blind for p1 and nothing else ({count} values, "
                                  f"3 players or more), got {raw}")
            blinds = (small, raw[0])
        else:
            if len(raw) != count or any(raw[2:]):
                raise fields.fail("blinds_or_straddles", f"expected a small and a big blind "
                                  f"for p1 and p2 and no straddles ({count} values), got {raw}")
            blinds = (raw[0], raw[1])
    args: dict[str, int] = {"small_blind": blinds[0], "big_blind": blinds[1], "ante": ante}
    if variant.is_stud or variant.betting is BettingStructure.FIXED_LIMIT:
        args["small_bet"] = fields.chips("small_bet")
        args["big_bet"] = fields.chips("big_bet")
    else:
        min_bet = fields.chips("min_bet", blinds[1])
        if variant.forced_bets is ForcedBets.BLINDS and min_bet != blinds[1]:
            raise fields.fail("min_bet", f"{min_bet} differs from the big blind {blinds[1]}; "
                              f"the minimum bet is the big blind (RULES.md s.2)")
        if variant.forced_bets is not ForcedBets.BLINDS:
            args["big_blind"] = min_bet
    if variant.is_stud:
        args["bring_in"] = fields.chips("bring_in")
    try:
        stakes = Stakes(**args)
        stakes.check_for(variant)
    except ValueError as error:
        text = str(error)
        name = ("bring_in" if "bring-in" in text else "small_bet" if "small bet" in text
                else "blinds_or_straddles" if "blinds" in text
                else "min_bet" if "min_bet" in fields.record else "antes")
        raise fields.fail(name, text) from None
    return stakes, dead, big_blind_ante


def setup_of(record: Mapping[str, Any], lines: Lines = NO_LINES) -> Setup:
    """The ``Setup`` of a parsed history (``lines`` locates its fields for the errors)."""
    fields = _Fields(record, lines)
    variant = _variant_of(fields)
    starting = fields.ints("starting_stacks", None, "a whole number of chips")
    count = len(starting)
    if not 2 <= count <= variant.max_players:
        raise fields.fail("starting_stacks", f"{variant.name} with {variant.hole_cards} hole "
                          f"cards deals 2 to {variant.max_players} players, not {count}")
    stakes, dead_small_blind, big_blind_ante = _stakes_of(fields, variant, count)
    seats = fields.ints("seats", count, "a seat number (1 or more)", 1,
                        list(range(1, count + 1)))
    if len(set(seats)) != count:
        raise fields.fail("seats", f"must hold {count} different seat numbers, got {seats}")
    names = fields.strings("players", [f"p{k + 1}" for k in range(count)])
    if len(names) != count or len(set(names)) != count or not all(names):
        raise fields.fail("players", f"must hold {count} different names, one per player")
    clockwise = sorted(seats)
    seat_of = tuple(clockwise.index(number) for number in seats)
    setup = Setup(variant, stakes, (), 0, seat_of, (), None, None, names=tuple(names),
                  seat_numbers=tuple(seats), lines=lines)
    for k, stack in enumerate(starting):
        if stack <= 0:
            raise fields.fail("starting_stacks", f"{setup.player(seat_of[k])} has a stack of "
                              f"{stack}; a player is dealt in with 1 chip or more")
    finishing = None
    if "finishing_stacks" in record:
        written = fields.ints("finishing_stacks", count, "a whole number of chips")
        if sum(written) != sum(starting):
            raise fields.fail("finishing_stacks", f"holds {sum(written)} chips where the hand "
                              f"starts with {sum(starting)}; chips are never made or lost")
        finishing = tuple(_to_seats(written, seat_of))
    actions = fields.strings("actions")
    if "ante_trimming_status" in record:
        fields.get("ante_trimming_status", bool)
    burns = None
    if "_burns" in record:
        try:
            burns = parse_cards(fields.strings("_burns"))
        except ValueError as error:
            raise fields.fail("_burns", str(error)) from None
    boards = fields.get("_boards", dict, None)
    if boards is not None:
        for name, cards in boards.items():
            if name not in {board.name for board in variant.boards}:
                raise fields.fail("_boards", f"{variant.name} has no board {name!r}")
            if not isinstance(cards, str):
                raise fields.fail("_boards", f"board {name} must be a string of cards, "
                                  f"not {cards!r}")
    redraws = None
    if "_redraws" in record:
        redraws = tuple(_to_seats(fields.ints("_redraws", count, "a number of cards"),
                                  seat_of))
    points = fields.get("_points", list, None)
    if points is not None:
        labels = {f"p{k + 1}" for k in range(count)}
        for pot in points:
            if not isinstance(pot, dict) or not set(pot) <= labels or not all(
                    isinstance(value, str) for value in pot.values()):
                raise fields.fail("_points", "must be a list of tables, one per pot, of "
                                  "player labels (p1, p2, ...) to fractions written as strings")
    return Setup(variant, stakes, tuple(_to_seats(starting, seat_of)), seat_of[-1], seat_of,
                 tuple(actions), burns, finishing, boards, redraws,
                 tuple(points) if points is not None else None, tuple(names), tuple(seats),
                 lines, dead_small_blind, big_blind_ante)


@dataclass(frozen=True)
class _Action:
    number: int  # 1-based position in the actions list
    text: str
    actor: str  # "d" or "pK"
    verb: str
    argument: str | None
    comment: str | None
    line: str = ""  # "line 31", when known

    def where(self) -> str:
        at = f"action {self.number} ({self.text!r})"
        return f"{self.line}: {at}" if self.line else at


def _parse_action(number: int, text: str, line: str = "") -> _Action:
    body, _, comment = text.partition("#")
    words = body.split()
    note = comment.strip() or None
    if not words:
        return _Action(number, text, "", "", None, note, line)
    if words[0] == "d" and len(words) >= 3 and words[1] in ("dh", "db"):
        if words[1] == "dh" and len(words) == 4:
            return _Action(number, text, words[2], "dh", words[3], note, line)
        if words[1] == "db" and len(words) == 3:
            return _Action(number, text, "d", "db", words[2], note, line)
    elif _PLAYER.match(words[0]) and len(words) >= 2:
        verb, rest = words[1], words[2:]
        if (verb in ("f", "cc", "pb") and not rest) or (verb == "cbr" and len(rest) == 1) or (
            verb in ("sm", "sd") and len(rest) <= 1
        ):
            return _Action(number, text, words[0], verb, rest[0] if rest else None, note, line)
        if verb == "_allocate" and rest:
            return _Action(number, text, words[0], verb, " ".join(rest), note, line)
    where = _Action(number, text, "", "", None, None, line).where()
    raise HistoryError(f"{where} is not an action Boardroom replays (d dh pN CARDS, "
                       f"d db CARDS, pN f|cc|cbr AMOUNT|pb|sm [CARDS]|sd [CARDS], "
                       f"pN _allocate CATEGORY:CARDS ...)")


def _parse_allocation(action: _Action) -> dict[str, str]:
    allocation: dict[str, str] = {}
    for part in (action.argument or "").split():
        name, colon, cards = part.partition(":")
        if not colon or not name or name in allocation:
            raise HistoryError(f"{action.where()}: expected CATEGORY:CARDS for each category")
        allocation[name] = cards
    return allocation


def _parse_dealt(action: _Action) -> list[Card | None]:
    text = action.argument or ""
    cards: list[Card | None] = []
    if len(text) % 2:
        raise HistoryError(f"{action.where()}: {text!r} is not a list of cards")
    for k in range(0, len(text), 2):
        token = text[k:k + 2]
        if token == "??":
            cards.append(None)
        else:
            try:
                cards.append(parse_cards(token)[0])
            except (ValueError, IndexError):
                raise HistoryError(f"{action.where()}: {token!r} is not a card") from None
    return cards


@dataclass
class _Dealt:
    """One ``d dh`` or ``d db`` action: its cards (``??`` filled in), and when it deals."""

    action: _Action
    cards: list[Card]
    window: int  # the number of betting or allocation actions before it
    redraw: bool = False
    taken: int = 0

    def left(self) -> int:
        return len(self.cards) - self.taken


@dataclass
class _Deal:
    """The dealing actions of a history, read before the engine runs."""

    hole: dict[int, list[_Dealt]]  # by seat, in order
    boards: dict[str, list[_Dealt]]
    shows: dict[int, tuple[Card, ...]]
    stand_ins: dict[int, set[int]]  # seat -> indices of its cards that are ``??`` unfilled
    folds: list[tuple[_Action, int]]  # (action, seat) of every fold, in order
    discards: list[tuple[_Action, int, list[Card]]] = field(default_factory=list)  # the draw


def _read_deal(setup: Setup, actions: Sequence[_Action], seat: Any) -> _Deal:
    variant = setup.variant
    hole: dict[int, list[_Dealt]] = {s: [] for s in range(len(setup.stacks))}
    raw: dict[int, list[list[Card | None]]] = {s: [] for s in hole}
    boards: dict[str, list[_Dealt]] = {board.name: [] for board in variant.boards}
    shows: dict[int, tuple[Card, ...]] = {}
    at_showdown: dict[int, _Action] = {}  # seat -> its ``sm`` action
    dealt_since_show: set[int] = set()  # shown seats dealt more cards since
    folds: list[tuple[_Action, int]] = []
    discards: list[tuple[_Action, int, list[Card]]] = []
    drew_at: dict[int, int] = {}  # the draw: seat -> the window its ``sd`` opened
    window = 0
    for action in actions:
        if action.verb == "dh":
            s = seat(action)
            cards = _parse_dealt(action)
            raw[s].append(cards)
            if s in at_showdown:
                dealt_since_show.add(s)
            # PHH writes a draw's deals after every player's ``sd``: each belongs to its own.
            dealt_in = drew_at.pop(s, window)
            hole[s].append(_Dealt(action, [], dealt_in, action.comment == "redraw"))
        elif action.verb == "db":
            name = variant.boards[0].name if variant.boards else ""
            if action.comment and action.comment.startswith("board "):
                name = action.comment.removeprefix("board ").strip()
            if name not in boards:
                raise HistoryError(f"{action.where()}: {variant.name} has no board {name!r}")
            dealt = _parse_dealt(action)
            if None in dealt:
                raise HistoryError(f"{action.where()}: board cards must be written out")
            boards[name].append(_Dealt(action, [c for c in dealt if c is not None], window))
        elif action.verb == "sm":
            s = seat(action)
            shown = _parse_dealt(action) if action.argument is not None else None
            if shown is not None and None in shown:
                raise HistoryError(f"{action.where()}: shown cards must be written out")
            if s in at_showdown and not (
                    # Stud all-in before its last card: shown before the run-out, then again
                    # with every card once the last is dealt (the earlier cards among them).
                    s in dealt_since_show and s in shows and shown is not None
                    and set(shows[s]) < set(shown)):
                raise HistoryError(f"{action.where()}: {setup.player(s)} is already shown or "
                                   f"mucked at {_at(at_showdown[s])}")
            at_showdown[s] = action
            dealt_since_show.discard(s)
            if shown is not None:
                shows[s] = tuple(card for card in shown if card is not None)
        elif action.verb in ("f", "cc", "cbr", "pb", "_allocate", "sd"):
            if action.verb == "f":
                folds.append((action, seat(action)))
            if action.verb == "sd":
                thrown = _parse_dealt(action) if action.argument is not None else []
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
    return _Deal(hole, boards, shows, stand_ins, folds, discards)


def _fill_unknown(
    raw: Mapping[int, list[list[Card | None]]],
    hole: Mapping[int, list[_Dealt]],
    shows: Mapping[int, tuple[Card, ...]],
    boards: Mapping[str, list[_Dealt]],
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


def _at(action: _Action) -> str:
    """``line 31, action 26`` (or ``action 26`` when the line is not known)."""
    return f"{action.line}, action {action.number}" if action.line else f"action {action.number}"


def _check_cards(setup: Setup, deal: _Deal) -> None:
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
                aside[card] = f"board {name} at {_at(dealt.action)}"
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
    held: dict[Card, tuple[int, _Dealt]] = {}
    positions = dict.fromkeys(deal.hole, 0)
    folded_at: dict[int, _Action] = {}
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
                               f"{_at(folded_at[s])} and is dealt no more cards")
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
                               f"{_at(first.action)})")
                elif dealt.redraw:
                    problem = (f"{who} redraws {text}, a card {setup.player(owner)} holds "
                               f"(dealt at {_at(first.action)}); a redraw comes from the pool")
                elif owner == s:
                    problem = f"{text} is dealt twice to {who} (first at {_at(first.action)})"
                else:
                    problem = (f"{text} is dealt to {who} and to {setup.player(owner)} "
                               f"at {_at(first.action)}")
                raise HistoryError(f"{dealt.action.where()}: {problem}")
            held[card] = (s, dealt)


class _HistoryCards:
    """The engine's card source on replay: each dealing action's cards, handed out only where
    and when the engine deals them (between the same two betting actions), a redraw only as a
    whole ``# redraw`` action of exactly the count the engine deals, and nothing left over.

    ``window`` counts the betting and allocation actions applied so far; a dealing action is
    dealt in the window of the actions before it."""

    def __init__(self, setup: Setup, deal: _Deal) -> None:
        self.setup = setup
        self.hole_chunks, self.board_chunks = deal.hole, deal.boards
        self.hole_queues = {s: deque(chunks) for s, chunks in deal.hole.items()}
        self.board_queues = {name: deque(chunks) for name, chunks in deal.boards.items()}
        self.burns = deque(setup.burns) if setup.burns is not None else None
        self.burned = 0
        self.window = 0
        self.after: _Action | None = None  # the betting action of this window (None: the deal)
        self.hand: Hand | None = None  # set once the hand exists (for the redraw errors)
        self.asked: dict[tuple[str, Any], int] = {}  # cards the engine dealt in this window
        self.deferred: tuple[HistoryError, int] | None = None  # cards dealt late, at action N

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

    def _missing(self, what: str, queue: deque[_Dealt]) -> HistoryError:
        later = next((chunk for chunk in queue if chunk.left()), None)
        hint = f" (its next cards for them are at {_at(later.action)})" if later else ""
        return HistoryError(f"{self._anchor()}, the hand deals {what}, and the history deals "
                            f"none there{hint}")

    def _later(self, queue: deque[_Dealt], what: str) -> _Dealt | None:
        """Cards the history deals too late: the next action dealing them, and the error kept
        in ``deferred``. An action between (one too many, say) may be the real fault, so the
        replay goes on and reports whichever fault comes first."""
        later = next((chunk for chunk in queue if chunk.left()), None)
        if later is not None and self.deferred is None:
            self.deferred = (self._missing(what, queue), later.action.number)
        return later

    def _take(self, key: tuple[str, Any], queue: deque[_Dealt], count: int) -> tuple[Card, ...]:
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

    def _chunks(self, key: tuple[str, Any]) -> list[_Dealt]:
        kind, which = key
        found = self.hole_chunks[which] if kind == "hole" else self.board_chunks[which]
        return [chunk for chunk in found if chunk.window == self.window and not chunk.redraw]

    def _first_here(self, key: tuple[str, Any]) -> _Dealt | None:
        here = self._chunks(key)
        return here[0] if here else None

    def _count_error(self, key: tuple[str, Any], first: _Dealt) -> HistoryError:
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

    def advance(self, action: _Action) -> None:
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


def replay(setup: Setup) -> Hand:
    """Play the history's actions through the engine, checking every one and every card.

    Raises ``HistoryError`` naming the line and the action or field at fault.
    """
    count = len(setup.stacks)
    actions = [_parse_action(k + 1, text, setup.lines.action(k + 1))
               for k, text in enumerate(setup.actions)]
    seat_of_label = {f"p{k + 1}": seat for k, seat in enumerate(setup.seat_of)}

    def seat(action: _Action) -> int:
        if action.actor not in seat_of_label:
            raise HistoryError(f"{action.where()}: there is no player {action.actor!r}; the "
                               f"players are p1 to p{count}")
        return seat_of_label[action.actor]

    deal = _read_deal(setup, actions, seat)
    _check_cards(setup, deal)
    _check_shows(setup, deal, actions, seat)
    source = _HistoryCards(setup, deal)
    try:
        hand = Hand(setup.variant, setup.stakes, setup.stacks, setup.button, cards=source,
                    show_requests=set(deal.shows), manual_allocation=True,
                    dead_small_blind=setup.dead_small_blind,
                    big_blind_ante=setup.big_blind_ante)
    except HistoryError:
        raise
    except ValueError as error:
        raise HistoryError(f"the hand cannot start: {error}") from None
    source.hand = hand
    for action in actions:
        if action.verb in ("dh", "db", "sm", ""):
            continue
        if hand.is_over:
            raise _first_fault(source, action, HistoryError(
                f"{action.where()}: the hand is already over"))
        acting = seat(action)
        source.advance(action)
        try:
            if action.verb == "_allocate":
                _allocate(hand, setup, action, acting)
                continue
            if hand.actor != acting:
                raise HistoryError(
                    f"{action.where()}: {setup.player(acting)} acts out of turn; "
                    + (f"{setup.player(hand.actor)} is to act" if hand.actor is not None else
                       "the players allocate now" if hand.is_allocating else
                       "nobody is to act"))
            _apply(hand, action)
        except HistoryError as error:
            raise _first_fault(source, action, error) from None
        except ValueError as error:  # ActionError: the engine names the seat 0-based
            message = re.sub(rf"\bseat {acting}\b", setup.player(acting), str(error))
            raise _first_fault(source, action, HistoryError(f"{action.where()}: {message}"),
                               ) from None
    if source.deferred is not None:
        raise source.deferred[0]
    if not hand.is_over:
        raise HistoryError(
            f"{setup.lines.field('actions')}: the actions end before the hand does"
            + (f" ({setup.player(hand.actor)} is to act)" if hand.actor is not None else
               f" ({', '.join(setup.player(s) for s in hand.allocation_pending)} to allocate)"
               if hand.is_allocating else ""))
    source.finish()
    _check_showdown(hand, setup, deal, actions, seat)
    _check_extensions(hand, setup)
    return hand


def _first_fault(source: _HistoryCards, action: _Action, error: HistoryError) -> HistoryError:
    """``error`` at ``action``, unless cards were dealt late and written only after it."""
    if source.deferred is not None and source.deferred[1] < action.number:
        return source.deferred[0]
    return error


def _apply(hand: Hand, action: _Action) -> None:
    match action.verb:
        case "f":
            hand.fold()
        case "cc":
            if hand.can_check():
                hand.check()
            else:
                hand.call()
        case "pb":
            hand.post_bring_in()
        case "sd":
            thrown = _parse_dealt(action) if action.argument is not None else []
            hand.draw([card for card in thrown if card is not None])
        case "cbr":
            try:
                amount = int(action.argument or "")
            except ValueError:
                raise HistoryError(f"{action.where()}: {action.argument!r} is not a whole "
                                   f"number of chips") from None
            hand.raise_to(amount)


def _allocate(hand: Hand, setup: Setup, action: _Action, seat: int) -> None:
    """A commit of cards the player holds (named by category, never by card)."""
    allocation = _parse_allocation(action)
    held = set(hand.hole[seat])
    for name, text in allocation.items():
        try:
            cards = parse_cards(text)
        except ValueError:
            raise HistoryError(f"{action.where()}: the cards for {name} are not readable card "
                               f"notation") from None
        if not set(cards) <= held:
            raise HistoryError(f"{action.where()}: {setup.player(seat)} allocates to {name} a "
                               f"card it does not hold")
    hand.allocate(seat, allocation)


def _check_shows(setup: Setup, deal: _Deal, actions: Sequence[_Action], seat: Any) -> None:
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


def _held_at_end(deal: _Deal, seat: int) -> list[Card]:
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


def _check_extensions(hand: Hand, setup: Setup) -> None:
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
        actual = {name: _cards(cards) for name, cards in hand.boards.items()}
        if dict(setup.boards) != actual:
            raise HistoryError(f"{setup.lines.field('_boards')}: says {dict(setup.boards)} but "
                               f"the actions deal {actual}")
    if setup.redraws is not None:
        for s in (setup.seat_of[k] for k in players):
            if setup.redraws[s] != hand.redraws[s]:
                raise HistoryError(f"{setup.lines.field('_redraws')}: says {setup.player(s)} "
                                   f"redraws {setup.redraws[s]} cards, the replay deals "
                                   f"{hand.redraws[s]}")
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


def _check_showdown(hand: Hand, setup: Setup, deal: _Deal, actions: Sequence[_Action],
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


def replay_text(text: str) -> Hand:
    """Read and replay a history written as TOML text."""
    return replay(loads(text))
