"""``python -m meteor``: see :mod:`meteor.cli.command_line`."""

import atexit
import gc
import os
import sys

from meteor.cli.command_line import main
from meteor.runtime import gc_paused

# A command-line run loads resources, scores and exits: cyclic garbage collection
# would only walk what it loaded and the records it keeps (scoring makes no reference
# cycles), so it is paused for the run (meteor.runtime.gc_paused).  What the run made
# lives until exit: frozen, it is not walked by the collection that re-enabling starts
# (that walk cost 0.4 s of a 4 s run on 3,000 segments).
with gc_paused():
    code = main()
    gc.freeze()
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
