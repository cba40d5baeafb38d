"""What every realm provides: card data, the engine face (pure rules) and the CP-SAT face.

A realm is one module plus one TOML data file (`data/<key>.toml`). The engine face states the
card's rules and nothing else; the model face (`encode`) states the same rules as constraints
over the round model's events (see solver/model.py).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources as ir
from typing import TYPE_CHECKING, Any, Hashable, Iterable

from ..errors import IllegalAction
from ..line import Choice, Source
from ..resources import NOTHING, Resources
from ..rules import RuleSet

if TYPE_CHECKING:
    from ..model import RealmEncoder


@dataclass(frozen=True)
class Use:
    """A # arriving in a realm: its value after pumpkins, where it came from, the turn's roll."""

    value: int
    source: Source
    roll: tuple[int, int]
    turn: int


@dataclass(frozen=True)
class Effect:
    """What using a # in a realm does: the new sheet, the card's own cost, the benefits gained."""

    state: Hashable
    cost: Resources = NOTHING
    gain: Resources = NOTHING


@dataclass(frozen=True)
class TurnEnd:
    """What a realm sees at the end of a turn."""

    roll: tuple[int, int]
    #: rolled die k was placed (as a rolled die, not a copy) in this realm this turn
    placed_here: tuple[bool, bool]
    turn: int
    last_turn: bool


def load_card(key: str) -> dict[str, Any]:
    text = ir.files("solver.realms").joinpath("data", f"{key}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


class Realm:
    """Base class: subclasses set `key` and implement the rules of their card."""

    key: str = ""
    #: choice fields whose values are text even when they look like numbers (cells=11)
    text_choices: tuple[str, ...] = ()
    #: every star this realm scores is scored by one of its own activations and its encoding says
    #: which (`RealmEncoder.add_stars`), so the model knows the stars after each turn
    timed_stars: bool = False

    def __init__(self, card: dict[str, Any] | None = None) -> None:
        self.card = card if card is not None else load_card(self.key)
        self.title: str = self.card["title"]
        self.provenance: str = self.card["provenance"]
        self.aliases: list[str] = list(self.card.get("aliases", []))

    # ---- engine face ------------------------------------------------------------------
    def initial(self, rules: RuleSet) -> Hashable:
        raise NotImplementedError

    def candidates(self, state: Hashable, value: int, rules: RuleSet) -> Iterable[Choice]:
        """Every choice worth trying for a # of this value (apply() decides legality)."""
        raise NotImplementedError

    def apply(self, state: Hashable, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        """Use a # here with this choice, or raise IllegalAction naming the rule broken."""
        raise NotImplementedError

    def options(self, state: Hashable, use: Use, rules: RuleSet) -> list[tuple[Choice, Effect]]:
        out = []
        for choice in self.candidates(state, use.value, rules):
            try:
                out.append((choice, self.apply(state, use, choice, rules)))
            except IllegalAction:
                pass
        return out

    def end_turn_options(self, state: Hashable, info: TurnEnd, rules: RuleSet) -> list[tuple[Choice, Hashable]]:
        """The ways this realm's end-of-turn step can go (most realms: nothing happens)."""
        return [((), state)]

    def stars(self, state: Hashable, rules: RuleSet) -> int:
        """Stars on the sheet (before the per-realm cap)."""
        raise NotImplementedError

    # ---- cross-realm hooks (optional; the defaults keep a realm to its own sheet) ----------
    def stars_in_round(self, state: Hashable, rules: RuleSet, others: tuple[int, ...]) -> int:
        """Stars when the other realms of the round score `others` (each already capped).

        Only realms whose scoring names the other realms override this (Between Two Cities);
        the engine calls it for every realm after computing every realm's own `stars`."""
        return self.stars(state, rules)

    def observe_gain(self, state: Hashable, gain: Resources, rules: RuleSet) -> Hashable:
        """The sheet after the player earns `gain` anywhere in the round (any realm, or a
        compensation). The engine calls it on every realm's sheet for every gain, also the
        realm's own gains and also when the realm is not activated (My Little Scythe)."""
        return state

    def max_gain(self, rules: RuleSet) -> Resources:
        """A sound upper bound on the resources this realm can give in one round."""
        raise NotImplementedError

    def sheet_rows(self, state: Hashable) -> list[tuple[str, str]]:
        """The sheet drawn as (label, text) rows for a person to read."""
        return [("state", repr(state))]

    def describe(self) -> str:
        return f"{self.card.get('usage', '')}\nScoring: {self.card.get('scoring', '')}"

    # ---- model face --------------------------------------------------------------------
    def max_events(self, turns: int, rules: RuleSet) -> int:
        """A proven bound on this realm's activations in a round."""
        raise NotImplementedError

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """A proven bound on the resources (all kinds together) one activation can give."""
        raise NotImplementedError

    def encode(self, enc: "RealmEncoder") -> None:
        """Add this realm's rules to the CP-SAT model (gains, costs, stars, placeability)."""
        raise NotImplementedError
