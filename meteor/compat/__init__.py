"""Drop-in replacements for the METEOR entry points people already call.

* :mod:`meteor.compat.evaluate` -- HF ``evaluate.load("meteor").compute(...)``
  (``compute`` and a local evaluate module folder, :data:`~meteor.compat.evaluate.MODULE_PATH`).
* :mod:`meteor.compat.pycocoevalcap` -- pycocoevalcap 1.2's ``Meteor`` class
  (``compute_score(gts, res)``) without Java.
"""
