"""``python -m meteor``: the command line (score, explain, presets, ...)."""

from meteor.cli.commands import main

__all__ = ["main"]
