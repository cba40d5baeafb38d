"""The CP-SAT model of a Rolling Realms round (rolling-realms.md sections 1 and 6).

Shape: each turn has a fixed number of ordered *slots*; a slot is empty, an activation
("a # from source j, changed by pumpkins to value v, goes to realm r with a choice on its
card") or a compensation. Resources flow slot by slot, so resources gained early in a turn pay
for later slots (same-turn spending). Realms see the slots as *events* and add their own
constraints (solver/realms/*.py, `encode`). Variables are named after the game, e.g.
`act[t3,s1,parks]`, `val[t3,s1]=4`.

The number of slots per turn is a proven upper bound on the actions of a turn
(`slot_bound`, docs/model.md), so the model loses no line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from ortools.sat.python import cp_model

from .engine import Game
from .line import Activation, Choice, Compensation, Line, Source, TurnPlay
from .resources import KINDS, Resources

LinearExpr = Any
Lit = Any


@dataclass
class Slot:
    """The variables of one slot (turn t, position s)."""

    t: int
    s: int
    index: int
    act: dict[int, Lit]  # realm index -> activation literal
    comp: dict[tuple[int, str], Lit]  # (die, kind) -> compensation literal
    pick: dict[Source, Lit]
    val: dict[int, Lit]
    ev: dict[tuple[int, int], Lit]  # (realm, value) -> literal
    num: dict[tuple[int, int, bool], Lit]  # (base, value, extra)
    extra: Lit
    used: Lit
    done_before: dict[int, Lit]  # realm activated earlier this turn
    res_before: dict[str, Any]
    res_after: dict[str, Any]
    cost: dict[str, Any] = field(default_factory=dict)
    gain: dict[str, Any] = field(default_factory=dict)


@dataclass
class Event:
    """A slot as one realm sees it."""

    slot: Slot
    active: Lit
    val: dict[int, Lit]

    @property
    def t(self) -> int:
        return self.slot.t

    @property
    def index(self) -> int:
        return self.slot.index


@dataclass
class TurnEndStep:
    t: int


@dataclass(frozen=True)
class ModelOptions:
    """Switches for the solver-side tricks (each measured in bench/)."""

    #: symmetry breaking and dominance that keep at least one optimal line (never in the engine)
    tricks: bool = True
    #: override the slots per turn (None: the proven bound)
    slots: int | None = None
    #: which tricks (None: all of solver/tricks.py)
    trick_list: tuple | None = None


class RealmEncoder:
    """What a realm's `encode` gets: its events and hooks into the round model."""

    def __init__(self, rm: "RoundModel", r: int) -> None:
        self.rm = rm
        self.r = r
        self.realm = rm.game.realms[r]
        self.model: cp_model.CpModel = rm.model
        self.rules = rm.game.rules
        self.rolls = rm.game.rolls
        self.turns = rm.game.turns
        self.events: list[Event] = [
            Event(sl, sl.act[r], {v: sl.ev[r, v] for v in range(1, 7)}) for sl in rm.slots
        ]
        self.steps: list[Event | TurnEndStep] = []
        for t in range(self.turns):
            self.steps.extend(e for e in self.events if e.t == t)
            self.steps.append(TurnEndStep(t))
        self.gain: dict[int, dict[str, LinearExpr]] = {}
        self.cost: dict[int, dict[str, LinearExpr]] = {}
        self.stars: LinearExpr = 0
        self.stars_ub: int = 6
        self.can_take: Callable[[Event, int], Lit] | None = None
        self.decode_choice: Callable[[cp_model.CpSolver, Event], Choice] | None = None
        self.choice_lits: Callable[[Event, Choice], list[Lit]] | None = None
        self.decode_end: Callable[[cp_model.CpSolver, int], Choice | None] | None = None
        self.end_lits: Callable[[int, Choice], list[Lit]] | None = None
        self._rolled: dict[tuple[int, int], Lit] = {}
        self.false: Lit = rm.false
        self._placeable: dict[tuple[int, int], Lit] = {}

    # naming ---------------------------------------------------------------------------
    def name(self, what: str, *idx: object) -> str:
        inside = ",".join(str(i) for i in idx)
        return f"{self.realm.key}.{what}[{inside}]"

    def bool(self, what: str, *idx: object) -> Lit:
        return self.model.new_bool_var(self.name(what, *idx))

    def int(self, lo: int, hi: int, what: str, *idx: object) -> Any:
        return self.model.new_int_var(lo, hi, self.name(what, *idx))

    # hooks ----------------------------------------------------------------------------
    def placeable(self, e: Event, v: int) -> Lit:
        """Literal: before event e, an unchanged # of value v has a legal, payable placement here."""
        key = (e.index, v)
        if key not in self._placeable:
            assert self.can_take is not None, f"{self.realm.key} has no placeability encoding"
            self._placeable[key] = self.can_take(e, v)
        return self._placeable[key]

    def add_gain(self, e: Event, kind: str, expr: LinearExpr) -> None:
        self.gain.setdefault(e.index, {}).setdefault(kind, 0)
        self.gain[e.index][kind] = self.gain[e.index][kind] + expr

    def add_cost(self, e: Event, kind: str, expr: LinearExpr) -> None:
        self.cost.setdefault(e.index, {}).setdefault(kind, 0)
        self.cost[e.index][kind] = self.cost[e.index][kind] + expr

    def res_before(self, e: Event) -> dict[str, Any]:
        return e.slot.res_before

    def rolled_placed(self, t: int, k: int) -> Lit:
        """Rolled die k of turn t was placed (as a rolled die) in this realm."""
        key = (t, k)
        if key not in self._rolled:
            lits = []
            for sl in self.rm.turn_slots[t]:
                src = Source("die", k)
                if src not in sl.pick:
                    continue
                y = self.model.new_bool_var(self.name("rolled_here", f"t{t}", f"s{sl.s}", f"die{k + 1}"))
                self.model.add_bool_and([sl.pick[src], sl.act[self.r]]).only_enforce_if(y)
                self.model.add_bool_or([~sl.pick[src], ~sl.act[self.r]]).only_enforce_if(~y)
                lits.append(y)
            z = self.model.new_bool_var(self.name("rolled_placed", f"t{t}", f"die{k + 1}"))
            self.model.add(sum(lits) == z)
            self._rolled[key] = z
        return self._rolled[key]

    def reify(self, lits_all: list[Lit], what: str, *idx: object) -> Lit:
        """A literal equal to the AND of lits_all."""
        z = self.bool(what, *idx)
        if not lits_all:
            self.model.add(z == 1)
            return z
        self.model.add_bool_and(lits_all).only_enforce_if(z)
        self.model.add_bool_or([~x for x in lits_all]).only_enforce_if(~z)
        return z

    def reify_or(self, lits_any: list[Lit], what: str, *idx: object) -> Lit:
        z = self.bool(what, *idx)
        if not lits_any:
            self.model.add(z == 0)
            return z
        self.model.add_bool_or(lits_any).only_enforce_if(z)
        self.model.add_bool_and([~x for x in lits_any]).only_enforce_if(~z)
        return z

    def affordable(self, e: Event, cost: Resources, what: str, *idx: object) -> Lit:
        """Literal: the resources held before e cover cost."""
        z = self.bool(what, *idx)
        res = e.slot.res_before
        need = [(k, cost.get(k)) for k in KINDS if cost.get(k) > 0]
        if not need:
            self.model.add(z == 1)
            return z
        parts = []
        for k, n in need:
            p = self.bool(what + "_" + k, *idx)
            self.model.add(res[k] >= n).only_enforce_if(p)
            self.model.add(res[k] <= n - 1).only_enforce_if(~p)
            parts.append(p)
        self.model.add_bool_and(parts).only_enforce_if(z)
        self.model.add_bool_or([~p for p in parts]).only_enforce_if(~z)
        return z


def slot_bound(game: Game, t: int) -> int:
    """A proven upper bound on the actions (activations + compensations) of turn t.

    Every action spends a rolled die, or is a copy / created # that costs >= 2 hearts or >= 1 coin.
    So actions <= 2 + floor(H/2) + C where H, C bound the hearts and coins a player can have
    gained by the end of turn t: what the realms can give in a round (`max_gain`) plus one
    compensation resource per rolled die so far. Also, activations beyond one per realm each
    cost 3 pumpkins: actions <= realms + floor(P/3) + 2 (the two dice may be compensated).
    """
    supply = Resources()
    for realm in game.realms:
        supply = supply + realm.max_gain(game.rules)
    comp = 2 * (t + 1) if game.rules.compensation != "off" else 0
    by_sources = 2 + (supply.H + comp) // 2 + supply.C + comp
    by_realms = len(game.realms) + (supply.P + comp) // 3 + (2 if comp else 0)
    return min(by_sources, by_realms)


class RoundModel:
    """Builds the CP-SAT model of one round; `realm_encoders` hold each realm's part."""

    RES_MAX = 60

    def __init__(self, game: Game, options: ModelOptions = ModelOptions()) -> None:
        self.game = game
        self.options = options
        self.model = cp_model.CpModel()
        m = self.model
        self.false = m.new_bool_var("false")
        m.add(self.false == 0)
        R = len(game.realms)
        keys = [r.key for r in game.realms]
        self.slots: list[Slot] = []
        self.turn_slots: list[list[Slot]] = []
        res = {k: m.new_constant(0) for k in KINDS}
        comp_on = game.rules.compensation != "off"
        for t, roll in enumerate(game.rolls):
            n = options.slots if options.slots is not None else slot_bound(game, t)
            turn: list[Slot] = []
            done = {r: m.new_constant(0) for r in range(R)}
            for s in range(n):
                tag = f"t{t + 1},s{s + 1}"
                act = {r: m.new_bool_var(f"act[{tag},{keys[r]}]") for r in range(R)}
                comp: dict[tuple[int, str], Lit] = {}
                if comp_on:
                    comp = {(k, K): m.new_bool_var(f"compensate[{tag},die{k + 1},{K}]") for k in (0, 1) for K in KINDS}
                used = m.new_bool_var(f"used[{tag}]")
                m.add(sum(act.values()) + sum(comp.values()) == used)
                is_act = sum(act.values())
                pick = {src: m.new_bool_var(f"source[{tag}]={src.text()}") for src in _sources(roll)}
                m.add(sum(pick.values()) == is_act)
                val = {v: m.new_bool_var(f"val[{tag}]={v}") for v in range(1, 7)}
                m.add(sum(val.values()) == is_act)
                extra = m.new_bool_var(f"extra3P[{tag}]")
                ev = {(r, v): m.new_bool_var(f"use[{tag},{keys[r]}]={v}") for r in range(R) for v in range(1, 7)}
                for r in range(R):
                    m.add(sum(ev[r, v] for v in range(1, 7)) == act[r])
                for v in range(1, 7):
                    m.add(sum(ev[r, v] for r in range(R)) == val[v])
                # base value -> value, by pumpkins (normal 2 per step, or the 3-pumpkin power)
                num: dict[tuple[int, int, bool], Lit] = {}
                bases = sorted({src.base_value(roll) for src in pick})
                for b in bases:
                    for v in range(1, 7):
                        num[b, v, False] = m.new_bool_var(f"change[{tag}]={b}to{v}")
                        if abs(v - b) == 1:
                            num[b, v, True] = m.new_bool_var(f"change3P[{tag}]={b}to{v}")
                for b in bases:
                    m.add(sum(x for (bb, _, _), x in num.items() if bb == b) == sum(p for src, p in pick.items() if src.base_value(roll) == b))
                for v in range(1, 7):
                    m.add(sum(x for (_, vv, _), x in num.items() if vv == v) == val[v])
                m.add(sum(x for (_, _, xx), x in num.items() if xx) == extra)
                pumpkins = sum((3 if x else 2 * abs(v - b)) * lit for (b, v, x), lit in num.items())
                # one # per realm per turn, unless the 3-pumpkin power
                for r in range(R):
                    m.add_bool_or([~act[r], ~done[r], extra])
                # resources: pay the source, pumpkins and the card's cost, then gain
                src_cost = {K: sum(src.cost().get(K) * p for src, p in pick.items()) for K in KINDS}
                src_cost["P"] = src_cost["P"] + pumpkins
                sl = Slot(t, s, len(self.slots), act, comp, pick, val, ev, num, extra, used, dict(done), dict(res), {})
                self.slots.append(sl)
                turn.append(sl)
                sl._src_cost = src_cost  # type: ignore[attr-defined]
                new_done = {}
                for r in range(R):
                    d = m.new_bool_var(f"activated[{tag},{keys[r]}]")
                    m.add_max_equality(d, [done[r], act[r]])
                    new_done[r] = d
                done = new_done
                res = {K: m.new_int_var(0, self.RES_MAX, f"{K}[after {tag}]") for K in KINDS}
                sl.res_after = res
            # a rolled die is used at most once per turn (placed or compensated)
            for k in (0, 1):
                uses = [sl.pick[Source("die", k)] for sl in turn] + [x for sl in turn for (kk, _), x in sl.comp.items() if kk == k]
                m.add(sum(uses) <= 1)
            self.turn_slots.append(turn)
            # the next turn starts with what this turn ended with
            res = turn[-1].res_after if turn else res
        self.final_res = res
        # realms
        self.encoders = [RealmEncoder(self, r) for r in range(R)]
        for enc in self.encoders:
            enc.realm.encode(enc)
        # resource flow per slot
        for sl in self.slots:
            for K in KINDS:
                cost = sl._src_cost[K] + sum(enc.cost.get(sl.index, {}).get(K, 0) for enc in self.encoders)  # type: ignore[attr-defined]
                gain = sum(enc.gain.get(sl.index, {}).get(K, 0) for enc in self.encoders)
                gain = gain + sum(x for (_, KK), x in sl.comp.items() if KK == K)
                m.add(sl.res_before[K] - cost >= 0)
                m.add(sl.res_after[K] == sl.res_before[K] - cost + gain)
                sl.cost[K] = cost
                sl.gain[K] = gain
            # compensation: only when the rolled value fits no realm not yet activated this turn
            for k in (0, 1):
                lits = [x for (kk, _), x in sl.comp.items() if kk == k]
                if not lits:
                    continue
                value = game.rolls[sl.t][k]
                for r, enc in enumerate(self.encoders):
                    fits = enc.placeable(enc.events[sl.index], value)
                    for lit in lits:
                        m.add_bool_or([~lit, sl.done_before[r], ~fits])
        # stars, capped per realm
        cap = game.rules.star_cap
        self.realm_stars = []
        for enc in self.encoders:
            raw = m.new_int_var(0, 100, f"stars_raw[{enc.realm.key}]")
            m.add(raw == enc.stars)
            capped = m.new_int_var(0, cap, f"stars[{enc.realm.key}]")
            m.add_min_equality(capped, [raw, m.new_constant(cap)])
            self.realm_stars.append(capped)
            if enc.stars_ub < cap:
                m.add(capped <= enc.stars_ub)
        self.stars = sum(self.realm_stars)
        if options.tricks:
            from .tricks import ALL_TRICKS

            for trick in options.trick_list or ALL_TRICKS:
                trick(self)
        self.leftover = sum(self.final_res[K] for K in KINDS)
        self.score_tenths = 10 * self.stars + self.leftover

    # ---- decoding ---------------------------------------------------------------------
    def decode(self, solver: cp_model.CpSolver) -> Line:
        game = self.game
        turns = []
        for t, roll in enumerate(game.rolls):
            actions: list[Any] = []
            for sl in self.turn_slots[t]:
                if not solver.boolean_value(sl.used):
                    continue
                comp = [(k, K) for (k, K), x in sl.comp.items() if solver.boolean_value(x)]
                if comp:
                    actions.append(Compensation(comp[0][0], comp[0][1]))
                    continue
                r = next(r for r, x in sl.act.items() if solver.boolean_value(x))
                src = next(s for s, x in sl.pick.items() if solver.boolean_value(x))
                v = next(v for v, x in sl.val.items() if solver.boolean_value(x))
                extra = solver.boolean_value(sl.extra)
                enc = self.encoders[r]
                assert enc.decode_choice is not None
                choice = enc.decode_choice(solver, enc.events[sl.index])
                actions.append(Activation(src, game.realms[r].key, choice, v - src.base_value(roll), extra))
            end = []
            for enc in self.encoders:
                if enc.decode_end is not None:
                    ch = enc.decode_end(solver, t)
                    if ch is not None:
                        end.append((enc.realm.key, ch))
            turns.append(TurnPlay(roll, tuple(actions), tuple(end)))
        return Line(tuple(turns))

    # ---- fixing a given line (tests: the model must accept every legal line) ------------
    def line_values(self, line: Line) -> list[tuple[Any, int]]:
        """(variable or expression, value) pairs that put a line's decisions into the model."""
        out: list[tuple[Any, int]] = []
        for t, turn in enumerate(line.turns):
            slots = self.turn_slots[t]
            if len(turn.actions) > len(slots):
                raise ValueError(f"turn {t + 1} has {len(turn.actions)} actions, the model {len(slots)} slots")
            for sl, action in zip(slots, turn.actions):
                out.append((sl.used, 1))
                if isinstance(action, Compensation):
                    out.append((sl.comp[action.die, action.resource], 1))
                    continue
                r = self.game.index(action.realm)
                out.append((sl.act[r], 1))
                out.append((sl.pick[action.source], 1))
                out.append((sl.val[action.source.base_value(turn.roll) + action.shift], 1))
                out.append((sl.extra, int(action.extra)))
                enc = self.encoders[r]
                assert enc.choice_lits is not None
                out.extend((lit, 1) for lit in enc.choice_lits(enc.events[sl.index], action.choice))
            out.extend((sl.used, 0) for sl in slots[len(turn.actions):])
            for enc in self.encoders:
                ch = turn.end_choice(enc.realm.key)
                if ch is not None and enc.end_lits is not None:
                    out.extend((lit, 1) for lit in enc.end_lits(t, ch))
        return out

    def fix_line(self, line: Line) -> None:
        """Force the model to play exactly this line (tests: the model must accept it)."""
        for var, value in self.line_values(line):
            self.model.add(var == value)

    def hint_line(self, line: Line) -> None:
        """Hint a known line to the solver (a good first solution; not a constraint)."""
        for var, value in self.line_values(line):
            if isinstance(var, cp_model.IntVar):
                self.model.add_hint(var, value)


def _sources(roll: tuple[int, int]) -> list[Source]:
    """The ways to get a # in a turn with this roll (rolling-realms.md section 1, resources)."""
    out = [Source("die", 0), Source("die", 1)]
    for k in (0, 1):
        if roll[0] == roll[1]:
            out.append(Source("copy-pair", k))
        out.append(Source("copy", k))
        if roll[0] + roll[1] == 7:
            out.append(Source("copy-seven", k))
    out.extend(Source("create", None, x) for x in range(1, 7))
    return out
