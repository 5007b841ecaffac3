"""The floor's disputes at a banked table (issue 15): a wrong dealer exchange, a wrong payout.

- ``GET /banked/tables/<id>/dispute``: the walk. The floor person picks the dispute (and the box for a
  payout); the page fills in what the table's logged round settles (:func:`rules.banked.disputes.round_facts`),
  asks the decision tree's next question (:func:`rules.banked.disputes.banked_questions`) until it can
  rule, and shows the ruling before it is issued. Every fact stays editable on the page.
- ``POST /banked/tables/<id>/disputes``: issue it. The ruling is resolved again by the rules, stored
  as a :class:`floor.banked.models.IssuedBankedRuling` sealed with the installation's key, and logged to the
  table as a ``ruling`` event (:mod:`rules.banked.events`, by :func:`floor.banked.log.append`) in the same transaction, so the round's
  settlement shows it (the dealer's cards as they fell, a void hand, a box's corrected payout) and the
  house's net stays minus the boxes' total. A ruling the round refuses (a payout ruled before the round
  is settled, say) is not stored: 422 with the rule's message.
- ``GET /banked/rulings/<id>`` and ``.pdf``: the stored ruling, its seal checked, and its print.

Walking and issuing are for floor persons and directors, checked on each action (403 for a dealer);
any logged-in role may read and print an issued ruling, as for the jackpot game's rulings.
Amounts on the page are money as the table writes it ("0.6"); the facts hold ints of the smallest unit.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import abort, render_template, request, url_for
from flask_login import current_user

from floor import witness
from floor.auth.access import role_required
from floor.banked.log import Stale, append, table_state
from floor.banked.models import BankedTable, IssuedBankedRuling
from floor.banked.views import bp
from floor.extensions import db
from floor.models import Role
from floor.rulings.printed import send_ruling_pdf
from floor.rulings.stored import cited
from rules import RulesError
from rules.banked import BankedOptions, banked_options
from rules.banked.disputes import (BANKED_FACTS, BankedOutcome, BankedRuling as Ruling, Dispute, banked_questions,
                                   banked_headline, resolve_dispute, round_facts)

MONEY_FACTS = ("ante_box", "bet", "paid")
ISSUES = ((Dispute.WRONG_EXCHANGE.value, "A wrong dealer exchange"), (Dispute.WRONG_PAYOUT.value, "A wrong payout"))


def _options(table: BankedTable) -> BankedOptions:
    return banked_options(table.setup.get("options"))


def submitted(form: Mapping[str, Any], options: BankedOptions) -> dict[str, Any]:
    """The facts a page sent (``f_<fact>`` fields; present even when empty, which for a list of cards
    means none), money read as the table writes it."""
    facts: dict[str, Any] = {}
    for name in BANKED_FACTS:
        key = f"f_{name}"
        if key not in form:
            continue
        value = str(form.get(key, "")).strip()
        if name in MONEY_FACTS:
            if not value:
                continue
            facts[name] = options.amount(value)
        else:
            facts[name] = value
    return facts


def shown(facts: Mapping[str, Any], options: BankedOptions) -> dict[str, str]:
    """The facts as the page's fields show them (money as text)."""
    return {k: options.money(v) if k in MONEY_FACTS and isinstance(v, int) else ("" if v is None else str(v))
            for k, v in facts.items()}


def gather(table: BankedTable, form: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """The facts so far: the log's, overridden by what the floor person entered; and the log's names."""
    options = _options(table)
    entered = submitted(form, options)
    issue = entered.get("issue") or form.get("issue", "")
    if issue not in {d.value for d in Dispute}:
        return entered, set()
    logged = round_facts(table_state(table), issue, entered.get("box") or form.get("box") or None)
    # a fact sent back unchanged still comes from the log (the page marks it so)
    return {**logged, **entered}, {k for k, v in logged.items() if k not in entered or str(entered[k]) == str(v)}


@bp.get("/tables/<int:table_id>/dispute")
@role_required(Role.floor)
def dispute(table_id: int) -> Any:
    """The walk: the next question, or the ruling these facts lead to."""
    table = db.get_or_404(BankedTable, table_id)
    options = _options(table)
    error, prompt, ruling = "", None, None
    facts: dict[str, Any] = {}
    logged: set[str] = set()
    try:
        facts, logged = gather(table, request.args)
        if "issue" in facts:
            prompt = banked_questions(facts, options)
            if prompt is None:
                ruling = resolve_dispute(facts, options)
    except RulesError as exc:  # a fact that cannot be (a card the dealer never held): named, and editable
        error = str(exc)
    values = shown(facts, options)
    if error:  # what was typed stays on the page, even what could not be read
        values.update({name: str(request.args[f"f_{name}"]) for name in BANKED_FACTS if f"f_{name}" in request.args})
    status = 422 if error else 200
    return render_template("banked/dispute.html", table=table, facts=facts, values=values,
                           logged=logged, prompt=prompt, ruling=ruling, error=error, specs=BANKED_FACTS,
                           issues=ISSUES, money=options.money, money_facts=MONEY_FACTS,
                           headline=banked_headline(ruling.to_dict(), options.money) if ruling else "",
                           state=table_state(table)), status


def ruling_event(row_id: int, ruling: Ruling, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The ``ruling`` event that carries the ruling's money into the round (rules.banked.round)."""
    event: dict[str, Any] = {"type": "ruling", "ruling": row_id, "outcome": ruling.outcome.value}
    if ruling.outcome is BankedOutcome.DEALER_HAND_AS_FELL:
        event["dealer_final"] = list(ruling.dealer_final)
    elif ruling.outcome is BankedOutcome.DEALER_HAND_VOID:
        event["void"] = True
    elif ruling.issue == Dispute.WRONG_PAYOUT and ruling.right_paid is not None:
        event.update(box=ruling.box, box_net=ruling.right_paid - facts["ante_box"] - facts["bet"], paid=ruling.paid)
    return event


@bp.post("/tables/<int:table_id>/disputes")
@role_required(Role.floor)
def issue(table_id: int) -> Any:
    """Resolve, store sealed and log, all or nothing."""
    table = db.get_or_404(BankedTable, table_id)
    options = _options(table)
    facts = submitted(request.form, options)
    try:
        ruling = resolve_dispute(facts, options)
        db.session.refresh(table)
        version = table.version  # the log as this ruling reads it: another device logging first is a Stale
        before = table_state(table)
        row = IssuedBankedRuling(table_id=table.id, round=before.number, profile=options.name,
                                 outcome=ruling.outcome.value, facts=facts, record={},
                                 note=request.form.get("note", "").strip()[:2000], issued_by=current_user)
        db.session.add(row)
        db.session.flush()  # the id is part of what is sealed and of the logged event
        event = ruling_event(row.id, ruling, facts)
        state = before.apply(event)  # the round refuses what it cannot take: nothing stored
        row.log_seq = version + 1
        row.record = {**ruling.to_dict(), "payouts": [
            {k: v for k, v in p.to_dict().items() if k in ("box", "outcome", "player_net", "paid", "correction")}
            for p in state.payouts], "house_net": state.house_net, "stage": state.stage.value}
        row.seal()
        append(table, event, current_user, version)  # one commit: the sealed ruling and its log entry, or neither
    except (RulesError, Stale) as exc:
        db.session.rollback()
        return render_template("banked/dispute.html", table=table, facts=facts, values=shown(facts, options),
                               logged=set(), prompt=None, ruling=None, error=f"The ruling was not issued: {exc}",
                               specs=BANKED_FACTS, issues=ISSUES, money=options.money, money_facts=MONEY_FACTS,
                               state=table_state(table)), 422
    return render_template("banked/ruling.html", **ruling_context(row), issued=True), 201


def ruling_context(row: IssuedBankedRuling) -> dict[str, Any]:
    """What the page and the print show of a stored ruling."""
    options = _options(row.table)
    rec = row.record
    return {"r": row, "rec": rec, "rules": cited(list(rec.get("citations", []))), "money": options.money,
            "intact": row.seal_intact, "specs": BANKED_FACTS, "facts": shown(row.facts, options),
            "verify_hint": "flask --app floor verify", "room": witness.room_record(row),
            "headline": banked_headline(rec, options.money)}


def _row(ruling_id: int) -> IssuedBankedRuling:
    row = db.session.get(IssuedBankedRuling, ruling_id)
    if row is None:
        abort(404, description=f"There is no banked ruling #{ruling_id}.")
    return row


@bp.get("/rulings/<int:ruling_id>")
def ruling_page(ruling_id: int) -> Any:
    return render_template("banked/ruling.html", **ruling_context(_row(ruling_id)), issued=False)


@bp.get("/rulings/<int:ruling_id>.pdf")
def ruling_pdf(ruling_id: int) -> Any:
    row = _row(ruling_id)
    html = render_template("banked/ruling_print.html", **ruling_context(row))
    # rendered once, then served from storage while the seal and the printed page are the same
    return send_ruling_pdf("banked", row.id, row.digest, html, download_name=f"banked-ruling-{row.id}.pdf",
                           base_url=url_for("banked.index", _external=True))
