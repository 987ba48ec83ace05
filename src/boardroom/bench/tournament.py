"""``boardroom bench tournament``: a bots-only tournament in-process against a cash game of the
same bots.

A field of bots (1,000 by default, PLO, turbo) plays a whole tournament in this process; the
same bot styles then play a cash game (``boardroom.bots.simulate``) at a full table. The table
shows hands per second of each, process CPU seconds, and the director's overhead: the CPU time
spent in the director's calls (``next_hand``, ``hand_ended``) over the CPU time spent dealing
and deciding the hands (CPU time, so that a shared machine's load does not skew it). The goal is
an overhead under 10%.

The live part (``boardroom.bench.tournament_live``) then plays a 100-entrant ESG tournament of
bots through a real server over loopback: hands per second, the p99 from an action to the event
that follows it, and the server's peak memory. ``--part`` runs one part alone.
"""

from __future__ import annotations

import argparse
import time


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--game", default="plo")
    parser.add_argument("--structure", default="turbo")
    parser.add_argument("--samples", type=int, default=10,
                        help="Monte Carlo samples per decision of the equity bots (default: 10)")
    parser.add_argument("--cash-hands", type=int, default=1000,
                        help="hands of the cash game (default: 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", choices=("both", "in-process", "live"), default="both",
                        help="in-process: the director against a cash game; live: a tournament "
                             "of bots through a server over loopback (default: both)")
    parser.add_argument("--live-entrants", type=int, default=100,
                        help="entrants of the live tournament (default: 100)")
    parser.add_argument("--live-game", default="esg",
                        help="the live tournament's game (default: esg)")
    parser.add_argument("--live-people", type=int, default=6,
                        help="scripted people among the live entrants, whose actions are "
                             "timed (default: 6; the rest are the server's bots)")
    parser.add_argument("--live-bots", default="random,station",
                        help="the server's bot styles in the live field, in turn (default: "
                             "random,station; tight and loose sample 200 deals a decision, "
                             "which the server's CPU pays for)")


def run(args: argparse.Namespace) -> int:
    from boardroom.cli import UsageError
    from boardroom.rules import find_variant

    if not 2 <= args.live_entrants <= 1000:
        raise UsageError("--live-entrants must be 2 to 1000")
    if not 0 <= args.live_people <= min(args.live_entrants, 50):
        raise UsageError("--live-people must be 0 to 50, and at most --live-entrants")
    from boardroom.bots import STYLES

    styles = [s.strip() for s in args.live_bots.split(",") if s.strip()]
    if not styles or any(s not in STYLES for s in styles):
        raise UsageError(f"--live-bots: styles among {', '.join(STYLES)}")
    try:
        live_name = find_variant(args.live_game).name
    except (KeyError, ValueError) as error:
        raise UsageError(f"--live-game: {error}") from None
    if args.part != "live":
        in_process(args)
    if args.part != "in-process":
        from boardroom.bench.tournament_live import report, run_live

        if args.part == "both":
            print()
        outcome = run_live(args.live_entrants, args.live_people, args.live_game, styles)
        print("\n".join(report(outcome, live_name)))
    return 0


def in_process(args: argparse.Namespace) -> None:
    from boardroom.bots.players import STYLES, make_bot
    from boardroom.bots.simulate import simulate
    from boardroom.commands.tournament import bot_tournament, make_director
    from boardroom.rules import find_variant

    settings = argparse.Namespace(rotation=None, game=args.game, entrants=args.entrants,
                                  structure=args.structure, table_size=None, buy_in=100,
                                  players=",".join(STYLES), samples=args.samples,
                                  seed=args.seed)
    director, bots = make_director(settings)
    outcome = bot_tournament(director, bots, seed=args.seed)
    tournament_cpu = outcome.cpu

    variant = find_variant(args.game)
    seats = min(director.config.table_size, variant.max_players)
    cash_bots = [(f"{STYLES[k % len(STYLES)]}-{k}",
                  make_bot(STYLES[k % len(STYLES)], args.seed * 7 + k, args.samples))
                 for k in range(seats)]
    cpu = time.process_time()
    started = time.perf_counter()
    simulate(variant, cash_bots, args.cash_hands, args.seed)
    cash_wall = time.perf_counter() - started
    cash_cpu = time.process_time() - cpu

    playing = outcome.cpu - outcome.director_cpu
    overhead = outcome.director_cpu / playing if playing > 0 else 0.0
    print(f"{args.entrants}-entrant {variant.name} tournament ({args.structure}, tables of "
          f"{director.config.table_size}, {args.samples} samples a decision) against a "
          f"{seats}-seat cash game of the same bots")
    print(f"{'run':<12}{'hands':>8}{'wall s':>9}{'cpu s':>8}{'hands/s':>9}{'cpu ms/hand':>13}")
    for name, hands, wall, spent in (("tournament", outcome.hands, outcome.wall, tournament_cpu),
                                     ("cash", args.cash_hands, cash_wall, cash_cpu)):
        print(f"{name:<12}{hands:>8}{wall:>9.1f}{spent:>8.1f}{hands / wall:>9.1f}"
              f"{1000 * spent / hands:>13.2f}")
    print(f"\ndirector: {outcome.director_cpu:.2f} CPU s of {outcome.cpu:.1f} "
          f"({1000 * outcome.director_cpu / outcome.hands:.3f} ms a hand); overhead "
          f"{overhead:.1%} of the time spent playing the hands (goal: under 10%) "
          f"{'met' if overhead < 0.10 else 'NOT met'}")
    print(f"levels played {len(outcome.hands_per_level)}, prize pool {director.prize_pool}, "
          f"winner {director.standings()[0].player}")
