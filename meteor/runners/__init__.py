"""Where a corpus is scored beyond one loop: worker processes (:mod:`.parallel`, with
:mod:`.transport` for records across processes) and a Dask cluster (:mod:`.cluster`).
Each drives the one batch core, :mod:`meteor.batch`.

This module imports nothing: it holds what the command line needs before it knows whether
a run goes to a cluster (:data:`DASK_TIMEOUT`), so that ``meteor score`` starts without
importing Dask (importing :mod:`.cluster` imports it)."""

__all__ = ["DASK_TIMEOUT"]

#: Seconds to wait for the Dask scheduler, for the first worker, for a worker to load the
#: resources, and for any worker to come back when all have gone during a run: the
#: default of ``--dask-timeout`` and of :mod:`.cluster`'s ``timeout`` arguments.
DASK_TIMEOUT = 60.0
