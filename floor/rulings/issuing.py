"""Issuing rulings: resolve with the rules, store sealed, and apply to a table's log.

A ruling is resolved by ``rules.rulings.resolve`` (the web layer never decides a rule), stored
once with who/when/table/deal/facts and the whole ``Ruling.to_dict()`` record, and sealed with the
digest of its content. It is never changed afterwards; a correction is a new ruling whose
``supersedes_id`` names the old one.

Applying a ruling to a table, two ways (both in the one transaction of ``floor.tables.append``,
so a refused event leaves no ruling behind either):

- the general way: the ruling is stored first (its id is part of what the digest seals) and a
  ``{"type": "ruling", "ruling": record, "id": id}`` event is logged; the engine applies its chip
  movements exactly as it applies its own rulings.
- false openers on a logged hand, from the floor page: the engine's own ``false_openers`` event
  is logged instead, so that the engine reads every fact from the log and runs the reopen offer
  (F3) seat by seat. The engine's ruling is stored by ``floor.tables`` when the event is logged
  (at once, or when the last eligible seat answers the reopen offer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from flask import current_app

from floor import tables
from floor.extensions import db
from floor.house_profiles import resolve_profile
from floor.models import FloorCall, IssuedRuling, Table, User, utcnow
from floor.tables import jsonable
from rules import IllegalAction, MissingFact, RulesError, jackpot
from rules.jackpot.disputes import known_facts
from rules.rulings import Ruling, resolve
from rules.words import ruling_headline

__all__ = [
    "IssueError", "MissingFact", "EnginePreview", "issue", "preview", "engine_preview", "log_false_openers",
    "report", "confirm_call", "confirm_ruling", "table_facts", "profile_of", "jsonable",
]


class IssueError(ValueError):
    """Input the floor cannot issue a ruling from (unknown table, bad reference); plain words."""


def profile_of(table: Table | None, name: str | None = None) -> Any:
    """The profile a ruling is resolved under: the table's own, or a named (or house) profile."""
    if table is not None:
        return table.setup.get("profile", "cardroom")
    try:
        return resolve_profile(name or "cardroom")
    except RulesError as exc:
        raise IssueError(str(exc)) from None


def table_facts(table: Table, issue: str, seat: Any = None) -> dict[str, Any]:
    """What the table's log already answers about ``issue`` (read by ``rules.jackpot.disputes``)."""
    return known_facts(tables.table_state(table), issue, seat)


def preview(facts: Mapping[str, Any], profile: Any) -> Ruling:
    """The ruling these facts lead to; raises ``MissingFact`` or ``RulesError`` like ``resolve``."""
    return resolve(dict(facts), profile)


# --------------------------------------------------------------------------- the engine's way


@dataclass(frozen=True)
class EnginePreview:
    """What logging ``false_openers`` would do now: a ruling, or a reopen offer (F3) first."""

    seat: int
    ruling: dict[str, Any] | None
    reopen: dict[str, Any] | None
    message: str


def engine_preview(table: Table, issue: str) -> EnginePreview | None:
    """A dry run of the engine's ``false_openers`` event on the table, or None if it does not apply.

    Only false openers has an event of its own; the engine refuses it outside an opened deal,
    and then the floor settles the dispute by hand like any other.
    """
    if issue != "false_openers":
        return None
    before = tables.table_state(table)
    opener = before.opener
    if opener is None:
        return None
    try:
        after = jackpot.apply(before, {"type": "false_openers", "seat": opener})
    except (RulesError, ValueError):
        return None
    return EnginePreview(int(opener), tables.jsonable(after.added[-1]) if after.added else None,
                         None if after.reopen is None else after.reopen.to_dict(), after.message)


def log_false_openers(table: Table, user: User, expected_version: int | None = None,
                      reported_by: User | None = None) -> tuple[IssuedRuling | None, jackpot.TableState]:
    """Log the engine's own ``false_openers`` event in the floor person's name; returns the stored
    ruling (None while the reopen offer runs) and the new state. ``reported_by`` is the dealer
    whose call the floor person confirms."""
    found = engine_preview(table, "false_openers")
    if found is None:
        raise IllegalAction("false openers: the table is not in an opened deal with an active opener; "
                            "settle the dispute by hand instead")
    entry, state = tables.append(table, {"type": "false_openers", "seat": found.seat}, user, expected_version,
                                 reported_by=reported_by)
    ruling = db.session.scalars(
        db.select(IssuedRuling).where(IssuedRuling.table_id == table.id, IssuedRuling.log_seq == entry.seq)
        .order_by(IssuedRuling.id.desc())
    ).first()
    return ruling, state


def false_openers_logged(table: Table, ruling: IssuedRuling | None, state: jackpot.TableState) -> str:
    """What the floor person is told after false openers are logged: the stored ruling, or, while
    the reopen offer runs (F3), which seats may still reopen the pot."""
    if ruling is not None:
        return f"Ruling #{ruling.id} issued and applied to {table.label}."
    seats = ", ".join(str(s) for s in (state.reopen.eligible if state.reopen is not None else ()))
    return (f"False openers logged at {table.label}. Seats {seats} may now reopen the pot in turn; "
            "the ruling is stored when the last of them has answered.")


# --------------------------------------------------------------------------- a dealer's report


def report(table: Table, event: Mapping[str, Any], dealer: User, tap_id: str | None = None) -> FloorCall:
    """A dealer's tap that only the floor may log (false openers): nothing is logged; a floor call
    carries the event and what the rules would do now, and waits for a floor person to confirm it.

    Raises ``IllegalAction`` when the rules would refuse the event anyway (the dealer is told why
    at once, as for any other tap). ``tap_id`` is the tablet's id of the tap (:mod:`floor.tapids`).
    """
    seat = event.get("seat")
    found = engine_preview(table, str(event.get("type")))
    if found is None or (seat is not None and str(seat) != str(found.seat)):
        jackpot.apply(tables.table_state(table), dict(event))  # the rules' own refusal, in their words
        raise IllegalAction("false openers: only the opener of an opened deal can be reported")
    proposal = {"ruling": found.ruling, "reopen": found.reopen, "message": found.message}
    call = FloorCall(table_id=table.id, issue="false_openers", seat=found.seat, called_by=dealer,
                     event={"type": "false_openers", "seat": found.seat}, version=table.version,
                     proposal=tables.jsonable(proposal), tap_id=tap_id)
    db.session.add(call)
    db.session.commit()
    current_app.logger.info("false openers at table %s (seat %s) reported by %s; waiting for the floor",
                            table.id, found.seat, dealer.username)
    return call


def confirm_call(call: FloorCall, user: User) -> tuple[IssuedRuling | None, jackpot.TableState]:
    """A floor person confirms a dealer's report: the event is logged in the floor person's name
    (reported by the dealer), the ruling stored and sealed, and the call closed."""
    if not call.is_open or call.event is None:
        raise IssueError("this call carries no report to confirm (it was answered or dismissed)")
    row, state = log_false_openers(call.table, user, reported_by=call.called_by)
    if call.is_open:  # a reopen offer first: the ruling comes when the last eligible seat answers
        call.closed_at, call.closed_by = utcnow(), user
        db.session.commit()
    return row, state


def confirm_ruling(row: IssuedRuling, user: User) -> None:
    """A floor person signs a ruling the rules made on a dealer's tap: it becomes the floor's."""
    if not row.pending:
        raise IssueError(f"ruling #{row.id} is not waiting for a confirmation")
    row.confirm(user)
    if row.table_id is not None:
        FloorCall.answer(row, user)
    db.session.commit()
    current_app.logger.info("ruling #%s confirmed by %s", row.id, user.username)


# --------------------------------------------------------------------------- the general way


def _ruling_corrected(supersedes: int | None) -> IssuedRuling | None:
    """The ruling a correction replaces (None for a new ruling): it must exist and stand."""
    if supersedes is None:
        return None
    old = db.session.get(IssuedRuling, supersedes)
    if old is None:
        raise IssueError(f"there is no ruling #{supersedes} to correct")
    if old.superseded_by is not None:
        raise IssueError(f"ruling #{old.id} was already corrected by ruling #{old.superseded_by.id}; "
                         "correct that one instead")
    return old


def _at_the_table(table: Table, event_record: dict[str, Any], apply: bool,
                  expected_version: int | None) -> tuple[dict[str, Any], dict[int, str], int | None, int]:
    """A ruling for ``table`` as the table stands now: the record to seal (for a ruling applied,
    what it does at this table, who gets what in words), the seats' names, the deal and the
    version the log entry must follow. A ruling the table refuses is refused here, before anything
    is stored; so is a device that saw an older version of the table."""
    db.session.refresh(table)
    if apply and expected_version is not None and expected_version != table.version:
        raise tables.StaleVersion(expected_version, table.version)
    before = tables.table_state(table)  # typed: the names and the deal, no plain-data copy
    names = {s: x.player for s, x in before.seats.items()}
    record = dict(event_record)
    if apply:
        after = jackpot.apply(before, {"type": "ruling", "ruling": event_record, "id": None})
        record = {k: v for k, v in after.added[-1].items() if k != "id"}
    return record, names, before.deal_no, table.version


def issue(
    facts: Mapping[str, Any],
    user: User,
    *,
    table: Table | None = None,
    profile: str | None = None,
    apply: bool = False,
    supersedes: int | None = None,
    note: str = "",
    expected_version: int | None = None,
) -> IssuedRuling:
    """Resolve, store, seal and (for a table, if ``apply``) log a ruling, all in one transaction.

    Raises ``MissingFact`` (the tree needs more), ``RulesError``/``ValueError`` (the rules refuse
    the facts or the table refuses the ruling), ``tables.StaleVersion`` or :class:`IssueError`.
    Nothing is written when it raises.
    """
    old = _ruling_corrected(supersedes)
    if apply and table is None:
        raise IssueError("only a ruling for a table can be applied to a table's log")
    tables.check_role("ruling", user)
    spec = profile_of(table, profile)
    clean = {str(k): v for k, v in facts.items()}
    ruling = preview(clean, spec)
    event_record = ruling.to_dict()
    try:
        names: dict[int, str] = {}
        deal: int | None = None
        record = dict(event_record)
        if table is not None:
            record, names, deal, expected_version = _at_the_table(table, event_record, apply, expected_version)
        if "headline" not in record:
            record["headline"] = ruling_headline(record, names)
        row = IssuedRuling(
            table=table, deal=record.get("deal", deal) if table is not None else None,
            log_seq=(table.version + 1) if (apply and table is not None) else None,
            profile=str(record["profile"]),
            outcome=record["outcome"], facts=jsonable(clean), record=jsonable(record),
            note=note.strip(), issued_by=user, issued_at=utcnow().replace(microsecond=0),
            supersedes_id=old.id if old is not None else None,
        )
        db.session.add(row)
        db.session.flush()  # the id is part of the sealed content
        row.seal()
        FloorCall.answer(row)
        if apply and table is not None:
            tables.append(table, {"type": "ruling", "ruling": jsonable(event_record), "id": row.id}, user,
                          expected_version)
        else:
            db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    current_app.logger.info("ruling #%s issued by %s: %s", row.id, user.username, row.outcome)
    return row
