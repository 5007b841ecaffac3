"""The dealer's tablet page, through the test client: what it shows, which buttons, who may see it."""

from __future__ import annotations

import re

import pytest

from floor import tables
from tests.conftest import PASSWORD, SETUP, csrf_token_from, login


def buttons(html: str) -> list[str]:
    """The event types the page offers as buttons, in page order."""
    return re.findall(r'data-type="(\w+)"', html)


def post(client, table_id, event, token=None):
    """One event as the page posts it (session, X-CSRFToken, expected_version); the response, not asserted."""
    token = token or csrf_token_from(client.get(f"/dealer/tables/{table_id}").data)
    version = client.get(f"/api/tables/{table_id}").json["version"]
    return client.post(f"/api/tables/{table_id}/events", json={"event": event, "expected_version": version},
                       headers={"X-CSRFToken": token})


def log(client, table_id, *events):
    """Post events as the page does (session, X-CSRFToken, expected_version); return the last response."""
    token = csrf_token_from(client.get(f"/dealer/tables/{table_id}").data)
    response = None
    for event in events:
        response = post(client, table_id, event, token)
        assert response.status_code == 201, response.json
    return response


def dead_deal(to_act: list[int]) -> list[dict]:
    return [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in to_act]


def test_index_links_each_table(dealer, table_id):
    html = dealer.get("/dealer/").get_data(as_text=True)
    assert f'href="/dealer/tables/{table_id}"' in html


def test_page_before_the_first_deal(dealer, table_id):
    response = dealer.get(f"/dealer/tables/{table_id}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for player in ("Ann", "Bob", "Cleo", "Dev"):
        assert player in html
    assert buttons(html) == ["deal"]
    assert "Openers: <strong>jacks or better</strong>" in html
    assert 'data-version="0"' in html
    assert 'id="pot">0<' in html


def test_page_shows_the_pot_and_the_ante_count(dealer, table_id):
    log(dealer, table_id, *dead_deal([2, 3, 4, 1]), {"type": "deal"})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    # one deal numbering (the table's), the pot's progress in it (issue 33)
    assert re.search(r'id="deal-count"[^>]*>\s*Deal 2 · the pot carried since deal 1 · antes 2 of 3', html)
    assert 'id="pot">40<' in html
    # the button moved to seat 2, seat 3 acts; stacks after two antes of 5
    assert re.search(r'data-seat="2"[^>]*>\s*<header>.*?dealer-button', html, re.S)
    assert re.search(r'class="seat status-active to-act" data-seat="3"', html)
    assert html.count('<span class="label">stack</span> 490') == 4
    assert buttons(html) == ["pass", "open", "open", "throw_in", "void"]  # O3: one tap throws the deal in
    assert "Open for 10" in html and "Open with a raise to 20" in html  # O2 (cardroom)


def test_fourth_deal_of_a_pot_takes_no_ante(dealer, table_id):
    log(dealer, table_id, *dead_deal([2, 3, 4, 1]), *dead_deal([3, 4, 1, 2]), *dead_deal([4, 1, 2, 3]))
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Next deal: no antes (the ante cap is reached)" in html
    log(dealer, table_id, {"type": "deal"})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert re.search(r'Deal 4 · the pot carried since deal 1 · antes 3 of 3', html)
    assert html.count('<span class="label">stack</span> 485') == 4
    assert 'id="pot">60<' in html


def test_only_the_legal_actions_are_buttons(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    # beside the turn, each other seat may ask the opener to keep the opening hand (F12)
    assert buttons(html) == ["call", "raise", "fold"] + ["keep_openers"] * 3 + ["void", "false_openers"]
    assert "Call 10" in html and "Raise 20" in html
    assert "data-card=" not in html  # no card picker outside the draw and the showdown
    log(dealer, table_id, {"type": "call", "seat": 3}, {"type": "call", "seat": 4}, {"type": "call", "seat": 1})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert [b for b in buttons(html) if b not in ("void", "false_openers", "keep_openers")] == ["draw"]
    assert re.findall(r'data-count="(\d)"', html) == ["0", "1", "2", "3", "4", "5"]
    assert "Split openers" in html  # seat 2 opened and draws first
    assert html.count("data-card=") == 53


def test_the_showdown_offers_show_and_muck_with_53_cards(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3},
        {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1},
        {"type": "draw", "seat": 2, "count": 1, "split": True, "escrow": ["Jh"]}, {"type": "draw", "seat": 3, "count": 2},
        {"type": "check", "seat": 2}, {"type": "check", "seat": 3})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert [b for b in buttons(html) if b not in ("void", "false_openers", "keep_openers")] == ["show", "muck"]
    assert html.count("data-card=") == 53
    assert re.search(r'data-card="Jh"\s+disabled title="in escrow for seat 2"', html)
    assert "Escrow:" in html


def test_refusal_returns_the_engines_message_and_changes_nothing(dealer, table_id):
    log(dealer, table_id, {"type": "deal"})
    before = dealer.get(f"/api/tables/{table_id}").json
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    response = dealer.post(f"/api/tables/{table_id}/events", headers={"X-CSRFToken": token},
                           json={"event": {"type": "check", "seat": 2}, "expected_version": 1})
    assert response.status_code == 422
    assert response.json["message"].startswith("seat 2 cannot check")
    assert "seat 2 may pass or open for 10" in response.json["message"]
    assert dealer.get(f"/api/tables/{table_id}").json == before


def test_undo_voids_the_latest_entry_and_the_engine_refuses_an_older_one(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Undo entry 2: seat 2 passes" in html
    token = csrf_token_from(html.encode())
    refused = dealer.post(f"/api/tables/{table_id}/events", headers={"X-CSRFToken": token},
                          json={"event": {"type": "void", "event": 0}, "expected_version": 2})
    assert refused.status_code == 422 and "only the latest live event" in refused.json["message"]
    log(dealer, table_id, {"type": "void", "event": 1})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Undo entry 1: deal" in html
    assert re.search(r'<li class="voided"><span class="muted">2 ·</span> seat 2 passes', html)
    assert re.search(r'class="seat status-active to-act" data-seat="2"', html)


def test_stale_version_gets_409(dealer, table_id):
    log(dealer, table_id, {"type": "deal"})
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    response = dealer.post(f"/api/tables/{table_id}/events", headers={"X-CSRFToken": token},
                           json={"event": {"type": "pass", "seat": 2}, "expected_version": 0})
    assert response.status_code == 409
    assert response.json["version"] == 1
    assert dealer.get(f"/api/tables/{table_id}").json["version"] == 1


def test_panel_fragment_matches_the_page(dealer, table_id):
    log(dealer, table_id, {"type": "deal"})
    data = dealer.get(f"/dealer/tables/{table_id}/panel").json
    assert data["version"] == 1
    assert data["html"].startswith('<div id="panel"')
    assert data["html"] in dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)


def test_a_tap_gets_the_new_panel_in_the_same_answer(dealer, table_id):
    """One request per tap (issue 10): the tablet's own endpoint logs the event and its answer
    carries the panel the page swaps in, the same fragment ``/panel`` renders (issue 23: the JSON
    API no longer renders HTML)."""
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    url = f"/dealer/tables/{table_id}/taps"
    tapped = dealer.post(url, json={"event": {"type": "deal"}, "expected_version": 0}, headers={"X-CSRFToken": token})
    assert tapped.status_code == 201 and tapped.json["version"] == 1
    assert tapped.json["entry"]["event"] == {"type": "deal"} and tapped.json["entry"]["seq"] == 1
    assert tapped.json["panel"].startswith('<div id="panel"') and 'data-version="1"' in tapped.json["panel"]
    assert tapped.json["panel"] == dealer.get(f"/dealer/tables/{table_id}/panel").json["html"]
    tapped = dealer.post(url, json={"event": {"type": "pass", "seat": 2}, "expected_version": 1},
                         headers={"X-CSRFToken": token})
    assert tapped.status_code == 201 and buttons(tapped.json["panel"])[:2] == ["pass", "open"]  # seat 3's turn now
    assert 'class="seat status-active to-act" data-seat="3"' in tapped.json["panel"]
    # another device logged first: 409, with the panel as the table is now
    stale = dealer.post(url, json={"event": {"type": "pass", "seat": 3}, "expected_version": 1},
                        headers={"X-CSRFToken": token})
    assert stale.status_code == 409 and stale.json["version"] == 2 and 'data-version="2"' in stale.json["panel"]
    # the rules refuse: 422 naming the rule, nothing changed, no panel needed
    refused = dealer.post(url, json={"event": {"type": "call", "seat": 3}, "expected_version": 2},
                          headers={"X-CSRFToken": token})
    assert refused.status_code == 422 and "panel" not in refused.json and refused.json["version"] == 2
    assert "cannot call" in refused.json["message"]
    # the floor's word from a dealer: 403, nothing logged
    ruling = dealer.post(url, headers={"X-CSRFToken": token}, json={"expected_version": 2, "event": {
        "type": "ruling", "ruling": {"outcome": "CALLER_NOT_REFUNDED", "pot_plays": True}}})
    assert ruling.status_code == 403 and "floor's word" in ruling.json["message"]
    assert dealer.get(f"/api/tables/{table_id}").json["version"] == 2


def test_the_api_answers_json_only_and_ignores_panel(dealer, table_id):
    """The JSON API logs the event and answers JSON, with or without ``?panel=1`` (which a tablet
    page loaded before issue 23 still sends: its tap is logged, and its script fetches the panel)."""
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    url = f"/api/tables/{table_id}/events"
    plain = dealer.post(url, json={"event": {"type": "deal"}, "expected_version": 0}, headers={"X-CSRFToken": token})
    assert plain.status_code == 201 and "panel" not in plain.json
    old_page = dealer.post(f"{url}?panel=1", json={"event": {"type": "pass", "seat": 2}, "expected_version": 1},
                           headers={"X-CSRFToken": token})
    assert old_page.status_code == 201 and old_page.json["version"] == 2 and "panel" not in old_page.json
    assert old_page.json["state"]["to_act"] == 3
    stale = dealer.post(f"{url}?panel=1", json={"event": {"type": "pass", "seat": 3}, "expected_version": 1},
                        headers={"X-CSRFToken": token})
    assert stale.status_code == 409 and "panel" not in stale.json


def test_the_tap_needs_a_login_and_the_csrf_token(csrf_app):
    """The tablet's endpoint refuses without a login (401 in JSON, the words the tablet shows: never
    a redirect to the login page, which a tap could not show) and a session's tap without its CSRF
    token (another site's form could ride the cookie); nothing is logged either way."""
    with csrf_app.app_context():
        guarded = tables.create_table("Table 2", SETUP).id
    url = f"/dealer/tables/{guarded}/taps"
    anonymous = csrf_app.test_client().post(url, json={"event": {"type": "deal"}, "expected_version": 0})
    assert anonymous.status_code == 401 and anonymous.is_json and "Log in" in anonymous.json["message"]
    tablet = csrf_app.test_client()
    tablet.post("/login", data={"username": "dee", "password": PASSWORD, "csrf_token": csrf_token_from(
        tablet.get("/login").data)})
    accept = {"Accept": "application/json"}  # as the tablet's script asks
    forged = tablet.post(url, json={"event": {"type": "deal"}, "expected_version": 0}, headers=accept)
    assert forged.status_code == 400 and forged.is_json and "CSRF" in forged.json["message"]
    wrong = tablet.post(url, json={"event": {"type": "deal"}, "expected_version": 0},
                        headers={"X-CSRFToken": "x", **accept})
    assert wrong.status_code == 400
    assert tablet.get(f"/dealer/tables/{guarded}/panel").json["version"] == 0
    token = csrf_token_from(tablet.get(f"/dealer/tables/{guarded}").data)
    tapped = tablet.post(url, json={"event": {"type": "deal"}, "expected_version": 0}, headers={"X-CSRFToken": token})
    assert tapped.status_code == 201 and 'data-version="1"' in tapped.json["panel"]


def test_a_deactivated_dealers_tap_is_refused_and_not_logged(app, dealer, table_id):
    """Roles are checked per request: a dealer whose account the director deactivated has no role
    left, and the tablet's next tap is refused (401, NOT logged) though its page was open."""
    from floor.extensions import db
    from floor.models import Table, User

    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    with app.app_context():
        db.session.scalars(db.select(User).where(User.username == "dee")).one().active = False
        db.session.commit()
    response = dealer.post(f"/dealer/tables/{table_id}/taps", headers={"X-CSRFToken": token},
                           json={"event": {"type": "deal"}, "expected_version": 0})
    assert response.status_code == 401 and "NOT logged" in response.json["message"]
    with app.app_context():
        assert db.session.get(Table, table_id).version == 0


def test_a_dealers_report_gets_the_panel_with_the_floor_called_banner(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3})
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    response = dealer.post(f"/dealer/tables/{table_id}/taps", headers={"X-CSRFToken": token},
                           json={"event": {"type": "false_openers", "seat": 3}, "expected_version": 3})
    assert response.status_code == 202 and response.json["version"] == 3
    assert response.json["call"]["issue"] == "false_openers" and response.json["call"]["open"]
    assert "Reported to the floor" in response.json["message"]
    assert "Floor called: false openers, seat 3." in response.json["panel"]
    assert 'data-version="3"' in response.json["panel"]


def test_the_tablet_page_posts_for_the_panel_and_fetches_it_only_when_idle(dealer, table_id):
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert f'data-events-url="/dealer/tables/{table_id}/taps"' in html
    response = dealer.get("/static/dealer.js")
    script = response.get_data(as_text=True)
    response.close()  # a static file is streamed from an open file
    send = script[script.index("async function send("):script.index("async function poll(")]
    assert "answerPanel(data" in send and "loadPanel(" not in send.replace("await answerPanel", "")


def test_anonymous_is_sent_to_login(client, table_id):
    for path in (f"/dealer/tables/{table_id}", f"/dealer/tables/{table_id}/panel",
                 f"/dealer/tables/{table_id}/call-floor"):
        response = client.get(path)
        assert response.status_code == 302
        assert "/login" in response.headers["Location"]


@pytest.mark.parametrize("role", ["dealer", "floor", "director"])
def test_every_role_may_deal(as_role, table_id, role):
    assert as_role(role).get(f"/dealer/tables/{table_id}").status_code == 200


@pytest.mark.parametrize("path", ["/dealer/tables/999", "/dealer/tables/999/panel", "/dealer/tables/999/call-floor",
                                  "/dealer/tables/abc"])
def test_unknown_table_is_a_404_page(dealer, path):
    response = dealer.get(path)
    assert response.status_code == 404
    assert b"Traceback" not in response.data


def test_session_api_call_needs_the_csrf_header(csrf_app):
    with csrf_app.app_context():
        table_id = tables.create_table("Table 1", SETUP).id
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").data)
    from tests.conftest import PASSWORD

    assert client.post("/login", data={"username": "dee", "password": PASSWORD,
                                       "csrf_token": token}).status_code == 302
    page = client.get(f"/dealer/tables/{table_id}")
    body = {"event": {"type": "deal"}, "expected_version": 0}
    assert client.post(f"/api/tables/{table_id}/events", json=body).status_code == 400
    ok = client.post(f"/api/tables/{table_id}/events", json=body, headers={"X-CSRFToken": csrf_token_from(page.data)})
    assert ok.status_code == 201


def test_call_the_floor_flashes_and_links_the_dispute(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2})
    form = dealer.get(f"/dealer/tables/{table_id}/call-floor")
    assert form.status_code == 200
    assert b'<option selected value="2">' in form.data  # the opener, by default
    response = dealer.post(f"/dealer/tables/{table_id}/call-floor", data={"issue": "false_openers", "seat": "2"},
                           follow_redirects=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Floor called to Table 1: false openers, seat 2." in html
    assert "Floor called: false openers, seat 2." in html
    # the dispute page is the floor's: a dealer's page never offers a link a dealer is refused
    assert "/rulings/new" not in html
    bad = dealer.post(f"/dealer/tables/{table_id}/call-floor", data={"issue": "nonsense", "seat": "2"})
    assert bad.status_code == 400


def test_call_the_floor_form_needs_its_csrf_token(csrf_app):
    with csrf_app.app_context():
        table_id = tables.create_table("Table 1", SETUP).id
    client = csrf_app.test_client()
    from tests.conftest import PASSWORD

    token = csrf_token_from(client.get("/login").data)
    client.post("/login", data={"username": "dee", "password": PASSWORD, "csrf_token": token})
    path = f"/dealer/tables/{table_id}/call-floor"
    assert client.post(path, data={"issue": "false_openers", "seat": "1"}).status_code == 400
    token = csrf_token_from(client.get(path).data)
    response = client.post(path, data={"issue": "false_openers", "seat": "1", "csrf_token": token})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/dealer/tables/{table_id}"
    assert "Floor called: false openers, seat 1" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_login_helper_is_the_real_form(app, table_id):
    client = login(app.test_client(), "fred")
    assert client.get(f"/dealer/tables/{table_id}").status_code == 200


def test_false_openers_reported_by_the_dealer_wait_for_the_floor(app, dealer, as_role, table_id):
    """A dealer's false-openers tap logs nothing: it is a report (202) that the floor confirms; the
    floor person's confirmation logs it and the reopen offer follows (F3)."""
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Report: the opener (seat 3) did not hold openers" in html
    assert '{"seat": 3, "type": "false_openers"}' in html
    token = csrf_token_from(html.encode())
    response = dealer.post(f"/api/tables/{table_id}/events", json={"event": {"type": "false_openers", "seat": 3},
                                                                   "expected_version": 3},
                           headers={"X-CSRFToken": token})
    assert response.status_code == 202 and response.json["version"] == 3
    assert response.json["call"]["proposal"]["reopen"]["eligible"] == [4, 1]
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Floor called: false openers, seat 3." in html and "Nothing is logged until the floor" in html
    floor = as_role("floor")
    page = floor.get("/floor/").get_data(as_text=True)
    assert "seats 4, 1 may reopen the pot in turn (F3)" in page and "Confirm and log it" in page
    call_id = response.json["call"]["id"]
    assert floor.post(f"/floor/calls/{call_id}/confirm").status_code == 302
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Seat 3 had false openers: seat 4 may reopen the pot." in html
    assert buttons(html) == ["pass", "reopen"]  # no undo reaches back to the floor's finding
    assert "Reopen for 10" in html and "Floor called" not in html


def test_undo_offers_what_the_engine_would_withdraw_and_nothing_from_a_closed_hand(dealer, table_id):
    log(dealer, table_id, {"type": "deal"}, *({"type": "pass", "seat": s} for s in (2, 3, 4, 1)), {"type": "deal"})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Undo entry 6: deal" in html
    log(dealer, table_id, {"type": "void", "event": 5})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    # The hand before the last deal is closed: the tablet offers no undo the engine would refuse.
    assert "Undo entry" not in html


def test_the_requests_beside_the_turn_are_buttons_and_forms(dealer, table_id):
    """F12: a button per seat that may ask the opener to keep the opening hand; once asked, the
    opener's draw says every discard is kept apart. D12: after a draw, a form per seat that drew
    takes the card faced; posted as the page posts it, the engine rules it (D12)."""
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3},
        {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Seat 3 asks the opener to keep the hand" in html
    log(dealer, table_id, {"type": "keep_openers", "seat": 3})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "keep_openers" not in buttons(html) and "pick every discard (F12)" in html
    log(dealer, table_id, {"type": "draw", "seat": 2, "count": 1, "split": True, "escrow": ["Jh"]})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert 'class="expose" data-event=\'{"seat": 2, "type": "expose"}\'' in html and "Card faced to seat 2" in html
    response = log(dealer, table_id, {"type": "expose", "seat": 2, "card": "Qh"})
    assert response.json["state"]["owed"] == [2]
