"""The history reader on any text: lines located in compact TOML, and mutated files of every
game refused with a ``HistoryError`` or replayed, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.engine.history import HistoryError, locate, replay_text

TESTS = Path(__file__).parents[1]
GOLDEN = sorted((TESTS / "engine" / "golden").glob("*.phh")) + sorted(
    (TESTS / "multiboard" / "golden").glob("*.phh"))

COMPACT = """# a PHH file written by hand
variant = 'PO'  # pot-limit Omaha
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AcAdKcKd', "d dh p2 2c3d4h6s", # the deal
  '''p2 cc''',
  "p1 cc", "d db 4c5d9c", "p1 cc", "p2 cc", "d db Kh", "p1 cc", "p2 cc", "d db 2d",
  "p1 cbr 2", "p2 cbr 2"]
"""


def test_lines_of_compact_toml() -> None:
    lines = locate(COMPACT)
    assert lines.fields["variant"] == 2
    assert lines.fields["actions"] == 7
    assert lines.actions == (7, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10)
    with pytest.raises(HistoryError) as caught:
        replay_text(COMPACT)
    assert str(caught.value) == ("line 10: action 13 ('p2 cbr 2'): raise to 2 is below the "
                                 "minimum of 4")


def test_lines_of_tables_and_dotted_keys() -> None:
    lines = locate('a = 1\n\n[_options]\nhole_cards = 5\n[_boards]\nA = "As"\n')
    assert dict(lines.fields) == {"a": 1, "_options": 3, "_boards": 5}
    assert locate('_options.hole_cards = 5\nb = """x\ny"""\nc = 2\n').fields == {
        "_options": 1, "b": 2, "c": 4}


MUTATIONS = ("0", "-1", "1.5", '"x"', "true", "[]", "{}", '"??"', '"d dh p1 ??"', '"p1 f"',
             '"d db 2c"', "99999", '"p1 sm"', '"p7 cc"', '"p1 _allocate A:"', '"d dh p1 As"')


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(GOLDEN), st.data())
def test_a_mutated_history_is_refused_or_replayed(path: Path, data: st.DataObject) -> None:
    lines = path.read_text().splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["delete", "duplicate", "replace", "value"]))
    if kind == "delete":
        del lines[index]
    elif kind == "duplicate":
        lines.insert(data.draw(st.integers(0, len(lines))), lines[index])
    elif kind == "replace":
        lines[index] = lines[data.draw(st.integers(0, len(lines) - 1))]
    else:
        token = data.draw(st.sampled_from(MUTATIONS))
        key = lines[index].split("=")[0]
        lines[index] = f"{key}= {token}" if "=" in lines[index] else f"    {token},"
    try:
        hand = replay_text("\n".join(lines) + "\n")
    except HistoryError:
        return
    assert sum(hand.stacks) == sum(hand.starting_stacks)
