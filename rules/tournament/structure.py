"""An event's structure: its levels and breaks, starting chips, buy-in, rebuys and add-ons, and the
payout table. Frozen values read from the JSON of ``POST /api/events`` (docs/contract.md, "Tournaments")
by :func:`parse_structure`, which says plainly what is wrong.

A level is ``{minutes, ante, small_bet, big_bet}`` (``big_bet`` defaults to twice the small bet,
as at a table's setup); a break is ``{break: minutes}``. ``payouts`` is a list of percentages
(first place first, summing to exactly 100; ``"12.5"`` is read exactly) or ``"standard"``: the
table of :data:`STANDARD_PAYOUTS` by number of entries, looked up when the prizes are paid.

Rebuys and add-ons are offered only where the director writes them: ``rebuy: {price, chips,
until_level, max}`` (a player with no more than the starting chips may rebuy up to the end of level
``until_level``, at most ``max`` times; 0 is no limit) and ``add_on: {price, chips, at_level}`` (once
each, during the break after level ``at_level`` or during that level). Money (buy-in, prices,
prizes) is whole units of the house's currency; chips are whole chips.

The tournament desk (docs/contract.md, "The tournament desk") adds, all optional:

* ``late_registration_levels`` n: entries (and re-entries) are taken until level n has ended.
* ``reentry`` n: an eliminated player may enter again, n times, at the buy-in, with the starting
  chips, while late registration is open (with no late registration: until the final table).
* ``rebuy_levels`` n: rebuys through level n (the contract's short form of ``rebuy``: at the
  buy-in, for the starting chips, no limit, unless ``rebuy`` says otherwise; ``rebuy_levels``
  wins over ``rebuy.until_level``). ``add_on: {chips, price}`` is then taken at the break after
  the last rebuy level (``at_level`` defaults to ``rebuy_levels``; with no rebuys, to the level
  the first break follows).
* ``bounty`` amount: the part of each buy-in (and re-entry) that is the player's bounty, paid to
  whoever eliminates the player; the rest goes to the prize pool.
* ``color_up`` [{level, chip}]: the chip race when level ``level`` begins: chips of value
  ``chip`` leave the tables (:mod:`rules.tournament.colorup`).

>>> s = parse_structure({"levels": [{"minutes": 20, "ante": 5, "small_bet": 10},
...                                 {"break": 10}, {"minutes": 20, "ante": 10, "small_bet": 20}],
...                      "starting_chips": 1000, "buy_in": 50, "payouts": [60, 40]})
>>> s.levels[0], s.levels[1]
(Level(minutes=20, ante=5, small_bet=10, big_bet=20), Break(minutes=10))
>>> [str(p) for p in s.payouts], s.playing_number(2)
(['60', '40'], 2)
>>> parse_structure({"levels": [], "starting_chips": 1000, "buy_in": 50, "payouts": [60, 40]})
Traceback (most recent call last):
...
rules.tournament.structure.StructureError: levels: at least one playing level
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules import RulesError, parse

__all__ = ["StructureError", "Level", "Break", "Rebuy", "AddOn", "ColorUp", "Structure", "parse_structure",
           "STANDARD_PAYOUTS", "standard_payouts", "PRESETS", "preset"]


class StructureError(RulesError):
    """A structure that cannot be run: the message names the field and what it needs."""


@dataclass(frozen=True)
class Level:
    """A playing level: the stakes every table deals with while it is in force."""

    minutes: int
    ante: int
    small_bet: int
    big_bet: int

    @property
    def stakes(self) -> dict[str, int]:
        """The stakes as a ``deal`` event carries them."""
        return {"ante": self.ante, "small_bet": self.small_bet, "big_bet": self.big_bet}

    def to_dict(self) -> dict[str, int]:
        return {"minutes": self.minutes, **self.stakes}


@dataclass(frozen=True)
class Break:
    """A break: the clock runs, nobody deals."""

    minutes: int

    def to_dict(self) -> dict[str, int]:
        return {"break": self.minutes}


@dataclass(frozen=True)
class Rebuy:
    """Rebuys: ``price`` buys ``chips`` until the end of level ``until_level``; ``max`` per player (0: no limit)."""

    price: int
    chips: int
    until_level: int
    max: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"price": self.price, "chips": self.chips, "until_level": self.until_level, "max": self.max}


@dataclass(frozen=True)
class AddOn:
    """One add-on per player: ``price`` buys ``chips`` during level ``at_level`` or the break after it."""

    price: int
    chips: int
    at_level: int

    def to_dict(self) -> dict[str, int]:
        return {"price": self.price, "chips": self.chips, "at_level": self.at_level}


@dataclass(frozen=True)
class ColorUp:
    """The chip race when playing level ``level`` begins: chips of value ``chip`` leave the tables."""

    level: int
    chip: int

    def to_dict(self) -> dict[str, int]:
        return {"level": self.level, "chip": self.chip}


@dataclass(frozen=True)
class Structure:
    """The whole structure. ``payouts`` is a tuple of percentages, or None for the standard table."""

    levels: tuple[Level | Break, ...]
    starting_chips: int
    buy_in: int
    payouts: tuple[Fraction, ...] | None
    fee: int = 0
    rebuy: Rebuy | None = None
    add_on: AddOn | None = None
    late_registration_levels: int | None = None
    reentry: int = 0
    bounty: int = 0
    color_up: tuple[ColorUp, ...] = ()

    def index_of_level(self, number: int) -> int:
        """The index in ``levels`` of playing level ``number`` (1, 2, ...).

        >>> preset("regular").index_of_level(5)
        5
        """
        for i, _ in enumerate(self.levels):
            if self.playing_number(i) == number:
                return i
        raise StructureError(f"levels: there is no level {number}")

    def playing_number(self, index: int) -> int | None:
        """The level number (1, 2, ...) of the item at ``index``, counting playing levels only;
        None for a break."""
        if isinstance(self.levels[index], Break):
            return None
        return sum(1 for x in self.levels[: index + 1] if isinstance(x, Level))

    def stakes_at(self, index: int) -> Level:
        """The level in force at ``index``: that level, or during a break the level before it
        (nobody deals in a break; a table that does keeps the stakes it had), or the first level
        for a break that opens the structure."""
        for item in reversed(self.levels[: index + 1]):
            if isinstance(item, Level):
                return item
        return next(x for x in self.levels if isinstance(x, Level))

    def payout_percents(self, entries: int) -> tuple[Fraction, ...]:
        """The percentages paid for this many entries (the written table, or the standard one)."""
        return self.payouts if self.payouts is not None else standard_payouts(entries)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "levels": [x.to_dict() for x in self.levels], "starting_chips": self.starting_chips,
            "buy_in": self.buy_in, "fee": self.fee,
            "payouts": "standard" if self.payouts is None else [_percent_text(p) for p in self.payouts],
        }
        if self.rebuy is not None:
            data["rebuy"] = self.rebuy.to_dict()
        if self.add_on is not None:
            data["add_on"] = self.add_on.to_dict()
        if self.late_registration_levels is not None:
            data["late_registration_levels"] = self.late_registration_levels
        if self.reentry:
            data["reentry"] = self.reentry
        if self.rebuy is not None:
            data["rebuy_levels"] = self.rebuy.until_level
        if self.bounty:
            data["bounty"] = self.bounty
        if self.color_up:
            data["color_up"] = [c.to_dict() for c in self.color_up]
        return data


def _percent_text(p: Fraction) -> int | str:
    return p.numerator if p.denominator == 1 else str(float(p))


def _whole(data: dict[str, Any], key: str, what: str, positive: bool = False, default: int | None = None) -> int:
    if data.get(key) is None:
        if default is not None:
            return default
        raise StructureError(f"{what}: {key} is missing")
    return parse.chips(data[key], f"{what}: {key}", positive=positive, error=StructureError)


def _level(item: Any, n: int) -> Level | Break:
    what = f"levels[{n}]"
    if not isinstance(item, dict):
        raise StructureError(f"{what}: a level {{minutes, ante, small_bet, big_bet}} or a break {{break: minutes}}")
    if "break" in item:
        return Break(_whole(item, "break", what, positive=True))
    minutes = _whole(item, "minutes", what, positive=True)
    ante = _whole(item, "ante", what, default=0)
    small = _whole(item, "small_bet", what, positive=True)
    big = _whole(item, "big_bet", what, positive=True, default=2 * small)
    if big < small:
        raise StructureError(f"{what}: the big bet ({big}) may not be below the small bet ({small})")
    return Level(minutes, ante, small, big)


#: A percentage as text: up to 100, with at most six decimals (``Fraction("1e999")`` is a number
#: no float holds, and ``Fraction("1e999999999")`` takes minutes to make: issue 30).
_PERCENT = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?")


def _percent(value: Any, n: int) -> Fraction:
    """One place's share of the pool, above 0 and at most 100.

    >>> _percent("1e999", 0)
    Traceback (most recent call last):
    ...
    rules.tournament.structure.StructureError: payouts[0]: a percentage from 0 to 100 (such as 37.5), not '1e999'
    """
    if isinstance(value, bool) or not isinstance(value, (int, str, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise StructureError(f"payouts[{n}]: a percentage, not {value!r:.40}")
    text = str(value).strip()
    if not _PERCENT.fullmatch(text) and not (isinstance(value, float) and 0 < value <= 100):
        raise StructureError(f"payouts[{n}]: a percentage from 0 to 100 (such as 37.5), not {value!r:.40}")
    p = Fraction(text)
    if p <= 0:
        raise StructureError(f"payouts[{n}]: a percentage above 0, not {value!r}")
    if p > 100:
        raise StructureError(f"payouts[{n}]: a percentage of at most 100, not {value!r}")
    return p


def _payouts(value: Any) -> tuple[Fraction, ...] | None:
    if value is None or value == "standard":
        return None
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split()]
    if not isinstance(value, (list, tuple)) or not value:
        raise StructureError("payouts: a list of percentages (first place first) or \"standard\"")
    percents = tuple(_percent(v, n) for n, v in enumerate(value))
    if sum(percents) != 100:
        raise StructureError(f"payouts: the percentages add up to {float(sum(percents)):g}, not 100")
    if list(percents) != sorted(percents, reverse=True):
        raise StructureError("payouts: a place may not pay more than the place above it")
    return percents


def parse_structure(data: Any) -> Structure:
    """Read a structure from JSON data (raises :class:`StructureError` naming the field).

    >>> parse_structure({"levels": [{"minutes": 15, "small_bet": 10, "big_bet": 5}],
    ...                  "starting_chips": 500, "buy_in": 20})
    Traceback (most recent call last):
    ...
    rules.tournament.structure.StructureError: levels[0]: the big bet (5) may not be below the small bet (10)
    >>> parse_structure({"levels": [{"minutes": 15, "small_bet": 10}], "starting_chips": 500,
    ...                  "buy_in": 20, "payouts": [50, 30, 10]})
    Traceback (most recent call last):
    ...
    rules.tournament.structure.StructureError: payouts: the percentages add up to 90, not 100
    """
    if not isinstance(data, dict):
        raise StructureError("structure: a JSON object with levels, starting_chips, buy_in and payouts")
    raw = data.get("levels")
    if not isinstance(raw, (list, tuple)):
        raise StructureError("levels: a list of levels and breaks")
    levels = tuple(_level(item, n) for n, item in enumerate(raw))
    if not any(isinstance(x, Level) for x in levels):
        raise StructureError("levels: at least one playing level")
    starting = _whole(data, "starting_chips", "structure", positive=True)
    buy_in = _whole(data, "buy_in", "structure")
    fee = _whole(data, "fee", "structure", default=0)
    rebuy = add_on = None
    count = sum(1 for x in levels if isinstance(x, Level))
    rebuy_levels = None if data.get("rebuy_levels") is None else _whole(data, "rebuy_levels", "structure", positive=True)
    if data.get("rebuy") or rebuy_levels is not None:
        r = data.get("rebuy") or {}
        if not isinstance(r, dict):
            raise StructureError("rebuy: {price, chips, until_level, max}")
        until = rebuy_levels if rebuy_levels is not None else _whole(r, "until_level", "rebuy", positive=True)
        rebuy = Rebuy(_whole(r, "price", "rebuy", default=buy_in), _whole(r, "chips", "rebuy", positive=True,
                                                                           default=starting),
                      until, _whole(r, "max", "rebuy", default=0))
        if rebuy.until_level > count:
            raise StructureError(f"rebuy: until_level {rebuy.until_level}, but the structure has {count} levels")
    if data.get("add_on"):
        a = data["add_on"]
        if not isinstance(a, dict):
            raise StructureError("add_on: {chips, price} (and at_level where there are no rebuys)")
        at = _whole(a, "at_level", "add_on", positive=True, default=rebuy.until_level if rebuy else _before_break(levels))
        add_on = AddOn(_whole(a, "price", "add_on"), _whole(a, "chips", "add_on", positive=True), at)
        if add_on.at_level > count:
            raise StructureError(f"add_on: at_level {add_on.at_level}, but the structure has {count} levels")
    late = None
    if data.get("late_registration_levels") is not None:
        late = _whole(data, "late_registration_levels", "structure", positive=True)
        if late > count:
            raise StructureError(f"late_registration_levels: {late}, but the structure has {count} levels")
    reentry = _whole(data, "reentry", "structure", default=0)
    bounty = _whole(data, "bounty", "structure", default=0)
    if bounty > buy_in:
        raise StructureError(f"bounty: {bounty} is part of the buy-in ({buy_in}) and may not be more")
    if rebuy is not None and bounty > rebuy.price:
        raise StructureError(f"bounty: a rebuy buys a new bounty ({bounty}); the rebuy's price ({rebuy.price}) "
                             "may not be less")
    return Structure(levels, starting, buy_in, _payouts(data.get("payouts")), fee, rebuy, add_on, late, reentry,
                     bounty, _color_ups(data.get("color_up"), count))


def _before_break(levels: tuple[Level | Break, ...]) -> int | None:
    """The level the first break follows (an add-on with no rebuys is taken there), or None.

    >>> _before_break(preset("regular").levels)
    4
    """
    for i, item in enumerate(levels):
        if isinstance(item, Break) and i:
            return sum(1 for x in levels[:i] if isinstance(x, Level))
    return None


def _color_ups(value: Any, count: int) -> tuple[ColorUp, ...]:
    """``color_up``: [{level, chip}], levels rising, each a level of the structure.

    >>> _color_ups([{"level": 3, "chip": 5}, {"level": 2, "chip": 25}], 4)
    Traceback (most recent call last):
    ...
    rules.tournament.structure.StructureError: color_up: the races go in order of level, each at a later level
    """
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise StructureError("color_up: a list of {level, chip}")
    out = []
    for n, item in enumerate(value):
        if not isinstance(item, dict):
            raise StructureError(f"color_up[{n}]: {{level, chip}}")
        race = ColorUp(_whole(item, "level", f"color_up[{n}]", positive=True),
                       _whole(item, "chip", f"color_up[{n}]", positive=True))
        if race.level > count or race.level < 2:
            raise StructureError(f"color_up[{n}]: level {race.level}; a race is at the start of levels 2 to {count}")
        out.append(race)
    if [c.level for c in out] != sorted({c.level for c in out}):
        raise StructureError("color_up: the races go in order of level, each at a later level")
    return tuple(out)


#: The standard payout table: (fewest entries, percentages first place first). Each row sums to
#: 100; about one entry in six to eight is paid, as card rooms' house tables do.
STANDARD_PAYOUTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (2, (100,)),
    (6, (65, 35)),
    (11, (50, 30, 20)),
    (21, (45, 27, 18, 10)),
    (31, (40, 25, 16, 11, 8)),
    (41, (37, 23, 15, 10, 8, 7)),
    (51, (35, 22, 14, 10, 8, 6, 5)),
    (76, (32, 20, 13, 9, 8, 6, 5, 4, 3)),
)


def standard_payouts(entries: int) -> tuple[Fraction, ...]:
    """The standard table's percentages for this many entries.

    >>> [int(p) for p in standard_payouts(20)], [int(p) for p in standard_payouts(21)]
    ([50, 30, 20], [45, 27, 18, 10])
    """
    row = STANDARD_PAYOUTS[0][1]
    for fewest, percents in STANDARD_PAYOUTS:
        if entries >= fewest:
            row = percents
    return tuple(Fraction(p) for p in row)


def _levels(stakes: list[tuple[int, int]], minutes: int, break_every: int, break_minutes: int) -> list[dict[str, int]]:
    out: list[dict[str, int]] = []
    for n, (ante, small) in enumerate(stakes, start=1):
        out.append({"minutes": minutes, "ante": ante, "small_bet": small, "big_bet": 2 * small})
        if break_every and n % break_every == 0 and n < len(stakes):
            out.append({"break": break_minutes})
    return out


_STAKES = [(5, 10), (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300),
           (200, 400), (300, 600), (400, 800), (500, 1000)]

#: Structures a director starts from (then edits): name -> (description, structure data).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "turbo": ("Turbo: 10-minute levels, 1,000 chips, a break every 6 levels, standard payouts", {
        "levels": _levels(_STAKES, 10, 6, 5), "starting_chips": 1000, "buy_in": 20, "payouts": "standard"}),
    "regular": ("Regular: 20-minute levels, 2,000 chips, a 10-minute break every 4 levels", {
        "levels": _levels(_STAKES, 20, 4, 10), "starting_chips": 2000, "buy_in": 50, "payouts": "standard"}),
    "rebuy": ("Rebuy: 15-minute levels, 1,000 chips, rebuys to level 4 and an add-on at level 4", {
        "levels": _levels(_STAKES, 15, 4, 10), "starting_chips": 1000, "buy_in": 20, "payouts": "standard",
        "rebuy": {"price": 20, "chips": 1000, "until_level": 4, "max": 0},
        "add_on": {"price": 20, "chips": 1500, "at_level": 4}}),
}


def preset(name: str) -> Structure:
    """A preset, read like any structure.

    >>> s = preset("regular"); (s.starting_chips, s.levels[4], s.payouts)
    (2000, Break(minutes=10), None)
    """
    if name not in PRESETS:
        raise StructureError(f"preset: {name!r} is not one of {', '.join(PRESETS)}")
    return parse_structure(PRESETS[name][1])
