"""The app factory and its configuration layers (issue: foundation)."""

from __future__ import annotations

import os

from floor import create_app


def test_defaults_put_the_database_and_secret_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("FLOOR_DATABASE_URL", raising=False)
    monkeypatch.delenv("FLOOR_SECRET_KEY", raising=False)
    app = create_app(instance_path=str(tmp_path / "inst"))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'inst' / 'floor.sqlite'}"
    key_file = tmp_path / "inst" / "secret_key"
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) >= 32
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    # The key is made once: a restart keeps sessions valid.
    again = create_app(instance_path=str(tmp_path / "inst"))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_instance_config_overrides_defaults_and_environment_overrides_both(tmp_path, monkeypatch):
    inst = tmp_path / "inst"
    inst.mkdir()
    (inst / "config.py").write_text(
        "SECRET_KEY = 'from-instance'\nSQLALCHEMY_DATABASE_URI = 'sqlite:////tmp/from-instance.sqlite'\n")
    monkeypatch.delenv("FLOOR_DATABASE_URL", raising=False)
    monkeypatch.delenv("FLOOR_SECRET_KEY", raising=False)
    app = create_app(instance_path=str(inst))
    assert app.config["SECRET_KEY"] == "from-instance"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/from-instance.sqlite"
    assert not (inst / "secret_key").exists()

    monkeypatch.setenv("FLOOR_DATABASE_URL", "postgresql+psycopg://floor@localhost/floor")
    monkeypatch.setenv("FLOOR_SECRET_KEY", "from-env")
    app = create_app(instance_path=str(inst))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://floor@localhost/floor"
    assert app.config["SECRET_KEY"] == "from-env"


def test_test_config_wins_and_skips_the_instance_file(tmp_path, monkeypatch):
    inst = tmp_path / "inst"
    inst.mkdir()
    (inst / "config.py").write_text("SECRET_KEY = 'from-instance'\nSPECIAL = 1\n")
    monkeypatch.setenv("FLOOR_SECRET_KEY", "from-env")
    app = create_app({"SECRET_KEY": "from-test", "TESTING": True}, instance_path=str(inst))
    assert app.config["SECRET_KEY"] == "from-test"
    assert "SPECIAL" not in app.config


def test_health_reports_version_and_database_without_login(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json["database"] == "ok"
    assert response.json["version"]


def test_health_says_when_the_database_does_not_answer(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/missing-dir/none.sqlite"},
                     instance_path=str(tmp_path / "inst"))
    response = app.test_client().get("/api/health")
    assert response.status_code == 503
    assert response.json["database"] == "unavailable"


def test_the_app_finds_its_templates_at_the_top_of_the_project(app):
    assert os.path.basename(os.path.normpath(app.template_folder)) == "templates"
    assert app.jinja_env.get_template("base.html")


def test_the_app_starts_without_loading_the_pdf_renderer(tmp_path):
    """WeasyPrint costs about a second of CPU to import: a server worker, a CLI command and a test
    that print nothing never load it (floor.pdf imports it on the first print; issue 34)."""
    import subprocess
    import sys

    code = ("import sys, floor; floor.create_app({'TESTING': True, 'SECRET_KEY': 't', "
            f"'SQLALCHEMY_DATABASE_URI': 'sqlite://'}}, instance_path={str(tmp_path)!r}); "
            "print(sorted(m for m in ('weasyprint', 'flask_weasyprint') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
