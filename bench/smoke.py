"""Every benchmark on tiny counts (``--smoke``), each in its own process, forked from one that has
already imported the app and built it once (``tests/test_bench_smoke.py``, ``make bench-smoke``).

    .venv/bin/python bench/smoke.py [bench_x.py ...]

A smoke run asks one thing of a script: does it run to its end? Started on its own, each script
paid for importing the app and building its first app (1.2 s of CPU of the 1.5 to 4 s a smoke run
of it costs); a second app in the same process is built in a tenth of that. So this process pays
once, then forks a child per script: the child runs the script as ``python bench/bench_x.py
--smoke`` would (``__main__``, its own ``sys.argv``, the ``bench/`` folder first on ``sys.path``),
each in a process of its own, so nothing a script does reaches the next. One JSON line per script:
its name, exit status, CPU seconds (its processes'), output and error output; the exit status is 1
when any script failed.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import sys
import tempfile
import traceback
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
TIMEOUT = 300  # seconds a script may take; a hung one is ended (SIGALRM) and reported, not waited on


def warm() -> None:
    """Import the app and build one on a throwaway folder, as the first ``bench_app`` of a script
    would, and the PDF renderer the app imports on its first print; the database closed before any
    child is forked."""
    sys.path[:0] = [str(BENCH), str(ROOT)]
    from benchkit import bench_app

    from floor.extensions import db

    import flask_weasyprint  # noqa: F401 - imported on a script's first PDF (floor.pdf): 0.4 s each

    with tempfile.TemporaryDirectory(prefix="bench-smoke-") as folder:
        app = bench_app(folder)
        with app.app_context():
            db.engine.dispose()


def run(script: str) -> dict[str, object]:
    """``script --smoke`` in a forked child; its exit status and what it printed."""
    path = BENCH / script
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: the script as its own process would run it
            code = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                signal.alarm(TIMEOUT)
                sys.argv = [str(path), "--smoke"]
                sys.path[0] = str(BENCH)
                runpy.run_path(str(path), run_name="__main__")
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if not isinstance(exc.code, int | None):
                    print(exc.code, file=sys.stderr)
            except BaseException:  # noqa: BLE001 - reported as the script's failure
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        err.seek(0)
        return {"script": script, "code": os.waitstatus_to_exitcode(status),
                "cpu": round(usage.ru_utime + usage.ru_stime, 2),
                "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace")}


def main(argv: list[str]) -> int:
    scripts = argv or sorted(p.name for p in BENCH.glob("bench_*.py"))
    os.chdir(ROOT)
    warm()
    failed = 0
    for script in scripts:
        result = run(script)
        failed += result["code"] != 0
        print(json.dumps(result), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
