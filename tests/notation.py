"""The compact notation the engine tests write whole logged hands in.

``"deal; 2 pass; 3 open; 4 call; 2 draw 3; 3 draw 1 split Jh; 3 show As Ad Kc 7h 2s; void 4"``
"""

from __future__ import annotations

from typing import Any

from rules.jackpot import replay


def table(n: int = 4, stack: int = 500, button: int = 1, profile: Any = "cardroom", ante: int = 5,
          stacks: dict[int, int] | None = None) -> dict[str, Any]:
    stacks = stacks or {}
    return {"profile": profile, "ante": ante, "small_bet": 10, "big_bet": 20, "button": button,
            "seats": [{"seat": s, "player": f"P{s}", "stack": stacks.get(s, stack)} for s in range(1, n + 1)]}


def log(text: str) -> list[dict[str, Any]]:
    """Events from the compact notation."""
    out: list[dict[str, Any]] = []
    for item in (x.strip() for x in text.split(";")):
        if not item:
            continue
        words = item.split()
        if words[0] == "deal":
            out.append({"type": "deal"})
            continue
        if words[0] == "void":
            out.append({"type": "void", "event": int(words[1])})
            continue
        seat, kind, rest = int(words[0]), words[1], words[2:]
        e: dict[str, Any] = {"type": kind, "seat": seat}
        if kind == "draw":
            e["count"] = int(rest[0])
            if len(rest) > 1 and rest[1] == "split":
                e["split"], e["escrow"] = True, rest[2:]
        elif kind == "show":
            e["cards"] = " ".join(rest)
        elif kind in ("open", "reopen") and rest:
            e["amount"] = int(rest[0])
        out.append(e)
    return out


def play(setup: dict[str, Any], text: str) -> dict[str, Any]:
    return replay(setup, log(text))


def stacks(state: dict[str, Any]) -> dict[int, int]:
    return {s: x["stack"] for s, x in state["seats"].items()}


def statuses(state: dict[str, Any]) -> dict[int, str]:
    return {s: x["status"] for s, x in state["seats"].items()}
