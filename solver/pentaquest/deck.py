"""Deck data: cards, abilities and the text format (one card per line).

Format (documented in docs/pentaquest.md)::

    # comment
    Name | ability | requirement [or requirement ...]

ability: `+` `+1` `➕` | `-` `-1` `−` `➖` | `+-` `±` `±1` | `R` `reroll` `🎲` | `X` `mirror` `🔄`.
requirement: up to 5 tokens, each a value 1-6 or a symbol `S`/`☀` (sun) or `M`/`☾` (moon);
whitespace between tokens is optional (`SSMM` = `S S M M`). Alternatives are separated by
`or` or `/`. The deck order is the file's order.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import PentaquestInputError
from .matcher import Requirement

ABILITIES = ("plus", "minus", "plusminus", "reroll", "mirror")
ABILITY_SYMBOL = {"plus": "➕", "minus": "➖", "plusminus": "±1", "reroll": "🎲", "mirror": "🔄"}
_ABILITY_ALIASES = {
    "+": "plus", "+1": "plus", "➕": "plus", "plus": "plus",
    "-": "minus", "-1": "minus", "−": "minus", "−1": "minus", "➖": "minus", "minus": "minus",
    "+-": "plusminus", "±": "plusminus", "±1": "plusminus", "+-1": "plusminus", "plusminus": "plusminus",
    "r": "reroll", "reroll": "reroll", "🎲": "reroll",
    "x": "mirror", "mirror": "mirror", "🔄": "mirror",
}
_SUN = {"S", "s", "☀", "☀️", "🌞"}
_MOON = {"M", "m", "☾", "☽", "🌙"}
MAX_DECK = 60


@dataclass(frozen=True)
class Card:
    """A monster card: name, army ability, and its requirement alternatives (any one suffices)."""

    name: str
    ability: str
    alternatives: tuple[Requirement, ...]

    def requirement_text(self) -> str:
        return " or ".join(str(r) for r in self.alternatives)


@dataclass(frozen=True)
class Deck:
    """The cards in draw order (top of deck first) and where they came from."""

    cards: tuple[Card, ...]
    source: str = "<deck>"

    def __len__(self) -> int:
        return len(self.cards)

    def index_of(self, name: str) -> list[int]:
        return [i for i, c in enumerate(self.cards) if c.name == name]


def parse_requirement(text: str, source: str, lineno: int) -> Requirement:
    values: list[int] = []
    suns = moons = 0
    i = 0
    chars = text.strip()
    while i < len(chars):
        ch = chars[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "\ufe0f":  # emoji variation selector after ☀
            i += 1
            continue
        if ch in "123456":
            values.append(int(ch))
        elif ch in _SUN:
            suns += 1
        elif ch in _MOON:
            moons += 1
        elif ch in "⚀⚁⚂⚃⚄⚅":
            values.append("⚀⚁⚂⚃⚄⚅".index(ch) + 1)
        else:
            raise PentaquestInputError(f"unknown symbol {ch!r}", source, lineno)
        i += 1
    n = len(values) + suns + moons
    if n == 0:
        raise PentaquestInputError("empty requirement", source, lineno)
    if n > 5:
        raise PentaquestInputError(f"requirement {text.strip()!r} needs {n} dice, more than 5", source, lineno)
    return Requirement(tuple(sorted(values)), suns, moons)


def parse_deck_text(text: str, source: str = "<deck>") -> Deck:
    """Parse the deck format; raises PentaquestInputError naming the source and line."""
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            raise PentaquestInputError("expected 'name | ability | requirement'", source, lineno)
        name, ability_text, req_text = parts
        if not name:
            raise PentaquestInputError("empty card name", source, lineno)
        if name.startswith("#") or ";" in name:
            raise PentaquestInputError(f"card name {name!r} may not contain ';'", source, lineno)
        if name in seen:
            raise PentaquestInputError(f"duplicate card name {name!r} (first on line {seen[name]})", source, lineno)
        seen[name] = lineno
        ability = _ABILITY_ALIASES.get(ability_text.lower()) or _ABILITY_ALIASES.get(ability_text)
        if ability is None:
            raise PentaquestInputError(f"unknown ability symbol {ability_text!r}", source, lineno)
        alts_text = [a for a in req_text.replace(" or ", "/").replace(" OR ", "/").split("/")]
        alts = tuple(parse_requirement(a, source, lineno) for a in alts_text)
        cards.append(Card(name, ability, alts))
    if not 1 <= len(cards) <= MAX_DECK:
        raise PentaquestInputError(f"deck has {len(cards)} cards, expected 1-{MAX_DECK}", source)
    return Deck(tuple(cards), source)


def load_deck(path: str | Path) -> Deck:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PentaquestInputError(f"cannot read deck: {exc.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise PentaquestInputError("deck is not UTF-8 text", str(path)) from None
    return parse_deck_text(text, p.name)


def load_default_deck() -> Deck:
    """The bundled reconstructed 42-card deck (see the file's provenance header)."""
    text = resources.files("solver.pentaquest").joinpath("data/default_deck.txt").read_text(encoding="utf-8")
    return parse_deck_text(text, "default_deck.txt")
