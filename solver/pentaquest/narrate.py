"""Turn-by-turn narration of a line, replayed through the engine (for printing)."""
from __future__ import annotations

from dataclasses import dataclass

from .engine import Action, Defeat, Game, Pass, Reroll, Use, apply, initial_state
from .line import Line, format_action


@dataclass(frozen=True)
class TurnReport:
    turn: int
    quest: tuple[str, ...]
    roll: tuple[int, ...]
    steps: tuple[str, ...]
    outcome: str


def _card(game: Game, c: int) -> str:
    card = game.deck.cards[c]
    return f"{card.name} [{card.requirement_text()}]"


def narrate(game: Game, line: Line) -> list[TurnReport]:
    """Replay `line` (assumed legal) and describe each turn."""
    state = initial_state(game)
    out: list[TurnReport] = []
    for actions in line:
        if state.status != "playing":
            break
        turn, quest, roll = state.turn, tuple(_card(game, c) for c in state.quest), state.dice
        steps: list[str] = []
        outcome = "no monster defeated: game lost"
        for a in actions:
            before = state
            state = apply(game, state, a)
            if isinstance(a, (Reroll, Use)):
                steps.append(f"{format_action(game.deck, a)} -> {' '.join(map(str, state.dice))}")
            elif isinstance(a, Defeat):
                outcome = f"defeat {game.deck.cards[a.card].name} with {' '.join(map(str, before.dice))}"
            elif isinstance(a, Pass):
                pass
        if actions and not isinstance(actions[-1], (Defeat, Pass)) and state.status == "playing":
            state = apply(game, state, Pass())
        out.append(TurnReport(turn, quest, roll, tuple(steps), outcome))
    return out


def describe(a: Action) -> str:
    return type(a).__name__.lower()
