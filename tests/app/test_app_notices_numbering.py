"""Trust at the edges, round 3 (issue 31, item 17) on the Inspect and Corpus views
(AppTest): the library's notices are shown (token notices on Inspect, the readers'
InputWarnings on a corpus upload), and one 1-based numbering for people."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from _latin import latin_words_in

from meteor import Meteor
from meteor.text.notices import token_notices

_CODE = re.compile(r"`[^`]*`")


def _clean(at: Any) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _unescape(text: str) -> str:
    return text.replace("\\", "")


# -- item 6a: token notices on Inspect ------------------------------------------------


@pytest.mark.parametrize(
    ("hyp", "what", "ru"),
    [
        ("the cat \u200d sat", "U+200D ZERO WIDTH JOINER", "слов из невидимых символов (они "
         "показаны пустыми): 1 — `U+200D ZERO WIDTH JOINER`; они считаются словами: "
         "нормализатор, как и в Meteor 1.5, делает каждый такой символ отдельным словом"),
        ("the cat καλη sat", "Greek letters are one token each", "буквы (греческое письмо) — "
         "каждая отдельным словом (таких слов: 4): нормализатор, как и в Meteor 1.5, считает "
         "буквами только латиницу и кириллицу и отделяет любой другой символ"),
        ("the cat שלום sat", "Hebrew letters are one token each", "буквы (еврейское письмо) — "
         "каждая отдельным словом (таких слов: 4)"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("ui", ["EN", "RU"])
def test_inspect_says_why_a_sentence_has_blank_or_split_tokens(
    app_test: Any, hyp: str, what: str, ru: str, ui: str
) -> None:
    ref = "the cat sat"
    at = app_test(hyp=hyp, ref=ref, ui=ui)
    at.run()
    _clean(at)
    want = token_notices(
        [t.text for t in Meteor("meteor-1.5").score(hyp, ref).alignment.hyp], meteor_norm=True
    )
    assert len(want) == 1 and what in str(want[0])
    infos = [
        _unescape(i.value) for i in at.info if i.value.startswith(("Hyp", "Гип", "Ref", "Эта"))
    ]
    if ui == "EN":  # the library's line, as the command line would word it
        assert infos == [f"Hypothesis: {want[0]}"], infos
    else:  # the same fields in Russian, the Unicode names as code; no English sentence
        assert len(infos) == 1 and infos[0].startswith(f"Гипотеза: {ru}"), infos
        found = latin_words_in([_CODE.sub(" ", infos[0])], data=set())
        assert not found, found
    # text, not HTML: the notice is an info box's Markdown with every special character
    # escaped; the only HTML on the page is the drop zones' fixed <style> blocks, which
    # carry none of the user's text
    for block in at.get("html"):
        body = block.proto.body
        assert body.startswith("<style>") and body.endswith("</style>"), body
        assert all(word not in body for word in hyp.split()), body


def test_russian_names_an_unknown_script_by_its_unicode_word(monkeypatch: Any) -> None:
    """A script with no Russian name (Cherokee) is named by its Unicode word, as code."""
    import pages._i18n
    from pages import _token_notices

    monkeypatch.setattr(pages._i18n, "ui", lambda: "ru")
    monkeypatch.setattr(_token_notices, "ui", lambda: "ru")
    (notice,) = token_notices(list("ᏣᎳᎩ") + ["αβ", "γ"], meteor_norm=True)
    text = _unescape(_token_notices.notice_markdown(notice))
    assert text.startswith("буквы (`Cherokee`, греческое письмо) — каждая отдельным словом"), text
    assert "(таких слов: 4)" in text


def test_inspect_shows_no_token_notice_for_a_plain_pair(app_test: Any) -> None:
    at = app_test(hyp="the cat sat", ref="the cat sat on the mat")
    at.run()
    _clean(at)
    assert not any("token" in i.value for i in at.info)


# -- item 6b: the readers' InputWarnings on a corpus upload --------------------------


def _upload(at: Any, files: list[tuple[str, bytes, str]]) -> None:
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(files).run()


def test_a_corpus_upload_shows_the_readers_input_warnings(app_test: Any) -> None:
    """A Meteor 1.5 harness file's final ``{"type": "corpus"}`` line is skipped with an
    InputWarning; the page used to drop the warning (the CLI prints it)."""
    rows = [{"hyp": f"the cat sat {k}", "ref": f"a cat sat {k}"} for k in range(3)]
    data = "\n".join(json.dumps(r) for r in [*rows, {"type": "corpus", "score": 0.5}]) + "\n"
    at = app_test()
    at.run()
    _upload(at, [("run.jsonl", data.encode(), "application/json")])
    _clean(at)
    warnings = [_unescape(w.value) for w in at.warning]
    assert any("run.jsonl: skipped line 4" in w and '"type": "corpus"' in w for w in warnings), (
        warnings
    )
    assert not at.error
    # shown again on a rerun, when the corpus comes from the cache
    at.run()
    _clean(at)
    assert any("run.jsonl: skipped line 4" in _unescape(w.value) for w in at.warning)


def test_a_tsv_quoting_fallback_is_shown(app_test: Any) -> None:
    """A field in csv quotes in a TSV that does not read as quoted: read unquoted, said so."""
    data = b'hyp\tref\n"a ""b"" c"\tx\n"Hi," he said\ty\n'
    at = app_test()
    at.run()
    _upload(at, [("q.tsv", data, "text/tab-separated-values")])
    _clean(at)
    warnings = [_unescape(w.value) for w in at.warning]
    assert any(w.startswith("q.tsv: line 2 has a field in csv quotes") for w in warnings), warnings


# -- item 5: one 1-based numbering for people ----------------------------------------


def test_inspect_tables_number_tokens_from_1(app_test: Any) -> None:
    """The Tokens view's "#" and the unmatched words' "position" started at 0, while
    chunks (and the corpus table's rows) start at 1."""
    at = app_test(view="tokens", hyp="the cat sat on a mat today", ref="the cat sat on the mat")
    at.run()
    _clean(at)
    frames = {tuple(d.value.columns)[:2]: d.value for d in at.dataframe}
    tokens = frames[("side", "#")]
    for side in tokens["side"].unique():
        numbers = list(tokens[tokens["side"] == side]["#"])
        assert numbers == list(range(1, len(numbers) + 1)), (side, numbers)
    costs = frames[("side", "position")]
    r = Meteor("meteor-1.5").score("the cat sat on a mat today", "the cat sat on the mat")
    words = dict(zip(costs["word"], costs["position"], strict=True))
    assert words["today"] == 7 and r.alignment.hyp[6].text == "today"


def test_the_open_segment_number_starts_at_1_like_the_table(app_test: Any) -> None:
    at = app_test()
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.radio(key="corpus_source").set_value("demo").run()
    _clean(at)
    box = at.number_input(key="corpus_goto")
    assert box.value is None and box.min == 1  # empty (none open); 0 is no segment number
    assert not any("segment 1 (id" in m.value for m in at.markdown)
    box.set_value(1).run()
    _clean(at)
    assert any("segment 1 (id" in m.value for m in at.markdown)


# -- item 2: Compare's sensitivity curves share one x-range per panel ---------------------


@pytest.mark.parametrize(("ui", "title"), [("EN", "METEOR score"), ("RU", "оценка METEOR")])
def test_compare_sensitivity_curves_cover_one_x_range_per_panel(
    app_test: Any, ui: str, title: str
) -> None:
    """β's curve runs up to max(3, 2β): meteor-1.5 (β = 0.2) stopped at 3 while nltk
    (β = 3) ran to 6 in the same panel; the y-axis had no title."""
    at = app_test(ui=ui)
    at.run()
    at.switch_page("pages/compare.py").run()
    _clean(at)
    (chart,) = [c for c in at.get("plotly_chart") if "cmp_sens" in (c.proto.id or "")]
    spec = json.loads(chart.proto.spec)
    curves = [tr for tr in spec["data"] if (tr.get("meta") or {}).get("role") == "curve"]
    settings = {tr["meta"]["setting"] for tr in curves}
    assert len(settings) >= 2
    for param in ("alpha", "beta", "gamma", "delta"):
        xs = {tuple(tr["x"]) for tr in curves if tr["meta"]["param"] == param}
        assert len(xs) == 1, (param, [max(x) for x in xs])
    beta_x = next(tr["x"] for tr in curves if tr["meta"]["param"] == "beta")
    assert max(beta_x) == 6.0  # nltk's β = 3: up to 2β for every setting
    assert spec["layout"]["yaxis"]["title"]["text"] == title
