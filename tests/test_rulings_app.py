"""The floor side of rulings: the dispute walk, issuing, applying to a table, the API, the seal.

Real SQLite through the app fixture and the real rules; nothing is mocked.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, LogEntry, Table, User
from rules.rulings import FACTS
from tests.conftest import PASSWORD, SETUP, bearer, csrf_token_from

OPENED = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4}]

# A false opening found before the draw, with one caller and nobody raising: the pot plays only if
# someone reopens. Cardroom and foster read it differently (F2-F5 against F9).
FALSE_OPENERS = {
    "issue": "false_openers", "found": "before_draw", "opener": 3, "opener_all_in": False,
    "action_complete_before_draw": True, "raise_before_draw": False, "callers": 2,
    "opener_bets": [10], "bets": {"1": 10, "4": 10}, "passed": [2], "active": [1, 3, 4],
    "drawn_to": False,
}


def make_table(app, events=OPENED, setup=SETUP, name="Table 1"):
    with app.app_context():
        table = tables.create_table(name, setup)
        for event in events:
            tables.append(table, event, None)
        return table.id


def chips_on_table(state):
    return sum(s["stack"] for s in state["seats"].values()) + state["pot"]


def state_of(app, table_id):
    with app.app_context():
        return tables.state_of(db.session.get(Table, table_id))


def asked(html: str) -> str | None:
    match = re.search(r'name="fact" value="([^"]+)"', html)
    return match.group(1) if match else None


def hidden(html: str) -> dict[str, str]:
    """Every hidden field of the walk's form (the facts so far ride in them)."""
    fields = {}
    for m in re.finditer(r'<input[^>]*type="hidden"[^>]*>', html):
        tag = m.group(0)
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1) not in ("step", "fact"):
            fields[name.group(1)] = (value.group(1) if value else "").replace("&#34;", '"').replace("&quot;", '"')
    return fields


def walk(client, start_url, answers):
    """Answer the tree one question at a time from ``answers``; returns (questions asked, last page)."""
    page = client.get(start_url)
    assert page.status_code == 200, page.data
    questions = []
    while (fact := asked(page.get_data(as_text=True))) is not None:
        questions.append(fact)
        assert fact in answers, f"unexpected question {fact}: {questions}"
        data = hidden(page.get_data(as_text=True)) | {"step": "answer", "fact": fact}
        value = answers[fact]
        if isinstance(value, dict):
            data |= {f"answer-{k}": v for k, v in value.items()}
        else:
            data["answer"] = value
        page = client.post("/rulings/new", data=data)
        assert page.status_code == 200, page.get_data(as_text=True)
    return questions, page


# --------------------------------------------------------------------------- the walk


def test_a_dispute_by_hand_is_asked_one_question_at_a_time_then_previewed_and_issued(app, as_role):
    client = as_role("floor")
    questions, page = walk(client, "/rulings/new?profile=cardroom", {
        "issue": "false_openers", "found": "before_draw", "opener": "3", "opener_all_in": "no",
        "action_complete_before_draw": "no", "raise_before_draw": "no", "callers": "1",
        "passed": "2", "active": "1 3 4", "reopener": "none", "opener_bets": "10", "bets": "1: 0, 4: 10",
    })
    assert questions[:3] == ["issue", "found", "opener_all_in"] and "opener" in questions
    assert "reopener" in questions and questions.index("passed") < questions.index("reopener")
    html = page.get_data(as_text=True)
    assert "The ruling, before it is issued" in html and "POT_CARRIES_OVER" in html
    assert "Issue this ruling" in html
    # the outcome code is the app's word: in the preview too it stands only under "Evidence"
    assert html.index("<h2>Evidence</h2>") < html.index("POT_CARRIES_OVER")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0  # a preview stores nothing

    issued = client.post("/rulings/new", data=hidden(html) | {"step": "issue", "note": "seat 4 asked"})
    assert issued.status_code == 302 and issued.location.endswith("/rulings/1")
    with app.app_context():
        row = db.session.get(IssuedRuling, 1)
        assert row.outcome == "POT_CARRIES_OVER" and row.table_id is None and row.intact
        assert row.facts["reopener"] is None and row.record["returns"] == {"4": 10}
        assert row.issued_by.username == "fred" and row.note == "seat 4 asked"
    shown = client.get("/rulings/1").get_data(as_text=True)
    assert "POT_CARRIES_OVER" in shown and "F4" in shown and "matches the stored content" in shown
    evidence = shown.split("<h2>Evidence</h2>", 1)[1]
    assert "POT_CARRIES_OVER" not in shown.split("<h2>Evidence</h2>", 1)[0] and "matches the stored content" in evidence


def test_card_errors_and_unreadable_answers_come_back_in_place(app, as_role):
    client = as_role("floor")
    page = client.get("/rulings/new?profile=cardroom&issue=opener_cannot_show")
    html = page.get_data(as_text=True)
    assert asked(html) == "opening_hand"
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "opening_hand",
                                                            "answer": "Js Jh Zz 4d 2c"})
    text_ = page.get_data(as_text=True)
    assert page.status_code == 400 and "Zz" in text_ and 'class="field-error"' in text_
    assert asked(text_) == "opening_hand"  # the same question again, nothing lost
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "opening_hand",
                                                            "answer": "Js jh 7c 4d Jk"})
    html = page.get_data(as_text=True)
    assert asked(html) == "opener" and "Js Jh 7c 4d Jk" in html  # canonical card text
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "opener", "answer": "three"})
    assert page.status_code == 400 and "whole number" in page.get_data(as_text=True)
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "opener", "answer": "3"})
    assert "OPENER_PROVED" in page.get_data(as_text=True)


def test_a_fact_can_be_changed_and_is_asked_again(app, as_role):
    client = as_role("floor")
    _, page = walk(client, "/rulings/new?profile=cardroom", {"issue": "caller_refund", "seat": "5"})
    html = page.get_data(as_text=True)
    assert "CALLER_NOT_REFUNDED" in html
    page = client.post("/rulings/new", data=hidden(html) | {"step": "issue", "drop": "seat"})
    assert asked(page.get_data(as_text=True)) == "seat"


def test_issuing_with_csrf_on_needs_the_token_from_the_page(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").data)
    assert client.post("/login", data={"username": "fred", "password": PASSWORD,
                                       "csrf_token": token}).status_code == 302
    page = client.get("/rulings/new?profile=cardroom&issue=caller_refund&seat=4")
    html = page.get_data(as_text=True)
    assert "CALLER_NOT_REFUNDED" in html
    fields = hidden(html)
    token = csrf_token_from(page.data)
    without = {k: v for k, v in fields.items() if k != "csrf_token"} | {"step": "issue"}
    assert client.post("/rulings/new", data=without).status_code == 400
    with csrf_app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0
    done = client.post("/rulings/new", data=without | {"csrf_token": token})
    assert done.status_code == 302 and done.location.endswith("/rulings/1")


def test_only_the_floor_issues_but_every_role_reads(app, as_role):
    make_table(app)
    floor = as_role("floor")
    floor.post("/rulings/new", data={"step": "issue", "profile": "cardroom", "fact-issue": '"caller_refund"',
                                     "fact-seat": "4"})
    dealer = as_role("dealer")
    assert dealer.get("/rulings/new?table=1").status_code == 403
    assert dealer.post("/rulings/new", data={"step": "issue"}).status_code == 403
    assert dealer.get("/rulings/1").status_code == 200
    assert dealer.get("/rulings/1/verify").status_code == 200
    assert dealer.get("/rulings/1.pdf").mimetype == "application/pdf"
    assert "Correct this ruling" not in dealer.get("/rulings/1").get_data(as_text=True)
    stranger = app.test_client()
    assert stranger.get("/rulings/1").status_code == 302
    assert dealer.get("/rulings/99").status_code == 404
    assert "There is no ruling #99" in dealer.get("/rulings/99").get_data(as_text=True)


def test_bad_links_give_plain_words_not_tracebacks(app, as_role):
    client = as_role("floor")
    assert client.get("/rulings/new?table=7").status_code == 404
    assert client.get("/rulings/new?table=x").status_code == 404
    page = client.get("/rulings/new?profile=nosuch")
    assert page.status_code == 400 and "nosuch" in page.get_data(as_text=True)
    page = client.get("/rulings/new?profile=cardroom&issue=bluffing")
    assert page.status_code == 400 and "bluffing" in page.get_data(as_text=True)
    page = client.post("/rulings/new", data={"step": "answer", "fact": "opener", "fact-issue": "{not json"})
    assert page.status_code == 400 and "Traceback" not in page.get_data(as_text=True)


# --------------------------------------------------------------------------- tables


def test_false_openers_at_a_table_log_the_engines_event_and_keep_the_chips(app, as_role):
    table_id = make_table(app, OPENED + [{"type": "call", "seat": 1}])
    before = state_of(app, table_id)
    client = as_role("floor")
    page = client.get(f"/rulings/new?table={table_id}&issue=false_openers")
    html = page.get_data(as_text=True)
    assert "Log false openers and rule" in html and "POT_PLAYS_OPENER_DEAD" in html
    done = client.post("/rulings/new", data=hidden(html) | {"step": "engine", "version": "5"})
    assert done.status_code == 302 and done.location.endswith("/rulings/1")
    after = state_of(app, table_id)
    assert chips_on_table(after) == chips_on_table(before)
    assert after["seats"][3]["status"] == "dead" and before["seats"][3]["status"] == "active"
    with app.app_context():
        row = db.session.get(IssuedRuling, 1)
        assert row.table_id == table_id and row.log_seq == 6 and row.intact
        entry = db.session.scalars(db.select(LogEntry).where(LogEntry.seq == 6)).one()
        assert entry.payload == {"type": "false_openers", "seat": 3}
    shown = client.get("/rulings/1").get_data(as_text=True)
    assert "Cleo" in shown and "by the rules engine when the event was logged" in shown


def test_false_openers_with_a_reopen_offer_leave_the_ruling_to_the_offer(app, as_role):
    table_id = make_table(app)
    client = as_role("floor")
    html = client.get(f"/rulings/new?table={table_id}&issue=false_openers").get_data(as_text=True)
    assert "may" in html and "reopen" in html
    done = client.post("/rulings/new", data=hidden(html) | {"step": "engine"}, follow_redirects=True)
    assert "may now reopen the pot in turn" in done.get_data(as_text=True)
    assert "reopen offer pending" in done.get_data(as_text=True)  # the floor page marks the table
    assert state_of(app, table_id)["reopen"]["eligible"] == [4, 1]


def test_a_dispute_settled_by_hand_at_a_table_is_logged_as_a_ruling_event(app, as_role):
    table_id = make_table(app)
    before = state_of(app, table_id)
    client = as_role("floor")
    questions, page = walk(client, f"/rulings/new?table={table_id}&issue=false_openers&by_hand=1",
                           {"reopener": "none"})
    assert questions == ["reopener"]  # every other fact came from the log
    html = page.get_data(as_text=True)
    assert "POT_CARRIES_OVER" in html and "the table&#39;s log" in html
    done = client.post("/rulings/new", data=hidden(html) | {"step": "issue", "apply": "y"})
    assert done.status_code == 302
    after = state_of(app, table_id)
    assert chips_on_table(after) == chips_on_table(before)
    assert after["phase"] == "between_deals" and after["seats"][4]["stack"] == before["seats"][4]["stack"] + 10
    with app.app_context():
        row = db.session.get(IssuedRuling, 1)
        entry = db.session.scalars(db.select(LogEntry).where(LogEntry.seq == row.log_seq)).one()
        assert entry.payload["type"] == "ruling" and entry.payload["id"] == row.id
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 1  # stored once, not twice


def test_the_issue_question_at_a_table_fills_in_the_log(app, as_role):
    table_id = make_table(app, OPENED + [{"type": "call", "seat": 1}])
    client = as_role("floor")
    html = client.get(f"/rulings/new?table={table_id}").get_data(as_text=True)
    assert asked(html) == "issue"
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "issue",
                                                            "answer": "false_openers"})
    assert "Log false openers and rule" in page.get_data(as_text=True)


def test_a_ruling_the_table_refuses_is_not_stored(app, as_role):
    table_id = make_table(app, [])  # between deals: a ruling has no deal to apply to
    client = as_role("floor")
    _, page = walk(client, f"/rulings/new?table={table_id}&issue=caller_refund&seat=2", {})
    done = client.post("/rulings/new", data=hidden(page.get_data(as_text=True)) | {"step": "issue", "apply": "y"})
    assert done.status_code == 400 and "Not issued" in done.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0
        assert db.session.get(Table, table_id).version == 0


# --------------------------------------------------------------------------- corrections and the seal


def test_a_correction_names_the_ruling_it_supersedes(app, as_role):
    client = as_role("floor")
    _, page = walk(client, "/rulings/new?profile=cardroom", {"issue": "wrong_card_count", "found": "after_draw",
                                                            "seat": "2", "card_count": "6"})
    client.post("/rulings/new", data=hidden(page.get_data(as_text=True)) | {"step": "issue"})
    start = client.get("/rulings/1/correct")
    assert start.status_code == 302 and "supersedes=1" in start.location
    html = client.get(start.location).get_data(as_text=True)
    assert "HAND_DEAD_CARD_COUNT" in html and "correcting" in html  # prefilled: straight to the preview
    changed = client.post("/rulings/new", data=hidden(html) | {"step": "issue", "drop": "found"})
    html = changed.get_data(as_text=True)
    assert asked(html) == "found"
    page = client.post("/rulings/new", data=hidden(html) | {"step": "answer", "fact": "found",
                                                            "answer": "before_draw"})
    html = page.get_data(as_text=True)
    assert "CARD_COUNT_CORRECTED" in html
    done = client.post("/rulings/new", data=hidden(html) | {"step": "issue"})
    assert done.location.endswith("/rulings/2")
    with app.app_context():
        assert db.session.get(IssuedRuling, 2).supersedes_id == 1
        assert db.session.get(IssuedRuling, 1).superseded_by.id == 2
    old = client.get("/rulings/1").get_data(as_text=True)
    assert "SUPERSEDED" in old and "/rulings/2" in old
    again = client.get("/rulings/1/correct")
    assert again.location.endswith("/rulings/2")  # the old one is corrected once only


def test_verify_reports_a_ruling_altered_in_the_database(app, as_role):
    client = as_role("floor")
    client.post("/rulings/new", data={"step": "issue", "profile": "cardroom", "fact-issue": '"caller_refund"',
                                      "fact-seat": "4"})
    page = client.get("/rulings/1/verify").get_data(as_text=True)
    assert "MATCHES" in page and "DOES NOT MATCH" not in page
    with app.app_context():
        db.session.execute(text("UPDATE rulings SET facts = :f WHERE id = 1"), {"f": '{"issue": "caller_refund", "seat": 5}'})
        db.session.commit()
    page = client.get("/rulings/1/verify").get_data(as_text=True)
    assert "DOES NOT MATCH" in page
    with app.app_context():
        db.session.execute(text("UPDATE rulings SET facts = :f, record = replace(record, 'F10', 'F1') WHERE id = 1"),
                           {"f": '{"issue": "caller_refund", "seat": 4}'})
        db.session.commit()
    assert "DOES NOT MATCH" in client.get("/rulings/1/verify").get_data(as_text=True)


# --------------------------------------------------------------------------- the API


def test_api_issues_stores_and_reads_back(app, tokens):
    client = app.test_client()
    resp = client.post("/api/rulings", json={"facts": FALSE_OPENERS, "note": "by phone"},
                       headers=bearer(tokens["floor"]))
    assert resp.status_code == 201, resp.json
    body = resp.json
    assert body["id"] == 1 and body["outcome"] == "POT_PLAYS_OPENER_DEAD" and body["profile"] == "cardroom"
    for key in ("path", "citations", "dead", "returns", "pot_plays", "may_reopen", "barred", "ante_for_all",
                "winner", "summary"):
        assert key in body
    assert body["pdf_url"] == "/rulings/1.pdf" and len(body["digest"]) == 64 and body["intact"]
    got = client.get("/api/rulings/1", headers=bearer(tokens["dealer"]))
    assert got.status_code == 200 and got.json["digest"] == body["digest"] and got.json["note"] == "by phone"


def test_api_cardroom_and_foster_rule_false_openers_differently(app, tokens):
    client = app.test_client()
    outcomes = {}
    for profile in ("cardroom", "foster"):
        resp = client.post("/api/rulings", json={"facts": FALSE_OPENERS, "profile": profile},
                           headers=bearer(tokens["floor"]))
        assert resp.status_code == 201, resp.json
        outcomes[profile] = (resp.json["outcome"], resp.json["profile"], resp.json["citations"])
    assert outcomes["cardroom"][0] == "POT_PLAYS_OPENER_DEAD" and outcomes["cardroom"][1] == "cardroom"
    assert outcomes["foster"][0] == "FOSTER_FORFEIT" and outcomes["foster"][1] == "foster"
    assert "F9" in outcomes["foster"][2] and "F9" not in outcomes["cardroom"][2]


def test_api_applies_to_a_table_with_facts_from_its_log(app, tokens):
    table_id = make_table(app)
    before = state_of(app, table_id)
    client = app.test_client()
    resp = client.post("/api/rulings", json={"facts": {"issue": "false_openers", "reopener": None},
                                             "table_id": table_id, "apply": True},
                       headers=bearer(tokens["floor"]))
    assert resp.status_code == 201, resp.json
    assert resp.json["outcome"] == "POT_CARRIES_OVER" and resp.json["log_seq"] == 5
    after = state_of(app, table_id)
    assert chips_on_table(after) == chips_on_table(before) and after["phase"] == "between_deals"
    assert after["rulings"][-1]["id"] == resp.json["id"]


def test_api_missing_fact_is_422_naming_it(app, tokens):
    resp = app.test_client().post("/api/rulings", json={"facts": {"issue": "false_openers", "found": "before_draw"}},
                                  headers=bearer(tokens["floor"]))
    assert resp.status_code == 422
    assert resp.json["missing"] == "opener_all_in"
    assert resp.json["question"] == FACTS["opener_all_in"].question and "opener_all_in" in resp.json["message"]


@pytest.mark.parametrize("body, status, words", [
    ({"facts": "issue=false_openers"}, 400, "'facts' must be a JSON object"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "apply": "yes"}, 400, "'apply'"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "colour": "red"}, 400, "unknown field"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "table_id": 9}, 404, "no table 9"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "supersedes": 9}, 404, "no ruling #9"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "apply": True}, 400, "only a ruling for a table"),
    ({"facts": {"issue": "caller_refund", "seat": 2}, "profile": "nosuch"}, 400, "nosuch"),
    ({"facts": {"issue": "caller_refund", "seat": "two"}}, 422, "seat"),
    ({"facts": {"issue": "bluffing"}}, 422, "bluffing"),
])
def test_api_bad_input_is_a_4xx_with_a_message_and_stores_nothing(app, tokens, body, status, words):
    resp = app.test_client().post("/api/rulings", json=body, headers=bearer(tokens["floor"]))
    assert resp.status_code == status, resp.json
    assert words in resp.json["message"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0


def test_api_refused_application_leaves_nothing_half_written(app, tokens):
    table_id = make_table(app, [])
    resp = app.test_client().post(
        "/api/rulings", json={"facts": {"issue": "caller_refund", "seat": 2}, "table_id": table_id, "apply": True},
        headers=bearer(tokens["floor"]))
    assert resp.status_code == 422 and "there is none to rule on" in resp.json["message"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IssuedRuling.id))) == 0
        assert db.session.scalar(db.select(db.func.count(LogEntry.id))) == 0


def test_api_roles(app, tokens):
    client = app.test_client()
    body = {"facts": {"issue": "caller_refund", "seat": 2}}
    assert client.post("/api/rulings", json=body).status_code == 401
    assert client.post("/api/rulings", json=body, headers=bearer(tokens["dealer"])).status_code == 403
    assert client.post("/api/rulings", json=body, headers=bearer(tokens["director"])).status_code == 201
    assert client.get("/api/rulings/1").status_code == 401
    assert client.get("/api/rulings/2", headers=bearer(tokens["dealer"])).status_code == 404


def test_a_ruling_names_the_player_who_sat_in_the_seat_when_it_was_logged(app, as_role):
    """Eve sat down at seat 5 during the night (not in the starting line-up) and opened without
    openers; the floor's ruling kills her hand. Its page and print named the seats from the line-up:
    "5 · — · hand dead". Then the deal ends, Eve leaves and Zed takes seat 5: the ruling still names Eve."""
    log = [{"type": "sit", "seat": 5, "player": "Eve", "chips": 500}, {"type": "deal"},
           {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}, {"type": "pass", "seat": 4},
           {"type": "open", "seat": 5}, {"type": "call", "seat": 1}, {"type": "call", "seat": 2}]
    table_id = make_table(app, log)
    with app.app_context():
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        tables.append(db.session.get(Table, table_id), {"type": "false_openers", "seat": 5}, fred)
        ruling_id = db.session.scalars(db.select(IssuedRuling.id).where(IssuedRuling.table_id == table_id)).one()
    floor = as_role("floor")

    def who_gets_what() -> str:
        html = floor.get(f"/rulings/{ruling_id}").get_data(as_text=True)
        return re.search(r"<h2>Who gets what</h2>(.*?)</table>", html, re.S).group(1)

    assert "<td>5</td><td>Eve</td>" in who_gets_what()
    # seats 3 and 4 fold, seats 2 and 1 stand pat, seat 1 bets and seat 2 folds: seat 5 changes hands
    with app.app_context():
        table = db.session.get(Table, table_id)
        for event in ({"type": "fold", "seat": 3}, {"type": "fold", "seat": 4}, {"type": "draw", "seat": 2, "count": 0},
                      {"type": "draw", "seat": 1, "count": 0}, {"type": "bet", "seat": 1}, {"type": "fold", "seat": 2},
                      {"type": "leave", "seat": 5}, {"type": "sit", "seat": 5, "player": "Zed", "chips": 300}):
            tables.append(table, event, None)
        assert tables.table_state(table).seats[5].player == "Zed"
    shown = who_gets_what()
    assert "<td>5</td><td>Eve</td>" in shown and "Zed" not in shown
