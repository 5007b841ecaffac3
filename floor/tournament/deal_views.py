"""The deal page (``/tournament/<id>/deal``): the floor draws up a deal among the players left (the
chip chop, ICM, or the players' own figures), reviews the sheet the players sign, and settles it
there: the same settlement as ``POST /api/events/<id>/chop`` (:func:`floor.tournament.desk.settle`).

Three steps, each a page of its own: the offer (the method and what becomes of the bounties not yet
won); the review (the sheet exactly as it will be recorded, its PDF to sign, a box per player who has
signed); the settlement (a POST, the floor's, with the chips the sheet showed: refused if they have
changed since). Once settled, the page is the deal's sheet, and the event is over.
"""

from __future__ import annotations

import json
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user

from floor.auth.access import role_required
from floor.models import Role, Tournament, utcnow
from floor.pdf import pdf_response
from floor.tournament import desk, service
from floor.tournament.views import bp
from rules import RulesError
from rules.tournament import BountyRule

METHODS = {"icm": "ICM", "chip": "Chip chop", "custom": "The players' own figures"}
RULES = {BountyRule.KEPT: "each keeps the bounty on their own head; those nobody won are shared by the chips",
         BountyRule.SHARED: "every bounty not yet won is shared by the chips",
         BountyRule.CUSTOM: "as the players write them down"}


def _amounts(prefix: str, source: Any) -> dict[str, int]:
    """The amounts {player: n} of a form's fields named ``<prefix>:<player>`` (a whole number each)."""
    out: dict[str, int] = {}
    for key, value in source.items():
        if key.startswith(prefix + ":"):
            player = key[len(prefix) + 1:]
            try:
                out[player] = int(str(value).strip())
            except ValueError:
                raise RulesError(f"deal: {player}'s {prefix} is a whole amount, not {value!r}") from None
    return out


def _asked(source: Any) -> tuple[str, str, Any, Any]:
    """The deal the floor asks for: method, bounty rule, custom prizes, custom bounties."""
    method = source.get("method", "icm")
    if method not in METHODS:
        method = "icm"
    rule = source.get("bounties", BountyRule.KEPT)
    if rule not in RULES:
        rule = BountyRule.KEPT
    prizes = _amounts("prize", source) if method == "custom" else None
    bounties = _amounts("bounty", source) if rule == BountyRule.CUSTOM else rule
    return method, rule, prizes, bounties


def _sheet(t: Tournament, source: Any) -> dict[str, Any]:
    """The page's context: the deal settled, or the sheet the floor asked for (or why not)."""
    deal = service.the_deal(t)
    context: dict[str, Any] = {"t": t, "deal": deal, "methods": METHODS, "rules": RULES, "error": None,
                               "sheet": None, "rows": [], "drawn_at": utcnow()}
    if deal is not None:
        data = deal.data
        stacks = {p: int(v) for p, v in data["stacks"].items()}
        paid = service.deal_bounties_of(t, deal)
        won: dict[str, int] = {}
        for r in service.bounty_rows(t):
            won[r["winner"]] = won.get(r["winner"], 0) + r["amount"]
        context.update(method=data["method"], rule=data.get("bounty_rule", BountyRule.KEPT), rows=[
            {"player": p, "stack": stacks[p], "prize": int(data["prizes"][p]), "bounty": paid.get(p, 0),
             "bounties_won": won.get(p, 0)} for p in sorted(stacks, key=lambda p: (-stacks[p], p.casefold()))],
            total=data["total"], bounty=data.get("bounty", service.structure(t).bounty),
            unclaimed=data.get("unclaimed"))
        return context
    method, rule, prizes, bounties = _asked(source)
    asked: dict[str, Any] = {"method": method, "bounties": rule, **{f"prize:{p}": v for p, v in (prizes or {}).items()},
             **{f"bounty:{p}": v for p, v in (bounties if isinstance(bounties, dict) else {}).items()}}
    context.update(method=method, rule=rule, query=asked)  # the figures asked for, as links carry them
    try:
        if (method == "custom" and not prizes) or (rule == BountyRule.CUSTOM and not bounties):
            # the players' own figures start from the ICM offer, the bounties as kept
            start = desk.draw_up(t, "icm", None, BountyRule.KEPT)
            if method == "custom" and not prizes:
                prizes = dict(start.prizes)
            if rule == BountyRule.CUSTOM and not bounties:
                bounties = dict(start.bounties)
        sheet = desk.draw_up(t, method, prizes, bounties)
    except RulesError as exc:
        context["error"] = str(exc)
        return context
    query: dict[str, Any] = {"method": method, "bounties": rule}  # the sheet again, as links carry it (the review, its PDF)
    if method == "custom":
        query.update({f"prize:{p}": v for p, v in sheet.prizes.items()})
    if rule == BountyRule.CUSTOM:
        query.update({f"bounty:{p}": v for p, v in sheet.bounties.items()})
    context.update(sheet=sheet, rows=sheet.rows(), total=sheet.total, bounty=sheet.bounty, unclaimed=sheet.unclaimed,
                   seen=json.dumps(sheet.stacks, sort_keys=True), query=query)
    return context


@bp.get("/<int:event_id>/deal")
@role_required(Role.floor)
def deal(event_id: int) -> Any:
    """The deal among the players left: the offer (chip, ICM, custom; the bounties' rule), or the deal
    settled, to print and sign."""
    return render_template("tournament/deal.html", pdf=False, step="offer",
                           **_sheet(service.get(event_id), request.args))


@bp.get("/<int:event_id>/deal/review")
@role_required(Role.floor)
def deal_review(event_id: int) -> Any:
    """The sheet as it will be recorded, its PDF to sign, and the settlement (confirmed per player)."""
    t = service.get(event_id)
    if service.the_deal(t) is not None:
        return redirect(url_for("tournament.deal", event_id=event_id))
    return render_template("tournament/deal.html", pdf=False, step="review", **_sheet(t, request.args))


@bp.post("/<int:event_id>/deal")
@role_required(Role.floor)
def settle_deal(event_id: int) -> Any:
    """Settle the deal reviewed: every player left has signed; the chips are the sheet's."""
    t = service.get(event_id)
    method, rule, prizes, bounties = _asked(request.form)
    try:
        seen = json.loads(request.form.get("seen") or "null")
        rows = desk.settle(t, method, request.form.getlist("agreed"), prizes, current_user, bounties=bounties,
                           seen=seen if seen is not None else {})
    except (RulesError, ValueError) as exc:
        context = _sheet(t, request.form)
        context["error"] = str(exc)
        return render_template("tournament/deal.html", pdf=False, step="review", **context), 422
    flash(f"Deal settled ({METHODS[method]}): {len(rows)} players; the event is over. Print the sheet to sign.",
          "success")
    return redirect(url_for("tournament.deal", event_id=event_id))


@bp.get("/<int:event_id>/deal.pdf")
@role_required(Role.floor)
def deal_pdf(event_id: int) -> Any:
    """The deal sheet as a PDF, for the players to sign: the deal settled, or the one under review."""
    html = render_template("tournament/deal.html", pdf=True, step="review", **_sheet(service.get(event_id), request.args))
    return pdf_response(html, f"deal-{event_id}.pdf")
