"""Why a score is what it is: the record (:mod:`.record`: :class:`Explanation`,
:func:`explain`), its pieces (:mod:`.parts`: waterfall, word costs, chunk breaks,
near misses; :mod:`.why_unmatched`) and the stage-by-stage walkthrough of the Learn
page (:mod:`.walkthrough`)."""
