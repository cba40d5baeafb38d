"""Error types: bad input (exit 2) versus an illegal move found while replaying a line (exit 1)."""
from __future__ import annotations


class PentaquestInputError(ValueError):
    """Malformed input data (deck, stream, line or option). One line, names file and line."""

    def __init__(self, message: str, source: str | None = None, lineno: int | None = None) -> None:
        self.message = message
        self.source = source
        self.lineno = lineno
        where = ""
        if source is not None:
            where = source + (f" line {lineno}" if lineno is not None else "") + ": "
        elif lineno is not None:
            where = f"line {lineno}: "
        super().__init__(where + message)


class IllegalMove(ValueError):
    """A step that the rules forbid; carries the turn number and the rule broken."""

    def __init__(self, turn: int, reason: str) -> None:
        self.turn = turn
        self.reason = reason
        super().__init__(f"turn {turn}: {reason}")
