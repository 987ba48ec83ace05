"""The lookup tables every evaluator shares, built with numpy once and then kept in a cache file.

Everything here is derived from first principles (no oracle): the 7,462 high-hand classes are
listed best first, and each table maps a rank key sum or a rank mask to a strength. Building
them takes numpy and about a tenth of a second; a command that evaluates one hand (``boardroom
replay``) should not pay that, nor numpy's import, on every launch. So ``tables()`` gives the
tables as plain Python values (memoryviews, lists, dicts) read from a cache file, built and
written when the file is missing, stale or damaged; ``arrays()`` gives numpy views of the same
memory to the batch path. The cache is keyed by this module's source and the Python version,
and carries a CRC-32 of its contents.

Key sums: each rank has an integer key chosen so that the sums over any multiset of exactly 5
(``RANK_KEYS_5``) or of exactly 5, 6 or 7 ranks (``RANK_KEYS_7``), at most four of a rank, are
distinct (``RANK_KEYS_5`` are the greedy minimal keys; both sets are checked when built).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import mmap
import os
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

from boardroom.cards import RANKS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

RANK_KEYS_5: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
RANK_KEYS_7: Final = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
SUM5_SIZE: Final = 4 * RANK_KEYS_5[12] + RANK_KEYS_5[11] + 1  # 360,919
SUM6_SIZE: Final = 4 * RANK_KEYS_7[12] + 2 * RANK_KEYS_7[11] + 1  # 7,189,415
SUM7_SIZE: Final = 4 * RANK_KEYS_7[12] + 3 * RANK_KEYS_7[11] + 1  # 7,825,760

# Categories of the high ranking, worst to best.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
HIGH_CLASS_COUNT: Final = 7462
ESG_LOW_CLASS_COUNT: Final = 1278
LOW8_CLASS_COUNT: Final = 56
THREE_CARD_CLASS_COUNT: Final = 741
TWO_CARD_CLASS_COUNT: Final = 91
DEUCE_SEVEN_CLASS_COUNT: Final = 7462  # as many as high: the wheel is a plain ace-high hand
A5_LOW_CLASS_COUNT: Final = 6175  # 1287 unpaired, 2860 pairs, 858 two pairs, 858 trips, 312
BADUGI_CLASS_COUNT: Final = 1092  # 715 four-card + 286 three-card + 78 two-card + 13 one-card

# Three-card categories, worst to best.
T_HIGH_CARD, T_PAIR, T_FLUSH, T_STRAIGHT, T_STRAIGHT_FLUSH, T_TRIPS, T_ROYAL = range(7)

ACE = 12
WHEEL = (3, 2, 1, 0, 12)


def straight_ranks(top: int) -> tuple[int, ...]:
    """The ranks of the five-card straight with this top rank, highest first (3 is the wheel)."""
    return WHEEL if top == 3 else tuple(range(top, top - 5, -1))


STRAIGHT_MASKS: Final = tuple(
    (top, sum(1 << r for r in straight_ranks(top))) for top in range(ACE, 2, -1)
)
_STRAIGHT_SETS: Final = frozenset(frozenset(straight_ranks(top)) for top in range(ACE, 2, -1))


def straight_top(mask: int) -> int:
    """The top rank of the best five-card straight in a 13-bit rank mask, or -1."""
    for top, need in STRAIGHT_MASKS:
        if mask & need == need:
            return top
    return -1


def _is_straight5(ranks: tuple[int, ...]) -> bool:
    return frozenset(ranks) in _STRAIGHT_SETS


def _quads_and_full_houses(desc: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Four of a kind, then full houses, best first in the rank order ``desc``."""
    classes: list[tuple[int, tuple[int, ...]]] = [
        (QUADS, (q,) * 4 + (k,)) for q in desc for k in desc if k != q]
    classes += [(FULL_HOUSE, (t,) * 3 + (p,) * 2) for t in desc for p in desc if p != t]
    return classes


def _trips_two_pairs_and_pairs(desc: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Three of a kind, two pair, then one pair, best first in the rank order ``desc``."""
    classes: list[tuple[int, tuple[int, ...]]] = []
    for t in desc:
        classes += [(TRIPS, (t,) * 3 + k) for k in itertools.combinations(
            [r for r in desc if r != t], 2)]
    for hi, lo in itertools.combinations(desc, 2):
        classes += [(TWO_PAIR, (hi, hi, lo, lo, k)) for k in desc if k not in (hi, lo)]
    for p in desc:
        classes += [(PAIR, (p, p, *k)) for k in itertools.combinations(
            [r for r in desc if r != p], 3)]
    return classes


def high_classes(*, wheel: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """All 7,462 five-card high classes, best first, as (category, ranks in display order).

    ``wheel=False`` is the ace-always-high order of deuce-to-seven lowball: A-5-4-3-2 is no
    straight but an ace-high hand (so there are 9 straights and 1,278 unpaired hands)."""
    desc = range(ACE, -1, -1)
    classes: list[tuple[int, tuple[int, ...]]] = []
    tops = range(ACE, 2 if wheel else 3, -1)
    classes += [(STRAIGHT_FLUSH, straight_ranks(top)) for top in tops]
    classes += _quads_and_full_houses(desc)
    no_straight = [c for c in itertools.combinations(desc, 5)
                   if not _is_straight5(c) or (not wheel and set(c) == set(WHEEL))]
    classes += [(FLUSH, c) for c in no_straight]
    classes += [(STRAIGHT, straight_ranks(top)) for top in tops]
    classes += _trips_two_pairs_and_pairs(desc)
    classes += [(HIGH_CARD, c) for c in no_straight]
    assert len(classes) == HIGH_CLASS_COUNT
    return classes


def esg_low_classes() -> list[tuple[int, ...]]:
    """The 1,278 qualifying ESG lows, best (7-5-4-3-2) first, ranks highest first, ace high."""
    lows = [c for c in itertools.combinations(range(ACE + 1), 5)
            if not _is_straight5(c) or set(c) == set(WHEEL)]
    ranked = sorted(tuple(sorted(c, reverse=True)) for c in lows)
    assert len(ranked) == ESG_LOW_CLASS_COUNT
    return ranked


def low8_classes() -> list[tuple[int, ...]]:
    """The 56 eight-or-better lows, best (5-4-3-2-A) first, as low ranks (A=1 .. 8) high first."""
    ranked = sorted(tuple(sorted(c, reverse=True)) for c in itertools.combinations(range(1, 9), 5))
    assert len(ranked) == LOW8_CLASS_COUNT
    return ranked


def a5_low_classes() -> list[tuple[int, tuple[int, ...]]]:
    """The 6,175 A-5 lows with pairs counting (razz), worst (K-K-K-K-Q) first, as (category,
    card ranks in display order): straights and flushes do not count, the ace is low, and the
    hand is read as a high hand in ace-low order, the lowest high hand winning."""
    # Ace-low order, highest first: K, Q, ..., 2, A (card ranks; the ace is card rank 12).
    desc = (*range(ACE - 1, -1, -1), ACE)
    classes: list[tuple[int, tuple[int, ...]]] = _quads_and_full_houses(desc)
    classes += _trips_two_pairs_and_pairs(desc)
    classes += [(HIGH_CARD, c) for c in itertools.combinations(desc, 5)]
    assert len(classes) == A5_LOW_CLASS_COUNT
    return classes


def badugi_classes() -> list[tuple[int, ...]]:
    """The 1,092 badugi classes, worst (a lone king) first, as card ranks highest first in
    ace-low order: more cards beat fewer, then the lower highest card, and so on down."""
    desc = (*range(ACE - 1, -1, -1), ACE)
    classes: list[tuple[int, ...]] = []
    for size in (1, 2, 3, 4):
        classes += list(itertools.combinations(desc, size))
    assert len(classes) == BADUGI_CLASS_COUNT
    return classes


def three_card_classes() -> list[tuple[int, tuple[int, ...]]]:
    """All 742 three-card classes, best first, as (category, ranks highest first)."""
    desc = range(ACE, -1, -1)

    def straight3(top: int) -> tuple[int, ...]:
        return (1, 0, ACE) if top == 1 else (top, top - 1, top - 2)

    straight_sets = {frozenset(straight3(top)) for top in range(ACE, 0, -1)}
    distinct = [c for c in itertools.combinations(desc, 3) if frozenset(c) not in straight_sets]
    classes: list[tuple[int, tuple[int, ...]]] = [(T_ROYAL, (ACE, ACE - 1, ACE - 2))]
    classes += [(T_TRIPS, (t,) * 3) for t in desc]
    classes += [(T_STRAIGHT_FLUSH, straight3(top)) for top in range(ACE - 1, 0, -1)]
    classes += [(T_STRAIGHT, straight3(top)) for top in range(ACE, 0, -1)]
    classes += [(T_FLUSH, c) for c in distinct]
    classes += [(T_PAIR, (p, p, k)) for p in desc for k in desc if k != p]
    classes += [(T_HIGH_CARD, c) for c in distinct]
    assert len(classes) == THREE_CARD_CLASS_COUNT
    return classes


Classes = list[tuple[int, tuple[int, ...]]]


class ClassTable:
    """strength -> (category, ranks) of a ranking, read from rows of packed bytes (the category,
    then the ranks); row 0, no strength, reads ``(-1, ())``."""

    __slots__ = ("_data", "_width")

    def __init__(self, data: memoryview, width: int) -> None:
        self._data = data
        self._width = width

    def __getitem__(self, strength: int) -> tuple[int, tuple[int, ...]]:
        if strength == 0:
            return -1, ()
        start = strength * self._width
        row = self._data[start:start + self._width]
        return row[0], tuple(row[1:])

    def __len__(self) -> int:
        return len(self._data) // self._width


class RankTable:
    """strength -> ranks of a low ranking, read from rows of packed bytes; row 0 reads ``()``."""

    __slots__ = ("_data", "_width")

    def __init__(self, data: memoryview, width: int) -> None:
        self._data = data
        self._width = width

    def __getitem__(self, strength: int) -> tuple[int, ...]:
        if strength == 0:
            return ()
        start = strength * self._width
        return tuple(self._data[start:start + self._width])

    def __len__(self) -> int:
        return len(self._data) // self._width


def _pack(rows: Sequence[tuple[int, ...]], width: int) -> bytes:
    """Rows of small ints as bytes, ``width`` a row, after an empty row 0."""
    return bytes(width) + b"".join(bytes(row) for row in rows)


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table of the scalar path as plain Python values (strengths; 0 = none)."""

    # High: 5-card rank key sums (RANK_KEYS_5) to the non-flush / flush strength (int16).
    high5: memoryview
    flush5: memoryview
    # High: 6-card rank key sums (RANK_KEYS_7) to the best non-flush strength, direct (int16).
    high6: memoryview
    # High: 7-card rank key sums (RANK_KEYS_7) to the best non-flush strength, direct (int16).
    high7: memoryview
    # Best flush or straight flush among the ranks of a 13-bit mask (5+ bits), else 0.
    flush_mask: list[int]
    # strength -> (category, ranks in display order)
    high_class: ClassTable
    # ESG low: 13-bit mask -> strength of that exact 5-rank low (0 if not 5 ranks / straight)
    esg_mask: list[int]
    # ESG low: 13-bit mask -> best qualifying 5-subset (ignoring suits) and its strength
    esg_best_mask: list[int]
    esg_best: list[int]
    esg_order: list[int]  # qualifying 5-rank masks, best first
    esg_class: RankTable  # strength -> ranks highest first
    # LOW8 on 9-bit "low masks" (bit 0 = ace, bit 7 = eight, bit 8 = invalid marker):
    low8_mask: list[int]  # exact 5 low ranks -> strength
    low8_best: list[int]  # any mask -> strength of its 5 lowest ranks (0 if < 5)
    low8_class: RankTable  # strength -> low ranks (A=1 .. 8) highest first
    # Three-card: index ((hi * 13 + mid) * 13 + lo) * 2 + suited -> strength
    three: list[int]
    three_class: ClassTable


@dataclass(frozen=True, slots=True)
class Arrays:
    """numpy views of the tables, for the batch path (same memory as ``tables()``)."""

    high5: npt.NDArray[np.int16]
    flush5: npt.NDArray[np.int16]
    high7: npt.NDArray[np.int16]
    flush_mask: npt.NDArray[np.int16]
    esg_best: npt.NDArray[np.int16]
    esg_best_mask: npt.NDArray[np.int32]
    low8_mask: npt.NDArray[np.int16]
    low8_best: npt.NDArray[np.int16]
    three: npt.NDArray[np.int16]


# The tables the cache file holds, each a flat array of one machine type ("h": int16, "i":
# int32, "B": bytes). The big ones and the class rows are used from the mapped file as they
# are; the small lookup tables become lists (the fastest to index).
STORED: Final = {
    "high5": "h", "flush5": "h", "high6": "h", "high7": "h",
    "flush_mask": "h", "esg_mask": "h", "esg_best_mask": "i", "esg_best": "h", "esg_order": "h",
    "low8_mask": "h", "low8_best": "h", "three": "h",
    "high_class": "B", "esg_class": "B", "low8_class": "B", "three_class": "B",
}
_MAPPED: Final = ("high5", "flush5", "high6", "high7")
_LISTS: Final = ("flush_mask", "esg_mask", "esg_best_mask", "esg_best", "esg_order",
                 "low8_mask", "low8_best", "three")
_MAGIC: Final = b"BOARDROOM-TABLES-2\n"
_ALIGN: Final = 64
_HEADER_SIZE: Final = 4096  # the magic, then "name offset length crc32" lines, then "end LENGTH"


def _multisets(n: int) -> IntArray:
    """Every multiset of ``n`` ranks with at most four of a rank, one sorted row each."""
    import numpy as np

    combos = itertools.combinations_with_replacement(range(13), n)
    flat = np.fromiter(itertools.chain.from_iterable(combos), dtype=np.int64)
    rows = flat.reshape(-1, n)
    five_alike = np.zeros(len(rows), dtype=bool)
    for i in range(n - 4):
        five_alike |= rows[:, i] == rows[:, i + 4]
    return rows[~five_alike]


def best_of_multisets(n: int, five: npt.NDArray[np.int16]) -> tuple[IntArray, IntArray]:
    """For every multiset of ``n`` ranks: its RANK_KEYS_7 sum and the best ``five`` value
    (a table on RANK_KEYS_5 sums) of its 5-subsets, by brute force."""
    import numpy as np

    keys5 = np.asarray(RANK_KEYS_5, dtype=np.int64)
    keys7 = np.asarray(RANK_KEYS_7, dtype=np.int64)
    rows = _multisets(n)
    k5 = keys5[rows]
    total = k5.sum(axis=1)
    # Each 5-subset is the whole minus the n - 5 ranks left out.
    left_out = np.array(list(itertools.combinations(range(n), n - 5)), dtype=np.int64)
    fives = total[:, None] - k5[:, left_out].sum(axis=2)
    values = five[fives].max(axis=1).astype(np.int64)
    return keys7[rows].sum(axis=1), values


def build() -> dict[str, bytes]:
    """Build every stored table from first principles (numpy), as the bytes the file holds."""
    import numpy as np

    high5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    flush5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    flush_mask = np.zeros(1 << 13, dtype=np.int16)
    classes = high_classes()
    for position, (category, ranks) in enumerate(classes):
        strength = HIGH_CLASS_COUNT - position
        key = sum(RANK_KEYS_5[r] for r in ranks)
        if category in (STRAIGHT_FLUSH, FLUSH):
            flush5[key] = strength
            flush_mask[sum(1 << r for r in ranks)] = strength
        else:
            assert high5[key] == 0
            high5[key] = strength

    # Best flush of any mask: the best 5-bit sub-mask, one bit removed at a time.
    masks = np.arange(1 << 13, dtype=np.int64)
    for _ in range(8):
        for b in range(13):
            has = (masks >> b) & 1 == 1
            flush_mask[has] = np.maximum(flush_mask[has], flush_mask[masks[has] ^ (1 << b)])

    # Best non-flush value of every 5-, 6- and 7-rank multiset, brute force over 5-subsets.
    by_count = {n: best_of_multisets(n, high5) for n in (6, 7)}
    high6 = np.zeros(SUM6_SIZE, dtype=np.int16)
    high6[by_count[6][0]] = by_count[6][1]
    high7 = np.zeros(SUM7_SIZE, dtype=np.int16)
    high7[by_count[7][0]] = by_count[7][1]

    # ESG low on rank masks.
    esg_mask = np.zeros(1 << 13, dtype=np.int16)
    esg_list = esg_low_classes()
    for position, ranks in enumerate(esg_list):
        esg_mask[sum(1 << r for r in ranks)] = ESG_LOW_CLASS_COUNT - position
    esg_best = esg_mask.copy()
    esg_best_mask = np.where(esg_mask > 0, masks, 0).astype(np.int32)
    for _ in range(8):
        for b in range(13):
            has = np.flatnonzero((masks >> b) & 1 == 1)
            sub = masks[has] ^ (1 << b)
            better = esg_best[sub] > esg_best[has]
            esg_best[has[better]] = esg_best[sub[better]]
            esg_best_mask[has[better]] = esg_best_mask[sub[better]]

    # LOW8 on 9-bit low masks.
    low8_mask = np.zeros(1 << 9, dtype=np.int16)
    low8_list = low8_classes()
    for position, low_ranks in enumerate(low8_list):
        low8_mask[sum(1 << (r - 1) for r in low_ranks)] = LOW8_CLASS_COUNT - position
    low8_best = np.zeros(1 << 9, dtype=np.int16)
    for mask in range(1 << 8):
        bits = [b for b in range(8) if mask >> b & 1][:5]
        if len(bits) == 5:
            low8_best[mask] = low8_mask[sum(1 << b for b in bits)]

    # Three-card hands.
    three = np.zeros(13 * 13 * 13 * 2, dtype=np.int16)
    three_list = three_card_classes()
    for position, (category, ranks) in enumerate(three_list):
        strength = THREE_CARD_CLASS_COUNT - position
        hi, mid, lo = sorted(ranks, reverse=True)
        index = ((hi * 13 + mid) * 13 + lo) * 2
        suited = category in (T_ROYAL, T_STRAIGHT_FLUSH, T_FLUSH)
        three[index + suited] = strength
        if category in (T_TRIPS, T_PAIR):
            three[index + 1] = strength  # never suited; filled so the table is total

    built: dict[str, npt.NDArray[np.integer]] = {
        "high5": high5, "flush5": flush5, "high6": high6, "high7": high7,
        "flush_mask": flush_mask, "esg_mask": esg_mask, "esg_best_mask": esg_best_mask,
        "esg_best": esg_best, "low8_mask": low8_mask, "low8_best": low8_best, "three": three,
        "esg_order": np.array([sum(1 << r for r in ranks) for ranks in esg_list]),
    }
    stored = {name: built[name].astype(np.dtype(STORED[name])).tobytes() for name in built}
    # Class rows, worst first (row = strength); ranks and categories fit a byte.
    stored["high_class"] = _pack([(c, *r) for c, r in reversed(classes)], 6)
    stored["three_class"] = _pack([(c, *r) for c, r in reversed(three_list)], 4)
    stored["esg_class"] = _pack(list(reversed(esg_list)), 5)
    stored["low8_class"] = _pack(list(reversed(low8_list)), 5)
    return stored


def cache_path() -> Path:
    """The cache file: ``$BOARDROOM_CACHE_DIR``, else ``$XDG_CACHE_HOME/boardroom``, else
    ``~/.cache/boardroom``; its name carries a digest of this module and the Python version."""
    base = os.environ.get("BOARDROOM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "boardroom")
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(f"{sys.version}|{sys.byteorder}".encode())
    return Path(base) / f"tables-{digest.hexdigest()[:20]}.bin"


def _offsets(sizes: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Each table's (offset, byte length) in the file, after a 4 KiB header, 64-byte aligned;
    ``""`` maps to the file's length."""
    offsets: dict[str, tuple[int, int]] = {}
    position = _HEADER_SIZE
    for name in STORED:
        offsets[name] = (position, sizes[name])
        position += -(-sizes[name] // _ALIGN) * _ALIGN
    return {**offsets, "": (position, 0)}


def write(path: Path, values: dict[str, bytes]) -> None:
    """Write the cache atomically (a temporary file renamed over it); failing is harmless: the
    tables are then kept in memory."""
    offsets = _offsets({name: len(data) for name, data in values.items()})
    lines = [f"{name} {offsets[name][0]} {offsets[name][1]} {zlib.crc32(values[name])}"
             for name in STORED]
    lines.append(f"end {offsets[''][0]}")
    header = _MAGIC + ("\n".join(lines) + "\n").encode()
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as out:
            out.write(header.ljust(_HEADER_SIZE, b"\0"))
            for name in STORED:
                out.seek(offsets[name][0])
                out.write(values[name])
            out.truncate(offsets[""][0])
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def read(path: Path) -> dict[str, memoryview] | None:
    """Each stored table as a memoryview of the mapped file, or None when the file is missing,
    of another layout, cut short, or a small table fails its CRC-32. The big tables (about
    17 MB) are mapped, not read: pages come in as lookups touch them, shared by every process;
    like a compiled ``.pyc`` they are trusted once the layout and the length are right."""
    try:
        with open(path, "rb") as source:
            mapped = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    view = memoryview(mapped)
    header = bytes(view[:_HEADER_SIZE]).split(b"\0", 1)[0]
    if not header.startswith(_MAGIC):
        return None
    try:
        lines = [line.split() for line in header[len(_MAGIC):].decode().splitlines()]
        entries = {line[0]: tuple(int(word) for word in line[1:]) for line in lines}
        if entries.pop("end") != (len(mapped),) or set(entries) != set(STORED):
            return None
        tables: dict[str, memoryview] = {}
        for name, code in STORED.items():
            offset, length, crc = entries[name]
            data = view[offset:offset + length]
            if len(data) != length or (name not in _MAPPED and zlib.crc32(data) != crc):
                return None
            tables[name] = data.cast(_code(code))
    except (ValueError, TypeError, KeyError):
        return None
    return tables


def _code(code: str) -> Literal["h", "i", "B"]:
    return "i" if code == "i" else "B" if code == "B" else "h"


def _tables_of(stored: dict[str, memoryview]) -> Tables:
    lists = {name: stored[name].tolist() for name in _LISTS}
    return Tables(
        high5=stored["high5"], flush5=stored["flush5"], high6=stored["high6"],
        high7=stored["high7"],
        high_class=ClassTable(stored["high_class"], 6),
        three_class=ClassTable(stored["three_class"], 4),
        esg_class=RankTable(stored["esg_class"], 5),
        low8_class=RankTable(stored["low8_class"], 5),
        **lists,
    )


@dataclass(frozen=True, slots=True)
class LowballTables:
    """The tables of the draw and stud lowballs, built on first use (a few tens of ms) so
    that a process which never deals them does not pay for them."""

    # Deuce-to-seven lowball: 5-card rank key sums (RANK_KEYS_5) to the strength of the
    # non-flush / flush hand; strength -> (category, ranks in display order).
    d7_high5: npt.NDArray[np.int16]
    d7_flush5: npt.NDArray[np.int16]
    d7_class: list[tuple[int, tuple[int, ...]]]
    # A-5 low with pairs (razz): 5-card rank key sums to the strength; the best 5 of every
    # 6- and 7-rank multiset by RANK_KEYS_7 sum; strength -> (category, ranks).
    a5_5: npt.NDArray[np.int16]
    a5_many: dict[int, dict[int, int]]  # 6 or 7 -> key sum -> strength
    a5_sorted: dict[int, tuple[IntArray, npt.NDArray[np.int16]]]  # the same, sorted by sum
    a5_class: list[tuple[int, tuple[int, ...]]]
    # Badugi: 13-bit card-rank mask of a rainbow, unpaired hand -> strength; strength -> ranks.
    badugi_mask: npt.NDArray[np.int16]
    badugi_class: list[tuple[int, ...]]


@functools.cache
def lowball_tables() -> LowballTables:
    """Build the lowball tables once per process (numpy: the first lowball evaluation)."""
    import numpy as np

    # Deuce-to-seven lowball: the ace-high order of high hands, reversed.
    d7_high5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    d7_flush5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    d7_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (DEUCE_SEVEN_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(high_classes(wheel=False)):
        strength = position + 1
        d7_class[strength] = (category, ranks)
        target = d7_flush5 if category in (STRAIGHT_FLUSH, FLUSH) else d7_high5
        target[sum(RANK_KEYS_5[r] for r in ranks)] = strength

    # A-5 low with pairs: one table of 5-rank multisets, the best 5 of 6 and 7 brute force.
    a5_5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    a5_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (A5_LOW_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(a5_low_classes()):
        strength = position + 1
        a5_class[strength] = (category, ranks)
        a5_5[sum(RANK_KEYS_5[r] for r in ranks)] = strength
    a5_many: dict[int, dict[int, int]] = {}
    a5_sorted: dict[int, tuple[IntArray, npt.NDArray[np.int16]]] = {}
    for n in (6, 7):  # (the key sums are distinct within one count, not across counts)
        sums, values = best_of_multisets(n, a5_5)
        a5_many[n] = dict(zip(sums.tolist(), values.tolist(), strict=True))
        order = np.argsort(sums)
        a5_sorted[n] = (sums[order], values[order].astype(np.int16))

    # Badugi on card-rank masks.
    badugi_mask = np.zeros(1 << 13, dtype=np.int16)
    badugi_class: list[tuple[int, ...]] = [()] * (BADUGI_CLASS_COUNT + 1)
    for position, ranks in enumerate(badugi_classes()):
        badugi_mask[sum(1 << r for r in ranks)] = position + 1
        badugi_class[position + 1] = ranks

    return LowballTables(
        d7_high5=d7_high5,
        d7_flush5=d7_flush5,
        d7_class=d7_class,
        a5_5=a5_5,
        a5_many=a5_many,
        a5_sorted=a5_sorted,
        a5_class=a5_class,
        badugi_mask=badugi_mask,
        badugi_class=badugi_class,
    )


@functools.cache
def tables() -> Tables:
    """Every table, once per process: mapped from the cache file, or built (and the file
    written) when it is missing, stale or damaged."""
    path = cache_path()
    stored = read(path)
    if stored is None:
        write(path, build())
        stored = read(path)
    if stored is None:  # the cache directory cannot be written: keep the tables in memory
        stored = {name: memoryview(data).cast(_code(STORED[name]))
                  for name, data in build().items()}
    return _tables_of(stored)


@functools.cache
def arrays() -> Arrays:
    """numpy views of the tables, for the batch path."""
    import numpy as np

    built = tables()
    return Arrays(
        high5=np.frombuffer(built.high5, dtype=np.int16),
        flush5=np.frombuffer(built.flush5, dtype=np.int16),
        high7=np.frombuffer(built.high7, dtype=np.int16),
        flush_mask=np.asarray(built.flush_mask, dtype=np.int16),
        esg_best=np.asarray(built.esg_best, dtype=np.int16),
        esg_best_mask=np.asarray(built.esg_best_mask, dtype=np.int32),
        low8_mask=np.asarray(built.low8_mask, dtype=np.int16),
        low8_best=np.asarray(built.low8_best, dtype=np.int16),
        three=np.asarray(built.three, dtype=np.int16),
    )


def warm_up() -> None:
    """Build (or map) every table now, numpy's included, instead of on first use: a server
    calls it before it takes requests, so no hand in its event loop pays for a build; and
    bring the mapped tables' pages in (``map_in``)."""
    tables()
    arrays()
    lowball_tables()
    map_in()


def map_in() -> int:
    """Read one byte of every page of the mapped tables (about 30 MB), so they are resident
    from the start instead of coming in as play touches them: a lookup is anywhere in the
    7-card and 6-card tables, and the kernel maps 64 KiB around each page touched, so a
    server's first few hundred boards brought in 10 to 13 MB whatever its tables (100 KiB a
    table at 100 ESG tables, 42 at 300: docs/decisions.md, "mem13"). Clean pages of the file,
    shared by every process on the host; returns the bytes of tables read."""
    import numpy as np

    built = tables()
    read = 0
    for name in _MAPPED:
        data = np.frombuffer(getattr(built, name), dtype=np.uint8)
        int(data[::mmap.PAGESIZE].sum())  # one byte a page
        read += data.nbytes
    return read


def rank_name(rank: int) -> str:
    return RANKS[rank]
