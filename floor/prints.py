"""Printed rule summaries for the tables: ``/rules/<profile>`` (preview) and ``/rules/<profile>.pdf``.

A summary is a few A4 pages a director leaves on a table: the rules in force in plain words with
their ids and sources (the readings the profile's options pick), the options table, the hand
rankings with the exact count and odds of each hand for the profile's deck, and the floor's
decision tree as diagrams. Every word of it comes from ``rules/`` or from this module; the PDF
loads nothing from outside the document.

PDFs are cached in the process, keyed by a digest of the profile's content (and the app version):
the same rules always print the same pages, and an edited house profile prints afresh.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_file
from flask_weasyprint import HTML
from markupsafe import Markup

from floor.auth import require_role
from floor.cache import LRU
from floor.extensions import db
from floor.models import HouseProfile, Role
from rules import RulesError, catalogue, odds, profiles
from rules.profiles import Profile
from rules.rulings import build_tree
from rules.tree_drawing import to_svg

bp = Blueprint("prints", __name__, url_prefix="/rules")
bp.before_request(require_role(Role.dealer))  # any logged-in role may read and print the rules

_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


# --------------------------------------------------------------------------- finding profiles

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
    error: str | None = None  # a house file that no longer reads: why

    @property
    def kind_words(self) -> str:
        return {"named": "named profile", "house": "house profile",
                "file": "house profile (file in the instance folder)"}[self.kind]


def _profile_files() -> dict[str, str]:
    """``instance/profiles/NAME.toml`` files by name."""
    folder = current_app.config.get("FLOOR_PROFILES_DIR") or ""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return {}
    out = {}
    for entry in names:
        stem, ext = os.path.splitext(entry)
        if ext == ".toml" and _FILE_NAME.match(stem) and stem not in profiles.PROFILES:
            out[stem] = os.path.join(folder, entry)
    return out


def _house_profile(text: str, name: str) -> Profile:
    """A house profile's TOML read by the rules, named as the house names it."""
    return profiles.get_profile(profiles.from_toml(text).to_dict() | {"name": name})


def find_profile(name: str) -> FoundProfile:
    """The profile called ``name``: a named one, a house one (database) or a house file.

    Raises :class:`ProfileNotFound` with plain words; a house profile whose TOML no longer reads is
    returned with ``error`` set and the default profile in its place, so pages can say why.
    """
    if name in profiles.PROFILES:
        return FoundProfile(name, "named", profiles.PROFILES[name])
    house = db.session.scalars(db.select(HouseProfile).where(HouseProfile.name == name)).first()
    text: str | None = None
    kind = "house"
    if house is not None:
        text = house.toml
    elif _FILE_NAME.match(name or "") and name in _profile_files():
        kind = "file"
        try:
            with open(_profile_files()[name], encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileNotFound(f"The house profile file for {name!r} cannot be read ({exc.__class__.__name__}).")
    if text is None:
        known = ", ".join(n for n, _ in profile_choices())
        raise ProfileNotFound(f"There is no profile called {name!r}. The profiles are: {known}.")
    try:
        profile = _house_profile(text, name)
    except (RulesError, ValueError, TypeError) as exc:
        return FoundProfile(name, kind, profiles.DEFAULT, text, house.id if house else None, str(exc))
    return FoundProfile(name, kind, profile, text, house.id if house else None)


def profile_choices() -> list[tuple[str, str]]:
    """(name, label) of every profile a table can play, named ones first."""
    out = [(name, f"{p.title} ({name})") for name, p in profiles.PROFILES.items()]
    house = db.session.scalars(db.select(HouseProfile).order_by(HouseProfile.name)).all()
    out += [(h.name, f"{h.name} (house)") for h in house]
    taken = {n for n, _ in out}
    out += [(n, f"{n} (house file)") for n in _profile_files() if n not in taken]
    return out


# --------------------------------------------------------------------------- the summary's content

#: Rules of the catalogue no profile option plays: another game, or variants outside these tables.
NOT_PLAYED = {
    "H8": "low hands are not played at these tables",
    "D9": "no profile asks for trips to win",
    "D10": "no profile plays jacks back",
    "D11": "the blind game with the age is another game",
    "D13": "one draw a hand is played here",
    "P1": "see the hand rankings",
}
MINIMUM_WORDS = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
DECK_WORDS = {
    "none": "no joker and no wild cards",
    "bug": "the joker in, played as the bug",
    "deuces": "the four deuces wild",
    "joker": "the joker in, fully wild as in the banked game",
}
WILD_RULE = {"bug": "H2", "joker": "H3", "deuces": "H4"}


def _capped(value: int | None, capped: str, free: str) -> str:
    return free if value is None else capped.format(n=value)


def readings(p: Profile) -> dict[str, list[str]]:
    """What each option of ``p`` selects, in plain words, by the rule id it decides."""
    deck = f"{p.deck_size} cards: {'the stripped pack, aces down to sevens, with ' if p.stripped_deck else ''}" \
           f"{DECK_WORDS.get(p.wild, p.wild)}."
    hands = ", ".join(h.replace("_", " ") for h in p.southern_hands)
    say: dict[str, list[str]] = {}

    def add(rule_id: str, text: str) -> None:
        say.setdefault(rule_id, []).append(text)

    add("H1", f"This table plays {deck}")
    if p.wild in WILD_RULE:
        add(WILD_RULE[p.wild], f"In force here: {DECK_WORDS[p.wild]}.")
    if hands:
        add("H7", f"Played here: {hands}.")
    add("O1", f"Openers here: a pair of {MINIMUM_WORDS.get(p.opening_minimum, p.opening_minimum)} or better"
              + (", rising after each deal nobody opens (O5)." if p.progressive_openers else "."))
    if p.progressive_openers:
        add("O5", "In force here.")
    # O2 as the engine plays it: the tablet offers exactly these openings (rules.table legal)
    add("O2", "Here a player with openers opens for the minimum bet or opens with a raise of one more bet."
        if p.open_with_raise else "Here the opening bet is the minimum bet; only the others may raise it.")
    add("O2", "A player with openers may also declare the pot open by checking; the others are then free to bet."
        if p.check_open else "Declaring openers with a check is not played here: opening takes a bet.")
    add("O3", "Here the button moves one seat before the new deal." if p.button_moves_on_throw_in
        else "Here the button stays put and the same dealer deals again.")
    add("O4", _capped(p.ante_deals,
                      "Here a pot takes antes on its first {n} deals in a row; the deals after that are free.",
                      "Here every deal of a pot takes an ante: there is no cap on ante deals."))
    if p.pot_limit is not None:
        add("O4", f"Antes also stop once the pot holds {p.pot_limit} chips or more.")
    add("D2", "Here nobody draws: the hands are played as dealt." if p.max_draw == 0
        else f"Here a player may draw at most {p.max_draw} card{'s' if p.max_draw != 1 else ''}.")
    add("D4", "After the draw the opener acts first, or the next player still in after the opener "
              "if the opener has folded." if p.postdraw_first == "opener"
        else "After the draw the first player still in to the left of the button acts first.")
    add("D5", _capped(p.raise_cap, "Here a betting round allows a bet and at most {n} raises.",
                      "Here there is no cap on the number of raises in a round."))
    if p.false_openers == "foster":
        add("F9", "Here false openers are settled by this penalty; F2 to F7 do not apply.")
    else:
        add("F2", "Here false openers are settled by F2 to F7; Foster's penalty (F9) does not apply.")
    add("F11", {"never": "Here discards are never retrieved to prove openers.",
                "always": "Here an opener may always have the discards retrieved to prove openers.",
                "floor": "Here the floor person decides each case."}.get(p.discard_retrieval, p.discard_retrieval))
    add("D8", "Before the draw the dealer puts a wrong count right (a card dealt or taken back); after the "
              "draw such a hand is dead." if p.wrong_count_before_draw == "correct"
        else "Here a hand of the wrong size is dead whether it is found before the draw or after it.")
    return say


def left_out(p: Profile) -> dict[str, str]:
    """Rule ids of the catalogue this profile does not play, each with the reason (shown in small print)."""
    out = {r.id: "the banked game against the dealer is another game" for r in catalogue.by_group("B")}
    out.update(NOT_PLAYED)
    for mode, rule_id in WILD_RULE.items():
        if p.wild != mode:
            out[rule_id] = f"this table plays {DECK_WORDS.get(p.wild, p.wild)}"
    if not p.southern_hands:
        out["H7"] = "no southern hands are played"
    if not p.progressive_openers:
        out["O5"] = "the opening requirement does not rise"
    if p.false_openers == "foster":
        for rule_id in ("F2", "F3", "F4", "F5", "F6", "F7"):
            out[rule_id] = "false openers follow Foster's penalty (F9)"
    else:
        out["F9"] = "false openers follow F2 to F7"
    return out


@dataclass
class RuleLine:
    rule: catalogue.Rule
    here: list[str] = field(default_factory=list)


def rule_groups(p: Profile) -> list[tuple[str, str, list[RuleLine]]]:
    """(letter, heading, rules) for every group with a rule in force, in catalogue order."""
    skip = left_out(p)
    say = readings(p)
    groups = []
    for letter, heading in catalogue.GROUPS.items():
        lines = [RuleLine(r, say.get(r.id, [])) for r in catalogue.by_group(letter) if r.id not in skip]
        if lines:
            groups.append((letter, heading, lines))
    return groups


def option_rows(p: Profile) -> list[dict[str, Any]]:
    """The options table: name, value as the TOML spells it, rule ids, meaning."""
    rows = []
    for opt in p.options():
        value = opt.value
        if value is None:
            shown = "none"
        elif isinstance(value, bool):
            shown = "true" if value else "false"
        elif isinstance(value, (tuple, list)):
            shown = "[" + ", ".join(f'"{v}"' for v in value) + "]"
        elif isinstance(value, str):
            shown = f'"{value}"'
        else:
            shown = str(value)
        rows.append({"name": opt.name, "value": shown, "rules": ", ".join(opt.rules), "doc": opt.doc})
    return rows


def _percent(count: int, total: int) -> str:
    """A share with three significant figures: 42.3, 0.0289, 0.0000348."""
    share = 100 * count / total
    if share >= 1 or share == 0:
        return f"{share:.1f}" if share else "0"
    return f"{share:.{2 - math.floor(math.log10(share))}f}"


def left_out_lines(p: Profile) -> list[tuple[str, str]]:
    """:func:`left_out` for print: (ids, reason), runs of ids with one reason joined (B1 to B5)."""
    order = list(catalogue.RULES)
    lines: list[tuple[list[str], str]] = []
    for rule_id in sorted(left_out(p), key=order.index):
        why = left_out(p)[rule_id]
        prev = lines[-1] if lines else None
        if prev and prev[1] == why and order.index(prev[0][-1]) == order.index(rule_id) - 1:
            prev[0].append(rule_id)
        else:
            lines.append(([rule_id], why))
    joined = {1: "{0}", 2: "{0} and {1}"}
    return [(joined.get(len(ids), "{0} to {last}").format(*ids, last=ids[-1]), why) for ids, why in lines]


def hand_rows(p: Profile) -> tuple[int, list[dict[str, Any]], int]:
    """(hands dealt, one row per category strongest first, hands that open) for ``p``'s deck."""
    counts = odds.category_counts(p.wild, p.stripped_deck, p.southern_hands)
    total = odds.total_hands(p.wild, p.stripped_deck)
    rows = []
    for category in reversed(list(counts)):
        n = counts[category]
        if not n and category == "five_of_a_kind":
            continue  # cannot be dealt without a wild card
        rows.append({"name": category.replace("_", " ").capitalize(), "count": n,
                     "percent": _percent(n, total), "odds": odds.format_odds(n, total)})
    opening = odds.opening_count(p.wild, p.stripped_deck, p.opening_minimum)
    return total, rows, opening


def tree_diagrams(p: Profile) -> list[tuple[str, Markup, int, int]]:
    """One diagram per kind of dispute: (heading, SVG as a data URI, width, height)."""
    tree = build_tree(p)
    out = []
    for branch in tree.root.branches:  # type: ignore[union-attr]
        # The page heading names the dispute; the diagram's own title would only repeat it.
        sub = dataclasses.replace(tree.subtree(branch.key), title="")
        svg = to_svg(sub)
        match = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
        width, height = (int(match.group(1)), int(match.group(2))) if match else (800, 400)
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
        out.append((branch.label, Markup(uri), width, height))
    return out


def profile_digest(p: Profile) -> str:
    """A short digest of the profile's content: what the printed summary is keyed by."""
    data = json.dumps(p.to_dict(), sort_keys=True, default=str) + current_app.config.get("FLOOR_VERSION", "")
    return hashlib.sha256(data.encode()).hexdigest()[:12]


def glance(p: Profile) -> dict[str, str]:
    """The profile at a glance: one line per thing a player asks first."""
    deck = f"{p.deck_size} cards{', stripped to aces down to sevens' if p.stripped_deck else ''}; " \
           f"{DECK_WORDS.get(p.wild, p.wild)}"
    opening = f"A pair of {MINIMUM_WORDS.get(p.opening_minimum, p.opening_minimum)} or better (O1)"
    if p.progressive_openers:
        opening += "; the requirement climbs after each deal nobody opens (O5)"
    antes = _capped(p.ante_deals, "On the first {n} deals of a pot, none after that (O4)",
                    "On every deal of a pot: no ante cap (O4)")
    if p.pot_limit is not None:
        antes += f"; none once the pot holds {p.pot_limit} chips"
    return {
        "deck": deck + ".",
        "deck_short": f"{p.deck_size} cards, {DECK_WORDS.get(p.wild, p.wild)}",
        "open": opening + ".",
        "antes": antes + ".",
        "draw": ("No draw." if p.max_draw == 0 else f"Up to {p.max_draw} cards, in turn from the left of the button (D2)."),
        "after": ("The opener acts first, or the next player still in after the opener (D4)."
                  if p.postdraw_first == "opener" else "The first player still in left of the button acts first (D4)."),
        "raises": _capped(p.raise_cap, "A bet and up to {n} raises a round; the bet after the draw is the big bet (D5).",
                          "No cap on raises; the bet after the draw is the big bet (D5)."),
        "false_openers": ("The false opener forfeits everything put in, and antes for everyone next deal if "
                          "others drew against them (F9)." if p.false_openers == "foster" else
                          "The hand is dead, the opening bet stays in the pot, and another player may reopen "
                          "unless the pot already plays (F2 to F7)."),
    }


def summary_context(found: FoundProfile) -> dict[str, Any]:
    p = found.profile
    total, hands, opening = hand_rows(p)
    return {
        "found": found, "p": p, "groups": rule_groups(p), "left_out": left_out_lines(p),
        "options": option_rows(p), "total": total, "hands": hands, "opening": opening,
        "opening_words": MINIMUM_WORDS.get(p.opening_minimum, p.opening_minimum),
        "diagrams": tree_diagrams(p), "digest": profile_digest(p), "glance": glance(p),
    }


# --------------------------------------------------------------------------- PDF cache

#: Rendered summaries by profile name and content digest.
pdf_cache: LRU[str, bytes] = LRU(16)


def _found_or_404(name: str) -> FoundProfile:
    try:
        found = find_profile(name)
    except ProfileNotFound as exc:
        abort(404, description=str(exc))
    if found.error:
        abort(422, description=f"The house profile {name!r} does not read any more: {found.error} "
                               "A director can correct it on the house profiles page.")
    return found


# --------------------------------------------------------------------------- views

@bp.get("/")
def index() -> Any:
    """Every profile, with links to its summary and its PDF."""
    return render_template("prints/index.html", choices=profile_choices())


@bp.get("/<name>")
def summary(name: str) -> Any:
    """A profile's rule summary as a web page (the PDF's content)."""
    found = _found_or_404(name)
    return render_template("prints/summary.html", print_mode=False, **summary_context(found))


@bp.get("/<name>.pdf")
def summary_pdf(name: str) -> Any:
    """A profile's rule summary as an A4 PDF, rendered once per profile content."""
    found = _found_or_404(name)
    key = f"{found.name}:{profile_digest(found.profile)}"
    data = pdf_cache.get(key)
    if data is None:
        started = time.perf_counter()
        html = render_template("prints/summary.html", print_mode=True, **summary_context(found))
        data = HTML(string=html).write_pdf()
        current_app.logger.info("rule summary %s rendered in %.2f s", found.name, time.perf_counter() - started)
        pdf_cache.put(key, data)
    # What flask_weasyprint.render_pdf(..., download_filename=...) sends, from the cached bytes.
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"rules-{found.name}.pdf")
