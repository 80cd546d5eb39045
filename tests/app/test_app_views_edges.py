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


# -- what a scored corpus keeps in the server ---------------------------------------


def _scored(n: int, workers: int = 1) -> tuple[Any, list[str], list[tuple[str, ...]]]:
    from meteor.runners.parallel import score_corpus

    hyps = [f"the cat sat on the mat number {k}" for k in range(n)]
    refs = [(f"a cat was sitting on the mat number {k}",) for k in range(n)]
    # the records as they come back from worker processes: decoded, each with its own strings
    res = score_corpus(Meteor("meteor-1.5"), hyps, refs, workers=workers)
    return res, hyps, refs


def test_a_scored_corpus_keeps_one_string_per_distinct_word_text_and_signature() -> None:
    """Issue 31: 100,000 segments took the server from 527 MB to 1.04 GB; the token
    texts, hypotheses, references and signatures came back as copies per segment."""
    import copy

    from pages._corpus_common import compact_segments

    res, hyps, refs = _scored(40)
    res = copy.deepcopy(res)  # every string its own object, as after the worker transport
    before = [s.to_dict() for s in res.segments]
    texts: dict[str, str] = {}
    compact_segments(res, hyps, refs, texts)
    toks = [t for s in res.segments for t in (*s.alignment.hyp, *s.alignment.ref)]
    assert len({id(t.text) for t in toks}) == len({t.text for t in toks}) == len(texts)
    assert all(s.hyp is hyps[k] and s.refs is refs[k] for k, s in enumerate(res.segments))
    assert len({id(s.signature) for s in res.segments}) == 1
    assert [s.to_dict() for s in res.segments] == before  # nothing changed but sharing


def test_the_corpus_results_a_session_keeps_are_capped_in_segments() -> None:
    """Scoring a large upload under a second setting drops the first result instead of
    keeping both (each 100,000-segment result is about 0.6 GB of records)."""
    from pages._corpus_common import keep_results

    res, _, _ = _scored(30)
    store: dict[Any, Any] = {}
    keep_results(store, "a", {"sys": res}, limit=50)
    keep_results(store, "b", {"sys": res}, limit=50)
    assert list(store) == ["b"]
    keep_results(store, "c", {"sys": res, "sys2": res}, limit=50)
    assert list(store) == ["c"]  # the newest is kept even above the limit
    small: dict[Any, Any] = {}
    keep_results(small, "a", [1] * 20, len, limit=50)
    keep_results(small, "b", [1] * 20, len, limit=50)
    assert list(small) == ["a", "b"]


# -- the Russian corpus page: decimal commas in every chart --------------------------


def test_every_chart_of_the_russian_corpus_page_uses_a_decimal_comma(app_test: Any) -> None:
    """The selectable charts (score vs length, the A/B scatter) were shown with
    ``st.plotly_chart`` directly and kept plotly's "0.2" ticks in the Russian UI."""
    import json

    at = app_test(ui="RU")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.radio(key="corpus_source").set_value("demo").run()
    _clean(at)
    charts = at.get("plotly_chart")
    specs = [json.loads(c.proto.spec) for c in charts]
    assert len(specs) >= 4  # bars, distributions, score vs length, A/B scatter
    assert [s["layout"].get("separators") for s in specs] == [", "] * len(specs)


# -- the link view's caption follows the figure's layout ------------------------------


@pytest.mark.parametrize(("ui", "rows", "columns"), [("EN", "Top row", "Left column"),
                                                      ("RU", "Верхний ряд", "Левый столбец")])  # fmt: skip
def test_the_link_view_caption_names_the_layout_drawn(
    app_test: Any, ui: str, rows: str, columns: str
) -> None:
    """From about 9 tokens the link view is drawn in two columns; its caption still said
    "Top row: hypothesis; bottom row: reference"."""
    from meteor.viz.links import link_view_layout

    long_hyp = "the quick brown fox jumps over the lazy dog near the old river bank today"
    long_ref = "a quick brown fox jumped over a lazy dog by the old river bank this morning"
    assert link_view_layout(Meteor("meteor-1.5").score(long_hyp, long_ref).alignment) == "columns"
    for (hyp, ref), want, other in (((long_hyp, long_ref), columns, rows), (("a cat", "a cat"), rows, columns)):  # fmt: skip
        at = app_test(ui=ui, hyp=hyp, ref=ref)
        at.run()
        _clean(at)
        captions = " ".join(c.value for c in at.caption)
        assert want in captions and other not in captions
