"""Provably fair deals: the deck committed before the hand and derived from every player's seed.

Scheme ``boardroom-fair-v1`` (``docs/fairness.md`` explains it to players and auditors):

- Before a hand the server draws a fresh 32-byte ``server_seed`` (``secrets``) and publishes
  ``commitment = SHA-256(server_seed)``. Each player dealt in sends a client seed (1 to 64 hex
  digits); the server makes one for a player who sends none.
- The bit stream of a label (``deck``, then ``redraw 1``, ``redraw 2``, ...) is the counter-mode
  key derivation of NIST SP 800-108 with HMAC-SHA256 as its PRF: block ``i`` (from 1) is
  ``HMAC-SHA256(server_seed, [i]_32 || label || 0x00 || context)``; ``[L]`` is left out, since
  rejection sampling decides how long the stream runs. The context binds the scheme, the room,
  the hand number and every client seed in dealing order (``context``).
- Integers are unbiased: a 32-bit big-endian word ``w`` from the stream is rejected when
  ``w >= 2**32 - 2**32 % n``, else it gives ``w % n``. A shuffle is Fisher-Yates (Durstenfeld):
  for ``i`` from the last index down to 1, swap item ``i`` with item ``uniform(i + 1)``.
- The deck is the sorted deck (2c 2d 2h 2s 3c ... As) shuffled with ``deck``. Hole cards come off
  its top in dealing order (p1 first), the boards' cards are set aside after the first hole
  cards in redraw games (each board dealt from them in turn), and the classic Omaha games burn
  one card before each community deal. Redraw distribution ``k`` shuffles the *sorted* pool (the
  52 cards minus every board card minus the cards of the players still in the hand) with
  ``redraw k`` and deals from its front, so a verifier never needs the order folded hands went
  back to the pool in.

After the hand the server seed is revealed; anyone can recompute the deck (``check_history``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardroom.cards import (
    DECK_SIZE,
    Card,
    CardError,
    format_card,
    new_deck,
    parse_cards,
)

SCHEME = "boardroom-fair-v1"
SEED_BYTES = 32
MAX_CLIENT_SEED = 64  # hex digits
_HEX = re.compile(r"[0-9a-f]+")


class FairnessError(ValueError):
    """A seed, commitment or history that does not verify: the text says what and where."""


def new_server_seed() -> bytes:
    """A fresh server seed from the operating system's cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """``SHA-256(server_seed)`` in hex: published before the hand, checked after it."""
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seed(seed: object) -> str:
    """A client seed as the scheme uses it (lowercase hex), or ``FairnessError`` saying why not."""
    if not isinstance(seed, str):
        raise FairnessError("a client seed is a string of hex digits")
    text = seed.strip().lower()
    if not 1 <= len(text) <= MAX_CLIENT_SEED or _HEX.fullmatch(text) is None:
        raise FairnessError(f"a client seed is 1 to {MAX_CLIENT_SEED} hex digits (0-9, a-f)")
    return text


@dataclass(frozen=True)
class Seeds:
    """Everything a hand's cards are derived from: the server seed and its binding context."""

    server_seed: bytes
    room: str
    hand_no: int
    client_seeds: tuple[str, ...]  # in dealing order: p1, p2, ...

    def context(self) -> bytes:
        """The bytes every stream of the hand is bound to (UTF-8, lines joined by ``\\n``)."""
        lines = [SCHEME, f"room {self.room}", f"hand {self.hand_no}",
                 "seeds " + " ".join(self.client_seeds)]
        return "\n".join(lines).encode()

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)


def stream(seeds: Seeds, label: str) -> Iterator[int]:
    """The 32-bit words of the labelled stream (SP 800-108 counter mode, HMAC-SHA256)."""
    tail = label.encode() + b"\x00" + seeds.context()
    counter = 1
    while True:
        block = hmac.new(seeds.server_seed, counter.to_bytes(4, "big") + tail,
                         hashlib.sha256).digest()
        for k in range(0, len(block), 4):
            yield int.from_bytes(block[k:k + 4], "big")
        counter += 1


def uniform(words: Iterator[int], n: int) -> int:
    """An unbiased integer in ``[0, n)`` by rejection sampling of 32-bit words."""
    limit = 2**32 - 2**32 % n
    while True:
        word = next(words)
        if word < limit:
            return word % n


def shuffle(cards: list[Card], seeds: Seeds, label: str) -> None:
    """Fisher-Yates (Durstenfeld) of ``cards`` in place, driven by the labelled stream."""
    words = stream(seeds, label)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def deck(seeds: Seeds) -> list[Card]:
    """The hand's deck: the sorted deck shuffled with the ``deck`` stream."""
    cards = new_deck()
    shuffle(cards, seeds, "deck")
    return cards


def redraw_pool(seeds: Seeds, distribution: int, pool: Sequence[Card]) -> list[Card]:
    """The pool of redraw distribution ``distribution`` (1-based) in dealing order: sorted, then
    shuffled with the ``redraw N`` stream."""
    cards = sorted(pool)
    shuffle(cards, seeds, f"redraw {distribution}")
    return cards


def draw_reshuffle(seeds: Seeds, number: int, discards: Sequence[Card]) -> list[Card]:
    """The draw's stub once the deck ran out for the ``number``-th time (1-based): the
    discards (never the drawing player's own), sorted, then shuffled with the
    ``draw reshuffle N`` stream."""
    cards = sorted(discards)
    shuffle(cards, seeds, f"draw reshuffle {number}")
    return cards


# -- verifying a history ----------------------------------------------------------------------

FIELD = "_fairness"


def seeds_of(fields: Mapping[str, Any]) -> Seeds:
    """The seeds a history's ``_fairness`` table reveals, checked against its commitment."""
    if fields.get("scheme") != SCHEME:
        raise FairnessError(f"{FIELD}.scheme is {str(fields.get('scheme'))[:40]!r}; this "
                            f"verifier knows {SCHEME!r}")
    server = fields.get("server_seed")
    if not isinstance(server, str) or len(server) != 2 * SEED_BYTES or \
            _HEX.fullmatch(server) is None:
        raise FairnessError(f"{FIELD}.server_seed must be {2 * SEED_BYTES} lowercase hex digits")
    room, hand_no, clients = fields.get("room"), fields.get("hand_no"), fields.get("client_seeds")
    if not isinstance(room, str):
        raise FairnessError(f"{FIELD}.room must be the room id, a string")
    if not isinstance(hand_no, int) or isinstance(hand_no, bool):
        raise FairnessError(f"{FIELD}.hand_no must be the hand number, an integer")
    if not isinstance(clients, list) or not clients:
        raise FairnessError(f"{FIELD}.client_seeds must list every player's seed (p1 first)")
    try:
        client_seeds = tuple(check_client_seed(seed) for seed in clients)
    except FairnessError as error:
        raise FairnessError(f"{FIELD}.client_seeds: {error}") from None
    seeds = Seeds(bytes.fromhex(server), room, hand_no, client_seeds)
    if seeds.commitment != fields.get("commitment"):
        raise FairnessError(f"the server seed does not match the commitment: SHA-256 of the "
                            f"revealed seed is {seeds.commitment}, the commitment published "
                            f"before the hand was {str(fields.get('commitment'))[:64]}")
    return seeds


@dataclass
class _Dealer:
    """The committed deck dealt the way a history's actions say, card by card."""

    deck: list[Card]
    top: int = 0  # next card off the deck
    aside: list[Card] | None = None  # redraw games: the boards' cards, set aside
    aside_start: int = 0
    aside_dealt: int = 0
    distribution: int = 0  # redraw distributions so far
    pool: list[Card] | None = None  # the current distribution's shuffled pool
    pool_dealt: int = 0
    recycled: list[Card] = field(default_factory=list)  # folded since the last distribution
    discards: list[Card | None] = field(default_factory=list)  # the draw's, not shuffled
    reshuffles: int = 0  # back yet (None: a discard this history does not show)
    stub: list[Card | None] = field(default_factory=list)  # the discards shuffled back

    def take(self, count: int) -> list[tuple[Card, str]]:
        if self.top + count > DECK_SIZE:
            raise FairnessError(f"the history deals more than the {DECK_SIZE} cards of the deck")
        start, self.top = self.top, self.top + count
        return [(self.deck[k], f"deck position {k + 1}") for k in range(start, self.top)]

    def take_draw(self, seeds: Seeds, count: int) -> list[tuple[Card | None, str]]:
        """The draw: off the deck, and once it runs out, off the discards shuffled back (the
        drawing player's are not among ``discards`` yet). A history that hides some discards
        (another player's view) cannot say where the reshuffled cards lie: None."""
        dealt: list[tuple[Card | None, str]] = []
        while len(dealt) < count:
            if self.top < DECK_SIZE:
                dealt += self.take(1)
                continue
            if not self.stub:
                if not self.discards:
                    raise FairnessError("the history draws more cards than the deck and the "
                                        "discards hold")
                self.reshuffles += 1
                known = [card for card in self.discards if card is not None]
                self.stub = (list(draw_reshuffle(seeds, self.reshuffles, known))
                             if len(known) == len(self.discards) else [None] * len(self.discards))
                self.discards = []
            dealt.append((self.stub.pop(0), f"reshuffle {self.reshuffles}"))
        return dealt

    def take_aside(self, count: int, where: str) -> list[tuple[Card, str]]:
        assert self.aside is not None
        if self.aside_dealt + count > len(self.aside):
            raise FairnessError(f"{where}: more board cards than the {len(self.aside)} set aside")
        start, self.aside_dealt = self.aside_dealt, self.aside_dealt + count
        return [(self.aside[k], f"set-aside board card {k + 1}, deck position "
                                f"{self.aside_start + k + 1}")
                for k in range(start, self.aside_dealt)]

    def new_distribution(self, seeds: Seeds, live: set[Card]) -> None:
        self.distribution += 1
        self.recycled = []
        aside = set(self.aside or [])
        self.pool = redraw_pool(seeds, self.distribution,
                                [c for c in range(DECK_SIZE) if c not in live and c not in aside])
        self.pool_dealt = 0

    def pool_left(self) -> list[Card]:
        """The redraw pool as the deck holds it now: the last distribution's cards not dealt
        (before any, the deck after the boards set aside), then the hands folded since."""
        rest = (self.pool[self.pool_dealt:] if self.pool is not None
                else self.deck[self.top:])
        return [*rest, *self.recycled]

    def start_run(self, board_cards: int, where: str) -> None:
        """A later run of a redraw game (engine.runs): its board cards come off the pool."""
        left = self.pool_left()
        if board_cards > len(left):
            raise FairnessError(f"{where}: the pool has {len(left)} cards, the run's boards "
                                f"{board_cards}")
        self.aside, self.aside_dealt = left[:board_cards], 0
        self.pool, self.pool_dealt, self.recycled = left[board_cards:], 0, []

    def take_pool(self, count: int, where: str) -> list[tuple[Card, str]]:
        assert self.pool is not None
        if self.pool_dealt + count > len(self.pool):
            raise FairnessError(f"{where}: the redraw pool has only "
                                f"{len(self.pool) - self.pool_dealt} cards left")
        start, self.pool_dealt = self.pool_dealt, self.pool_dealt + count
        return [(self.pool[k], f"redraw {self.distribution}, pool position {k + 1}")
                for k in range(start, self.pool_dealt)]


@dataclass(frozen=True)
class Verification:
    """What a check of a history found: ``checked`` cards dealt from the committed deck where
    the seeds say, and ``unplaced`` cards it shows that no check can place: in the draw games,
    cards dealt after the stub ran out, from the discards shuffled back, when this view of the
    hand does not show every discard (another player's thrown cards stay private)."""

    checked: int
    unplaced: int = 0


def check_history(record: Mapping[str, Any]) -> int:
    """Check that every card ``record`` (a history as TOML data) shows was dealt, in order, from
    the deck its revealed seeds give. Returns the number of cards checked; raises
    ``FairnessError`` naming the first mismatch (the action, the card and the position)."""
    return verify_history(record).checked


def verify_history(record: Mapping[str, Any]) -> Verification:
    """``check_history``, also counting the cards it shows that cannot be placed."""
    fields = record.get(FIELD)
    if not isinstance(fields, Mapping):
        raise FairnessError(f"this history has no {FIELD} table: the deal was not verifiable")
    seeds = seeds_of(fields)
    burns, set_aside = fields.get("burns", False), fields.get("set_aside", 0)
    if not isinstance(burns, bool) or not isinstance(set_aside, int) or isinstance(
            set_aside, bool) or not 0 <= set_aside <= DECK_SIZE:
        raise FairnessError(f"{FIELD}.burns must be true or false and {FIELD}.set_aside a "
                            f"number of cards")
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise FairnessError("the history's actions must be a list of strings")
    dealer = _Dealer(deck(seeds))
    held: dict[str, list[Card]] = {}
    folded: set[str] = set()
    redrawn: set[str] | None = None  # players dealt in the current redraw distribution
    drawing: list[tuple[str, list[Card | None]]] = []  # the draw: this round's ``sd``s
    checked = 0
    unplaced: set[Card] = set()  # shown cards dealt from a stub this view cannot rebuild
    unplaced_count = 0
    for number, text in enumerate(actions, 1):
        body, _, note = text.partition("#")
        words = body.split()
        where = f"action {number} ({body.strip()!r})"
        if len(words) >= 2 and words[1] == "sd":
            thrown = _history_cards(words[2], where) if len(words) > 2 else []
            drawing.append((words[0], thrown))
            held[words[0]] = [card for card in held.get(words[0], []) if card not in thrown]
            continue
        if drawing and len(words) == 4 and words[:2] == ["d", "dh"] and any(
                player == words[2] and thrown for player, thrown in drawing):
            # Its cards come after the discards of those who drew before it, before its own.
            while drawing[0][0] != words[2]:
                dealer.discards += drawing.pop(0)[1]
            _, own = drawing.pop(0)
            shown = _history_cards(words[3], where)
            drawn = dealer.take_draw(seeds, len(shown))
            dealer.discards += own
            checked += _compare(where, f"{words[2]}'s card", shown, drawn)
            for (card, _), shown_card in zip(drawn, shown, strict=True):
                known = card if card is not None else shown_card
                if card is None and shown_card is not None:
                    unplaced.add(shown_card)
                    unplaced_count += 1
                if known is not None:
                    held.setdefault(words[2], []).append(known)
            continue
        for _, thrown in drawing:
            dealer.discards += thrown
        drawing = []
        is_redraw = words[:2] == ["d", "dh"] and note.strip() == "redraw"
        if not is_redraw:
            redrawn = None
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            player, shown = words[2], _history_cards(words[3], where)
            if is_redraw:
                if redrawn is None or player in redrawn:
                    live = {c for p, cards in held.items() if p not in folded for c in cards}
                    dealer.new_distribution(seeds, live)
                    redrawn = set()
                redrawn.add(player)
                dealt = dealer.take_pool(len(shown), where)
            else:
                dealt = dealer.take(len(shown))
            checked += _compare(where, f"{player}'s card", shown, dealt)
            held.setdefault(player, []).extend(card for card, _ in dealt)
        elif len(words) == 3 and words[:2] == ["d", "db"]:
            checked += _board_deal(dealer, words[2], where, burns, set_aside)
        elif len(words) == 2 and words[1] == "f":
            folded.add(words[0])
            dealer.recycled += held.get(words[0], [])
        elif len(words) == 3 and words[1] == "sm":
            player = words[0]
            for card in _history_cards(words[2], where):
                if card is not None and card not in held.get(player, []):
                    raise FairnessError(f"{where}: {player} shows {format_card(card)}, a card "
                                        f"the committed deck never dealt them")
                if card in unplaced:
                    unplaced_count += 1
                else:
                    checked += card is not None
    checked += _check_runs(record, dealer, seeds, held, folded, burns, set_aside)
    rabbit = record.get("_rabbit", [])  # the board cards a rabbit hunt showed, never dealt
    if not isinstance(rabbit, list) or not all(isinstance(a, str) for a in rabbit):
        raise FairnessError("the history's _rabbit must be a list of board deals")
    for number, text in enumerate(rabbit, 1):
        words = text.partition("#")[0].split()
        where = f"rabbit hunt {number} ({text.partition('#')[0].strip()!r})"
        if len(words) != 3 or words[:2] != ["d", "db"]:
            raise FairnessError(f"{where}: a rabbit hunt deals board cards only (d db CARDS)")
        checked += _board_deal(dealer, words[2], where, burns, set_aside)
    return Verification(checked, unplaced_count)


def _check_runs(record: Mapping[str, Any], dealer: _Dealer, seeds: Seeds,
                held: dict[str, list[Card]], folded: set[str], burns: bool,
                set_aside: int) -> int:
    """The runs after the first (``_runs.runs``, engine.runs): each dealt on from the same
    deck, unshuffled; in the redraw games each run's board cards come off the pool first, and
    each street's redraws are a distribution of their own. The number of cards checked."""
    table = record.get("_runs", {})
    runs = table.get("runs", []) if isinstance(table, Mapping) else None
    if not isinstance(runs, list) or not all(
            isinstance(run, Mapping) and isinstance(run.get("actions"), list)
            and all(isinstance(a, str) for a in run["actions"]) for run in runs):
        raise FairnessError("the history's _runs.runs must be a list of tables of actions")
    checked = 0
    base = {player: list(cards) for player, cards in held.items()}
    dealt_to: dict[str, list[Card]] = {}
    out: set[Card] = set(dealer.aside or [])  # every board card of every run so far
    for number, run in enumerate(runs, 2):
        lines = [(k, text.partition("#")[0].split(), text.partition("#")[2].strip())
                 for k, text in enumerate(run["actions"], 1)]
        if set_aside:
            board_cards = sum(len(words[2]) // 2 for _, words, _ in lines if words[1:2] == ["db"])
            dealer.start_run(board_cards, f"run {number}")
            out |= set(dealer.aside or [])
        redrawn: set[str] | None = None
        for k, words, note in lines:
            where = f"run {number}, action {k} ({' '.join(words)!r})"
            if len(words) == 3 and words[:2] == ["d", "db"]:
                redrawn = None
                if set_aside:  # (the run's boards, taken off the pool at its start)
                    shown = _history_cards(words[2], where)
                    checked += _compare(where, "board card", shown,
                                        dealer.take_aside(len(shown), where))
                else:
                    checked += _board_deal(dealer, words[2], where, burns, set_aside)
            elif len(words) == 4 and words[:2] == ["d", "dh"] and note == "redraw":
                player, shown = words[2], _history_cards(words[3], where)
                if redrawn is None or player in redrawn:
                    # Out of the pool: every card any live hand holds in any run, every board.
                    live = {c for p, cards in base.items() if p not in folded for c in cards}
                    live |= {c for cards in dealt_to.values() for c in cards} | out
                    dealer.new_distribution(seeds, live)
                    redrawn = set()
                redrawn.add(player)
                dealt = dealer.take_pool(len(shown), where)
                checked += _compare(where, f"{player}'s card", shown, dealt)
                dealt_to.setdefault(player, []).extend(card for card, _ in dealt)
            else:
                raise FairnessError(f"{where}: a run deals board cards (d db) and redraws only")
    return checked


def _board_deal(dealer: _Dealer, text: str, where: str, burns: bool, set_aside: int) -> int:
    """Check one board deal (``d db CARDS``) against the deck; the number of cards checked."""
    shown = _history_cards(text, where)
    if set_aside and dealer.aside is None:
        dealer.aside_start = dealer.top
        dealer.aside = [card for card, _ in dealer.take(set_aside)]
    if burns:
        dealer.take(1)
    dealt = (dealer.take_aside(len(shown), where) if dealer.aside is not None
             else dealer.take(len(shown)))
    return _compare(where, "board card", shown, dealt)


def _history_cards(text: str, where: str) -> list[Card | None]:
    """The cards of an action, ``??`` (a card this viewer did not see) as None."""
    cards: list[Card | None] = []
    for k in range(0, len(text), 2):
        token = text[k:k + 2]
        if token == "??":
            cards.append(None)
            continue
        try:
            cards.extend(parse_cards(token))
        except CardError as error:
            raise FairnessError(f"{where}: {error}") from None
    return cards


def _compare(where: str, what: str, shown: Sequence[Card | None],
             dealt: Sequence[tuple[Card | None, str]]) -> int:
    checked = 0
    for k, (card, (expected, position)) in enumerate(zip(shown, dealt, strict=True), 1):
        if card is None or expected is None:
            continue
        if card != expected:
            raise FairnessError(f"{where}: {what} {k} is {format_card(card)}, but the committed "
                                f"deck has {format_card(expected)} there ({position})")
        checked += 1
    return checked
