"""Red Rising / "The Society" (retail realm, OG transcription): a brick-stacked pyramid of cards.

realms.md: "9 cards in rows of 2 / 3 / 4 (A B / C D E / F G H I), brick-stacked: C under A; D under
A, B; E under B; F under C; G under C, D; H under D, E; I under E. Usage: write the # on any empty
card; a card must be lower than every card directly above it. Completing a row gains: 2-row H+C;
3-row P+H+C; 4-row P+P+H+C. Scoring: 1 star per complete mini-pyramid (A/C,D, B/D,E, C/F,G,
D/G,H, E/H,I) + 1 star when all 9 filled." Precise reading: "the 'lower than every card directly
above' test applies to every filled vertically adjacent pair, whatever order they were written
in; row bonuses at once."

Choice: card=A..I.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# the # on each card in the card order A..I (0 = empty)
State = tuple[int, ...]


class RedRising(Realm):
    key = "red-rising"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.rows = [list(r) for r in self.card["rows"]]
        self.cards = [c for r in self.rows for c in r]
        self.row_bonus = []
        for kinds in self.card["row_bonus"]:
            total = Resources()
            for k in kinds:
                total = total + Resources.of(k)
            self.row_bonus.append(total)
        self.under = {a: list(bs) for a, bs in self.card["under"].items()}
        self.above = {c: [a for a, bs in self.under.items() if c in bs] for c in self.cards}
        self.bonus_all = int(self.card["all_filled_bonus"])

    def initial(self, rules: RuleSet) -> State:
        return (0,) * len(self.cards)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(card=c) for c, v in zip(self.cards, state) if not v]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"card"} or c["card"] not in self.cards:
            raise IllegalAction(f"red-rising: choose card={'|'.join(self.cards)}")
        name = c["card"]
        i = self.cards.index(name)
        if state[i]:
            raise IllegalAction(f"red-rising: card {name} is already filled")
        v = use.value
        for a in self.above[name]:
            x = state[self.cards.index(a)]
            if x and not v < x:
                raise IllegalAction(f"red-rising: card {name} must be lower than card {a} above it ({v} vs {x})")
        for b in self.under.get(name, []):
            x = state[self.cards.index(b)]
            if x and not x < v:
                raise IllegalAction(f"red-rising: card {b} under card {name} must be lower than it ({x} vs {v})")
        new = state[:i] + (v,) + state[i + 1 :]
        gain = Resources()
        for r, row in enumerate(self.rows):
            if name in row and all(new[self.cards.index(x)] for x in row):
                gain = gain + self.row_bonus[r]
        return Effect(new, gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        filled = {c for c, v in zip(self.cards, state) if v}
        total = sum(1 for a, bs in self.under.items() if a in filled and all(b in filled for b in bs))
        if len(filled) == len(self.cards):
            total += self.bonus_all
        return total

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for b in self.row_bonus:
            total = total + b
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        rows = []
        width = max(len(r) for r in self.rows)
        for r, row in enumerate(self.rows):
            pad = " " * (2 * (width - len(row)))
            cells = "   ".join(f"{c}:{state[self.cards.index(c)] or '_'}" for c in row)
            rows.append((f"row {r + 1} ({self.row_bonus[r]})", pad + cells))
        return rows


REALM = RedRising
