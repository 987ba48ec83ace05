"""Boardroom: a real-time poker room for the multi-board, point-scored Omaha variants."""

from boardroom import native

__version__ = "0.1.0"

# Before any engine module is imported: the compiled engine when its build is fresh, else the
# pure Python one (boardroom.native says how; `python -m boardroom.native_build` builds it).
native.install()
