"""``python -m meteor``: see :mod:`meteor.cli`."""

import gc

from meteor.cli import main

# A command-line run scores and exits: cyclic garbage collection would only walk the
# records it keeps (scoring makes no reference cycles; see meteor.corpus._gc_paused),
# and re-enabling it at the end of a run costs a full walk of them.
gc.disable()
raise SystemExit(main())
