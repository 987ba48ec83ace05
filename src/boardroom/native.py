"""The compiled engine: mypyc's builds of the engine's hot modules, used only while fresh.

``python -m boardroom.native_build`` (run by ``scripts/_bootstrap.sh`` after an install)
compiles the modules in ``COMPILED`` into ``compiled_dir()`` (``.venv/boardroom-compiled`` by
default, ``BOARDROOM_COMPILED_DIR`` to name another) with a stamp: the SHA-256 of the sources the
build read (the compiled modules and every Boardroom module they import, transitively), the
Python it was built for and the mypyc that built it. ``install()``, run by
``boardroom/__init__.py`` before any other Boardroom module is imported, reads the stamp and
hashes those sources again: when they match and the build's shared library loads, a finder at the
front of ``sys.meta_path`` hands out the compiled extension modules for those names; otherwise
nothing changes and the pure Python modules are imported, with one line logged saying why and how
to rebuild. A stale build is never used, so it can cost speed but never a wrong result.
``BOARDROOM_ENGINE=pure`` keeps the pure modules without a word.

All or nothing: either every module in ``COMPILED`` is the compiled one or none is (compiled
modules call each other's classes directly, so a mix could meet two classes of one name).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

# Imported by ``boardroom/__init__.py`` at every start: only modules Python has loaded anyway
# or that cost little (the builder's ``ast`` is imported where it is used).

# The engine's hot modules, compiled together into one shared library (mypyc's group).
COMPILED: tuple[str, ...] = (
    "boardroom.engine.hand",
    "boardroom.engine.betting",
    "boardroom.engine.dealing",
    "boardroom.engine.showdown",
    "boardroom.engine.pots",
    "boardroom.engine.stud",
    "boardroom.engine.events",
    "boardroom.engine.errors",
    "boardroom.engine.runout",
    "boardroom.engine.runs",
    "boardroom.engine.redraws",
    "boardroom.engine.straddle",
    "boardroom.evaluation.scalar",
    "boardroom.evaluation.lowball",
    "boardroom.evaluation.hands",
    "boardroom.evaluation.values",
)
GROUP = "boardroom_engine"
SHARED_LIBRARY = f"{GROUP}__mypyc"
ENGINE_VARIABLE = "BOARDROOM_ENGINE"
DIR_VARIABLE = "BOARDROOM_COMPILED_DIR"
STAMP = "stamp.json"
REBUILD = "python -m boardroom.native_build --force"

log = logging.getLogger("boardroom.native")
_PACKAGE = Path(__file__).resolve().parent  # src/boardroom (or site-packages/boardroom)


class Status(NamedTuple):
    """What ``install()`` decided: ``compiled`` when the compiled modules are in use, and why."""

    compiled: bool
    reason: str
    directory: Path


_status: Status | None = None


def compiled_dir() -> Path:
    """The build's folder: ``BOARDROOM_COMPILED_DIR``, else ``boardroom-compiled`` in the
    environment's prefix (the virtual environment)."""
    named = os.environ.get(DIR_VARIABLE)
    return Path(named) if named else Path(sys.prefix) / "boardroom-compiled"


def python_tag() -> str:
    """The Python a build is for: its version, implementation and extension-module suffix."""
    return (f"{sys.implementation.cache_tag} {sys.version.split()[0]} "
            f"{importlib.machinery.EXTENSION_SUFFIXES[0]}")


def _module_file(name: str) -> Path | None:
    """The source of Boardroom module ``name`` (a module or a package's ``__init__``)."""
    parts = name.split(".")[1:]
    base = _PACKAGE.joinpath(*parts) if parts else _PACKAGE
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def source_files(modules: Sequence[str] = COMPILED) -> list[str]:
    """The sources a build of ``modules`` depends on, relative to the package, sorted: the
    modules, every Boardroom module they import (transitively, at any depth in the code) and
    the packages above each. A change to any of them can change what mypyc made of the
    modules (a type, a constant it inlined), so each is in the stamp's hash."""
    import ast

    seen: set[str] = set()
    pending = list(modules)
    while pending:
        name = pending.pop()
        if name in seen or not (name == "boardroom" or name.startswith("boardroom.")):
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen.add(name)
        parts = name.split(".")
        pending.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        tree = ast.parse(path.read_bytes(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                pending.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                pending.append(node.module)
                pending.extend(f"{node.module}.{alias.name}" for alias in node.names)
    files = (_module_file(name) for name in seen)
    return sorted(str(path.relative_to(_PACKAGE)) for path in files if path is not None)


def sources_hash(files: Sequence[str]) -> str:
    """SHA-256 over each file's relative path and bytes, in the given order."""
    digest = hashlib.sha256()
    for name in files:
        data = (_PACKAGE / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def expected_stamp(mypyc_version: str) -> dict[str, object]:
    """The stamp of a fresh build of the current sources by ``mypyc_version``."""
    files = source_files()
    return {"modules": list(COMPILED), "files": files, "sha256": sources_hash(files),
            "python": python_tag(), "mypyc": mypyc_version}


def read_stamp(directory: Path) -> dict[str, object] | None:
    """A build's stamp, or None when there is none to read. The loader does not read its
    ``mypyc`` (the version that built it): a build works whichever mypyc is installed now."""
    try:
        stamp = json.loads((directory / STAMP).read_text())
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def write_stamp(directory: Path, stamp: dict[str, object]) -> None:
    (directory / STAMP).write_text(json.dumps(stamp, indent=1))


def _extension(directory: Path, name: str) -> Path | None:
    """The compiled file of module ``name`` in ``directory``, for this Python, if any."""
    base = directory.joinpath(*name.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = base.with_name(base.name + suffix)
        if candidate.is_file():
            return candidate
    return None


class _CompiledFinder:
    """Finds the compiled extension of each compiled module (and of their shared library)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def _check(directory: Path) -> tuple[dict[str, Path] | None, str]:
    """The compiled files to use and "", or None and why not."""
    stamp = read_stamp(directory)
    if stamp is None:
        return None, f"no compiled engine in {directory}"
    files = stamp.get("files")
    if (stamp.get("modules") != list(COMPILED) or not isinstance(files, list)
            or stamp.get("python") != python_tag()):
        return None, f"the compiled engine in {directory} is for another Python or module list"
    try:
        current = sources_hash([str(name) for name in files])
    except OSError:
        current = ""
    if current != stamp.get("sha256"):
        return None, f"the compiled engine in {directory} is stale (the sources changed)"
    found: dict[str, Path] = {}
    for name in (SHARED_LIBRARY, *COMPILED):
        file = _extension(directory, name)
        if file is None:
            return None, f"the compiled engine in {directory} lacks {name}"
        found[name] = file
    return found, ""


def install() -> Status:
    """Decide once per process between the compiled and the pure modules (see the module's
    doc); later calls return the first decision."""
    global _status
    if _status is not None:
        return _status
    directory = compiled_dir()
    if os.environ.get(ENGINE_VARIABLE, "").strip().lower() == "pure":
        _status = Status(False, f"{ENGINE_VARIABLE}=pure", directory)
        return _status
    files, reason = _check(directory)
    if files is not None:
        if any(name in sys.modules for name in COMPILED):
            files, reason = None, "the pure engine modules were imported first"
        else:
            try:  # the shared library holds all the compiled code: it must load
                spec = importlib.util.spec_from_file_location(SHARED_LIBRARY,
                                                              files[SHARED_LIBRARY])
                if spec is None or spec.loader is None:
                    raise ImportError(f"no loader for {files[SHARED_LIBRARY]}")
                library = importlib.util.module_from_spec(spec)
                sys.modules[SHARED_LIBRARY] = library
                spec.loader.exec_module(library)
            except Exception as error:  # ImportError, OSError: a broken or foreign build
                sys.modules.pop(SHARED_LIBRARY, None)
                files, reason = None, (f"the compiled engine in {directory} does not load "
                                       f"({type(error).__name__}: {error})")
    if files is None:
        log.warning("Boardroom runs its pure Python engine: %s; `%s` builds it.", reason,
                    REBUILD)
        _status = Status(False, reason, directory)
        return _status
    sys.meta_path.insert(0, _CompiledFinder(files))
    _status = Status(True, f"compiled engine from {directory}", directory)
    return _status


def status() -> Status:
    """The decision ``install()`` made in this process (making it if it has not yet)."""
    return install()
