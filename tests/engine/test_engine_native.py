"""The compiled engine (``boardroom.native``): mypyc's build is the engine in use while its stamp
matches the sources, the pure modules otherwise (with one line saying why) or when
``BOARDROOM_ENGINE=pure`` asks; both engines give the same results, byte for byte.

Each check runs in a child process (the engine is chosen once per process). The build in use is
rebuilt first when stale (``python -m boardroom.native_build``, about a minute), so the checks
always see a fresh one; a build that fails fails these tests, saying why."""

from __future__ import annotations

import copy
import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardroom import native
from boardroom.cards import shuffled_deck
from boardroom.engine import Deck, Hand
from boardroom.engine import events as ev
from boardroom.engine.betting import default_stakes
from boardroom.engine.dealing import _shuffled_deck
from boardroom.rules import find_variant

ROOT = Path(__file__).resolve().parents[2]
# Prints, one a line: whether the compiled engine is in use, then each compiled module's file.
_REPORT = ("from boardroom import native\nimport importlib\nprint(native.status().compiled)\n"
           "for name in native.COMPILED:\n    print(importlib.import_module(name).__file__)\n")


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    for name in (native.ENGINE_VARIABLE, native.DIR_VARIABLE):
        if name not in env:
            environment.pop(name, None)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="module")
def build() -> Path:
    """The folder of a fresh build (the environment's own, rebuilt first when stale)."""
    done = _run(["-m", "boardroom.native_build", "--quiet"])
    assert done.returncode == 0, f"the compiled engine does not build:\n{done.stderr[-4000:]}"
    return native.compiled_dir()


def _is_extension(file: str) -> bool:
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_a_fresh_build_is_the_engine_in_use(build: Path) -> None:
    done = _run(["-c", _REPORT])
    assert done.returncode == 0, done.stderr
    compiled, *files = done.stdout.split()
    assert compiled == "True"
    assert len(files) == len(native.COMPILED)
    assert all(_is_extension(file) and file.startswith(str(build)) for file in files), files
    assert done.stderr == ""  # nothing to say


def _pure_with_notice(done: subprocess.CompletedProcess[str], why: str) -> None:
    assert done.returncode == 0, done.stderr
    compiled, *files = done.stdout.split()
    assert compiled == "False"
    assert all(file.endswith(".py") for file in files), files
    notice = done.stderr.splitlines()
    assert len(notice) == 1, done.stderr  # one line, once
    assert why in notice[0]
    assert native.REBUILD in notice[0]


def test_a_stale_build_is_never_used(build: Path, tmp_path: Path) -> None:
    """A stamp that does not match the sources (as after an edit) leaves the pure engine in
    use, and says so once, naming the fix."""
    stale = tmp_path / "compiled"
    shutil.copytree(build, stale)
    stamp = json.loads((stale / native.STAMP).read_text())
    stamp["sha256"] = "0" * 64
    (stale / native.STAMP).write_text(json.dumps(stamp))
    _pure_with_notice(_run(["-c", _REPORT], BOARDROOM_COMPILED_DIR=str(stale)), "stale")
    # The same build with its true stamp is used from there: only the stamp made the difference.
    shutil.copy(build / native.STAMP, stale / native.STAMP)
    done = _run(["-c", _REPORT], BOARDROOM_COMPILED_DIR=str(stale))
    assert done.stdout.split()[0] == "True", done.stderr


def test_a_build_for_another_python_a_missing_or_a_broken_one_is_not_used(
        build: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(build, other)
    stamp = json.loads((other / native.STAMP).read_text())
    stamp["python"] = "cpython-39 3.9.0 .so"
    (other / native.STAMP).write_text(json.dumps(stamp))
    _pure_with_notice(_run(["-c", _REPORT], BOARDROOM_COMPILED_DIR=str(other)),
                      "another Python")
    _pure_with_notice(_run(["-c", _REPORT], BOARDROOM_COMPILED_DIR=str(tmp_path / "none")),
                      "no compiled engine")
    broken = tmp_path / "broken"
    shutil.copytree(build, broken)
    library = next(broken.glob(native.SHARED_LIBRARY + ".*"))
    library.write_bytes(b"not a shared library")  # dlopen refuses it: an ImportError
    _pure_with_notice(_run(["-c", _REPORT], BOARDROOM_COMPILED_DIR=str(broken)),
                      "does not load")


def test_boardroom_engine_pure_keeps_the_pure_engine_quietly(build: Path) -> None:
    done = _run(["-c", _REPORT], BOARDROOM_ENGINE="pure")
    assert done.returncode == 0, done.stderr
    compiled, *files = done.stdout.split()
    assert compiled == "False"
    assert all(file.endswith(".py") for file in files), files
    assert done.stderr == ""


def test_the_compiled_and_the_pure_engine_play_the_same_hands(build: Path) -> None:
    """``scripts/engine_digest.py``: 300 random hands of every game setting (actions, probes,
    refusals, events, results, run-outs, every seat's views) digested, under each engine."""
    digests = {}
    for engine in ("compiled", "pure"):
        env = {native.ENGINE_VARIABLE: "pure"} if engine == "pure" else {}
        done = _run(["scripts/engine_digest.py", "--hands", "300"], **env)
        assert done.returncode == 0, done.stderr[-4000:]
        assert done.stderr == ""  # the compiled one was in use: no notice
        digests[engine] = done.stdout
    assert len(digests["pure"].splitlines()) == 18
    assert digests["compiled"] == digests["pure"]


def test_the_seeded_shuffle_is_random_shuffle() -> None:
    """The deck's own shuffle of a ``random.Random`` deals exactly ``Random.shuffle``'s deck,
    and leaves the generator where ``Random.shuffle`` does."""
    for seed in range(500):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert _shuffled_deck(ours) == shuffled_deck(theirs)
        assert ours.random() == theirs.random()

    class Counting(random.Random):
        shuffles = 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            Counting.shuffles += 1
            super().shuffle(x)

    assert _shuffled_deck(Counting(3)) == shuffled_deck(random.Random(3))
    assert Counting.shuffles == 1  # any other generator shuffles by itself


def test_hands_and_decks_copy_under_either_engine() -> None:
    """``copy.copy`` (a table's history) and ``copy.deepcopy`` (the runs, the rabbit hunt) of
    the engine's objects, whichever engine this process runs."""
    variant = find_variant("holdem")
    deck = Deck(rng=random.Random(2))
    hand = Hand(variant, default_stakes(variant), [100, 100, 100], 0, cards=deck)
    hand.call()
    seen = copy.copy(hand)
    assert seen.events is hand.events
    assert seen.stacks == hand.stacks
    twin = copy.deepcopy(deck)
    assert [twin.board("A", 3), twin.burn()] == [deck.board("A", 3), deck.burn()]
    legal = hand.legal_actions()
    assert copy.deepcopy(legal) == legal


def test_the_events_know_their_seats_and_private_cards_under_either_engine() -> None:
    """mypyc's build keeps plain types in the events' annotations; ``field_hints`` reads the
    marks from the source there: the same seats and private cards as the pure module's."""
    seats = {kind.__name__: [name for name, _ in ev.seat_fields(kind)]
             for kind in ev.EVENT_TYPES}
    assert seats["HoleDealt"] == seats["Redrawn"] == ["seat"]
    assert seats["PotAwarded"] == ["eligible", "shares"]
    assert seats["StreetStarted"] == []
    owner, private = ev.private_fields(ev.Redrawn)
    assert owner == "seat"
    assert [name for name, _ in private] == ["cards"]
    assert not ev.shown_with_hand(ev.Redrawn)
    assert ev.shown_with_hand(ev.HoleDealt)
