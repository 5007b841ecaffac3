"""The public board (blueprint ``board``, ``GET /board``, issue 31): for a TV in the room and a
player's phone, no login. The lists in order with their waiting times, who is called, the open
seats per game, each dealer's next table and when; never a chip or a card. It reloads itself (a
meta refresh: no script to fail on a TV's browser). Decisions: docs/players.md, "The board".
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, render_template

from floor import rotation
from floor.models import utcnow
from floor.players import board as floor_board
from floor.rotation import Slot

bp = Blueprint("board", __name__)

#: Seconds between the page's reloads: a called player reads their name within half a minute.
REFRESH_SECONDS = 20


def dealers(now: datetime) -> list[tuple[str, Slot | None, Slot | None]]:
    """Each dealer of the rotation: the table now (None: a break) and the next, with when."""
    seen = sorted({s.dealer.id: s.dealer for s in rotation.slots(now)}.values(), key=lambda u: u.username)
    return [(u.username, *rotation.now_and_next(u, now)) for u in seen]


@bp.get("/board")
def board() -> Any:
    now = utcnow()
    response = render_template("board/board.html", games=floor_board.games(), now=now,
                               waited=lambda e: floor_board.minutes_waited(e, now), refresh=REFRESH_SECONDS,
                               dealers=dealers(now))
    return response, 200, {"Cache-Control": "no-store"}


def init_app(app: Flask) -> None:
    """Register the public board."""
    app.register_blueprint(bp)
