"""A quick winning line for chapter 3 from the engine: a beam search over the chapter's steps.

The CP-SAT ladder (chapter3_solve.py) is slow to find *any* line on long rounds: every rolled #
must be used each turn, and the model only learns a turn cannot be ordered through cuts. The
engine finds such lines directly. This search plays the chapter's own steps (the engine's
`legal_actions` for the rolled dice, then optionally one bought #; chapter 3's damage marks and
losses as `check_chapter3` applies them) and keeps the `width` most promising states after each
step, in a few passes with different orders of states (`PASSES`).

It is a restriction (at most one bought # a turn, a bounded beam): it finds wins, it proves
nothing. Every line it returns is replayed by `check_chapter3` by the caller before it is shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..engine import Game, RoundState, apply_activation, legal_actions, realm_stars, start
from ..errors import IllegalAction
from ..line import Activation, Line, Source, TurnPlay
from ..realms.base import Use
from ..resources import KINDS, Resources
from .beam import end_turns
from .chapter3 import EARN_LIMIT, Chapter3, activation_effect, damage_hit

#: states kept after each step (the beam's width)
BEAM_WIDTH = 40


@dataclass(frozen=True)
class Ch3State:
    """What chapter 3 tracks besides the round: stars per realm, resources earned, marks made."""

    round: RoundState
    stars: tuple[int, ...]
    earned: Resources
    marks: int


class Scores:
    """How the beam ranks states. Every order puts marks first (never counting the last space
    before the first target turn: it would end the chapter early). "marks" then prefers room
    under the 12-earned loss, resources held and stars; "room" prefers sheets that still take
    many values (every rolled # must be used in later turns) and pumpkins (which change a # to
    fit); "finish", once only the last space is left, prefers sheets where a realm next to the
    Boss in a target turn can still give its symbol for many values. Measured on
    bench/chapter3.py: each finds wins the others miss."""

    def __init__(self, game: Game, setup: Chapter3, order: str) -> None:
        self.game, self.setup, self.order = game, setup, order
        self._open: dict[tuple, int] = {}
        self._finish: dict[tuple, bool] = {}

    def open_values(self, st: Ch3State) -> int:
        """(realm, value) pairs with some placement on the sheet now (costs ignored; cached)."""
        n = 0
        for r, realm in enumerate(self.game.realms):
            sheet = st.round.sheets[r]
            key = (r, sheet, st.round.turn)
            if key not in self._open:
                self._open[key] = sum(1 for v in range(1, 7) if realm.options(
                    sheet, Use(v, Source("die", 0), (v, v), st.round.turn), self.game.rules))
            n += self._open[key]
        return n

    def finish_values(self, st: Ch3State) -> int:
        """Values 1..6 with which a realm next to the Boss in a target turn could still give the
        last space's symbol (a resource gained, or a placement while its stars are below 6;
        costs ignored; cached)."""
        last = self.setup.track[-1]
        near = sorted({r for w in self.setup.target_turns for r in self.setup.neighbours(w - 1)})
        n = 0
        for v in range(1, 7):
            for r in near:
                realm, sheet = self.game.realms[r], st.round.sheets[r]
                key = (r, sheet, v, st.round.turn)
                if key not in self._finish:
                    opts = realm.options(sheet, Use(v, Source("die", 0), (v, v), st.round.turn), self.game.rules)
                    self._finish[key] = (any(eff.gain.get(last) > 0 for _, eff in opts) if last != "S"
                                         else bool(opts) and st.stars[r] < 6)
                if self._finish[key]:
                    n += 1
                    break
        return n

    def __call__(self, st: Ch3State, turn: int) -> tuple:
        need = len(self.setup.track)
        useful = min(st.marks, need - 1) if turn + 1 < self.setup.target_turns[0] else st.marks
        room = min(EARN_LIMIT - 1 - st.earned.get(k) for k in KINDS)
        if self.order == "finish":
            finish = self.finish_values(st) if st.marks == need - 1 else 0
            return (useful, finish, min(room, 3), st.round.resources.total(), sum(st.stars))
        if self.order == "room":
            return (useful, min(room, 3), self.open_values(st) + st.round.resources.P, st.round.resources.total())
        return (useful, min(room, 3), st.round.resources.total(), sum(st.stars), room)


#: the beam passes tried in turn by `quick_line` (score order, width, bought #s per turn)
PASSES: tuple[tuple[str, int, int], ...] = (
    ("marks", BEAM_WIDTH, 0), ("room", BEAM_WIDTH, 0), ("finish", BEAM_WIDTH, 0),
    ("marks", BEAM_WIDTH, 1), ("room", BEAM_WIDTH, 1))


def _step(game: Game, setup: Chapter3, st: Ch3State, act: Activation, t: int) -> tuple[Ch3State, str | None]:
    """One activation as check_chapter3 plays it: the new state and "won", "lost" or None.
    Raises IllegalAction when the engine refuses it."""
    after = apply_activation(game, st.round, act)
    gain = activation_effect(game, st.round, act).gain
    stars = realm_stars(game, after)
    earned = st.earned + gain
    marks, hit = st.marks, False
    if marks < len(setup.track):
        where = damage_hit(setup.track[marks], setup.neighbours(t), game.index(act.realm), gain, st.stars, stars)
        if where is not None:
            marks, hit = marks + 1, True
    new = Ch3State(after, stars, earned, marks)
    over = any(earned.get(k) >= EARN_LIMIT for k in KINDS)
    finished = hit and marks == len(setup.track)
    won = finished and t + 1 in setup.target_turns
    if won and (not over or setup.same_step == "won"):
        return new, "won"
    if over or finished:
        # a finished track outside the target can never win (under either `unwinnable` reading)
        return new, "lost"
    return new, None


def _key(st: Ch3State) -> tuple:
    return (st.round, st.stars, st.earned, st.marks)


def quick_line(setup: Chapter3, rolls: Sequence[tuple[int, int]], passes: Sequence[tuple[str, int, int]] = PASSES,
               progress: Callable[[str], None] | None = None) -> Line | None:
    """The earliest win among the beam passes (each `(order, width, buys)`); a pass that wins in
    the first target turn ends the search (nothing earlier can win). `progress` gets one line
    per pass (a pass can take seconds on 15 turns)."""
    best: Line | None = None
    for i, (order, width, buys) in enumerate(passes):
        if progress:
            progress(f"chapter 3: quick line, engine beam pass {i + 1} of {len(passes)} ({order}, width {width}, "
                     f"{buys} bought # a turn) …")
        line = beam_line(setup, rolls, width, order, buys, last_turn=len(best.turns) - 1 if best else None)
        if line is not None and (best is None or len(line.turns) < len(best.turns)):
            best = line
        if best is not None and len(best.turns) == setup.target_turns[0]:
            break
    return best


def beam_line(setup: Chapter3, rolls: Sequence[tuple[int, int]], width: int = BEAM_WIDTH, order: str = "marks",
              buys: int = 0, last_turn: int | None = None) -> Line | None:
    """A line that wins chapter 3 within the rolls (by turn `last_turn` when given), found by the
    chapter's own steps (the `width` best states by `Scores(order)` kept after each step): each
    turn places the two rolled dice, then up to `buys` bought #s (copies, created #s; each
    optional). None when the beam finds no win."""
    game = setup.game(tuple(tuple(r) for r in rolls))  # type: ignore[misc]
    score = Scores(game, setup, order)
    stop = min(game.turns, setup.target_turns[-1], last_turn if last_turn is not None else game.turns)
    if stop < setup.target_turns[0]:
        return None  # no target turn to win in
    r0 = start(game)
    beam: list[tuple[Ch3State, tuple[TurnPlay, ...], tuple[Activation, ...]]] = [
        (Ch3State(r0, realm_stars(game, r0), Resources(), 0), (), ())]
    for t in range(stop):
        for phase in ("die", "die") + ("buy",) * buys:
            nxt: dict[tuple, tuple[Ch3State, tuple[TurnPlay, ...], tuple[Activation, ...]]] = {}
            for st, played, acts in beam:
                if phase == "buy":  # buying is optional: the state goes on as it is too
                    nxt.setdefault(_key(st), (st, played, acts))
                for act in legal_actions(game, st.round, dice_only=phase == "die"):
                    if not isinstance(act, Activation) or (phase == "buy" and act.source.kind == "die"):
                        continue
                    try:
                        after, outcome = _step(game, setup, st, act, t)
                    except IllegalAction:
                        continue
                    if outcome == "won":
                        return Line(played + (TurnPlay(game.rolls[t], acts + (act,), ()),))
                    if outcome == "lost":
                        continue
                    nxt.setdefault(_key(after), (after, played, acts + (act,)))
            beam = sorted(nxt.values(), key=lambda x: score(x[0], t), reverse=True)[:width]
            if not beam:
                return None
        beam = end_turns(game, beam, t, _key, lambda st: score(st, t + 1), width)
        if not beam:
            return None
    return None
