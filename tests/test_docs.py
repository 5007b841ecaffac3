"""The design notes the code cites are in the repository (issue 34: about forty references pointed
to design files that were not).

Every ``docs/NAME.md`` named in the code, the templates, the tests, the Makefile, the README or the
docs exists, and a section quoted right after it (``docs/contract.md, "Facts"``) is a heading of
that file; every Markdown link between the README and the docs resolves; and nothing names a
design file outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    [p for part in ("rules", "floor", "templates", "tests", "night", "bench") for p in (ROOT / part).rglob("*")
     if p.suffix in (".py", ".html", ".js", ".css", ".toml") and "__pycache__" not in p.parts]
    + [ROOT / "Makefile", ROOT / "pyproject.toml", ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
#: ``docs/x.md``, and the section quoted after it when there is one (the quote may wrap a line, and a
#: comment's or docstring's line may begin with ``#``, ``#:`` or spaces).
CITED = re.compile(r'docs/([\w-]+\.md)(?:(?:,|:)?[\s#:]*(?:section\s+)?"([^"]+)")?')
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")
#: The design files of the brief, and where they were kept: never the project's references.
OUTSIDE = re.compile(r"\b(?:DESIGN|RULES|STACK)\.md\b|/work/|\.\./shared\b")


def headings(path: Path) -> set[str]:
    return {m.group(1).strip() for m in re.finditer(r"^#+\s+(.+)$", path.read_text(encoding="utf-8"), flags=re.M)}


def citations() -> list[tuple[str, str, str | None]]:
    """(the citing file, the doc, the section or None) for every citation of a doc."""
    found = []
    for path in SOURCES:
        if path == Path(__file__):
            continue  # its own docstring shows the pattern
        text = path.read_text(encoding="utf-8")
        for m in CITED.finditer(text):
            section = " ".join(re.sub(r"\n\s*#:?", " ", m.group(2)).split()) if m.group(2) else None
            found.append((str(path.relative_to(ROOT)), m.group(1), section))
    return found


def test_the_code_cites_the_docs() -> None:
    cited = citations()
    assert len(cited) >= 30, cited  # the references of the code and tests, pointed here
    assert {doc for _, doc, _ in cited} >= {"contract.md", "rules.md", "testing.md", "production.md"}


@pytest.mark.parametrize(("where", "doc", "section"), citations())
def test_every_cited_doc_and_section_exists(where: str, doc: str, section: str | None) -> None:
    path = ROOT / "docs" / doc
    assert path.exists(), f"{where} cites docs/{doc}, which is not in the repository"
    if section is not None:
        assert section in headings(path), f"{where} cites docs/{doc}, \"{section}\": no such heading"


def test_every_link_between_the_readme_and_the_docs_resolves() -> None:
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            assert (page.parent / target).resolve().exists(), f"{page.name} links to {target}"


def test_the_readme_lists_every_doc() -> None:
    """The README's docs index is how a newcomer finds them: a doc left out of it is lost."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\(docs/([\w-]+\.md)\)", readme))
    assert {p.name for p in (ROOT / "docs").glob("*.md")} <= listed


def test_nothing_cites_a_design_file_outside_the_repository() -> None:
    named = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES if p != Path(__file__)
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not named, "\n".join(named)
