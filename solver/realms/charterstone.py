"""Charterstone (base game, PNP v10.1): bonuses that write the other die on a crate; crates score.

PNP: "Mark either a bonus (note the other rolled die on the crate) or all crates matching the
die." realms.md: "Six columns 1-6 with bonuses P, P, H, H, C, C; under each an empty crate worth
star. Usage: with # v either (a) mark bonus v (gain it) and write the value of the **other rolled
die** in crate v, or (b) mark every crate whose written number is v (1 star each). Campaign:
copies are ignored when deciding which number to write."

Readings (ours; rule option `charterstone_crate`):
- "other-die" (default): the other rolled die is taken as rolled (no pumpkin changes). A # that
  is rolled die k, or a copy of die k, writes the value of die 1-k (a copy stands for the die it
  copies, as the campaign's "copies are ignored" suggests). A created # is neither rolled die, so
  both rolled dice are "other": the player writes either one (choice crate=N, N one of the two
  rolled values).
- "rolled-only": only a rolled die may take a bonus and write a crate; copies and created #s may
  only mark crates.
- (b) needs at least one unmarked crate showing v (a use must mark something); a marked crate
  stays marked. A bonus is marked once; its crate is written once, when the bonus is marked.

Choices: action=bonus (a rolled die or a copy), action=bonus crate=N (a created #),
action=crates.
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (bonuses marked, sorted columns), (number written on each crate, 0 = empty), (crates marked)
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Charterstone(Realm):
    key = "charterstone"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.bonuses = list(self.card["bonuses"])
        self.n = len(self.bonuses)

    def initial(self, rules: RuleSet) -> State:
        return ((), (0,) * self.n, ())

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        out = [make_choice(action="bonus"), make_choice(action="crates")]
        out += [make_choice(action="bonus", crate=x) for x in range(1, 7)]
        return out

    def crate_values(self, use: Use, rules: RuleSet) -> tuple[set[int], str | None]:
        """The numbers this # may write on a crate, or the reason it may not take a bonus."""
        kind, k = use.source.kind, use.source.die
        if kind == "die":
            return {use.roll[1 - k]}, None
        if rules.charterstone_crate == "rolled-only":
            return set(), "only a rolled die may mark a bonus and write a crate (rule option charterstone_crate=rolled-only)"
        if kind == "create":
            return set(use.roll), None
        return {use.roll[1 - k]}, None  # a copy of die k: the other rolled die is die 1-k

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        marked, crates, done = state
        action = c.get("action")
        if action == "crates":
            if set(c) != {"action"}:
                raise IllegalAction("charterstone: action=crates takes no other choice")
            hit = [i for i in range(self.n) if crates[i] == use.value and i not in done]
            if not hit:
                raise IllegalAction(f"charterstone: no unmarked crate shows {use.value}")
            return Effect((marked, crates, tuple(sorted(done + tuple(hit)))))
        if action != "bonus" or not set(c) <= {"action", "crate"}:
            raise IllegalAction("charterstone: choose action=bonus (crate=N for a created #) or action=crates")
        col = use.value - 1
        if col not in range(self.n):
            raise IllegalAction(f"charterstone: no bonus {use.value}")
        if col in marked:
            raise IllegalAction(f"charterstone: bonus {use.value} is already marked")
        values, why = self.crate_values(use, rules)
        if why:
            raise IllegalAction(f"charterstone: {why}")
        if use.source.kind == "create":
            if "crate" not in c:
                raise IllegalAction(f"charterstone: a created # writes either rolled die on the crate: choose crate={' or '.join(map(str, sorted(values)))}")
            if c["crate"] not in values:
                raise IllegalAction(f"charterstone: the crate gets a rolled die ({' or '.join(map(str, sorted(values)))}), not {c['crate']}")
            written = c["crate"]
        else:
            (written,) = values
            if "crate" in c and c["crate"] != written:
                raise IllegalAction(f"charterstone: the crate gets the other rolled die, {written}, not {c['crate']}")
            if "crate" in c:
                raise IllegalAction("charterstone: crate=N is chosen only for a created # (a die or a copy writes the other rolled die)")
        new_crates = crates[:col] + (written,) + crates[col + 1 :]
        return Effect((tuple(sorted(marked + (col,))), new_crates, done), gain=Resources.of(self.bonuses[col]))

    def stars(self, state: State, rules: RuleSet) -> int:
        return len(state[2])

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for k in self.bonuses:
            total = total + Resources.of(k)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        marked, crates, done = state
        bon = " ".join(f"({i + 1}{b})" if i in marked else f" {i + 1}{b} " for i, b in enumerate(self.bonuses))
        cr = " ".join(("[" + str(v) + "★]" if i in done else f"[{v}] ") if v else "[_] " for i, v in enumerate(crates))
        return [("bonuses", bon), ("crates", cr)]


REALM = Charterstone
