"""The wire: every message of the real-time protocol as a named type (docs/protocol.md).

A client sends commands (the socket.io event ``command``) and gets an answer back as its
acknowledgement; the server pushes ``update`` (a change's events and the audience's view after
them), ``host`` (a new host secret, to the new host only) and ``error`` (an event other than
``command`` was sent). Each is a TypedDict here, and ``schema()`` is the JSON Schema of them all
(pydantic's, draft 2020-12), served at ``GET /api/protocol.schema.json``.

TypedDicts, not models: the server builds plain dicts, and pushes as JSON text composed from
parts encoded once (``encode.dumps_shared``); a TypedDict costs nothing at run time, so the hot
path is as fast as before. Commands coming in are validated by pydantic against these types
(strict: no coercion, no argument a command does not take) in ``protocol.parse``.

Every object is closed (``additionalProperties: false``): a field the types do not name fails
validation, in the server tests and the browser tests alike, so the wire cannot drift from this
module unnoticed. Cards are written as in the rule book (``"As"``); a card the viewer may not see
is ``null``. Points are exact fractions written as text (``"1/2"``). A seat is the table's
number for it everywhere (0 to ``max_seats - 1``): in table events, hand events, hand views and
histories alike, so no client translates one numbering into another.
"""

from __future__ import annotations

import functools
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,  # pydantic needs these before 3.12
    get_args,
    get_type_hints,
)

from pydantic import ConfigDict, Field, StringConstraints, TypeAdapter, with_config
from typing_extensions import TypedDict

MAX_ID = 40  # characters of a command id

# Every error answer carries one of these codes beside its message: a client chooses what to
# do by the code, never by the text (which may change). docs/protocol.md lists them.
ERROR_CODES: dict[str, str] = {
    "bad_command": "the command is not well formed: unknown type, missing or wrong argument",
    "rate_limited": "the connection sent more than the rate allows",
    "not_joined": "the command needs a room joined first",
    "no_room": "the room does not exist (or no longer)",
    "bad_seat_token": "the seat token is malformed, forged, for another room or out of date",
    "bad_host_secret": "the host secret is wrong",
    "bad_name": "the name is empty, too long or not printable",
    "refused": "the table's rules or state do not allow it now (the message says why)",
    "busy": "the room's queue is full: try again in a moment",
    "unavailable": "the room is not running or the server is shutting down",
    "not_saved": "the change could not be stored, so it did not happen: try again",
    "server_error": "the server failed to apply the command; the table was reloaded",
    "unknown_event": "a socket.io event other than 'command' was sent",
    "tournament_table": "a cash game's command sent to a tournament's table, where the "
                        "director seats players and sets their chips",
}
ErrorCode = Literal["bad_command", "rate_limited", "not_joined", "no_room", "bad_seat_token",
                    "bad_host_secret", "bad_name", "refused", "busy", "unavailable", "not_saved",
                    "server_error", "unknown_event", "tournament_table"]
assert set(get_args(ErrorCode)) == set(ERROR_CODES)

# Closed objects; strict, so that a command's "seat": "2" or "seat": true is refused, not coerced.
CLOSED = ConfigDict(extra="forbid", strict=True)

Card = Annotated[str, StringConstraints(pattern=r"^[2-9TJQKA][cdhs]$")]
Fraction = Annotated[str, StringConstraints(pattern=r"^-?[0-9]+(/[0-9]+)?$")]
CommandId = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID)]
Role = Literal["player", "spectator"]
Options = dict[str, int | str]  # a game's options: hole_cards, betting, bring_in_rule
Allocation = dict[str, list[Card]]  # category (or "Hand") -> cards
SeatMap = dict[str, int]  # table seat (as text: JSON keys are strings) -> chips


# -- commands: client -> server --------------------------------------------------------------

# Who may send each command is protocol.COMMANDS'; what it takes is its type here. An argument
# left out or null is absent.

@with_config(CLOSED)
class Join(TypedDict):
    id: CommandId
    type: Literal["join"]
    room: str
    role: NotRequired[str | None]  # "player" (the default) or "spectator": the room says why not
    token: NotRequired[str | None]
    host_secret: NotRequired[str | None]
    name: NotRequired[str | None]


@with_config(CLOSED)
class SnapshotCommand(TypedDict):
    id: CommandId
    type: Literal["snapshot"]


@with_config(CLOSED)
class Sit(TypedDict):
    id: CommandId
    type: Literal["sit"]
    seat: int
    name: str


@with_config(CLOSED)
class Leave(TypedDict):
    id: CommandId
    type: Literal["leave"]


@with_config(CLOSED)
class SitOut(TypedDict):
    id: CommandId
    type: Literal["sit_out"]


@with_config(CLOSED)
class SitIn(TypedDict):
    id: CommandId
    type: Literal["sit_in"]


@with_config(CLOSED)
class Rebuy(TypedDict):
    id: CommandId
    type: Literal["rebuy"]
    amount: int


@with_config(CLOSED)
class Act(TypedDict):
    id: CommandId
    type: Literal["act"]
    action: str  # fold, check, call, raise, bring_in, draw (the table names a wrong one)
    amount: NotRequired[int | None]
    cards: NotRequired[str | None]  # draw: the cards thrown, "As Kd" ("" stands pat)


@with_config(CLOSED)
class Allocate(TypedDict):
    id: CommandId
    type: Literal["allocate"]
    cards: dict[str, Any]  # category -> "As Kd" or ["As", "Kd"] (the table checks the cards)


@with_config(CLOSED)
class ChooseRunsCommand(TypedDict):
    """An all-in player's answer to running it more than once: 1 (once), 2 or 3."""

    id: CommandId
    type: Literal["runs"]
    runs: int


@with_config(CLOSED)
class StraddleCommand(TypedDict):
    """A seated player's own straddle: on, post one the next time the seat is in a straddle
    position the host allows; off, take the choice back."""

    id: CommandId
    type: Literal["straddle"]
    on: bool


@with_config(CLOSED)
class Suggest(TypedDict):
    id: CommandId
    type: Literal["suggest"]


@with_config(CLOSED)
class Pick(TypedDict):
    id: CommandId
    type: Literal["pick"]
    game: str
    options: NotRequired[dict[str, Any] | None]


@with_config(CLOSED)
class Show(TypedDict):
    id: CommandId
    type: Literal["show"]
    cards: str


@with_config(CLOSED)
class Rabbit(TypedDict):
    id: CommandId
    type: Literal["rabbit"]


@with_config(CLOSED)
class Seed(TypedDict):
    id: CommandId
    type: Literal["seed"]
    hand_no: int
    seed: str


@with_config(CLOSED)
class Chat(TypedDict):
    id: CommandId
    type: Literal["chat"]
    text: str


@with_config(CLOSED)
class Approve(TypedDict):
    id: CommandId
    type: Literal["approve"]
    seat: int


@with_config(CLOSED)
class ApproveRebuy(TypedDict):
    id: CommandId
    type: Literal["approve_rebuy"]
    seat: int


@with_config(CLOSED)
class Kick(TypedDict):
    id: CommandId
    type: Literal["kick"]
    seat: int


@with_config(CLOSED)
class SetStack(TypedDict):
    id: CommandId
    type: Literal["set_stack"]
    seat: int
    amount: int


@with_config(CLOSED)
class Pause(TypedDict):
    id: CommandId
    type: Literal["pause"]


@with_config(CLOSED)
class Resume(TypedDict):
    id: CommandId
    type: Literal["resume"]


@with_config(CLOSED)
class DealNow(TypedDict):
    id: CommandId
    type: Literal["deal_now"]


@with_config(CLOSED)
class TransferHost(TypedDict):
    id: CommandId
    type: Literal["transfer_host"]
    seat: int


@with_config(CLOSED)
class Close(TypedDict):
    id: CommandId
    type: Literal["close"]


@with_config(CLOSED)
class AddBot(TypedDict):
    id: CommandId
    type: Literal["add_bot"]
    style: str
    seat: NotRequired[int | None]
    name: NotRequired[str | None]


@with_config(CLOSED)
class RemoveBot(TypedDict):
    id: CommandId
    type: Literal["remove_bot"]
    seat: int


COMMAND_TYPES: tuple[type, ...] = (
    Join, SnapshotCommand, Sit, Leave, SitOut, SitIn, Rebuy, Act, Allocate, ChooseRunsCommand,
    StraddleCommand, Suggest, Pick, Show, Rabbit, Seed, Chat, Approve, ApproveRebuy, Kick,
    SetStack, Pause, Resume, DealNow, TransferHost, Close, AddBot, RemoveBot)


def command_type_of(kind: type) -> str:
    """The ``type`` a command TypedDict stands for (``Sit`` -> ``"sit"``)."""
    name: str = get_args(get_type_hints(kind)["type"])[0]
    return name


COMMAND_BY_TYPE: dict[str, type] = {command_type_of(kind): kind for kind in COMMAND_TYPES}


# -- answers: server -> client, as the acknowledgement of a command ---------------------------

@with_config(CLOSED)
class ErrorAnswer(TypedDict):
    id: str | None  # None: the command had no usable id
    ok: Literal[False]
    code: ErrorCode
    error: str  # words for a person (which may be reworded): choose by ``code``
    duplicate: NotRequired[bool]


@with_config(CLOSED)
class Done(TypedDict):
    """The answer to a command applied (or answered) that says nothing more."""

    id: str
    ok: Literal[True]
    version: int
    duplicate: NotRequired[bool]  # a retry (the same id): the first answer again


@with_config(CLOSED)
class You(TypedDict):
    room: str | None
    role: Role
    seat: int | None
    host: bool


@with_config(CLOSED)
class JoinAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    you: You
    snapshot: Snapshot


@with_config(CLOSED)
class SnapshotAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    snapshot: Snapshot


@with_config(CLOSED)
class SitAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    seat: int
    token: str  # the seat token: keep it to reconnect
    duplicate: NotRequired[bool]


@with_config(CLOSED)
class SuggestAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    suggestion: Allocation


@with_config(CLOSED)
class AddBotAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    seat: int
    name: str
    style: str
    duplicate: NotRequired[bool]


@with_config(CLOSED)
class RemoveBotAnswer(TypedDict):
    id: str
    ok: Literal[True]
    version: int
    seat: int
    duplicate: NotRequired[bool]


Answer = (ErrorAnswer | Done | JoinAnswer | SnapshotAnswer | SitAnswer | SuggestAnswer
          | AddBotAnswer | RemoveBotAnswer)


# -- the engine's hand events, as every viewer gets them (``type`` names the event) ---------

@with_config(CLOSED)
class AntePosted(TypedDict):
    type: Literal["AntePosted"]
    seat: int
    amount: int


@with_config(CLOSED)
class BlindPosted(TypedDict):
    type: Literal["BlindPosted"]
    seat: int
    amount: int
    blind: Literal["small", "big", "straddle"]


@with_config(CLOSED)
class StreetStarted(TypedDict):
    type: Literal["StreetStarted"]
    street: str


@with_config(CLOSED)
class CardBurned(TypedDict):
    type: Literal["CardBurned"]
    card: Card | None  # always null on the wire: burned cards are never shown


@with_config(CLOSED)
class BoardDealt(TypedDict):
    type: Literal["BoardDealt"]
    board: str
    cards: list[Card]


@with_config(CLOSED)
class HoleDealt(TypedDict):
    type: Literal["HoleDealt"]
    seat: int
    cards: list[Card | None]  # null for every viewer but the owner (stud's up cards: all)
    up: list[bool]


@with_config(CLOSED)
class BringInPosted(TypedDict):
    type: Literal["BringInPosted"]
    seat: int
    amount: int


@with_config(CLOSED)
class Folded(TypedDict):
    type: Literal["Folded"]
    seat: int


@with_config(CLOSED)
class Checked(TypedDict):
    type: Literal["Checked"]
    seat: int


@with_config(CLOSED)
class Called(TypedDict):
    type: Literal["Called"]
    seat: int
    amount: int


@with_config(CLOSED)
class RaisedTo(TypedDict):
    type: Literal["RaisedTo"]
    seat: int
    amount: int
    full: bool


@with_config(CLOSED)
class UncalledReturned(TypedDict):
    type: Literal["UncalledReturned"]
    seat: int
    amount: int


@with_config(CLOSED)
class HandShown(TypedDict):
    type: Literal["HandShown"]
    seat: int
    cards: list[Card]


@with_config(CLOSED)
class HandMucked(TypedDict):
    type: Literal["HandMucked"]
    seat: int


@with_config(CLOSED)
class PotAwarded(TypedDict):
    type: Literal["PotAwarded"]
    index: int
    amount: int
    eligible: list[int]
    shares: list[tuple[int, int]]  # (seat, chips)
    showdown: bool
    run: int  # the run whose share of the pot this is; 1 for a hand run once


@with_config(CLOSED)
class HandEnded(TypedDict):
    type: Literal["HandEnded"]
    stacks: list[tuple[int, int]]  # (seat, its stack at the end)


@with_config(CLOSED)
class Redrawn(TypedDict):
    type: Literal["Redrawn"]
    seat: int
    cards: list[Card | None]
    up: list[bool]


@with_config(CLOSED)
class Discarded(TypedDict):
    type: Literal["Discarded"]
    seat: int
    cards: list[Card | None]


@with_config(CLOSED)
class PoolChanged(TypedDict):
    type: Literal["PoolChanged"]
    size: int  # the pool's size (the hand view's ``pool_size``)


@with_config(CLOSED)
class AllocationStarted(TypedDict):
    type: Literal["AllocationStarted"]
    seats: list[int]


@with_config(CLOSED)
class AllocationCommitted(TypedDict):
    type: Literal["AllocationCommitted"]
    seat: int
    automatic: bool


@with_config(CLOSED)
class AllocationsRevealed(TypedDict):
    type: Literal["AllocationsRevealed"]
    allocations: list[tuple[int, list[tuple[str, list[Card]]]]]  # (seat, ((category, cards)))



@with_config(CLOSED)
class RunsOffered(TypedDict):
    """Every player left is all-in before the last card: each may agree to run it twice or
    three times (up to ``most``)."""

    type: Literal["RunsOffered"]
    seats: list[int]
    most: int


@with_config(CLOSED)
class RunsUnavailable(TypedDict):
    """Running it more than once was not offered, and why."""

    type: Literal["RunsUnavailable"]
    reason: str


@with_config(CLOSED)
class RunsChosen(TypedDict):
    type: Literal["RunsChosen"]
    seat: int
    runs: int  # 1: once (a decline, or ``automatic``: the clock ran out)
    automatic: bool


@with_config(CLOSED)
class RunsAgreed(TypedDict):
    type: Literal["RunsAgreed"]
    runs: int  # the fewest anyone chose


@with_config(CLOSED)
class RunDealt(TypedDict):
    """A run after the first: its new board cards and each live seat's redraws in it."""

    type: Literal["RunDealt"]
    run: int
    boards: list[tuple[str, list[Card]]]
    cards: list[tuple[int, list[Card | None]]]  # (seat, its redraws: hidden but the viewer's)


HAND_EVENT_TYPES: tuple[type, ...] = (
    AntePosted, BlindPosted, StreetStarted, CardBurned, BoardDealt, HoleDealt, BringInPosted,
    Folded, Checked, Called, RaisedTo, UncalledReturned, HandShown, HandMucked, PotAwarded,
    HandEnded, Redrawn, Discarded, PoolChanged, AllocationStarted, AllocationCommitted,
    AllocationsRevealed, RunsOffered, RunsUnavailable, RunsChosen, RunsAgreed, RunDealt)

HandEvent = Annotated[
    AntePosted | BlindPosted | StreetStarted | CardBurned | BoardDealt | HoleDealt
    | BringInPosted | Folded | Checked | Called | RaisedTo | UncalledReturned | HandShown
    | HandMucked | PotAwarded | HandEnded | Redrawn | Discarded | PoolChanged
    | AllocationStarted | AllocationCommitted | AllocationsRevealed | RunsOffered
    | RunsUnavailable | RunsChosen | RunsAgreed | RunDealt,
    Field(discriminator="type")]


# -- the hand view (``engine.view.view_for``): what one viewer sees of the hand -------------

@with_config(CLOSED)
class SeatView(TypedDict):
    type: Literal["SeatView"]
    seat: int
    stack: int
    bet: int
    folded: bool
    all_in: bool
    cards: list[Card | None]
    up: list[bool]
    shown: bool | None
    redraws: int
    allocated: bool | None


@with_config(CLOSED)
class Pot(TypedDict):
    type: Literal["Pot"]
    amount: int
    eligible: list[int]


@with_config(CLOSED)
class LegalActions(TypedDict):
    type: Literal["LegalActions"]
    seat: int
    fold: bool
    check: bool
    call: int | None
    raise_min: int | None
    raise_max: int | None
    bring_in: int | None
    is_bet: bool
    draw: int | None


@with_config(CLOSED)
class Pill(TypedDict):
    type: Literal["Pill"]
    category: str
    ready: bool
    description: str
    nuts: bool


@with_config(CLOSED)
class ShownHand(TypedDict):
    type: Literal["ShownHand"]
    seat: int
    cards: list[Card]
    categories: list[tuple[str, str]]  # (category, the hand in words or "none")
    allocation: list[tuple[str, list[Card]]]


@with_config(CLOSED)
class PotView(TypedDict):
    type: Literal["PotView"]
    index: int
    amount: int
    eligible: list[int]
    categories: list[tuple[str, list[int]]]  # (category, its winners)
    points: list[tuple[int, Fraction]]
    shares: list[tuple[int, int]]
    run: int  # the run whose share of the pot this is (1 for a hand run once)


@with_config(CLOSED)
class RunView(TypedDict):
    """A run after the first: its whole boards and each live seat's cards dealt in it."""

    type: Literal["RunView"]
    run: int
    boards: dict[str, list[Card]]
    cards: list[tuple[int, list[Card | None]]]


@with_config(CLOSED)
class HandView(TypedDict):
    type: Literal["HandView"]
    viewer: int | None
    game: str
    street: str | None
    button: int
    seats: list[SeatView]
    boards: dict[str, list[Card]]
    pots: list[Pot]
    actor: int | None
    legal: LegalActions | None
    is_over: bool
    winnings: dict[str, int]  # seat -> chips taken from the pots
    pool_size: int | None  # the redraw pool's size; null in games without redraws
    pills: list[Pill]
    allocating: bool
    allocation_pending: list[int]
    allocation: list[tuple[str, list[Card]]]
    showdown: list[ShownHand]
    results: list[PotView]  # every run's share of every pot, run by run
    runs_most: int  # the offer to run it more than once, while open: the most runs; else 0
    runs_pending: list[int]  # seats still to answer it
    run_choices: list[tuple[int, int]]  # (seat, runs) answers so far
    run_count: int  # the runs agreed (1 until more are)
    runs: list[RunView]  # every run after the first, once dealt


# -- the table, as everybody sees it -----------------------------------------------------------

@with_config(CLOSED)
class EmptySeat(TypedDict):
    seat: int
    empty: Literal[True]


@with_config(CLOSED)
class TakenSeat(TypedDict):
    seat: int
    empty: Literal[False]
    name: str
    stack: int
    status: Literal["pending", "playing", "out"]
    in_hand: bool
    leaving: bool
    sit_out_next: bool
    straddle_next: bool  # posts a straddle the next time the seat is in a straddle position
    timeouts: int
    time_bank: float
    rebuy_requested: int
    rebuy_approved: int


@with_config(CLOSED)
class Turn(TypedDict):
    seat: int
    deadline: float | None


@with_config(CLOSED)
class Settings(TypedDict):
    game: str
    hole_cards: int | None
    betting: str | None
    bring_in_rule: str | None
    small_blind: int
    big_blind: int
    ante: int
    bring_in: int
    starting_stack: int
    max_seats: int
    action_clock: float
    time_bank: float
    pick_clock: float
    pause_between_hands: float
    spectators_allowed: bool
    seat_approval: bool
    rabbit_hunting: bool
    straddle: Literal["off", "utg", "utg-button"]  # blind games: who may straddle (2 big blinds)
    run_it_twice: bool  # all-in players may agree to deal the rest twice or three times
    rotation: list[RotationGame]  # game "rotation": the host's games, in turn
    rotate_every: int  # a rotation's hands a game; 0: an orbit


@with_config(CLOSED)
class RotationGame(TypedDict):
    game: str
    hole_cards: NotRequired[int]
    betting: NotRequired[str]
    bring_in: NotRequired[str]


@with_config(CLOSED)
class NamedRotationGame(RotationGame):
    name: str


@with_config(CLOSED)
class RotationState(TypedDict):
    """Where a rotation room is: its games, the one dealt now and the next, and when."""

    id: str
    name: str
    every: int
    games: list[NamedRotationGame]
    at: int
    game: NamedRotationGame
    next: NamedRotationGame
    hands_left: int | None  # games of N hands: hands of this game after the one in play
    last: bool | None  # the next deal changes the game
    started: bool


@with_config(CLOSED)
class Fair(TypedDict):
    hand_no: int
    commitment: str
    seeded: list[int] | None  # while seeds are open: the seats that sent one
    open: bool


@with_config(CLOSED)
class BlindPosts(TypedDict):
    forced_bets: Literal["blinds"]
    small_blind: int
    big_blind: int
    straddle: int  # a straddle's size (twice the big blind), 0 when the room allows none
    straddles: Literal["utg", "utg-button"] | None  # who may choose to straddle


@with_config(CLOSED)
class AntePosts(TypedDict):
    forced_bets: Literal["antes"]
    ante: int
    min_bet: int


@with_config(CLOSED)
class BringInPosts(TypedDict):
    forced_bets: Literal["bring-in"]
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


Posts = Annotated[BlindPosts | AntePosts | BringInPosts, Field(discriminator="forced_bets")]


@with_config(CLOSED)
class TableState(TypedDict):
    posts: Posts | None
    version: int
    hand_no: int
    phase: Literal["waiting", "between", "picking", "playing", "closed"]
    deadline: float | None
    paused: bool
    closing: bool
    button: int | None
    game: str | None
    options: Options
    picker: int | None
    choices: list[str] | None
    turn: Turn | None
    seats: list[EmptySeat | TakenSeat]
    settings: Settings
    fair: Fair | None
    rotation: RotationState | None


@with_config(CLOSED)
class Watchers(TypedDict):
    count: int
    names: list[str]


@with_config(CLOSED)
class RaiseSizes(TypedDict):
    min: int
    half_pot: int
    pot: int
    all_in: int | None
    max: int


@with_config(CLOSED)
class LastHand(TypedDict):
    hand_no: int
    view: HandView
    shown_after: dict[str, list[Card]]  # seat -> the cards it showed after the hand
    rabbit: dict[str, list[Card]] | None  # board -> the rabbit's cards
    equity: EquityData | None  # an all-in hand's run-out, once every live hand is face up
    can_hunt: bool
    can_show: bool


# -- table events (``kind`` names the event; ``data`` is public) -----------------------------

@with_config(CLOSED)
class Empty(TypedDict):
    pass


@with_config(CLOSED)
class SeatedData(TypedDict):
    seat: int
    name: str
    pending: bool
    reason: NotRequired[str]  # a tournament's table: why the director seated them here


@with_config(CLOSED)
class ChipsData(TypedDict):
    seat: int
    name: str
    entry: Literal["buy-in", "rebuy", "adjust", "cash-out", "transfer-in", "transfer-out"]
    amount: int
    stack: int


@with_config(CLOSED)
class DeadlineData(TypedDict):
    deadline: float | None


@with_config(CLOSED)
class PickRequestedData(TypedDict):
    seat: int
    choices: list[str]
    deadline: float | None


@with_config(CLOSED)
class GamePickedData(TypedDict):
    seat: int
    game: str
    name: str
    options: Options
    by_button: bool


@with_config(CLOSED)
class Stakes(TypedDict):
    small_blind: int
    big_blind: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


@with_config(CLOSED)
class HandStartedData(TypedDict):
    hand_no: int
    game: str
    name: str
    options: Options
    button: int
    seats: list[int]  # the seats dealt in, clockwise
    stacks: list[int]  # their stacks, in the same order
    stakes: Stakes
    commitment: str
    server_made: list[int]


@with_config(CLOSED)
class TurnLegal(TypedDict):
    seat: int
    fold: bool
    check: bool
    call: int | None
    raise_min: int | None
    raise_max: int | None
    bring_in: int | None
    is_bet: bool
    draw: int | None


@with_config(CLOSED)
class TurnData(TypedDict):
    seat: int
    deadline: float | None
    action_clock: float
    time_bank: float
    legal: TurnLegal | None


@with_config(CLOSED)
class AllocatingData(TypedDict):
    seats: list[int]
    deadline: float | None


@with_config(CLOSED)
class ChoosingRunsData(TypedDict):
    seats: list[int]  # table seats still to answer
    most: int
    deadline: float | None


@with_config(CLOSED)
class TimedOutData(TypedDict):
    seat: int
    name: str
    timeouts: int


@with_config(CLOSED)
class HandEndedData(TypedDict):
    hand_no: int
    stacks: SeatMap
    winnings: SeatMap
    runout: NotRequired[str]  # an all-in run-out: the street the betting ended on


@with_config(CLOSED)
class GameChangedData(TypedDict):
    game: str
    name: str
    options: Options
    at: int  # its place in the rotation


@with_config(CLOSED)
class EquitySeat(TypedDict):
    seat: int
    name: str
    win: str  # a Fraction: the chance of winning all of the pot
    share: str  # a Fraction: the expected share of it
    win_pct: str
    share_pct: str


@with_config(CLOSED)
class EquityPot(TypedDict):
    index: int
    amount: int
    seats: list[EquitySeat]


@with_config(CLOSED)
class EquityStreet(TypedDict):
    street: str
    exact: bool
    deals: int
    margin: str  # the 95% margin, in percent ("0.0" when every deal was counted)
    pots: list[EquityPot]


@with_config(CLOSED)
class EquityData(TypedDict):
    hand_no: int
    game: str
    points: bool
    shares: bool
    streets: list[EquityStreet]


@with_config(CLOSED)
class LeavingData(TypedDict):
    seat: int
    kicked: bool


@with_config(CLOSED)
class LeftData(TypedDict):
    seat: int
    name: str
    kicked: bool
    reason: NotRequired[str]  # a tournament's table: why the director took them away


@with_config(CLOSED)
class SittingOutData(TypedDict):
    seat: int
    next_hand: bool
    busted: NotRequired[bool]


@with_config(CLOSED)
class SeatData(TypedDict):
    seat: int


@with_config(CLOSED)
class StraddleNextData(TypedDict):
    seat: int
    on: bool


@with_config(CLOSED)
class RebuyRequestedData(TypedDict):
    seat: int
    amount: int


@with_config(CLOSED)
class RebuyApprovedData(TypedDict):
    seat: int
    amount: int
    after_hand: bool


@with_config(CLOSED)
class ResumedData(TypedDict):
    deadline: float | None
    turn_deadline: float | None


@with_config(CLOSED)
class ChatData(TypedDict):
    seat: int | None
    name: str
    text: str


@with_config(CLOSED)
class HostChangedData(TypedDict):
    seat: int
    name: str


@with_config(CLOSED)
class FairCommitmentData(TypedDict):
    hand_no: int
    commitment: str


@with_config(CLOSED)
class SeedReceivedData(TypedDict):
    seat: int
    hand_no: int


@with_config(CLOSED)
class ShownAfterData(TypedDict):
    seat: int
    name: str
    hand_no: int
    cards: list[Card]


@with_config(CLOSED)
class RabbitData(TypedDict):
    hand_no: int
    name: str
    boards: dict[str, list[Card]]


class _Event(TypedDict):
    room: str
    version: int
    at: float  # Unix time, seconds (the server's clock)


@with_config(CLOSED)
class HandEventMessage(_Event):
    kind: Literal["hand"]
    hand_no: int
    data: Empty
    event: HandEvent


@with_config(CLOSED)
class SeatedEvent(_Event):
    kind: Literal["seated"]
    data: SeatedData


@with_config(CLOSED)
class ChipsEvent(_Event):
    kind: Literal["chips"]
    data: ChipsData


@with_config(CLOSED)
class NextHandEvent(_Event):
    kind: Literal["next_hand"]
    data: DeadlineData


@with_config(CLOSED)
class WaitingEvent(_Event):
    kind: Literal["waiting"]
    data: Empty


@with_config(CLOSED)
class PickRequestedEvent(_Event):
    kind: Literal["pick_requested"]
    data: PickRequestedData


@with_config(CLOSED)
class GamePickedEvent(_Event):
    kind: Literal["game_picked"]
    data: GamePickedData


@with_config(CLOSED)
class HandStartedEvent(_Event):
    kind: Literal["hand_started"]
    data: HandStartedData


@with_config(CLOSED)
class TurnEvent(_Event):
    kind: Literal["turn"]
    data: TurnData


@with_config(CLOSED)
class AllocatingEvent(_Event):
    kind: Literal["allocating"]
    data: AllocatingData


@with_config(CLOSED)
class ChoosingRunsEvent(_Event):
    """The offer to run it more than once is open: who is still to answer, and until when."""

    kind: Literal["choosing_runs"]
    data: ChoosingRunsData


@with_config(CLOSED)
class TimedOutEvent(_Event):
    kind: Literal["timed_out"]
    data: TimedOutData


@with_config(CLOSED)
class HandEndedEvent(_Event):
    kind: Literal["hand_ended"]
    data: HandEndedData


@with_config(CLOSED)
class LeavingEvent(_Event):
    kind: Literal["leaving"]
    data: LeavingData


@with_config(CLOSED)
class LeftEvent(_Event):
    kind: Literal["left"]
    data: LeftData


@with_config(CLOSED)
class SittingOutEvent(_Event):
    kind: Literal["sitting_out"]
    data: SittingOutData


@with_config(CLOSED)
class SittingInEvent(_Event):
    kind: Literal["sitting_in"]
    data: SeatData


@with_config(CLOSED)
class StraddleNextEvent(_Event):
    kind: Literal["straddle_next"]
    data: StraddleNextData


@with_config(CLOSED)
class RebuyRequestedEvent(_Event):
    kind: Literal["rebuy_requested"]
    data: RebuyRequestedData


@with_config(CLOSED)
class RebuyApprovedEvent(_Event):
    kind: Literal["rebuy_approved"]
    data: RebuyApprovedData


@with_config(CLOSED)
class PausedEvent(_Event):
    kind: Literal["paused"]
    data: Empty


@with_config(CLOSED)
class ResumedEvent(_Event):
    kind: Literal["resumed"]
    data: ResumedData


@with_config(CLOSED)
class ClosingEvent(_Event):
    kind: Literal["closing"]
    data: Empty


@with_config(CLOSED)
class ClosedEvent(_Event):
    kind: Literal["closed"]
    data: Empty


@with_config(CLOSED)
class ChatEvent(_Event):
    kind: Literal["chat"]
    data: ChatData


@with_config(CLOSED)
class HostChangedEvent(_Event):
    kind: Literal["host_changed"]
    data: HostChangedData


@with_config(CLOSED)
class FairCommitmentEvent(_Event):
    kind: Literal["fair_commitment"]
    data: FairCommitmentData


@with_config(CLOSED)
class SeedReceivedEvent(_Event):
    kind: Literal["seed_received"]
    data: SeedReceivedData


@with_config(CLOSED)
class WatchersEvent(_Event):
    kind: Literal["watchers"]
    data: Watchers


@with_config(CLOSED)
class ShownAfterEvent(_Event):
    kind: Literal["shown_after"]
    data: ShownAfterData


@with_config(CLOSED)
class RabbitEvent(_Event):
    kind: Literal["rabbit"]
    data: RabbitData


@with_config(CLOSED)
class GameChangedEvent(_Event):
    kind: Literal["game_changed"]
    data: GameChangedData


@with_config(CLOSED)
class EquityEvent(_Event):
    kind: Literal["equity"]
    data: EquityData


EVENT_TYPES: tuple[type, ...] = (
    HandEventMessage, SeatedEvent, ChipsEvent, NextHandEvent, WaitingEvent, PickRequestedEvent,
    GamePickedEvent, HandStartedEvent, TurnEvent, AllocatingEvent, TimedOutEvent,
    HandEndedEvent, LeavingEvent, LeftEvent, SittingOutEvent, SittingInEvent, StraddleNextEvent,
    RebuyRequestedEvent, RebuyApprovedEvent, PausedEvent, ResumedEvent, ClosingEvent,
    ClosedEvent, ChatEvent, HostChangedEvent, FairCommitmentEvent, SeedReceivedEvent,
    WatchersEvent, ShownAfterEvent, RabbitEvent, GameChangedEvent, EquityEvent)

Event = Annotated[
    HandEventMessage | SeatedEvent | ChipsEvent | NextHandEvent | WaitingEvent
    | PickRequestedEvent | GamePickedEvent | HandStartedEvent | TurnEvent | AllocatingEvent
    | ChoosingRunsEvent | TimedOutEvent | HandEndedEvent | LeavingEvent | LeftEvent
    | SittingOutEvent
    | SittingInEvent | StraddleNextEvent | RebuyRequestedEvent | RebuyApprovedEvent
    | PausedEvent | ResumedEvent
    | ClosingEvent | ClosedEvent | ChatEvent | HostChangedEvent | FairCommitmentEvent
    | SeedReceivedEvent | WatchersEvent | ShownAfterEvent | RabbitEvent | GameChangedEvent
    | EquityEvent,
    Field(discriminator="kind")]


# -- pushes and snapshots ----------------------------------------------------------------------

@with_config(CLOSED)
class View(TypedDict):
    """What an audience needs to draw the room, at one version (in every update)."""

    table: TableState
    bots: dict[str, str]  # table seat -> bot style
    blinds: dict[str, Literal["small", "big", "straddle"]]  # table seat -> the blind it posted
    watchers: Watchers
    hand: HandView | None
    sizes: RaiseSizes | None
    last_hand: LastHand | None


@with_config(CLOSED)
class HandLog(TypedDict):
    hand_no: int
    name: str
    seats: list[int]
    stacks: list[int]
    events: list[HandEvent]


@with_config(CLOSED)
class Snapshot(View):
    """Everything a viewer may know now (the answer to ``join`` and ``snapshot``): the view,
    who the viewer is, the recent chat and the running hand's events so far."""

    room: str
    version: int
    you: You
    chat: list[ChatEvent]
    hand_log: HandLog | None
    tournament: str | None  # a tournament's table: the tournament (its lobby); else None


PatchPath = list[str | int]  # object keys and array indices from the view's top
Change = tuple[PatchPath] | tuple[PatchPath, Any]  # remove the key at the path / set it


@with_config(ConfigDict(extra="forbid", strict=True, json_schema_extra={
    "oneOf": [{"required": ["view"]}, {"required": ["base", "patch"]}]}))
class Update(TypedDict):
    """The push of one change to one audience: its events and its view after them, whole
    (``view``), or as the changes (``patch``, ``server.patch``) to the view at ``base`` (the
    version before the events) for the connections that hold it. One or the other."""

    room: str
    version: int
    events: list[Event]
    view: NotRequired[View]
    base: NotRequired[int]
    patch: NotRequired[list[Change]]


@with_config(CLOSED)
class HostSecret(TypedDict):
    """Pushed as ``host`` to the new host's connections only."""

    room: str
    host_secret: str


@with_config(CLOSED)
class TournamentRefusal(TypedDict):
    what: Literal["rebuy", "addon"]
    reason: str


@with_config(CLOSED)
class TournamentNotice(TypedDict):
    """Pushed as ``tournament`` to a tournament player's connections: they were moved to
    another table, eliminated, a rebuy or add-on they asked for during a hand was refused at
    its end, or the tournament finished; and where they are now."""

    kind: Literal["moved", "eliminated", "refused", "finished"]
    reason: NotRequired[str]  # moved: "balance" or "table broken"; refused: why
    what: NotRequired[Literal["rebuy", "addon"]]  # refused: what was asked for
    from_table: NotRequired[int | None]
    tournament: str
    player: str
    name: str
    status: str
    stack: int
    queued: NotRequired[list[str]]  # "rebuy", "addon": asked during the hand, added at its end
    refused: NotRequired[list[TournamentRefusal]]  # queued and refused at the hand's end
    rebuys: NotRequired[int]  # the entry's rebuys
    addon: NotRequired[bool]  # whether the entry took the add-on
    table: NotRequired[int]  # still playing: the table, its room, the seat and a seat token
    room: NotRequired[str]
    seat: NotRequired[int]
    token: NotRequired[str]
    place: NotRequired[int]  # out (or the end): the place and the prize
    prize: NotRequired[int]


Command = Annotated[
    Join | SnapshotCommand | Sit | Leave | SitOut | SitIn | Rebuy | Act | Allocate
    | ChooseRunsCommand | StraddleCommand | Suggest
    | Pick | Show | Rabbit | Seed | Chat | Approve | ApproveRebuy | Kick | SetStack | Pause
    | Resume | DealNow | TransferHost | Close | AddBot | RemoveBot,
    Field(discriminator="type")]


@with_config(CLOSED)
class Wire(TypedDict):
    """The messages of each socket.io event: the schema's top level."""

    command: Command  # client -> server
    answer: Answer  # the command's acknowledgement
    update: Update  # pushed
    host: HostSecret  # pushed
    error: ErrorAnswer  # pushed, for an event other than ``command``
    tournament: TournamentNotice  # pushed to a tournament's players


# the socket.io events, as Wire's
MESSAGES = ("command", "answer", "update", "host", "error", "tournament")


@functools.cache
def command_adapter(kind: str) -> TypeAdapter[Any]:
    """The validator of one command type (strict: no coercion)."""
    return TypeAdapter(COMMAND_BY_TYPE[kind])


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the whole wire: ``$defs`` names every type of this module, and each
    top-level property is the message of one socket.io event (``Wire``)."""
    made: dict[str, Any] = TypeAdapter(Wire).json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "/api/protocol.schema.json", **made,
            "title": "Boardroom's real-time protocol"}
