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
from ..resources import KINDS, Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# (bonuses marked, sorted columns), (number written on each crate, 0 = empty), (crates marked)
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Charterstone(Realm):
    key = "charterstone"
    timed_stars = True  # a crate's star, by the # whose (b) marks it

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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """Only (a) gives resources: the one bonus it marks."""
        return max(Resources.of(b).total() for b in self.bonuses)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """(a) marks an unmarked bonus (at most one per column); (b) marks at least one unmarked
        crate (at most one per column): at most two activations per column."""
        return 2 * self.n

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        """Per event: (a) `bonus[e,column c]` (the # is c) writing `write[e,w]` on crate c, or (b)
        `crates[e,v]` (the # is v) marking `hit[e,crate c]` for every crate that shows v, is
        unmarked and was written by an earlier event; the realm's events are in play order."""
        m = enc.model
        C = range(self.n)
        V = range(1, 7)
        rolled_only = enc.rules.charterstone_crate == "rolled-only"
        bonus: dict[tuple[int, int], object] = {}  # (event, column): (a) on column c
        crates: dict[tuple[int, int], object] = {}  # (event, value): (b) with # v
        write: dict[tuple[int, int], object] = {}  # (event, w): (a) writes w on its crate
        crate_w: dict[tuple[int, int, int], object] = {}  # (event, column, w): crate c gets w now
        hit: dict[tuple[int, int, int], object] = {}  # (event, column, v): (b) marks crate c (showing v)
        act_bonus: dict[int, object] = {}
        act_crates: dict[int, object] = {}
        # shown[c, v]: crate c shows v (written before the event at hand); done[c]: crate c marked
        shown: dict[tuple[int, int], object] = {}
        done: dict[int, object] = {c: 0 for c in C}
        # the sheet at the start of each turn (for placeability): (shown, done, bonus columns used)
        at_turn: dict[int, tuple[dict, dict, dict]] = {}
        used: dict[int, object] = {c: 0 for c in C}
        hits_so_far: dict[tuple[int, int], object] = {}  # (column, v): crate c marked by a v so far
        writers = {v: 0 for v in V}  # events so far that could write v (v in their roll)
        for e in enc.events:
            at_turn.setdefault(e.t, (dict(shown), dict(done), dict(used)))
            roll = enc.rolls[e.t]
            a = enc.bool("bonus", e.tag)
            b = enc.bool("crates", e.tag)
            act_bonus[e.i], act_crates[e.i] = a, b
            m.add(a + b == e.active)
            for c in C:
                bonus[e.i, c] = enc.bool("bonus", e.tag, f"column{c + 1}")
                # "mark bonus v": the # names the column; each bonus is marked once
                m.add(bonus[e.i, c] + used[c] <= 1)
            for v in V:
                crates[e.i, v] = enc.bool("crates", e.tag, v)
                m.add(bonus[e.i, v - 1] + crates[e.i, v] == e.val[v])
            m.add(sum(bonus[e.i, c] for c in C) == a)
            m.add(sum(crates[e.i, v] for v in V) == b)
            for c in C:
                g = Resources.of(self.bonuses[c])
                for K in KINDS:
                    if g.get(K):
                        enc.add_gain(e, K, g.get(K) * bonus[e.i, c])
            # "write the value of the other rolled die": a rolled die or a copy of die k writes
            # die 1-k as rolled; a created # writes either rolled die (option charterstone_crate)
            ws = sorted(set(roll))
            for w in ws:
                write[e.i, w] = enc.bool("write", e.tag, w)
            m.add(sum(write[e.i, w] for w in ws) == a)
            for s, lit in e.use.items():
                if s.kind == "create":
                    if rolled_only:
                        m.add(a + lit <= 1)
                    continue
                if rolled_only and s.kind != "die":
                    m.add(a + lit <= 1)
                    continue
                m.add(write[e.i, roll[1 - s.die]] >= a + lit - 1)
            for c in C:
                for w in ws:
                    crate_w[e.i, c, w] = enc.bool("crate", e.tag, f"column{c + 1}", w)
                m.add(sum(crate_w[e.i, c, w] for w in ws) == bonus[e.i, c])
            for w in ws:
                m.add(sum(crate_w[e.i, c, w] for c in C) == write[e.i, w])
            # (b) "mark every crate whose written number is v": exactly the unmarked crates
            # showing v (written by an earlier event), and at least one of them
            new_done = {}
            for c in C:
                hs = []
                for v in V:
                    if (c, v) not in shown:
                        continue
                    h = enc.bool("hit", e.tag, f"crate{c + 1}", v)
                    hit[e.i, c, v] = h
                    hs.append(h)
                    m.add(h <= crates[e.i, v])
                    # crate c is marked (with v) at most once, and only once it shows v: the
                    # hits so far are at most shown (also the LP: a crate is no more marked
                    # than written)
                    hits_so_far[c, v] = hits_so_far.get((c, v), 0) + h
                    m.add(hits_so_far[c, v] <= shown[c, v])
                new_done[c] = done[c] + sum(hs) if hs else done[c]
                if hs and enc.timed:
                    enc.add_stars(e, sum(hs))  # a crate's star, by the # whose (b) marks it
            for c in C:
                if not isinstance(new_done[c], int):
                    z = enc.bool("marked", e.tag, f"crate{c + 1}")
                    m.add(z == new_done[c])
                    new_done[c] = z
                for v in V:
                    if (c, v) in shown:
                        # every crate showing v is marked by now (here or before)
                        m.add(crates[e.i, v] + shown[c, v] - 1 <= new_done[c])
            for v in V:
                hs = [hit[e.i, c, v] for c in C if (e.i, c, v) in hit]
                m.add(crates[e.i, v] <= sum(hs))
                # redundant (LP): one (b) marks at most as many crates as earlier events could
                # have written v on
                if hs:
                    m.add(sum(hs) <= min(len(hs), writers[v]) * crates[e.i, v])
            done = new_done
            for w in ws:
                writers[w] += 1
            for c in C:
                used[c] = used[c] + bonus[e.i, c]
                for w in ws:
                    prev = shown.get((c, w), 0)
                    z = enc.bool("shows", e.tag, f"crate{c + 1}", w)
                    m.add(z == prev + crate_w[e.i, c, w])
                    shown[c, w] = z
        final_done = done
        if enc.timed:
            m.add(enc.stars == sum(final_done[c] for c in C))  # (the stars added event by event)
        else:
            enc.stars = sum(final_done[c] for c in C)
        # redundant (LP): a crate is marked only after its bonus; each (b) marks a crate
        n_bonus = sum(act_bonus.values())
        n_crates = sum(act_crates.values())
        m.add(enc.stars <= n_bonus)
        m.add(n_crates <= enc.stars)
        for c in C:
            m.add(final_done[c] <= used[c])

        def can_take(turn: int, v: int):
            # a rolled v takes bonus v while it is unmarked (a rolled die always has an other
            # die); or it marks an unmarked crate showing v; nothing on the card costs
            z = enc.bool("placeable", f"t{turn + 1}", v)
            sh, dn, us = at_turn.get(turn, (shown, done, used))
            m.add(z + us[v - 1] >= 1)
            for c in C:
                if (c, v) in sh:
                    m.add(z >= sh[c, v] - dn[c])
            return z

        def decode(solver, e):
            if solver.boolean_value(act_crates[e.i]):
                return make_choice(action="crates")
            if any(s.kind == "create" and solver.boolean_value(x) for s, x in e.use.items()):
                w = next(w for (i, w), x in write.items() if i == e.i and solver.boolean_value(x))
                return make_choice(action="bonus", crate=w)
            return make_choice(action="bonus")

        def lits(e, choice):
            c = dict(choice)
            if c.get("action") == "crates":
                return [act_crates[e.i]]
            if c.get("action") != "bonus":
                return [enc.false]
            out = [act_bonus[e.i]]
            if "crate" in c:
                out.append(write.get((e.i, c["crate"]), enc.false))
            return out

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Charterstone
