"""Finding, creating and banning players, and naming the player of a seat or an entry (issue 31).

A seat or an entry names its player by a name or by the record (``{"id": n}``). :func:`named`
turns either into the record: the id is looked up; a name is the record of that name when exactly
one has it, a new record when none has (a walk-in a dealer seats by name, as the tablet always
could; recorded as created by whoever logged it), and refused when several have it (the floor picks
one by id or card). A banned player is refused with the reason (:func:`check_not_banned`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, true

from floor.extensions import db
from floor.localtime import local, utc_text
from floor.models import User, utcnow
from floor.players.models import Player
from rules import IllegalAction, parse

#: The most rows a search answers.
FOUND_MAX = 20
#: The longest card number.
CARD_MAX = 40


def to_json(p: Player) -> dict[str, Any]:
    """A player as the API shows it."""
    banned = p.ban_in_force()
    return {"id": p.id, "name": p.name, "card": p.card, "note": p.note, "banned": banned,
            "banned_reason": p.banned_reason if banned else None,
            "banned_until": utc_text(p.banned_until) if banned else None,
            "created_at": utc_text(p.created_at)}


def find(q: str) -> list[Player]:
    """Players whose name contains ``q`` (any case) or whose card number begins with it, by name."""
    q = " ".join((q or "").split())
    query = db.select(Player)
    if q:
        # SQLite's lower() folds ASCII only: a query in another script is matched in Python below
        named = func.lower(Player.name).contains(q.lower(), autoescape=True) if q.isascii() else true()
        query = query.where(or_(named, Player.card.startswith(q, autoescape=True)))
    folded = q.casefold()
    found = []
    for p in db.session.scalars(query.order_by(func.lower(Player.name), Player.id)):
        if folded in p.name.casefold() or (p.card or "").startswith(q):
            found.append(p)
            if len(found) == FOUND_MAX:
                break
    return found


def _card(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise IllegalAction("player: the card number is text or a number")
    card = str(value).strip()
    if not card or len(card) > CARD_MAX:
        raise IllegalAction(f"player: a card number is 1 to {CARD_MAX} characters")
    return card


def create(name: Any, card: Any = None, note: Any = "", user: User | None = None) -> Player:
    """A new player record (uncommitted: the caller commits). Refuses a card number another has."""
    if isinstance(name, dict):
        raise IllegalAction("player: give the new player's name")
    text, _ = parse.player(name, None, "player")
    number = _card(card)
    if number is not None and db.session.scalars(db.select(Player).where(Player.card == number)).first():
        raise IllegalAction(f"player: card {number} is already another player's")
    if note is not None and not isinstance(note, str):
        raise IllegalAction("player: the note is text")
    player = Player(name=text, card=number, note=(note or "").strip(),
                    created_by_id=user.id if user is not None else None, created_at=utcnow())
    db.session.add(player)
    db.session.flush()
    return player


def named(value: Any, player_id: Any = None, user: User | None = None, what: str = "sit") -> Player:
    """The record of the player a seat or an entry names: ``value`` a name or ``{"id": n}``, or
    ``player_id`` beside a name. Raises ``rules.IllegalAction`` for an unknown id or a name several
    players have; a name nobody has makes a new record."""
    name, number = parse.player(value, player_id, what)
    if number is not None:
        player = db.session.get(Player, number)
        if player is None:
            raise IllegalAction(f"{what}: there is no player #{number}")
        return player
    folded = name.casefold()
    query = db.select(Player)
    if name.isascii():  # SQLite's lower() folds ASCII only: other scripts are compared here
        query = query.where(func.lower(Player.name) == name.lower())
    same = [p for p in db.session.scalars(query.order_by(Player.id)) if p.name.casefold() == folded]
    if len(same) > 1:
        ids = ", ".join(f"#{p.id}" + (f" (card {p.card})" if p.card else "") for p in same)
        raise IllegalAction(f"{what}: {len(same)} players are named {name} ({ids}): pick one by id or card")
    return same[0] if same else create(name, user=user)


def check_not_banned(player: Player, what: str) -> None:
    """Refuse a banned player, with the reason and the end of the ban."""
    if player.ban_in_force():
        until = f" until {local(player.banned_until)}" if player.banned_until else ""
        raise IllegalAction(f"{what}: {player.name} is banned{until}: {player.banned_reason}")


def seat_player(value: Any, player_id: Any, user: User | None, what: str = "sit") -> tuple[str, int]:
    """A seat's player as the log stores it: the record's name and id, a banned player refused."""
    player = named(value, player_id, user, what)
    check_not_banned(player, what)
    return player.name, player.id


def amend_sit(event: dict[str, Any], user: User | None) -> dict[str, Any]:
    """A ``sit`` with its player's record written in (``player`` the record's name, ``player_id``),
    before the rules read it; other events as they are."""
    if event.get("type") != "sit":
        return event
    name, number = seat_player(event.get("player"), event.get("player_id"), user)
    return {**event, "player": name, "player_id": number}


def amend_setup(setup: dict[str, Any], user: User | None = None) -> dict[str, Any]:
    """A setup with each seat's player record written in (as :func:`amend_sit` does a sit's)."""
    seats = setup.get("seats")
    if not isinstance(seats, list):
        return setup
    out = []
    seated: dict[int, Any] = {}  # record -> the seat it took
    for item in seats:
        if isinstance(item, dict) and (item.get("player") or item.get("player_id") is not None):
            name, number = seat_player(item.get("player"), item.get("player_id"), user,
                                       f"setup: seat {item.get('seat')}")
            if number in seated:  # as a sit is refused (rules.jackpot.seating.sit): one person, one seat
                raise IllegalAction(f"setup: seat {item.get('seat')}: {name} already sits in seat {seated[number]}")
            seated[number] = item.get("seat")
            item = {**item, "player": name, "player_id": number}
        out.append(item)
    return {**setup, "seats": out}


def ban(player: Player, reason: Any, until: datetime | None, user: User) -> None:
    """Ban ``player`` (until ``until``, UTC, or until lifted), with the reason; uncommitted."""
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalAction("ban: give the reason")
    if until is not None and until <= utcnow():
        raise IllegalAction("ban: the end of a ban is in the future")
    player.banned_reason, player.banned_until = " ".join(reason.split())[:500], until
    player.banned_at, player.banned_by_id = utcnow(), user.id


def lift(player: Player, user: User) -> None:
    """Lift the ban; uncommitted."""
    player.banned_reason = player.banned_until = None
    player.banned_at, player.banned_by_id = utcnow(), user.id


def link_problems() -> list[str]:
    """``flask verify``: every entry's and bounty's ``player_id`` names the record of the sealed name
    it stands beside (the link is not sealed: it is checked against what is)."""
    from floor.models import Entry
    from floor.tournament.models import Bounty

    names = {p.id: p.name.casefold() for p in db.session.scalars(db.select(Player))}
    problems = []
    links = [(f"entry #{e.id} ({e.player})", e.player, e.player_id) for e in db.session.scalars(db.select(Entry))]
    for b in db.session.scalars(db.select(Bounty)):
        links += [(f"bounty #{b.id} (of {b.player})", b.player, b.player_id),
                  (f"bounty #{b.id} (won by {b.winner})", b.winner, b.winner_id)]
    for where, name, number in links:
        if number is not None and names.get(number) != " ".join(name.split()).casefold():
            problems.append(f"{where}: its player record #{number} is not the player named in the sealed row "
                            "(the link was changed outside the app)")
    return problems
