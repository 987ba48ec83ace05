"""The project's documents stand alone: every link resolves inside the repository, and the rule
book's worked examples are what the engine computes."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from boardroom.cli import main
from boardroom.engine.betting import pot_limit_max_raise_to

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_resolve_inside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{doc.name} points outside the repository"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        resolved = (doc.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name}: {target} leaves the repository"
        assert resolved.exists(), f"{doc.name}: {target} does not exist"


def test_the_readme_links_the_rule_book() -> None:
    assert "](docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def _rules() -> str:
    return (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def test_the_esg_worked_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(_rules().split())
    command = re.search(r"`(boardroom showdown esg [^`]+)`", text)
    assert command is not None
    argv = shlex.split(command.group(1))[1:]
    assert main([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    winners = {c["name"]: c["winners"] for c in result["categories"]}
    assert winners == {"A": ["alice"], "B": ["bob"], "Hand": ["bob"]}
    assert result["points"] == {"alice": "1", "bob": "2"}
    assert result["winners"] == ["bob"]


def test_the_omaha_hilo_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(_rules().split())
    assert "the board is `Ks 8d 7c 3h 2s`. Ann holds `Ah 4d Kd Qc` and Ben `Kh Kc 7d 6h`" in text
    assert main(["showdown", "omaha-hilo", "--board", "A=Ks 8d 7c 3h 2s",
                 "--hand", "ann=Ah 4d Kd Qc", "--hand", "ben=Kh Kc 7d 6h", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    winners = {c["name"]: c["winners"] for c in result["categories"]}
    assert winners == {"High": ["ben"], "Low": ["ann"]}


def test_the_pot_limit_worked_example() -> None:
    assert "the first player to act may raise to 7, because 2 + (1 + 2 + 2) = 7" in _rules()
    assert pot_limit_max_raise_to(current_bet=2, chips_in_play=1 + 2, to_call=2) == 7
    assert pot_limit_max_raise_to(current_bet=7, chips_in_play=1 + 2 + 7, to_call=7) == 24


def test_the_razz_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(_rules().split())
    assert ("Ben's seven cards `Ad 4d 6s 7h Qs 2h Jd` make 7-6-4-2-A; Cal's `5c 6c As Ah 3d 7c "
            "Tc` make 7-6-5-3-A") in text
    assert main(["showdown", "razz", "--hand", "ben=Ad 4d 6s 7h Qs 2h Jd",
                 "--hand", "cal=5c 6c As Ah 3d 7c Tc", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["winners"] == ["ben"]
