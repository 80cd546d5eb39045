"""One numbering for people: every word position the app shows (Learn's and Inspect's
tables, the link view's hovers) counts from 1, and the captions say so."""

from __future__ import annotations

from typing import Any

from meteor import Meteor
from meteor.analysis.explain.parts import span_label
from meteor.types import Span
from meteor.viz import figures

PAIR = ("the cat sat on the mat", "the cat sat on a mat")


def _page(at: Any, page: str) -> Any:
    at.run()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception
    return at


def _captions(at: Any) -> str:
    return "\n".join(c.value for c in at.caption)


def test_span_label_counts_from_one() -> None:
    assert span_label(Span(0, 1)) == "1" and span_label(Span(3, 5)) == "4–5"


def test_link_view_hover_counts_from_one() -> None:
    r = Meteor("meteor-1.5").score(*PAIR)
    fig = figures.link_view(r.alignment)
    hovers = [h for tr in fig.data if tr.hovertext for h in tr.hovertext if "hypothesis " in str(h)]
    first = next(h for h in hovers if "<b>" in h and "the → the" in h)
    assert "hypothesis 1 / reference 1" in first, first
    assert not any("hypothesis 0" in h or "reference 0" in h for h in hovers)


def test_learn_numbers_words_from_one(app_test: Any) -> None:
    at = _page(app_test(hyp=PAIR[0], ref=PAIR[1]), "pages/learn.py")
    (tokens,) = [df.value for df in at.dataframe]
    assert list(tokens["#"])[:6] == [1, 2, 3, 4, 5, 6]
    assert "numbered from 1" in _captions(at)
    at.select_slider(key="learn_step").set_value("stage:exact").run()
    spans = [str(x) for df in at.dataframe for x in df.value.iloc[:, 2]]
    assert spans[0] == "1 → 1", spans
    assert "numbered from 1" in _captions(at)


def test_inspect_numbers_tokens_and_characters_from_one(app_test: Any) -> None:
    at = app_test(hyp=PAIR[0], ref=PAIR[1], view="tokens")
    at.run()
    assert not at.exception
    frames = [df.value for df in at.dataframe if "characters" in df.value.columns]
    (tokens,) = frames
    assert list(tokens["#"])[:2] == [1, 2]
    assert list(tokens["characters"])[:2] == ["1–3", "5–7"]  # "the", "cat"
    assert "numbered from 1" in _captions(at)


def test_russian_captions_say_numbered_from_one(app_test: Any) -> None:
    at = _page(app_test(ui="RU", hyp=PAIR[0], ref=PAIR[1]), "pages/learn.py")
    (tokens,) = [df.value for df in at.dataframe]
    assert list(tokens["№"])[0] == 1 and "нумеруются с 1" in _captions(at)
