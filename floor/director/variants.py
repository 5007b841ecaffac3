"""The variants of the contract (docs/contract.md, "Variants") as fields of the director's house-profile form.

The TOML text stays the profile's one source. The form shows the variant options as fields, filled
from the text; on saving, the fields' values are written into the text: a line ``option = value``
for each option that differs from the base profile (``base = ...``, cardroom by default), and no
line for one that does not. Lines for other options, and comments, are kept as written. Decision:
for these options the fields win over what the text says (a checkbox cannot say "as the text
says"); the text is checked by the rules afterwards, as before, so a combination the rules refuse
(blinds without ``opening_minimum = "none"``) is refused with their message.

>>> merge('base = "cardroom"\\n# ours\\nante_deals = 2\\ntrips_to_win = false\\n',
...       {"trips_to_win": True, "opening_minimum": "J", "blinds": None})
'base = "cardroom"\\n# ours\\nante_deals = 2\\n# variants (set with the form)\\ntrips_to_win = true\\n'
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from typing import Any

from rules import bounds, profiles
from rules.cards import WILD_MODES

__all__ = ["VARIANTS", "CHOICES", "doc", "merge", "values_of"]

#: The variant options, in the order the form shows them (docs/contract.md, "Variants", and newcomers_wait
#: of "Players come and go").
VARIANTS: tuple[str, ...] = (
    "opening_minimum", "open_with_raise", "check_open", "blinds", "straddle", "trips_to_win", "jacks_back",
    "jacks_back_blind", "age", "draw_rounds", "ace_draws_four", "wild", "wild_rank", "stripped_deck",
    "southern_placement", "newcomers_wait",
)
CHOICES: dict[str, tuple[str, ...]] = {
    "opening_minimum": profiles.OPENING_MINIMUMS,
    "wild": tuple(WILD_MODES),
    "southern_placement": profiles.PLACEMENTS,
    "draw_rounds": tuple(str(n) for n in bounds.choices("draw_rounds")),  # as many draws as a room plays
}
_FIELDS = {f.name: f for f in dataclasses.fields(profiles.Profile)}
_MARK = "# variants (set with the form)"


def doc(name: str) -> str:
    """The option's rule text with its rule ids, as the printed summary has it."""
    meta = _FIELDS[name].metadata
    return f"{meta['doc']} ({', '.join(meta['rules'])})"


def values_of(profile: profiles.Profile) -> dict[str, Any]:
    """The variant options' values of a profile, for the form."""
    return {name: getattr(profile, name) for name in VARIANTS}


def _base(text: str) -> profiles.Profile:
    try:
        base = tomllib.loads(text).get("base", "cardroom")
    except (tomllib.TOMLDecodeError, RecursionError):  # RecursionError: nested too deep
        base = "cardroom"
    return profiles.PROFILES.get(str(base), profiles.DEFAULT)


def merge(text: str, values: dict[str, Any]) -> str:
    """``text`` with the lines of the variant options in ``values`` replaced by the form's values
    (only those that differ from the base profile are written). A text that is not TOML is returned
    as it is: the rules' check says what is wrong with it."""
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):  # RecursionError: nested too deep
        return text
    base = _base(text)
    keys = "|".join(map(re.escape, values))
    kept = [line for line in text.splitlines()
            if not re.match(rf"\s*({keys})\s*=", line) and line.strip() != _MARK]
    while kept and not kept[-1].strip():
        kept.pop()
    written = [f"{name} = {profiles.toml_value(value)}" for name, value in values.items()
               if value is not None and value != getattr(base, name)]
    if written:
        kept += [_MARK, *written]
    return "\n".join(kept) + "\n"
