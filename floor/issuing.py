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
from floor.models import FloorCall, Ruling, Table, User, utcnow
from rules import IllegalAction, MissingFact, RulesError, jackpot
from rules.disputes import known_facts
from rules.rulings import Ruling as RulesRuling
from rules.rulings import resolve


class IssueError(ValueError):
    """Input the floor cannot issue a ruling from (unknown table, bad reference); plain words."""


def profile_of(table: Table | None, name: str | None = None) -> Any:
    """The profile a ruling is resolved under: the table's own, or a named (or house) profile."""
    if table is not None:
        return table.setup.get("profile", "cardroom")
    try:
        return tables.resolve_profile(name or "cardroom")
    except RulesError as exc:
        raise IssueError(str(exc)) from None


def table_facts(table: Table, issue: str, seat: Any = None) -> dict[str, Any]:
    """What the table's log already answers about ``issue`` (read by ``rules.disputes``)."""
    return known_facts(tables.table_state(table), issue, seat)


def preview(facts: Mapping[str, Any], profile: Any) -> RulesRuling:
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
    state = before.to_dict()
    opener = state["jackpot"]["opener"]
    if opener is None:
        return None
    try:
        after = jackpot.apply(before, {"type": "false_openers", "seat": opener}).to_dict()
    except (RulesError, ValueError):
        return None
    new = after["rulings"][len(state["rulings"]):]
    return EnginePreview(int(opener), new[-1] if new else None, after.get("reopen"), after.get("message", ""))


def log_false_openers(table: Table, user: User, expected_version: int | None = None) -> tuple[Ruling | None, dict[str, Any]]:
    """Log the engine's own ``false_openers`` event; returns the stored ruling (None while the
    reopen offer runs) and the new state."""
    found = engine_preview(table, "false_openers")
    if found is None:
        raise IllegalAction("false openers: the table is not in an opened deal with an active opener; "
                            "settle the dispute by hand instead")
    entry, state = tables.append(table, {"type": "false_openers", "seat": found.seat}, user, expected_version)
    ruling = db.session.scalars(
        db.select(Ruling).where(Ruling.table_id == table.id, Ruling.log_seq == entry.seq).order_by(Ruling.id.desc())
    ).first()
    return ruling, state


# --------------------------------------------------------------------------- the general way


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
) -> Ruling:
    """Resolve, store, seal and (for a table, if ``apply``) log a ruling, all in one transaction.

    Raises ``MissingFact`` (the tree needs more), ``RulesError``/``ValueError`` (the rules refuse
    the facts or the table refuses the ruling), ``tables.StaleVersion`` or :class:`IssueError`.
    Nothing is written when it raises.
    """
    old: Ruling | None = None
    if supersedes is not None:
        old = db.session.get(Ruling, supersedes)
        if old is None:
            raise IssueError(f"there is no ruling #{supersedes} to correct")
        if old.superseded_by is not None:
            raise IssueError(f"ruling #{old.id} was already corrected by ruling #{old.superseded_by.id}; "
                             "correct that one instead")
    if apply and table is None:
        raise IssueError("only a ruling for a table can be applied to a table's log")
    spec = profile_of(table, profile)
    clean = {str(k): v for k, v in facts.items()}
    ruling = preview(clean, spec)
    record = ruling.to_dict()
    try:
        state: dict[str, Any] = {}
        if table is not None:
            db.session.refresh(table)
            if apply and expected_version is not None and expected_version != table.version:
                raise tables.StaleVersion(expected_version, table.version)
            expected_version = table.version
            state = tables.state_of(table)
        row = Ruling(
            table=table, deal=state.get("deal") if table is not None else None,
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
            tables.append(table, {"type": "ruling", "ruling": row.record, "id": row.id}, user, expected_version)
        else:
            db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    current_app.logger.info("ruling #%s issued by %s: %s", row.id, user.username, row.outcome)
    return row


def jsonable(value: Any) -> Any:
    """Plain JSON data: tuples as lists, seat keys as the strings JSON will give back anyway."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


# --------------------------------------------------------------------------- reading a stored ruling


def movements(rec: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """A ruling record's chip movements and seat changes, one line each, with the players' names."""
    out: list[dict[str, Any]] = []

    def line(seat: Any, chips: Any, what: str) -> None:
        s = int(seat)
        out.append({"seat": s, "player": names.get(s, ""), "chips": chips, "what": what})

    for seat, chips in sorted(((int(k), v) for k, v in (rec.get("returns") or {}).items())):
        line(seat, chips, "handed back from the pot")
    winners = rec.get("winners") or ([rec["winner"]] if rec.get("winner") is not None else [])
    for seat in winners:
        line(seat, None, "takes the pot" if len(winners) == 1 else "shares the pot")
    for seat in rec.get("dead") or ():
        line(seat, None, "hand dead")
    for seat in rec.get("barred") or ():
        line(seat, None, "barred until the pot is won")
    if rec.get("ante_for_all") is not None:
        line(rec["ante_for_all"], None, "antes for every other player next deal")
    if rec.get("reopener") is not None:
        line(rec["reopener"], None, "declares the pot open")
    return out


def players(row: Ruling) -> dict[int, str]:
    """Seat -> player name from the table's setup (empty for a hand that was not logged)."""
    if row.table is None:
        return {}
    return {int(s["seat"]): str(s.get("player", "")) for s in row.table.setup.get("seats", [])}


def concerned_seats(row: Ruling) -> list[int]:
    """The seats a ruling speaks of: the opener, the seat concerned and every seat it moves."""
    rec, facts = row.record, row.facts
    seats = {int(m["seat"]) for m in movements(rec, players(row))}
    for value in (rec.get("opener"), facts.get("opener"), facts.get("seat")):
        if value not in (None, ""):
            try:
                seats.add(int(value))
            except (TypeError, ValueError):
                pass
    return sorted(seats)


def to_json(row: Ruling) -> dict[str, Any]:
    """The stored ruling for the API: its record's fields, who/when/where, the digest and links."""
    from flask import url_for

    return {
        **row.record,
        "id": row.id,
        "table_id": row.table_id,
        "deal": row.deal,
        "log_seq": row.log_seq,
        "facts": row.facts,
        "note": row.note,
        "issued_by": row.issued_by.username if row.issued_by else None,
        "issued_at": row.issued_at.isoformat(timespec="seconds") + "Z",
        "supersedes": row.supersedes_id,
        "superseded_by": row.superseded_by.id if row.superseded_by else None,
        "digest": row.digest,
        "intact": row.intact,
        "url": url_for("rulings.detail", ruling_id=row.id, _external=False),
        "pdf_url": url_for("rulings.pdf", ruling_id=row.id, _external=False),
        "verify_url": url_for("rulings.verify", ruling_id=row.id, _external=False),
    }


__all__ = [
    "IssueError", "MissingFact", "EnginePreview", "issue", "preview", "engine_preview", "log_false_openers",
    "table_facts", "profile_of", "movements", "players", "concerned_seats", "to_json",
]
