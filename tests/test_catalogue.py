"""The rule catalogue (rules.catalogue, indexed in docs/rules.md): every rule id, every id the tree
cites, and the project's own words throughout."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from rules import RulesError
from rules.catalogue import GROUPS, RULES, Source, by_group, rule, rules
from rules.profiles import get_profile
from rules.rulings import build_tree

#: The ids of the rule catalogue the project was given, in order (docs/rules.md indexes them).
EXPECTED = (
    [f"H{i}" for i in range(1, 10)] + [f"O{i}" for i in range(1, 8)] + [f"F{i}" for i in range(1, 13)]
    + [f"S{i}" for i in range(1, 4)] + [f"D{i}" for i in range(1, 18)] + [f"B{i}" for i in range(1, 6)]
    + ["P1"]
)
#: Ids the catalogue adds for seed items the given catalogue left without an id (issue 22): re-straddles
#: (PAGAT's blind game) and jacks back's no check-raise (PAGAT).
ADDED = ("H9", "O7", "D14", "D15", "D16", "D17")

_ROOT = Path(__file__).resolve().parents[1]
RULES_MD = _ROOT / "docs" / "rules.md"
#: The source texts' ten-word runs, each as the first 16 hex digits of its SHA-256 (the texts are
#: not part of the repository: their fingerprints are, so the check runs everywhere; made once with
#: :func:`_fingerprint` over the five texts' words).
SEED_SHINGLES = _ROOT / "tests" / "data" / "seed_shingles.txt"
#: Everything the project prints or says: rules/ (the catalogue, the tree, the summary), the app and
#: its pages, the night, the README and docs/ are in the project's own words.
OWN_FILES = sorted([p for part in ("rules", "floor", "templates", "night") for p in (_ROOT / part).rglob("*")
                    if p.suffix in (".py", ".html", ".js")] + [_ROOT / "README.md", *(_ROOT / "docs").glob("*.md")])


def test_every_rule_id_present_in_order() -> None:
    assert list(RULES) == EXPECTED
    assert len(RULES) == 54


def test_the_docs_index_is_the_catalogue() -> None:
    """docs/rules.md lists every id in order, under its group, with the catalogue's title and
    sources: the index a reader finds cannot drift from what rulings cite."""
    text = RULES_MD.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([A-Z]\d+) \| (.+?) \| (.+?) \|$", text, flags=re.M)
    assert [rid for rid, _, _ in rows] == EXPECTED
    for rid, title, sources in rows:
        assert title == rule(rid).title, rid
        assert [Source(s) for s in sources.split(", ")] == list(rule(rid).sources), rid
    for letter, heading in GROUPS.items():
        assert f"### {letter}: {heading}" in text


@pytest.mark.parametrize("rid", EXPECTED)
def test_each_rule_has_title_paraphrase_and_sources(rid: str) -> None:
    r = rule(rid)
    assert r.id == rid and r.title and len(r.text.split()) >= 8
    assert r.sources and all(isinstance(s, Source) for s in r.sources)
    assert r.group in GROUPS and r.cite().startswith(f"{rid} (")


def test_lookup() -> None:
    assert rule("f10").id == "F10"
    assert [r.id for r in rules(["D8", "H6"])] == ["D8", "H6"]
    assert [r.id for r in by_group("O")] == [f"O{i}" for i in range(1, 8)]
    with pytest.raises(RulesError, match="Z1"):
        rule("Z1")


@pytest.mark.parametrize("profile", ["cardroom", "pagat", "foster",
                                     {"base": "cardroom", "name": "Own", "discard_retrieval": "always",
                                      "progressive_openers": True}])
def test_tree_citations_exist(profile: object) -> None:
    """Every rule id cited by a question or a leaf of the tree is in the catalogue."""
    tree = build_tree(get_profile(profile))  # type: ignore[arg-type]
    cited = tree.citations()
    assert cited and all(c in RULES for c in cited)
    for leaf in tree.leaves():
        assert leaf.rules and all(c in RULES for c in leaf.rules)
        assert all(c in RULES for c in re.findall(r"\b[HOFSDBP]\d+\b", leaf.text))


def _shingles(text: str, n: int = 10) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def _fingerprint(text: str) -> dict[str, tuple[str, ...]]:
    """Each ten-word run of ``text`` by its fingerprint (as in :data:`SEED_SHINGLES`)."""
    return {hashlib.sha256(" ".join(run).encode()).hexdigest()[:16]: run for run in _shingles(text)}


def test_own_words_no_ten_word_run_from_the_seeds() -> None:
    """Paraphrases, questions, summaries and the docs are the project's own words: no run of ten
    words of a source text appears in them."""
    seeds = set(SEED_SHINGLES.read_text(encoding="ascii").split())
    assert len(seeds) > 6_000  # the five texts' runs
    for path in OWN_FILES:
        runs = _fingerprint(path.read_text(encoding="utf-8"))
        shared = sorted(runs[key] for key in runs.keys() & seeds)
        assert not shared, (path.name, shared[:3])
