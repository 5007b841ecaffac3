"""The room's promotions (issue 32): the pools the tables' drops fund, and the floor's awards.

A table whose profile has a ``drop`` sets chips aside from each pot won for its pool (``high_hand``
or ``bad_beat``; the engine keeps them in ``TableState.house``). The room's pool is the sum of
what every table set aside for it, read from each table's sealed log, less what the floor has paid
from it (:class:`PromotionAward`). An award pays the whole pool as it stands: the pool starts again
from 0, and the next drops make the new one. Decisions and how the chips are counted:
docs/house.md, "Promotions".

An award is checked against the hand the log holds (:func:`rules.reports.promotions.check_award`): the
deal at that table, the hand the player showed at its showdown, the qualifying hand of the table's
profile. It is sealed like every row that decides what is paid (:mod:`floor.sealed`), so the
room's witness keeps a line of it (docs/record.md); a pool with an award whose seal does not match,
or fed by a table whose record does not, is withheld (no figure, no award) until the director
looks.

Two floor persons awarding one pool at once: each award carries its place in its pool
(``pool_seq``, unique with the pool), so the second finds its place taken and is refused (409),
never paid twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor import tables as table_log
from floor.extensions import DbModel, db
from floor.localtime import utc_text
from floor.models import Table, User, utcnow
from floor.players.models import Player
from floor.sealed import SealedRow
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError
from rules.house import POOLS, QUALIFIERS
from rules.reports.promotions import AwardRefused, check_award, pool_words, qualifier_words
from rules.reports.hand_history import Hand, hands

__all__ = ["PromotionAward", "Pool", "pools", "award", "AwardRefused", "PoolWithheld", "AwardRace", "to_json"]


class PromotionAward(SealedRow, DbModel):
    """A promotion paid: which pool, how much (the whole pool as it stood), for which hand (table,
    deal, seat, the player as seated: the name and the record, ``player_id``, both as the sealed
    log's seat holds them; the cards shown and their value) and who awarded it when. Sealed
    (:mod:`floor.sealed`): it is paid."""

    __tablename__ = "promotion_awards"
    __table_args__ = (UniqueConstraint("pool", "pool_seq", name="uq_promotion_awards_pool_seq"),)
    SEALED = ("pool", "pool_seq", "amount", "table_id", "deal", "seat", "player", "cards", "hand", "qualifier",
              "at", "by_id", "player_id")

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[str] = mapped_column(String(20))
    pool_seq: Mapped[int]  # its place among its pool's awards: 1, 2, ...
    amount: Mapped[int]
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    deal: Mapped[int]
    seat: Mapped[int]
    player: Mapped[str] = mapped_column(String(80))
    cards: Mapped[str] = mapped_column(String(60))
    hand: Mapped[str] = mapped_column(String(200))  # the hand in words ("four aces, deuce kicker")
    qualifier: Mapped[str] = mapped_column(String(30))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    # The seat's player record (None: a seat that named no record, or an award paid before awards
    # named it, revision e5a9c2d7f3b1).
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))

    table: Mapped[Table] = relationship()
    by: Mapped[User | None] = relationship()

    @classmethod
    def seal_of(cls, row_id: Any, values: dict[str, Any], key: bytes | None = None) -> str:
        """An award without a player record is sealed without the field: the seals of the awards paid
        before awards named the record stand, and one given a record afterwards no longer matches."""
        if values.get("player_id") is None:
            values = {k: v for k, v in values.items() if k != "player_id"}
        return super().seal_of(row_id, values, key)


class PoolWithheld(Exception):
    """A pool whose figures cannot be read from sealed records: nothing is paid from it."""


class AwardRace(Exception):
    """Another award of the same pool was recorded at the same moment: look at the pool again."""


@dataclass
class Pool:
    """One promotion's pool across the room: set aside by the tables (``dropped``), paid (``paid``,
    ``awards``), and what the room owes now (``amount``). ``qualifiers``: each feeding table's
    qualifying hand by table name; ``problems``: why its figures are withheld (none: they stand)."""

    pool: str
    dropped: int = 0
    paid: int = 0
    awards: list[PromotionAward] = field(default_factory=list)
    qualifiers: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def amount(self) -> int:
        return self.dropped - self.paid

    @property
    def qualifier(self) -> str:
        """The qualifying hand in words: the one every feeding table plays, else each table's."""
        found = set(self.qualifiers.values()) or {QUALIFIERS[self.pool]}
        if len(found) == 1:
            return qualifier_words(found.pop())
        return "; ".join(f"{name}: {qualifier_words(q)}" for name, q in sorted(self.qualifiers.items()))

    @property
    def words(self) -> str:
        return pool_words(self.pool)


def pools() -> dict[str, Pool]:
    """Every promotion's pool, read from the sealed logs and the sealed awards."""
    out = {name: Pool(name) for name in POOLS}
    for table in db.session.scalars(db.select(Table).order_by(Table.id)):
        try:
            state = table_log.table_state(table)
        except (SealBroken, RolledBack, RulesError, ValueError) as exc:
            # a table whose record cannot be read may have fed any pool: every pool is withheld
            for pool in out.values():
                pool.problems.append(f"{table.name}: its record cannot be read ({exc})")
            continue
        drop = state.profile.drop
        if drop is None:
            continue
        pool = out[drop.pool]
        pool.dropped += state.house["drop"]
        pool.qualifiers[table.name] = drop.qualifier
    for row in db.session.scalars(db.select(PromotionAward).order_by(PromotionAward.id)):
        pool = out[row.pool] if row.pool in out else out.setdefault(row.pool, Pool(row.pool))
        if not row.row_seal_intact:
            pool.problems.append(f"award #{row.id} does not match its seal: it was changed outside the app")
        pool.paid += row.amount
        pool.awards.append(row)
    return out


def award(pool_name: str, player: str | dict[str, int], table: Table, deal: int, by: User | None) -> PromotionAward:
    """Pay ``pool_name`` whole to ``player`` (the name as seated, any case, or ``{"id": n}``, the
    player's record) for the hand they showed at ``table`` in ``deal``:
    checked against the log (:class:`AwardRefused` with the reason), recorded sealed and committed.
    :class:`PoolWithheld` when the pool's figures are not read from sealed records, :class:`AwardRace`
    when another award of the pool was recorded at the same moment."""
    if pool_name not in POOLS:
        raise LookupError(f"There is no promotion {pool_name!r}: the promotions are {', '.join(POOLS)}.")
    pool = pools()[pool_name]
    if pool.problems:
        raise PoolWithheld(f"the {pool.words} pool is withheld: {'; '.join(pool.problems)}. Call the director.")
    state = table_log.table_state(table)
    drop = state.profile.drop
    if drop is None or drop.pool != pool_name:
        raise AwardRefused(f"{table.name} does not fund the {pool.words} promotion: its hands are not eligible")
    played = hands(table.setup, [e.payload for e in table_log.sealed_entries(table)])
    hand = next((h for h in played if h.deal == deal), None)
    if hand is None:
        raise AwardRefused(f"{table.name} has no deal {deal} (deals 1 to {len(played)})")
    seat = _seat_of(player, hand, table)
    if any(a.table_id == table.id and a.deal == deal and a.seat == seat for a in pool.awards):
        raise AwardRefused(f"the {pool.words} promotion was already paid for {hand.names[seat]}'s hand of deal "
                           f"{deal} at {table.name}")
    value = check_award(pool_name, drop.qualifier, hand, seat, state.profile.hand_rules)
    if pool.amount <= 0:
        raise AwardRefused(f"the {pool.words} pool holds nothing yet: no drop has been set aside since it was "
                           "last paid")
    row = PromotionAward(pool=pool_name, pool_seq=len(pool.awards) + 1, amount=pool.amount, table_id=table.id,
                         deal=deal, seat=seat, player=hand.names[seat], player_id=hand.player_ids.get(seat),
                         cards=" ".join(hand.shown[seat]),
                         hand=value.describe(), qualifier=drop.qualifier, by_id=by.id if by is not None else None)
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise AwardRace(f"another award of the {pool.words} pool was recorded just now: look at the pool "
                        "again before paying") from exc
    return row


def _seat_of(player: str | dict[str, int], hand: Hand, table: Table) -> int:
    """The seat of ``player`` in ``hand``: by the record the log's seat names, else by the name.
    A record the room does not have is refused as such; a name two seats of the deal answer to is
    refused rather than one of them picked: the floor names the record."""
    if isinstance(player, dict):
        record = db.session.get(Player, player.get("id"))
        if record is None:
            raise AwardRefused(f"there is no player #{player.get('id')}: pick the player from the list again")
        seats = [s for s, number in hand.player_ids.items() if number is not None and number == record.id]
        who = f"{record.name} (player #{record.id}{f', card {record.card}' if record.card else ''})"
    else:
        wanted = player.strip().casefold()
        seats = [s for s, name in hand.names.items() if name.strip().casefold() == wanted]
        who = player
    if len(seats) > 1:  # never one of them picked: the wrong one would be paid
        records = {hand.player_ids.get(s) for s in seats}
        what = "pick the player's record" if isinstance(player, str) and None not in records and \
            len(records) == len(seats) else "the log seats them twice: call the director"
        raise AwardRefused(f"{who} was dealt deal {hand.deal} at {table.name} in seats "
                           f"{', '.join(map(str, sorted(seats)))}: {what}")
    if not seats:
        raise AwardRefused(f"{who} did not play deal {hand.deal} at {table.name} (it was dealt to "
                           f"{', '.join(hand.names[s] for s in sorted(hand.names))})")
    return seats[0]


def to_json(row: PromotionAward) -> dict[str, Any]:
    """An award as the API shows it: ``player`` the name as seated, ``player_id`` the record (null
    for a seat that named none, or an award paid before awards named it)."""
    return {"id": row.id, "pool": row.pool, "amount": row.amount, "table": row.table_id, "deal": row.deal,
            "seat": row.seat, "player": row.player, "player_id": row.player_id, "cards": row.cards, "hand": row.hand,
            "qualifier": qualifier_words(row.qualifier),
            "by": row.by.username if row.by is not None else None,
            "at": utc_text(row.at), "intact": row.row_seal_intact}
