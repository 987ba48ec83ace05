"""Our plain-PHH golden histories (PO, FO/8, F7S/8) load in PokerKit and finish as ours do."""

from __future__ import annotations

import json
import tomllib
import warnings
from pathlib import Path

import pytest

from boardroom.cli import main

GOLDEN = Path(__file__).parents[1] / "engine" / "golden"
PLAIN_PHH = sorted(
    path for path in GOLDEN.glob("*.phh")
    if tomllib.loads(path.read_text()).get("variant") in {"PO", "FO/8", "F7S/8"}
)


def test_every_plain_code_has_a_golden_hand() -> None:
    codes = {tomllib.loads(p.read_text())["variant"] for p in PLAIN_PHH}
    assert codes == {"PO", "FO/8", "F7S/8"}


@pytest.mark.parametrize("path", PLAIN_PHH, ids=lambda p: p.stem)
def test_pokerkit_replays_our_history_to_the_same_stacks(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pokerkit import HandHistory

        *_, state = iter(HandHistory.loads(path.read_text()))
    assert main(["replay", str(path), "--json"]) == 0
    ours = json.loads(capsys.readouterr().out)["final_stacks"]
    assert list(state.stacks) == ours
    assert ours == tomllib.loads(path.read_text())["finishing_stacks"]
