"""Reading a stored ruling: who gets what in words, the seats it speaks of, the house rules in
force, the facts worth printing, the rules it cites, and the ruling as the API shows it.

Shared by the ruling's page and its PDF (:mod:`floor.rulings.views`), the dispute walk's preview
and the API (:mod:`floor.api`). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import url_for

from floor import witness
from floor.house_profiles import resolve_profile
from floor.localtime import utc_text
from floor.models import IssuedRuling
from rules import RulesError, catalogue
from rules.jackpot.state import DealEnd, Phase
from rules.jackpot.table import TableState
from rules.profiles import game_words, house_rules, toml_value
from rules.words import chips_text, ruling_headline

__all__ = ["headline_of", "movements", "players", "concerned_seats", "to_json", "house_rules_line", "path_facts", "pot_words",
           "note_words", "deal_over", "headline_words", "settled", "cited"]


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
    applied = "chips" in rec
    if applied:  # applied at a table: what each stack gained or lost
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
            line(seat, "the pot" if len(winners) == 1 else "a share", "takes the pot" if len(winners) == 1 else "shares the pot")
        if reopener is not None:
            line(reopener, "—", "declares the pot open")
    # a seat the ruling names but whose stack it does not change: 0 at a table (the log knows it),
    # a dash for a hand that was not logged (nobody counted the chips)
    unchanged = "0" if applied else "—"
    if rec.get("proved") is not None:
        line(rec["proved"], unchanged, "openers proved: the hand stands")
    for seat in rec.get("dead") or ():
        line(seat, unchanged if int(seat) not in chips else None, "hand dead")
    for seat in rec.get("barred") or ():
        line(seat, unchanged if int(seat) not in chips else None, "dealt out of this pot until someone else wins it")
    if rec.get("ante_for_all") is not None:
        line(rec["ante_for_all"], unchanged, "antes for every other player next deal")
    return out


def headline_of(row: IssuedRuling) -> str:
    """A stored ruling in one sentence, for lists (the floor's pages, the shift report, the tablet):
    its stored headline, else one made from its record, never its outcome code."""
    return str(row.record.get("headline") or ruling_headline(row.record, players(row)))


def players(row: IssuedRuling) -> dict[int, str]:
    """Seat -> player name from the table's setup (empty for a hand that was not logged)."""
    if row.table is None:
        return {}
    return {int(s["seat"]): str(s.get("player", "")) for s in row.table.setup.get("seats", [])}


def concerned_seats(row: IssuedRuling) -> list[int]:
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


def to_json(row: IssuedRuling) -> dict[str, Any]:
    """The stored ruling for the API: its record's fields, who/when/where, the digest and links."""
    return {
        **row.record,
        "id": row.id,
        "table_id": row.table_id,
        "deal": row.deal,
        "log_seq": row.log_seq,
        "facts": row.facts,
        "note": row.note,
        "issued_by": row.issued_by.username if row.issued_by else None,
        "issued_at": utc_text(row.issued_at),
        "reported_by": row.reported_by.username if row.reported_by else None,
        "by_rules": row.by_rules,
        "pending": row.pending,
        "ruled_by": row.ruled_by.username if row.ruled_by else None,
        "confirmed_at": utc_text(row.confirmed_at),
        "supersedes": row.supersedes_id,
        "superseded_by": row.superseded_by.id if row.superseded_by else None,
        "digest": row.digest,
        # its seals, and the room's witness: a confirmation deleted leaves the seals matching (issue 30)
        "intact": row.intact and not witness.ruling_problems(row),
        "url": url_for("rulings.detail", ruling_id=row.id, _external=False),
        "pdf_url": url_for("rulings.pdf", ruling_id=row.id, _external=False),
        "verify_url": url_for("rulings.verify", ruling_id=row.id, _external=False),
    }


def house_rules_line(row: IssuedRuling) -> tuple[str, str]:
    """The game and the house rules in force for a ruling: the table's own profile (inline
    overrides included), or the named profile of a hand that was not logged."""
    spec = row.table.setup.get("profile", "cardroom") if row.table is not None else row.profile
    try:
        profile, base, changed = house_rules(resolve_profile(spec) if isinstance(spec, str) else spec)
    except (RulesError, ValueError):
        return "", row.profile
    words = profile.name if profile.name == base else f"{profile.name} (based on {base})"
    options = [f"{k} = {toml_value(v)}" for k, v in changed.items() if k not in ("name", "title")]
    if options:
        words += ", with " + ", ".join(options)
    return game_words(profile), words


def path_facts(row: IssuedRuling) -> set[str]:
    """The facts the ruling's path read (its questions' and its leaf's), the ones worth printing."""
    names = {f for step in row.record.get("path", []) for f in step.get("facts", [])}
    return names | {"issue"} | ({"seat"} if "seat" in row.facts else set()) | (
        {"opener"} if "opener" in row.facts else set())


def pot_words(row: IssuedRuling, names: Mapping[int, str], now: TableState | None) -> str:
    """What became of the pot, in words that are true when the ruling is read or printed (not only
    when it was issued): a ruling that names a winner settled the pot; one that let the pot play on
    says so while its deal is in play, and once the deal has ended says how it ended.

    ``now`` is the table's typed engine state as it is now (:func:`floor.tables.table_state`), None
    for a hand not logged at a table.
    """
    rec = row.record
    if rec.get("kind") == "correction":
        return ""
    winners = [int(w) for w in rec.get("winners") or ([rec["winner"]] if rec.get("winner") is not None else [])]

    def who(seat: int) -> str:
        return f"seat {seat} ({names[seat]})" if names.get(seat) else f"seat {seat}"

    won = settled(rec)
    if won:  # the ruling's own event awarded the pot (its headline names the winner too)
        return "This ruling settled the pot: " + "; ".join(f"{who(s)} takes {a}" for s, a in won.items()) + "."
    if winners:
        if len(winners) == 1:
            return f"This ruling settled the pot: {who(winners[0])} takes it."
        return "This ruling settled the pot: " + ", ".join(who(w) for w in winners) + " share it."
    if not rec.get("pot_plays"):
        return "The pot does not play on in this deal."
    if now is None or not deal_over(row, now):
        return "The pot plays on in this deal."
    # only the ruling's own deal's end is told here: a later deal's award is not this pot's
    if now.deal_no == row.deal and now.last_end == DealEnd.WON and now.awards:
        awarded = "; ".join(f"{who(s)} won {a}" for s, a in now.awards.items())
        return f"After this ruling the pot played on, and deal {row.deal} has ended: {awarded}."
    if now.deal_no == row.deal and now.last_end == DealEnd.CARRIED:
        return f"After this ruling the pot played on; deal {row.deal} has ended and the pot stays for the next deal."
    return f"After this ruling the pot played on; deal {row.deal} has ended since (the table's hand history has how)."


def settled(rec: Mapping[str, Any]) -> dict[int, int]:
    """What the event that made the ruling awarded from the pot, seat -> chips (empty when it
    awarded nothing): the record's ``won`` (rules.jackpot.irregularities.finish_rulings); for a
    record stored before it had one, the seats whose stacks grew by more than the bets the ruling
    handed back.

    >>> settled({"won": {"4": 40}}), settled({"chips": {"4": 40}, "returns": {}, "pot_plays": True})
    ({4: 40}, {4: 40})
    >>> settled({"chips": {"4": 10}, "returns": {"4": 10}, "pot_plays": False})
    {}
    """
    if "won" in rec:
        return {int(s): int(a) for s, a in (rec.get("won") or {}).items() if int(a) > 0}
    returns = {int(s): int(a) for s, a in (rec.get("returns") or {}).items()}
    return {int(s): int(a) - returns.get(int(s), 0) for s, a in (rec.get("chips") or {}).items()
            if int(a) - returns.get(int(s), 0) > 0} if rec.get("kind") != "correction" else {}


def deal_over(row: IssuedRuling, now: TableState | None) -> bool:
    """Whether the deal the ruling was made in has ended since (``now``: the table's typed state now,
    None for a hand not logged at a table)."""
    if row.deal is None or now is None:
        return False
    return now.deal_no > row.deal or now.phase == Phase.BETWEEN_DEALS


def headline_words(headline: str, row: IssuedRuling, now: TableState | None) -> str:
    """The ruling's headline as true now: "the pot plays on" becomes "the pot played on" once the deal
    has ended (the stored, sealed headline is unchanged).

    >>> class R: deal = 1
    >>> t = TableState.from_setup({"ante": 5, "small_bet": 10, "button": 1,
    ...     "seats": [{"seat": 1, "player": "Ann", "stack": 50}, {"seat": 2, "player": "Bob", "stack": 50}]})
    >>> t = t.apply({"type": "deal"})
    >>> headline_words("Seat 2's hand is dead; the pot plays on", R(), t)
    "Seat 2's hand is dead; the pot plays on"
    >>> t = t.apply({"type": "pass", "seat": 2}).apply({"type": "pass", "seat": 1})
    >>> t.deal_no, t.phase
    (1, <Phase.BETWEEN_DEALS: 'between_deals'>)
    >>> headline_words("Seat 2's hand is dead; the pot plays on", R(), t)
    "Seat 2's hand is dead; the pot played on"
    """
    return headline.replace("the pot plays on", "the pot played on") if deal_over(row, now) else headline


def note_words(row: IssuedRuling, when: str) -> str:
    """The ruling's note as it reads now: a ruling the rules made "waits for a floor person" only
    until one confirms it; then the note says who confirmed it and when (``when``: the local time).
    The stored, sealed note is unchanged (the confirmation is sealed apart)."""
    note = row.note or ""
    if row.by_rules and row.confirmed_by is not None and "waits for a floor person" in note:
        return (f"Applied by the rules when the event was logged; confirmed by {row.confirmed_by.username}"
                f"{' on ' + when if when else ''}.")
    return note


def cited(ids: list[str]) -> list[Any]:
    """The catalogue's rules for the cited ids (an id the catalogue lacks is shown bare)."""
    out = []
    for rid in ids:
        try:
            out.append(catalogue.rule(rid))
        except RulesError:
            out.append(catalogue.Rule(rid, "(not in the catalogue)", "", ()))
    return out
