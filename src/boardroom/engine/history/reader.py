"""Reading a history's fields: TOML checked field by field into a ``Setup`` (the hand before its
actions), every error naming the field and its line.

A history is trusted in nothing: every field is checked for its type and its sense, every card
for having been dealable (never twice, never a board's or a burn's card in a hand, a redraw
only from the pool), every dealt card for being dealt where and when the engine deals it (the
redraw counts street by street, no card left over), and every action by the engine. Errors
name the line of the file, and players one way: ``player "bob" (seat 3)``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardroom.cards import Card, parse_cards
from boardroom.engine.betting import Stakes
from boardroom.engine.history.phh import PHH_CODES, HistoryError, parse_line
from boardroom.rules import BettingStructure, ForcedBets, Variant, find_variant

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
class RunDeal:
    """The cards of one run after the first, as ``_runs.runs`` writes them."""

    hole: Mapping[int, tuple[Card, ...]]  # by seat
    boards: Mapping[str, tuple[Card, ...]]
    burns: tuple[Card, ...]


@dataclass(frozen=True)
class RunsRecord:
    """``_runs``: the room offered runs; each seat's answer and whose clock ran out."""

    choices: Mapping[int, int] | None  # by seat (None: no offer was made)
    timeouts: tuple[int, ...]  # seats
    deals: tuple[RunDeal, ...]  # runs 2..
    awards: tuple[Mapping[str, Any], ...] | None = None  # ``awards``, checked on replay


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
    straddle: str | None = None  # a straddle in ``blinds_or_straddles``: "utg" or "button"
    runs: RunsRecord | None = None  # ``_runs``: running it more than once (engine.runs)

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


def _stakes_of(fields: _Fields, variant: Variant,
               count: int) -> tuple[Stakes, bool, bool, str | None]:
    """The stakes, the tournament hooks (a dead small blind, a big-blind ante) and the
    straddle (engine.straddle: twice the big blind, from p3 or from the button)."""
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
    straddle: str | None = None
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
            straddles = [k for k in range(2, len(raw)) if raw[k]]
            if len(raw) != count or len(straddles) > 1 or (straddles and (
                    straddles[0] not in (2, count - 1) or raw[straddles[0]] != 2 * raw[1])):
                raise fields.fail("blinds_or_straddles", f"expected a small and a big blind "
                                  f"for p1 and p2 and at most one straddle of twice the big "
                                  f"blind, from p3 or from the button ({count} values), "
                                  f"got {raw}")
            blinds = (raw[0], raw[1])
            if straddles:
                straddle = "utg" if straddles[0] == 2 else "button"
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
    return stakes, dead, big_blind_ante, straddle


def setup_of(record: Mapping[str, Any], lines: Lines = NO_LINES) -> Setup:
    """The ``Setup`` of a parsed history (``lines`` locates its fields for the errors)."""
    fields = _Fields(record, lines)
    variant = _variant_of(fields)
    starting = fields.ints("starting_stacks", None, "a whole number of chips")
    count = len(starting)
    if not 2 <= count <= variant.max_players:
        raise fields.fail("starting_stacks", f"{variant.name} with {variant.hole_cards} hole "
                          f"cards deals 2 to {variant.max_players} players, not {count}")
    stakes, dead_small_blind, big_blind_ante, straddle = _stakes_of(fields, variant, count)
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
    runs = _runs_of(fields, variant, seat_of) if "_runs" in record else None
    return Setup(variant, stakes, tuple(_to_seats(starting, seat_of)), seat_of[-1], seat_of,
                 tuple(actions), burns, finishing, boards, redraws,
                 tuple(points) if points is not None else None, tuple(names), tuple(seats),
                 lines, dead_small_blind, big_blind_ante, straddle, runs)


def _runs_of(fields: _Fields, variant: Variant, seat_of: tuple[int, ...]) -> RunsRecord:
    """``_runs = {offered = true, choices = [..], timeouts = ["p2"], runs = [{actions, burns}]}``
    read strictly: every fault names the field."""
    table: dict[str, Any] = fields.get("_runs", dict)
    count = len(seat_of)
    unknown = set(table) - {"offered", "choices", "timeouts", "runs", "awards"}
    if unknown or table.get("offered") is not True:
        raise fields.fail("_runs", "must be a table with offered = true and, once the runs "
                          "were offered, choices, timeouts, runs and awards")
    awards = table.get("awards")
    if awards is not None and (not isinstance(awards, list) or not all(
            isinstance(award, dict) and set(award) == {"run", "pot", "amount", "shares"}
            and isinstance(award["shares"], dict) for award in awards)):
        raise fields.fail("_runs", "awards must list tables of run, pot, amount and shares "
                          "(the chips each winner took, by player label)")
    labels = {f"p{k + 1}": seat_of[k] for k in range(count)}
    choices = None
    if "choices" in table:
        raw = table["choices"]
        if not isinstance(raw, list) or len(raw) != count or not all(
                _is_int(c) and 0 <= c <= 3 for c in raw):
            raise fields.fail("_runs", f"choices must hold {count} numbers of runs (1 to 3, "
                              f"0 for a player not asked), one per player")
        choices = {seat_of[k]: c for k, c in enumerate(raw) if c}
    timeouts = table.get("timeouts", [])
    if not isinstance(timeouts, list) or not all(t in labels for t in timeouts):
        raise fields.fail("_runs", "timeouts must list player labels (p1, p2, ...)")
    deals = []
    for number, run in enumerate(table.get("runs", []), 2):
        if not isinstance(run, dict) or set(run) != {"actions", "burns"} or not all(
                isinstance(run[key], list) and all(isinstance(x, str) for x in run[key])
                for key in run):
            raise fields.fail("_runs", f"run {number} must be a table of actions and burns, "
                              f"each a list of strings")
        hole: dict[int, list[Card]] = {}
        boards: dict[str, list[Card]] = {}
        for k, text in enumerate(run["actions"], 1):
            line = parse_line(k, text)
            where = f"run {number}, action {k} ({text!r})"
            try:
                cards = parse_cards(line.argument or "")
            except ValueError as error:
                raise fields.fail("_runs", f"{where}: {error}") from None
            if line.verb == "db":
                name = (line.comment or "").removeprefix("board ").strip() or \
                    variant.boards[0].name
                if name not in {board.name for board in variant.boards}:
                    raise fields.fail("_runs", f"{where}: {variant.name} has no board {name!r}")
                boards.setdefault(name, []).extend(cards)
            elif line.verb == "dh" and line.actor in labels:
                hole.setdefault(labels[line.actor], []).extend(cards)
            else:
                raise fields.fail("_runs", f"{where}: a run deals only board cards (d db) and "
                                  f"redraws (d dh pN CARDS # redraw)")
        try:
            burns = tuple(parse_cards(run["burns"]))
        except ValueError as error:
            raise fields.fail("_runs", f"run {number}'s burns: {error}") from None
        deals.append(RunDeal({s: tuple(c) for s, c in hole.items()},
                             {b: tuple(c) for b, c in boards.items()}, burns))
    return RunsRecord(choices, tuple(labels[t] for t in timeouts), tuple(deals),
                      tuple(awards) if awards is not None else None)

