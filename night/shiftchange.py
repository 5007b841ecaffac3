"""The shift change in the middle of the night (issue 34, session 44): while the tables still deal,
the floor manager going off asks for the report of the shift just ended (``/floor/shift.pdf``, a
closed window: from the night's start to the moment of the change) and waits for the PDF as a
person at a floor terminal does: an answer of 202 is the app's "being put together" page, which
reloads itself (its ``<meta http-equiv="refresh">``), and the PDF comes at the end of it.

What a card room needs of it: the report is served while the room deals, within a few minutes, and
never an error. Every tap elsewhere changes what a closed shift's report reads (its "Flagged"
section checks the whole record), so a report rebuilt on each request while the tables deal would
never be served. The night counts a report that never comes (within :data:`PATIENCE`), an error
answer or a page that is neither as a discrepancy of the night.
"""

from __future__ import annotations

import html
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Sequence
from urllib.parse import urlencode

from night.floorperson import FloorPerson
from night.server import Client

#: How long the floor manager waits for the PDF before the night counts it as never served (seconds).
PATIENCE = 300.0
#: A page that reloads itself: its delay (seconds) and where to.
REFRESH = re.compile(r'<meta\s+http-equiv="refresh"\s+content="(\d+)\s*;\s*url=([^"]+)"', re.IGNORECASE)


@dataclass(frozen=True)
class Fetched:
    """A report asked for and followed through its "being put together" pages: the last answer's
    ``status`` and ``data``, the seconds to the first answer and to the last (``seconds``), and how
    many progress pages came between."""

    status: int
    data: bytes
    first: float
    seconds: float
    pages: int

    @property
    def pdf(self) -> bool:
        return self.status == 200 and self.data.startswith(b"%PDF")


def fetch_pdf(web: Client, path: str, patience: float = PATIENCE) -> Fetched:
    """GET ``path`` and follow each progress page's reload, as a terminal does, until an answer that
    is not one (the PDF, or an error) or ``patience`` seconds have gone (the last progress page then)."""
    asked, first, pages = time.monotonic(), None, 0
    while True:
        status, data, _ = web.raw("GET", path)
        first = time.monotonic() - asked if first is None else first
        found = REFRESH.search(data.decode("utf-8", "replace")) if status == 202 else None
        if found is None or time.monotonic() - asked > patience:
            return Fetched(status, data, first, time.monotonic() - asked, pages)
        pages += 1
        time.sleep(min(float(found.group(1)), 5.0))
        path = html.unescape(found.group(2))


class ShiftChange:
    """The floor manager's request for the shift just ended, made once ``share`` of the cash
    tables' deals are dealt (or the night's time is half gone), and what came of it."""

    def __init__(self, manager: FloorPerson, began: datetime, dealers: Sequence[Any], deadline: float,
                 share: float = 0.5) -> None:
        self.manager, self.began, self.dealers, self.deadline, self.share = manager, began, dealers, deadline, share
        self.discrepancies: list[str] = []
        self.wrong: list[str] = []  # none: the referee's kind of finding, kept for the night's count
        self.line = "shift change: not made"

    def run(self) -> None:
        start, total = time.monotonic(), sum(d.deals for d in self.dealers)
        halfway = start + (self.deadline - start) * self.share
        while sum(d.played for d in self.dealers) < total * self.share and time.monotonic() < halfway:
            time.sleep(0.2)
        dealing = sum(1 for d in self.dealers if d.played < d.deals)
        end = datetime.now(UTC) - timedelta(seconds=1)  # a window that has ended: the report is stored
        query = urlencode({"from": self.began.isoformat(timespec="seconds"),
                           "to": end.isoformat(timespec="microseconds")})
        got = fetch_pdf(self.manager.web, f"/floor/shift.pdf?{query}")
        if got.pdf:
            self.line = (f"shift change: the report of the shift just ended asked for with {dealing} tables "
                         f"still dealing; first answer in {got.first:.1f} s, the PDF in {got.seconds:.1f} s "
                         f"({len(got.data) // 1024} KB) after {got.pages} 'being put together' pages")
        elif got.status == 202:
            self.discrepancies.append(f"shift change: the shift report was not served within {PATIENCE:.0f} s "
                                      f"({got.pages} 'being put together' pages)")
            self.line = "shift change: FAILED (never served)"
        else:
            self.discrepancies.append(f"shift change: the shift report was answered {got.status}, neither the PDF "
                                      "nor a page that says it is being put together")
            self.line = f"shift change: FAILED ({got.status})"
