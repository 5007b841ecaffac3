"""The rule catalogue (rules.catalogue): every rule id of RULES.md, and every id the tree cites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import RulesError
from rules.catalogue import GROUPS, RULES, Source, by_group, rule, rules
from rules.profiles import get_profile
from rules.rulings import build_tree

#: The ids of RULES.md (the project's rule catalogue).
EXPECTED = (
    [f"H{i}" for i in range(1, 10)] + [f"O{i}" for i in range(1, 8)] + [f"F{i}" for i in range(1, 13)]
    + [f"S{i}" for i in range(1, 4)] + [f"D{i}" for i in range(1, 18)] + [f"B{i}" for i in range(1, 6)]
    + ["P1"]
)
#: Ids the catalogue adds for seed items RULES.md gives no id of their own (issue 22): re-straddles
#: (PAGAT's blind game) and jacks back's no check-raise (PAGAT).
ADDED = ("H9", "O7", "D14", "D15", "D16", "D17")

SHARED = Path("/work/shared")
RULES_MD = SHARED / "RULES.md"
SEEDS = SHARED / "seeds"
#: The catalogue and the decision tree's texts (rules/ in packages since issue 23: the tree is rules/rulings/)
OWN_FILES = [Path(__file__).resolve().parents[1] / "rules" / "catalogue.py",
             *sorted((Path(__file__).resolve().parents[1] / "rules" / "rulings").glob("*.py"))]


def test_every_rule_id_present_in_order() -> None:
    assert list(RULES) == EXPECTED
    assert len(RULES) == 54


@pytest.mark.skipif(not RULES_MD.exists(), reason="shared design docs not present")
def test_catalogue_matches_rules_md() -> None:
    """Every id in RULES.md is in the catalogue, and every source tag its entry names is listed."""
    text = RULES_MD.read_text(encoding="utf-8")
    entries = re.findall(r"^- \*\*([A-Z]\d+)\b(.*)$", text, flags=re.M)
    assert [rid for rid, _ in entries] == [r for r in EXPECTED if r not in ADDED]
    for rid, body in entries:
        named = {s for s in Source if re.search(rf"\b{s.value}\b", body)}
        assert named <= set(rule(rid).sources), (rid, named)


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


@pytest.mark.skipif(not SEEDS.exists(), reason="seed texts not present")
def test_own_words_no_ten_word_run_from_the_seeds() -> None:
    """Paraphrases, questions and summaries are the project's own words."""
    seeds: set[tuple[str, ...]] = set()
    for path in SEEDS.iterdir():
        seeds |= _shingles(path.read_text(encoding="utf-8", errors="replace"))
    for path in OWN_FILES:
        shared = _shingles(path.read_text(encoding="utf-8")) & seeds
        assert not shared, (path.name, sorted(shared)[:3])
