"""House-rule profiles by name: the one place of the app that finds a profile.

A profile is named three ways, looked up in this order:

1. a named profile of the rules (``cardroom``, ``pagat``, ``foster``: ``rules.profiles.PROFILES``);
2. a card room's own profile written by a director in the app (:class:`floor.models.HouseProfile`);
3. a TOML file ``instance/profiles/NAME.toml`` (the folder is the setting ``FLOOR_PROFILES_DIR``).

Every house profile is checked by ``rules.profiles.from_toml``. A table's setup stores a named
profile by its name and a house profile as its full option table (:func:`resolve_profile`), so a
later edit of the house profile never rewrites a table's past.

Decision (issue 10): one rule for the names of house files, :data:`PROFILE_NAME` (letters, digits,
spaces, ``-`` and ``_``, at most 80 characters); before, the printed summaries read a stricter rule
(no spaces) than the tables did, so a file a table could play had no printed summary.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from flask import current_app

from floor.extensions import db
from floor.models import HouseProfile
from rules import RulesError, profiles
from rules.profiles import Profile

__all__ = [
    "PROFILE_NAME", "ProfileNotFound", "FoundProfile", "profile_files", "find_profile", "resolve_profile",
    "house_profile_names", "profile_choices", "profile_names",
]

#: How a house profile may be named (the files of instance/profiles/ too).
PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,79}")


class ProfileNotFound(LookupError):
    """No named, house or instance-file profile has this name (the message says which exist)."""


@dataclass(frozen=True)
class FoundProfile:
    """A profile with where it came from: ``named``, ``house`` (the database) or ``file``."""

    name: str
    kind: str
    profile: Profile
    toml: str | None = None
    house_id: int | None = None
    error: str | None = None  # a house profile that no longer reads: why

    @property
    def kind_words(self) -> str:
        return {"named": "named profile", "house": "house profile",
                "file": "house profile (file in the instance folder)"}[self.kind]


def profile_files() -> dict[str, str]:
    """``instance/profiles/NAME.toml`` files by name (a file named like a named profile is ignored)."""
    folder = current_app.config.get("FLOOR_PROFILES_DIR") or ""
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return {}
    out = {}
    for entry in entries:
        stem, ext = os.path.splitext(entry)
        if ext == ".toml" and PROFILE_NAME.fullmatch(stem) and stem not in profiles.PROFILES:
            out[stem] = os.path.join(folder, entry)
    return out


def _house_row(name: str) -> HouseProfile | None:
    return db.session.scalars(db.select(HouseProfile).where(HouseProfile.name == name)).first()


def _house_text(name: str) -> tuple[str, str, int | None] | None:
    """(kind, TOML, database id) of the house profile called ``name``, or None.

    Raises :class:`ProfileNotFound` when its file exists but cannot be read."""
    house = _house_row(name)
    if house is not None:
        return "house", house.toml, house.id
    path = profile_files().get(name) if isinstance(name, str) and PROFILE_NAME.fullmatch(name) else None
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            return "file", fh.read(), None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileNotFound(f"The house profile file for {name!r} cannot be read ({exc.__class__.__name__}).")


def find_profile(name: str) -> FoundProfile:
    """The profile called ``name``: a named one, a house one (database) or a house file.

    Raises :class:`ProfileNotFound` with plain words; a house profile whose TOML no longer reads is
    returned with ``error`` set and the default profile in its place, so pages can say why.
    """
    if name in profiles.PROFILES:
        return FoundProfile(name, "named", profiles.PROFILES[name])
    found = _house_text(name)
    if found is None:
        known = ", ".join(n for n, _ in profile_choices())
        raise ProfileNotFound(f"There is no profile called {name!r}. The profiles are: {known}.")
    kind, text, house_id = found
    try:
        profile = profiles.get_profile(profiles.from_toml(text).to_dict() | {"name": name})
    except (RulesError, ValueError, TypeError) as exc:
        return FoundProfile(name, kind, profiles.DEFAULT, text, house_id, str(exc))
    return FoundProfile(name, kind, profile, text, house_id)


def resolve_profile(spec: Any) -> Any:
    """What a table's setup stores for the profile ``spec``: the name of a named profile, an option
    table as given, or the full option table of a house profile (named as the house names it).

    Raises ``RulesError`` for a name nothing answers to, or a house profile that does not read.
    """
    if isinstance(spec, dict):
        return spec
    # a name is text: a list (unhashable) asked of the named profiles was a 500 (issue 30)
    if not isinstance(spec, str) or not PROFILE_NAME.fullmatch(spec):
        raise RulesError(f"a profile is named with letters, digits, spaces, '-' and '_', not {spec!r:.60}")
    if spec in profiles.PROFILES:
        return spec
    try:
        found = _house_text(spec)
    except ProfileNotFound as exc:
        raise RulesError(str(exc)) from None
    if found is None:
        known = ", ".join(list(profiles.PROFILES) + house_profile_names())
        raise RulesError(f"unknown profile {spec!r}; the profiles are: {known}")
    return profiles.from_toml(found[1]).to_dict() | {"name": spec}


def house_profile_names() -> list[str]:
    """The card room's own profiles: those written in the app, then the TOML files of instance/profiles/."""
    names = list(db.session.scalars(db.select(HouseProfile.name).order_by(HouseProfile.name)))
    return names + [n for n in profile_files() if n not in names]


def profile_choices() -> list[tuple[str, str]]:
    """(name, label) of every profile a table can play: named ones first, then the house's."""
    out = [(name, f"{p.title} ({name})") for name, p in profiles.PROFILES.items()]
    house = set(db.session.scalars(db.select(HouseProfile.name)))
    out += [(n, f"{n} (house)" if n in house else f"{n} (house file)")
            for n in house_profile_names() if n not in profiles.PROFILES]
    return out


def profile_names() -> list[str]:
    """The names of :func:`profile_choices`."""
    return [name for name, _ in profile_choices()]
