"""Set-up commands: ``flask --app floor init-db | create-user | api-token | demo``.

The commands only read their options and print: accounts are made by :mod:`floor.accounts` and the
demo by :mod:`floor.demo` (neither imports this module: no import cycle).
"""

from __future__ import annotations

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from floor.accounts import create_user
from floor.demo import load_demo
from floor.extensions import db
from floor.models import Role, User


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema to the newest migration."""
    upgrade(directory=current_app.extensions["migrate"].directory)
    click.echo(f"Database ready: {current_app.config['SQLALCHEMY_DATABASE_URI']}")


@click.command("create-user")
@click.argument("username")
@click.option("--role", required=True, type=click.Choice([r.name for r in Role]), help="What the user may do.")
@click.option("--password", help="Asked for (twice, hidden) when left out.")
@with_appcontext
def create_user_command(username: str, role: str, password: str | None) -> None:
    """Add a user with a role (dealer, floor, director)."""
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        user, token = create_user(username, Role[role], password)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Created {user.username} ({user.role.name}). API token (shown once): {token}")


@click.command("api-token")
@click.argument("username")
@with_appcontext
def api_token_command(username: str) -> None:
    """Issue a new API token for a user (the old one stops working)."""
    user = db.session.scalars(db.select(User).where(User.username == username)).first()
    if user is None:
        raise click.ClickException(f"no user {username!r}")
    token = user.new_api_token()
    db.session.commit()
    click.echo(f"API token for {username} (shown once): {token}")


@click.command("demo")
@click.option("--reset", is_flag=True, help="Forget the demo accounts' passwords and make new ones.")
@with_appcontext
def demo_command(reset: bool) -> None:
    """Load the demo event (accounts, two seated tables, a pot in play, a ruling) once; print the logins."""
    for line in load_demo(reset=reset):
        click.echo(line)


def init_app(app: Flask) -> None:
    for command in (init_db_command, create_user_command, api_token_command, demo_command):
        app.cli.add_command(command)
