"""Every benchmark runs to its end (issue 34: ``bench/bench_replay.py`` crashed on its first random
seating move and the five scripts after it never ran, unnoticed by CI).

Each ``bench/bench_*.py`` is run as ``make bench`` runs it, in its own process, with ``--smoke``:
the same code paths on tiny counts. The processes are forked by ``bench/smoke.py`` from one that
has imported the app and built it once (each script on its own paid 1.2 s of CPU for that, of the
1.5 to 4 s its smoke run cost). A script that crashes, prints nothing, or does not take
``--smoke`` fails here, so it fails ``make test`` (``make bench-smoke`` runs this file alone). The
figures a smoke run prints mean nothing; ``make bench`` prints the real ones.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py"))


def test_the_benchmarks_are_found() -> None:
    assert "bench_replay.py" in SCRIPTS and len(SCRIPTS) >= 10, SCRIPTS


def test_every_benchmark_is_run_by_a_make_target() -> None:
    """``make bench``, ``make bench-banked`` or ``make bench-server`` runs each script: one left out
    of the Makefile is a benchmark nobody runs."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    named = set(re.findall(r"bench/(bench_\w+\.py)", makefile))
    assert set(SCRIPTS) <= named, sorted(set(SCRIPTS) - named)


@pytest.mark.slow
def test_every_benchmark_runs_to_its_end() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "smoke.py"), *SCRIPTS], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    results = {r["script"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert sorted(results) == SCRIPTS, f"bench/smoke.py exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    failed = [f"{name} --smoke exited {r['code']}:\n{r['stdout'][-3000:]}\n{r['stderr'][-3000:]}"
              for name, r in results.items() if r["code"] != 0]
    silent = [name for name, r in results.items() if not r["stdout"].strip()]
    assert not failed, "\n\n".join(failed)
    assert not silent, f"--smoke printed no figure: {silent}"
    assert done.returncode == 0, done.stderr[-3000:]
