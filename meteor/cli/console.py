"""The ``meteor`` console script (``pip install .``): ``python -m meteor`` as a command."""

from __future__ import annotations

import gc

from meteor.cli.command_line import main as _main
from meteor.runtime import gc_paused


def main() -> int:
    """Run :func:`meteor.cli.command_line.main` with cyclic GC paused, as ``python -m meteor`` does."""
    with gc_paused():  # a run loads, scores and exits; see meteor/__main__.py
        code = _main()
        gc.freeze()  # kept until exit: not walked when collection is on again
    return code
