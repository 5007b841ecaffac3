"""The promotions (issue 32, contract part four): the pools the drops fund across the room
(``GET /api/promotions``), the floor's award checked against the hand the log holds
(``POST /api/promotions/<id>/award``), the pool paid whole and begun again, the page and the shift
report (docs/house.md, "Promotions")."""

from __future__ import annotations

import pytest

from rules.house import read_drop
from rules.reports.promotions import AwardRefused, check_award
from rules.hands import HandRules
from rules.reports.hand_history import hands
from tests.conftest import SETUP, bearer, csrf_token_from

# drop = {amount = 5, pool = "high_hand"} (the qualifier left to its default: four of a kind)
HIGH_HAND = {"base": "cardroom", "drop": {"amount": 5, "pool": "high_hand"}}
# drop = {amount = 3, pool = "bad_beat", qualifier = "full_house"}
BAD_BEAT = {"base": "cardroom", "drop": {"amount": 3, "pool": "bad_beat", "qualifier": "full_house"}}


def showdown(bob: str, cleo: str, deal: int = 1) -> list[dict]:
    """Deal ``deal`` of SETUP (the button on seat 1 at deal 1, moving one seat a deal): the seats
    before Bob (seat 2) pass, Bob opens, Cleo (seat 3) calls, the others fold; both stand pat,
    check, and show."""
    button = (deal - 1) % 4 + 1
    order = [(button + i) % 4 + 1 for i in range(4)]  # from the button's left
    at = order.index(2)
    events: list[dict] = [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in order[:at]]
    events.append({"type": "open", "seat": 2})
    after = order[at + 1:] + order[:at]
    events += [{"type": "call" if s == 3 else "fold", "seat": s} for s in after]
    events += [{"type": "draw", "seat": s, "count": 0} for s in order if s in (2, 3)]
    return events + [{"type": "check", "seat": 2}, {"type": "check", "seat": 3},
                     {"type": "show", "seat": 2, "cards": bob}, {"type": "show", "seat": 3, "cards": cleo}]


def new_table(client, tokens, name: str, profile: dict) -> int:
    created = client.post("/api/tables", json={"name": name, **SETUP, "profile": profile},
                          headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    return created.json["id"]


def log(client, tokens, table: int, events: list[dict]) -> None:
    headers = bearer(tokens["dealer"])
    version = client.get(f"/api/tables/{table}", headers=headers).json["version"]
    for event in events:
        r = client.post(f"/api/tables/{table}/events", json={**event, "expected_version": version}, headers=headers)
        assert r.status_code in (200, 201), r.json
        version += 1


def pools(client, tokens, role: str = "dealer") -> dict:
    r = client.get("/api/promotions", headers=bearer(tokens[role]))
    assert r.status_code == 200, r.json
    return {p["id"]: p for p in r.json}


def award(client, tokens, pool: str, player: str, table: int, deal: int, role: str = "floor"):
    return client.post(f"/api/promotions/{pool}/award", json={"player": player, "table": table, "deal": deal},
                       headers=bearer(tokens[role]))


def test_the_pools_are_the_drops_of_every_table_read_from_their_logs(client, tokens) -> None:
    """drop: two high-hand tables of 5 a pot and a bad-beat table of 3 a pot make the room's pools;
    each pool names its qualifying hand, the profile's or the default."""
    a, b = new_table(client, tokens, "HH 1", HIGH_HAND), new_table(client, tokens, "HH 2", HIGH_HAND)
    c = new_table(client, tokens, "BB", BAD_BEAT)
    for table in (a, b, c):
        log(client, tokens, table, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s"))
    log(client, tokens, a, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s", deal=2))
    found = pools(client, tokens)
    assert [(p["id"], p["pool"], p["name"], p["amount"], p["qualifier"]) for p in found.values()] == [
        ("high_hand", "high_hand", "high hand", 15, "four of a kind or better"),
        ("bad_beat", "bad_beat", "bad beat", 3, "a full house or better")]


def test_award_roles_a_dealer_is_refused_the_floor_and_the_director_pay(client, tokens) -> None:
    """An award is the floor's (and the director's): a dealer's is 403 and pays nothing."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    refused = award(client, tokens, "high_hand", "Bob", table, 1, role="dealer")
    assert refused.status_code == 403
    assert pools(client, tokens)["high_hand"]["amount"] == 5
    assert award(client, tokens, "high_hand", "Bob", table, 1, role="floor").status_code == 201
    log(client, tokens, table, showdown("7h 7d 7s 7c 2d", "Kh Kd Ks Qc Qd", deal=2))
    assert award(client, tokens, "high_hand", "Bob", table, 2, role="director").status_code == 201
    assert client.post("/api/promotions/high_hand/award", json={"player": "Bob", "table": table, "deal": 2}
                       ).status_code == 401


def test_award_refused_for_a_hand_never_shown(client, tokens) -> None:
    """A high hand must have been shown: Dev folded before the draw; nothing is paid."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    r = award(client, tokens, "high_hand", "Dev", table, 1)
    assert r.status_code == 422
    assert r.json["message"] == "seat 4 (Dev) showed no hand at the showdown of deal 1: the log holds no hand to pay"
    r = award(client, tokens, "high_hand", "Bob", table, 2)
    assert r.status_code == 422 and "has no deal 2" in r.json["message"]
    r = award(client, tokens, "high_hand", "Zed", table, 1)
    assert r.status_code == 422 and "Zed did not play deal 1" in r.json["message"]
    assert pools(client, tokens)["high_hand"]["amount"] == 5 and pools(client, tokens)["high_hand"]["awards"] == []


def test_award_refused_for_a_hand_that_does_not_qualify(client, tokens) -> None:
    """drop's qualifier four_of_a_kind: Cleo's kings full, shown, is not a high hand; Bob's four aces
    won, so they are no bad beat either (a bad beat is a hand that lost)."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    r = award(client, tokens, "high_hand", "Cleo", table, 1)
    assert r.status_code == 422
    assert r.json["message"] == ("seat 3 (Cleo) showed K♥ K♦ K♠ Q♣ Q♦, a full house, kings full of queens: the high "
                                 "hand promotion pays four of a kind or better")
    r = award(client, tokens, "bad_beat", "Cleo", table, 1)
    assert r.status_code == 422 and r.json["message"] == "HH does not fund the bad beat promotion: its hands are not eligible"
    bb = new_table(client, tokens, "BB", BAD_BEAT)
    log(client, tokens, bb, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    r = award(client, tokens, "bad_beat", "Bob", bb, 1)
    assert r.status_code == 422 and r.json["message"] == "seat 2 (Bob) won the pot of deal 1: a bad beat is a hand that lost"
    assert [p["paid"] for p in pools(client, tokens).values()] == [0, 0]


def test_a_correct_award_pays_the_whole_pool_and_the_next_drops_start_a_new_one(client, tokens, app) -> None:
    """drop 5 a pot at two tables: 15 set aside; Bob's four aces shown at deal 1 take all 15; the
    pool is 0; the next pot's drop makes a new pool of 5; the same hand is never paid twice."""
    table, other = new_table(client, tokens, "HH 1", HIGH_HAND), new_table(client, tokens, "HH 2", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    log(client, tokens, other, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s"))
    log(client, tokens, other, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s", deal=2))
    assert pools(client, tokens)["high_hand"]["amount"] == 15
    r = award(client, tokens, "high_hand", "bob", table, 1)  # the name as the floor types it
    assert r.status_code == 201, r.json
    assert {k: r.json[k] for k in ("pool", "amount", "player", "seat", "deal", "cards", "hand", "by", "intact")} == {
        "pool": "high_hand", "amount": 15, "player": "Bob", "seat": 2, "deal": 1, "cards": "Ah Ad As Ac 2d",
        "hand": "four aces, deuce kicker", "by": "fred", "intact": True}
    pool = pools(client, tokens)["high_hand"]
    assert (pool["amount"], pool["dropped"], pool["paid"]) == (0, 15, 15)
    again = award(client, tokens, "high_hand", "Bob", table, 1)
    assert again.status_code == 422 and "already paid for Bob's hand of deal 1" in again.json["message"]
    log(client, tokens, other, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s", deal=3))
    assert pools(client, tokens)["high_hand"]["amount"] == 5
    # the award is a sealed row the room's witness holds: verify finds nothing to say
    with app.app_context():
        from floor.verify_record import row_problems

        assert row_problems() == []


def test_an_empty_pool_pays_nothing(client, tokens) -> None:
    """Two high hands shown in one deal: the first awarded takes the pool, the second finds it
    empty and is refused, saying so; an unknown promotion is 404."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Kc Qd"))
    assert award(client, tokens, "high_hand", "Bob", table, 1).status_code == 201
    r = award(client, tokens, "high_hand", "Cleo", table, 1)
    assert r.status_code == 422
    assert r.json["message"] == ("the high hand pool holds nothing yet: no drop has been set aside since it was "
                                 "last paid")
    r = award(client, tokens, "nothing", "Bob", table, 1)
    assert r.status_code == 404 and "the promotions are high_hand, bad_beat" in r.json["message"]


def test_a_bad_beat_pays_the_loser_of_a_qualifying_hand(client, tokens) -> None:
    """drop qualifier full_house for the bad beat: Cleo's kings full lost to four aces: paid 3."""
    table = new_table(client, tokens, "BB", BAD_BEAT)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    r = award(client, tokens, "bad_beat", "Cleo", table, 1)
    assert r.status_code == 201 and (r.json["amount"], r.json["hand"]) == (3, "full house, kings full of queens")


def test_an_award_changed_outside_the_app_withholds_its_pool(client, tokens, app) -> None:
    """An award is sealed: its amount edited in the database, the pool shows no figure, pays nothing,
    and verify names the row."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    assert award(client, tokens, "high_hand", "Bob", table, 1).status_code == 201
    with app.app_context():
        from sqlalchemy import text

        from floor.extensions import db
        from floor.verify_record import row_problems

        db.session.execute(text("UPDATE promotion_awards SET amount = 1"))
        db.session.commit()
        assert any("promotion award #1" in p for p in row_problems())
    pool = pools(client, tokens)["high_hand"]
    assert pool["amount"] is None and "award #1 does not match its seal" in pool["problems"][0]
    log(client, tokens, table, showdown("7h 7d 7s 7c 2d", "Kh Kd Ks Qc Qd", deal=2))
    r = award(client, tokens, "high_hand", "Bob", table, 2)
    assert r.status_code == 409 and "withheld" in r.json["message"]


def test_the_floor_page_shows_the_pools_and_awards_one(client, tokens, as_role) -> None:
    """/floor/promotions: the pool and its qualifier; the form pays it, a refusal is shown with its
    reason; a dealer may not open it."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    floor = as_role("floor")
    page = floor.get("/floor/promotions")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "<strong>5</strong> in the pool" in text and "Pays four of a kind or better" in text
    form = {"csrf_token": csrf_token_from(page.data), "pool": "high_hand", "table": table, "deal": 1}
    refused = floor.post("/floor/promotions/award", data={**form, "player": "Cleo"})
    assert refused.status_code == 422
    assert "Not paid: seat 3 (Cleo) showed" in refused.get_data(as_text=True)
    assert 'class="field-error" role="alert">seat 3 (Cleo) showed' in refused.get_data(as_text=True)
    paid = floor.post("/floor/promotions/award", data={**form, "player": "Bob"}, follow_redirects=True)
    words = paid.get_data(as_text=True)
    bob = client.get(f"/api/tables/{table}", headers=bearer(tokens["dealer"])).json["state"]["seats"]["2"]["player_id"]
    assert f"The high hand promotion pays 5 to Bob (player #{bob}) for HH, deal 1: four aces, deuce kicker." in words
    assert "<strong>0</strong> in the pool" in words
    assert as_role("dealer").get("/floor/promotions").status_code == 403
    assert as_role("dealer").post("/floor/promotions/award", data={**form, "player": "Bob"}).status_code == 403


def test_the_floor_page_pays_the_player_record_picked(client, tokens, as_role, app) -> None:
    """The form's player is picked as a record (playerpicker.js sends its id in ``player_id`` beside
    the label shown, "Bob · card 12 · #7"): the record seated at that deal is paid and named; another
    record of the same name, a record the room does not have, a record whose name is not the one
    shown are refused with the reason beside the form and at the top (422), the form kept as sent,
    nothing paid."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    bob = client.get(f"/api/tables/{table}", headers=bearer(tokens["dealer"])).json["state"]["seats"]["2"]["player_id"]
    other_bob = client.post("/api/players", json={"name": "Bob", "card": "42"}, headers=bearer(tokens["floor"])).json
    floor = as_role("floor")
    page = floor.get("/floor/promotions").get_data(as_text=True)
    assert 'data-player-picker' in page and 'list="award-players"' in page and "playerpicker.js" in page
    form = {"csrf_token": csrf_token_from(page.encode()), "pool": "high_hand", "table": table, "deal": 1}

    def refused(player: str, player_id: str, reason: str) -> str:
        answer = floor.post("/floor/promotions/award", data={**form, "player": player, "player_id": player_id})
        text = answer.get_data(as_text=True)
        assert answer.status_code == 422, text
        assert f"Not paid: {reason}" in text and f'class="field-error" role="alert">{reason}' in text, text
        return text

    shown = refused(f"Bob · card 42 · #{other_bob['id']}", str(other_bob["id"]),
                    f"Bob (player #{other_bob['id']}, card 42) did not play deal 1 at HH (it was dealt to Ann, Bob, "
                    "Cleo, Dev)")
    assert f'value="Bob · card 42 · #{other_bob["id"]}"' in shown  # the form as sent: the name still shown
    assert f'name="player_id" value="{other_bob["id"]}"' in shown
    refused("Bob · #999999", "999999", "there is no player #999999: pick the player from the list again")
    refused("Cleo", str(bob), f"the player shown (Cleo) is not the record picked (Bob, #{bob}): pick the player "
                              "from the list again")
    refused(f"Bob · card 42 · #{other_bob['id']}", "", f"Bob (player #{other_bob['id']}, card 42) did not play")
    assert pools(client, tokens)["high_hand"]["awards"] == []
    paid = floor.post("/floor/promotions/award", data={**form, "player": f"Bob · #{bob}", "player_id": str(bob)},
                      follow_redirects=True).get_data(as_text=True)
    assert f"pays 5 to Bob (player #{bob}) for HH, deal 1: four aces, deuce kicker." in paid
    assert f"5 to Bob <span class=\"muted small\">(player #{bob})</span>, HH deal 1" in paid
    assert [(a["player"], a["player_id"]) for a in pools(client, tokens)["high_hand"]["awards"]] == [("Bob", bob)]


def test_a_name_two_seats_of_the_deal_answer_to_is_never_paid_to_one_of_them() -> None:
    """A log written before setups refused one person in two seats may name "Bob" twice at a deal:
    the award refuses rather than pay the first seat, and says what to do (pick the record when the
    seats name two records; call the director when they name one, or none)."""
    from types import SimpleNamespace

    from floor.promotions import _seat_of

    table = SimpleNamespace(name="HH")
    two = SimpleNamespace(deal=4, names={1: "Bob", 3: "bob", 5: "Cy"}, player_ids={1: 7, 3: 9, 5: 8})
    with pytest.raises(AwardRefused, match="^Bob was dealt deal 4 at HH in seats 1, 3: pick the player's record$"):
        _seat_of("Bob", two, table)
    one = SimpleNamespace(deal=4, names={1: "Bob", 3: "Bob"}, player_ids={1: 7, 3: 7})
    with pytest.raises(AwardRefused, match="in seats 1, 3: the log seats them twice: call the director$"):
        _seat_of("BOB", one, table)
    assert _seat_of("cy", two, table) == 5


def test_the_shift_report_shows_promotions_paid_and_owed(client, tokens, as_role) -> None:
    """The shift report: each pool owed now, and the awards paid in the shift."""
    table, bb = new_table(client, tokens, "HH", HIGH_HAND), new_table(client, tokens, "BB", BAD_BEAT)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    log(client, tokens, bb, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s"))
    assert award(client, tokens, "high_hand", "Bob", table, 1).status_code == 201
    text = as_role("floor").get("/floor/shift").get_data(as_text=True)
    owed = text.split('class="grid promotions-owed"')[1].split("</table>")[0]
    assert "High hand" in owed and '<td class="num">5</td>\n    <td class="num">5</td>' in owed
    assert "Bad beat" in owed and '<td class="num">0</td>\n    <td class="num">3</td>' in owed
    paid = text.split('class="grid promotions-paid"')[1].split("</table>")[0]
    assert "Bob" in paid and "HH, deal 1: four aces, deuce kicker" in paid and "fred" in paid


def test_rules_check_award_reads_the_hand_under_the_tables_game() -> None:
    """The qualifier is read under the table's game: with the bug, A A A Jk is four aces; a drop's
    qualifier must be a hand category."""
    setup = {"ante": 5, "small_bet": 10, "button": 1, "profile": {"base": "cardroom", "wild": "bug"},
             "seats": [{"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
    events = [{"type": "deal"}, {"type": "open", "seat": 2, "amount": 10}, {"type": "call", "seat": 1},
              {"type": "draw", "seat": 2, "count": 0}, {"type": "draw", "seat": 1, "count": 0},
              {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
              {"type": "show", "seat": 2, "cards": "Ah Ad As Jk 2d"}, {"type": "show", "seat": 1, "cards": "Kh Kd Ks Qc Qd"}]
    hand = hands(setup, events)[0]
    assert hand.shown[2] == ("Ah", "Ad", "As", "Jk", "2d")  # the cards logged as text, each card kept whole
    assert check_award("high_hand", "four_of_a_kind", hand, 2, HandRules("bug")).describe().startswith("four aces")
    with pytest.raises(AwardRefused, match="does not read: no joker in this game"):
        check_award("high_hand", "four_of_a_kind", hand, 2, HandRules())  # no bug: the joker is no card
    from rules import ProfileError

    with pytest.raises(ProfileError, match="qualifier is a hand category"):
        read_drop({"amount": 1, "pool": "high_hand", "qualifier": "aces"})


def test_an_award_deleted_is_named_by_verify(client, tokens, app) -> None:
    """An award is a row of the room's witness: deleted from the database (the pool would read as
    unpaid and pay again), `flask verify` fails naming it; untouched, verify is clean."""
    import sqlalchemy as sa

    from floor.promotions import PromotionAward
    from tests.test_history_seals import tamper, verify

    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    assert award(client, tokens, "high_hand", "Bob", table, 1).status_code == 201
    code, output = verify(app)
    assert code == 0, output
    tamper(app, sa.delete(PromotionAward.__table__))
    code, output = verify(app)
    assert code == 1 and "promotion award #1" in output and "was deleted" in output, output


def test_an_award_names_the_player_record_the_logs_seat_holds(client, tokens, app) -> None:
    """Since issue 31 a seat carries its player's record: the award names it (``player_id``) beside
    the name as seated, read from the sealed log's seat, never looked up by name. Another record
    also called Bob (another person, card 42) is not the one paid; the floor may name the record
    (``{"id": n}``) instead of the name; a record that did not play the deal is refused."""
    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    log(client, tokens, table, showdown("9h 9d 9s 9c 2d", "Kh Kd Ks Qc Qd", deal=2))
    seats = client.get(f"/api/tables/{table}", headers=bearer(tokens["dealer"])).json["state"]["seats"]
    seated_bob = seats["2"]["player_id"]
    other_bob = client.post("/api/players", json={"name": "Bob", "card": "42"}, headers=bearer(tokens["floor"]))
    assert other_bob.status_code == 201 and other_bob.json["id"] != seated_bob
    paid = award(client, tokens, "high_hand", "Bob", table, 1)
    assert paid.status_code == 201, paid.json
    assert (paid.json["player"], paid.json["player_id"]) == ("Bob", seated_bob)
    refused = client.post("/api/promotions/high_hand/award", json={"player": {"id": other_bob.json["id"]},
                                                                   "table": table, "deal": 2},
                          headers=bearer(tokens["floor"]))
    assert refused.status_code == 422
    assert refused.json["message"] == f"Bob (player #{other_bob.json['id']}, card 42) did not play deal 2 at HH " \
                                      "(it was dealt to Ann, Bob, Cleo, Dev)"
    unknown = client.post("/api/promotions/high_hand/award", json={"player": {"id": 999999}, "table": table,
                                                                   "deal": 2}, headers=bearer(tokens["floor"]))
    assert (unknown.status_code, unknown.json["message"]) == (
        422, "there is no player #999999: pick the player from the list again")
    log(client, tokens, table, showdown("Qs Qd 9c 8h 2s", "Js Jd 9d 8c 3s", deal=3))  # the pool fills again
    by_record = client.post("/api/promotions/high_hand/award", json={"player": {"id": seated_bob}, "table": table,
                                                                     "deal": 2}, headers=bearer(tokens["floor"]))
    assert by_record.status_code == 201, by_record.json
    assert (by_record.json["player"], by_record.json["player_id"], by_record.json["seat"]) == ("Bob", seated_bob, 2)
    awards = pools(client, tokens)["high_hand"]["awards"]
    assert [(a["player"], a["player_id"]) for a in awards] == [("Bob", seated_bob), ("Bob", seated_bob)]
    night = client.get(f"/api/players/{seated_bob}", headers=bearer(tokens["floor"])).json["night"]
    assert [(a["deal"], a["amount"]) for a in night["promotions"]] == [(1, 10), (2, 5)]
    assert client.get(f"/api/players/{other_bob.json['id']}", headers=bearer(tokens["floor"])).json["night"][
        "promotions"] == []
    bad = client.post("/api/promotions/high_hand/award", json={"player": {"id": 0}, "table": table, "deal": 2},
                      headers=bearer(tokens["floor"]))
    assert bad.status_code == 400 and "a player id is 1 or more" in bad.json["message"]


def test_the_awards_player_record_is_under_its_seal(client, tokens, app, as_role) -> None:
    """The record paid is sealed with the award: moved to another player in the database, the pool
    is withheld and verify names the award. An award paid before awards named the record (its seal
    made without the field, revision e5a9c2d7f3b1) keeps a good seal."""
    import sqlalchemy as sa

    from floor.extensions import db
    from floor.promotions import PromotionAward
    from floor.sealed import SealedRow
    from floor.verify_record import row_problems

    table = new_table(client, tokens, "HH", HIGH_HAND)
    log(client, tokens, table, showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd"))
    assert award(client, tokens, "high_hand", "Bob", table, 1).status_code == 201
    cleo = client.get(f"/api/tables/{table}", headers=bearer(tokens["dealer"])).json["state"]["seats"]["3"]["player_id"]
    with app.app_context():
        row = db.session.get(PromotionAward, 1)
        before_field = {k: v for k, v in row.sealed_values().items() if k != "player_id"}
        old_seal = SealedRow.seal_of.__func__(PromotionAward, row.id, before_field)  # as sealed before the field
        db.session.execute(sa.update(PromotionAward.__table__).values(player_id=cleo))
        db.session.commit()
        assert any("promotion award #1" in p for p in row_problems())
    assert pools(client, tokens)["high_hand"]["amount"] is None
    with app.app_context():
        db.session.execute(sa.update(PromotionAward.__table__).values(player_id=None, row_seal=old_seal))
        db.session.commit()
        assert row_problems() == []
    paid = pools(client, tokens)["high_hand"]
    assert paid["problems"] == [] and paid["awards"][0]["player_id"] is None
    # left as it is (docs/house.md, "Promotions"): the floor sees the name and the seat
    assert '5 to Bob <span class="muted small">(seat 2, no record)</span>, HH deal 1' in \
        as_role("floor").get("/floor/promotions").get_data(as_text=True)
