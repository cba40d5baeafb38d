"""A Feast for Odin (promo pack, seed 000): fill polyomino shapes on islands.

Rulebook: "Use a # to pick a matching unused shape and fill it on one island. Mark the shape as
used. When assigning a 6 you can choose any shape (even used ones) without marking it as used.
It's okay to rotate or mirror shapes as you see fit. Gain benefits from filled squares on the
islands." Scoring: "Score ★s when filling indicated squares on islands. Additionally, score 1 ★
per completed island."
"""
from __future__ import annotations

from functools import cached_property
from itertools import product
from typing import Iterable

from ..errors import IllegalAction
from ..line import Choice, make_choice
from ..resources import KINDS, Resources
from ..rules import RuleSet
from . import shapes
from .base import Effect, Realm, Use

Cell = tuple[int, int]
# (filled cells per island in island order, shapes marked used)
State = tuple[tuple[tuple[Cell, ...], ...], tuple[int, ...]]


def orientations(cells: list[Cell]) -> set[tuple[Cell, ...]]:
    """All rotations and mirror images of a shape (the rulebook: "rotate or mirror")."""
    return shapes.orientations(cells, mirror=True)


cells_text = shapes.cells_text


def parse_cells(text: object) -> tuple[Cell, ...]:
    return shapes.parse_cells(text, "feast-for-odin")


class FeastForOdin(Realm):
    key = "feast-for-odin"
    timed_stars = True  # star squares and island bonuses, by the # covering or completing them
    text_choices = ("island", "cells")

    def __init__(self, card=None) -> None:
        super().__init__(card)
        self.shapes = {int(k): [tuple(c) for c in v] for k, v in self.card["shapes"].items()}
        self.island_names = list(self.card["islands"].keys())
        self.islands: list[dict[Cell, str]] = []
        for name in self.island_names:
            grid = self.card["islands"][name]
            self.islands.append({(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row)})
        self.bonus = int(self.card.get("island_bonus", 1))

    @cached_property
    def placements(self) -> list[tuple[int, int, tuple[Cell, ...]]]:
        """Every (island, shape, cells) that fits an empty island."""
        out = []
        for i, isl in enumerate(self.islands):
            for s, cells in sorted(self.shapes.items()):
                seen = set()
                for orient in sorted(orientations(cells)):
                    for (r0, c0) in sorted(isl):
                        placed = tuple(sorted((r0 + r, c0 + c) for r, c in orient))
                        if all(p in isl for p in placed) and placed not in seen:
                            seen.add(placed)
                            out.append((i, s, placed))
        return out

    def initial(self, rules: RuleSet) -> State:
        return (tuple(() for _ in self.islands), ())

    def candidates(self, state: State, value: int, rules: RuleSet) -> Iterable[Choice]:
        filled, used = state
        out = []
        for i, s, cells in self.placements:
            if value != 6 and s != value:
                continue
            if any(c in filled[i] for c in cells):
                continue
            out.append(make_choice(island=self.island_names[i], shape=s, cells=cells_text(cells)))
        return out

    def apply(self, state: State, use: Use, choice: Choice, rules: RuleSet) -> Effect:
        c = dict(choice)
        if set(c) != {"island", "shape", "cells"}:
            raise IllegalAction("feast-for-odin: choose island=A|B, shape=1..5 and cells=11+12+...")
        if c["island"] not in self.island_names:
            raise IllegalAction(f"feast-for-odin: no island {c['island']!r} (islands: {', '.join(self.island_names)})")
        i = self.island_names.index(c["island"])
        s = c["shape"]
        if s not in self.shapes:
            raise IllegalAction(f"feast-for-odin: no shape {s}")
        filled, used = state
        if use.value != 6:
            if s != use.value:
                raise IllegalAction(f"feast-for-odin: a {use.value} takes shape {use.value} (only a 6 takes any shape)")
            if s in used:
                raise IllegalAction(f"feast-for-odin: shape {s} is already used (only a 6 may reuse it)")
        cells = parse_cells(c["cells"])
        if (i, s, cells) not in set(self.placements):
            raise IllegalAction(f"feast-for-odin: cells {cells_text(cells)} are not shape {s} on island {c['island']}")
        if any(x in filled[i] for x in cells):
            raise IllegalAction("feast-for-odin: a square is already filled")
        gain = Resources()
        for x in cells:
            b = self.islands[i][x]
            if b in KINDS:
                gain = gain + Resources.of(b)
        new_filled = filled[:i] + (tuple(sorted(filled[i] + cells)),) + filled[i + 1 :]
        new_used = tuple(sorted(used + (s,))) if use.value != 6 else used
        return Effect((new_filled, new_used), gain=gain)

    def stars(self, state: State, rules: RuleSet) -> int:
        filled, _ = state
        total = 0
        for i, isl in enumerate(self.islands):
            total += sum(1 for x in filled[i] if isl[x] == "S")
            if len(filled[i]) == len(isl):
                total += self.bonus
        return total

    def max_gain(self, rules: RuleSet) -> Resources:
        total = Resources()
        for isl in self.islands:
            for b in isl.values():
                if b in KINDS:
                    total = total + Resources.of(b)
        return total

    def sheet_rows(self, state: State) -> list[tuple[str, str]]:
        filled, used = state
        rows = []
        for i, isl in enumerate(self.islands):
            h = max(r for r, _ in isl) + 1
            w = max(c for _, c in isl) + 1
            lines = []
            for r in range(h):
                lines.append("".join("#" if (r, c) in filled[i] else isl[(r, c)].replace("S", "★") for c in range(w)))
            rows.append((f"island {self.island_names[i]}", " / ".join(lines)))
        rows.append(("shapes used", " ".join(map(str, used)) or "-"))
        return rows

    def max_gain_per_activation(self, rules: RuleSet) -> int:
        return max(sum(1 for x in cells if self.islands[i][x] in KINDS) for i, _, cells in self.placements)

    def max_events(self, turns: int, rules: RuleSet) -> int:
        """Every activation fills at least one square."""
        return sum(len(isl) for isl in self.islands)

    @cached_property
    def most_stars_by_count(self) -> tuple[int, ...]:
        """most[k]: at most this many stars from k #s here (k = 0 .. max_events), from the card.
        An island's stars are its star squares covered (each piece covers at most `per_piece` of
        them, at most all of them) plus its bonus once it is complete, which needs at least
        `fewest` pieces (the fewest disjoint placements that cover it; any shape, any number of
        times: fewer than the rules allow, so the bound stays valid). On the reconstructed card
        a piece covers at most 1 star square and each island needs 3 pieces: k #s, k stars."""
        per_island = []
        for i, isl in enumerate(self.islands):
            pieces = [frozenset(cells) for ii, _, cells in self.placements if ii == i]
            n_star = sum(1 for x in isl if isl[x] == "S")
            per_piece = max(sum(1 for x in p if isl[x] == "S") for p in pieces)
            whole, layer, fewest = frozenset(isl), {frozenset()}, 0
            while whole not in layer:
                fewest += 1
                layer = {a | p for a in layer for p in pieces if not a & p}
            per_island.append([min(n * per_piece, n_star) + (self.bonus if n >= fewest else 0)
                               for n in range(len(isl) + 1)])
        most = [0] * (self.max_events(0, RuleSet()) + 1)
        for split in product(*(range(len(isl) + 1) for isl in self.islands)):  # pieces per island
            k = sum(split)
            most[k] = max(most[k], sum(per_island[i][n] for i, n in enumerate(split)))
        return tuple(most)

    # ---- CP-SAT ----------------------------------------------------------------------------
    @cached_property
    def _placement_index(self) -> dict:
        return {pl: p for p, pl in enumerate(self.placements)}

    def placement_of(self, choice) -> int | None:
        """The index in `placements` of a line's choice (island, shape, cells), or None."""
        c = dict(choice)
        try:
            key = (self.island_names.index(c["island"]), c["shape"], parse_cells(c["cells"]))
        except (ValueError, IllegalAction, KeyError):
            return None
        return self._placement_index.get(key)

    def encode(self, enc) -> None:
        if enc.rm.options.placements_by_turn and not enc.timed:
            self.encode_by_turn(enc)
            return
        m = enc.model
        PL = self.placements
        shapes = sorted(self.shapes)
        place: dict[tuple[int, int], object] = {}
        marks: dict[int, list] = {s: [] for s in shapes}
        cover: dict[tuple[int, int, Cell], object] = {}  # (event, island, cell)
        for e in enc.events:
            ys = []
            cells_of: dict[tuple[int, Cell], list] = {}
            for p, (i, s, cells) in enumerate(PL):
                y = enc.bool("place", e.tag, self.island_names[i], f"shape{s}", cells_text(cells))
                place[e.i, p] = y
                ys.append(y)
                m.add_bool_or([e.val[s], e.val[6]]).only_enforce_if(y)
                for x in cells:
                    cells_of.setdefault((i, x), []).append(y)
                gain = {K: sum(1 for x in cells if self.islands[i][x] == K) for K in KINDS}
                for K, n in gain.items():
                    if n:
                        enc.add_gain(e, K, n * y)
            for (i, x), lst in cells_of.items():
                c = enc.bool("covers", e.tag, self.island_names[i], f"{x[0] + 1}{x[1] + 1}")
                m.add(sum(lst) == c)
                cover[e.i, i, x] = c
            m.add(sum(ys) == e.active)
            for s in shapes:
                uses = sum(place[e.i, p] for p, (_, ss, _) in enumerate(PL) if ss == s)
                # the shape is marked used unless the # is a 6
                with6 = enc.bool("shape_by_6", e.tag, s)
                m.add(with6 <= uses)
                m.add(with6 <= e.val[6])
                m.add(with6 >= uses + e.val[6] - 1)
                mark = enc.bool("marks_shape", e.tag, s)
                m.add(mark == uses - with6)
                marks[s].append((e, mark))
        for s in shapes:
            m.add(sum(x for _, x in marks[s]) <= 1)
        filled = {}
        for i, isl in enumerate(self.islands):
            for x in isl:
                f = enc.bool("filled", self.island_names[i], f"{x[0] + 1}{x[1] + 1}")
                m.add(sum(cover[e.i, i, x] for e in enc.events if (e.i, i, x) in cover) == f)
                filled[i, x] = f
        # a star square is scored by the # covering it, an island's bonus by the # completing it
        if enc.timed:
            for e in enc.events:
                enc.add_stars(e, sum(cover[e.i, i, x] for i, isl in enumerate(self.islands) for x in isl
                                     if isl[x] == "S" and (e.i, i, x) in cover))
        else:  # the same stars, read from the filled squares (the model the round benchmarks measured)
            enc.stars = sum(filled[i, x] for i, isl in enumerate(self.islands) for x in isl if isl[x] == "S")
        for i, isl in enumerate(self.islands):
            done = enc.reify([filled[i, x] for x in isl], "island_complete", self.island_names[i])
            added = [sum(cover[e.i, i, x] for x in isl if (e.i, i, x) in cover) for e in enc.events]
            enc.add_completion_stars(self.bonus, done, added, len(isl), "island_complete", self.island_names[i])
        if enc.rm.options.lp_rows:  # redundant (LP help): stars for the #s received
            enc.stars_within_count_bound(self.most_stars_by_count)

        fb_cache: dict = {}

        def filled_before(i: int, x: Cell, turn: int):
            key = (i, x, turn)
            if key not in fb_cache:
                fb_cache[key] = enc.reify_or(
                    [enc.both(cover[e.i, i, x], e.before(turn), "filled_by", e.tag, f"t{turn + 1}", f"{x[0] + 1}{x[1] + 1}") for e in enc.events if (e.i, i, x) in cover],
                    "filled_before", f"t{turn + 1}", self.island_names[i], f"{x[0] + 1}{x[1] + 1}")
            return fb_cache[key]

        ub_cache: dict = {}

        def used_before(s: int, turn: int):
            key = (s, turn)
            if key not in ub_cache:
                ub_cache[key] = enc.reify_or(
                    [enc.both(mk, e.before(turn), "used_by", e.tag, f"t{turn + 1}", s) for e, mk in marks[s]],
                    "shape_used_before", f"t{turn + 1}", s)
            return ub_cache[key]

        def can_take(turn: int, v: int):
            z = enc.bool("placeable", f"t{turn + 1}", v)
            if turn == 0:
                m.add(z == 1)  # an empty sheet takes every shape
                return z
            for p, (i, s, cells) in enumerate(PL):
                if v != 6 and s != v:
                    continue
                parts = [~filled_before(i, x, turn) for x in cells]
                if v != 6:
                    parts.append(~used_before(s, turn))
                m.add_bool_or([~q for q in parts] + [z])
            return z

        def decode(solver, e):
            for p, (i, s, cells) in enumerate(PL):
                if solver.boolean_value(place[e.i, p]):
                    return make_choice(island=self.island_names[i], shape=s, cells=cells_text(cells))
            raise AssertionError("feast-for-odin: active event without a placement")

        def lits(e, choice):
            p = self.placement_of(choice)
            return [place[e.i, p]] if p is not None else [enc.false]

        enc.can_take = can_take
        enc.decode_choice = decode
        enc.choice_lits = lits

    def encode_by_turn(self, enc) -> None:
        """The LP bounds' encoding (`ModelOptions.placements_by_turn`): the placements of turn t
        instead of each activation's. Every legal line keeps it, with the same stars and leftover:
        the turn's activations fill distinct placements (a square is filled once), as many as the
        activations; a # v < 6 takes shape v, a 6 any shape, so the turn's uses of shape s are at
        least its #s equal to s and at most those plus its 6s; a shape is marked by its non-6 use,
        so each v < 6 is placed here at most once in the round ("pick a matching unused shape").
        The turn's gains are all credited to the realm's first activation of the turn: they can
        only be spent earlier than in the line, and the turn's totals are the same. Measured on
        the issue-2 bench's Feast for Odin rounds (docs/performance.md, forty-ninth session): a
        third of the variables gone, the star LP about 3x faster, the same bound or lower."""
        m = enc.model
        PL = self.placements
        shapes = sorted(self.shapes)
        place: dict[tuple[int, int], object] = {}  # (turn, placement)
        cover: dict[tuple[int, int, Cell], object] = {}  # (turn, island, cell)
        turns = sorted({e.t for e in enc.events})
        for t in turns:
            evs = enc.turn_events(t)
            first = min(evs, key=lambda e: e.k)
            cells_of: dict[tuple[int, Cell], list] = {}
            for p, (i, s, cells) in enumerate(PL):
                y = enc.bool("place_in_turn", f"t{t + 1}", self.island_names[i], f"shape{s}", cells_text(cells))
                place[t, p] = y
                for x in cells:
                    cells_of.setdefault((i, x), []).append(y)
                for K in KINDS:
                    n = sum(1 for x in cells if self.islands[i][x] == K)
                    if n:
                        enc.add_gain(first, K, n * y)
            for (i, x), lst in cells_of.items():
                c = enc.bool("covers_in_turn", f"t{t + 1}", self.island_names[i], f"{x[0] + 1}{x[1] + 1}")
                m.add(sum(lst) == c)
                cover[t, i, x] = c
            m.add(sum(place[t, p] for p in range(len(PL))) == sum(e.active for e in evs))
            for s in shapes:
                uses = sum(place[t, p] for p, (_, ss, _) in enumerate(PL) if ss == s)
                m.add(uses >= sum(e.val[s] for e in evs))
                m.add(uses <= sum(e.val[s] + e.val[6] for e in evs))
        for s in shapes:
            m.add(sum(e.val[s] for e in enc.events) <= 1)
        filled = {}
        for i, isl in enumerate(self.islands):
            for x in isl:
                f = enc.bool("filled", self.island_names[i], f"{x[0] + 1}{x[1] + 1}")
                m.add(sum(cover[t, i, x] for t in turns if (t, i, x) in cover) == f)
                filled[i, x] = f
        enc.stars = sum(filled[i, x] for i, isl in enumerate(self.islands) for x in isl if isl[x] == "S")
        for i, isl in enumerate(self.islands):
            done = enc.reify([filled[i, x] for x in isl], "island_complete", self.island_names[i])
            enc.add_completion_stars(self.bonus, done, [], len(isl), "island_complete", self.island_names[i])
        if enc.rm.options.lp_rows:
            enc.stars_within_count_bound(self.most_stars_by_count)

        def decode(solver, e):
            raise AssertionError("feast-for-odin: the model by turn (LP bounds only) has no line to read")

        def lits(e, choice):
            p = self.placement_of(choice)
            return [place[e.t, p]] if p is not None else [enc.false]

        enc.decode_choice = decode
        enc.choice_lits = lits


REALM = FeastForOdin
