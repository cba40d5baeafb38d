"""Würfelwelten (promo pack, seed 000): write #s on the faces of three worlds, tick a benefit each.

Rulebook: "Use a # and write it on an empty face on any world. Then mark a benefit below that
world and gain that resource." Scoring: "1 star per complete world whose faces each have a
different number. Additionally, score 1 star per complete world whose sum is equal to the sum
of any of the two other worlds (complete or not)."
"""
from __future__ import annotations

from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import Resources
from ..rules import RuleSet
from .base import Effect, Realm, Use

# per world: (faces written, sorted), (benefits still unticked, as a sorted tuple of kinds)
State = tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]


class Wurfelwelten(Realm):
    key = "wurfelwelten"

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.faces = int(self.card["faces_per_world"])

    def worlds(self, rules: RuleSet) -> list[list[str]]:
        worlds = [list(w) for w in self.card["worlds"]]
        if rules.wurfelwelten_third_world == "CHC":
            worlds[2] = list(self.card["third_world_alternative"])
        return worlds

    def initial(self, rules: RuleSet) -> State:
        return tuple(((), tuple(sorted(w))) for w in self.worlds(rules))

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        return [make_choice(world=w + 1, benefit=b) for w in range(len(state)) for b in sorted(set(state[w][1]))]

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"world", "benefit"}:
            raise IllegalAction("wurfelwelten: choose world=1..3 and benefit=P|H|C")
        w = c["world"] - 1
        if w not in range(len(state)):
            raise IllegalAction("wurfelwelten: world must be 1..3")
        faces, left = state[w]
        if len(faces) >= self.faces:
            raise IllegalAction(f"wurfelwelten: world {w + 1} has no empty face")
        if c["benefit"] not in left:
            raise IllegalAction(f"wurfelwelten: world {w + 1} has no unticked {c['benefit']} benefit")
        rest = list(left)
        rest.remove(c["benefit"])
        new_world = (tuple(sorted(faces + (use.value,))), tuple(rest))
        return Effect(state[:w] + (new_world,) + state[w + 1 :], gain=Resources.of(c["benefit"]))

    def stars(self, state: State, rules: RuleSet) -> int:
        sums = [sum(f) for f, _ in state]
        total = 0
        for w, (faces, _) in enumerate(state):
            if len(faces) < self.faces:
                continue
            if len(set(faces)) == len(faces):
                total += 1
            if any(sums[w] == sums[o] for o in range(len(state)) if o != w):
                total += 1
        return total

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for w in self.worlds(rules):
            for b in w:
                total = total + Resources.of(b)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        rows = []
        for w, (faces, left) in enumerate(state):
            shown = " ".join(str(f) for f in faces) + " _" * (self.faces - len(faces))
            rows.append((f"world {w + 1}", f"[{shown.strip()}]  sum {sum(faces)}  benefits left {''.join(left) or '-'}"))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        return 1

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation writes a face: at most one per face."""
        return self.faces * len(self.card["worlds"])

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        worlds = self.worlds(enc.rules)
        W = range(len(worlds))
        write: dict[tuple[int, int, int], object] = {}  # (event, world, value)
        tick: dict[tuple[int, int, str], object] = {}  # (event, world, kind)
        on: dict[tuple[int, int], object] = {}
        for e in enc.events:
            xs = []
            for w in W:
                x = enc.bool("write", e.tag, f"world{w + 1}")
                on[e.i, w] = x
                xs.append(x)
                for v in range(1, 7):
                    write[e.i, w, v] = enc.bool("face", e.tag, f"world{w + 1}", v)
                m.add(sum(write[e.i, w, v] for v in range(1, 7)) == x)
                kinds = sorted(set(worlds[w]))
                for K in kinds:
                    tick[e.i, w, K] = enc.bool("tick", e.tag, f"world{w + 1}", K)
                    enc.add_gain(e, K, tick[e.i, w, K])
                m.add(sum(tick[e.i, w, K] for K in kinds) == x)
            for v in range(1, 7):
                m.add(sum(write[e.i, w, v] for w in W) == e.val[v])
            m.add(sum(xs) == e.active)
        count, sums, complete, distinct = {}, {}, {}, {}
        for w in W:
            n = sum(on[e.i, w] for e in enc.events)
            m.add(n <= self.faces)
            for K in sorted(set(worlds[w])):  # sorted: set order follows string hashing (PYTHONHASHSEED)
                m.add(sum(tick[e.i, w, K] for e in enc.events) <= worlds[w].count(K))
            for v in range(1, 7):
                count[w, v] = sum(write[e.i, w, v] for e in enc.events)
            sums[w] = enc.int(0, 6 * self.faces, "sum", f"world{w + 1}")
            m.add(sums[w] == sum(v * count[w, v] for v in range(1, 7)))
            complete[w] = enc.bool("complete", f"world{w + 1}")
            m.add(n == self.faces).only_enforce_if(complete[w])
            m.add(n <= self.faces - 1).only_enforce_if(~complete[w])
            distinct[w] = enc.bool("distinct", f"world{w + 1}")
            reps = []
            for v in range(1, 7):
                rep = enc.bool("repeats", f"world{w + 1}", v)
                m.add(count[w, v] >= 2).only_enforce_if(rep)
                m.add(count[w, v] <= 1).only_enforce_if(~rep)
                reps.append(rep)
            m.add_bool_and([~r for r in reps]).only_enforce_if(distinct[w])
            m.add_bool_or(reps).only_enforce_if(~distinct[w])
        equal = {}
        for w in W:
            for o in W:
                if o > w:
                    eq = enc.bool("equal_sums", f"world{w + 1}", f"world{o + 1}")
                    m.add(sums[w] == sums[o]).only_enforce_if(eq)
                    m.add(sums[w] != sums[o]).only_enforce_if(~eq)
                    equal[w, o] = equal[o, w] = eq
        star_terms = []
        for w in W:
            star_terms.append(enc.reify([complete[w], distinct[w]], "star_distinct", f"world{w + 1}"))
            any_eq = enc.reify_or([equal[w, o] for o in W if o != w], "sum_matches", f"world{w + 1}")
            star_terms.append(enc.reify([complete[w], any_eq], "star_sum", f"world{w + 1}"))
        enc.stars = sum(star_terms)
        # redundant, for the LP: stars need complete worlds (3 faces each, at most 2 stars a
        # world); a complete world has 3 faces; distinct faces show each value at most once; a
        # matching sum (>= 3) needs a face in another world
        m.add(3 * enc.stars <= 2 * sum(e.active for e in enc.events))
        n_faces = {w: sum(on[e.i, w] for e in enc.events) for w in W}
        for w in W:
            m.add(self.faces * complete[w] <= n_faces[w])
            for v in range(1, 7):
                m.add(count[w, v] + (self.faces - 1) * distinct[w] <= self.faces)
            m.add(star_terms[2 * w + 1] <= sum(n_faces[o] for o in W if o != w))

        capacity = self.faces * len(worlds)

        def can_take(turn: int, v: int):
            # every activation writes one face: an empty face is left until 9 are written
            z = enc.bool("placeable", f"t{turn + 1}", v)
            written = sum(e.active for e in enc.events if e.t < turn)
            full = enc.bool("full", f"t{turn + 1}")
            m.add(written >= capacity).only_enforce_if(full)
            m.add(written <= capacity - 1).only_enforce_if(~full)
            m.add_bool_or([z, full])
            return z

        def decode(solver, e):
            for (ei, w, K), x in tick.items():
                if ei == e.i and solver.boolean_value(x):
                    return make_choice(world=w + 1, benefit=K)
            raise AssertionError("wurfelwelten: active event without a tick")

        def lits(e, choice):
            c = dict(choice)
            key = (e.i, c.get("world", 0) - 1, c.get("benefit"))
            return [tick[key]] if key in tick else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = Wurfelwelten
