"""One place per concept (issue 23): an event type and a dispute kind are each declared once, and
everything else (the floor's role checks, the engine's dispatch, the log's words, the state's
requests, the tablet, the tree's first question, the dealer's call for the floor) is derived.

The two kinds added to show it, each in at most three files of the app:
- the event ``wrong_count`` {seat, count} (D8, H6): a hand found holding the wrong number of cards
  during a deal is ruled by the tree (dead after the draw; before it as the house rule says);
- the dispute ``show_order`` (D6): who shows first at the showdown.
"""

from __future__ import annotations

import pathlib
import random
import re
from dataclasses import dataclass

import pytest

import rules.jackpot.events as ev
from floor import tables
from floor.rulings.issues import ISSUES
from rules import IllegalAction
from rules.jackpot import start
from rules.jackpot.disputes import ISSUES as DISPUTE_ISSUES
from rules.jackpot.requests import WrongCountMove
from rules.rulings import DISPUTES, FACTS, Issue, build_tree, resolve
from tests.conftest import SETUP, bearer
from tests.test_dealer import buttons, log
from tests.walks import Cards, event_for, legal_moves

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEATS4 = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
          "seats": [{"seat": s, "player": p, "stack": 500} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di"))]}


# ---------------------------------------------------------------- the registry is complete


def test_every_event_type_declares_a_label_a_role_and_a_handler():
    """The registry's own check: no event type lacks a label, a handler, or (for a move beside the
    turn) the seats it may concern; every one names who may log it."""
    assert ev.incomplete() == {}
    assert set(ev.EVENTS) == set(ev.EVENT_TYPES) and "wrong_count" in ev.EVENTS
    for kind, cls in ev.EVENTS.items():
        assert cls.by in (ev.Who.DEALER, ev.Who.FLOOR), kind
        assert cls.kind == kind


def test_an_event_type_declared_without_role_label_or_handler_is_caught():
    """Adding an event type without saying who may log it, or without its label or handler, fails the
    registry's check, naming what is missing (and a move beside the turn without its seats)."""

    @dataclass(frozen=True)
    class Shuffle(ev.SeatEvent):
        kind = "test_shuffle"
        ask = ev.Ask("A shuffle", "Seat {seat} shuffles")

    try:
        missing = ev.incomplete({"test_shuffle": Shuffle})
        assert missing == {"test_shuffle": ["who may log it (by)", "a label (said, or words)",
                                            "its check, may it happen now (@may)", "a handler (@handles)"]}
        assert "test_shuffle" in ev.incomplete()  # the live registry sees it too
    finally:
        ev.EVENTS.pop("test_shuffle")
    assert ev.incomplete() == {}


def test_the_floor_reads_who_may_log_from_the_declarations():
    """floor.tables' role checks are the declarations' ``by`` and ``floor_act``: a ruling, a
    correction and false openers are the floor's word; the seating events are the floor's acts."""
    assert tables.FLOOR_EVENTS == {k for k, c in ev.EVENTS.items() if c.by is ev.Who.FLOOR} == {
        "ruling", "correction", "false_openers"}
    assert tables.FLOOR_ACTS == tables.FLOOR_EVENTS | {"sit", "leave", "move_seat", "add_chips", "sit_out", "sit_in"}
    assert "wrong_count" not in tables.FLOOR_EVENTS  # a dealer logs it; the tree's ruling waits for the floor


def test_every_dispute_kind_is_derived_everywhere():
    """The fact ``issue``, the Issue enum, the tree's first question, the dealer's call and the
    dispute's facts read from the log are all the declared kinds, in one order."""
    issues = [k.issue for k in DISPUTES]
    assert list(FACTS["issue"].choices) == issues == [i.value for i in Issue] == list(DISPUTE_ISSUES)
    assert list(ISSUES) == issues and ISSUES["show_order"] == "Who shows first"
    for profile in ("cardroom", "pagat", "foster"):
        assert [b.key for b in build_tree(profile).root.branches] == issues
    for kind in DISPUTES:
        for spec in kind.facts:  # a kind's own facts are asked by the tree like any other
            assert FACTS[spec.name] is spec


def test_the_app_names_neither_new_kind():
    """The two kinds added for issue 23 are named nowhere in floor/, templates/ or the tablet's
    scripts: the app derives them (their whole footprint is rules/ and the tests)."""
    for folder in ("floor", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html", ".js"):
                text = path.read_text(encoding="utf-8")
                assert "wrong_count" not in text and "show_order" not in text, path


# ---------------------------------------------------------------- the new event: wrong_count (D8)


def test_d8_wrong_count_after_the_draw_kills_the_hand_and_play_goes_on():
    """D8, H6: a hand of six cards found after the draw is dead; the others play on, and the
    tree's ruling is logged with the deal."""
    t = start(SEATS4)
    for e in ({"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
              {"type": "call", "seat": 4}, {"type": "call", "seat": 1}, {"type": "call", "seat": 2},
              {"type": "draw", "seat": 2, "count": 3}):
        t = t.apply(e)
    t = t.apply({"type": "wrong_count", "seat": 2, "count": 6})
    state = t.to_dict()
    assert state["seats"][2]["status"] == "dead"
    ruling = state["rulings"][-1]
    assert (ruling["outcome"], ruling["citations"]) == ("HAND_DEAD_CARD_COUNT", ["H6", "D8"])
    assert state["phase"] == "draw" and state["to_act"] == 3  # the draw goes on without seat 2
    assert state["last_event"] == {"type": "wrong_count", "seat": 2, "count": 6}
    assert ev.event_words(state["last_event"], {2: "Bob"}) == "seat 2 (Bob) holds 6 cards (D8)"


@pytest.mark.parametrize(("profile", "status", "outcome"), [
    ("cardroom", "active", "CARD_COUNT_CORRECTED"),  # D8 option: the hand is put right
    ("foster", "dead", "HAND_DEAD_CARD_COUNT"),      # D8 option: the hand is dead
])
def test_d8_wrong_count_before_the_draw_follows_the_house_rule(profile, status, outcome):
    t = start({**SEATS4, "profile": profile}).apply({"type": "deal"})
    seat = t.to_act
    t = t.apply({"type": "wrong_count", "seat": seat, "count": 4})
    state = t.to_dict()
    assert state["seats"][seat]["status"] == status
    assert state["rulings"][-1]["outcome"] == outcome and "D8" in state["rulings"][-1]["citations"]


def test_d8_wrong_count_refusals_name_the_rule():
    t = start(SEATS4)
    with pytest.raises(IllegalAction, match=r"no live hand .*\(D8\)"):
        t.apply({"type": "wrong_count", "seat": 2, "count": 6})  # between deals
    t = t.apply({"type": "deal"})
    with pytest.raises(IllegalAction, match=r"5 cards is the right number.*\(D8\)"):
        t.apply({"type": "wrong_count", "seat": 2, "count": 5})
    with pytest.raises(IllegalAction, match="say how many cards"):
        t.apply({"type": "wrong_count", "seat": 2})
    assert {"type": "wrong_count", "seats": [1, 2, 3, 4], "counts": [1, 2, 3, 4, 6, 7, 8, 9, 10]} in t.to_dict()["requests"]


def test_d8_wrong_count_in_many_real_hands_conserves_chips_and_kills_after_the_draw():
    """Real shuffled decks, many hands: at random moments a live hand is found the wrong size. The
    ruling always cites D8; after the seat's draw the hand is dead (H6, D8); before it the cardroom
    puts it right; the table is never stuck and no chip is lost."""
    rulings = 0
    for seed in range(40):
        rng = random.Random(seed)
        t = start(SEATS4)
        cards = Cards(rng, t.profile)
        for _ in range(60):
            state = t.to_dict()
            found = [r for r in t.requests() if isinstance(r, WrongCountMove)]
            if found and rng.random() < 0.08:
                seat, count = rng.choice(found[0].seats), rng.choice(found[0].counts)
                after_draw = state["seats"][seat]["drawn"] is not None or state["phase"] in ("postdraw", "showdown")
                t = t.apply(found[0].event(seat, count))
                ruling, rulings = t.to_dict()["rulings"][-1], rulings + 1
                assert "D8" in ruling["citations"]
                assert ruling["outcome"] == ("HAND_DEAD_CARD_COUNT" if after_draw else "CARD_COUNT_CORRECTED")
            else:
                event = event_for(rng, state, rng.choice(legal_moves(t)), cards)
                t = t.apply(event)
                if isinstance(event, ev.Deal):
                    cards.deal(t.to_dict())
            after = t.to_dict()
            assert after["legal"]
            total = sum(s["stack"] for s in after["seats"].values()) + after["pot"]
            assert total == 2000 + after["ledger"]["chips_in"] - after["ledger"]["chips_out"]
    assert rulings > 20


def test_the_tablet_offers_wrong_count_from_the_declaration(dealer, table_id):
    """The request folds under the line its type declares: one form whose seat is picked from the
    live hands and whose count from the engine's list; posted as the page posts it (the fields as
    text), the tree rules (D8)."""
    log(dealer, table_id, {"type": "deal"})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "A hand of the wrong number of cards (D8)" in html
    form = re.search(r'<form class="wrong_count" data-event=\'\{"type": "wrong_count"\}\'>(.*?)</form>', html, re.S)
    assert form is not None and form.group(1).count("<form") == 0
    seats, counts = (re.findall(r"<option>(\d+)</option>", part) for part in form.group(1).split('name="count"'))
    assert seats == ["1", "2", "3", "4"] and counts == ["1", "2", "3", "4", "6", "7", "8", "9", "10"]
    assert "wrong_count" not in buttons(html)  # forms, not buttons on the turn's row
    response = log(dealer, table_id, {"type": "wrong_count", "seat": "3", "count": "6"})
    state = response.json["state"]
    assert state["rulings"][-1]["outcome"] == "CARD_COUNT_CORRECTED" and state["seats"]["3"]["status"] == "active"
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "seat 3 holds 6 cards (D8)" in html  # the log's words are the type's label


# ---------------------------------------------------------------- the new dispute kind: show_order (D6)


def test_d6_show_order_names_who_shows_first():
    r = resolve({"issue": "show_order", "last_bettor": 4})
    assert (r.outcome, r.citations, r.pot_plays, r.dead) == ("SHOWS_FIRST", ("D6",), True, ())
    assert "Seat 4 made the last bet or raise" in r.summary
    r = resolve({"issue": "show_order", "last_bettor": None, "opener": 3}, "foster")
    assert r.leaf == "so_opener" and "Seat 3 opened the pot and shows first" in r.summary and r.opener == 3


def test_d6_show_order_through_the_api_and_the_floor_page(app, tokens, as_role):
    """The floor's API rules it; the dispute page asks the kind's own fact; the dealer may call the
    floor for it: none of them names the kind."""
    client = app.test_client()
    resp = client.post("/api/rulings", json={"facts": {"issue": "show_order"}}, headers=bearer(tokens["floor"]))
    assert resp.status_code == 422 and "last_bettor" in resp.json["message"]
    resp = client.post("/api/rulings", json={"facts": {"issue": "show_order", "last_bettor": "2"}},
                       headers=bearer(tokens["floor"]))
    assert resp.status_code == 201, resp.json
    assert resp.json["outcome"] == "SHOWS_FIRST" and resp.json["citations"] == ["D6"]
    page = as_role("floor").get("/rulings/new?issue=show_order").get_data(as_text=True)
    assert "Which seat made the last bet or raise of the final betting round?" in page
    with app.app_context():
        table_id = tables.create_table("Table 9", SETUP).id
    call = as_role("dealer").get(f"/dealer/tables/{table_id}/call-floor").get_data(as_text=True)
    assert "Who shows first" in call
