"""A floor person's phone walking the dispute tree: ``/rulings/new`` question by question.

The floor's pages are HTML forms; this reads them as a browser does (the hidden fields carry the
facts so far and the CSRF token, the question names the fact it asks), answers each question the
tree asks from what the simulator knows of the table (it dealt the cards, so it knows a hand's
card count and who holds openers), previews the ruling, issues it (applied to the table's log)
and ends on the stored ruling's page. It imports nothing of ``rules/`` or ``floor/``: a question
the simulator cannot answer from what it knows ends the walk with an error, as a floor person
stuck at a question would call the manager.

>>> form = read_form('<form method="post" action="/rulings/new"><input type="hidden" name="csrf_token" '
...     'value="t1"><input type="hidden" name="fact-issue" value="&quot;wrong_card_count&quot;">'
...     '<input type="hidden" name="fact" value="card_count"><input type="number" name="answer"></form>')
>>> form.fact, form.hidden["fact-issue"], form.answer_kind
('card_count', '"wrong_card_count"', 'number')
>>> answer_fields(form, "seat", 3), answer_fields(form, "opener_all_in", True)
({'answer': '3'}, {'answer': 'yes'})
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

WALK = "/rulings/new"
MAX_STEPS = 20  # the deepest path of the tree is far shorter: a walk that goes on is a failure


class WalkError(RuntimeError):
    """The walk could not reach a ruling (a question the simulator cannot answer, a refusal)."""


@dataclass
class Form:
    """The walk's form on one page: hidden fields, the fact asked, how the answer is given."""

    hidden: dict[str, str] = field(default_factory=dict)
    fact: str = ""
    answer_kind: str = ""  # radio, checkbox, number, text, grid (answer-<seat>) or "" (no question)
    choices: list[str] = field(default_factory=list)
    step: str = ""
    error: str = ""
    checked: set[str] = field(default_factory=set)  # checkboxes ticked by default (apply)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.form: Form | None = None
        self.inside = False
        self.in_error = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form" and a.get("action", "").endswith(WALK) and a.get("method", "").lower() == "post":
            if self.form is None:
                self.form, self.inside = Form(), True
            return
        if tag == "div" and "field-error" in a.get("class", ""):
            self.in_error = True  # an error on the page, in the walk's form or above it
        if not self.inside or self.form is None or tag not in ("input", "textarea"):
            return
        name, kind = a.get("name", ""), a.get("type", "text") if tag == "input" else "text"
        if kind == "hidden":
            if name == "fact":
                self.form.fact = a.get("value", "")
            elif name == "step":
                self.form.step = a.get("value", "")
            else:
                self.form.hidden[name] = a.get("value", "")
        elif name == "answer":
            self.form.answer_kind = kind
            if kind in ("radio", "checkbox"):
                self.form.choices.append(a.get("value", ""))
        elif name.startswith("answer-"):
            self.form.answer_kind = "grid"
            self.form.choices.append(name[7:])
        elif kind == "checkbox" and "checked" in a:
            self.form.checked.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "div":
            self.in_error = False

    def handle_data(self, data: str) -> None:
        if self.in_error and self.form is not None and data.strip():
            self.form.error += data.strip()


def read_form(html: str) -> Form | None:
    """The first form that posts to the walk, or None (a page without one)."""
    reader = _Reader()
    reader.feed(html)
    return reader.form


def _one(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def answer_fields(form: Form, fact: str, value: Any) -> dict[str, Any]:
    """The posted fields that answer ``fact`` with ``value`` on this form (a radio answer must be
    one of the page's choices, as a phone can only tap those)."""
    if form.answer_kind == "grid":
        given = value if isinstance(value, dict) else {}
        return {f"answer-{s}": _one(given.get(s, given.get(int(s), ""))) if s in given or s.isdigit()
                and int(s) in given else "" for s in form.choices}
    if form.answer_kind == "checkbox":
        picked = [str(v) for v in (value or [])]
        missing = [p for p in picked if p not in form.choices]
        if missing:
            raise WalkError(f"'{fact}': the page offers {form.choices}, not {missing}")
        return {"answer": picked}
    text = _one(value)
    if form.answer_kind == "radio" and text not in form.choices:
        raise WalkError(f"'{fact}': the page offers {form.choices}, not {text!r}")
    return {"answer": text}


@dataclass
class WalkResult:
    """A finished walk: the stored ruling's id and the facts the tree asked on the way."""

    ruling_id: int
    asked: list[str]


def walk(web: Any, start: str, known: dict[str, Any]) -> WalkResult:
    """Walk from ``start`` (``/rulings/new?table=..``) to an issued ruling, answering each question
    from ``known`` (fact name -> value); the ruling is applied to the table's log."""
    status, data, headers = web.raw("GET", start)
    asked: list[str] = []
    for _ in range(MAX_STEPS):
        if status in (302, 303):
            found = re.search(r"/rulings/(\d+)$", headers.get("location", ""))
            if not found:
                raise WalkError(f"the walk ended on {headers.get('location')!r}, not on a ruling")
            return WalkResult(int(found.group(1)), asked)
        page = data.decode("utf-8", "replace")
        form = read_form(page)
        if status != 200 or form is None:
            raise WalkError(f"the walk's page answered {status}: {form.error if form else page[:200]}")
        fields: dict[str, Any] = dict(form.hidden)
        if form.step == "issue":  # the preview: issue it, applied to the table
            fields.update(step="issue", apply="y", note="")
        elif form.step == "answer" and form.fact:
            if form.fact not in known:
                raise WalkError(f"the tree asks '{form.fact}', which the floor person cannot tell"
                                f" (asked so far: {asked})")
            asked.append(form.fact)
            fields.update(step="answer", fact=form.fact, **answer_fields(form, form.fact, known[form.fact]))
        else:
            raise WalkError(f"the walk's page asks nothing it can answer (step {form.step!r}): "
                            f"{form.error or page[:200]}")
        body = urlencode(fields, doseq=True).encode()
        status, data, headers = web.raw("POST", WALK, body, {"Content-Type": "application/x-www-form-urlencoded"})
    raise WalkError(f"no ruling after {MAX_STEPS} steps (asked {asked})")
