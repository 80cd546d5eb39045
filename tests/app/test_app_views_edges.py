"""Trust at the edges, round 3 (issue 31, items 16–17) on the Inspect, Compare and
Corpus views (AppTest): strict URL numbers, one numbering convention, compact corpus
results."""

from __future__ import annotations

from typing import Any

import pytest

from meteor import Meteor
from pages._pair import EXAMPLES

STARRY = (EXAMPLES[0].hyp, EXAMPLES[0].ref)


def _clean(at: Any) -> None:
    assert not at.exception, [e.value for e in at.exception]


# -- URL numbers that only Python's float() would read ------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [("beta", "1_0"), ("delta", "\uff10.5"), ("alpha", " 0.5"), ("beam", "\u0661\u0662")],
)
def test_a_url_number_float_alone_would_accept_is_refused_with_a_notice(
    app_test: Any, name: str, value: str
) -> None:
    """``float("1_0") == 10`` and ``float("０.5") == 0.5``: the link's value used to be
    taken silently; it is now refused like any other bad value, with the URL notice."""
    at = app_test(**{name: value})
    at.run()
    _clean(at)
    notices = " ".join(w.value for w in at.warning)
    assert name in notices and value.strip() in notices.replace("\\", "")
    assert name not in at.query_params
    assert at.code[0].value == Meteor("meteor-1.5").score(*STARRY).signature
