"""The `solve` command line: a thin click layer over the `solver` library."""
from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="realms-solver")
def cli() -> None:
    """Solve and check dice roll-and-write games (Rolling Realms, Pentaquest, ...)."""


def _register() -> None:
    from solver.pentaquest.cli import pentaquest_command, check_pentaquest_command  # noqa: F401

    cli.add_command(pentaquest_command, "pentaquest")


if __name__ == "__main__":
    cli()
