"""The floor manager's shift report (issue 24): ``/floor/shift.pdf?from=&to=`` (and ``/floor/shift``
as a page), floor and director only.

What a floor manager hands over at the end of a shift, read from the stored history: every table with deals in the shift (hands, pots won, pots carried, chips
awarded, the biggest pot), the disputes and rulings issued (outcome, who ruled, the seal and whether
it still matches), the floor's chip corrections (who, why, the moves), the tournaments (places and
payouts), and a section "Flagged": what ``flask verify`` finds wrong anywhere in the history and
the findings a checker outside the app filed in the shift (:mod:`floor.findings`: the night's
referee, which knows the real cards), each with its table and deal; "nothing flagged" when none. ``from`` and ``to`` are the
card room's local times (``2026-11-24T18:00`` or a date), or ``hours`` the last so many hours up to
now; by default the last twelve hours. The page has a form for the window (issue 33: the report
had a fixed window and no link); the floor's overview and the rulings link to it.

The banked tables are in it too (issue 33): each table that logged in the shift, its rounds dealt
and settled and the house's result over them, from the sealed log only; their rulings are listed
with the jackpot tables', every ruling headed by what it decides (its outcome code is evidence).

A shift whose window has ended is built once and served from storage while the room stands as it
was (issue 34: a full night's report took 30 to 39 s a request); anything that changes the room
builds it again: :mod:`floor.shift_store` says what its key covers. It is put together outside the
request (issue 34, session 44: a full night's PDF neared gunicorn's timeout): a request waits for it
a few seconds (``FLOOR_REPORT_WAIT``), then answers a page that reloads itself with ``since`` until
the report (or the PDF) is ready, served as the record stood at a stated moment even while the room
deals on (:mod:`floor.shift_jobs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from io import BytesIO
from typing import Any

from flask import abort, render_template, request, send_file, url_for

from floor import promotions, shift_jobs, tables as table_log, witness
from floor.banked import tablet as banked_tablet
from floor.banked.models import BankedEntry, BankedTable, IssuedBankedRuling
from floor.extensions import db
from floor.findings import Finding, in_shift
from floor.shift_store import Served, served, stored_pdf
from floor.localtime import local, zone
from floor.models import IssuedRuling, LogEntry, Table, Tournament, utcnow
from floor.sealed import check_tournament
from floor.tournament import service
from floor.rulings import stored
from floor.seals import SealBroken, same
from floor.verify import chain_problems, ruling_seal_problems, verify_all
from rules import RulesError, jackpot
from rules.banked import banked_options
from rules.banked.disputes import banked_headline
from rules.banked.round import replay as banked_replay
from rules.reports.hand_history import hands

SHIFT_HOURS = 12
#: The windows the page offers with one tap, in hours up to now.
PRESET_HOURS = (4, 8, 12, 24)
#: The longest window (hours): a report over months is not a shift.
MOST_HOURS = 24 * 31


@dataclass
class TableLine:
    table: Table
    hands: int = 0
    won: int = 0
    carried: int = 0
    awarded: int = 0
    biggest: int = 0
    entries: int = 0
    problem: str = ""
    withheld: bool = False  # the record does not match its seals: no figure is read from it
    # the house's take in the shift (issue 32): rake, time, drop, from the state replayed at the
    # shift's first and last entries
    house: dict[str, int] = field(default_factory=lambda: {"rake": 0, "time": 0, "drop": 0})

    @property
    def take(self) -> int:
        return sum(self.house.values())


@dataclass
class BankedLine:
    table: BankedTable
    entries: int = 0
    rounds: int = 0
    settled: int = 0
    house: str = ""  # the house's result over the settled rounds dealt in the shift, as money
    problem: str = ""
    withheld: bool = False  # the record does not match its seals: no figure is read from it


@dataclass
class Shift:
    start: datetime
    end: datetime
    tables: list[TableLine] = field(default_factory=list)
    banked: list[BankedLine] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    tournaments: list[dict[str, Any]] = field(default_factory=list)
    verify: list[str] = field(default_factory=list)
    verified: str = ""
    findings: list[Finding] = field(default_factory=list)
    room: dict[str, Any] = field(default_factory=dict)  # the witness's head and last checkpoint, printed
    # the promotions (issue 32): each pool as it stands at the report (what the room owes) and the
    # awards paid in the shift
    pools: list[promotions.Pool] = field(default_factory=list)
    paid: list[promotions.PromotionAward] = field(default_factory=list)

    @property
    def house(self) -> dict[str, int]:
        """The house's take over every table of the shift: rake, time, drop and all of it."""
        out = {k: sum(t.house[k] for t in self.tables if not t.withheld) for k in ("rake", "time", "drop")}
        return {**out, "all": sum(out.values())}

    @property
    def flagged(self) -> int:
        """How many lines the "Flagged" section lists (verify's problems and the findings)."""
        return len(self.verify) + len(self.findings)


def _moment(text: str | None, default: datetime) -> datetime:
    """A local time from the query (ISO date or date and time) as stored UTC without tzinfo."""
    if not text:
        return default
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        abort(400, description=f"'{text[:40]}' is not a date or time (use 2026-11-24 or 2026-11-24T18:00)")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone())
    return moment.astimezone(UTC).replace(tzinfo=None)


def _table_line(table: Table, entries: list[LogEntry], inside: list[LogEntry], start: datetime,
                end: datetime) -> TableLine:
    """The table's line: ``entries`` is its whole log (a pot may have begun before the shift),
    ``inside`` the entries logged in the shift."""
    line = TableLine(table, entries=len(inside))
    try:
        cut = hands(table.setup, [e.payload for e in entries])
    except (RulesError, ValueError) as exc:  # a log the current rules refuse: said, never a crash
        line.problem = f"the log does not replay: {exc}"
        return line
    for hand in cut:
        if hand.first_index < 0 or not start <= entries[hand.first_index].logged_at < end:
            continue
        line.hands += 1
        if hand.complete and hand.end == "won":
            line.won += 1
            total = sum(hand.awards.values())
            line.awarded += total
            line.biggest = max(line.biggest, total)
        elif hand.complete:
            line.carried += 1
    line.house = _house_take(table, entries, inside)
    return line


def _house_take(table: Table, entries: list[LogEntry], inside: list[LogEntry]) -> dict[str, int]:
    """What the house took at ``table`` in the shift: its take after the shift's last entry less its
    take before the first (the log replayed once; the entries of a shift follow one another)."""
    first, last = entries.index(inside[0]), entries.index(inside[-1])
    state = jackpot.start(table.setup)
    before = state.house
    for i, entry in enumerate(entries[:last + 1]):
        if i == first:
            before = state.house
        state = state.apply(entry.payload)
    return {k: v - before[k] for k, v in state.house.items()}


def build(start: datetime, end: datetime) -> Shift:
    shift = Shift(start, end)
    # only the tables that logged in the shift: each one's log is read whole (a pot may have begun
    # before the shift), never the logs of every table the room ever had
    active = db.select(LogEntry.table_id).where(LogEntry.logged_at >= start, LogEntry.logged_at < end).distinct()
    corrections: list[LogEntry] = []
    for table in db.session.scalars(db.select(Table).where(Table.id.in_(active)).order_by(Table.id)):
        try:  # the figures come from the sealed log only: a broken record is named, its numbers withheld
            witness.check_not_behind("table", table.id, table.version)
            entries = table_log.sealed_entries(table)
        except table_log.BROKEN_RECORD as exc:
            shift.tables.append(TableLine(table, problem=str(exc), withheld=True))
            continue
        inside = [e for e in entries if start <= e.logged_at < end]
        if not inside:
            continue
        shift.tables.append(_table_line(table, entries, inside, start, end))
        # the shift's corrections are among the entries just read: the log is not read again for them
        corrections += [e for e in inside if (e.payload or {}).get("type") == "correction"]
    shift.banked = _banked_lines(start, end)
    rows = db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.issued_at >= start,
                                                            IssuedRuling.issued_at < end).order_by(IssuedRuling.id))
    for row in rows:
        shift.rulings.append({"row": row, "at": row.issued_at, "where": row.table.name if row.table else "not at a table",
                              "deal": row.deal, "headline": stored.headline_of(row),
                              "summary": (row.record or {}).get("summary", ""),
                              "by": row.issued_by, "reported_by": row.reported_by, "supersedes": row.supersedes_id,
                              "link": url_for("rulings.detail", ruling_id=row.id), "name": f"#{row.id}",
                              "seal": "matches" if not ruling_seal_problems(row) else "DOES NOT MATCH"})
    for banked in db.session.scalars(db.select(IssuedBankedRuling).where(
            IssuedBankedRuling.issued_at >= start, IssuedBankedRuling.issued_at < end).order_by(IssuedBankedRuling.id)):
        money = banked_options(banked.table.setup.get("options")).money
        shift.rulings.append({"row": banked, "at": banked.issued_at, "where": f"{banked.table.name} · round {banked.round}",
                              "deal": None, "headline": banked_headline(banked.record, money),
                              "summary": (banked.record or {}).get("summary", ""),
                              "by": banked.issued_by, "reported_by": None, "supersedes": None,
                              "link": url_for("banked.ruling_page", ruling_id=banked.id), "name": f"banked #{banked.id}",
                              "seal": "matches" if banked.seal_intact else "DOES NOT MATCH"})
    shift.rulings.sort(key=lambda r: r["at"])
    for entry in sorted(corrections, key=lambda e: (e.logged_at, e.id)):  # in the order they were logged
        shift.corrections.append({"entry": entry, "moves": entry.payload.get("moves", []),
                                  "reason": entry.payload.get("reason", "")})
    for t in db.session.scalars(db.select(Tournament).where(Tournament.created_at < end).order_by(Tournament.id)):
        try:
            check_tournament(t)
        except SealBroken as exc:  # its figures withheld, and why (issue 30), as a broken table's
            shift.tournaments.append({"t": t, "rows": [], "info": None, "problem": str(exc)})
            continue
        if t.entries:
            shift.tournaments.append({"t": t, "rows": [r for r in service.results(t) if r["place"]],
                                      "info": service.summary(t), "problem": ""})
    shift.pools = list(promotions.pools().values())
    shift.paid = sorted((a for p in shift.pools for a in p.awards if start <= a.at < end), key=lambda a: a.at)
    report = verify_all()
    shift.verify = list(report.problems)
    shift.verified = (f"{report.tables} tables ({report.entries} log entries) and {report.rulings} rulings checked")
    shift.findings = in_shift(start, end)
    fold = witness.seen()
    shift.room = {**fold.head, "checkpoint": fold.checkpoint}
    return shift


def _banked_lines(start: datetime, end: datetime) -> list[BankedLine]:
    """Each banked table that logged in the shift: its rounds dealt in the shift (the whole log is
    read, each round replayed on its own: a round's money is settled within it) and the house's
    result over those settled. A log that does not match its seals is named, its figures withheld."""
    lines: list[BankedLine] = []
    active = db.select(BankedEntry.table_id).where(BankedEntry.logged_at >= start,
                                                   BankedEntry.logged_at < end).distinct()
    for table in db.session.scalars(db.select(BankedTable).where(BankedTable.id.in_(active)).order_by(BankedTable.id)):
        rows = list(db.session.scalars(db.select(BankedEntry).where(BankedEntry.table_id == table.id)
                                       .order_by(BankedEntry.seq)))
        _, problems = chain_problems(table.name, table, rows, same(table.head_seal, table.compute_head_seal()))
        line = BankedLine(table, entries=sum(1 for e in rows if start <= e.logged_at < end))
        if problems:
            line.problem, line.withheld = problems[0], True
            lines.append(line)
            continue
        when = {e.seq: e.logged_at for e in rows}
        rounds: list[list[tuple[int, Mapping[str, Any]]]] = []
        for seq, payload in banked_tablet.standing([(e.seq, e.payload) for e in rows]):
            if payload.get("type") == "deal" or not rounds:
                rounds.append([])
            rounds[-1].append((seq, payload))
        house = 0
        try:
            for played in rounds:
                if played[0][1].get("type") != "deal" or not start <= when[played[0][0]] < end:
                    continue
                line.rounds += 1
                state = banked_replay(table.setup, [p for _, p in played])
                if state["stage"] == "settled":
                    line.settled += 1
                    house += state["house_net"]
        except (RulesError, ValueError) as exc:  # a log the current rules refuse: said, never a crash
            line.problem = f"the log does not replay: {exc}"
        line.house = banked_options(table.setup.get("options")).money(house)
        lines.append(line)
    return lines


def _window() -> tuple[datetime, datetime, bool]:
    """The window asked for (stored UTC) and whether it has ended: ``hours`` (the last hours up to
    now, a window that moves with every request) never has; ``from``/``to`` has once ``to`` is past."""
    now = utcnow()
    hours = request.args.get("hours", "")
    if hours:
        if not hours.isdigit() or not 1 <= int(hours) <= MOST_HOURS:
            abort(400, description=f"'hours' is a whole number of hours from 1 to {MOST_HOURS}")
        return now - timedelta(hours=int(hours)), now, False
    end = _moment(request.args.get("to"), now)
    start = _moment(request.args.get("from"), end - timedelta(hours=SHIFT_HOURS))
    if start >= end:
        abort(400, description="'from' must come before 'to'")
    if end - start > timedelta(hours=MOST_HOURS):
        abort(400, description=f"a shift report covers at most {MOST_HOURS // 24} days")
    return start, end, end < now


def _since() -> datetime | None:
    """The progress page's ``since`` (a UTC moment with its offset, as the page writes it): the report
    may be as the record stood at or after it. Refused when it is not a moment with its offset, or
    is in the future (no report can have been read then)."""
    text = request.args.get("since")
    if text is None:
        return None
    if not re.search(r"T.*(Z|[+-]\d\d:?\d\d)$", text):
        abort(400, description=f"'since' is a moment with its offset from UTC, such as 2026-11-28T02:03:11Z, "
                               f"not '{text[:40]}'")
    moment = _moment(text, utcnow())
    if moment > utcnow():
        abort(400, description="'since' is in the future: no report was read then")
    return moment


def _render(start: datetime, end: datetime) -> Callable[[], tuple[str, str]]:
    """The build of the window's report: its page's part and its print's part. A ``partial`` of a
    module's function, so that it pickles: the job's process gets it (:mod:`floor.shift_jobs`)."""
    return partial(_rendered, start, end)


def _rendered(start: datetime, end: datetime) -> tuple[str, str]:
    shift = build(start, end)
    # the window as the form shows it (the room's local time) and as the PDF link fixes it
    window = {"from": local(start, "%Y-%m-%dT%H:%M"), "to": local(end, "%Y-%m-%dT%H:%M")}
    page = render_template("floorpages/_shift_report.html", s=shift, pdf=False, local=local, window=window,
                           presets=PRESET_HOURS)
    return page, render_template("floorpages/_shift_report.html", s=shift, pdf=True, local=local)


def open_report(start: datetime, end: datetime) -> Served:
    """The report of a window that has not ended, built in the request (:func:`build`) and never
    stored; a closed window's is put together by a job (:func:`_closed_report`)."""
    return served(start, end, False, _render(start, end))


def _title(start: datetime, end: datetime) -> str:
    return f"{local(start)} to {local(end)}"


def _as_of(start: datetime, end: datetime, made: Served) -> str:
    """"02:03:11" (the room's time) when the stored report's record was read; its date too when that
    is not the day the window ended; '' for an open window's, read now."""
    if made.as_of is None:
        return ""
    same_day = local(made.as_of, "%Y-%m-%d") == local(end, "%Y-%m-%d")
    return local(made.as_of, "%H:%M:%S" if same_day else "%H:%M:%S on %Y-%m-%d")


def _print_html(start: datetime, end: datetime) -> Callable[[Served], str]:
    """The report's print in its page, as the PDF lays it out (a ``partial``: it pickles, as ``_render``)."""
    return partial(_wrapped, start, end)


def _wrapped(start: datetime, end: datetime, made: Served) -> str:
    return render_template("floorpages/shift.html", report=made.print, pdf=True, title=_title(start, end),
                           as_of=_as_of(start, end, made))


def _closed_report(start: datetime, end: datetime, since: datetime | None, pdf: bool) -> shift_jobs.ReportAnswer:
    return shift_jobs.report_of(start, end, since, pdf, _render(start, end), _print_html(start, end))


def _not_ready(start: datetime, end: datetime, answer: shift_jobs.ReportAnswer, pdf: bool) -> Any:
    """The progress page (202, reloading itself with ``since``) or, when the job failed, why (500),
    with a link to try again (the same window without ``since``)."""
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k != "since"}
    endpoint = "floorpages.shift_pdf" if pdf else "floorpages.shift"
    since = answer.since.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    page = render_template("floorpages/shift_progress.html", title=_title(start, end), pdf=pdf,
                           hours=f"{local(start, '%H:%M')} to {local(end, '%H:%M')}", failed=answer.failed,
                           again=url_for(endpoint, **args), refresh=url_for(endpoint, **args, since=since))
    return page, 500 if answer.failed else 202


def shift_page() -> Any:
    start, end, closed = _window()
    since = _since()  # checked for every window, used for a closed one's
    if not closed:
        return render_template("floorpages/shift.html", report=open_report(start, end).page, pdf=False,
                               title=_title(start, end))
    answer = _closed_report(start, end, since, pdf=False)
    if answer.report is None:
        return _not_ready(start, end, answer, pdf=False)
    return render_template("floorpages/shift.html", report=answer.report.page, pdf=False, title=_title(start, end),
                           as_of=_as_of(start, end, answer.report))


def shift_pdf() -> Any:
    start, end, closed = _window()
    since = _since()
    if closed:
        answer = _closed_report(start, end, since, pdf=True)
        if answer.report is None or answer.pdf is None:
            return _not_ready(start, end, answer, pdf=True)
        data = answer.pdf
    else:
        made = open_report(start, end)
        data = stored_pdf(made, _print_html(start, end)(made))
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"shift-{local(end, '%Y%m%d-%H%M')}.pdf")


def register(bp: Any) -> None:
    bp.add_url_rule("/shift", "shift", shift_page)
    bp.add_url_rule("/shift.pdf", "shift_pdf", shift_pdf)
