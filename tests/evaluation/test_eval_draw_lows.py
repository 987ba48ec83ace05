"""Deuce-to-seven lowball, A-5 low with pairs (razz) and Badugi, and the Hold'em / stud high
hand, against PokerKit's hand types (``StandardLowHand``, ``RegularLowHand``, ``BadugiHand``,
``StandardHighHand``).

PokerKit's value of a 5-card lowball hand depends only on its ranks and on whether it is one
suit (2-7) or on its ranks alone (razz). So PokerKit ranks one representative of every class,
and every one of the 2,598,960 five-card hands is then checked against PokerKit's rank of its
class: an exhaustive check at the cost of a few thousand PokerKit evaluations.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from pokerkit import BadugiHand, RegularLowHand, StandardHighHand, StandardLowHand

from boardroom.cards import format_cards, parse_cards
from boardroom.evaluation import Ranking, batch, best_of, evaluate, lowball, scalar
from boardroom.evaluation import _tables as tb

Rows = npt.NDArray[np.int8]


@pytest.fixture(scope="module")
def all_five() -> Rows:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                       dtype=np.int8)
    return flat.reshape(-1, 5)


def _text(cards: tuple[int, ...] | list[int]) -> str:
    return format_cards(cards).replace(" ", "")


def _representatives(suited: bool) -> list[tuple[int, ...]]:
    """One hand per multiset of 5 ranks (at most 4 of a rank); ``suited``: one hand of one
    suit per set of 5 distinct ranks."""
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        if suited:
            if len(set(ranks)) == 5:
                hands.append(tuple(rank * 4 + 3 for rank in ranks))
            continue
        used: dict[int, int] = {}
        cards = []
        for rank in ranks:
            suit = used.get(rank, 0)
            used[rank] = suit + 1
            cards.append(rank * 4 + suit)
        if len(set(ranks)) == 5 and len({c & 3 for c in cards}) == 1:
            cards[0] = cards[0] - (cards[0] & 3) + 1
        hands.append(tuple(cards))
    return hands


def _dense_ranks(keys: list[object]) -> list[int]:
    """1-based dense ranks of PokerKit values (1 = weakest; equal values, equal ranks)."""
    order = sorted(set(keys))  # type: ignore[type-var]
    position = {key: i + 1 for i, key in enumerate(order)}
    return [position[key] for key in keys]


def _class_key(rows: Rows, with_suit: bool) -> npt.NDArray[np.int64]:
    ranks = np.sort(rows.astype(np.int64) >> 2, axis=1)
    key = np.zeros(len(rows), dtype=np.int64)
    for i in range(5):
        key = key * 13 + ranks[:, i]
    if with_suit:
        suits = rows & 3
        key = key * 2 + (suits == suits[:, :1]).all(axis=1)
    return key


def _pokerkit_classes(hand_type: Callable[[str], object], with_suit: bool,
                      ) -> tuple[dict[int, int], int]:
    """Class key -> PokerKit's dense rank of the class, and the number of classes."""
    hands = _representatives(False) + (_representatives(True) if with_suit else [])
    values = [hand_type(_text(hand)) for hand in hands]
    dense = _dense_ranks(values)
    keys = _class_key(np.array(hands, dtype=np.int8), with_suit).tolist()
    return dict(zip(keys, dense, strict=True)), max(dense)


def _exhaustive(all_five: Rows, ours: npt.NDArray[np.int16], classes: dict[int, int],
                with_suit: bool) -> None:
    keys = _class_key(all_five, with_suit)
    lookup = np.zeros(int(keys.max()) + 1, dtype=np.int64)
    lookup[list(classes)] = list(classes.values())
    expected = lookup[keys]
    mismatches = np.flatnonzero(ours.astype(np.int64) != expected)
    assert len(mismatches) == 0, [format_cards(all_five[i].tolist()) for i in mismatches[:5]]


def test_deuce_seven_every_five_card_hand_as_pokerkit(all_five: Rows) -> None:
    classes, count = _pokerkit_classes(StandardLowHand, with_suit=True)
    assert count == tb.DEUCE_SEVEN_CLASS_COUNT == Ranking.DEUCE_SEVEN.class_count
    ours = batch.deuce_seven(all_five)
    _exhaustive(all_five, ours, classes, with_suit=True)
    sample = all_five[::53]
    assert [lowball.deuce_seven_strength(h) for h in sample.tolist()] == ours[::53].tolist()


def test_razz_every_five_card_hand_as_pokerkit(all_five: Rows) -> None:
    classes, count = _pokerkit_classes(RegularLowHand, with_suit=False)
    assert count == tb.A5_LOW_CLASS_COUNT == Ranking.A5_LOW.class_count
    ours = batch.a5_low(all_five)
    _exhaustive(all_five, ours, classes, with_suit=False)
    sample = all_five[::53]
    assert [lowball.a5_low_strength(h) for h in sample.tolist()] == ours[::53].tolist()


def _ordered_as(ours: list[int], theirs: list[object]) -> None:
    """Our strengths order the hands exactly as PokerKit's values do, ties included."""
    assert _dense_ranks(theirs) == _dense_ranks(ours)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [6, 7])
def test_razz_best_five_of_more_cards_as_pokerkit(count: int) -> None:
    rng = random.Random(count)
    hands = [rng.sample(range(52), count) for _ in range(3000)]
    ours = [lowball.a5_low_strength(hand) for hand in hands]
    assert batch.a5_low(np.array(hands)).tolist() == ours
    theirs = [RegularLowHand.from_game(_text(hand)) for hand in hands]
    _ordered_as(ours, theirs)  # type: ignore[arg-type]


def test_razz_best_five_of_seven_by_brute_force() -> None:
    rng = np.random.default_rng(7)
    hands = rng.permuted(np.tile(np.arange(52), (200_000, 1)), axis=1)[:, :7]
    best = np.zeros(len(hands), dtype=np.int16)
    for five in itertools.combinations(range(7), 5):
        np.maximum(best, batch.a5_low(hands[:, five]), out=best)
    assert (batch.a5_low(hands) == best).all()


def _badugi_brute(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Independently: the largest rainbow unpaired subset, then the lowest ranks compared
    from the top (ace low); returned as (size, negated ranks) so larger is better."""
    best: tuple[int, tuple[int, ...]] = (0, ())
    for size in range(len(hand), 0, -1):
        for subset in itertools.combinations(hand, size):
            if len({c >> 2 for c in subset}) == size == len({c & 3 for c in subset}):
                low = sorted((((c >> 2) + 1) % 13 for c in subset), reverse=True)
                best = max(best, (size, tuple(-r for r in low)))
        if best[0]:
            return best
    return best


def test_badugi_every_four_card_hand() -> None:
    hands = list(itertools.combinations(range(52), 4))
    ours = batch.badugi(np.array(hands, dtype=np.int8))
    assert len(np.unique(ours)) == tb.BADUGI_CLASS_COUNT == Ranking.BADUGI.class_count
    assert [lowball.badugi_strength(h) for h in hands[::11]] == ours[::11].tolist()
    brute = [_badugi_brute(h) for h in hands[::7]]
    _ordered_as(ours[::7].tolist(), brute)  # type: ignore[arg-type]


def test_badugi_as_pokerkit() -> None:
    rng = random.Random(4)
    hands = [tuple(rng.sample(range(52), 4)) for _ in range(3000)]
    ours = batch.badugi(np.array(hands)).tolist()
    theirs = [BadugiHand.from_game(_text(hand)) for hand in hands]
    _ordered_as(ours, theirs)  # type: ignore[arg-type]
    # Every class once, against PokerKit's order of its badugi hands of that size.
    classes = [tuple(parse_cards(text)) for text in ("Kc", "Ac", "4c 8d Kh", "Ac 2d 3h 5s")]
    values = [lowball.badugi_strength(hand) for hand in classes]
    assert values == sorted(values)


@pytest.mark.slow
def test_badugi_every_four_card_hand_as_pokerkit() -> None:
    hands = list(itertools.combinations(range(52), 4))
    ours = batch.badugi(np.array(hands, dtype=np.int8)).tolist()
    theirs = [BadugiHand.from_game(_text(hand)) for hand in hands]
    _ordered_as(ours, theirs)  # type: ignore[arg-type]


def test_holdem_seven_cards_as_pokerkit() -> None:
    rng = random.Random(11)
    hands = [rng.sample(range(52), 7) for _ in range(4000)]
    ours = batch.high7(np.array(hands)).tolist()
    assert [scalar.high_strength(hand) for hand in hands] == ours
    theirs = [StandardHighHand.from_game(_text(hand[:2]), _text(hand[2:])) for hand in hands]
    _ordered_as(ours, theirs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("ranking", "text", "description"), [
    (Ranking.DEUCE_SEVEN, "7c 5d 4h 3s 2c", "7-5-4-3-2 low"),
    (Ranking.DEUCE_SEVEN, "As 5d 4h 3s 2c", "A-5-4-3-2 low"),
    (Ranking.DEUCE_SEVEN, "8c 7d 6h 5s 4c", "Straight, eight high"),
    (Ranking.DEUCE_SEVEN, "9c 9d 6h 5s 2c", "Pair of nines"),
    (Ranking.DEUCE_SEVEN, "8c 6c 5c 4c 2c", "Flush, eight high"),
    (Ranking.A5_LOW, "5c 4d 3h 2s Ac", "5-4-3-2-A low"),
    (Ranking.A5_LOW, "8c 6d 4h 3s 2c", "8-6-4-3-2 low"),
    (Ranking.A5_LOW, "Ac Ad 4h 3s 2c", "Pair of aces"),
    (Ranking.BADUGI, "4c 3d 2h As", "Number 1 badugi (4-3-2-A)"),
    (Ranking.BADUGI, "8c 6d 4h As", "Badugi 8-6-4-A"),
    (Ranking.BADUGI, "Kc 8d 4h 4s", "Three-card K-8-4"),
    (Ranking.BADUGI, "Kc Qc 4c 2c", "One-card 2"),
])
def test_lowball_descriptions(ranking: Ranking, text: str, description: str) -> None:
    value = evaluate(ranking, parse_cards(text))
    assert value is not None
    assert value.description == description
    assert set(value.cards) <= set(parse_cards(text))


def test_lowball_orders() -> None:
    def strength(ranking: Ranking, text: str) -> int:
        value = best_of(ranking, parse_cards(text))
        assert value is not None
        return value.strength

    d7 = Ranking.DEUCE_SEVEN
    assert strength(d7, "7c 5d 4h 3s 2c") == d7.class_count  # the nuts
    assert strength(d7, "As 5d 4h 3s 2c") < strength(d7, "Kc 5d 4h 3s 2c")  # the ace is high
    assert strength(d7, "7c 6d 5h 4s 3c") < strength(d7, "2c 2d 3h 4s 5c")  # straight < pair
    razz = Ranking.A5_LOW
    assert strength(razz, "5c 4d 3h 2s Ac") == razz.class_count
    assert strength(razz, "5c 4c 3c 2c Ac") == razz.class_count  # flushes do not count
    assert strength(razz, "Kc Qd Jh Ts 9c") > strength(razz, "Ac Ad 2h 3s 4c")
    assert strength(razz, "Kc Kd Ac 2c 3c 4d 5h") == razz.class_count  # best 5 of 7
    badugi = Ranking.BADUGI
    assert strength(badugi, "4c 3d 2h As") == badugi.class_count
    assert strength(badugi, "Kc Qd Jh Ts") > strength(badugi, "Ac 2d 3h 3s")  # 4 cards beat 3


@pytest.mark.parametrize("ranking", [Ranking.DEUCE_SEVEN, Ranking.A5_LOW, Ranking.BADUGI])
def test_best_of_many_cards_by_brute_force(ranking: Ranking) -> None:
    """Pools of 8 to 10 cards (and the NUTS of unseen cards) take the search over the classes;
    it agrees with the best of every subset."""
    one = {Ranking.DEUCE_SEVEN: lowball.deuce_seven_strength,
           Ranking.A5_LOW: lowball.a5_low_strength, Ranking.BADUGI: lowball.badugi_strength}
    size = ranking.card_count
    rng = random.Random(ranking.value)
    for count in (8, 9, 10):
        for _ in range(40):
            pool = rng.sample(range(52), count)
            value = best_of(ranking, pool)
            assert value is not None
            assert value.strength == max(one[ranking](c) for c in itertools.combinations(
                pool, size))
