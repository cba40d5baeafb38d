"""Reading an input file as text, with one-line errors naming the file (exit 2 upstream)."""
from __future__ import annotations

from .errors import InputError


def read_text(path: str) -> str:
    """The file's text (UTF-8); a missing, unreadable or binary file is an InputError."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None
