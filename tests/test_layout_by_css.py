"""The browser tests play a tablet's flow once, at a phone's size, and check its pages at each size
by resizing the window (``tests/e2e.py``, ``at_each_size``; issue 34, session 42). That stands in
for playing the flow at each size only while the layout is the CSS's alone: CSS answers a resize as
it answers a fresh load, a script that reads the window's size at load may not. This test holds
that no script of the app reads it; one that must would have its flows played at each size again.
"""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
READS_THE_SIZE = re.compile(
    r"\b(?:innerWidth|innerHeight|outerWidth|outerHeight|clientWidth|matchMedia|visualViewport|onresize)\b"
    r"|\bscreen\.(?:width|height|availWidth|availHeight)\b"
    r"|addEventListener\(\s*['\"]resize['\"]")


def scripts() -> list[pathlib.Path]:
    return sorted((ROOT / "floor" / "static").glob("*.js")) + sorted((ROOT / "templates").rglob("*.html"))


def test_the_scan_sees_the_apps_scripts_and_pages():
    names = {p.name for p in scripts()}
    assert {"dealer.js", "tapqueue.js", "banked.js"} <= names and any(n.endswith(".html") for n in names)


def test_no_script_of_the_app_reads_the_windows_size():
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in scripts()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if READS_THE_SIZE.search(line)]
    assert not found, "a script reads the window's size, so a resize no longer stands for a load:\n" + "\n".join(found)


def test_the_pattern_finds_a_script_that_reads_the_size():
    for line in ("if (window.innerWidth < 600) compact();", "window.addEventListener('resize', relayout);",
                 "const wide = matchMedia('(min-width: 900px)').matches;", "let w = screen.width;"):
        assert READS_THE_SIZE.search(line), line
    assert not READS_THE_SIZE.search("el.style.width = '100%';")
