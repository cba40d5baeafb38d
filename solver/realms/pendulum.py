"""Pendulum (retail realm, OG transcription): outline benefits, complete hourglasses to cash them.

realms.md: "Five benefit spaces: [P+H], [H+C], [P+C], [star], [star]; three hourglasses holding the
numbers {6}, {5, 4}, {3, 2, 1}. Usage: outline one benefit space with any # (no gain yet), or mark
that exact # in an hourglass. When an hourglass is completed: gain everything in all outlined
spaces, 1 star per outlined star."

Readings: a space is outlined once and stays outlined, so every later hourglass completion pays
it again (3 hourglasses x 2 star spaces = 6 stars at most). A number is marked once. Completing
an hourglass pays the spaces outlined at that moment (outline first, complete later).

Choices: action=outline space=1..5, or action=mark (the # is marked in the hourglass holding it).
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (outlined spaces, 0-based, sorted), (numbers marked, sorted), stars gained
State = tuple[tuple[int, ...], tuple[int, ...], int]


class Pendulum(Realm):
    key = "pendulum"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.spaces = [list(s) for s in self.card["spaces"]]
        self.hourglasses = [tuple(int(v) for v in h) for h in self.card["hourglasses"]]
        if sorted(v for h in self.hourglasses for v in h) != list(range(1, 7)):
            raise ValueError("pendulum card: the hourglasses must hold each number 1-6 once")

    def initial(self, rules: RuleSet) -> State:
        return ((), (), 0)

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(action="mark")] + [make_choice(action="outline", space=s + 1) for s in range(len(self.spaces))]

    def payout(self, outlined: tuple[int, ...]) -> tuple[Resources, int]:
        gain, stars = Resources(), 0
        for s in outlined:
            for k in self.spaces[s]:
                if k in KINDS:
                    gain = gain + Resources.of(k)
                else:
                    stars += 1
        return gain, stars

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        outlined, marked, stars = state
        if c.get("action") == "outline" and set(c) == {"action", "space"}:
            s = c["space"] - 1 if isinstance(c["space"], int) else -1
            if s not in range(len(self.spaces)):
                raise IllegalAction(f"pendulum: space must be 1..{len(self.spaces)}")
            if s in outlined:
                raise IllegalAction(f"pendulum: space {s + 1} is already outlined")
            return Effect((tuple(sorted(outlined + (s,))), marked, stars))
        if c.get("action") != "mark" or set(c) != {"action"}:
            raise IllegalAction("pendulum: choose action=outline space=1..5, or action=mark")
        if use.value in marked:
            raise IllegalAction(f"pendulum: {use.value} is already marked in its hourglass")
        new_marked = tuple(sorted(marked + (use.value,)))
        (glass,) = [h for h in self.hourglasses if use.value in h]
        gain = Resources()
        if all(v in new_marked for v in glass):
            gain, s = self.payout(outlined)
            stars += s
        return Effect((outlined, new_marked, stars), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        return state[2]

    def max_gain(self, rules: RuleSet) -> Resources:
        gain, _ = self.payout(tuple(range(len(self.spaces))))
        n = len(self.hourglasses)
        return Resources(gain.P * n, gain.H * n, gain.C * n)

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        outlined, marked, stars = state
        sp = " ".join(
            ("(" if s in outlined else "[") + "+".join(k.replace("S", "★") for k in ks) + (")" if s in outlined else "]")
            for s, ks in enumerate(self.spaces)
        )
        hg = "  ".join("{" + " ".join(f"x{v}" if v in marked else str(v) for v in h) + "}" for h in self.hourglasses)
        return [("spaces (outlined)", sp), ("hourglasses", hg), ("stars gained", str(stars))]


REALM = Pendulum
