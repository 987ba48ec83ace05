"""``boardroom bench TARGET``: benchmarks that run our code and the named peers side by side."""

from __future__ import annotations

import argparse
import importlib

# target -> (module in boardroom.bench, help)
TARGETS: dict[str, tuple[str, str]] = {
    "eval": ("boardroom.bench.eval", "hand evaluators against phevaluator, eval7 and PokerKit"),
    "engine": ("boardroom.bench.engine", "random-action hands per second against PokerKit"),
    "server": ("boardroom.bench.server", "N tables of browser-like clients against a real server"),
    "cluster": ("boardroom.bench.cluster", "browser-like clients against 1 and 2 workers behind "
                                           "HAProxy: tables held, the ratio, failover time"),
    "soak": ("boardroom.bench.soak", "bot rooms through a live server for up to 1,000,000 hands: "
                                     "the server's memory over time, and errors"),
    "bots": ("boardroom.bench.bots", "bot decision times and win rates per variant"),
    "cli": ("boardroom.bench.cli", "start-up of `boardroom --help` and `boardroom replay FILE`"),
    "equity": ("boardroom.bench.equity", "all-in equity of every game against PokerKit's"),
    "tournament": ("boardroom.bench.tournament",
                   "a 1,000-entrant bots-only tournament in-process against a cash game"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    from boardroom.cli import add_commands

    add_commands(parser, TARGETS, "target", "_bench_module")


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(args._bench_module)
    result: int = module.run(args)
    return result
