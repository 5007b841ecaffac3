"""Several of the app's ``flask`` commands, one after the other, in one process.

``python -m night.commands APP JSON``: ``JSON`` is a list of commands, each the list of its
arguments as given to ``flask --app APP`` (``[["init-db"], ["create-user", "dee", "--role",
"dealer", "--password", "..."]]``). Each runs as the ``flask`` command line runs it (Flask's own
command group, a fresh app loaded for each), stopping at the first that fails. The last line
printed is JSON: one ``{"code": ..., "out": ..., "err": ...}`` per command run (its exit status,
what it printed and what it wrote to its error stream), so the caller reads each command's output
as if it had run it alone.

Why: each ``flask`` process imports the whole app (about a second and a half of CPU); setting up
the night's server ran five of them, one per user (issue 34, session 41). It stays plain command
line code: nothing of ``floor/`` or ``rules/`` is imported here, only the app named by ``APP``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import traceback


def run(app: str, commands: list[list[str]]) -> list[dict[str, object]]:
    """Run each command as ``flask --app APP ...`` would; stop after the first that fails."""
    import click
    from flask.cli import cli

    done: list[dict[str, object]] = []
    for args in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main(["--app", app, *args], prog_name="flask", standalone_mode=False)
                code = 0
            except click.ClickException as exc:
                exc.show()
                code = exc.exit_code
            except click.exceptions.Exit as exc:
                code = exc.exit_code
            except click.Abort:
                code = 1
            except Exception:  # noqa: BLE001 - reported as the command line reports it, with its traceback
                traceback.print_exc()
                code = 1
        done.append({"code": code, "out": out.getvalue(), "err": err.getvalue()})
        if code:
            break
    return done


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], json.loads(sys.argv[2]))))
