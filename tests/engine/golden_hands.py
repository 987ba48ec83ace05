"""The golden hands of ``tests/engine/golden/``, as the data they were written from.

``python tests/engine/golden_hands.py`` rewrites the files (through the engine, so every action
in them is legal); ``test_engine_golden.py`` replays the files with ``boardroom replay`` and
checks the results computed by hand there. Players are ``p1..pn`` clockwise from the button's
left; the button is the last player.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent))  # run as a script, too

from action_script import play_script
from boardroom.cards import parse_cards
from boardroom.engine import Hand, ScriptedCards, Stakes
from boardroom.engine.history import dumps
from boardroom.rules import find_variant

GOLDEN = Path(__file__).parent / "golden"
BLINDS = {"small_blind": 1, "big_blind": 2}
STUD = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
BOARD = "4c5d9cKh2d"
FOUR = ["AcAdKcKd", "2c3d4h6s", "7c8d9hTs", "JcQd2h3s"]



def spec(**fields: Any) -> dict[str, Any]:
    """One golden hand: variant, options, stakes, stacks, hole cards, board and actions."""
    return fields


HANDS: dict[str, dict[str, Any]] = {
    "pot_limit_max": spec(
        variant="plo", stakes=BLINDS, stacks=[200] * 4, hole=FOUR, board=BOARD,
        actions="p3 cbr 7|p4 cbr 24|p1 f|p2 f|p3 cc|p3 cc|p4 cc|p3 cc|p4 cc|p3 cc|p4 cc"),
    "minimum_raise": spec(
        variant="plo", stakes=BLINDS, stacks=[200] * 3, hole=FOUR[:3], board=BOARD,
        actions="p3 cbr 6|p1 cbr 10|p2 f|p3 cc|p1 cbr 2|p3 cbr 4|p1 cc|p1 cc|p3 cc|p1 cc|p3 cc"),
    "no_limit_all_in": spec(
        variant="plo", options={"betting": "no-limit"}, stakes=BLINDS, stacks=[100, 150, 300],
        hole=["AcAdKcKd", "9h9d3c7s", "JcQd2h3s"], board=BOARD,
        actions="p3 cbr 300|p1 cc|p2 cc"),
    "short_all_in": spec(
        variant="plo", stakes=BLINDS, stacks=[200, 14, 200, 200], hole=FOUR, board=BOARD,
        actions="p3 cbr 4|p4 cbr 10|p1 f|p2 cbr 14|p3 cc|p4 cc|p3 cc|p4 cc|p3 cc|p4 cc|p3 cc|"
                "p4 cc"),
    "everyone_folds": spec(
        variant="plo", stakes=BLINDS, stacks=[100] * 3, hole=FOUR[:3], board=BOARD,
        actions="p3 cbr 6|p1 f|p2 f"),
    "fixed_limit_hilo": spec(
        variant="omaha-hilo", options={"betting": "fixed-limit"}, stakes=BLINDS,
        stacks=[100] * 3, hole=["Ac3dJdTc", "9h9d4h4s", "QcQdJcJs"], board="2c5d9cKh7s",
        actions="p3 cbr 4|p1 cbr 6|p2 cbr 8|p3 cc|p1 cc|p1 cbr 2|p2 cbr 4|p3 cc|p1 cc|"
                "p1 cbr 4|p2 cc|p3 cc|p1 cc|p2 cc|p3 cc"),
    "hilo_odd_chip": spec(
        variant="omaha-hilo", stakes=BLINDS, stacks=[100] * 3,
        hole=["QcQdJcJs", "9h9d4h4s", "Ac3dJdTc"], board="2c5d9cKh7s",
        actions="p3 cc|p1 f|p2 cc|p2 cc|p3 cc|p2 cc|p3 cc|p2 cc|p3 cc"),
    "hilo_no_low": spec(
        variant="omaha-hilo", stakes=BLINDS, stacks=[100] * 3,
        hole=["QcQdJcJs", "9h9d4h4s", "Ac4d6h8s"], board="9cTcKh2s3d",
        actions="p3 cc|p1 f|p2 cc|p2 cc|p3 cc|p2 cc|p3 cc|p2 cc|p3 cc"),
    "split_pot_odd_chip": spec(
        variant="plo", stakes=BLINDS, stacks=[100] * 3,
        hole=["2c3c4h5h", "AdKd5c6h", "AhKc7c8c"], board="QsJsTs4d4s",
        actions="p3 cc|p1 f|p2 cc|p2 cc|p3 cc|p2 cc|p3 cc|p2 cc|p3 cc"),
    "showdown_order": spec(
        variant="plo", stakes=BLINDS, stacks=[100] * 3,
        hole=["QcQdJcJs", "7c8dThTs", "AcAdKcKd"], board=BOARD,
        actions="p3 cc|p1 cc|p2 cc|p1 cc|p2 cc|p3 cc|p1 cc|p2 cc|p3 cc|p1 cc|p2 cbr 2|p3 cc|"
                "p1 cc"),
    "plo5_heads_up": spec(
        variant="plo", options={"hole_cards": 5}, stakes=BLINDS, stacks=[100, 100],
        hole=["AcAdKcKdQs", "7c8d9hTsJs"], board=BOARD,
        actions="p2 cc|p1 cc|p1 cc|p2 cc|p1 cc|p2 cc|p1 cc|p2 cc"),
    "courchevel": spec(
        variant="courchevel", stakes=BLINDS, stacks=[100, 100],
        hole=["AcAdKcKdQs", "7c8d9hTsJs"], board=BOARD,
        actions="p2 cc|p1 cc|p1 cc|p2 cc|p1 cc|p2 cc|p1 cc|p2 cc"),
    "stud_hilo": spec(
        variant="stud-hilo", options={"bring_in": "lowest"}, stakes=STUD, stacks=[100] * 3,
        hole=["9s9d7h8h6h4hJh", "Ac4c2c3d5sQcQd", "Kc3hKdKs9c2hTs"],
        actions="p2 pb|p3 cbr 5|p1 cc|p2 cc|p3 cbr 5|p1 cc|p2 cc|p3 cbr 10|p1 cc|p2 cc|"
                "p3 cc|p1 cc|p2 cc|p3 cc|p1 cc|p2 cc"),
    "stud_bring_in_highest": spec(
        variant="stud-hilo", stakes=STUD, stacks=[100] * 3,
        hole=["9s9d7h8h6h4hJh", "Ac4c7s3d5sQcQd", "Kc3h2cKs9c2hTs"],
        actions="p2 pb|p3 f|p1 f"),
    # 5 Card Stud (PokerKit has no such game): one down and one up, the lowest up card (2c)
    # brings in, later streets opened by the best hand showing, big bets on fourth and fifth.
    "stud5": spec(
        variant="stud5", stakes=STUD, stacks=[100] * 3,
        hole=["9s9d7h8h6h", "Ac2c4d5sQc", "KcKd3hKs9c"],
        actions="p2 pb|p3 cbr 5|p1 cc|p2 cc|p3 cbr 5|p1 cc|p2 f|p3 cbr 10|p1 cc|p3 cc|p1 cc"),
    # Razz: the king brings in (the ace is low), later streets open with the lowest hand
    # showing (a pair of aces showing is worse than Q-7-6); 7-6-4-2-A beats 7-6-5-3-A.
    "razz": spec(
        variant="razz", stakes=STUD, stacks=[100] * 3,
        hole=["2c3cKh8d5s9c4h", "Ad4d6s7hQs2hJd", "5c6cAsAh3d7cTc"],
        actions="p1 pb|p2 cc|p3 cc|p2 cbr 5|p3 cc|p1 f|p2 cbr 10|p3 cc|p2 cc|p3 cbr 10|p2 cc|"
                "p2 cc|p3 cc"),
    # Five Card Draw (PokerKit has no such game): each player draws in turn from the button's
    # left, right after throwing; the draw cards follow each player's first five here.
    "five_card_draw": spec(
        variant="five-card-draw", stakes=BLINDS, stacks=[100] * 3,
        hole=["AcAdKc7s2hAh4d", "9h9d4c5c6c7c", "QsQhJd3c8dQd2s5h"],
        actions="p3 cbr 6|p1 cc|p2 cc|p1 sd 7s2h|p2 sd 4c|p3 sd Jd3c8d|p1 cbr 10|p2 f|p3 cc"),
}


def build(spec: dict[str, Any]) -> Hand:
    variant = find_variant(spec["variant"]).with_options(**spec.get("options", {}))
    count = len(spec["stacks"])
    hole = {seat: parse_cards(cards) for seat, cards in enumerate(spec["hole"])}
    boards = {"A": parse_cards(spec.get("board", ""))} if variant.boards else {}
    hand = Hand(variant, Stakes(**spec["stakes"]), spec["stacks"], count - 1,
                cards=ScriptedCards(hole, boards))
    return play_script(hand, spec["actions"])


def write_all() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, spec in HANDS.items():
        (GOLDEN / f"{name}.phh").write_text(dumps(build(spec)))


if __name__ == "__main__":
    write_all()
