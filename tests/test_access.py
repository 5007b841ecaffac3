"""Who may reach what: every route of the app × every role (issue 6).

``ROUTES`` names every endpoint of ``app.url_map`` with the least role that may use it. The first test
fails when an endpoint is missing from the table, so a new page cannot skip the access check.

Expected answers:

- a page (session login): anonymous → 302 to the login page; a role below the least → 403; else 200;
- the JSON API (bearer token): anonymous → 401 JSON; a role below the least → 403 JSON; else 200
  (a POST is only checked not to be refused: it may still be 201, 400 or 422 for its body);
- a POST-only route answers GET with 405, and refuses the POST as above for the wrong roles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from werkzeug.exceptions import MethodNotAllowed

from floor.extensions import db
from floor.models import CardRoomEvent, FloorCall, HouseProfile, Role, User
from tests.conftest import SETUP, bearer

PAGE, API, PUBLIC = "page", "api", "public"
ROLES = ("anonymous", "dealer", "floor", "director")


@dataclass(frozen=True)
class Route:
    least: Role | None  # None: anyone, even anonymous
    kind: str  # PAGE, API or PUBLIC
    url: str  # with {table}, {ruling}, {event}, {house}, {user} filled from the fixtures
    get: bool = True  # False for POST-only routes: GET must be 405
    post: dict[str, Any] | None = None  # a body to POST (form data for pages, JSON for the API)
    expect_get: dict[str, int] = field(default_factory=dict)  # per-role exceptions, e.g. redirects


D, F, X = Role.dealer, Role.floor, Role.director
RULING_FACTS = {"facts": {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 6}}

ROUTES: dict[str, Route] = {
    # accounts and the public bits
    "auth.home": Route(None, PUBLIC, "/", expect_get={r: 302 for r in ROLES}),
    "auth.login": Route(None, PUBLIC, "/login"),
    "auth.logout": Route(None, PUBLIC, "/logout", get=False, post={}),
    "static": Route(None, PUBLIC, "/static/floor.css"),
    "api.health": Route(None, PUBLIC, "/api/health"),
    # the JSON API
    "api.evaluate_hand": Route(D, API, "/api/hands/evaluate", get=False, post={"cards": "As Ks Qs Js Ts"}),
    "api.create_table": Route(X, API, "/api/tables", get=False, post={"name": "T9", **SETUP}),
    "api.get_table": Route(D, API, "/api/tables/{table}"),
    "api.list_events": Route(D, API, "/api/tables/{table}/events"),
    "api.list_rulings": Route(D, API, "/api/tables/{table}/rulings"),
    "api.post_event": Route(D, API, "/api/tables/{table}/events", get=False, post={"type": "deal"}),
    "api.create_ruling": Route(F, API, "/api/rulings", get=False, post=RULING_FACTS),
    "api.get_ruling": Route(D, API, "/api/rulings/{ruling}"),
    "api.file_finding": Route(F, API, "/api/findings", get=False,
                              post={"kind": "other", "text": "a checker's note on the access check"}),
    # the promotions (issue 32): the pools read by all staff, an award the floor's (a table with no
    # drop: refused 422 after the role check)
    "api.list_promotions": Route(D, API, "/api/promotions"),
    "api.award_promotion": Route(F, API, "/api/promotions/high_hand/award", get=False,
                                 post={"player": "Ann", "table": 1, "deal": 1}),
    # the dealer's tablet
    "dealer.index": Route(D, PAGE, "/dealer/"),
    "dealer.table_page": Route(D, PAGE, "/dealer/tables/{table}"),
    "dealer.panel": Route(D, PAGE, "/dealer/tables/{table}/panel"),
    "dealer.call_floor": Route(D, PAGE, "/dealer/tables/{table}/call-floor", post={}),
    "dealer.live": Route(D, PAGE, "/dealer/tables/{table}/live"),
    # the tablet's tap: the API's checks and answers in JSON (401, not a redirect to the login page)
    "dealer.tap": Route(D, API, "/dealer/tables/{table}/taps", get=False, post={"type": "deal"}),
    # the floor
    "floorpages.index": Route(F, PAGE, "/floor/"),
    "floorpages.dismiss_call": Route(F, PAGE, "/floor/calls/{call}/dismiss", get=False, post={}),
    "floorpages.confirm_call": Route(F, PAGE, "/floor/calls/{call}/confirm", get=False, post={}),
    "floorpages.correction": Route(F, PAGE, "/floor/tables/{table}/correction", post={}),
    "floorpages.lineups": Route(F, PAGE, "/floor/lineups"),
    "floorpages.move": Route(F, PAGE, "/floor/move", get=False, post={}),
    "floorpages.table_history_page": Route(F, PAGE, "/floor/tables/{table}/history"),
    "floorpages.player_history": Route(F, PAGE, "/floor/players/Ann"),
    "floorpages.live": Route(F, PAGE, "/floor/live"),
    "floorpages.shift": Route(F, PAGE, "/floor/shift"),
    "floorpages.promotions": Route(F, PAGE, "/floor/promotions"),
    "floorpages.promotion_award": Route(F, PAGE, "/floor/promotions/award", get=False, post={}),
    "floorpages.shift_pdf": Route(F, PAGE, "/floor/shift.pdf"),
    "floorpages.hand_list": Route(F, PAGE, "/floor/tables/{table}/hands"),
    "floorpages.hand_page": Route(F, PAGE, "/floor/tables/{table}/hands/1"),
    "floorpages.hand_export": Route(F, PAGE, "/floor/tables/{table}/hands.txt"),
    "rulings.confirm": Route(F, PAGE, "/rulings/{ruling}/confirm", get=False, post={}),
    "rulings.index": Route(D, PAGE, "/rulings/"),
    "rulings.new": Route(F, PAGE, "/rulings/new", post={}),
    "rulings.detail": Route(D, PAGE, "/rulings/{ruling}"),
    "rulings.pdf": Route(D, PAGE, "/rulings/{ruling}.pdf"),
    "rulings.verify": Route(D, PAGE, "/rulings/{ruling}/verify"),
    # a correction starts the dispute walk with the old facts: a redirect to /rulings/new
    "rulings.correct": Route(F, PAGE, "/rulings/{ruling}/correct", expect_get={"floor": 302, "director": 302}),
    # the director
    "director.index": Route(X, PAGE, "/director/"),
    "director.event_new": Route(X, PAGE, "/director/events/new", post={}),
    "director.event_edit": Route(X, PAGE, "/director/events/{event}", post={}),
    "director.table_new": Route(X, PAGE, "/director/events/{event}/tables/new", post={}),
    "director.table_edit": Route(X, PAGE, "/director/tables/{table}", post={}),
    "director.profile_list": Route(X, PAGE, "/director/profiles/"),
    "director.profile_new": Route(X, PAGE, "/director/profiles/new", post={}),
    "director.profile_edit": Route(X, PAGE, "/director/profiles/{house}/edit", post={}),
    "director.profile_show": Route(X, PAGE, "/director/profiles/cardroom"),
    "director.user_list": Route(X, PAGE, "/director/users/"),
    "director.user_new": Route(X, PAGE, "/director/users/new", post={}),
    "director.user_edit": Route(X, PAGE, "/director/users/{user}", post={}),
    "director.user_token": Route(X, PAGE, "/director/users/{user}/token", get=False, post={}),
    "auth.reset_password": Route(X, PAGE, "/director/users/{user}/password", post={}),
    # printed rule summaries: any logged-in role
    "prints.index": Route(D, PAGE, "/rules/"),
    "prints.summary": Route(D, PAGE, "/rules/cardroom"),
    "prints.summary_pdf": Route(D, PAGE, "/rules/cardroom.pdf"),
    # tournaments (issue 13): the wall and results for everyone, the floor's pages, the director's writing
    "tournament.index": Route(D, PAGE, "/tournament/"),
    "tournament.create": Route(X, PAGE, "/tournament/", get=False,
                               post={"name": "Access cup", "profile": "cardroom", "preset": "turbo"}),
    "tournament.show": Route(F, PAGE, "/tournament/{tevent}/"),
    "tournament.structure": Route(X, PAGE, "/tournament/{tevent}/structure", get=False, post={"preset": "turbo"}),
    "tournament.add_entry": Route(F, PAGE, "/tournament/{tevent}/entries", get=False, post={"players": "Zed"}),
    "tournament.add_table": Route(X, PAGE, "/tournament/{tevent}/tables", get=False, post={"name": "T", "seats": 8}),
    "tournament.draw": Route(F, PAGE, "/tournament/{tevent}/draw", get=False, post={}),
    "tournament.clock": Route(F, PAGE, "/tournament/{tevent}/clock", get=False, post={"action": "start"}),
    "tournament.seating": Route(F, PAGE, "/tournament/{tevent}/seating"),
    "tournament.seating_pdf": Route(F, PAGE, "/tournament/{tevent}/seating.pdf"),
    "tournament.wall": Route(D, PAGE, "/tournament/{tevent}/wall"),
    "tournament.floor_page": Route(F, PAGE, "/tournament/{tevent}/floor"),
    "tournament.floor_panel": Route(F, PAGE, "/tournament/{tevent}/floor/panel"),
    "tournament.move": Route(F, PAGE, "/tournament/{tevent}/moves", get=False, post={"move": "{}"}),
    "tournament.buy": Route(F, PAGE, "/tournament/{tevent}/buys", get=False, post={"player": "Zed", "kind": "rebuy"}),
    "tournament.results": Route(D, PAGE, "/tournament/{tevent}/results"),
    "tournament.deal": Route(F, PAGE, "/tournament/{tevent}/deal"),
    "tournament.deal_review": Route(F, PAGE, "/tournament/{tevent}/deal/review"),
    "tournament.settle_deal": Route(F, PAGE, "/tournament/{tevent}/deal", get=False, post={"method": "icm"}),
    "tournament.desk_action": Route(F, PAGE, "/tournament/{tevent}/desk", get=False, post={"action": "count"}),
    "tournament.deal_pdf": Route(F, PAGE, "/tournament/{tevent}/deal.pdf"),
    "tournament.results_pdf": Route(D, PAGE, "/tournament/{tevent}/results.pdf"),
    "tournament.results_csv": Route(D, PAGE, "/tournament/{tevent}/results.csv"),
    "tournament_api.create": Route(X, API, "/api/events", get=False, post={"name": "Access cup", "structure": {
        "levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": 5}}),
    "tournament_api.show": Route(D, API, "/api/events/{tevent}"),
    "tournament_api.add_entry": Route(F, API, "/api/events/{tevent}/entries", get=False, post={"player": "Yan"}),
    "tournament_api.add_table": Route(X, API, "/api/events/{tevent}/tables", get=False, post={"name": "T", "seats": 8}),
    "tournament_api.draw": Route(F, API, "/api/events/{tevent}/draw", get=False, post={}),
    "tournament_api.clock": Route(D, API, "/api/events/{tevent}/clock"),
    "tournament_api.move_clock": Route(F, API, "/api/events/{tevent}/clock", get=False, post={"action": "start"}),
    "tournament_api.balance": Route(D, API, "/api/events/{tevent}/balance"),
    "tournament_api.carry_out": Route(F, API, "/api/events/{tevent}/balance", get=False, post={"moves": []}),
    "tournament_api.buy": Route(F, API, "/api/events/{tevent}/buys", get=False, post={"player": "Yan", "kind": "rebuy"}),
    "tournament_api.results": Route(D, API, "/api/events/{tevent}/results"),
    "tournament_api.chips": Route(D, API, "/api/events/{tevent}/chips"),
    "tournament_api.eliminate": Route(F, API, "/api/events/{tevent}/eliminate", get=False, post={"player": "Yan"}),
    "tournament_api.reinstate": Route(F, API, "/api/events/{tevent}/reinstate", get=False,  # nobody to undo: 422
                                      post={"player": "Nobody"}),
    "tournament_api.disqualify": Route(F, API, "/api/events/{tevent}/disqualify", get=False,  # still in: 422
                                       post={"player": "Yan", "reason": "cheating"}),
    "tournament_api.lift_disqualification": Route(F, API, "/api/events/{tevent}/lift_disqualification", get=False,
                                                  post={"player": "Nobody", "reason": "x"}),  # none: 422
    "tournament_api.counts": Route(F, API, "/api/events/{tevent}/counts", get=False,
                                   post={"player": "Yan", "stack": 10, "reason": "count"}),
    "tournament_api.hand_for_hand": Route(F, API, "/api/events/{tevent}/hand_for_hand", get=False, post={"on": False}),
    "tournament_api.chop": Route(F, API, "/api/events/{tevent}/chop",  # nobody seated: no deal to offer
                                 expect_get={"floor": 422, "director": 422}),
    "tournament_api.settle": Route(F, API, "/api/events/{tevent}/chop", get=False, post={"method": "icm"}),
    "tournament_api.color_up": Route(F, API, "/api/events/{tevent}/color_up", get=False, post={}),
    "tournament_api.bounties": Route(D, API, "/api/events/{tevent}/bounties"),
    # banked tables (issue 15): dealers log, a director sets a table up
    "banked.index": Route(D, PAGE, "/banked/"),
    "banked.create": Route(X, PAGE, "/banked/tables", get=False, post={}),
    "banked.table_page": Route(D, PAGE, "/banked/tables/{banked}"),
    "banked.table_json": Route(D, PAGE, "/banked/tables/{banked}.json"),
    "banked.log_event": Route(D, PAGE, "/banked/tables/{banked}/events", get=False, post={}),
    "banked.rules_page": Route(D, PAGE, "/banked/tables/{banked}/rules"),
    "banked.rules_pdf": Route(D, PAGE, "/banked/tables/{banked}/rules.pdf"),
    # the floor's banked disputes: walked and issued by the floor; an issued ruling read by anyone
    "banked.dispute": Route(F, PAGE, "/banked/tables/{banked}/dispute"),
    "banked.issue": Route(F, PAGE, "/banked/tables/{banked}/disputes", get=False, post={}),
    "banked.ruling_page": Route(D, PAGE, "/banked/rulings/{bruling}"),
    "banked.ruling_pdf": Route(D, PAGE, "/banked/rulings/{bruling}.pdf"),
    "banked.call_floor": Route(D, PAGE, "/banked/tables/{banked}/call", post={"issue": "other"}),
    "banked.dismiss_call": Route(F, PAGE, "/banked/calls/{bcall}/dismiss", get=False, post={}),
    "room.settings": Route(X, PAGE, "/director/settings/", post={"zone": "UTC"}),
    # players as records (issue 31): dealers find and read, the floor creates, the director bans
    "api.create_player": Route(F, API, "/api/players", get=False, post={"name": "Walk-in"}),
    "api.find_players": Route(D, API, "/api/players"),
    "api.show_player": Route(D, API, "/api/players/{player}"),
    "api.ban_player": Route(X, API, "/api/players/{player}/ban", get=False, post={"reason": "access check"}),
    # waiting lists (issue 31): the floor's
    "api.create_list": Route(F, API, "/api/lists", get=False, post={"game": "cardroom", "stakes": "1/2"}),
    "api.all_lists": Route(F, API, "/api/lists"),
    "api.list_action": Route(F, API, "/api/lists/{wlist}/join", get=False, post={"player": "Walk-in"}),
    # must-move games, seat changes, the board, dealer rotation (issue 31)
    "api.feeds": Route(F, API, "/api/tables/{table}/feeds", get=False, post={"table": None}),
    "api.seat_changes": Route(F, API, "/api/tables/{table}/seat_changes"),
    "api.ask_seat_change": Route(F, API, "/api/tables/{table}/seat_changes", get=False, post={"player": "Nobody"}),
    "floorpages.join_listed": Route(F, PAGE, "/floor/lists/join", get=False, post={}),
    "floorpages.call_listed": Route(F, PAGE, "/floor/lists/{wlist}/call", get=False, post={}),
    "floorpages.seat_listed": Route(F, PAGE, "/floor/lists/{wlist}/seat", get=False, post={}),
    "floorpages.cash_floor": Route(F, PAGE, "/floor/cash"),
    "floorpages.set_feeds": Route(F, PAGE, "/floor/cash/tables/{table}/feeds", get=False, post={}),
    "floorpages.ask_seat_change": Route(F, PAGE, "/floor/cash/tables/{table}/seat_changes", get=False, post={}),
    "floorpages.cancel_seat_change": Route(F, PAGE, "/floor/cash/tables/{table}/seat_changes/1/cancel", get=False,
                                           post={}),
    "floorpages.set_rotation": Route(F, PAGE, "/floor/cash/rotation", get=False, post={}),
    "floorpages.end_rotation": Route(F, PAGE, "/floor/cash/rotation/end", get=False, post={}),
    "floorpages.assign_dealer": Route(F, PAGE, "/floor/cash/rotation/assign", get=False, post={}),
    "api.cancel_seat_change": Route(F, API, "/api/tables/{table}/seat_changes/1/cancel", get=False, post={}),
    "board.board": Route(None, PUBLIC, "/board"),
    "api.get_rotation": Route(D, API, "/api/rotation"),
    "api.make_rotation": Route(F, API, "/api/rotation", get=False, post={"dealers": [], "tables": [], "minutes": 30}),
    "api.assign_dealer": Route(F, API, "/api/rotation/assign", get=False, post={"dealer": "nobody", "table": 0}),
    "api.end_rotation": Route(F, API, "/api/rotation/end", get=False, post={}),
}


def test_every_endpoint_of_the_app_is_in_the_access_table(app):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    missing = sorted(endpoints - set(ROUTES))
    assert not missing, f"add these endpoints to ROUTES in tests/test_access.py: {missing}"
    gone = sorted(set(ROUTES) - endpoints)
    assert not gone, f"these endpoints no longer exist; drop them from ROUTES: {gone}"


def test_the_table_matches_the_url_map(app):
    """Each entry's URL really is its endpoint's, and POST-only routes are marked so."""
    adapter = app.url_map.bind("localhost")
    ids = {"table": 1, "ruling": 1, "event": 1, "house": 1, "user": 1, "call": 1, "tevent": 2, "banked": 1, "bruling": 1,
           "bcall": 1, "player": 1, "wlist": 1}
    for endpoint, route in ROUTES.items():
        url = route.url.format(**ids)
        method = "GET" if route.get else "POST"
        matched, _ = adapter.match(url, method=method)
        assert matched == endpoint, (endpoint, url, method, matched)
        methods = next(r.methods for r in app.url_map.iter_rules() if r.endpoint == endpoint)
        assert ("GET" in methods) == route.get, endpoint
        if route.post is not None:
            assert "POST" in methods, endpoint


@pytest.fixture
def world(app, tokens):
    """One of everything a route with an id needs: an event, a table (through the API), a ruling
    (through the API), a house profile, the dealer's account and a call for the floor."""
    client = app.test_client()
    with app.app_context():
        from floor.banked.models import BankedTable

        event = CardRoomEvent(name="Access check", profile="cardroom")
        house = HouseProfile(name="main-room", toml='base = "cardroom"\nante_deals = 2\n')
        banked = BankedTable(name="B1", setup={"boxes": 3})
        db.session.add_all([event, house, banked])
        db.session.flush()
        banked.seal_head()
        db.session.commit()
        ids = {"event": event.id, "house": house.id, "banked": banked.id,
               "user": db.session.scalars(db.select(User).where(User.username == "dee")).one().id}
        from floor.banked.models import IssuedBankedRuling
        from rules.banked.disputes import resolve_dispute

        facts = {"issue": "wrong_exchange", "dealer_cards": "7h 7d 7s Kc 2d", "dealer_thrown": "Kc 2d"}
        bruling = IssuedBankedRuling(table_id=banked.id, round=0, profile="banked", outcome="EXCHANGE_STANDS",
                               facts=facts, record=resolve_dispute(facts).to_dict(), issued_by_id=ids["user"])
        db.session.add(bruling)
        db.session.flush()
        bruling.seal()
        db.session.commit()
        ids["bruling"] = bruling.id
        from floor.banked.models import BankedCall

        bcall = BankedCall(table_id=banked.id, issue="other", called_by_id=ids["user"])
        db.session.add(bcall)
        db.session.commit()
        ids["bcall"] = bcall.id
    table = client.post("/api/tables", json={"name": "T1", "event_id": ids["event"], **SETUP},
                        headers=bearer(tokens["director"]))
    assert table.status_code == 201, table.json
    ids["table"] = table.json["id"]
    ids["player"] = table.json["state"]["seats"]["1"]["player_id"]  # Ann, the setup's first seat
    with app.app_context():
        from floor.players.models import WaitingList

        wlist = WaitingList(game="cardroom", stakes="10/20")
        db.session.add(wlist)
        db.session.commit()
        ids["wlist"] = wlist.id
    with app.app_context():
        call = FloorCall(table_id=ids["table"], issue="false_openers", seat=2, called_by_id=ids["user"])
        db.session.add(call)
        db.session.commit()
        ids["call"] = call.id
    ruling = client.post("/api/rulings", json=RULING_FACTS, headers=bearer(tokens["floor"]))
    assert ruling.status_code == 201, ruling.json
    ids["ruling"] = ruling.json["id"]
    with app.app_context():
        from floor.tournament import service

        ids["tevent"] = service.create("Access cup", {"levels": [{"minutes": 10, "small_bet": 10}],
                                                      "starting_chips": 100, "buy_in": 5}).event_id
    return ids


def may(role: str, least: Role | None) -> bool:
    return least is None or (role != "anonymous" and Role[role] >= least)


def get_is_405(app, url: str) -> bool:
    """Whether GET on a POST-only route's URL is 405 (not when another endpoint answers GET there,
    as ``GET /api/tables/<id>/events`` lists what ``POST`` logs)."""
    try:
        app.url_map.bind("localhost").match(url, method="GET")
    except MethodNotAllowed:
        return True
    return False


def check(route: Route, role: str, method: str, response: Any) -> str | None:
    """What is wrong with ``response`` for this route, role and method; None when it is right."""
    status = response.status_code
    if status >= 500 or b"Traceback" in response.data:
        return f"{status} with a server error"
    if method == "GET" and not route.get:
        return None if status == 405 else f"GET gave {status}, expected 405 (POST only)"
    allowed = may(role, route.least)
    if route.kind == API and not allowed:
        want = 401 if role == "anonymous" else 403
        if status != want or not response.is_json or "error" not in response.json:
            return f"{status} {response.mimetype}, expected {want} JSON"
        return None
    if route.kind == PAGE and not allowed:
        if role == "anonymous":
            if status != 302 or "/login" not in response.headers.get("Location", ""):
                return f"{status} to {response.headers.get('Location')}, expected 302 to the login page"
            return None
        return None if status == 403 else f"{status}, expected 403"
    if method == "POST":
        refused = status in (401, 403, 405) or (status == 302 and "/login" in response.headers.get("Location", ""))
        return f"POST refused with {status}" if refused else None
    want = route.expect_get.get(role, 200)
    return None if status == want else f"{status}, expected {want}"


@pytest.mark.parametrize("role", ROLES)
def test_every_route_answers_each_role_as_the_table_says(app, tokens, world, as_role, role):
    pages = app.test_client() if role == "anonymous" else as_role(role)
    api = app.test_client()
    auth = {} if role == "anonymous" else bearer(tokens[role])
    wrong = []
    for endpoint, route in ROUTES.items():
        url = route.url.format(**world)
        client, headers = (api, auth) if route.kind == API else (pages, {})
        if route.get or get_is_405(app, url):
            response = client.get(url, headers=headers)
            problem = check(route, role, "GET", response)
            response.close()  # static files and PDFs are streamed from open files
            if problem:
                wrong.append(f"GET {url} as {role}: {problem}")
        if route.post is not None and route.kind != PUBLIC:
            if route.kind == API:
                response = client.post(url, json=route.post, headers=headers)
            else:
                response = client.post(url, data=route.post)
            problem = check(route, role, "POST", response)
            if problem:
                wrong.append(f"POST {url} as {role}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_home_sends_each_role_to_its_own_page(as_role, client):
    assert client.get("/").headers["Location"] == "/login"
    for role, home in (("dealer", "/dealer/"), ("floor", "/floor/"), ("director", "/director/")):
        assert as_role(role).get("/").headers["Location"] == home


def test_logout_is_a_post(as_role):
    client = as_role("dealer")
    assert client.get("/logout").status_code == 405
    assert client.post("/logout").status_code == 302
    assert client.get("/dealer/").status_code == 302


def test_a_deactivated_account_loses_its_session_and_its_token(app, as_role, tokens):
    client = as_role("floor")
    assert client.get("/floor/").status_code == 200
    with app.app_context():
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        fred.active = False
        db.session.commit()
    assert client.get("/floor/").status_code == 302
    assert app.test_client().get("/api/rulings/1", headers=bearer(tokens["floor"])).status_code == 401


# --------------------------------------------------------------------------- per action, not per page

OPENED = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4}]


@pytest.mark.parametrize("role, kind, status", [
    ("dealer", "ruling", 403), ("dealer", "correction", 403), ("dealer", "false_openers", 202),
    ("floor", "ruling", 201), ("floor", "correction", 422), ("floor", "false_openers", 201),
    ("director", "correction", 422),
])
def test_who_may_log_is_checked_per_event_type(app, tokens, role, kind, status):
    """The same route logs a tap for a dealer and refuses the floor's word: a ruling or a correction
    from a dealer's token is 403; a dealer's false openers is a report for the floor (202, nothing
    logged); the floor may log all three (a correction waits for the end of the deal: 422)."""
    client = app.test_client()
    table = client.post("/api/tables", json={"name": "T", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    for event in OPENED:
        assert client.post(f"/api/tables/{table}/events", json=event,
                           headers=bearer(tokens["dealer"])).status_code == 201
    body = {
        "ruling": {"type": "ruling", "ruling": {"outcome": "CALLER_NOT_REFUNDED", "pot_plays": True}},
        "correction": {"type": "correction", "moves": [{"seat": 1, "amount": -5}, {"seat": 2, "amount": 5}],
                       "reason": "miscount"},
        "false_openers": {"type": "false_openers", "seat": 3},
    }[kind]
    response = client.post(f"/api/tables/{table}/events", json={**body, "expected_version": 4},
                           headers=bearer(tokens[role]))
    assert response.status_code == status, response.json
    version = client.get(f"/api/tables/{table}", headers=bearer(tokens["dealer"])).json["version"]
    assert version == (5 if status == 201 else 4)
    if status == 403:
        assert "is the floor's word" in response.json["message"]
