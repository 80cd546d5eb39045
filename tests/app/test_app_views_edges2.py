"""Trust at the edges, round 3 (issue 31, item 17) on the Inspect and Corpus views
(AppTest): the library's notices are shown (token notices on Inspect, the readers'
InputWarnings on a corpus upload), and one 1-based numbering for people."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meteor import Meteor
from meteor.text.notices import token_notices


def _clean(at: Any) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _unescape(text: str) -> str:
    return text.replace("\\", "")


# -- item 6a: token notices on Inspect ------------------------------------------------


@pytest.mark.parametrize(
    ("hyp", "what"),
    [
        ("the cat \u200d sat", "U+200D ZERO WIDTH JOINER"),
        ("the cat καλη sat", "Greek letters are one token each"),
        ("the cat שלום sat", "Hebrew letters are one token each"),
    ],
)
@pytest.mark.parametrize("ui", ["EN", "RU"])
def test_inspect_says_why_a_sentence_has_blank_or_split_tokens(
    app_test: Any, hyp: str, what: str, ui: str
) -> None:
    ref = "the cat sat"
    at = app_test(hyp=hyp, ref=ref, ui=ui)
    at.run()
    _clean(at)
    want = token_notices(
        [t.text for t in Meteor("meteor-1.5").score(hyp, ref).alignment.hyp], meteor_norm=True
    )
    assert any(what in w for w in want)
    infos = [_unescape(i.value) for i in at.info]
    side = "Гипотеза" if ui == "RU" else "Hypothesis"
    for message in want:
        assert f"{side}: {message}" in infos, infos
    # text, not HTML: the notice is an info box's Markdown with every special character escaped
    assert not at.get("html")


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
