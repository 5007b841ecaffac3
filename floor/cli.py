"""Commands: ``flask --app floor init-db | create-user | api-token | reset-password | verify | backup |
restore | demo``.

The commands only read their options and print: accounts are made by :mod:`floor.accounts` and the
demo by :mod:`floor.demo` (neither imports this module: no import cycle).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from floor import backup, room, tables, witness
from floor.accounts import create_user
from floor.demo import load_demo
from floor.extensions import db
from floor.keys import KeyRefused, check_before_upgrade
from floor.models import Role, User
from floor.sealed import trust
from floor.verify import verify_all
from floor.witness.cli import operator


def _interactive() -> bool:
    """A person at a terminal (asked), not a script (given the default)."""
    return sys.stdin.isatty()


@click.command("init-db")
@click.option("--timezone", "zone", help="The card room's time zone (an IANA name such as Europe/London); "
              "asked the first time when left out, the machine's zone offered.")
@with_appcontext
def init_db_command(zone: str | None) -> None:
    """Create or upgrade the database schema to the newest migration; the first time, ask the card
    room's time zone (every page and print shows times in it; a director changes it later)."""
    try:
        check_before_upgrade(current_app)  # another seal key than the history's: nothing is upgraded
    except KeyRefused as exc:
        raise click.ClickException(str(exc)) from None
    upgrade(directory=current_app.extensions["migrate"].directory)
    # Never the password of a database URL (postgresql://user:secret@host/db): a terminal's
    # scroll-back and a service's log are read by others.
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"]).render_as_string(hide_password=True)
    click.echo(f"Database ready: {url}")
    if zone is None and room.stored_zone() is not None:
        click.echo(f"Time zone: {room.stored_zone()} (a director changes it at /director/settings)")
        return
    if zone is None:
        offered = room.default_zone()
        # asked once, at a terminal; a script (make run, a service) takes the machine's zone
        zone = click.prompt("The card room's time zone", default=offered) if _interactive() else offered
    try:
        chosen = room.set_zone(zone)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--timezone") from None
    except SQLAlchemyError as exc:  # the schema step answered; the setting could not be written
        db.session.rollback()
        click.echo(f"The time zone was not stored ({type(exc).__name__}): a director sets it at /director/settings")
        return
    click.echo(f"Time zone: {chosen} (every page and print shows times in it; a director changes it at "
               "/director/settings)")


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


ROLE_OPTION = click.option(
    "--role", type=click.Choice([r.name for r in Role]),
    help="The account's role, stated again: needed when its record no longer matches its seal (changed outside the "
         "app), which this command then seals again as the operator's act.")


def _account(username: str, role: str | None) -> User:
    """The user to reset; a row that does not match its seal is sealed again only with its role stated."""
    user = User.named(username)
    if user is None:
        raise click.ClickException(f"no user {username!r}")
    if not user.row_seal_intact or role is not None:
        if role is None:
            raise click.ClickException(
                f"{user.username}'s record does not match its seal (changed outside the app: it now says role "
                f"{user.role_name!r}, {'active' if user.active else 'inactive'}). State the role it has with --role: the "
                "account is then sealed again as your act, recorded in the room's witness.")
        user.role, user.active = Role[role], True
        trust(db.session(), user)
    return user


@click.command("api-token")
@click.argument("username")
@ROLE_OPTION
@with_appcontext
def api_token_command(username: str, role: str | None) -> None:
    """Issue a new API token for a user (the old one stops working)."""
    user = _account(username, role)
    token = user.new_api_token()
    db.session.commit()
    click.echo(f"API token for {username} (shown once): {token}")


@click.command("reset-password")
@click.argument("username")
@click.option("--password", help="Asked for (twice, hidden) when left out.")
@ROLE_OPTION
@with_appcontext
def reset_password_command(username: str, password: str | None, role: str | None) -> None:
    """Set a new password for a user: lifts a lockout and logs the user out everywhere."""
    user = _account(username, role)
    if password is None:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    try:
        user.set_password(password)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    db.session.commit()
    click.echo(f"New password set for {user.username}; every session of theirs is logged out.")


@click.command("verify")
@click.option("--full", is_flag=True, help="Read the room's witness from its first line (its closed segments too), "
              "not from its last checkpoint.")
@click.option("--checkpoints", "checkpoints", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The collector's file (syslog): prove the witness holds every checkpoint in it and the database "
                   "extends each.")
@with_appcontext
def verify_command(full: bool, checkpoints: Path | None) -> None:
    """Check every table's hash chain and seal, every ruling's and sealed row's seal, and the database
    against the room's witness; name what does not match (exit status 1)."""
    report = verify_all(full=full, checkpoints=checkpoints)
    for note in report.notes:
        click.echo(f"NOTE {note}")
    for problem in report.problems:
        click.echo(f"MISMATCH {problem}")
    summary = f"{report.tables} tables ({report.entries} log entries) and {report.rulings} rulings checked"
    if report.problems:
        raise click.ClickException(f"{summary}: {len(report.problems)} mismatches (above)")
    click.echo(f"{summary}: every chain and seal matches.")


@click.command("backup")
@click.option("--to", "target", type=click.Path(dir_okay=False, path_type=Path),
              help="The backup file (default: instance/backups/floor-<UTC time>.sqlite or .dump).")
@with_appcontext
def backup_command(target: Path | None) -> None:
    """Back up the database while the app serves (SQLite's online backup; pg_dump for PostgreSQL)."""
    database_url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    target = target or backup.default_target(current_app.instance_path, make_url(database_url))
    try:
        written = backup.backup(database_url, target)
    except (ValueError, OSError, sqlite3.Error, subprocess.CalledProcessError) as exc:
        raise click.ClickException(f"backup failed: {getattr(exc, 'stderr', None) or exc}") from None
    click.echo(f"Backup written: {written}")
    click.echo("Keep the seal key (FLOOR_SEAL_KEY, or instance/seal_key) and instance/secret_key safe apart from it: "
               "they are not in the backup.")


@click.command("restore")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--in-place", is_flag=True,
              help="Restore nothing: accept the database as it stands (after a crash it did not survive whole, "
                   "or a restore made by other means).")
@with_appcontext
def restore_command(source: Path | None, yes: bool, in_place: bool) -> None:
    """Replace the database with a backup (stop the server first), and record the restore in the
    room's witness: `flask verify` accepts the restored history from here on (a backup put back any
    other way is reported as a rollback)."""
    database_url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    shown = make_url(database_url).render_as_string(hide_password=True)
    if (source is None) != in_place:
        raise click.UsageError("name the backup to restore, or --in-place to accept the database as it stands")
    if not yes:
        click.confirm(f"Accept {shown} as it stands as the room's record?" if in_place
                      else f"Replace everything in {shown} with {source}?", abort=True)
    db.session.remove()
    db.engine.dispose()  # no connection of ours holds the old content
    if source is not None:
        try:
            backup.restore(database_url, source)
        except (ValueError, OSError, sqlite3.Error, subprocess.CalledProcessError) as exc:
            raise click.ClickException(f"restore failed: {getattr(exc, 'stderr', None) or exc}") from None
    tables.forget()
    by = operator()
    what = f"{source.name} (by {by})" if source is not None else f"the database in place (by {by})"
    try:
        head = witness.epoch(witness.RESTORE, what, by)
    except (witness.WitnessLost, SQLAlchemyError) as exc:
        raise click.ClickException(f"the restore could not be recorded in the room's witness: {exc}") from None
    click.echo(f"Recorded in the room's witness, line {head['n']}: restored from {what}. Every host and worker reads "
               "it and drops what it had cached.")
    if source is not None:
        click.echo(f"Restored {shown} from {source}. Run `flask --app floor init-db` if the backup is from an older "
                   "version, then `flask --app floor verify`.")


@click.command("demo")
@click.option("--reset", is_flag=True, help="Forget the demo accounts' passwords and make new ones.")
@with_appcontext
def demo_command(reset: bool) -> None:
    """Load the demo event (accounts, two seated tables, a pot in play, a ruling) once; print the logins."""
    for line in load_demo(reset=reset):
        click.echo(line)


def init_app(app: Flask) -> None:
    from floor.witness.cli import checkpoint_command, witness_group

    for command in (init_db_command, create_user_command, api_token_command, reset_password_command,
                    verify_command, backup_command, restore_command, demo_command, witness_group, checkpoint_command):
        app.cli.add_command(command)
