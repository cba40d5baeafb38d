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
    timed_stars = True  # mini-pyramids and all nine, by the # writing the last card

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

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        """A # fills one card, which lies in exactly one row: it completes at most that row."""
        return max(b.total() for b in self.row_bonus)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation writes on an empty card: at most one per card."""
        return len(self.cards)

    # ---- CP-SAT ----------------------------------------------------------------------------
    def encode(self, enc) -> None:
        m = enc.model
        N = range(len(self.cards))
        idx = {c: i for i, c in enumerate(self.cards)}
        write: dict[tuple[int, int, int], object] = {}  # (event, card, value)
        on: dict[tuple[int, int], object] = {}  # (event, card)
        for e in enc.events:
            xs = []
            for i, name in enumerate(self.cards):
                x = enc.bool("write", e.tag, f"card{name}")
                on[e.i, i] = x
                xs.append(x)
                for v in range(1, 7):
                    write[e.i, i, v] = enc.bool("number", e.tag, f"card{name}", v)
                m.add(sum(write[e.i, i, v] for v in range(1, 7)) == x)
            for v in range(1, 7):
                m.add(sum(write[e.i, i, v] for i in N) == e.val[v])
            m.add(sum(xs) == e.active)  # write the # on one card
        # each card is written once ("any empty card"); its number
        filled, number = {}, {}
        for i, name in enumerate(self.cards):
            filled[i] = enc.bool("filled", f"card{name}")
            m.add(sum(on[e.i, i] for e in enc.events) == filled[i])
            number[i] = enc.int(0, 6, "number", f"card{name}")
            m.add(number[i] == sum(v * write[e.i, i, v] for e in enc.events for v in range(1, 7)))
        # "a card must be lower than every card directly above it": every filled pair, any order
        for a, bs in self.under.items():
            for b in bs:
                ia, ib = idx[a], idx[b]
                m.add(number[ib] + 1 <= number[ia]).only_enforce_if([filled[ia], filled[ib]])
                # redundant (LP): a card holding v has only numbers < v under it, > v above it
                for v in range(1, 7):
                    m.add(sum(write[e.i, ia, v] for e in enc.events) + sum(write[e.i, ib, w] for e in enc.events for w in range(v, 7)) <= 1)
        # "completing a row gains": the row's bonus goes to the event writing its last card
        done_prev = [enc.false for _ in self.rows]
        row_cards = [[idx[c] for c in row] for row in self.rows]
        upto = {i: 0 for i in N}
        for e in enc.events:
            for i in N:
                upto[i] = upto[i] + on[e.i, i]
            for r, cards in enumerate(row_cards):
                done = enc.bool("row_complete", f"after {e.tag}", f"row{r + 1}")
                # done <=> every card of the row written by this event (inclusive)
                for i in cards:
                    m.add(done <= upto[i])
                m.add(done >= sum(upto[i] for i in cards) - (len(cards) - 1))
                comp = enc.bool("completes_row", e.tag, f"row{r + 1}")
                m.add(done == done_prev[r] + comp)
                m.add(comp <= sum(on[e.i, i] for i in cards))
                for K in ("P", "H", "C"):
                    if self.row_bonus[r].get(K):
                        enc.add_gain(e, K, self.row_bonus[r].get(K) * comp)
                done_prev[r] = done
        # scoring: mini-pyramids and all nine
        # each scored by the # writing the group's last card
        star_terms = []
        for a, bs in self.under.items():
            group = [idx[a]] + [idx[b] for b in bs]
            z = enc.reify([filled[i] for i in group], "pyramid", f"card{a}")
            added = [sum(on[e.i, i] for i in group) for e in enc.events]
            enc.add_completion_stars(1, z, added, len(group), "pyramid", f"card{a}")
            star_terms.append(z)
        all_done = enc.reify([filled[i] for i in N], "all_filled")
        added = [sum(on[e.i, i] for i in N) for e in enc.events]
        enc.add_completion_stars(self.bonus_all, all_done, added, len(self.cards), "all_filled")
        # redundant (LP): a mini-pyramid needs its top card; all nine need every card
        for k, a in enumerate(self.under):
            m.add(star_terms[k] <= filled[idx[a]])
        m.add(len(self.cards) * all_done <= sum(filled[i] for i in N))

        fb_cache: dict = {}

        def filled_before(i: int, turn: int):
            key = (i, turn)
            if key not in fb_cache:
                z = enc.bool("filled_before", f"t{turn + 1}", f"card{self.cards[i]}")
                m.add(z == sum(on[e.i, i] for e in enc.events if e.t < turn))
                fb_cache[key] = z
            return fb_cache[key]

        cmp_cache: dict = {}

        def above_v(i: int, v: int, strict_greater: bool):
            """literal <=> number[i] > v (strict_greater) or number[i] < v"""
            key = (i, v, strict_greater)
            if key not in cmp_cache:
                z = enc.bool("greater" if strict_greater else "less", f"card{self.cards[i]}", v)
                if strict_greater:
                    m.add(number[i] >= v + 1).only_enforce_if(z)
                    m.add(number[i] <= v).only_enforce_if(~z)
                else:
                    m.add(number[i] <= v - 1).only_enforce_if(z)
                    m.add(number[i] >= v).only_enforce_if(~z)
                cmp_cache[key] = z
            return cmp_cache[key]

        def can_take(turn: int, v: int):
            z = enc.bool("placeable", f"t{turn + 1}", v)
            if turn == 0:
                m.add(z == 1)  # an empty sheet takes any # on any card
                return z
            for i, name in enumerate(self.cards):
                # card empty, every filled card above it higher, every filled card under it lower
                blockers = [filled_before(i, turn)]
                for a in self.above[name]:
                    ia = idx[a]
                    blockers.append(enc.reify([filled_before(ia, turn), ~above_v(ia, v, True)], "blocks", f"t{turn + 1}", f"card{a}", f"card{name}", v))
                for b in self.under.get(name, []):
                    ib = idx[b]
                    blockers.append(enc.reify([filled_before(ib, turn), ~above_v(ib, v, False)], "blocks", f"t{turn + 1}", f"card{b}", f"card{name}", v))
                m.add_bool_or(blockers + [z])
            return z

        def decode(solver, e):
            for i, name in enumerate(self.cards):
                if solver.boolean_value(on[e.i, i]):
                    return make_choice(card=name)
            raise AssertionError("red-rising: active event without a card")

        def lits(e, choice):
            name = dict(choice).get("card")
            return [on[e.i, idx[name]]] if name in idx else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = RedRising
