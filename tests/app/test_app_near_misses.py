"""Inspect's near misses: six columns (the stage's detail and the presets listed under the
table, whole), and when every word is matched the page says so instead of "No near
misses: no other stage would match the unmatched words"."""

from __future__ import annotations

from typing import Any

from meteor import Meteor
from meteor.analysis.explain.record import explain
from pages._near_misses import NEAR_WIDTHS, cell_lines, near_row_height

FOX = (
    "The fast brown fox leaps over the lazy dogs",
    "The quick brown fox jumped over the lazy dog",
)
CATS = ("the cats are sleeping", "the cat sleeps")
COLUMNS = ["stage", "hypothesis", "reference", "why not matched", "score if matched", "gain"]


def _inspect(app_test: Any, pair: tuple[str, str], **query: str) -> Any:
    at = app_test(hyp=pair[0], ref=pair[1], **query)
    at.run()
    assert not at.exception
    return at


def _captions(at: Any) -> str:
    return "\n".join(c.value for c in at.caption)


def test_every_word_matched_says_so(app_test: Any) -> None:
    at = _inspect(app_test, FOX, preset="meteor-1.5")
    assert "Every word is matched: there is no unmatched word" in _captions(at)
    assert "No near misses" not in _captions(at)
    ru = _inspect(app_test, FOX, preset="meteor-1.5", ui="RU")
    assert "Все слова сопоставлены: другому этапу нечего сопоставлять" in _captions(ru)


def test_unmatched_words_without_near_misses_keep_the_old_line(app_test: Any) -> None:
    pair = ("the cat sat", "the dog sat")
    m = Meteor("meteor-1.5")
    why = explain(m.score(*pair), m)
    assert why.word_costs and not why.near_misses
    at = _inspect(app_test, pair, preset="meteor-1.5")
    assert "No near misses: no other stage would match" in _captions(at)


def test_near_miss_table_has_six_columns_and_details_below(app_test: Any) -> None:
    m = Meteor("meteor-1.5")
    near = explain(m.score(*CATS), m).near_misses
    at = _inspect(app_test, CATS, preset="meteor-1.5")
    (table,) = [df.value for df in at.dataframe if "why not matched" in df.value.columns]
    assert list(table.columns) == COLUMNS
    assert list(table["score if matched"]) == [f"{n.score_if_added:.4f}" for n in near]
    assert list(table["why not matched"])[0].startswith("Meteor 1.5's beam counts a lone")
    details = "\n".join(e.value for e in at.markdown if "presets with this stage" in e.value)
    for n in near:
        assert n.match.detail.replace("“", "").split()[0] in details
        assert all(p.replace("-", "\\-").replace(".", "\\.") in details for p in n.presets)


def test_widths_fit_the_page_and_rows_grow_for_wrapped_reasons() -> None:
    assert sum(NEAR_WIDTHS.values()) <= 904  # the page's width at 1,366 px, sidebar open
    assert cell_lines("stage not enabled", NEAR_WIDTHS["why"]) == 1
    long = "Meteor 1.5's beam counts a lone one-word stem/synonym match as covering nothing"
    assert cell_lines(long, NEAR_WIDTHS["why"]) == 2
    assert near_row_height([{"why": "stage not enabled"}], NEAR_WIDTHS) is None
    assert near_row_height([{"why": long}], NEAR_WIDTHS) == 70  # wraps above 64 px


def test_russian_near_miss_details_are_russian(app_test: Any) -> None:
    """Under ui=RU the stage's detail under the table is Russian, as on the Learn page."""
    at = _inspect(app_test, CATS, preset="meteor-1.5", ui="RU")
    details = "\n".join(e.value for e in at.markdown if "пресеты с этим этапом" in e.value)
    assert "общая основа «sleep»" in details and "синсет" in details, details
    assert "same stem" not in details and "synset 0" not in details
    at = _inspect(app_test, ("he runs fast", "he ran quickly"), preset="nltk", ui="RU")
    details = "\n".join(e.value for e in at.markdown if "пресеты с этим этапом" in e.value)
    assert "таблица перефразирований" in details and "paraphrase table" not in details
