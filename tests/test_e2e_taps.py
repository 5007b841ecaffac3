"""In Debian's chromium, at a phone's, a tablet's and a desktop's size (issue 25): no tap of the
dealer's tablet is lost or taken twice.

- Muck asks for a second tap; a double tap is not that second tap, and a tap that lands just after
  the table changed does not act on the next player.
- A fold is logged at once, with its undo offered in place.
- A tap after the login ended says so in plain words with the way to the login; after logging in
  again the tap is sent, with the version it was tapped at.
- A tablet that loses the network says so at once, keeps the taps in order, and sends each with its
  own expected version when the network is back; a tap that no longer fits (another device logged
  first) is named as NOT logged.

Each flow is played once, on a phone; at each step where the tablet is looked at, the page is
checked at the three sizes (``tests.e2e.at_each_size``: nothing scrolls sideways, and what the flow
taps next can be tapped there). Screenshots (FLOOR_E2E_SHOTS set) go to /tmp/i25/shots/ to be
looked at.
"""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import LogEntry, Table, User
from tests.conftest import SETUP
from tests.e2e import (DESKTOP, PHONE, TABLET, at_each_size, browser, fits, live_app, live_server,  # noqa: F401 (fixtures)
                       log_in, open_page, screenshot)
from tests.people_data import play_to_showdown

pytestmark = pytest.mark.e2e

SIZES = pytest.mark.parametrize("viewport", [PHONE, TABLET, DESKTOP], ids=["phone", "tablet", "desktop"])
SHOTS = "/tmp/i25/shots"


def shot(page, name: str) -> None:
    screenshot(page, f"{SHOTS}/{name}-{page.viewport_size['width']}.png", full_page=True)


def looked_at(page, name: str | None = None, taps=(), groups=()) -> None:
    """The page at each size: it fits, ``taps`` and ``groups`` can be tapped, and its screenshot ``name``."""
    at_each_size(page, taps=taps, groups=groups, check=(lambda size: shot(page, name)) if name else None)


def events(app, table_id: int) -> list[dict]:
    with app.app_context():
        return list(db.session.scalars(db.select(LogEntry.payload).where(LogEntry.table_id == table_id)
                                       .order_by(LogEntry.seq)))


def new_table(app, events_: list[dict] | None = None, showdown: bool = False) -> int:
    with app.app_context():
        table = tables.create_table("Table 5", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        if showdown:
            play_to_showdown(table, dealer)
        for event in events_ or []:
            tables.append(table, event, dealer)
        return table.id


def test_muck_needs_a_second_tap_and_a_double_tap_mucks_nobody(open_page, live_server):
    table_id = new_table(live_server.app, showdown=True)
    before = len(events(live_server.app, table_id))
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    to_act = tablet.locator("#panel").get_attribute("data-to-act")
    muck = tablet.locator('#panel button[data-type="muck"]')
    looked_at(tablet, taps=(muck,))
    muck.dblclick()  # a double tap: armed by the first tap, and the second is not the confirmation
    assert muck.inner_text() == f"Tap again: seat {to_act} mucks"
    looked_at(tablet, "muck-armed", taps=(muck,))
    tablet.wait_for_timeout(300)
    assert len(events(live_server.app, table_id)) == before
    muck.click()  # the second tap, after the words: seat `to_act` mucks
    tablet.locator(f'#panel:not([data-to-act="{to_act}"])').wait_for()
    # two quick taps again: the next seat's Muck is under the finger now, and it does not act
    next_muck = tablet.locator('#panel button[data-type="muck"]')
    next_muck.dblclick()
    tablet.wait_for_timeout(600)
    logged = events(live_server.app, table_id)[before:]
    assert logged == [{"type": "muck", "seat": int(to_act)}]
    assert next_muck.inner_text().startswith("Tap again")  # only armed: it waits for a deliberate tap
    looked_at(tablet)


def test_a_fold_is_logged_with_its_undo_offered_in_place(open_page, live_server):
    table_id = new_table(live_server.app, [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10}])
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    seat = int(tablet.locator("#panel").get_attribute("data-to-act"))
    fold = tablet.locator('#panel button[data-type="fold"]')
    looked_at(tablet, taps=(fold,))
    fold.click()
    say = tablet.locator("#say")
    say.locator(".undo-here").wait_for()
    assert say.inner_text().startswith(f"Logged: seat {seat} folds.")
    undo = say.locator(".undo-here")
    looked_at(tablet, "fold-undo", taps=(undo,))
    undo.click()
    assert "Tap again to confirm" in undo.inner_text()
    undo.click()
    tablet.locator(f'#panel[data-to-act="{seat}"][data-version="4"]').wait_for()
    logged = events(live_server.app, table_id)
    assert logged[-2] == {"type": "fold", "seat": seat} and logged[-1] == {"type": "void", "event": 2}


def test_a_tap_after_the_login_ended_waits_for_the_login_and_is_sent_then(open_page, live_server):
    table_id = new_table(live_server.app)
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    other = open_page("dealer")  # the same dealer logs out on another device: every session ends
    other.goto(live_server.url + "/")
    other.locator("form[action$='/logout'] button").first.click()
    other.wait_for_url("**/login**")
    deal = tablet.locator('#panel button[data-type="deal"]')
    looked_at(tablet, taps=(deal,))
    deal.click()
    net = tablet.locator("#net")
    net.wait_for()
    words = net.inner_text()
    assert "Your login has ended." in words and "NOT logged yet" in words and "Bearer" not in words
    assert "Waiting to be sent (1):" in words and "Deal" in words
    assert events(live_server.app, table_id) == []
    looked_at(tablet, "login-ended", taps=(tablet.locator("#login-again"),))
    tablet.locator("#login-again").click()
    tablet.wait_for_url("**/login?next=**")
    looked_at(tablet, "login", taps=tuple(tablet.locator(s) for s in ("#username", "#password", "main button[type=submit]")))
    tablet.fill("#username", "dee")
    from tests.conftest import PASSWORD
    tablet.fill("#password", PASSWORD)
    tablet.click("main button[type=submit]")
    tablet.wait_for_url(f"**/dealer/tables/{table_id}")
    tablet.locator('#panel[data-phase="predraw"]').wait_for()
    assert "Sent now (it waited on this tablet): Deal" in tablet.locator("#say").inner_text()
    assert events(live_server.app, table_id) == [{"type": "deal"}]
    assert tablet.locator("#net").is_hidden()


def test_an_offline_tablet_says_so_keeps_the_taps_in_order_and_sends_them_once(open_page, live_server):
    table_id = new_table(live_server.app)
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    tablet.context.set_offline(True)
    net = tablet.locator("#net")
    net.wait_for(timeout=2_000)  # at once, not at the next poll
    assert "No network: this tablet is offline." in net.inner_text()
    looked_at(tablet, taps=(tablet.locator('details[data-menu="1"] summary'),))
    for seat in (1, 3):  # two seats sit out, in this order, while the network is down
        tablet.locator(f'details[data-menu="{seat}"] summary').click()
        sit_out = tablet.locator(f'details[data-menu="{seat}"] button[data-seat-action="sit_out"]')
        if seat == 1:
            looked_at(tablet, taps=(sit_out,))
        sit_out.click()
        sit_out.click()  # a double tap: kept once
    assert "Waiting to be sent (2):" in net.inner_text()
    assert tablet.locator('#panel button[data-type="deal"]').is_disabled()  # the turn is the server's to tell
    looked_at(tablet, "offline-waiting")
    assert events(live_server.app, table_id) == []
    tablet.context.set_offline(False)
    tablet.locator("#say", has_text="Sent now (it waited on this tablet)").wait_for(timeout=8_000)
    assert events(live_server.app, table_id) == [{"type": "sit_out", "seat": 1}, {"type": "sit_out", "seat": 3}]
    assert net.is_hidden()
    shot(tablet, "offline-sent")
    # a reload sends nothing again: the taps left the tablet when they were logged
    tablet.reload()
    tablet.wait_for_timeout(500)
    assert len(events(live_server.app, table_id)) == 2


def test_an_offline_tap_that_no_longer_fits_is_named_as_not_logged(open_page, live_server):
    table_id = new_table(live_server.app)
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    tablet.context.set_offline(True)
    tablet.locator("#net").wait_for(timeout=2_000)
    tablet.locator('#panel button[data-type="deal"]').click()
    with live_server.app.app_context():  # meanwhile another tablet deals
        tables.append(db.session.get(Table, table_id), {"type": "deal"}, None)
    tablet.context.set_offline(False)
    say = tablet.locator("#say", has_text="NOT logged")
    say.wait_for(timeout=8_000)
    words = say.inner_text()
    assert "NOT logged: Deal" in words and "another device logged at this table" in words
    assert events(live_server.app, table_id) == [{"type": "deal"}]  # one deal, not two
    looked_at(tablet, "offline-conflict")


def test_a_double_tap_on_a_form_that_posts_acts_once(open_page, live_server):
    """A plain form (here the director's new event) tapped twice while the first tap is on its way
    reaches the server once: one POST, one event, not two of the same name (issue 25: the page
    guards the person; the server's checks stay the last resort)."""
    import time

    from flask import request as served

    from floor.models import CardRoomEvent

    posted = []

    @live_server.app.before_request
    def busy_server() -> None:  # a server busy at 2 a.m.: the first tap's answer takes a while
        if served.method == "POST" and served.path == "/director/events/new":
            posted.append(served.path)
            time.sleep(0.8)

    page = open_page("director", PHONE)
    page.goto(live_server.url + "/director/events/new")
    looked_at(page, taps=(page.locator("#name"), page.locator("main button[type=submit]")))
    page.fill("#name", "Saturday deepstack")
    # the impatient second tap, 200 ms after the first while its answer is still on its way (made
    # by the page itself: Playwright waits for a navigation under way); a disabled button does
    # nothing, an enabled one sends the form again
    page.evaluate("""() => {
      const button = document.querySelector('main button[type=submit]');
      document.addEventListener('submit', () => setTimeout(() => button.click(), 200), {once: true});
    }""")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(lambda url: "/events/new" not in url)
    page.wait_for_load_state("networkidle")
    assert posted == ["/director/events/new"]
    with live_server.app.app_context():
        named = db.session.scalars(db.select(CardRoomEvent).where(CardRoomEvent.name == "Saturday deepstack")).all()
    assert len(named) == 1


def test_a_tap_the_rotation_refuses_says_why_in_words_naming_the_tables_event(open_page, live_server):
    """In a room that rotates, the dealer taps Deal at a table the rotation does not give them: the
    tablet said "rotation: Table 5 is not your table now: you deal at Table 5 until ...; the floor
    may move you by hand (403)": an HTTP status, and two tables of the same name (every event
    numbers its tables from 1). Now the words alone, the tables named with their events."""
    from floor import rotation
    from floor.models import CardRoomEvent

    app = live_server.app
    with app.app_context():
        friday, sunday = (CardRoomEvent(name=name, profile="cardroom") for name in ("Friday", "Sunday"))
        db.session.add_all([friday, sunday])
        db.session.commit()
        mine, other = (tables.create_table("Table 1", SETUP, event_id=e.id).id for e in (friday, sunday))
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        rotation.make(["dee"], [mine], 30, dee)
        db.session.commit()
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{other}")
    assert tablet.locator("#rotation").inner_text().startswith("You deal at Table 1 (Friday) until ")
    tablet.locator('#panel button[data-type="deal"]').click()
    say = tablet.locator("#say")
    say.wait_for()
    words = say.inner_text()
    assert words.startswith("Not logged: rotation: Table 1 (Sunday) is not your table now: you deal at Table 1 (Friday)")
    assert "403" not in words and events(app, other) == []
    looked_at(tablet, "rotation-refused")
