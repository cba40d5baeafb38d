"""Played-game ("line") format: one text line per turn, or the same as JSON.

Text: actions separated by `;`, one turn per line, `#` comments::

    reroll 1,3 ; reroll 2 ; defeat Goblin
    use Orc 2+ ; use Imp 4 ; use Wisp 1,5 ; defeat Troll
    pass

`reroll D,..`          free reroll of dice positions 1-5
`use CARD D`           +1 / -1 / mirror card on die D
`use CARD D+` / `D-`   ±1 card on die D, raising or lowering it
`use CARD D,..`        reroll (🎲) card on the listed dice
`defeat CARD`          defeat a quest monster (ends the turn)
`pass`                 end the turn without a defeat (loses)
CARD is the card name or `#n` (1-based deck position).
JSON: {"turns": [[{"action": "reroll", "dice": [1, 3]},
                  {"action": "use", "card": "Orc", "dice": [2], "delta": 1},
                  {"action": "defeat", "card": "Troll"}], ...]}
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .deck import Deck
from .engine import Action, Defeat, Pass, Reroll, Use
from .errors import PentaquestInputError

Line = tuple[tuple[Action, ...], ...]


def _card_ref(deck: Deck, ref: str, source: str, lineno: int | None) -> int:
    ref = ref.strip()
    m = re.fullmatch(r"#(\d+)", ref)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= len(deck):
            raise PentaquestInputError(f"card #{n} outside the deck (1-{len(deck)})", source, lineno)
        return n - 1
    hits = deck.index_of(ref)
    if not hits:
        raise PentaquestInputError(f"unknown card {ref!r}", source, lineno)
    return hits[0]


def _dice(text: str, source: str, lineno: int | None) -> tuple[int, ...]:
    out = []
    for tok in text.split(","):
        tok = tok.strip().lower().removeprefix("d")
        if not tok.isdigit():
            raise PentaquestInputError(f"bad die position {tok!r}", source, lineno)
        out.append(int(tok))
    return tuple(out)


def parse_action(deck: Deck, text: str, source: str = "<line>", lineno: int | None = None) -> Action:
    words = text.split()
    if not words:
        raise PentaquestInputError("empty action", source, lineno)
    verb = words[0].lower()
    if verb == "pass" and len(words) == 1:
        return Pass()
    if verb == "reroll" and len(words) >= 2:
        return Reroll(_dice("".join(words[1:]), source, lineno))
    if verb == "defeat" and len(words) >= 2:
        return Defeat(_card_ref(deck, " ".join(words[1:]), source, lineno))
    if verb == "use" and len(words) >= 3:
        target = words[-1]
        delta = 0
        if target.endswith("+") or target.endswith("-"):
            delta = 1 if target.endswith("+") else -1
            target = target[:-1]
        return Use(_card_ref(deck, " ".join(words[1:-1]), source, lineno), _dice(target, source, lineno), delta)
    raise PentaquestInputError(f"cannot read action {text.strip()!r}", source, lineno)


def parse_line_text(deck: Deck, text: str, source: str = "<line>") -> Line:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return parse_line_json(deck, stripped, source)
    turns: list[tuple[Action, ...]] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        body = _strip_comment(raw)
        if not body.strip():
            continue
        turns.append(tuple(parse_action(deck, part, source, lineno) for part in body.split(";") if part.strip()))
    if not turns:
        raise PentaquestInputError("line has no turns", source)
    return tuple(turns)


def _strip_comment(raw: str) -> str:
    """Drop a `#` comment but keep `#n` card references."""
    m = re.search(r"#(?!\d)", raw)
    return raw[:m.start()] if m else raw


def parse_line_json(deck: Deck, text: str, source: str = "<line>") -> Line:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PentaquestInputError(f"bad JSON: {exc.msg}", source, exc.lineno) from None
    turns_data = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(turns_data, list) or not turns_data:
        raise PentaquestInputError("JSON line needs a non-empty 'turns' list", source)
    turns: list[tuple[Action, ...]] = []
    for n, turn in enumerate(turns_data, 1):
        if not isinstance(turn, list):
            raise PentaquestInputError(f"turn {n}: expected a list of actions", source)
        acts: list[Action] = []
        for a in turn:
            if not isinstance(a, dict) or "action" not in a:
                raise PentaquestInputError(f"turn {n}: each action needs an 'action' field", source)
            kind = a["action"]
            try:
                if kind == "reroll":
                    acts.append(Reroll(tuple(int(d) for d in a["dice"])))
                elif kind == "use":
                    acts.append(Use(_card_ref(deck, str(a["card"]), source, None),
                                    tuple(int(d) for d in a["dice"]), int(a.get("delta", 0))))
                elif kind == "defeat":
                    acts.append(Defeat(_card_ref(deck, str(a["card"]), source, None)))
                elif kind == "pass":
                    acts.append(Pass())
                else:
                    raise PentaquestInputError(f"turn {n}: unknown action {kind!r}", source)
            except (KeyError, TypeError, ValueError) as exc:
                if isinstance(exc, PentaquestInputError):
                    raise
                raise PentaquestInputError(f"turn {n}: malformed action {a!r}", source) from None
        turns.append(tuple(acts))
    return tuple(turns)


def load_line(deck: Deck, path: str | Path) -> Line:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PentaquestInputError(f"cannot read line: {exc.strerror}", str(path)) from None
    return parse_line_text(deck, text, p.name)


def format_action(deck: Deck, a: Action) -> str:
    if isinstance(a, Reroll):
        return "reroll " + ",".join(map(str, a.dice))
    if isinstance(a, Use):
        sign = {1: "+", -1: "-"}.get(a.delta, "")
        return f"use {deck.cards[a.card].name} {','.join(map(str, a.dice))}{sign}"
    if isinstance(a, Defeat):
        return f"defeat {deck.cards[a.card].name}"
    return "pass"


def format_line(deck: Deck, line: Line) -> str:
    return "\n".join(" ; ".join(format_action(deck, a) for a in turn) for turn in line) + "\n"


def action_to_json(deck: Deck, a: Action) -> dict[str, object]:
    if isinstance(a, Reroll):
        return {"action": "reroll", "dice": list(a.dice)}
    if isinstance(a, Use):
        d: dict[str, object] = {"action": "use", "card": deck.cards[a.card].name, "dice": list(a.dice)}
        if a.delta:
            d["delta"] = a.delta
        return d
    if isinstance(a, Defeat):
        return {"action": "defeat", "card": deck.cards[a.card].name}
    return {"action": "pass"}


def line_to_json(deck: Deck, line: Line) -> dict[str, object]:
    return {"turns": [[action_to_json(deck, a) for a in turn] for turn in line]}
