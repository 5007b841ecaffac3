"""The tablet's panel in the floor's words (issue 33): one deal number and one entry number as
every page has them, a won pot shown as won (no escrow, no count of the pot's deals, the winning
hand named), the false-openers report gone once the floor has ruled on the opener, a dead deal
thrown in with one tap (O3) where the rules allow it, rule ids followed by their titles."""

from __future__ import annotations

import re
import uuid

from floor.extensions import db
from floor.models import LogEntry
from tests.conftest import SETUP, csrf_token_from
from tests.test_dealer import buttons, log
from tests.test_dealer_panel_state import new_table, panel


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def logged(app, table_id) -> list[dict]:
    with app.app_context():
        return list(db.session.scalars(db.select(LogEntry.payload).where(LogEntry.table_id == table_id)
                                       .order_by(LogEntry.seq)))


SPLIT_WON = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
             {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2},
             {"type": "draw", "seat": 3, "count": 1, "split": True, "escrow": ["Jd"]}, {"type": "draw", "seat": 4, "count": 1},
             {"type": "check", "seat": 3}, {"type": "check", "seat": 4},
             {"type": "show", "seat": 3, "cards": ["Js", "8h", "7h", "6h", "3h"]},
             {"type": "show", "seat": 4, "cards": ["7s", "6d", "5c", "3c", "2h"]}]


def test_a_won_pot_shows_the_winner_and_the_hand_and_no_escrow_or_pot_count(app, dealer):
    """S2: the split opener proves openers with the escrow and wins the showdown; once the pot is
    won (its jack high beats seven high) the escrow and the pot's deal count are the finished
    deal's, not news."""
    table_id = new_table(app)
    log(dealer, table_id, *SPLIT_WON[:-2])
    before = panel(dealer, table_id)
    assert 'class="escrow"' in before  # in the deal: the escrowed jack is shown
    log(dealer, table_id, *SPLIT_WON[-2:])
    html = panel(dealer, table_id)
    award = text(re.search(r'id="award"[^>]*>(.*?)</div>', html, re.S).group(1))
    assert award == "Seat 3 · Cleo wins 40 with jack high, eight-seven-six-three"
    assert 'class="escrow"' not in html
    count = text(re.search(r'id="deal-count"[^>]*>(.*?)</span>', html, re.S).group(1))
    assert count == "Deal 1 · the pot was won: the next deal starts a new pot"
    assert "of this pot" not in html


def test_entries_are_numbered_from_1_as_on_every_page_and_an_undo_says_what_it_withdrew(app, dealer, as_role):
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "void", "event": 1})
    html = panel(dealer, table_id)
    tail = [text(li) for li in re.findall(r"<li[^>]*>(.*?)</li>", html, re.S)]
    assert tail == ["3 · undo: entry 2 withdrawn (seat 2 passes)", "2 · seat 2 passes withdrawn", "1 · deal"]
    assert "Undo entry 1: deal" in html
    api = dealer.get(f"/api/tables/{table_id}/events").json["events"]
    assert [e["seq"] for e in api] == [1, 2, 3]  # the API's seq is the number the tablet shows
    hand = as_role("floor").get(f"/floor/tables/{table_id}/hands/1").get_data(as_text=True)
    assert re.findall(r'<li value="(\d+)"', hand) == ["1", "2", "3"]  # the floor's hand page: the same numbers


def test_the_false_openers_report_is_gone_once_the_floor_has_ruled(app, as_role):
    """F2/F5: two callers, the opener's hand is ruled dead and the pot plays on: nothing is left to
    report about the opener in this deal. While a dealer's report waits for the floor it is not
    offered twice either."""
    dealer, floor = as_role("dealer"), as_role("floor")
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
        {"type": "call", "seat": 4}, {"type": "call", "seat": 1})
    assert "false_openers" in buttons(panel(dealer, table_id))
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    reported = dealer.post(f"/dealer/tables/{table_id}/taps", headers={"X-CSRFToken": token},
                           json={"event": {"type": "false_openers", "seat": 3}, "expected_version": 5})
    assert reported.status_code == 202
    assert "false_openers" not in buttons(reported.json["panel"])  # reported: the floor is on the way
    assert floor.post(f"/floor/calls/{reported.json['call']['id']}/confirm").status_code == 302
    html = panel(dealer, table_id)
    assert "Ruling #" in html and "false_openers" not in buttons(html)
    assert "false_openers" not in buttons(panel(floor, table_id))


def test_a_dead_deal_is_thrown_in_with_one_tap_all_passes_logged_together(app, dealer):
    """O3: nobody opens. One tap logs the pass of every seat still to speak, as one transaction;
    sent again (its tap id) it is not logged twice."""
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = panel(dealer, table_id)
    offer = re.search(r"data-events='([^']*)'[^>]*>([^<]*)</button>", html)
    assert offer and offer.group(2) == "Nobody opens: seats 3, 4, 1 pass"
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    tap_id = str(uuid.uuid4())
    body = {"events": [{"type": "pass", "seat": s} for s in (3, 4, 1)], "expected_version": 2, "tap_id": tap_id}
    done = dealer.post(f"/dealer/tables/{table_id}/taps", json=body, headers={"X-CSRFToken": token})
    assert done.status_code == 201, done.json
    assert [e["seq"] for e in done.json["entries"]] == [3, 4, 5] and done.json["state"]["phase"] == "between_deals"
    assert done.json["state"]["pot"] == 20 and "carries to the next deal" in done.json["state"]["message"]
    again = dealer.post(f"/dealer/tables/{table_id}/taps", json=body, headers={"X-CSRFToken": token})
    assert again.status_code == 200 and again.json["entry"]["seq"] == 5
    assert logged(app, table_id)[2:] == [{"type": "pass", "seat": s} for s in (3, 4, 1)]


def test_several_events_are_logged_all_or_none(app, dealer):
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"})
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    body = {"events": [{"type": "pass", "seat": 2}, {"type": "pass", "seat": 4}], "expected_version": 1}
    refused = dealer.post(f"/dealer/tables/{table_id}/taps", json=body, headers={"X-CSRFToken": token})
    assert refused.status_code == 422 and "seat 4" in refused.json["message"]
    assert logged(app, table_id) == [{"type": "deal"}]  # the first pass was not kept either
    floor_word = {"events": [{"type": "false_openers", "seat": 2}], "expected_version": 1}
    assert dealer.post(f"/dealer/tables/{table_id}/taps", json=floor_word,
                       headers={"X-CSRFToken": token}).status_code == 400
    assert dealer.post(f"/dealer/tables/{table_id}/taps", json={"events": "pass", "expected_version": 1},
                       headers={"X-CSRFToken": token}).status_code == 400


def test_no_throw_in_where_the_passes_do_not_end_the_deal(app, dealer):
    """D10 jacks back: if nobody opens the same hands play for low, so the passes do not throw the
    deal in and the tablet offers no shortcut; nor once the pot is open."""
    table_id = new_table(app, {**SETUP, "profile": {"base": "cardroom", "jacks_back": True}})
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    assert "throw_in" not in buttons(panel(dealer, table_id))
    table_id = new_table(app)
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2})
    assert "throw_in" not in buttons(panel(dealer, table_id))


def test_a_refusal_on_the_tablet_names_the_rule_in_words(app, dealer):
    table_id = new_table(app, {**SETUP, "profile": {"base": "cardroom", "max_draw": 3}})
    log(dealer, table_id, {"type": "deal"}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3},
        {"type": "call", "seat": 4}, {"type": "call", "seat": 1})
    token = csrf_token_from(dealer.get(f"/dealer/tables/{table_id}").data)
    refused = dealer.post(f"/dealer/tables/{table_id}/taps", headers={"X-CSRFToken": token},
                          json={"event": {"type": "draw", "seat": 2, "count": 5}, "expected_version": 5})
    assert refused.status_code == 422
    assert "(rule D2, the draw)" in refused.json["message"], refused.json["message"]
