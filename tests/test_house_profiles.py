"""A card room's own profile, from instance/profiles/NAME.toml, checked by rules.profiles (issue 4)."""

from __future__ import annotations

from floor.extensions import db
from floor.models import HouseProfile
from tests.conftest import SETUP, bearer


def write_profile(app, name, text):
    folder = app.config["FLOOR_PROFILES_DIR"]
    import os

    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{name}.toml"), "w", encoding="utf-8") as fh:
        fh.write(text)


def test_a_table_plays_a_house_profile_from_the_instance_folder(app, client, tokens):
    write_profile(app, "main-room", 'base = "cardroom"\nante_deals = 2\nmax_draw = 3\n')
    response = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "main-room"},
                           headers=bearer(tokens["director"]))
    assert response.status_code == 201, response.json
    assert response.json["profile"] == "main-room"
    # The table keeps the whole option table: a later edit of the file never rewrites its past.
    assert response.json["setup"]["profile"]["ante_deals"] == 2
    write_profile(app, "main-room", 'base = "cardroom"\nante_deals = 3\n')
    table = client.get(f"/api/tables/{response.json['id']}", headers=bearer(tokens["dealer"])).json
    assert table["setup"]["profile"]["ante_deals"] == 2


def test_the_ante_cap_of_the_house_profile_is_what_the_engine_plays(app, client, tokens):
    """O4 with a two-deal cap: the third deal of an unopened pot takes no ante."""
    write_profile(app, "two-deal", 'ante_deals = 2\n')
    table = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "two-deal"},
                        headers=bearer(tokens["director"])).json
    version, pots = 0, []
    for _ in range(3):
        response = client.post(f"/api/tables/{table['id']}/events", json={"type": "deal", "expected_version": version},
                               headers=bearer(tokens["dealer"]))
        state = response.json["state"]
        pots.append(state["pot"])
        version = response.json["version"]
        while state["phase"] == "predraw":
            response = client.post(f"/api/tables/{table['id']}/events",
                                   json={"type": "pass", "seat": state["to_act"], "expected_version": version},
                                   headers=bearer(tokens["dealer"]))
            state, version = response.json["state"], response.json["version"]
    assert pots == [20, 40, 40]


def test_a_broken_house_profile_is_refused_with_the_option_named(app, client, tokens):
    write_profile(app, "broken", 'ante_deals = "three"\n')
    response = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "broken"},
                           headers=bearer(tokens["director"]))
    assert response.status_code == 422 and "ante_deals" in response.json["message"]
    write_profile(app, "typo", 'antes = 3\n')
    response = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "typo"},
                           headers=bearer(tokens["director"]))
    assert response.status_code == 422 and "unknown option 'antes'" in response.json["message"]


def test_a_house_profile_written_in_the_app_is_found_by_name(app, client, tokens):
    with app.app_context():
        db.session.add(HouseProfile(name="Friday", toml='base = "pagat"\nraise_cap = 3\n'))
        db.session.commit()
    response = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "Friday"},
                           headers=bearer(tokens["director"]))
    assert response.status_code == 201
    assert response.json["setup"]["profile"]["raise_cap"] == 3
    assert response.json["setup"]["profile"]["max_draw"] == 3  # pagat's, kept from the base


def test_profile_names_cannot_walk_out_of_the_folder(app, client, tokens):
    response = client.post("/api/tables", json={"name": "T", **SETUP, "profile": "../secret_key"},
                           headers=bearer(tokens["director"]))
    assert response.status_code == 422
