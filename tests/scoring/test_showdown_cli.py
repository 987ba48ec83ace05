"""``boardroom showdown``: settle a typed hand, as text and JSON, and reject bad input clearly."""

from __future__ import annotations

import json

import pytest

from boardroom.cli import main

ESG_HAND = [
    "showdown", "esg", "--board", "A=As Kd 7c 2h 3s", "--board", "B=Qh Qd 9s 8s 2c",
    "--hand", "alice=Ah Ad Kh Kc 9h 8h", "--hand", "bob=Qs Qc Js Ts 7s 6s",
]


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main([*argv, "--json"]) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_esg_points_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, ESG_HAND)
    categories = {c["name"]: c for c in result["categories"]}  # type: ignore[attr-defined]
    assert list(categories) == ["A", "B", "Hand"]
    assert categories["A"]["winners"] == ["alice"]
    assert categories["A"]["hands"]["alice"].startswith("Three of a kind, aces")
    assert categories["B"]["winners"] == ["bob"]
    assert categories["B"]["hands"]["bob"].startswith("Four of a kind, queens")
    assert categories["Hand"]["winners"] == ["bob"]
    assert categories["Hand"]["hands"]["bob"].startswith("Flush, queen high")
    assert result["points"] == {"alice": "1", "bob": "2"}
    assert result["winners"] == ["bob"]


def test_text_output_names_winners_and_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ESG_HAND) == 0
    out = capsys.readouterr().out
    assert "Points: alice 1, bob 2" in out
    assert "Pot:    bob 1" in out


def test_split_category_gives_half_points(capsys: pytest.CaptureFixture[str]) -> None:
    # Both players make the same straight on A (2 hole + 3 board), so A is split 1/2 each.
    result = run_json(capsys, [
        "showdown", "bomb", "--board", "A=9c Tc Jd 2s 2h", "--board", "B=Ac Kc 4d 5h 7s",
        "--hand", "p1=Qh Kh 3c 3d", "--hand", "p2=Qs Ks 7h 7d",
    ])
    categories = {c["name"]: c for c in result["categories"]}  # type: ignore[attr-defined]
    assert categories["A"]["winners"] == ["p1", "p2"]
    assert result["points"]["p1"] == "1/2"  # type: ignore[index]
    assert result["points"]["p2"] == "3/2"  # type: ignore[index]
    assert result["winners"] == ["p2"]


def test_esg_low_void_hand(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, [
        "showdown", "esg-low", "--board", "A=2c 3c 4c 9h Th", "--board", "B=2d 3d 4d 9s Ts",
        "--hand", "p1=Ah Ad Kh Kd Qh Qd", "--hand", "p2=Js Jc 8s 8c 7s 7c",
    ])
    hand = result["categories"][2]  # type: ignore[index]
    assert hand["winners"] == []
    assert hand["hands"] == {"p1": "No low", "p2": "No low"}


def test_hi_lo_prints_shares(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, [
        "showdown", "omaha-hilo", "--board", "A=2c 3d 7h Ks Kd",
        "--hand", "hi=Kh Kc 9s 9d", "--hand", "lo=Ah 4s Qc Jd",
    ])
    assert result["share"] == {"hi": "1/2", "lo": "1/2"}
    assert result["winners"] == ["hi", "lo"]


def test_allocator_hands(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, [
        "showdown", "allocator", "--board", "A=2s 3s 9s Td Jh", "--board", "B=4h 4d 8c 8h Qs",
        "--hand", "p1=AsKs/QdQc/2c2d", "--hand", "p2=Ah7h/KhKd/AcKc",
    ])
    categories = {c["name"]: c for c in result["categories"]}  # type: ignore[attr-defined]
    assert categories["A"]["winners"] == ["p1"]
    assert categories["Hand"]["winners"] == ["p1"]
    assert categories["Hand"]["hands"]["p1"].startswith("Pair of twos")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hand", "alice=Ah Ad Kh Kc 9h 1h"], "'1h' is not a card"),
        (["--hand", "alice=Ah Ad Kh Kc 9h As"], "card As appears more than once"),
        (["--hand", "alice=Ah Ad Kh Kc 9h"], "every hand at a showdown holds the same number"),
        (["--board", "A=2c"], "board A is given twice"),
        (["--board", "C=2c 3c 4c 5c 6c"], "ESG has no board 'C'"),
        (["--hand", "bob=Qh Qd Jh Jd 5h 5d"], "two hands have the same name"),
        (["--hand", "carol=2d 3d 4d/5d 6d 7d"], "only the Allocator games split"),
        (["--hand", "nobody"], "is not NAME=CARDS"),
    ],
)
def test_bad_input_exits_2_with_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    base = list(ESG_HAND)
    if argv[0] == "--hand" and argv[1].startswith("alice="):
        base = [a for a in base if not a.startswith("alice=")]
        base.remove("--hand")
    assert main([*base, *argv]) == 2
    assert message in capsys.readouterr().err


def test_wrong_board_size_and_missing_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["showdown", "bomb", "--board", "A=2c 3c 4c 5c", "--board", "B=2d 3d 4d 5d 6d",
                 "--hand", "a=Ah Ad Kh Kd", "--hand", "b=Qh Qd Jh Jd"]) == 2
    assert "board A needs 5 cards, got 4" in capsys.readouterr().err
    assert main(["showdown", "bomb", "--board", "A=2c 3c 4c 5c 7c",
                 "--hand", "a=Ah Ad Kh Kd", "--hand", "b=Qh Qd Jh Jd"]) == 2
    assert "board B is missing" in capsys.readouterr().err


def test_illegal_allocation(capsys: pytest.CaptureFixture[str]) -> None:
    boards = ["--board", "A=2s 3s 9s Td Jh", "--board", "B=4h 4d 8c 8h Qs"]
    assert main(["showdown", "allocator", *boards, "--hand", "p1=AsKs/QdQc",
                 "--hand", "p2=Ah7h/KhKd/AcKc"]) == 2
    assert "hands are written A/B/Hand" in capsys.readouterr().err
    assert main(["showdown", "allocator", *boards, "--hand", "p1=AsKsQh/QdQc/2c",
                 "--hand", "p2=Ah7h/KhKd/AcKc"]) == 2
    assert "A takes 2 cards, got 3" in capsys.readouterr().err


def test_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["showdown", "lowball-36", "--hand", "a=Ah", "--hand", "b=Kh"]) == 2
    assert "unknown variant 'lowball-36'" in capsys.readouterr().err
