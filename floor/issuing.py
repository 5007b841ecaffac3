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
from floor.tables import jsonable
from floor.models import FloorCall, Ruling, Table, User, utcnow
from rules import IllegalAction, MissingFact, RulesError, jackpot
from rules.disputes import known_facts
from rules.rulings import Ruling as RulesRuling
from rules.rulings import resolve
from rules.profiles import game_words, house_rules
from rules.words import chips_text, ruling_headline


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
    opener = before.to_dict()["jackpot"]["opener"]
    if opener is None:
        return None
    try:
        after = jackpot.apply(before, {"type": "false_openers", "seat": opener})
    except (RulesError, ValueError):
        return None
    state = after.to_dict()
    return EnginePreview(int(opener), tables.jsonable(after.added[-1]) if after.added else None,
                         state.get("reopen"), state.get("message", ""))


def log_false_openers(table: Table, user: User, expected_version: int | None = None,
                      reported_by: User | None = None) -> tuple[Ruling | None, dict[str, Any]]:
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
        db.select(Ruling).where(Ruling.table_id == table.id, Ruling.log_seq == entry.seq).order_by(Ruling.id.desc())
    ).first()
    return ruling, state


# --------------------------------------------------------------------------- a dealer's report


def report(table: Table, event: Mapping[str, Any], dealer: User) -> FloorCall:
    """A dealer's tap that only the floor may log (false openers): nothing is logged; a floor call
    carries the event and what the rules would do now, and waits for a floor person to confirm it.

    Raises ``IllegalAction`` when the rules would refuse the event anyway (the dealer is told why
    at once, as for any other tap).
    """
    seat = event.get("seat")
    found = engine_preview(table, str(event.get("type")))
    if found is None or (seat is not None and str(seat) != str(found.seat)):
        jackpot.apply(tables.table_state(table), dict(event))  # the rules' own refusal, in their words
        raise IllegalAction("false openers: only the opener of an opened deal can be reported")
    proposal = {"ruling": found.ruling, "reopen": found.reopen, "message": found.message}
    call = FloorCall(table_id=table.id, issue="false_openers", seat=found.seat, called_by=dealer,
                     event={"type": "false_openers", "seat": found.seat}, version=table.version,
                     proposal=tables.jsonable(proposal))
    db.session.add(call)
    db.session.commit()
    current_app.logger.info("false openers at table %s (seat %s) reported by %s; waiting for the floor",
                            table.id, found.seat, dealer.username)
    return call


def confirm_call(call: FloorCall, user: User) -> tuple[Ruling | None, dict[str, Any]]:
    """A floor person confirms a dealer's report: the event is logged in the floor person's name
    (reported by the dealer), the ruling stored and sealed, and the call closed."""
    if not call.is_open or call.event is None:
        raise IssueError("this call carries no report to confirm (it was answered or dismissed)")
    row, state = log_false_openers(call.table, user, reported_by=call.called_by)
    if call.is_open:  # a reopen offer first: the ruling comes when the last eligible seat answers
        call.closed_at, call.closed_by = utcnow(), user
        db.session.commit()
    return row, state


def confirm_ruling(row: Ruling, user: User) -> None:
    """A floor person signs a ruling the rules made on a dealer's tap: it becomes the floor's."""
    if not row.pending:
        raise IssueError(f"ruling #{row.id} is not waiting for a confirmation")
    row.confirm(user)
    if row.table_id is not None:
        FloorCall.answer(row, user)
    db.session.commit()
    current_app.logger.info("ruling #%s confirmed by %s", row.id, user.username)


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
    tables.check_role("ruling", user)
    spec = profile_of(table, profile)
    clean = {str(k): v for k, v in facts.items()}
    ruling = preview(clean, spec)
    event_record = ruling.to_dict()
    try:
        state: dict[str, Any] = {}
        record = dict(event_record)
        if table is not None:
            db.session.refresh(table)
            if apply and expected_version is not None and expected_version != table.version:
                raise tables.StaleVersion(expected_version, table.version)
            expected_version = table.version
            before = tables.table_state(table)
            state = before.to_dict()
            if apply:
                # what the ruling does at this table (who gets what, in words), before it is sealed;
                # a ruling the table refuses is refused here, before anything is stored
                after = jackpot.apply(before, {"type": "ruling", "ruling": event_record, "id": None})
                record = {k: v for k, v in after.added[-1].items() if k != "id"}
        if "headline" not in record:
            names = {int(s): str(x["player"]) for s, x in state.get("seats", {}).items()}
            record["headline"] = ruling_headline(record, names)
        row = Ruling(
            table=table, deal=record.get("deal", state.get("deal")) if table is not None else None,
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


# --------------------------------------------------------------------------- reading a stored ruling


def movements(rec: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """A ruling's chips and seats, one line each with the player's name: every seat whose chips
    move, the winner included, with the amount (a ruling applied at a table knows them: ``chips``),
    then what happens to seats without chips moving (a dead hand, a bar)."""
    out: list[dict[str, Any]] = []

    def line(seat: Any, chips: Any, what: str) -> None:
        s = int(seat)
        out.append({"seat": s, "player": names.get(s, ""), "chips": chips, "what": what})

    winners = [int(w) for w in rec.get("winners") or ([rec["winner"]] if rec.get("winner") is not None else [])]
    returns = {int(k): int(v) for k, v in (rec.get("returns") or {}).items() if int(v)}
    reopener = int(rec["reopener"]) if rec.get("reopener") is not None else None
    chips = {int(k): int(v) for k, v in (rec.get("chips") or {}).items() if int(v)}
    if rec.get("kind") == "correction":
        for seat, amount in sorted(chips.items()):
            line(seat, chips_text(amount), "gets chips" if amount > 0 else "gives chips")
        return out
    if "chips" in rec:  # applied at a table: what each stack gained or lost
        for seat, amount in sorted(chips.items()):
            if seat == reopener and amount < 0:
                what = "reopens the pot (the opening bet)"
            elif amount < 0:
                what = "gives back chips the pot had paid"
            elif seat in returns and seat not in winners:
                what = "takes bets back from the pot"
            else:
                what = "takes the pot" if len(winners) <= 1 else "shares the pot"
            line(seat, chips_text(amount), what)
    else:  # a hand that was not logged: what the ruling says, without the pot's size
        for seat, amount in sorted(returns.items()):
            line(seat, chips_text(amount), "handed back from the pot")
        for seat in winners:
            line(seat, None, "takes the pot" if len(winners) == 1 else "shares the pot")
        if reopener is not None:
            line(reopener, None, "declares the pot open")
    if rec.get("proved") is not None:
        line(rec["proved"], None, "openers proved: the hand stands")
    for seat in rec.get("dead") or ():
        line(seat, None, "hand dead")
    for seat in rec.get("barred") or ():
        line(seat, None, "dealt out of this pot until someone else wins it")
    if rec.get("ante_for_all") is not None:
        line(rec["ante_for_all"], None, "antes for every other player next deal")
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
        "reported_by": row.reported_by.username if row.reported_by else None,
        "by_rules": row.by_rules,
        "pending": row.pending,
        "ruled_by": row.ruled_by.username if row.ruled_by else None,
        "confirmed_at": row.confirmed_at.isoformat(timespec="seconds") + "Z" if row.confirmed_at else None,
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
    "report", "confirm_call", "confirm_ruling", "table_facts", "profile_of", "movements", "players",
    "concerned_seats", "to_json", "house_rules_line", "path_facts",
]


def house_rules_line(row: Ruling) -> tuple[str, str]:
    """The game and the house rules in force for a ruling: the table's own profile (inline
    overrides included), or the named profile of a hand that was not logged."""
    spec = row.table.setup.get("profile", "cardroom") if row.table is not None else row.profile
    try:
        profile, base, changed = house_rules(tables.resolve_profile(spec) if isinstance(spec, str) else spec)
    except (RulesError, ValueError):
        return "", row.profile
    words = profile.name if profile.name == base else f"{profile.name} (based on {base})"
    options = [f"{k} = {_toml(v)}" for k, v in changed.items() if k not in ("name", "title")]
    if options:
        words += ", with " + ", ".join(options)
    return game_words(profile), words


def _toml(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def path_facts(row: Ruling) -> set[str]:
    """The facts the ruling's path read (its questions' and its leaf's), the ones worth printing."""
    names = {f for step in row.record.get("path", []) for f in step.get("facts", [])}
    return names | {"issue"} | ({"seat"} if "seat" in row.facts else set()) | (
        {"opener"} if "opener" in row.facts else set())
