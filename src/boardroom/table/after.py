"""After a hand, until the next deal: showing cards and hunting the rabbit."""

from __future__ import annotations

from collections.abc import Sequence

from boardroom.cards import format_card, parse_cards
from boardroom.engine.hand import Hand
from boardroom.table.base import TableBase
from boardroom.table.record import rebuild_hand
from boardroom.table.settings import TableError


class AfterHand(TableBase):
    """The finished hand's extras."""

    __slots__ = ()

    def finished_hand(self) -> Hand | None:
        """The hand that ended last, until the next deal (None: none): the hand as it was
        played, or after a restart replayed once from its record."""
        record = self.last_record
        if record is None:
            return None
        if self._last_hand is None:
            self._last_hand = rebuild_hand(self.settings, record)
        return self._last_hand

    def show_after(self, seat: int, cards: str | Sequence[str]) -> None:
        """After the hand, until the next deal: a player who won uncontested or mucked shows
        any of their cards to the table. The hand's record (its history) keeps them."""
        self._check_open()
        if self.hand is not None:
            raise TableError("show your cards once the hand is over")
        record = self.last_record
        if record is None:
            raise TableError("there is no finished hand to show cards from")
        state = self._seat(seat)
        held = next((p["seat"] for p in record["players"] if p["player"] == state.player), None)
        if held is None:
            raise TableError(f"you were not dealt in hand {record['hand_no']}")
        hand = self.finished_hand()
        assert hand is not None
        if not hand.is_live(held):
            raise TableError("you folded this hand: folded cards are not shown")
        if hand.showed(held):
            raise TableError("your hand was shown at the showdown")
        try:
            chosen = parse_cards(cards)
        except ValueError as error:
            raise TableError(str(error)) from None
        if not chosen:
            raise TableError("name the cards to show, e.g. 'As Kd'")
        cards_held = hand.cards(held)
        for card in chosen:
            if card not in cards_held:
                raise TableError(f"you did not hold {format_card(card)}")
        shown = dict(record.get("shown_after", {}))
        key = str(held)  # the seat it had in the hand
        before = set(parse_cards(shown.get(key, [])))
        codes = [format_card(card) for card in cards_held if card in before or card in chosen]
        shown[key] = codes
        record = {**record, "shown_after": shown}
        self.last_record = record
        self._emit("shown_after", {"seat": seat, "name": state.name,
                                   "hand_no": record["hand_no"], "cards": codes},
                   private=record)

    def rabbit_hunt(self, seat: int) -> None:
        """After a hand that ended before its last card, any seated player may ask for the
        board cards that would have come (``Hand.rabbit_hunt``): shown to everyone, once, as
        cards not dealt; they change nothing and join the hand's record (its history)."""
        self._check_open()
        state = self._seat(seat)
        if not self.settings.rabbit_hunting:
            raise TableError("the host turned rabbit hunting off")
        if self.hand is not None:
            raise TableError("hunt the rabbit once the hand is over")
        record = self.last_record
        if record is None:
            raise TableError("there is no finished hand to hunt the rabbit of")
        if "rabbit" in record:
            raise TableError(f"the rabbit of hand {record['hand_no']} is already out")
        hand = self.finished_hand()
        assert hand is not None
        hunted = hand.rabbit_hunt()
        if not hunted:
            raise TableError(f"every card of hand {record['hand_no']} was dealt: "
                             f"no rabbit to hunt")
        boards: dict[str, list[str]] = {}
        for name, cards in hunted:
            boards.setdefault(name, []).extend(format_card(card) for card in cards)
        deals = [[name, [format_card(card) for card in cards]] for name, cards in hunted]
        record = {**record, "rabbit": deals}
        self.last_record = record
        self._emit("rabbit", {"hand_no": record["hand_no"], "name": state.name,
                              "boards": boards}, private=record)
