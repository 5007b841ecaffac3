"""Sealed rulings print once: a ruling's PDF is rendered on its first request and served from the
database after that (issue 23). Shared by the jackpot game's rulings (:mod:`floor.rulings.views`)
and the banked game's (:mod:`floor.banked.rulings`).

A stored print is derived data, so it is checked against the ruling every time, never trusted over
it. Each request still renders the page's HTML from the stored ruling (a few milliseconds: the
seal check, the names, the wording of the templates as deployed); only WeasyPrint's layout, the
costly part (150 to 250 ms), is skipped. The print is keyed on

- the ruling's seal digest as stored, and
- a digest of exactly what is printed: the rendered HTML (so the templates' wording, a correction
  that supersedes the ruling, a floor person's confirmation, a seal that no longer matches, the
  address a reader is told to check it at) together with the renderer's version and
  :data:`PRINT_FORMAT`.

Any difference renders afresh and replaces the stored print (one per ruling): a PDF is never
served for a record whose seal or printed content differs from the one it was made from.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from io import BytesIO
from typing import Any

from flask import current_app, send_file
from sqlalchemy import LargeBinary, String, UniqueConstraint
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from floor.extensions import DbModel, db
from floor.models import utcnow
from floor.pdf import WEASYPRINT_VERSION, pdf_bytes
from floor.sealed import SealedRow, trust

#: Bumped when the way a print is made changes beyond its HTML (stylesheets given apart, options).
PRINT_FORMAT = "1"


class RulingPrint(SealedRow, DbModel):
    """The stored PDF of a ruling: ``kind`` is ``jackpot`` (table ``rulings``) or ``banked``
    (``banked_rulings``); ``seal`` the ruling's digest and ``key`` the digest of what was printed
    (see the module). Under its own row seal (issue 30), the PDF's bytes with it: a print replaced
    in the database is never served (it is made again from the ruling)."""

    __tablename__ = "ruling_prints"
    SEALED = ("kind", "ruling_id", "seal", "key", "pdf")
    # Derived data, checked against its ruling at every request: the room's witness keeps no line of
    # it (a print made would move the witness's head, which the print itself shows: never the same
    # twice). Its seal names a replaced one; one removed or put back is simply made again.
    WITNESSED = False
    __table_args__ = (UniqueConstraint("kind", "ruling_id", name="uq_ruling_prints_kind_ruling"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    ruling_id: Mapped[int]
    seal: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(64))
    pdf: Mapped[bytes] = mapped_column(LargeBinary)
    made_at: Mapped[datetime] = mapped_column(default=utcnow)


def print_key(seal: str, html: str) -> str:
    """The digest that names one print: the seal, the printed HTML, the renderer and the format.

    >>> print_key("ab" * 32, "<p>x</p>") == print_key("ab" * 32, "<p>x</p>") != print_key("ab" * 32, "<p>y</p>")
    True
    """
    text = "\0".join((PRINT_FORMAT, WEASYPRINT_VERSION, seal, html))
    return hashlib.sha256(text.encode()).hexdigest()


def stored_pdf(kind: str, ruling_id: int, seal: str, html: str, base_url: str | None = None) -> bytes:
    """The ruling's PDF: the stored one when it was made from this seal and this HTML, else
    rendered now and stored in place of the old one."""
    return kept_pdf(RulingPrint, {"kind": kind, "ruling_id": ruling_id}, seal, html, base_url)


def kept_pdf(model: Any, where: dict[str, Any], seal: str, html: str, base_url: str | None = None) -> bytes:
    """The PDF of ``html`` kept in ``model`` (a table of prints with ``seal``, ``key``, ``pdf`` and
    ``made_at``, one row per ``where``: a ruling, a rule summary): the stored one when it was made
    from this seal and this HTML, else rendered now and stored in place of the old one."""
    key = print_key(seal, html)
    row = db.session.scalars(db.select(model).filter_by(**where)).first()
    # a print under its own row seal (a ruling's) that does not match it was replaced in the database:
    # never served, made again from the sealed ruling; `flask verify` names it until then (issue 30)
    intact = row is None or not isinstance(row, SealedRow) or row.row_seal_intact
    if row is not None and row.seal == seal and row.key == key and intact:
        return bytes(row.pdf)
    if row is not None and not intact:
        current_app.logger.warning("the stored print %s does not match its seal; printing it afresh", where)
        trust(db.session(), row)
    data = pdf_bytes(html, base_url)
    if row is None:
        row = model(**where)
        db.session.add(row)
    row.seal, row.key, row.pdf, row.made_at = seal, key, data, utcnow()
    try:
        db.session.commit()
    except IntegrityError:
        # Another server process stored this first print at the same moment: theirs is as good
        # as ours (the next request checks its key like any other).
        db.session.rollback()
    return data


def send_ruling_pdf(kind: str, ruling_id: int, seal: str, html: str, download_name: str,
                    base_url: str | None = None) -> Any:
    """The response: the PDF as an attachment, as ``flask_weasyprint.render_pdf`` sends it."""
    data = stored_pdf(kind, ruling_id, seal, html, base_url)
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=True, download_name=download_name)


__all__ = ["RulingPrint", "PRINT_FORMAT", "print_key", "stored_pdf", "kept_pdf", "send_ruling_pdf"]
