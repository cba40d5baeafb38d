"""Pentaquest (monster dice solitaire, seed 002): deck data, rules engine, exact solver, checker."""
from __future__ import annotations

from .api import check, solve
from .deck import Card, Deck, load_default_deck, load_deck, parse_deck_text
from .engine import Defeat, Game, GameState, Pass, Reroll, Use, apply, initial_state, replay
from .errors import IllegalMove, PentaquestInputError
from .line import format_line, line_to_json, load_line, parse_line_text
from .matcher import Requirement, card_matches, matches
from .options import BGA, Options, parse_options
from .result import CheckResult, SolveResult
from .stream import load_stream, parse_stream_text

__all__ = [
    "BGA", "Card", "CheckResult", "Deck", "Defeat", "Game", "GameState", "IllegalMove", "Options",
    "Pass", "PentaquestInputError", "Requirement", "Reroll", "SolveResult", "Use", "apply",
    "card_matches", "check", "format_line", "initial_state", "line_to_json", "load_deck",
    "load_default_deck", "load_line", "load_stream", "matches", "parse_deck_text",
    "parse_line_text", "parse_options", "parse_stream_text", "replay", "solve",
]
