"""``boardroom bench TARGET``: benchmarks that run our code and the named peers side by side."""

from __future__ import annotations

import argparse
import importlib

# target -> (module in boardroom.bench, help)
TARGETS: dict[str, tuple[str, str]] = {
    "eval": ("boardroom.bench.eval", "hand evaluators against phevaluator, eval7 and PokerKit"),
    "engine": ("boardroom.bench.engine", "random-action hands per second against PokerKit"),
    "server": ("boardroom.bench.server", "N tables of scripted players against a real server"),
    "bots": ("boardroom.bench.bots", "bot decision times and win rates per variant"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module_name, help_text) in TARGETS.items():
        sub = targets.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_bench_module=module_name)
        importlib.import_module(module_name).configure(sub)


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(args._bench_module)
    result: int = module.run(args)
    return result
