"""Compile the engine's hot modules with mypyc: ``python -m boardroom.native_build [--force]``.

The modules in ``boardroom.native.COMPILED`` are compiled by mypyc (through its public entry
point, ``mypyc.build.mypycify``, and setuptools' ``build_ext``) into one folder inside the
virtual environment (``boardroom.native.compiled_dir()``, ``.venv/boardroom-compiled``), with a
stamp: the SHA-256 of the sources the build depends on and the Python and mypyc versions. At
import, ``boardroom.native`` uses the compiled modules only while that stamp matches the
sources; otherwise the pure Python ones. Without ``--force`` a build whose stamp already matches
is left as it is (a no-op that costs the hash of the sources). Needs the ``compile`` extra
(mypy, which ships mypyc, and setuptools) and a C compiler. Exit code 0 when the build is fresh
at the end, 1 when it failed (the engine then stays pure Python, which is correct, only slower).

The build goes to a new folder beside the old one and replaces it only once the new modules have
been imported and have played hands of every game in a child process: a build that compiled
but does not work never becomes the one in use.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from boardroom import native

# A child process's check of a new build: every compiled module is the extension, and hands of
# every game play to their end.
_SMOKE = """
import random, sys
from boardroom import native
status = native.status()
assert status.compiled, status.reason
import importlib
for name in native.COMPILED:
    module = importlib.import_module(name)
    assert module.__file__ is not None and not module.__file__.endswith(".py"), module.__file__
from boardroom.engine import Deck, Hand
from boardroom.engine.betting import default_stakes
from boardroom.rules import VARIANTS
rng = random.Random(1)
for variant in VARIANTS:
    variant = variant.with_options()
    for number in range(3):
        hand = Hand(variant, default_stakes(variant), [200] * min(6, variant.max_players),
                    0, cards=Deck(rng=rng))
        steps = 0
        while not hand.is_over and steps < 500:
            steps += 1
            legal = hand.legal_actions()
            assert legal is not None
            if legal.bring_in is not None:
                hand.post_bring_in()
            elif legal.draw is not None:
                hand.draw(hand.hole[legal.seat][:rng.randint(0, legal.draw)])
            elif legal.check:
                hand.check()
            else:
                hand.call()
        assert hand.is_over, variant.id
print("ok")
"""


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


def build(force: bool = False, quiet: bool = False) -> bool:
    """Build (or keep) the compiled engine; True when a fresh build is in place at the end."""
    target = native.compiled_dir()
    try:
        mypyc_version = _mypy_version()
    except ImportError:
        print("boardroom.native_build: mypyc is not installed (pip install -e '.[compile]'); "
              "the engine stays pure Python", file=sys.stderr)
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    # One build at a time per folder (two test workers, a test and the bootstrap): the second
    # waits, then finds the first one's build fresh.
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = native.expected_stamp(mypyc_version)
        if not force and native.read_stamp(target) == stamp:
            if not quiet:
                print(f"boardroom.native_build: the compiled engine in {target} is up to date")
            return True
        return _build(target, stamp, quiet)


def _build(target: Path, stamp: dict[str, object], quiet: bool) -> bool:
    package = Path(native.__file__).resolve().parent
    paths = [str(package / (name.removeprefix("boardroom.").replace(".", "/") + ".py"))
             for name in native.COMPILED]
    started = time.monotonic()
    print(f"==> compiling the engine with mypyc {stamp['mypyc']} into {target} "
          "(about a minute)", flush=True)
    with tempfile.TemporaryDirectory(prefix="boardroom-mypyc-") as work:
        new = Path(tempfile.mkdtemp(prefix=target.name + ".new-", dir=target.parent))
        try:
            _compile(paths, Path(work), new, quiet)
            native.write_stamp(new, stamp)
            _smoke_test(new)
        except (Exception, SystemExit) as error:  # a failed build leaves the old one as it was
            shutil.rmtree(new, ignore_errors=True)
            why = "mypyc's errors above" if isinstance(error, SystemExit) else str(error)
            print(f"boardroom.native_build: the build failed ({why}); the engine stays "
                  "pure Python", file=sys.stderr)
            return False
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        new.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    print(f"==> compiled {len(paths)} engine modules in {time.monotonic() - started:.0f} s",
          flush=True)
    return True


def _compile(paths: list[str], work: Path, out: Path, quiet: bool) -> None:
    """mypyc's C for ``paths`` in ``work``, compiled by setuptools' build_ext into ``out``."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    here = os.getcwd()
    os.chdir(work)  # mypy reads no project config here; its cache stays in the work folder
    try:
        extensions = mypycify(
            [*paths, "--strict", "--cache-dir", str(work / "mypy-cache")],
            target_dir=str(work / "c"), group_name=native.GROUP, opt_level="3",
            debug_level="0")
        distribution = Distribution({"name": "boardroom-compiled", "ext_modules": extensions})
        distribution.script_args = ["build_ext", "--build-lib", str(out), "--build-temp",
                                    str(work / "temp")]
        if quiet:
            distribution.script_args.insert(0, "--quiet")
        distribution.parse_command_line()
        distribution.run_commands()
    finally:
        os.chdir(here)


def _smoke_test(out: Path) -> None:
    env = {**os.environ, native.DIR_VARIABLE: str(out)}
    env.pop(native.ENGINE_VARIABLE, None)
    done = subprocess.run([sys.executable, "-c", _SMOKE], env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    if done.returncode != 0 or done.stdout.strip() != "ok":
        raise RuntimeError("the compiled modules failed their check: "
                           + (done.stderr.strip().splitlines() or ["no output"])[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardroom.native_build",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--force", action="store_true",
                        help="rebuild even when the stamp matches the sources")
    parser.add_argument("--quiet", action="store_true", help="less of the compiler's output")
    args = parser.parse_args(argv)
    return 0 if build(force=args.force, quiet=args.quiet) else 1


if __name__ == "__main__":
    sys.exit(main())
