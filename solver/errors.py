"""Errors the toolkit reports to people."""


class InputError(Exception):
    """Bad input (file, option, realm name): one line naming the file, line and problem."""


class IllegalAction(Exception):
    """A step of a line breaks a rule; the message names the rule."""
