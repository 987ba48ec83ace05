"""A tournament's structure: the starting stack, the levels and breaks, late registration,
re-entry, rebuys and the add-on; three presets; TOML in and out.

A structure is frozen data checked once (``Structure.check``); every problem is a
``StructureError`` naming the level or the setting at fault. Levels last a number of minutes or
a number of hands (``Level.minutes`` / ``Level.hands``, exactly one of them).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w

# The most chips any amount may be (as for rooms: a 32-bit database integer, exact in JavaScript).
MAX_CHIPS = 1_000_000_000
ANTE_MODES = ("each", "big-blind")  # every player posts the ante, or the big blind posts one


class StructureError(ValueError):
    """A structure that cannot run; the text names the level or setting at fault."""


@dataclass(frozen=True)
class Level:
    """One blind level. Ante games and stud use ``ante`` (0: the small blind) and the big blind
    as the minimum bet, as rooms do."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: int | None = None
    hands: int | None = None


@dataclass(frozen=True)
class Break:
    """A break between levels: no hand starts until it is over."""

    minutes: int


Entry = Level | Break


@dataclass(frozen=True)
class Structure:
    """Everything the clock and the registration desk need, in chips, levels and minutes."""

    name: str
    starting_stack: int
    schedule: tuple[Entry, ...]
    ante_mode: str = "each"
    late_registration_levels: int = 0  # registration stays open until the end of this level
    max_entries: int = 1  # 1: a freezeout; more: re-entry while late registration is open
    rebuy_levels: int = 0  # rebuys during the first N levels (0: none)
    rebuy_chips: int = 0
    max_rebuys: int = 0  # per entry; 0 with rebuy levels means no limit
    addon_chips: int = 0  # one add-on per entry, offered in the level after the rebuy period
    levels: tuple[Level, ...] = field(init=False, repr=False, compare=False)
    _level_at: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels",
                           tuple(e for e in self.schedule if isinstance(e, Level)))
        object.__setattr__(self, "_level_at", tuple(
            sum(1 for e in self.schedule[:k] if isinstance(e, Level))
            for k in range(len(self.schedule) + 1)))

    # -- checks ---------------------------------------------------------------------------

    def check(self) -> Structure:
        """Raise ``StructureError`` naming the first thing that cannot work; return self."""
        _whole("starting_stack", self.starting_stack, minimum=1)
        for name in ("late_registration_levels", "rebuy_levels", "rebuy_chips", "max_rebuys",
                     "addon_chips"):
            _whole(name, getattr(self, name), minimum=0)
        _whole("max_entries", self.max_entries, minimum=1)
        if not isinstance(self.name, str) or not self.name.strip():
            raise StructureError("a structure needs a name")
        if self.ante_mode not in ANTE_MODES:
            raise StructureError(f"ante_mode must be one of {', '.join(ANTE_MODES)}, "
                                 f"not {self.ante_mode!r}")
        if not self.levels:
            raise StructureError("a structure needs at least one level")
        if isinstance(self.schedule[0], Break):
            raise StructureError("a structure starts with a level, not a break")
        previous: Level | None = None
        for number, level in enumerate(self.levels, 1):
            _check_level(number, level, previous)
            previous = level
        for entry in self.schedule:
            if isinstance(entry, Break):
                _whole("a break's minutes", entry.minutes, minimum=1)
        count = len(self.levels)
        if self.late_registration_levels > count:
            raise StructureError(f"late registration cannot outlast the {count} levels")
        if self.rebuy_levels > count:
            raise StructureError(f"the rebuy period cannot outlast the {count} levels")
        if self.rebuy_levels and not self.rebuy_chips:
            raise StructureError("a rebuy period needs rebuy_chips above 0")
        if self.max_rebuys and not self.rebuy_levels:
            raise StructureError("max_rebuys needs a rebuy period (rebuy_levels)")
        if self.max_entries > 1 and not self.late_registration_levels:
            raise StructureError("re-entry (max_entries above 1) needs late registration: "
                                 "a re-entry is a new registration")
        if self.addon_chips and self.rebuy_levels >= count:
            raise StructureError("the add-on is offered in the level after the rebuy period, "
                                 "so the structure needs a level after it")
        return self

    # -- reading --------------------------------------------------------------------------

    def level(self, index: int) -> Level:
        """Level ``index`` (0-based); past the last level the last one goes on."""
        return self.levels[min(index, len(self.levels) - 1)]

    def level_of_entry(self, position: int) -> int:
        """The 0-based level number in play at schedule ``position`` (a break: the next one)."""
        return self._level_at[min(position, len(self._level_at) - 1)]

    # -- plain data -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {item.name: getattr(self, item.name) for item in fields(self)
                                if item.init and item.name != "schedule"}
        data["levels"] = [_entry_dict(entry) for entry in self.schedule]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Structure:
        """A structure from plain data (a TOML file, a request body); unknown keys are errors."""
        if not isinstance(data, Mapping):
            raise StructureError("a structure is a table of settings")
        names = {item.name for item in fields(cls) if item.init and item.name != "schedule"}
        unknown = set(data) - names - {"levels"}
        if unknown:
            raise StructureError(f"unknown structure settings {sorted(unknown)} "
                                 f"(known: levels, {', '.join(sorted(names))})")
        levels = data.get("levels")
        if not isinstance(levels, Sequence) or isinstance(levels, str):
            raise StructureError("a structure needs a list of levels ([[levels]] in TOML)")
        settings = {name: data[name] for name in names if name in data}
        for name in ("name", "starting_stack"):
            if name not in settings:
                raise StructureError(f"a structure needs {name}")
        schedule = tuple(_entry_from(number, item) for number, item in enumerate(levels, 1))
        return cls(schedule=schedule, **settings).check()

    def to_toml(self) -> str:
        return tomli_w.dumps(self.to_dict())

    @classmethod
    def from_toml(cls, text: str) -> Structure:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise StructureError(f"not a TOML structure: {error}") from None
        return cls.from_dict(data)


def _whole(name: str, value: object, *, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StructureError(f"{name} must be a whole number, not {value!r}")
    if value < minimum:
        raise StructureError(f"{name} must be at least {minimum}, not {value}")
    if value > MAX_CHIPS:
        raise StructureError(f"{name} must be at most {MAX_CHIPS:,}")


def _check_level(number: int, level: Level, previous: Level | None) -> None:
    where = f"level {number}"
    _whole(f"{where}'s small blind", level.small_blind, minimum=1)
    _whole(f"{where}'s big blind", level.big_blind, minimum=1)
    _whole(f"{where}'s ante", level.ante, minimum=0)
    if level.small_blind > level.big_blind:
        raise StructureError(f"{where}'s small blind ({level.small_blind}) is above its big "
                             f"blind ({level.big_blind})")
    lengths = [name for name in ("minutes", "hands") if getattr(level, name) is not None]
    if len(lengths) != 1:
        raise StructureError(f"{where} needs a length: minutes or hands (exactly one)")
    length = getattr(level, lengths[0])
    if isinstance(length, int) and not isinstance(length, bool) and length == 0:
        raise StructureError(f"{where} has zero length: a level lasts at least 1 "
                             f"{lengths[0][:-1]}")
    _whole(f"{where}'s {lengths[0]}", length, minimum=1)
    if previous is not None:
        if (level.small_blind < previous.small_blind or level.big_blind < previous.big_blind):
            raise StructureError(
                f"the blinds go down at {where}: {level.small_blind}/{level.big_blind} after "
                f"{previous.small_blind}/{previous.big_blind}")
        if level.ante < previous.ante:
            raise StructureError(f"the ante goes down at {where}: {level.ante} after "
                                 f"{previous.ante}")


def _entry_dict(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, Break):
        return {"break": entry.minutes}
    data: dict[str, Any] = {"small_blind": entry.small_blind, "big_blind": entry.big_blind}
    if entry.ante:
        data["ante"] = entry.ante
    if entry.minutes is not None:
        data["minutes"] = entry.minutes
    if entry.hands is not None:
        data["hands"] = entry.hands
    return data


def _entry_from(number: int, item: object) -> Entry:
    if not isinstance(item, Mapping):
        raise StructureError(f"entry {number} of levels is not a table of settings")
    if "break" in item:
        if set(item) != {"break"}:
            raise StructureError(f"entry {number} of levels is a break: it takes only "
                                 f"break = MINUTES")
        minutes = item["break"]
        _whole(f"the break at entry {number}", minutes, minimum=1)
        return Break(minutes)
    known = {"small_blind", "big_blind", "ante", "minutes", "hands"}
    unknown = set(item) - known
    if unknown:
        raise StructureError(f"entry {number} of levels has unknown settings {sorted(unknown)} "
                             f"(known: break, {', '.join(sorted(known))})")
    for name in ("small_blind", "big_blind"):
        if name not in item:
            raise StructureError(f"entry {number} of levels needs {name}")
    return Level(**{name: item[name] for name in known if name in item})


# -- presets --------------------------------------------------------------------------------

# Big blinds of the presets (the small blind is half, rounded down, at least 1). They rise about
# 1.3 to 1.5 times a level, as the standard structures do, far enough for a 1,000-player field.
_BLINDS = (20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1600,
           2000, 2500, 3000, 4000, 5000, 6000, 8000, 10_000, 12_000, 16_000, 20_000, 25_000,
           30_000, 40_000, 50_000, 60_000, 80_000, 100_000, 120_000, 160_000, 200_000, 250_000,
           300_000, 400_000, 500_000, 600_000, 800_000, 1_000_000, 1_200_000, 1_600_000,
           2_000_000, 2_500_000, 3_000_000, 4_000_000, 5_000_000)


def _preset(name: str, stack: int, minutes: int, ante_from: int, break_every: int,
            late: int) -> Structure:
    schedule: list[Entry] = []
    for number, big in enumerate(_BLINDS, 1):
        ante = big // 10 if number >= ante_from else 0
        schedule.append(Level(max(big // 2, 1), big, ante, minutes=minutes))
        if number % break_every == 0 and number < len(_BLINDS):
            schedule.append(Break(minutes=5 if minutes <= 10 else 10))
    return Structure(name, stack, tuple(schedule), late_registration_levels=late).check()


PRESETS: dict[str, Structure] = {
    "turbo": _preset("turbo", 1500, 5, ante_from=5, break_every=12, late=4),
    "standard": _preset("standard", 3000, 15, ante_from=6, break_every=4, late=6),
    "deep": _preset("deep", 10_000, 20, ante_from=8, break_every=4, late=8),
}


def find_structure(name: str) -> Structure:
    """A preset by name; ``StructureError`` listing the presets otherwise."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise StructureError(f"no structure preset {name!r} (presets: "
                             f"{', '.join(PRESETS)}; or give a TOML file)") from None


def load_structure(path: Path) -> Structure:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StructureError(f"cannot read the structure file {path}: {error}") from None
    try:
        return Structure.from_toml(text)
    except StructureError as error:
        raise StructureError(f"{path}: {error}") from None


def save_structure(structure: Structure, path: Path) -> None:
    path.write_text(structure.to_toml(), encoding="utf-8")

