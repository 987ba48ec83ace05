"""Structures: presets, TOML in and out, and a clear error for every structure that cannot run."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardroom.tournament import (
    PRESETS,
    Break,
    Level,
    Structure,
    StructureError,
    find_structure,
    load_structure,
    save_structure,
)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_check_and_round_trip_through_toml(name: str, tmp_path: Path) -> None:
    structure = find_structure(name)
    assert structure.check() is structure
    path = tmp_path / f"{name}.toml"
    save_structure(structure, path)
    assert load_structure(path) == structure
    assert any(isinstance(e, Break) for e in structure.schedule)
    assert structure.levels[-1].big_blind >= 1000 * structure.starting_stack // 2


def test_the_presets_differ_in_pace_and_depth() -> None:
    turbo, standard, deep = (find_structure(n) for n in ("turbo", "standard", "deep"))
    assert turbo.levels[0].minutes == 5
    assert standard.levels[0].minutes == 15
    assert deep.starting_stack > standard.starting_stack > turbo.starting_stack


def test_a_structure_in_toml_with_hands_breaks_rebuys_and_an_add_on() -> None:
    structure = Structure.from_toml("""
name = "home"
starting_stack = 1000
ante_mode = "big-blind"
late_registration_levels = 2
max_entries = 2
rebuy_levels = 2
rebuy_chips = 1000
max_rebuys = 3
addon_chips = 1500

[[levels]]
small_blind = 5
big_blind = 10
hands = 12

[[levels]]
small_blind = 10
big_blind = 20
ante = 20
minutes = 15

[[levels]]
break = 10

[[levels]]
small_blind = 15
big_blind = 30
ante = 30
minutes = 15
""")
    assert structure.schedule == (Level(5, 10, hands=12), Level(10, 20, 20, minutes=15),
                                  Break(10), Level(15, 30, 30, minutes=15))
    assert structure.level_of_entry(3) == 2  # the break comes before level 3 (index 2)
    assert Structure.from_toml(structure.to_toml()) == structure


def _toml(levels: str, **settings: object) -> str:
    head = {"name": '"x"', "starting_stack": "1000", **{k: str(v) for k, v in settings.items()}}
    return "\n".join(f"{k} = {v}" for k, v in head.items()) + "\n" + levels


LEVEL = "[[levels]]\nsmall_blind = {sb}\nbig_blind = {bb}\n{extra}\n"


@pytest.mark.parametrize(("text", "message"), [
    (LEVEL.format(sb=10, bb=20, extra="minutes = 0"), "level 1 has zero length"),
    (LEVEL.format(sb=10, bb=20, extra="hands = 0"), "level 1 has zero length"),
    (LEVEL.format(sb=10, bb=20, extra="") , "level 1 needs a length"),
    (LEVEL.format(sb=10, bb=20, extra="minutes = 5\nhands = 5"), "exactly one"),
    (LEVEL.format(sb=20, bb=40, extra="minutes = 5") + LEVEL.format(sb=10, bb=20,
                                                                     extra="minutes = 5"),
     "the blinds go down at level 2: 10/20 after 20/40"),
    (LEVEL.format(sb=10, bb=20, extra="minutes = 5\nante = 5")
     + LEVEL.format(sb=10, bb=20, extra="minutes = 5"), "the ante goes down at level 2"),
    (LEVEL.format(sb=30, bb=20, extra="minutes = 5"), "small blind (30) is above its big"),
    (LEVEL.format(sb=0, bb=20, extra="minutes = 5"), "small blind must be at least 1"),
    (LEVEL.format(sb=10, bb=20, extra="minutes = 2.5"), "minutes must be a whole number"),
    (LEVEL.format(sb=10, bb=20, extra="minute = 5"), "unknown settings ['minute']"),
    ("[[levels]]\nbreak = 5\n" + LEVEL.format(sb=10, bb=20, extra="minutes = 5"),
     "starts with a level, not a break"),
    ("", "needs a list of levels"),
    ("levels = [1]", "entry 1 of levels is not a table"),
    (LEVEL.format(sb=10, bb=20, extra="minutes = 5") + "[[levels]]\nbreak = 0\n",
     "at least 1"),
    ("this is not toml = = =", "not a TOML structure"),
])
def test_a_bad_structure_is_refused_with_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(StructureError, match=_escape(message)):
        Structure.from_toml(_toml(text))


@pytest.mark.parametrize(("settings", "message"), [
    ({"late_registration_levels": 3}, "late registration cannot outlast the 1 levels"),
    ({"rebuy_levels": 1}, "needs rebuy_chips"),
    ({"max_entries": 2}, "re-entry (max_entries above 1) needs late registration"),
    ({"ante_mode": '"some"'}, "ante_mode must be one of each, big-blind"),
    ({"addon_chips": 100, "rebuy_levels": 1, "rebuy_chips": 10}, "needs a level after it"),
    ({"colour": '"red"'}, "unknown structure settings ['colour']"),
    ({"starting_stack": 0}, "starting_stack must be at least 1"),
])
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(StructureError, match=_escape(message)):
        Structure.from_toml(_toml(LEVEL.format(sb=10, bb=20, extra="minutes = 5"), **settings))


def test_unknown_preset_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(StructureError, match=r"no structure preset 'hyper'.*turbo, standard, deep"):
        find_structure("hyper")
    with pytest.raises(StructureError, match="cannot read the structure file"):
        load_structure(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text(_toml(LEVEL.format(sb=10, bb=20, extra="minutes = 0")))
    with pytest.raises(StructureError, match=r"bad\.toml: level 1 has zero length"):
        load_structure(bad)


def _escape(text: str) -> str:
    import re

    return re.escape(text).replace(r"\.\*", ".*")
