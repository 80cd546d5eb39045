"""``python -m meteor``: the command line (score, explain, presets, ...)."""

from meteor.cli.command_line import main

__all__ = ["main"]
