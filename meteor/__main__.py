"""``python -m meteor``: see :mod:`meteor.cli.commands`."""

import atexit
import gc
import os
import sys

from meteor.cli.commands import main

# A command-line run scores and exits: cyclic garbage collection would only walk the
# records it keeps (scoring makes no reference cycles; see meteor.analysis.corpus._gc_paused),
# and re-enabling it at the end of a run costs a full walk of them.
gc.disable()
code = main()
if code in (130, 143):
    # Interrupted (Ctrl-C, SIGTERM): the workers are stopped and no output is half
    # written; exit now rather than spend seconds freeing every loaded object.
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
raise SystemExit(code)
