"""Where a corpus is scored beyond one loop: worker processes (:mod:`.parallel`, with
:mod:`.transport`) and a Dask cluster (:mod:`.cluster`), each driving :mod:`meteor.batch`.

This module imports nothing, so that ``meteor score`` reads :data:`DASK_TIMEOUT` without
importing Dask."""

__all__ = ["DASK_TIMEOUT"]

#: Seconds to wait for the Dask scheduler, for the first worker, for a worker to load the
#: resources, and for any worker to come back when all have gone during a run: the
#: default of ``--dask-timeout`` and of :mod:`.cluster`'s ``timeout`` arguments.
DASK_TIMEOUT = 60.0
