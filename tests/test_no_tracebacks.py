"""No input gives a stack trace: junk ids, junk query strings, junk forms and bodies, as every role.

The routes come from ``app.url_map``, so a new page is covered the day it is added. A response is
wrong when its status is 500 or above, or when its body holds "Traceback".
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from werkzeug.routing import IntegerConverter

from floor.extensions import db
from floor.models import CardRoomEvent, HouseProfile
from tests.conftest import SETUP, bearer

ROLES = ("anonymous", "dealer", "floor", "director")
JUNK_INTS = ("0", "999999", str(2**31), str(2**63 - 1))  # 2**31: beyond a 32-bit PostgreSQL INTEGER
BIG_IDS = (str(2**63), str(2**80))  # beyond SQLite's integers: see test_ids_beyond_64_bits_...
JUNK_TEXT = ("junk", "..", "%00", "x" * 400, "%C3%BC%E2%99%A0", "%3Cscript%3E", "cardroom%20", "CARDROOM")
JUNK_PATHS = ("nope.css", "../instance/secret_key", "%2e%2e/%2e%2e/etc/passwd")
JUNK_QUERIES = (
    "?seat=abc&issue=%3Cb%3E&called=false_openers&supersedes=-1&next=//evil.example",
    "?called=split_openers&seat=99999999999999999999999&supersedes=abc&page=-1&version=x",
    "?issue=false_openers&issue=caller_refund&seat=&seat=2&profile=..%2F..&expected_version=1e9",
    "?%00=%00&table_id=NaN&facts=%7B%7D&format=pdf",
)
JUNK_VALUES = ("", "x" * 5000, "-1", "99999999999999999999999", "1e400", "NaN", "\x00", "ü♠", "<script>", "[[[")
JUNK_JSON = (
    None, [], "text", 12, {"facts": []}, {"facts": {"issue": "nonsense"}}, {"cards": 5}, {"cards": "Zz Yy"},
    {"type": "open", "seat": 2**70}, {"type": ["deal"]}, {"name": {"x": 1}, "seats": "many"},
    {"facts": {"issue": "false_openers", "opener": "abc"}, "table_id": "1"}, {"expected_version": -1, "type": "deal"},
    {"facts": {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 2**70}},
)
FIELD = re.compile(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"')


@pytest.fixture
def world(app, tokens):
    """Real rows behind the ids: an event, a table with a deal logged, a ruling, a house profile."""
    client = app.test_client()
    with app.app_context():
        event = CardRoomEvent(name="Robustness", profile="cardroom")
        db.session.add_all([event, HouseProfile(name="main-room", toml='base = "cardroom"\n')])
        db.session.commit()
        event_id = event.id
    table = client.post("/api/tables", json={"name": "T1", "event_id": event_id, **SETUP},
                        headers=bearer(tokens["director"])).json
    client.post(f"/api/tables/{table['id']}/events", json={"type": "deal"}, headers=bearer(tokens["dealer"]))
    ruling = client.post("/api/rulings", json={"facts": {"issue": "wrong_card_count", "found": "after_draw",
                                                         "seat": 2, "card_count": 6}},
                         headers=bearer(tokens["floor"])).json
    return {"int": str(table["id"]), "ruling": str(ruling["id"]), "name": "main-room"}


def urls_for(rule, world, real: bool):
    """The rule's URL with junk (or, when ``real``, existing) values for each of its arguments."""
    if not rule.arguments:
        return [rule.rule]
    out = []
    converters = rule._converters  # argument -> converter; werkzeug keeps them on the rule
    choices = {}
    for arg in rule.arguments:
        kind = type(converters[arg]).__name__
        if isinstance(converters[arg], IntegerConverter):  # the app's BoundedInt too
            choices[arg] = (world["ruling"] if "ruling" in arg else world["int"],) if real else JUNK_INTS
        elif kind == "PathConverter":
            choices[arg] = ("floor.css",) if real else JUNK_PATHS
        else:
            choices[arg] = ("cardroom", world["name"]) if real else JUNK_TEXT
    width = max(len(v) for v in choices.values())
    for i in range(width):
        url = rule.rule
        for arg, values in choices.items():
            url = re.sub(rf"<(?:[^:<>]+:)?{arg}>", values[i % len(values)], url)
        out.append(url)
    return out


def bad(send) -> str | None:
    """Send the request (a callable); what is wrong with its answer, or None."""
    try:
        response = send()
    except Exception as exc:  # the error page itself failed: the client would see a bare 500
        return f"raised {type(exc).__name__}: {str(exc)[:80]}"
    body = response.get_data()
    response.close()
    if response.status_code >= 500:
        return f"{response.status_code}"
    if b"Traceback" in body:
        return "Traceback in the body"
    return None


def client_for(app, as_role, tokens, role, api: bool):
    if role == "anonymous":
        return app.test_client(), {}
    if api:
        return app.test_client(), bearer(tokens[role])
    return as_role(role), {}


@pytest.mark.parametrize("role", ROLES)
def test_no_get_gives_a_traceback(app, as_role, tokens, world, role):
    pages = client_for(app, as_role, tokens, role, api=False)
    api = client_for(app, as_role, tokens, role, api=True)
    wrong = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        client, headers = api if rule.rule.startswith("/api/") else pages
        urls = [(u, "") for u in urls_for(rule, world, real=False)]
        urls += [(u, q) for u in urls_for(rule, world, real=True) for q in ("",) + JUNK_QUERIES]
        for url, query in distinct(urls):  # a URL without arguments is its own junk and real one
            problem = bad(lambda: client.get(url + query, headers=headers))
            if problem:
                wrong.append(f"GET {url}{query} as {role}: {problem}")
    assert not wrong, "\n".join(wrong)


def distinct(items: list) -> list:
    """``items`` in order, each sent once (an empty body, or a URL, that the junk lists make twice).

    >>> distinct([{}, {"a": "x"}, {}, "u", "u"])
    [{}, {'a': 'x'}, 'u']
    """
    out: list = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def form_fields(client, url) -> list[str]:
    """The names of the fields of the page's forms (empty when the page is refused)."""
    response = client.get(url)
    names = FIELD.findall(response.get_data(as_text=True)) if response.status_code == 200 else []
    response.close()
    return sorted(set(names) - {"csrf_token"})


@pytest.mark.parametrize("role", ROLES)
def test_no_form_post_gives_a_traceback(app, as_role, tokens, world, role):
    client, _ = client_for(app, as_role, tokens, role, api=False)
    # The forms' fields are read as a director. As the director, by the posting client itself: a
    # password it resets for its own account moves its own session to the new nonce, where a second
    # session of the account would be logged out and read no field of any later form.
    director = client if role == "director" else client_for(app, as_role, tokens, "director", api=False)[0]
    wrong = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.rule.startswith("/api/") or rule.endpoint == "auth.logout":
            continue
        for url in distinct(urls_for(rule, world, real=True) + urls_for(rule, world, real=False)[:2]):
            names = form_fields(director, url) if "GET" in rule.methods else []
            bodies = [{}, {"csrf_token": "junk", "unknown": "x"}]
            bodies += [{name: value for name in names} for value in JUNK_VALUES]
            bodies += [{name: "x" for name in names[: i]} for i in range(1, len(names), max(1, len(names) // 4))]
            for body in distinct(bodies):  # a form without fields makes ten empty bodies: sent once
                problem = bad(lambda: client.post(url, data=body))
                if problem:
                    wrong.append(f"POST {url} as {role} with {sorted(body)[:6]}={str(list(body.values())[:1])[:20]}: "
                                 f"{problem}")
    assert not wrong, "\n".join(wrong[:40])


@pytest.mark.parametrize("role", ROLES)
def test_no_api_body_gives_a_traceback(app, as_role, tokens, world, role):
    client, headers = client_for(app, as_role, tokens, role, api=True)
    wrong = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or not rule.rule.startswith("/api/"):
            continue
        for url in distinct(urls_for(rule, world, real=True) + urls_for(rule, world, real=False)[:2]):
            for body in JUNK_JSON:
                problem = bad(lambda: client.post(url, json=body, headers=headers))
                if problem:
                    wrong.append(f"POST {url} as {role} with {str(body)[:60]}: {problem}")
            for raw, kind in ((b"{not json", "application/json"), (b"\xff\xfe", "application/json"),
                              (b"a=1", "application/x-www-form-urlencoded")):
                problem = bad(lambda: client.post(url, data=raw, content_type=kind, headers=headers))
                if problem:
                    wrong.append(f"POST {url} as {role} with raw {raw!r}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_junk_in_the_login_form_and_next_parameter(client):
    for body in ({}, {"username": "x" * 5000, "password": "y"}, {"username": "\x00", "password": "\x00"},
                 {"username": "dana", "password": "ü♠" * 100, "remember": "maybe"}):
        for query in ("", "?next=" + quote("//evil.example"), "?next=" + quote("/\\evil")):
            assert bad(lambda: client.post("/login" + query, data=body)) is None


BIG_ID_GROUPS = ("api", "dealer", "rulings", "director", "others")


@pytest.mark.parametrize("group", BIG_ID_GROUPS)
def test_ids_beyond_64_bits_are_not_a_server_error(app, as_role, tokens, world, group):
    pages, _ = client_for(app, as_role, tokens, "director", api=False)
    api, headers = client_for(app, as_role, tokens, "director", api=True)
    wrong = []
    for rule in app.url_map.iter_rules():
        blueprint = rule.endpoint.rpartition(".")[0]
        mine = blueprint == group or (group == "others" and blueprint not in BIG_ID_GROUPS)
        ints = [a for a in rule.arguments if isinstance(rule._converters[a], IntegerConverter)]
        if not mine or not ints or "GET" not in rule.methods:
            continue
        for big in BIG_IDS:
            url = rule.rule
            for arg in rule.arguments:
                url = re.sub(rf"<(?:[^:<>]+:)?{arg}>", big if arg in ints else "cardroom", url)
            client, extra = (api, headers) if url.startswith("/api/") else (pages, {})
            problem = bad(lambda: client.get(url, headers=extra))
            if problem:
                wrong.append(f"GET {url}: {problem}")
    assert not wrong, "\n".join(wrong)


#: The inputs issue 20 found still answering 500: each now answers 4xx with the reason.
DEEP_TOML = "a = " + "[" * 3000 + "]" * 3000
SPLIT_PROOF = {"issue": "split_openers", "found": "after_draw", "seat": 2, "final_hand": "As Ad Kc Qd 3h",
               "drawn": 1, "discards": "5c"}


def test_the_inputs_that_answered_500_answer_4xx_with_the_reason(app, as_role, tokens, world):
    client = app.test_client()
    director, floor, dealer = bearer(tokens["director"]), bearer(tokens["floor"]), bearer(tokens["dealer"])
    table = world["int"]
    sent = [
        ("a table for an event that does not exist", 422, "no event 999999",
         lambda: client.post("/api/tables", json={"name": "X", "event_id": 999999, **SETUP}, headers=director)),
        ("a table for event 2^63", 422, f"no event {2**63}",
         lambda: client.post("/api/tables", json={"name": "X", "event_id": 2**63, **SETUP}, headers=director)),
        ("a table for event 2^63 - 1", 422, f"no event {2**63 - 1}",
         lambda: client.post("/api/tables", json={"name": "X", "event_id": 2**63 - 1, **SETUP}, headers=director)),
        ("a ruling for table 2^63", 400, "'table_id' must be a whole number",
         lambda: client.post("/api/rulings", json={"facts": {"issue": "caller_refund"}, "table_id": 2**63},
                             headers=floor)),
        ("a ruling superseding 2^64", 400, "'supersedes' must be a whole number",
         lambda: client.post("/api/rulings", json={"facts": {"issue": "caller_refund"}, "supersedes": 2**64},
                             headers=floor)),
        ("a boolean opening_hand", 422, "not True",
         lambda: client.post("/api/rulings", json={"facts": {**SPLIT_PROOF, "opening_hand": True}}, headers=floor)),
        ("a number as opening_hand", 422, "not 7",
         lambda: client.post("/api/rulings", json={"facts": {**SPLIT_PROOF, "opening_hand": 7}}, headers=floor)),
        ("?after=³", 400, "'after' must be a whole number",
         lambda: client.get(f"/api/tables/{table}/events?after=%C2%B3", headers=dealer)),
        ("?limit=³ of the log", 400, "'limit' must be a whole number",
         lambda: client.get(f"/api/tables/{table}/events?limit=%C2%B3", headers=dealer)),
        ("?before=³", 400, "'before' must be a whole number",
         lambda: client.get(f"/api/tables/{table}/rulings?before=%C2%B3", headers=dealer)),
        ("?limit=² of the rulings", 400, "'limit' must be a whole number",
         lambda: client.get(f"/api/tables/{table}/rulings?limit=%C2%B2", headers=dealer)),
    ]
    wrong = []
    for what, status, words, send in sent:
        response = send()
        if response.status_code != status or words not in (response.json or {}).get("message", ""):
            wrong.append(f"{what}: {response.status_code} {response.get_data(as_text=True)[:120]}")
    pages = as_role("director")
    for url in ("/director/profiles/new", f"/director/profiles/{_house_id(app)}/edit"):
        response = pages.post(url, data={"name": "deep", "toml": DEEP_TOML})
        if response.status_code != 400 or "nested too deep" not in response.get_data(as_text=True):
            wrong.append(f"deep TOML at {url}: {response.status_code}")
    assert not wrong, "\n".join(wrong)


def _house_id(app) -> int:
    with app.app_context():
        return db.session.scalars(db.select(HouseProfile.id)).first()
