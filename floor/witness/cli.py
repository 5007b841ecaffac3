"""Commands of the room's witness: ``flask witness status | adopt | init-store`` and ``flask checkpoint``.

``adopt`` is the one honest way to begin a witness anew (docs/record.md, "Moving to a new
machine, honestly"): the database remembers its witness reaching line N, and this host holds no such witness
(a new machine, a disk lost). The operator says why; the witness's files that do not match are set
aside, not deleted; a new witness begins at line N + 1 from the database as it stands, saying who
adopted it, when and why. ``flask verify`` prints that note ever after, and the history before it
is vouched for by the checkpoints collected (``flask verify --checkpoints FILE``).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

import click
from flask import current_app
from flask.cli import with_appcontext

from floor.extensions import db
from floor.witness import collector
from floor.witness.anchor import WitnessCheckpoint, epoch, reach_row
from floor.witness.lines import ADOPT
from floor.witness.room import room
from floor.witness.store import SqlStore, WitnessLost


def operator() -> str:
    """Who runs a command that the witness records (the login behind sudo, else the user)."""
    return os.environ.get("SUDO_USER") or os.environ.get("USER") or os.environ.get("LOGNAME") or "?"


@click.group("witness")
def witness_group() -> None:
    """The room's witness: its state, adopting a new one, its database for several hosts."""


def _reach() -> tuple[int, str]:
    with db.engine.connect() as connection:
        reach = reach_row(connection)
    return (reach.n, reach.link) if reach is not None else (0, "")


@witness_group.command("status")
@with_appcontext
def status_command() -> None:
    """Where the witness is kept, how far it reaches, how far the database remembers it reaching."""
    the_room = room()
    n, link = _reach()
    click.echo(f"Witness: {the_room.store.name}")
    click.echo(f"The database remembers it reaching line {n} (link {link or '-'})")
    try:
        fold = the_room.read_on()
    except WitnessLost as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"It holds lines up to {fold.n} (link {fold.link or '-'}), read from line {fold.began or 1}")
    if fold.checkpoint:
        click.echo(f"Last sealed checkpoint: line {fold.checkpoint['n']} ({fold.checkpoint['at']}), link "
                   f"{fold.checkpoint['link']}")
    collector_address = current_app.config.get("FLOOR_CHECKPOINT_SYSLOG")
    click.echo(f"Collector: {collector_address or 'none configured (FLOOR_CHECKPOINT_SYSLOG)'}")
    if n > fold.n:
        raise click.ClickException(f"the witness is {n - fold.n} line(s) short of the database's record: put it back, "
                                   "or record a new one with `flask --app floor witness adopt --reason ...`")


@witness_group.command("adopt")
@click.option("--reason", required=True, help="Why this host begins a new witness (kept in it for ever).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def adopt_command(reason: str, yes: bool) -> None:
    """Begin a new witness on this host, continuing the database's record of the lost one."""
    the_room = room()
    n, link = _reach()
    try:
        fold = the_room.read_on()
        whole = n == fold.n and link == fold.link
    except WitnessLost:
        whole = False
    if whole:
        raise click.ClickException(f"the witness ({the_room.store.name}) is the database's, whole to line {n}: there is "
                                   "nothing to adopt")
    if not reason.strip():
        raise click.BadParameter("say why", param_hint="--reason")
    if not yes:
        click.confirm(f"The database remembers a witness reaching line {n} that this host does not hold whole. Begin a "
                      f"new one at line {n + 1}, recording '{reason}'?", abort=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    try:
        aside = the_room.store.set_aside(stamp)
    except WitnessLost as exc:
        raise click.ClickException(str(exc)) from None
    the_room.forget()
    source = f"{reason.strip()} (the database remembered line {n}; {'set aside: ' + aside if aside else 'none here'})"
    head = epoch(ADOPT, source, operator())
    click.echo(f"A new witness begins at line {head['n']} ({the_room.store.name}), recorded as adopted by "
               f"{operator()}: {source}. `flask --app floor verify` notes it from now on.")


@witness_group.command("init-store")
@with_appcontext
def init_store_command() -> None:
    """Create the witness's table in FLOOR_WITNESS_URL's database (run it as the database's owner)."""
    store = room().store
    if not isinstance(store, SqlStore):
        raise click.ClickException("FLOOR_WITNESS_URL is not set: this host keeps its witness in instance/ (one host)")
    store.create()
    click.echo(f"The witness's table is ready in {store.name}. Give the app's role only what it needs:")
    click.echo("  GRANT SELECT, INSERT ON witness_lines TO <the app's role>;")
    click.echo("  REVOKE UPDATE, DELETE, TRUNCATE ON witness_lines FROM <the app's role>;")


@click.command("checkpoint")
@click.option("--send-all", is_flag=True, help="Send every checkpoint the database holds to the collector again.")
@with_appcontext
def checkpoint_command(send_all: bool) -> None:
    """Take a sealed checkpoint now, send it to the collector and print it (keep the print)."""
    if send_all:
        rows = db.session.scalars(db.select(WitnessCheckpoint).order_by(WitnessCheckpoint.n)).all()
        sent = sum(collector.send(row.line) for row in rows)
        click.echo(f"{sent} of {len(rows)} checkpoint(s) sent to {current_app.config.get('FLOOR_CHECKPOINT_SYSLOG')}")
        return
    session = db.session()
    if db.engine.dialect.name == "sqlite":
        session.execute(db.text("UPDATE witness_reach SET n = n WHERE id = 1"))  # the write lock first, as every writer
    session.info["floor_witness_checkpoint"] = True
    try:
        session.commit()
    except WitnessLost as exc:
        raise click.ClickException(str(exc)) from None
    fold = room().read_on()
    click.echo(collector.message(fold.checkpoint or {"n": 0, "at": "", "link": "", "kind": ""}))
