"""The holdings tables behind the pills and the NUTS badge are kept only while their board may
be asked about (counted, never timed): a board that grew drops its table, a finished hand's
boards are forgotten, and the cache is bounded. Dropping a table never changes an answer: one
asked about again is built again, the same."""

from __future__ import annotations

import importlib

import pytest

from boardroom.evaluation import Construction, Ranking, best_holding, holdings, nuts
from boardroom.evaluation.nuts import card_mask, forget

nuts_module = importlib.import_module("boardroom.evaluation.nuts")  # the package's nuts: a function

BOARD = (0, 9, 18, 27, 36)  # 2c 4d 6h 8s Tc (card = rank * 4 + suit)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    nuts_module.clear_cache()


def _size() -> int:
    return nuts_module.cache_info()["size"]


def test_a_table_takes_five_bytes_a_holding() -> None:
    table = holdings(Construction.OMAHA, BOARD, Ranking.HIGH, None)
    assert len(table) == 47 * 46 // 2
    assert table.nbytes == 5 * len(table)  # was 11: an uint64 of bits for the two cards


def test_the_turn_s_table_drops_the_flop_s_and_the_river_s_the_turn_s() -> None:
    for count in (3, 4, 5):
        holdings(Construction.OMAHA, BOARD[:count], Ranking.HIGH, None)
        assert _size() == 1
    holdings(Construction.OMAHA, BOARD, Ranking.LOW8, None)  # another ranking: its own table
    assert _size() == 2
    assert nuts_module.cache_info()["built"] == 4


def test_a_finished_hand_s_boards_are_forgotten_and_no_other() -> None:
    other = (1, 5, 13)
    holdings(Construction.OMAHA, BOARD, Ranking.HIGH, None)
    holdings(Construction.OMAHA, BOARD, Ranking.LOW8, None)
    holdings(Construction.HOLDEM, BOARD[:4], Ranking.HIGH, None)
    holdings(Construction.OMAHA, other, Ranking.HIGH, None)
    holdings(Construction.OMAHA, BOARD[::-1], Ranking.HIGH, None)  # another table's board
    assert _size() == 5
    assert forget([(*BOARD, 51, 50), (40, 41, 42)]) == 3  # its boards, and their starts
    assert _size() == 2
    assert forget([BOARD]) == 0


def test_a_forgotten_board_is_built_again_with_the_same_answers() -> None:
    hole = (1, 2, 45, 50)
    seen = (*hole, 3, 7)
    before = (best_holding(Construction.OMAHA, BOARD, hole),
              nuts(Construction.OMAHA, BOARD, seen=seen))
    forget([BOARD])
    after = (best_holding(Construction.OMAHA, BOARD, hole),
             nuts(Construction.OMAHA, BOARD, seen=seen))
    assert after == before
    assert nuts_module.cache_info()["built"] == 2


def test_the_cache_keeps_at_most_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nuts_module, "TABLE_CACHE_SIZE", 3)
    boards = [(a, a + 1, a + 2) for a in range(0, 30, 5)]
    for board in boards:
        holdings(Construction.OMAHA, board, Ranking.HIGH, None)
    assert _size() == 3
    holdings(Construction.OMAHA, boards[-1], Ranking.HIGH, None)  # the newest: still kept
    assert nuts_module.cache_info()["built"] == len(boards)


def test_a_holding_of_cards_in_the_mask_is_found_and_no_other() -> None:
    table = holdings(Construction.OMAHA, BOARD, Ranking.HIGH, None)
    value = table.best(card_mask((48, 49)))  # two aces: the only holding
    assert value is not None
    assert set(value.cards[:2]) == {48, 49}
    assert table.best(card_mask((48,))) is None  # one card is no holding
    assert table.best(card_mask(BOARD)) is None  # board cards never count
