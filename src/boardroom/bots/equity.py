"""A seat's share of the pot at showdown, estimated by Monte Carlo from what the seat sees.

The estimate deals the cards the seat cannot see at random: the missing board cards, the
opponents' hidden cards, and the redraws still to come (RULES.md s.3: each later street gives
``min(K - R, pool // L)`` cards, worked from the public pool size as if nobody else folds). It
then scores every category with the batch evaluator and pays the pot as the rules do: in a
points game the most points take the pot and equal points split it, so the estimate is the
chance of winning the most points, not one board; a hi-lo pot is halved (no low: the high
scoops). Opponents are treated as random hands. Floats live only in this estimate; chips never
meet it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardroom.cards import DECK_SIZE, Card
from boardroom.engine.strengths import category_strengths
from boardroom.engine.view import HandView
from boardroom.rules import Split, Variant, find_variant, redraw_schedule


def variant_of(view: HandView) -> Variant:
    return find_variant(view.game)


def live_opponents(view: HandView) -> tuple[int, ...]:
    """The table seats of the viewer's live opponents, clockwise from the button's left."""
    return tuple(s for s in view.clockwise if s != view.viewer and not view.seat_view(s).folded)


def future_redraws(variant: Variant, view: HandView) -> int:
    """Redraws each live player should still receive, if nobody else folds (RULES.md s.3)."""
    if view.pool_size is None or view.viewer is None:
        return 0
    names = [street.name for street in variant.streets]
    index = names.index(view.street) if view.street in names else len(names)
    later = redraw_schedule(variant.streets[index + 1:], view.pool_size,
                            1 + len(live_opponents(view)),
                            received=view.seat_view(view.viewer).redraws)
    return sum(n for _, n, _ in later)


def _future_stud_cards(variant: Variant, view: HandView) -> int:
    names = [street.name for street in variant.streets]
    if view.street not in names:
        return 0
    later = variant.streets[names.index(view.street) + 1:]
    return sum(street.hole_down + street.hole_up for street in later)


def draws_done_and_left(variant: Variant, view: HandView) -> tuple[int, int]:
    """The draw games: the draws each player has had this hand and the draws still to come
    (a street's draw comes before its betting, so at a betting decision its draw is done)."""
    names = [street.name for street in variant.streets]
    if not variant.is_draw or view.street not in names:
        return 0, 0
    index = names.index(view.street)
    done = sum(1 for street in variant.streets[:index + 1] if street.draw)
    left = sum(1 for street in variant.streets[index + 1:] if street.draw)
    return done, left


def pot_share(view: HandView, samples: int, rng: np.random.Generator) -> float:
    """The viewer's expected share of the pot at showdown (0 to 1) against the live opponents."""
    if view.viewer is None:
        raise ValueError("a spectator has no hand to estimate")
    variant = variant_of(view)
    me = view.viewer
    opponents = live_opponents(view)
    if not opponents:
        return 1.0
    extra = future_redraws(variant, view) + _future_stud_cards(variant, view)
    mine = [card for card in view.seat_view(me).cards if card is not None]
    known: set[Card] = set(mine)
    for cards in view.boards.values():
        known.update(cards)
    opponent_known: list[list[Card]] = []
    for seat in opponents:
        visible = [card for card in view.seat_view(seat).cards if card is not None]
        opponent_known.append(visible)
        known.update(visible)
    for seat_view in view.seats:
        known.update(card for card in seat_view.cards if card is not None)
    unseen = np.array([card for card in range(DECK_SIZE) if card not in known], dtype=np.intp)
    missing_board = {board.name: board.size - len(view.boards.get(board.name, ()))
                     for board in variant.boards}
    hidden = [len(view.seat_view(seat).cards) - len(visible)
              for seat, visible in zip(opponents, opponent_known, strict=True)]
    board_needed = sum(missing_board.values())
    players = 1 + len(opponents)
    # The draw games: each draw, past or to come, is one more card to pick the hand from. An
    # opponent's hidden hand alone would be a random hand that never drew (a player still
    # holding a three-card badugi after three draws beat it too often, and a station that
    # drew to the river was taken for a random hand); the viewer's own draws are still to come.
    done, left = draws_done_and_left(variant, view)
    mine_draws, their_draws = left, done + left

    def needed_cards() -> int:
        return (board_needed + sum(hidden) + players * extra + mine_draws
                + len(opponents) * their_draws)

    # Never ask for more cards than there are (the engine's pool arithmetic already fits).
    while their_draws and needed_cards() > len(unseen):
        their_draws -= 1
        mine_draws = min(mine_draws, their_draws)
    while extra and needed_cards() > len(unseen):
        extra -= 1
    needed = needed_cards()
    if needed > len(unseen):
        raise ValueError("the view shows more cards than a deck holds")
    order = rng.random((samples, len(unseen))).argsort(axis=1)[:, :needed]
    dealt = unseen[order]
    column = 0

    def take(count: int) -> npt.NDArray[np.intp]:
        nonlocal column
        part = dealt[:, column:column + count]
        column += count
        return part

    def with_known(cards: list[Card], count: int) -> npt.NDArray[np.intp]:
        fixed = np.broadcast_to(np.asarray(cards, dtype=np.intp), (samples, len(cards)))
        return np.concatenate([fixed, take(count)], axis=1)

    boards = {name: with_known(list(view.boards.get(name, ())), count)
              for name, count in missing_board.items()}
    holes = [with_known(mine, extra + mine_draws)]
    holes += [with_known(visible, count + extra + their_draws)
              for visible, count in zip(opponent_known, hidden, strict=True)]
    shares = _shares(variant, holes, boards)
    return float(shares.mean())


def _shares(variant: Variant, holes: list[npt.NDArray[np.intp]],
            boards: dict[str, npt.NDArray[np.intp]]) -> npt.NDArray[np.float64]:
    """Player 0's share of the pot in each sample."""
    samples = len(holes[0])
    points = np.zeros((len(holes), samples), dtype=np.float64)
    category_shares: list[npt.NDArray[np.float64]] = []
    for category in variant.categories:
        values = np.stack([category_strengths(variant, category, hole, boards)
                           for hole in holes])
        best = values.max(axis=0)
        winners = (values == best) & (best > 0)
        count = winners.sum(axis=0)
        won = np.where(count > 0, winners / np.maximum(count, 1), 0.0)
        points += won
        category_shares.append(np.where(count > 0, won[0], np.nan))
    if variant.split is Split.HI_LO:
        high, low = category_shares
        return np.where(np.isnan(low), high, 0.5 * high + 0.5 * np.nan_to_num(low))
    top = points.max(axis=0)
    leaders = np.isclose(points, top)
    return np.where(leaders[0], 1.0 / leaders.sum(axis=0), 0.0)
