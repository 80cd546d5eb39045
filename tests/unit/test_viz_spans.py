"""Human error spans on the link view (meteor.viz.spans) and the spans' link form."""

from __future__ import annotations

import pytest

from meteor.analysis.spans import label_tokens
from meteor.errors import InputError
from meteor.io.spans import annotation_from_strings, span_strings
from meteor.metric import Meteor
from meteor.viz.links import link_view
from meteor.viz.spans import SEVERITY_OPACITY, add_spans, span_link_view

HYP = "the cat was sat on the mat"
REF = "the cat sat on the mat"
VALUES = ["8,11,Major,a,Fluency/Grammar", "4,7,Minor,b,Style", "-,-,Critical,a,Accuracy/Omission"]


def test_span_strings_round_trip() -> None:
    ann = annotation_from_strings(HYP, VALUES)
    assert ann.raters == ("a", "b") and len(ann.omissions) == 1
    assert sorted(span_strings(ann)) == sorted(VALUES)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1,2,Major", "is not start,end,severity,rater,category"),
        ("x,2,Major,a,c", "must be character offsets"),
        ("5,5,Major,a,c", "empty or past the end"),
        ("5,50,Major,a,c", "empty or past the end"),
        ("1,2,Awful,a,c", "unknown severity 'Awful'"),
    ],
)
def test_bad_span_strings(value: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        annotation_from_strings(HYP, [value])


@pytest.mark.parametrize("hyp", [HYP, " ".join(["word"] * 60) + " was"])
def test_marks_sit_on_the_hypothesis_tokens_in_both_layouts(hyp: str) -> None:
    r = Meteor("meteor-1.5").score(hyp, REF)
    start = hyp.index("was")
    ann = annotation_from_strings(hyp, [f"{start},{start + 3},Major,a,Grammar <i>"])
    tokens = label_tokens(r, ann)
    base = link_view(r.alignment)
    fig = add_spans(base, tokens)
    assert len(base.data) + 1 == len(fig.data)  # a copy: the input figure is unchanged
    mark = fig.data[0]
    assert mark.meta["role"] == "spans_Major" and mark.showlegend is not False
    hyp_trace = next(t for t in fig.data if t.meta and t.meta.get("role") == "tokens_hyp")
    i = next(t.index for t in tokens if t.error)
    assert (mark.x[0], mark.y[0]) == (hyp_trace.x[i], hyp_trace.y[i])
    assert str(SEVERITY_OPACITY["Major"]) in mark.marker.color
    assert "Grammar &lt;i&gt;" in mark.hovertext[0] and "<i>" not in mark.hovertext[0]
    assert fig.layout.meta["human_spans"] is True


def test_no_error_no_mark_and_russian_labels() -> None:
    r = Meteor("meteor-1.5").score(HYP, REF)
    tokens = label_tokens(r, annotation_from_strings(HYP, ["0,3,Neutral,a,x"]))
    fig = span_link_view(r.alignment, tokens, labels={"span_Major": "ошибка: серьёзная"})
    assert not any(t.meta and str(t.meta.get("role", "")).startswith("spans_") for t in fig.data)
    assert fig.layout.meta["human_spans"] is False
    tokens = label_tokens(r, annotation_from_strings(HYP, ["8,11,Major,a,x"]))
    fig = span_link_view(r.alignment, tokens, labels={"span_Major": "ошибка: серьёзная"})
    assert fig.data[0].name == "ошибка: серьёзная"
