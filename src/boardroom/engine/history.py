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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import tomli_w

from boardroom.cards import Card, format_cards, parse_cards, remaining_cards
from boardroom.engine import events as ev
from boardroom.engine.betting import Stakes
from boardroom.engine.dealing import ScriptedCards
from boardroom.engine.hand import ActionError, Hand
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
    if stakes.ante and len(variant.boards) <= 1:
        # PHH's flag for RULES.md s.2: an ante nobody matched goes back like any bet (written
        # for the single-board games, the PHH family; the multi-board readers need no flag).
        record["ante_trimming_status"] = True
    if variant.forced_bets is ForcedBets.BLINDS:
        record["blinds_or_straddles"] = [stakes.small_blind, stakes.big_blind] + [0] * (count - 2)
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
    if len(hand.variant.boards) > 1:
        return None
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
    if pending is not None:
        actions.append(f"d dh {label[pending[0]]} {_cards(pending[1])}")
    return actions


def dumps(hand: Hand) -> str:
    """The history of ``hand`` as TOML text."""
    return tomli_w.dumps(to_record(hand))


# -- reading and replaying ------------------------------------------------------------------

_PLAYER = re.compile(r"p([1-9][0-9]*)$")


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


def loads(text: str) -> Setup:
    """Read a history's fields (not yet its actions). Raises ``HistoryError``."""
    try:
        record = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from None
    return setup_of(record)


def _to_seats(values: Sequence[Any], seat_of: tuple[int, ...]) -> list[Any]:
    """A per-player list, from PHH player order (``values[k]`` is player k) to our seats."""
    by_seat: list[Any] = [0] * len(seat_of)
    for k, seat in enumerate(seat_of):
        by_seat[seat] = values[k]
    return by_seat


def _by_seat(
    record: Mapping[str, Any], name: str, seat_of: tuple[int, ...], what: str
) -> tuple[Any, ...] | None:
    """An optional per-player list field, reordered from PHH player order to our seats."""
    if name not in record:
        return None
    raw = _field(record, name, list)
    if len(raw) != len(seat_of):
        raise HistoryError(f"field '{name}' must hold {len(seat_of)} {what}")
    return tuple(_to_seats(raw, seat_of))


def _field(record: Mapping[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    if name not in record:
        if default is ...:
            raise HistoryError(f"field {name!r} is missing")
        return default
    value = record[name]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if kind is list and ok:
        ok = all(isinstance(v, int) and not isinstance(v, bool) for v in value) or name in (
            "actions", "_burns")
    if not ok:
        raise HistoryError(f"field {name!r} has the wrong type ({type(value).__name__})")
    return value


def _variant_of(record: Mapping[str, Any]) -> Variant:
    if "_variant" in record:
        options = dict(_field(record, "_options", dict, {}))
        unknown = set(options) - {"hole_cards", "betting", "bring_in"}
        if unknown:
            raise HistoryError(f"field '_options' has unknown options {sorted(unknown)}")
        try:
            return find_variant(str(record["_variant"])).with_options(**options)
        except ValueError as error:
            raise HistoryError(f"field '_variant': {error}") from None
    code = _field(record, "variant", str)
    if code not in PHH_CODES:
        raise HistoryError(f"field 'variant': Boardroom replays PHH codes "
                           f"{', '.join(PHH_CODES)}, not {code!r}")
    spec = PHH_CODES[code]
    return find_variant(spec.variant).with_options(
        hole_cards=spec.hole_cards, betting=spec.betting, bring_in=spec.bring_in)


def setup_of(record: Mapping[str, Any]) -> Setup:
    variant = _variant_of(record)
    starting = _field(record, "starting_stacks", list)
    count = len(starting)
    antes = _field(record, "antes", list, [0] * count)
    if len(antes) != count or len(set(antes)) > 1:
        raise HistoryError("field 'antes': Boardroom plays one ante for every player "
                           f"({count} players), got {antes}")
    ante = antes[0] if antes else 0
    blinds = (0, 0)
    if variant.forced_bets is ForcedBets.BLINDS:
        raw = _field(record, "blinds_or_straddles", list)
        if len(raw) != count or any(raw[2:]) or len(raw) < 2:
            raise HistoryError(f"field 'blinds_or_straddles': expected a small and a big blind "
                               f"for p1 and p2 and no straddles, got {raw}")
        blinds = (raw[0], raw[1])
    stakes_args: dict[str, int] = {"small_blind": blinds[0], "big_blind": blinds[1],
                                   "ante": ante}
    if variant.is_stud or variant.betting is BettingStructure.FIXED_LIMIT:
        stakes_args["small_bet"] = _field(record, "small_bet", int)
        stakes_args["big_bet"] = _field(record, "big_bet", int)
    else:
        min_bet = _field(record, "min_bet", int, blinds[1])
        if variant.forced_bets is ForcedBets.BLINDS and min_bet != blinds[1]:
            raise HistoryError(f"field 'min_bet': {min_bet} differs from the big blind "
                               f"{blinds[1]}; the minimum bet is the big blind (RULES.md s.2)")
        if variant.forced_bets is not ForcedBets.BLINDS:
            stakes_args["big_blind"] = min_bet
    if variant.is_stud:
        stakes_args["bring_in"] = _field(record, "bring_in", int)
    try:
        stakes = Stakes(**stakes_args)
        stakes.check_for(variant)
    except ValueError as error:
        raise HistoryError(f"stakes: {error}") from None
    seats = _field(record, "seats", list, list(range(1, count + 1)))
    if len(seats) != count or len(set(seats)) != count:
        raise HistoryError(f"field 'seats' must hold {count} different seat numbers")
    clockwise = sorted(seats)
    seat_of = tuple(clockwise.index(number) for number in seats)
    stacks = _to_seats(starting, seat_of)
    finishing = _by_seat(record, "finishing_stacks", seat_of, "stacks")
    actions = _field(record, "actions", list)
    if not all(isinstance(action, str) for action in actions):
        raise HistoryError("field 'actions' must be a list of strings")
    burns = None
    if "_burns" in record:
        try:
            burns = parse_cards(" ".join(_field(record, "_burns", list)))
        except ValueError as error:
            raise HistoryError(f"field '_burns': {error}") from None
    boards = record.get("_boards")
    if boards is not None and not (isinstance(boards, dict) and all(
            isinstance(v, str) for v in boards.values())):
        raise HistoryError("field '_boards' must map board names to cards")
    redraws = _by_seat(record, "_redraws", seat_of, "counts")
    points = record.get("_points")
    if points is not None and not (isinstance(points, list) and all(
            isinstance(pot, dict) for pot in points)):
        raise HistoryError("field '_points' must be a list of tables, one per pot")
    return Setup(variant, stakes, tuple(stacks), seat_of[-1], seat_of, tuple(actions), burns,
                 finishing, boards, redraws, tuple(points) if points is not None else None)


@dataclass(frozen=True)
class _Action:
    number: int  # 1-based position in the actions list
    text: str
    actor: str  # "d" or "pK"
    verb: str
    argument: str | None
    comment: str | None

    def where(self) -> str:
        return f"action {self.number} ({self.text!r})"


def _parse_action(number: int, text: str) -> _Action:
    body, _, comment = text.partition("#")
    words = body.split()
    if not words:
        return _Action(number, text, "", "", None, comment.strip() or None)
    if words[0] == "d" and len(words) >= 3 and words[1] in ("dh", "db"):
        if words[1] == "dh" and len(words) == 4:
            return _Action(number, text, words[2], "dh", words[3], comment.strip() or None)
        if words[1] == "db" and len(words) == 3:
            return _Action(number, text, "d", "db", words[2], comment.strip() or None)
    elif _PLAYER.match(words[0]) and len(words) >= 2:
        verb, rest = words[1], words[2:]
        if (verb in ("f", "cc", "pb") and not rest) or (verb == "cbr" and len(rest) == 1) or (
            verb == "sm" and len(rest) <= 1
        ):
            return _Action(number, text, words[0], verb, rest[0] if rest else None,
                           comment.strip() or None)
        if verb == "_allocate" and rest:
            return _Action(number, text, words[0], verb, " ".join(rest), comment.strip() or None)
    raise HistoryError(f"action {number} ({text!r}) is not an action Boardroom replays "
                       f"(d dh pN CARDS, d db CARDS, pN f|cc|cbr AMOUNT|pb|sm [CARDS], "
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
    for k in range(0, len(text), 2):
        token = text[k:k + 2]
        if token == "??":
            cards.append(None)
        else:
            try:
                cards.append(parse_cards(token)[0])
            except (ValueError, IndexError):
                raise HistoryError(f"{action.where()}: {token!r} is not a card") from None
    if len(text) % 2:
        raise HistoryError(f"{action.where()}: {text!r} is not a list of cards")
    return cards


def replay(setup: Setup) -> Hand:
    """Play the history's actions through the engine, checking every one.

    Raises ``HistoryError`` naming the action at fault.
    """
    variant, count = setup.variant, len(setup.stacks)
    actions = [_parse_action(k + 1, text) for k, text in enumerate(setup.actions)]
    seat_of_label = {f"p{k + 1}": seat for k, seat in enumerate(setup.seat_of)}

    def seat(action: _Action) -> int:
        if action.actor not in seat_of_label:
            raise HistoryError(f"{action.where()}: there is no player {action.actor} "
                               f"({count} players)")
        return seat_of_label[action.actor]

    hole: dict[int, list[Card | None]] = {s: [] for s in range(count)}
    boards: dict[str, list[Card]] = {board.name: [] for board in variant.boards}
    shows: dict[int, tuple[Card, ...]] = {}
    for action in actions:
        if action.verb == "dh":
            hole[seat(action)].extend(_parse_dealt(action))
        elif action.verb == "db":
            name = variant.boards[0].name if variant.boards else ""
            if action.comment and action.comment.startswith("board "):
                name = action.comment.removeprefix("board ").strip()
            if name not in boards:
                raise HistoryError(f"{action.where()}: {variant.name} has no board {name!r}")
            dealt = _parse_dealt(action)
            if None in dealt:
                raise HistoryError(f"{action.where()}: board cards must be written out")
            boards[name].extend(card for card in dealt if card is not None)
        elif action.verb == "sm" and action.argument not in (None, "-"):
            shown = _parse_dealt(action)
            if None in shown:
                raise HistoryError(f"{action.where()}: shown cards must be written out")
            shows[seat(action)] = tuple(card for card in shown if card is not None)
    complete = _fill_unknown(hole, shows, boards, setup.burns)
    for s, cards in shows.items():
        if variant.has_allocation:
            # Only the allocated cards are shown; discards never are (RULES.md s.3).
            if not set(cards) <= set(complete[s]):
                raise HistoryError(f"player {setup.seat_of.index(s) + 1} shows cards it was "
                                   f"not dealt")
        elif sorted(cards) != sorted(card for card in complete[s]):
            raise HistoryError(f"player {setup.seat_of.index(s) + 1} shows "
                               f"{format_cards(cards)} but was dealt {format_cards(complete[s])}")
    unknown = {s for s, cards in hole.items() if None in cards and s not in shows}
    try:
        hand = Hand(variant, setup.stakes, setup.stacks, setup.button,
                    cards=ScriptedCards(complete, boards, setup.burns), show_requests=set(shows),
                    manual_allocation=True)
    except ValueError as error:
        raise HistoryError(f"the hand cannot start: {error}") from None
    label = {s: lab for lab, s in seat_of_label.items()}
    for action in actions:
        if action.verb in ("dh", "db", "sm", ""):
            continue
        if hand.is_over:
            raise HistoryError(f"{action.where()}: the hand is already over")
        if action.verb == "_allocate":
            try:
                hand.allocate(seat(action), _parse_allocation(action))
            except ValueError as error:
                raise HistoryError(f"{action.where()}: {error}") from None
            continue
        acting = seat(action)
        if hand.actor != acting:
            raise HistoryError(f"{action.where()}: it is {label[hand.actor]}'s turn, not "
                               f"{action.actor}'s" if hand.actor is not None else
                               f"{action.where()}: nobody is to act")
        try:
            _apply(hand, action)
        except ActionError as error:
            raise HistoryError(f"{action.where()}: {error}") from None
        except ValueError as error:  # a card source running dry, a bad amount
            raise HistoryError(f"{action.where()}: {error}") from None
    if not hand.is_over:
        raise HistoryError(f"the actions end before the hand does ({label[hand.actor]} to act)"
                           if hand.actor is not None else "the actions end before the hand does")
    _check_showdown(hand, actions, seat, unknown)
    _check_extensions(hand, setup, label)
    if setup.finishing_stacks is not None and tuple(hand.stacks) != setup.finishing_stacks:
        raise HistoryError(f"field 'finishing_stacks' says {list(setup.finishing_stacks)} "
                           f"but the replay ends with {hand.stacks} (by seat)")
    return hand


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
        case "cbr":
            try:
                amount = int(action.argument or "")
            except ValueError:
                raise HistoryError(f"{action.where()}: {action.argument!r} is not a whole "
                                   f"number of chips") from None
            hand.raise_to(amount)


def _check_extensions(hand: Hand, setup: Setup, label: Mapping[int, str]) -> None:
    """``_boards``, ``_redraws`` and ``_points``, when present, must match the replay."""
    if setup.boards is not None:
        actual = {name: _cards(cards) for name, cards in hand.boards.items()}
        if dict(setup.boards) != actual:
            raise HistoryError(f"field '_boards' says {dict(setup.boards)} but the actions "
                               f"deal {actual}")
    if setup.redraws is not None and setup.redraws != tuple(hand.redraws):
        raise HistoryError(f"field '_redraws' says {list(setup.redraws)} but the replay deals "
                           f"{hand.redraws} (by seat)")
    if setup.points is not None:
        actual_points = [{label[s]: p for s, p in result.points.items()}
                         for result in hand.results]
        try:
            written = [{k: Fraction(str(v)) for k, v in pot.items()} for pot in setup.points]
        except (ValueError, ZeroDivisionError):
            raise HistoryError("field '_points' holds a value that is not a fraction") from None
        if written != actual_points:
            shown = [{k: str(v) for k, v in pot.items()} for pot in actual_points]
            raise HistoryError(f"field '_points' says {list(setup.points)} but the replay "
                               f"scores {shown}")


def _check_showdown(hand: Hand, actions: Sequence[_Action], seat: Any, unknown: set[int]) -> None:
    winners = {s for result in hand.results for s in result.shares}
    for action in actions:
        if action.verb != "sm":
            continue
        s = seat(action)
        if action.argument is None and s in winners and hand.shown.get(s):
            raise HistoryError(f"{action.where()}: this hand wins part of the pot and is shown "
                               f"(winners are always shown, RULES.md s.4)")
        if s not in hand.shown:
            raise HistoryError(f"{action.where()}: {action.actor} has no hand at showdown")
    for s in unknown:
        if hand.shown.get(s):
            raise HistoryError(f"the hole cards of seat {s + 1} are not written out but the "
                               f"hand goes to showdown; Boardroom needs every dealt card")


def _fill_unknown(
    hole: Mapping[int, list[Card | None]],
    shows: Mapping[int, tuple[Card, ...]],
    boards: Mapping[str, list[Card]],
    burns: Sequence[Card] | None,
) -> dict[int, list[Card]]:
    """Hole cards with every ``??`` replaced: by the cards shown later, else by unused cards."""
    known = [c for cards in hole.values() for c in cards if c is not None]
    known += [c for cards in boards.values() for c in cards] + list(burns or ())
    known += [c for cards in shows.values() for c in cards]
    # In redraw games a folded hand is recycled into the pool and its cards may be dealt again,
    # so unseen cards can outnumber the unused ones: the stand-ins then repeat (a folded hand's
    # cards are never evaluated, and the replay does not require distinct cards).
    spare = itertools.cycle(remaining_cards(set(known)) or list(range(52)))
    filled: dict[int, list[Card]] = {}
    for s, cards in hole.items():
        shown = [c for c in shows.get(s, ()) if c not in cards]
        out: list[Card] = []
        for card in cards:
            if card is not None:
                out.append(card)
            elif shown:
                out.append(shown.pop(0))
            else:
                out.append(next(spare))
        filled[s] = out
    return filled


def replay_text(text: str) -> Hand:
    """Read and replay a history written as TOML text."""
    return replay(loads(text))
