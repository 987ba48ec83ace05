"""The ``boardroom`` command line.

Each command lives in ``boardroom.commands.<name>`` (benchmarks in ``boardroom.bench``) and is
imported only when it runs, so ``boardroom --help`` stays instant. Exit codes: 0 success,
2 bad input (a malformed card, an illegal action, a broken history file), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module, one-line help). The module defines ``configure(parser)`` and ``run(args)``.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("boardroom.commands.play", "start Boardroom on its embedded defaults"),
    "variants": ("boardroom.commands.variants", "list every variant: boards, streets, categories"),
    "showdown": ("boardroom.commands.showdown", "settle a finished hand: categories, points"),
    "replay": ("boardroom.commands.replay", "replay a hand history through the engine"),
    "verify": ("boardroom.commands.verify", "check hand histories were dealt from their seeds"),
    "bench": ("boardroom.commands.bench", "run a benchmark against the named peers"),
    "serve": ("boardroom.commands.serve", "run the poker room: HTTP and socket.io on uvicorn"),
    "sim": ("boardroom.commands.sim", "bots play a variant against each other: win rates, points"),
}


class UsageError(Exception):
    """Bad input on the command line or in a file it names: exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardroom",
        description="Boardroom: a poker room for the multi-board, point-scored Omaha variants.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        importlib.import_module(module_name).configure(sub)
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
    return result


if __name__ == "__main__":
    sys.exit(main())
