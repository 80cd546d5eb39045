"""The ``meteor`` console script (``pip install .``): ``python -m meteor`` as a command."""

from __future__ import annotations

import gc

from meteor.cli.commands import main as _main


def main() -> int:
    """Run :func:`meteor.cli.commands.main` with cyclic GC off, as ``python -m meteor`` does."""
    gc.disable()  # a run scores and exits; see meteor/__main__.py
    return _main()
