"""Where a corpus is scored beyond one loop: worker processes (:mod:`.parallel`, with
:mod:`.transport` for records across processes) and a Dask cluster (:mod:`.cluster`).
Each drives the one batch core, :mod:`meteor.batch`."""
