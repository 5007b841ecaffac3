"""Printed rule summaries for the tables: ``/rules/<profile>`` (preview) and ``/rules/<profile>.pdf``.

A summary is a few A4 pages a director leaves on a table: the rules in force in plain words with
their ids and sources (the readings the profile's options pick), the options table, the hand
rankings with the exact count and odds of each hand for the profile's deck, and the floor's
decision tree as diagrams. What a summary says is :mod:`rules.reports.summary` (pure); this module finds
the profile (:mod:`floor.house_profiles`), draws the diagrams into the page (:mod:`floor.prints.diagrams`),
renders the PDF and keeps it. The PDF loads nothing from outside the document.

A summary's PDF is made once per version of its rules and kept in the database, keyed by a digest
of the profile's content (and the app version) and of the printed page (:mod:`floor.prints.stored`):
the same rules always print the same pages, every server process serves the stored ones, and an
edited house profile prints afresh.
"""

from __future__ import annotations

import hashlib
import json
import time
from io import BytesIO
from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_file

from floor.auth.access import require_role
from floor.house_profiles import FoundProfile, ProfileNotFound, find_profile, profile_choices
from floor.models import Role
from floor.prints.diagrams import tree_diagrams
from floor.prints.stored import summary_pdf as kept_summary_pdf
from rules.profiles import Profile
from rules.reports.summary import summarize

bp = Blueprint("prints", __name__, url_prefix="/rules")
bp.before_request(require_role(Role.dealer))  # any logged-in role may read and print the rules


def profile_digest(p: Profile) -> str:
    """A short digest of the profile's content: what the printed summary is keyed by."""
    data = json.dumps(p.to_dict(), sort_keys=True, default=str) + current_app.config.get("FLOOR_VERSION", "")
    return hashlib.sha256(data.encode()).hexdigest()[:12]


def summary_context(found: FoundProfile) -> dict[str, Any]:
    """What the summary template prints: the rules' summary of the profile, its diagrams, its digest."""
    p = found.profile
    summary = summarize(p)
    return {
        "found": found, "p": p, "groups": summary.groups, "left_out": summary.left_out,
        "options": summary.options, "total": summary.total, "hands": summary.hands, "opening": summary.opening,
        "opening_words": summary.opening_words, "glance": summary.glance,
        "diagrams": tree_diagrams(p), "digest": profile_digest(p),
    }



def _found_or_404(name: str) -> FoundProfile:
    try:
        found = find_profile(name)
    except ProfileNotFound as exc:
        abort(404, description=str(exc))
    if found.error:
        abort(422, description=f"The house profile {name!r} does not read any more: {found.error} "
                               "A director can correct it on the house profiles page.")
    return found


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
    """A profile's rule summary as an A4 PDF, rendered once per version of the profile and kept in
    the database (:mod:`floor.prints.stored`)."""
    found = _found_or_404(name)

    def page() -> str:
        return render_template("prints/summary.html", print_mode=True, **summary_context(found))

    started = time.perf_counter()
    # a file and a house profile may share a name: the kind is part of it
    data = kept_summary_pdf("profile", f"{found.kind}:{found.name}", profile_digest(found.profile), page)
    current_app.logger.info("rule summary %s served in %.2f s", found.name, time.perf_counter() - started)
    # What flask_weasyprint.render_pdf(..., download_filename=...) sends, from the kept bytes.
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"rules-{found.name}.pdf")
