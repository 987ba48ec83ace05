"""PHH (the Poker Hand History format, uoftcprg/phh-std) as Boardroom writes and reads it: the
variant codes, card text, and the action grammar, each line parsed into an action value
(``engine.actions``) and each action value printed as a line.

Players ``p1..pn`` are the seats clockwise from the button's left. A player's line is ``pK f``
(fold), ``pK cc`` (check or call), ``pK cbr AMOUNT`` (complete, bet or raise to), ``pK pb``
(bring-in), ``pK sd [CARDS]`` (the draw), ``pK sm [CARDS]`` (show or muck) and Boardroom's
``pK _allocate CATEGORY:CARDS ...``; the dealer's are ``d dh pK CARDS`` and ``d db CARDS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from boardroom.cards import Card, format_cards, parse_cards
from boardroom.engine.actions import (
    Action,
    Allocate,
    AllocateBest,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    ChooseRuns,
    Complete,
    Draw,
    Fold,
    RaiseTo,
)
from boardroom.engine.errors import ActionError
from boardroom.rules import BettingStructure, Variant
from boardroom.rules import BringIn as BringInRule


class HistoryError(ValueError):
    """A history that cannot be read or does not replay: names the field or action at fault."""


@dataclass(frozen=True)
class _Code:
    variant: str
    hole_cards: int
    betting: BettingStructure
    bring_in: BringInRule | None = None


PHH_CODES: dict[str, _Code] = {
    "PO": _Code("plo", 4, BettingStructure.POT_LIMIT),
    "FO/8": _Code("omaha-hilo", 4, BettingStructure.FIXED_LIMIT),
    "F7S/8": _Code("stud-hilo", 7, BettingStructure.FIXED_LIMIT, BringInRule.LOWEST),
    "NT": _Code("holdem", 2, BettingStructure.NO_LIMIT),
    "FT": _Code("holdem", 2, BettingStructure.FIXED_LIMIT),
    "F7S": _Code("stud", 7, BettingStructure.FIXED_LIMIT, BringInRule.LOWEST),
    "FR": _Code("razz", 7, BettingStructure.FIXED_LIMIT, BringInRule.HIGHEST_ACE_LOW),
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


def variant_options(variant: Variant) -> dict[str, Any]:
    options: dict[str, Any] = {"hole_cards": variant.hole_cards, "betting": variant.betting.value}
    if variant.bring_in is not None:
        options["bring_in"] = variant.bring_in.value
    return options


def cards_text(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else format_cards([card]) for card in cards)


# -- writing --------------------------------------------------------------------------------


_PLAYER = re.compile(r"p([1-9][0-9]*)$")


@dataclass(frozen=True)
class Line:
    number: int  # 1-based position in the actions list
    text: str
    actor: str  # "d" or "pK"
    verb: str
    argument: str | None
    comment: str | None
    line: str = ""  # "line 31", when known
    action: Action | None = None  # a player's action (not a show), as a value

    def where(self) -> str:
        at = f"action {self.number} ({self.text!r})"
        return f"{self.line}: {at}" if self.line else at

    def at(self) -> str:
        """``line 31, action 26`` (or ``action 26`` when the line is not known)."""
        return f"{self.line}, action {self.number}" if self.line else f"action {self.number}"


def parse_line(number: int, text: str, line: str = "") -> Line:
    body, _, comment = text.partition("#")
    words = body.split()
    note = comment.strip() or None
    if not words:
        return Line(number, text, "", "", None, note, line)
    if words[0] == "d" and len(words) >= 3 and words[1] in ("dh", "db"):
        if words[1] == "dh" and len(words) == 4:
            return Line(number, text, words[2], "dh", words[3], note, line)
        if words[1] == "db" and len(words) == 3:
            return Line(number, text, "d", "db", words[2], note, line)
    elif _PLAYER.match(words[0]) and len(words) >= 2:
        verb, rest = words[1], words[2:]
        if (verb in ("f", "cc", "pb") and not rest) or (verb == "cbr" and len(rest) == 1) or (
            verb in ("sm", "sd") and len(rest) <= 1
        ):
            parsed = Line(number, text, words[0], verb, rest[0] if rest else None, note, line)
            return _with_action(parsed)
        if verb == "_allocate" and rest:
            return _with_action(Line(number, text, words[0], verb, " ".join(rest), note, line))
    where = Line(number, text, "", "", None, None, line).where()
    raise HistoryError(f"{where} is not an action Boardroom replays (d dh pN CARDS, "
                       f"d db CARDS, pN f|cc|cbr AMOUNT|pb|sm [CARDS]|sd [CARDS], "
                       f"pN _allocate CATEGORY:CARDS ...)")


_NO_ARGUMENT: dict[str, Action] = {"f": Fold(), "cc": CheckOrCall(), "pb": BringIn()}


def _with_action(line: Line) -> Line:
    """``line`` with its player's action parsed into a value (none for a show or muck, or for
    a draw whose cards are not all written out: the strict reader names that fault)."""
    verb, argument = line.verb, line.argument
    action: Action | None = _NO_ARGUMENT.get(verb)
    if verb == "cbr":
        try:
            action = RaiseTo(int(argument or ""))
        except ValueError:
            raise HistoryError(f"{line.where()}: {argument!r} is not a whole number of "
                               f"chips") from None
    elif verb == "sd":
        thrown = parse_dealt(line) if argument is not None else []
        if None not in thrown:
            action = Draw(tuple(card for card in thrown if card is not None))
    elif verb == "_allocate":
        allocation: dict[str, str] = {}
        for part in (argument or "").split():
            name, colon, cards = part.partition(":")
            if not colon or not name or name in allocation:
                raise HistoryError(f"{line.where()}: expected CATEGORY:CARDS for each category")
            allocation[name] = cards
        try:
            action = Allocate.of(allocation)
        except ActionError as error:
            raise HistoryError(f"{line.where()}: {error}") from None
    return Line(line.number, line.text, line.actor, verb, argument, line.comment, line.line,
                action)


def action_line(label: str, action: Action) -> str:
    """The PHH line of ``label``'s ``action`` (``p2 cbr 12``). A completion and the timeout's
    allocation are written as what they did: the raise (``cbr``) and the cards committed."""
    match action:
        case Fold():
            return f"{label} f"
        case Check() | Call() | CheckOrCall():
            return f"{label} cc"
        case RaiseTo(amount):
            return f"{label} cbr {amount}"
        case BringIn():
            return f"{label} pb"
        case Draw(discards):
            return draw_line(label, discards)
        case Allocate(categories):
            parts = " ".join(f"{name}:{cards_text(cards)}" for name, cards in categories)
            return f"{label} _allocate {parts}"
        case Complete() | AllocateBest():
            raise ActionError(f"a history writes {action.name.replace('_', ' ')} as what it "
                              f"did: the raise, or the cards committed")
        case ChooseRuns():
            raise ActionError("a history writes the runs chosen in its _runs table")


def draw_line(label: str, discards: Iterable[Card | None]) -> str:
    """``pK sd CARDS`` (a viewer's history writes another player's discards ``??``)."""
    text = cards_text(discards)
    return f"{label} sd {text}" if text else f"{label} sd"


def parse_dealt(action: Line) -> list[Card | None]:
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


