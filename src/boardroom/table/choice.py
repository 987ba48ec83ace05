"""Dealer's Choice: the button picks each hand's game, or the last game is dealt again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardroom.rules import DEALERS_CHOICE, Variant
from boardroom.table.base import PICKING, WAITING, TableBase
from boardroom.table.settings import TableError


class DealersChoice(TableBase):
    """The pick."""

    __slots__ = ()

    def pick(self, seat: int, game: str, options: Mapping[str, Any] | None = None) -> None:
        """Dealer's Choice: the button picks the next hand's game and options."""
        self._check_open()
        if self.phase != PICKING:
            raise TableError("nobody is picking a game now")
        if seat != self.picker:
            raise TableError(f"the button (seat {self.picker}) picks the game, not seat {seat}")
        if not isinstance(game, str):
            raise TableError("a pick names a variant id")
        variant = self.settings.variant_for(game, dict(options or {}))
        if variant.id not in self._choice_ids():
            raise TableError(f"{variant.name} is not one of the games to pick from")
        players = len(self.pick_seats)
        if variant.max_players < players:
            raise TableError(f"{variant.name} with {variant.hole_cards} hole cards deals to at "
                             f"most {variant.max_players} players, not {players}")
        self._picked(seat, variant.id, dict(options or {}), chosen=True)

    def _choice_ids(self) -> list[str]:
        return [v.id for v in DEALERS_CHOICE.choices(max(len(self.pick_seats), 2))]

    def _default_pick(self) -> None:
        """No pick in time: the previous hand's game again (ESG first), if it fits the table."""
        players = len(self.pick_seats)
        game, options = self.last_game or (DEALERS_CHOICE.default, {})
        variant = self.settings.variant_for(game, options)
        if variant.max_players < players:
            variant, options = _first_fitting(DEALERS_CHOICE.choices(players), players)
        self._picked(self.picker, variant.id, options, chosen=False)

    def _picked(self, seat: int | None, game: str, options: dict[str, Any], *,
                chosen: bool) -> None:
        variant = self.settings.variant_for(game, options)
        self._emit("game_picked", {"seat": seat, "game": game, "name": variant.name,
                                   "options": options, "by_button": chosen})
        seats = tuple(s for s in self.pick_seats if s in self._dealt_in())
        button = self.picker
        self.picker, self.pick_seats = None, ()
        if len(seats) < 2 or button is None:
            self.phase, self.deadline = WAITING, None
            self.last_game = (game, options)
            self._emit("waiting", {})
            return
        if button not in seats:
            button = next((s for s in seats if s > button), seats[0])
        self._deal(seats, button, game, options)


def _first_fitting(choices: Sequence[Variant], players: int) -> tuple[Variant, dict[str, Any]]:
    for variant in choices:
        for hole in variant.hole_card_options:
            if variant.max_players_by_hole[hole] >= players:
                if hole == variant.hole_cards:
                    return variant, {}
                return variant.with_options(hole_cards=hole), {"hole_cards": hole}
    raise TableError(f"no game deals to {players} players")  # pragma: no cover
