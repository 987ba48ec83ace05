"""The ``boardroom`` command line.

Each command lives in ``boardroom.commands.<name>`` (benchmarks in ``boardroom.bench``) and is
imported and configured only when it runs, so ``boardroom --help`` loads no command and each
command loads only what it needs. Exit codes: 0 success, 2 bad input (a malformed card, an
illegal action, a broken history file), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, cast

# name -> (module, one-line help). The module defines ``configure(parser)`` and ``run(args)``.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("boardroom.commands.play", "start Boardroom on its embedded defaults"),
    "games": ("boardroom.commands.variants", "list every game: boards, streets, categories"),
    "showdown": ("boardroom.commands.showdown", "settle a finished hand: categories, points"),
    "replay": ("boardroom.commands.replay", "replay hand histories through the engine"),
    "verify": ("boardroom.commands.verify", "check hand histories were dealt from their seeds"),
    "bench": ("boardroom.commands.bench", "run a benchmark against the named peers"),
    "serve": ("boardroom.commands.serve", "run the poker room: HTTP and socket.io on uvicorn"),
    "cluster": ("boardroom.commands.cluster", "`cluster up`: PostgreSQL, Redis, N workers and "
                "HAProxy on this machine, for development and tests"),
    "sim": ("boardroom.commands.sim", "bots play a variant against each other: win rates, points"),
    "tournament": ("boardroom.commands.tournament", "tournaments: `tournament sim` plays bots "
                   "through a whole one"),
}


class UsageError(Exception):
    """Bad input on the command line or in a file it names: exit code 2."""


class _LazyCommands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subcommands whose module is imported and configured only once the command is chosen."""

    table: Mapping[str, tuple[str, str]] = {}

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        name = values[0] if values else ""
        chosen = self._name_parser_map.get(name)
        if chosen is not None and name in self.table and not chosen.get_default("_configured"):
            chosen.set_defaults(_configured=True)
            importlib.import_module(self.table[name][0]).configure(chosen)
        super().__call__(parser, namespace, values, option_string)


def add_commands(parser: argparse.ArgumentParser, table: Mapping[str, tuple[str, str]],
                 dest: str, module_key: str) -> None:
    """One subcommand per ``table`` entry (name -> (module, help)); the chosen command's module
    lands in ``args.<module_key>``. Nothing is imported until a command is chosen."""
    commands = cast(_LazyCommands, parser.add_subparsers(
        dest=dest, metavar=dest.upper(), required=True, action=_LazyCommands))
    commands.table = table
    for name, (module_name, help_text) in table.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(**{module_key: module_name})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardroom",
        description="Boardroom: a poker room for the multi-board, point-scored Omaha variants.",
    )
    add_commands(parser, COMMANDS, "command", "_module")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    try:
        result: int = module.run(args)
    except UsageError as error:
        print(f"boardroom {args.command}: error: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        # Every domain error (cards, actions, histories) derives from ValueError.
        print(f"boardroom {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``| head``): nothing is wrong. Point stdout at /dev/null so the
        # interpreter's last flush at exit finds no closed pipe either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
