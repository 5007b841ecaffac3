"""A simulated floor person: logs in with a session like a phone's browser, reads the CSRF token
from the pages, confirms a dealer's call on the floor page (``POST /floor/calls/<id>/confirm``)
or walks the dispute tree question by question (``/rulings/new``, :mod:`night.walk`), and prints
the ruling (``/rulings/<id>.pdf``). One session shared by the tables, one request at a
time (a floor person walks to one table at once).

A quick night prints one ruling of each kind (its outcome and how it was settled) and lets the
others of that kind go unprinted: each print is WeasyPrint laying the ruling out in a server
worker, a third of a second of CPU, and the quick night's 28 prints were a third of its server's
CPU for 12 kinds (issue 34, session 42). A full night prints every ruling."""

from __future__ import annotations

import re
import threading
from urllib.parse import urlencode

from night import walk as walking
from night.server import PASSWORD, Client

CSRF = re.compile(r'name="csrf[-_]token" (?:value|content)="([^"]+)"')


class FloorPerson:
    def __init__(self, port: int, username: str) -> None:
        self.web = Client(port)
        self.web.headers = {}
        self.username = username
        self.lock = threading.Lock()
        self.pdfs: list[int] = []
        self.walks: list[walking.WalkResult] = []
        self.print_every = True  # False: one ruling of each kind (a quick night)
        self.kinds_printed: set[str] = set()
        self.unprinted = 0  # rulings of a kind already printed, not printed again

    def token(self, path: str) -> str:
        status, data, _ = self.web.raw("GET", path)
        found = CSRF.search(data.decode("utf-8", "replace"))
        if status != 200 or not found:
            raise RuntimeError(f"floor: no form on {path} ({status})")
        return found.group(1)

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, dict[str, str]]:
        status, _, headers = self.web.raw("POST", path, urlencode(fields).encode(),
                                          {"Content-Type": "application/x-www-form-urlencoded"})
        return status, headers

    def login(self) -> None:
        with self.lock:
            token = self.token("/login")
            status, headers = self.post_form("/login", {"username": self.username, "password": PASSWORD,
                                                        "csrf_token": token})
            if status not in (302, 303):
                raise RuntimeError(f"floor login refused ({status})")

    def confirm(self, call_id: int) -> int | None:
        """Confirm the call; the ruling's id when one was issued at once (None: a reopen offer first)."""
        with self.lock:
            token = self.token("/floor/")
            status, headers = self.post_form(f"/floor/calls/{call_id}/confirm", {"csrf_token": token})
            if status not in (302, 303):
                raise RuntimeError(f"floor: confirming call {call_id} answered {status}")
            found = re.search(r"/rulings/(\d+)$", headers.get("location", ""))
            return int(found.group(1)) if found else None

    def walk(self, start: str, known: dict) -> walking.WalkResult:
        """Settle a dispute on the phone: the tree's questions one page at a time from ``start``,
        each answered from ``known``; the ruling issued and applied. Raises ``walk.WalkError``."""
        with self.lock:
            result = walking.walk(self.web, start, known)
            self.walks.append(result)
            return result

    def print_ruling(self, ruling_id: int, kind: str) -> bool:
        """Print the ruling (``kind``: its outcome and how it was settled); False when no PDF came.
        Unless every ruling is printed, one of a kind already printed is not printed again (True)."""
        with self.lock:
            if not self.print_every and kind in self.kinds_printed:
                self.unprinted += 1
                return True
            status, data, headers = self.web.raw("GET", f"/rulings/{ruling_id}.pdf")
            ok = status == 200 and data.startswith(b"%PDF")
            if ok:
                self.pdfs.append(ruling_id)
                self.kinds_printed.add(kind)
            return ok

    def confirm_pending(self, limit: int = 500) -> int:
        """Sign the rulings the rules made on dealers' taps (a false opener at the showdown, a
        failed split): each listed on the floor page with a Confirm form. Returns how many."""
        done = 0
        with self.lock:
            for _ in range(limit):  # bounded: one ruling a round trip
                status, page, _ = self.web.raw("GET", "/floor/")
                text = page.decode("utf-8", "replace")
                found = re.search(r'action="/rulings/(\d+)/confirm"', text)
                token = CSRF.search(text)
                if status != 200 or not found or not token:
                    break
                status, _ = self.post_form(f"/rulings/{found.group(1)}/confirm", {"csrf_token": token.group(1)})
                if status not in (302, 303):
                    raise RuntimeError(f"floor: confirming ruling #{found.group(1)} answered {status}")
                done += 1
        return done

    def call_floor(self, table_id: int, issue: str, seat: int) -> bool:
        """A dealer's tablet calls the floor to the table (``/dealer/tables/<id>/call-floor``: the
        issue and the seat concerned); this session must be a dealer's. True when the call was taken."""
        with self.lock:
            path = f"/dealer/tables/{table_id}/call-floor"
            token = self.token(path)
            status, _ = self.post_form(path, {"issue": issue, "seat": str(seat), "csrf_token": token})
            return status in (302, 303)
