"""``python -m meteor``: see :mod:`meteor.cli`."""

from meteor.cli import main

raise SystemExit(main())
