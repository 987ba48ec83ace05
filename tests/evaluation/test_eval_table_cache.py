"""The evaluator's tables come from a cache file: what is read back is what was built, and a
missing, damaged or foreign file is rebuilt, never trusted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardroom.evaluation import _tables as tb


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    return tb.build()


def test_the_file_reads_back_every_table_as_built(tmp_path: Path,
                                                  built: dict[str, bytes]) -> None:
    path = tmp_path / "tables.bin"
    tb.write(path, built)
    stored = tb.read(path)
    assert stored is not None
    assert sorted(stored) == sorted(tb.STORED)
    assert {name: stored[name].tobytes() for name in stored} == built


def test_the_tables_in_use_are_the_built_ones(built: dict[str, bytes]) -> None:
    """Whatever cache file this process read, its tables equal a fresh build."""
    tables = tb.tables()
    assert tables.high7.tobytes() == built["high7"]
    assert tables.high6.tobytes() == built["high6"]
    for name in ("flush_mask", "esg_mask", "esg_best", "low8_mask", "low8_best", "three"):
        assert getattr(tables, name) == memoryview(built[name]).cast("h").tolist(), name
    assert tables.esg_best_mask == memoryview(built["esg_best_mask"]).cast("i").tolist()
    classes = tb.high_classes()
    assert [tables.high_class[7462 - i] for i in range(len(classes))] == classes
    assert tables.high_class[0] == (-1, ())
    three = tb.three_card_classes()
    assert [tables.three_class[741 - i] for i in range(len(three))] == three
    lows = tb.esg_low_classes()
    assert [tables.esg_class[1278 - i] for i in range(len(lows))] == lows
    assert tables.esg_order == [sum(1 << r for r in ranks) for ranks in lows]
    eights = tb.low8_classes()
    assert [tables.low8_class[56 - i] for i in range(len(eights))] == eights


def _damaged(path: Path, built: dict[str, bytes], how: str) -> None:
    tb.write(path, built)
    data = bytearray(path.read_bytes())
    if how == "cut short":
        data = data[:len(data) // 2]
    elif how == "foreign magic":
        data[:4] = b"XXXX"
    elif how == "small table flipped":
        header = bytes(data[:4096]).split(b"\0", 1)[0].decode().splitlines()
        offset = next(int(line.split()[1]) for line in header if line.startswith("three "))
        data[offset + 100] ^= 0xFF
    elif how == "header garbled":
        data[40:60] = b"not numbers at all!!"
    elif how == "empty":
        data = bytearray()
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["cut short", "foreign magic", "small table flipped",
                                 "header garbled", "empty"])
def test_a_damaged_file_is_refused(tmp_path: Path, built: dict[str, bytes], how: str) -> None:
    path = tmp_path / "tables.bin"
    _damaged(path, built, how)
    assert tb.read(path) is None


def _evaluate_in_child(cache: Path) -> str:
    code = ("from boardroom.cards import parse_cards\n"
            "from boardroom.evaluation import omaha\n"
            "print(omaha(parse_cards('AsKs2d3c'), parse_cards('QsJsTs4h5h')).description)\n")
    env = {**os.environ, "BOARDROOM_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    return done.stdout.strip()


def test_a_damaged_file_is_rebuilt_and_rewritten(tmp_path: Path,
                                                built: dict[str, bytes]) -> None:
    path = tb.cache_path()
    cache = tmp_path / "cache"
    cache.mkdir()
    target = cache / path.name
    _damaged(target, built, "small table flipped")
    assert _evaluate_in_child(cache) == "Royal flush"
    assert tb.read(target) is not None  # rewritten whole


def test_an_unwritable_cache_folder_keeps_the_tables_in_memory(tmp_path: Path) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    assert _evaluate_in_child(blocked) == "Royal flush"


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads Linux's /proc")
def test_warming_up_brings_every_page_of_the_mapped_tables_in() -> None:
    """A server's warm-up makes the mapped tables resident at once (counted in the kernel's
    /proc/PID/smaps for the cache file's mapping, in a process of its own): before it, a fresh
    process that only mapped them has a few pages in; after it, all of them (the 7-card and
    6-card tables are most of the file), so play adds none of the file's pages to a server's
    memory."""
    code = ("import os, re\n"
            "from boardroom.evaluation import _tables as tb\n"
            "def resident():\n"
            "    inside, kib = False, 0\n"
            "    for line in open(f'/proc/{os.getpid()}/smaps'):\n"
            "        if re.match(r'^[0-9a-f]+-[0-9a-f]+ ', line):\n"
            "            inside = line.rstrip().endswith(tb.cache_path().name)\n"
            "        elif inside and line.startswith('Rss:'):\n"
            "            kib += int(line.split()[1])\n"
            "    return kib\n"
            "tb.tables()\n"
            "print(resident(), os.path.getsize(tb.cache_path()) // 1024)\n"
            "tb.warm_up()\n"
            "print(resident())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    (before, size), (after,) = (tuple(int(word) for word in line.split())
                                for line in done.stdout.split("\n")[:2])
    assert before < size // 10
    assert after >= size * 0.95, (after, size)
