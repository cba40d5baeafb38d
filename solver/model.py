"""The CP-SAT model of a Rolling Realms round: a *turn-set relaxation* checked by the engine.

Every realm has, in every turn, a short ordered list of *events* (its activations that turn):
the first may be a plain activation, the others need the 3-pumpkin power. An event takes a #
from a source of its turn (a rolled die, a copy, a created #), changed by pumpkins, and the
realm's module adds what the card does with it (solver/realms/*.py, `encode`).

Within a turn the model keeps every rule that does not depend on the order of the actions:
which dice and copies are used, one # per realm unless the 3-pumpkin power, compensation only
when the die fits no realm left un-activated this turn, resources never negative at the end of
the turn. It drops the order of actions across realms inside a turn, so it is a relaxation:
every legal line is a solution with the same stars and leftover, and its optimum is an upper
bound. `solve.py` asks the engine to order each turn of a solution (solver/ordering.py); when a
turn has no legal order, that play is cut off and the model solved again. A line the engine
accepts that reaches the model's optimum is a proven optimum.

Variables are named after the game: `use[t3,parks#1]=die2`, `value[t3,parks#1]=4`,
`parks.visit[t3,parks#1,trail2,site3]`, `compensate[t3,die1,P]`, `P[end of t3]`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ortools.sat.python import cp_model

from .engine import Game
from .hull import upper_hull
from .line import Activation, Choice, Compensation, Line, Source, TurnPlay
from .resources import KINDS, Resources

Lit = Any
LinearExpr = Any


@dataclass
class Event:
    """The i-th activation of one realm in turn t (if `active`); `index` orders the realm's round."""

    realm: int
    t: int
    k: int  # position within the turn's events of this realm
    index: int  # position in the realm's whole round
    tag: str
    active: Lit
    val: dict[int, Lit]
    use: dict[Source, Lit]
    num: dict[tuple[int, int, bool], Lit]  # (base value, value, 3-pumpkin power)
    extra: Lit
    pumpkins: LinearExpr = 0

    @property
    def i(self) -> int:
        return self.index

    def before(self, t: int) -> Lit | None:
        """Literal: this event happened in a turn before t (None: it cannot have)."""
        return self.active if self.t < t else None


@dataclass(frozen=True)
class ModelOptions:
    """Switches for solver-side tricks and sizes (each measured in bench/)."""

    #: symmetry breaking and dominance that keep an optimal line (never in the engine)
    tricks: bool = True
    #: 3-pumpkin activations per realm and turn (None: the proven bound `extras_bound`)
    extras: int | None = None
    #: which tricks (None: all of solver/tricks.py)
    trick_list: tuple | None = None
    # ---- campaign chapter 4 (The Swarm; solver/campaign/chapter4_solve.py). Additive: the
    # defaults below leave the base model exactly as it is.
    #: a realm may take several #s in a turn without the 3-pumpkin power
    repeat_free: bool = False
    #: events per realm and turn (None: 1 + the 3-pumpkin bound `extras_bound`)
    events_per_turn: int | None = None
    #: every event may also take a free copy of an already changed # (`FreeCopy` sources)
    free_copies: bool = False
    #: at most this many 3-pumpkin activations in the whole round: one region of the lines in a
    #: proof by cases (solver/split.py), never a rule (None: only the proven bounds)
    max_total_extras: int | None = None
    #: compensation without its condition (the rolled value fits no realm left un-activated):
    #: more plays than the rules allow, so only for bounds (the LP relaxation), never for lines.
    #: Measured on 9-turn rounds: the same LP values from 2.3x fewer rows, LPs 3.8 -> 1.5 s
    #: (docs/performance.md); the placeability rows never tightened the LP there.
    free_compensation: bool = False
    #: the realms' first #s of a turn paid together (`RoundModel._first_activations_paid`): a
    #: tighter model, asked in the leftover stage only. Measured on the issue-2 bench
    #: (docs/performance.md, eleventh session): there it proved 3 more rounds; in the star
    #: stages it only changed CP-SAT's path (three proven rounds 2-7x slower, none gained)
    first_activations_paid: bool = False
    #: compensation's condition counts the card's costly placements too (Parks' last sites,
    #: Scythe's bottom cells): with such a placement open and its realm not activated, the
    #: compensated die needs an order in which the held resources could not pay it
    #: (`RoundModel._costly_placements_unpaid`)
    costly_compensation: bool = True
    #: redundant rows that only help an LP relaxation (Ark Nova's circle-by-circle crossings,
    #: the stars-for-#s rows of Pendulum and Feast for Odin, `RealmEncoder.stars_within_count_bound`):
    #: asked by the LP bounds' model (`solve.lp_options`), not by CP-SAT's models. Measured on the
    #: issue-2 bench (docs/performance.md, twelfth session): in CP-SAT's models too they only
    #: changed its search path (seed 30 lost its 18-star line, seed 4 found a better one)
    lp_rows: bool = False
    #: a realm with many placements per # may state them per turn instead of per activation
    #: (Feast for Odin: which shape fills which squares in turn t, its gains all credited to the
    #: realm's first activation of the turn, which only lets them be spent earlier): more plays
    #: than the rules allow, and no line can be read back, so only for the LP bounds' model
    #: (`solve.lp_options`), which also drops compensation's condition (these realms then need
    #: no placeability rows). Measured (docs/performance.md, forty-ninth session): Feast for
    #: Odin rounds' star LP 3x and the split's LPs 4-8x faster, the same bounds or lower
    placements_by_turn: bool = False
    #: an event's pumpkin changes as their cost on the line of values instead of one literal per
    #: (base value, value) pair: 2 pumpkins per unit of the distance between the distribution of
    #: base values and the distribution of values (per threshold x: |#bases <= x - #values <= x|),
    #: the 3-pumpkin power's pairs kept as literals. Every line's plays satisfy it (a relaxation),
    #: and an LP's cheapest transport on a line costs exactly that distance, so its LP optimum is
    #: the pairs' one; no line can be read back, so only for the LP bounds' model (`solve.lp_options`)
    pumpkins_by_thresholds: bool = False
    #: the turns already played (a line of the first k turns, legal by the engine): fixed in
    #: every model built, so the question ("most stars", "N stars?") is about the rest of the round
    played: Line | None = None
    #: build the literals that say which activation completes a group of cells
    #: (`RealmEncoder.add_completion_stars`, Wingspan's matched bird, Tapestry's bands), so that
    #: `RoundModel.stars_after` holds for every timed realm; asked by chapter 2's rightmost-realm
    #: rows only (off, every realm's model is the one the round benchmarks measured)
    timed_stars: bool = False

    @property
    def played_turns(self) -> int:
        """How many turns are fixed as played (`played`)."""
        return len(self.played.turns) if self.played is not None else 0


def extras_bound(game: Game, t: int) -> int:
    """A proven bound on the 3-pumpkin activations of turn t (docs/model.md, "extras").

    (a) Each costs 3 pumpkins, so 3E <= every pumpkin gained by the end of turn t: the realms'
        pumpkin supply for the round plus one compensation resource per rolled die so far.
    (b) Let g be the most resources one activation can give. In a turn with d dice placed, c
        compensations (c <= 2 - d), B bought #s (each costs >= 1 resource) and E extras, the
        activations are d + B <= R + E, so the resources change by at most
        d*g + c + B*(g - 1) - 3E <= 2 + R*(g - 1) + E*(g - 4). Resources start at 0 and never go
        negative, so with U_t = t * (2 + R*(g - 1)) (at most what can be held at the start of
        turn t) and g < 4: E <= (U_t + 2 + R*(g - 1)) / (4 - g).
    """
    rules = game.rules
    comp = rules.compensation != "off"
    supply_p = sum(r.max_gain(rules).P for r in game.realms)
    bound = (supply_p + (2 * (t + 1) if comp else 0)) // 3
    g = max(r.max_gain_per_activation(rules) for r in game.realms)
    R = len(game.realms)
    if g < 4:
        per_turn = 2 + R * (g - 1)
        bound = min(bound, (t * per_turn + per_turn) // (4 - g))
    return max(0, bound)


def turn_extras_bounds(game: Game, options: ModelOptions) -> list[int]:
    """The bound per turn on 3-pumpkin activations a RoundModel of these options keeps
    (`RoundModel.extras`), known without building one."""
    bounds = [options.extras if options.extras is not None else extras_bound(game, t) for t in range(game.turns)]
    if options.max_total_extras is not None:
        bounds = [min(e, options.max_total_extras) for e in bounds]
    return bounds


class RealmEncoder:
    """What a realm's `encode` gets: its events and hooks into the round model."""

    def __init__(self, rm: "RoundModel", r: int, events: list[Event]) -> None:
        self.rm = rm
        self.r = r
        self.realm = rm.game.realms[r]
        self.model: cp_model.CpModel = rm.model
        self.rules = rm.game.rules
        self.rolls = rm.game.rolls
        self.turns = rm.game.turns
        self.events = events
        self.false: Lit = rm.false
        self.true: Lit = rm.true
        self.gain: dict[int, dict[str, LinearExpr]] = {}
        self.cost: dict[int, dict[str, LinearExpr]] = {}
        self.stars: LinearExpr = 0
        #: the stars each event scores here (`add_stars`), when the realm says which event scores
        #: every star of `stars`: per-turn stars for rules that read when a realm scored (chapter
        #: 2's rightmost realm, `RoundModel.stars_after`). Empty: the realm does not say.
        self.event_stars: dict[int, LinearExpr] = {}
        self.can_take: Callable[[int, int], Lit] | None = None
        #: the card's placements that cost resources: costly_takes(t, v) lists (literal, cost),
        #: the literal forced true when, at the start of turn t, an unchanged # of value v has
        #: such a placement here (None: the card has none)
        self.costly_takes: Callable[[int, int], list[tuple[Lit, Resources]]] | None = None
        self.decode_choice: Callable[[cp_model.CpSolver, Event], Choice] | None = None
        self.choice_lits: Callable[[Event, Choice], list[Lit]] | None = None
        self.decode_end: Callable[[cp_model.CpSolver, int], Choice | None] | None = None
        self.end_lits: Callable[[int, Choice], list[Lit]] | None = None
        #: cross-realm hook: called once after every realm is encoded, to add constraints that
        #: read the other realms' `stars` and the round's gains (`rm.gains`); docs/model.md
        self.cross_realm: Callable[[], None] | None = None
        self._rolled: dict[tuple[int, int], Lit] = {}
        self._placeable: dict[tuple[int, int], Lit] = {}
        self._activated: dict[int, Lit] = {}
        #: realm booleans named after each event (its choices), for the no-good cuts
        self.event_bools: dict[int, list[Lit]] = {}
        self._tags = {e.tag: e.index for e in events}

    def turn_events(self, t: int) -> list[Event]:
        return [e for e in self.events if e.t == t]

    # naming -----------------------------------------------------------------------------
    def name(self, what: str, *idx: object) -> str:
        return f"{self.realm.key}.{what}[{','.join(str(i) for i in idx)}]"

    def bool(self, what: str, *idx: object) -> Lit:
        var = self.model.new_bool_var(self.name(what, *idx))
        if idx and isinstance(idx[0], str) and idx[0] in self._tags:
            self.event_bools.setdefault(self._tags[idx[0]], []).append(var)
        return var

    def int(self, lo: int, hi: int, what: str, *idx: object) -> Any:
        return self.model.new_int_var(lo, hi, self.name(what, *idx))

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

    def both(self, a: Lit, b: Lit | None, what: str, *idx: object) -> Lit:
        """a AND b (b None = false)."""
        if b is None:
            return self.false
        return self.reify([a, b], what, *idx)

    # hooks ------------------------------------------------------------------------------
    def add_gain(self, e: Event, kind: str, expr: LinearExpr) -> None:
        d = self.gain.setdefault(e.index, {})
        d[kind] = d.get(kind, 0) + expr

    def add_cost(self, e: Event, kind: str, expr: LinearExpr) -> None:
        d = self.cost.setdefault(e.index, {})
        d[kind] = d.get(kind, 0) + expr

    def add_stars(self, e: Event, expr: LinearExpr) -> None:
        """Event e scores `expr` stars here (added to `stars`). A realm whose every star is added
        this way has timed stars: the stars after turn t are those of the events of turns <= t
        (tests/test_timed_stars.py replays engine lines against that)."""
        self.event_stars[e.index] = self.event_stars.get(e.index, 0) + expr
        self.stars = self.stars + expr

    @property
    def timed(self) -> bool:
        """Whether to say which activation completes a group (`ModelOptions.timed_stars`)."""
        return self.rm.options.timed_stars

    def add_completion_stars(self, stars: int, complete: Lit, added: Sequence[LinearExpr], size: int,
                             what: str, *idx: object) -> None:
        """A group of `size` cells (each filled at most once) scoring `stars` when complete (the
        literal `complete`, at the round's end): added[n] is how many of its cells the n-th event
        fills. With `timed`, the stars are scored by the event filling the last cell (`add_stars`;
        a literal "complete after event n" per event, the last one equal to `complete`); without,
        they are added to `stars` as `stars · complete`."""
        if not self.timed:
            self.stars = self.stars + stars * complete
            return
        count, prev = 0, self.false
        for e, a in zip(self.events, added):
            count = count + a
            done = self.model.new_bool_var(self.name(what, f"after {e.tag}", *idx))
            self.model.add(size * done <= count)
            self.model.add(done >= count - (size - 1))
            if stars:
                self.add_stars(e, stars * (done - prev))
            prev = done
        self.model.add(prev == complete)

    def stars_within_count_bound(self, most: Sequence[int], count: LinearExpr | None = None) -> None:
        """Redundant rows (LP help): with k of something (this realm's activations, or `count`:
        Azul's filled cells) its stars are at most most[k] (a bound the realm proves from its
        card). Adds the upper concave hull of the points (k, most[k]), one row per hull segment:
        each segment's line lies above every point, so every integer solution keeps it, while the
        LP can no longer buy stars at the best per-# rate of a longer line with few #s."""
        if count is None:
            count = sum(e.active for e in self.events)
        hull = upper_hull(most)
        for (k1, s1), (k2, s2) in zip(hull, hull[1:]):
            # the line through (k1, s1), (k2, s2): (k2 - k1) * stars <= (s2 - s1) * (k - k1) + s1 * (k2 - k1)
            self.model.add((k2 - k1) * self.stars <= (s2 - s1) * (count - k1) + s1 * (k2 - k1))

    def placeable(self, t: int, v: int) -> Lit:
        """Literal forced true when, at the start of turn t, an unchanged # of value v has a
        placement here that costs nothing on the card (it may be true otherwise only if the
        solver wishes; a realm that cannot tell leaves it unforced, which only relaxes)."""
        key = (t, v)
        if key not in self._placeable:
            assert self.can_take is not None, f"{self.realm.key} has no placeability encoding"
            self._placeable[key] = self.can_take(t, v)
        return self._placeable[key]

    def activated(self, t: int) -> Lit:
        """Literal: this realm is activated in turn t (its first event of the turn is active)."""
        evs = self.turn_events(t)
        return evs[0].active if evs else self.false

    def rolled_placed(self, t: int, k: int) -> Lit:
        """Literal: rolled die k of turn t was placed (as a rolled die) in this realm."""
        key = (t, k)
        if key not in self._rolled:
            z = self.bool("rolled_here", f"t{t + 1}", f"die{k + 1}")
            self.model.add(sum(e.use[Source("die", k)] for e in self.turn_events(t)) == z)
            self._rolled[key] = z
        return self._rolled[key]


# ---- campaign chapter 4 (The Swarm): free copies of a # (ModelOptions.free_copies) ----------
@dataclass(frozen=True, order=True)
class FreeCopy(Source):
    """A free copy of a # after its pumpkin change (chapter 4's swarm copy). Realms see the
    source it copies (`kind` "copy" with `die` k, or "create"); `value` is the # itself; it
    costs nothing and is a different source from the paid ones (a different class)."""

    def cost(self) -> Resources:
        return Resources()

    def base_value(self, roll: tuple[int, int]) -> int:
        assert self.value is not None
        return self.value

    def text(self) -> str:
        of = "create" if self.kind == "create" else f"die{(self.die or 0) + 1}"
        return f"free-copy {of} {self.value}"


def free_copies() -> list[FreeCopy]:
    """Every free copy an event may take: of die 1, of die 2, of a created #, each valued 1..6."""
    return [FreeCopy("copy", k, v) for k in (0, 1) for v in range(1, 7)] + [FreeCopy("create", None, v) for v in range(1, 7)]
# ---- end of chapter 4's free copies ----------------------------------------------------------


def sources_of(roll: tuple[int, int]) -> list[Source]:
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


def _pay(enc: "RealmEncoder", e: Event, kind: str) -> LinearExpr:
    """What event e costs in one resource kind: the card's cost, its source's cost (copies,
    created #s) and, for pumpkins, its changes."""
    pay = enc.cost.get(e.index, {}).get(kind, 0) + sum(s.cost().get(kind) * lit for s, lit in e.use.items())
    return pay + e.pumpkins if kind == "P" else pay


class RoundModel:
    """Builds the CP-SAT model of one round; `encoders` hold each realm's part."""

    RES_MAX = 60

    def __init__(self, game: Game, options: ModelOptions = ModelOptions()) -> None:
        self.game = game
        self.options = options
        self.model = cp_model.CpModel()
        m = self.model
        self.false = m.new_bool_var("false")
        m.add(self.false == 0)
        self.true = m.new_bool_var("true")
        m.add(self.true == 1)
        T = game.turns
        self.extras = turn_extras_bounds(game, options)
        self.events: list[list[Event]] = []
        for r, realm in enumerate(game.realms):
            cap = realm.max_events(T, game.rules)
            evs: list[Event] = []
            for t in range(T):
                size = options.events_per_turn if options.events_per_turn is not None else 1 + self.extras[t]
                turn_evs = [self._event(r, t, k, len(evs) + k) for k in range(size)]
                # a realm's activations of a turn fill its events from the first; every one
                # after the first of the turn needs the 3-pumpkin power (not with repeat_free)
                for a, b in zip(turn_evs, turn_evs[1:]):
                    m.add_implication(b.active, a.active)
                    if not options.repeat_free:
                        m.add_implication(b.active, b.extra)
                evs.extend(turn_evs)
            m.add(sum(e.active for e in evs) <= cap)
            self.events.append(evs)
        # extras_bound is a bound on the turn's 3-pumpkin activations over every realm together
        # (its proof assumes the base rules: not with repeat_free)
        for t in range(T if not options.repeat_free else 0):
            m.add(self.turn_extras(t) <= self.extras[t])
        if options.max_total_extras is not None:
            m.add(self.total_extras() <= options.max_total_extras)
        # compensation: per turn and die, one resource of the player's choice
        self.comp: dict[tuple[int, int, str], Lit] = {}
        if game.rules.compensation != "off":
            for t in range(T):
                for k in (0, 1):
                    for K in KINDS:
                        self.comp[t, k, K] = m.new_bool_var(f"compensate[t{t + 1},die{k + 1},{K}]")
        # a rolled die is used at most once per turn (placed or compensated)
        for t in range(T):
            for k in (0, 1):
                uses = [e.use[Source("die", k)] for evs in self.events for e in evs if e.t == t]
                uses += [self.comp[t, k, K] for K in KINDS if (t, k, K) in self.comp]
                m.add(sum(uses) <= 1)
        # realms
        self.encoders = [RealmEncoder(self, r, self.events[r]) for r in range(len(game.realms))]
        self._stars_after: dict[tuple[int, int], Any] = {}
        for enc in self.encoders:
            enc.realm.encode(enc)
        # cross-realm scoring (Between Two Cities, My Little Scythe): once every realm is encoded
        for enc in self.encoders:
            if enc.cross_realm is not None:
                enc.cross_realm()
        # compensation only when the rolled value fits no realm left un-activated this turn
        for (t, k, K), lit in self.comp.items():
            v = game.rolls[t][k]
            for enc in self.encoders:
                if not options.free_compensation:
                    m.add_bool_or([~lit, enc.activated(t), ~enc.placeable(t, v)])
        # resources: never negative at the end of a turn (the order inside a turn is relaxed)
        self.res_end: list[dict[str, Any]] = []
        for t in range(T):
            self.res_end.append({K: m.new_int_var(0, self.RES_MAX, f"{K}[end of t{t + 1}]") for K in KINDS})
            for K in KINDS:
                flow = []
                for enc in self.encoders:
                    for e in enc.turn_events(t):
                        flow.append(enc.gain.get(e.index, {}).get(K, 0))
                        flow.append(-enc.cost.get(e.index, {}).get(K, 0))
                        flow.append(-sum(s.cost().get(K) * lit for s, lit in e.use.items()))
                        if K == "P":
                            flow.append(-e.pumpkins)
                comps = sum(lit for (tt, _, KK), lit in self.comp.items() if tt == t and KK == K)
                before = self.res_end[t - 1][K] if t else 0
                m.add(self.res_end[t][K] == before + sum(flow) + comps)
            # a realm's own activations of the turn keep their order: each is paid from what was
            # held at the start, its earlier ones this turn, and at most every gain of the other
            # realms this turn and the turn's compensations (valid for any order of the rest)
            for K in KINDS:
                start_res = self.res_end[t - 1][K] if t else 0
                comps = sum(lit for (tt, _, KK), lit in self.comp.items() if tt == t and KK == K)
                for enc in self.encoders:
                    evs = enc.turn_events(t)
                    others = sum(
                        o.gain.get(e.index, {}).get(K, 0) for o in self.encoders if o is not enc for e in o.turn_events(t)
                    )
                    # a compensation made before this realm's first # of the turn needs the realm to
                    # have no placement for that die then (its sheet is still the turn's start);
                    # only those can pay for that first # (found by the Azul and cross-realm work)
                    early = []
                    for (tt, k, KK), lit in self.comp.items():
                        if tt == t and KK == K:
                            y = m.new_bool_var(f"compensate_before[t{t + 1},die{k + 1},{K},{enc.realm.key}]")
                            m.add_implication(y, lit)
                            if not options.free_compensation:
                                m.add_implication(y, ~enc.placeable(t, game.rolls[t][k]))
                            early.append(y)
                    done = 0
                    for n, e in enumerate(evs):
                        pay = _pay(enc, e, K)
                        m.add(start_res + done - pay + others + (sum(early) if n == 0 else comps) >= 0)
                        done = done + enc.gain.get(e.index, {}).get(K, 0) - pay
            if len(self.encoders) > 1 and options.first_activations_paid:
                self._first_activations_paid(t)
        self.final_res = self.res_end[-1]
        if self.comp and options.costly_compensation and not options.free_compensation:
            self._costly_placements_unpaid()
        # stars, capped per realm
        cap = game.rules.star_cap
        self.realm_stars = []
        for enc in self.encoders:
            raw = m.new_int_var(0, 100, f"stars_raw[{enc.realm.key}]")
            m.add(raw == enc.stars)
            capped = m.new_int_var(0, cap, f"stars[{enc.realm.key}]")
            m.add_min_equality(capped, [raw, m.new_constant(cap)])
            self.realm_stars.append(capped)
        self.stars = sum(self.realm_stars)
        self.leftover = sum(self.final_res[K] for K in KINDS)
        if options.tricks:
            from .tricks import ALL_TRICKS

            for trick in options.trick_list or ALL_TRICKS:
                trick(self)
        if options.played is not None:
            self.fix_line(options.played)

    def stars_after(self, r: int, t: int) -> Any:
        """Realm r's stars (capped) at the end of turn t (0-based; -1: before the first), read from
        the events of turns <= t; only for realms with `timed_stars` (a rule reading when a realm
        scored must not be built on a realm whose encoding cannot say)."""
        enc = self.encoders[r]
        if not enc.realm.timed_stars:
            raise ValueError(f"{enc.realm.key}: the encoding does not say which activation scores its stars")
        if not self.options.timed_stars:
            raise ValueError("stars after a turn need the model built with ModelOptions(timed_stars=True)")
        key = (r, t)
        if key not in self._stars_after:
            cap = self.game.rules.star_cap
            raw = sum(x for e in enc.events if e.t <= t for x in [enc.event_stars.get(e.index)] if x is not None)
            if isinstance(raw, int):
                self._stars_after[key] = self.model.new_constant(min(raw, cap))
            else:
                # a min, as the round's own capped stars: HiGHS's line search (solver/mip_hint.py)
                # relaxes it (the capped stars anywhere below the raw ones), so its MIP barely sees
                # the rows built on them, and CP-SAT's completion of its solution does. Measured
                # against an exact literal form (docs/campaign-chapter2.md): faster, and bench
                # seed 3's win at turn 9 is found only this way
                m = self.model
                z = m.new_int_var(0, 100, f"stars_raw[{enc.realm.key},after t{t + 1}]")
                m.add(z == raw)
                capped = m.new_int_var(0, cap, f"stars[{enc.realm.key},after t{t + 1}]")
                m.add_min_equality(capped, [z, m.new_constant(cap)])
                self._stars_after[key] = capped
        return self._stars_after[key]

    @property
    def played_turns(self) -> int:
        """How many turns are fixed as played (`ModelOptions.played`); tricks leave them alone."""
        return self.options.played_turns

    def _costly_placements_unpaid(self) -> None:
        """Compensation's condition for the placements that cost (`RealmEncoder.costly_takes`):
        a die compensated while such a placement of its value is open in a realm not activated
        that turn needs the held resources short of its cost at that moment. The moment's
        resources are at least the turn's start plus, for every other realm, the lowest point
        of its own activations of the turn in their order (each pays, then gains; whatever
        came before the compensation is a prefix of them), so a legal line keeps the row in
        any order. Found on the bundled game's round 2: an optimum compensated a 6 while Parks'
        last site (2 coins) was payable in every order; the engine could order no such play."""
        m = self.model
        lowest: dict[tuple[int, int, str], Any] = {}

        def low_point(t: int, o: int, K: str) -> Any:
            if (t, o, K) not in lowest:
                enc = self.encoders[o]
                run, points = 0, [0]
                for e in enc.turn_events(t):
                    run = run + enc.gain.get(e.index, {}).get(K, 0) - _pay(enc, e, K)
                    points.append(run)
                z = m.new_int_var(-self.RES_MAX, 0, f"{K}[lowest change,t{t + 1},{enc.realm.key}]")
                m.add_min_equality(z, points)
                lowest[t, o, K] = z
            return lowest[t, o, K]

        for (t, k, K), lit in self.comp.items():
            v = self.game.rolls[t][k]
            for r, enc in enumerate(self.encoders):
                if enc.costly_takes is None:
                    continue
                for n, (open_, cost) in enumerate(enc.costly_takes(t, v)):
                    short = []
                    for J in KINDS:
                        if not cost.get(J):
                            continue
                        held = (self.res_end[t - 1][J] if t else 0) + sum(
                            low_point(t, o, J) for o in range(len(self.encoders)) if o != r)
                        y = m.new_bool_var(f"compensate_short[t{t + 1},die{k + 1},{K},{enc.realm.key},{n},{J}]")
                        m.add(held <= cost.get(J) - 1).only_enforce_if(y)
                        short.append(y)
                    m.add_bool_or([~lit, enc.activated(t), ~open_] + short)

    def _first_activations_paid(self, t: int) -> None:
        """Every realm's first # of turn t is paid before the last of them, L: from the turn's
        start, at most every gain of the turn, and the compensations made before L. Such a
        compensation needs L's realm, un-activated then, to have had no placement for that die
        (its sheet is still the turn's start): so only a compensation for which some activated
        realm has no cost-free placement can pay. The per-realm rows above let each realm count
        every other realm's gains and, after its own first #, every compensation; this row adds
        the realms' first #s together. (Without compensation's condition the row follows from
        the end-of-turn balance, so it is added only with it.) Measured (bench seed 48, leftover
        at 18 stars): the model's optimum had two created #s paid by a compensation legal only
        after both — no order, a cut and a second solve; with this row, no cut (docs/model.md)."""
        if self.options.free_compensation or not any(tt == t for (tt, _, _) in self.comp):
            return
        m, game = self.model, self.game
        some_early: dict[int, LinearExpr] = {}
        for k in (0, 1):
            zs = []
            for enc in self.encoders:
                z = m.new_bool_var(f"compensate_before_last_first[t{t + 1},die{k + 1},{enc.realm.key}]")
                m.add_implication(z, enc.activated(t))
                m.add_implication(z, ~enc.placeable(t, game.rolls[t][k]))
                zs.append(z)
            some_early[k] = sum(zs)
        events = [(enc, enc.turn_events(t)) for enc in self.encoders]
        for K in KINDS:
            start_res = self.res_end[t - 1][K] if t else 0
            gains = sum(enc.gain.get(e.index, {}).get(K, 0) for enc, evs in events for e in evs)
            firsts = sum(_pay(enc, evs[0], K) for enc, evs in events if evs)
            early = []
            for (tt, k, KK), lit in self.comp.items():
                if tt == t and KK == K:
                    y = m.new_bool_var(f"compensate_before_last_first[t{t + 1},die{k + 1},{K}]")
                    m.add_implication(y, lit)
                    m.add(y <= some_early[k])
                    early.append(y)
            m.add(start_res + gains + sum(early) - firsts >= 0)

    def total_extras(self) -> LinearExpr:
        """The round's 3-pumpkin activations (`extra3P` over every realm and turn)."""
        return sum(e.extra for evs in self.events for e in evs)

    def turn_extras(self, t: int) -> LinearExpr:
        """Turn t's 3-pumpkin activations (`extra3P` over every realm)."""
        return sum(e.extra for evs in self.events for e in evs if e.t == t)

    def gains(self, t: int, kind: str) -> LinearExpr:
        """Every resource of this kind earned in turn t: each realm's gains and the compensations
        (what the engine reports to `Realm.observe_gain`; spending is not subtracted)."""
        earned = [enc.gain.get(e.index, {}).get(kind, 0) for enc in self.encoders for e in enc.turn_events(t)]
        earned += [lit for (tt, _, K), lit in self.comp.items() if tt == t and K == kind]
        return sum(earned)

    def _event(self, r: int, t: int, k: int, index: int) -> Event:
        m = self.model
        game = self.game
        roll = game.rolls[t]
        tag = f"t{t + 1},{game.realms[r].key}#{k + 1}"
        active = m.new_bool_var(f"active[{tag}]")
        srcs: list[Source] = sources_of(roll) + (free_copies() if self.options.free_copies else [])
        use = {s: m.new_bool_var(f"use[{tag}]={s.text()}") for s in srcs}
        m.add(sum(use.values()) == active)
        val = {v: m.new_bool_var(f"value[{tag}]={v}") for v in range(1, 7)}
        m.add(sum(val.values()) == active)
        # base value (as rolled / copied / created) -> value, by pumpkins
        base: dict[int, list] = {}
        for s, lit in use.items():
            base.setdefault(s.base_value(roll), []).append(lit)
        if self.options.pumpkins_by_thresholds:
            return self._event_by_thresholds(r, t, k, index, tag, active, val, use, base)
        num: dict[tuple[int, int, bool], Lit] = {}
        for b in sorted(base):
            for v in range(1, 7):
                num[b, v, False] = m.new_bool_var(f"change[{tag}]={b}to{v}")
                if abs(v - b) == 1:
                    num[b, v, True] = m.new_bool_var(f"change3P[{tag}]={b}to{v}")
            m.add(sum(x for (bb, _, _), x in num.items() if bb == b) == sum(base[b]))
        for v in range(1, 7):
            m.add(sum(x for (_, vv, _), x in num.items() if vv == v) == val[v])
        extra = m.new_bool_var(f"extra3P[{tag}]")
        m.add(sum(x for (_, _, xx), x in num.items() if xx) == extra)
        pumpkins = sum((3 if x else 2 * abs(v - b)) * lit for (b, v, x), lit in num.items() if x or v != b)
        return Event(r, t, k, index, tag, active, val, use, num, extra, pumpkins)

    def require_change_literals(self) -> None:
        """For a rule that reads each change's literal (`Event.num`): the LP bounds' model has only
        the 3-pumpkin power's (`ModelOptions.pumpkins_by_thresholds`)."""
        assert not self.options.pumpkins_by_thresholds, "the rule reads each change's literal (ModelOptions.pumpkins_by_thresholds)"

    def _event_by_thresholds(self, r: int, t: int, k: int, index: int, tag: str, active: Lit,
                             val: dict[int, Lit], use: dict[Source, Lit], base: dict[int, list]) -> Event:
        """`_event`'s pumpkins for the LP bounds' model (`ModelOptions.pumpkins_by_thresholds`):
        the 3-pumpkin power's pairs as literals, the rest as 2 x the distance of the base values'
        distribution to the values' (`dist[x]` >= |bases <= x - values <= x| for x = 1..5)."""
        m = self.model
        num: dict[tuple[int, int, bool], Lit] = {}
        for b in sorted(base):
            for v in (b - 1, b + 1):
                if 1 <= v <= 6:
                    num[b, v, True] = m.new_bool_var(f"change3P[{tag}]={b}to{v}")
        extra = m.new_bool_var(f"extra3P[{tag}]")
        m.add(sum(num.values()) == extra)
        # mass left to the 2-pumpkin changes: base b's uses less its 3-pumpkin pairs, value v's
        # literal less the pairs arriving there (each >= 0: a pair needs its base and its value)
        stay = {b: sum(base[b]) - sum(x for (bb, _, _), x in num.items() if bb == b) for b in base}
        land = {v: val[v] - sum(x for (_, vv, _), x in num.items() if vv == v) for v in range(1, 7)}
        for b, expr in stay.items():
            m.add(expr >= 0)
        for v, expr in land.items():
            m.add(expr >= 0)
        dist = []
        for x in range(1, 6):
            gap = sum(stay[b] for b in stay if b <= x) - sum(land[v] for v in range(1, x + 1))
            d = m.new_int_var(0, 1, f"dist[{tag}]<={x}")
            m.add(d >= gap)
            m.add(d >= -gap)
            dist.append(d)
        pumpkins = 2 * sum(dist) + 3 * extra
        return Event(r, t, k, index, tag, active, val, use, num, extra, pumpkins)

    # ---- decoding: the turn sets, then an order found by the engine ----------------------
    @staticmethod
    def decode_event(solver: cp_model.CpSolver, enc: RealmEncoder, e: Event) -> tuple[Any, int, Choice]:
        """An active event of a solution: the # it uses, its value and the realm's choice."""
        src = next(s for s, x in e.use.items() if solver.boolean_value(x))
        v = next(v for v, x in e.val.items() if solver.boolean_value(x))
        assert enc.decode_choice is not None
        return src, v, enc.decode_choice(solver, e)

    def turn_sets(self, solver: cp_model.CpSolver) -> list[tuple[list[list[Activation]], list[Compensation], list[tuple[str, Choice]]]]:
        """Per turn: each realm's activations (in realm order), the compensations, end choices."""
        game = self.game
        out = []
        for t, roll in enumerate(game.rolls):
            per_realm: list[list[Activation]] = []
            for enc in self.encoders:
                acts = []
                for e in enc.turn_events(t):
                    if not solver.boolean_value(e.active):
                        continue
                    src, v, choice = self.decode_event(solver, enc, e)
                    acts.append(Activation(src, enc.realm.key, choice, v - src.base_value(roll), bool(solver.boolean_value(e.extra))))
                per_realm.append(acts)
            comps = [Compensation(k, K) for (tt, k, K), x in self.comp.items() if tt == t and solver.boolean_value(x)]
            end = []
            for enc in self.encoders:
                if enc.decode_end is not None:
                    ch = enc.decode_end(solver, t)
                    if ch is not None:
                        end.append((enc.realm.key, ch))
            out.append((per_realm, comps, end))
        return out

    def history_literals(self, solver: cp_model.CpSolver, t: int, realms: set[int] | None = None) -> list[Lit]:
        """Literals (in their solved polarity) that pin every decision of turns 0..t: the state
        turn t starts from and its action set (only those of the given realms, and no
        compensations, when `realms` is set)."""
        lits: list[Lit] = []

        def pin(x: Lit) -> None:
            lits.append(x if solver.boolean_value(x) else ~x)

        chosen = [enc for enc in self.encoders if realms is None or enc.r in realms]
        for enc in chosen:
            for e in enc.events:
                if e.t > t:
                    continue
                pin(e.active)
                if solver.boolean_value(e.active):
                    lits.extend(x for x in e.use.values() if solver.boolean_value(x))
                    lits.extend(x for x in e.num.values() if solver.boolean_value(x))
                    for x in enc.event_bools.get(e.index, []):
                        pin(x)
        for (tt, _, _), x in self.comp.items():
            if tt <= t and realms is None:
                pin(x)
        # end-of-turn choices (Ark Nova's outline) change later sheets, and a turn's end choice can
        # itself be what the engine rejects: pin them too, or a cut would also remove the same
        # play with other end choices (found by the chapter 3 work)
        for enc in chosen:
            if enc.decode_end is not None and enc.end_lits is not None:
                for tt in range(t + 1):
                    lits.extend(enc.end_lits(tt, enc.decode_end(solver, tt) or ()))
        return lits

    def forbid_history(self, solver: cp_model.CpSolver, t: int) -> None:
        """Cut off this exact play of turns 0..t: turn t's action set has no legal order from
        the state the earlier turns lead to (the order-free model allowed it)."""
        self.model.add_bool_or([~x for x in self.history_literals(solver, t)])

    # ---- fixing or hinting a given line --------------------------------------------------
    def line_values(self, line: Line, turns: set[int] | None = None) -> list[tuple[Any, int]]:
        """(variable or expression, value) pairs that put a line's decisions into the model
        (only those of the given turns, 0-based, when `turns` is set)."""
        out: list[tuple[Any, int]] = []
        for t, turn in enumerate(line.turns):
            if turns is not None and t not in turns:
                continue
            used = [0] * len(self.game.realms)
            for action in turn.actions:
                if isinstance(action, Compensation):
                    out.append((self.comp[t, action.die, action.resource], 1))
                    continue
                r = self.game.index(action.realm)
                evs = self.encoders[r].turn_events(t)
                if used[r] >= len(evs):
                    raise ValueError(f"turn {t + 1}: {action.realm} has more activations than the model's {len(evs)} events")
                e = evs[used[r]]
                used[r] += 1
                out.extend(self.event_values(r, e, action.source, action.source.base_value(turn.roll) + action.shift,
                                             action.extra, action.choice))
            out.extend(self.turn_rest_values(t, turn, used))
            for (tt, k, K), lit in self.comp.items():
                if tt == t and not any(isinstance(a, Compensation) and a.die == k and a.resource == K for a in turn.actions):
                    out.append((lit, 0))
        return out

    def event_values(self, r: int, e: Any, source: Source, value: int, extra: bool, choice: Choice) -> list[tuple[Any, int]]:
        """The (variable, value) pairs of one activation put on event `e` of realm `r`: the event
        happens, with this source, this value after pumpkins, the 3-pumpkin power or not, and the
        card choice."""
        enc = self.encoders[r]
        assert enc.choice_lits is not None
        return [(e.active, 1), (e.use[source], 1), (e.val[value], 1), (e.extra, int(extra)),
                *((lit, 1) for lit in enc.choice_lits(e, choice))]

    def turn_rest_values(self, t: int, turn: TurnPlay, used: list[int]) -> list[tuple[Any, int]]:
        """The rest of turn t once its activations are placed (`used[r]` events of realm r): the
        realms' later events off, and the end-of-turn choices (Ark Nova's outline) as played."""
        out: list[tuple[Any, int]] = []
        for r, enc in enumerate(self.encoders):
            out.extend((e.active, 0) for e in enc.turn_events(t)[used[r]:])
            ch = turn.end_choice(enc.realm.key)
            if ch is not None and enc.end_lits is not None:
                out.extend((lit, 1) for lit in enc.end_lits(t, ch))
        return out

    def fix_values(self, values: list[tuple[Any, int]]) -> None:
        """Force these (variable, value) pairs (a line's, from `line_values`)."""
        for var, value in values:
            self.model.add(var == value)

    def hint_values(self, values: list[tuple[Any, int]]) -> None:
        """Hint these (variable, value) pairs (a good first solution; not a constraint)."""
        for var, value in values:
            if isinstance(var, cp_model.IntVar):
                self.model.add_hint(var, value)

    def fix_line(self, line: Line) -> None:
        """Force the model to play exactly this line (tests: the model must accept it)."""
        self.fix_values(self.line_values(line))

    def hint_line(self, line: Line) -> None:
        """Hint a known line to the solver (a good first solution; not a constraint)."""
        self.hint_values(self.line_values(line))
