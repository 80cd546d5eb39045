"""The Corpus page with a segments table loaded and human error annotations uploaded
(AppTest), shared by the span tests of the app."""

from __future__ import annotations

import re
from typing import Any

SEGMENTS = "\n".join(
    [
        "system\tseg_id\thyp\tref",
        "A\t1\tthe cat sat on a mat today\tthe cat sat on the mat",
        "A\t2\ta dog barks at the moon loudly\tthe dog barked at the moon",
        "A\t3\tbirds fly south in winter\tbirds fly south for the winter",
    ]
).encode()


def corpus_page(app_test: Any, ui: str = "EN") -> Any:
    """The Corpus page with :data:`SEGMENTS` loaded."""
    at = app_test(ui=ui, preset="meteor-1.5", lang="en")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("segments.tsv", SEGMENTS, "text/tab-separated-values")]
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def upload_spans(at: Any, files: list[tuple[str, bytes]]) -> Any:
    """``at`` after the annotations ``(name, content)`` are uploaded under its table."""
    at.file_uploader(key="corpus_spans_files").set_value(
        [(n, b, "application/octet-stream") for n, b in files]
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def agreement_page(app_test: Any) -> Any:
    """The Agreement page (English) after a run of meteor-1.5 on :data:`SEGMENTS` with
    human scores, its annotations upload (``agr_spans``) shown below the results."""
    at = app_test(ui="EN", lang="en", preset="meteor-1.5")
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.radio(key="agr_source").set_value("upload").run()
    segs = SEGMENTS.replace(b"\tref\n", b"\tref\thuman\n")
    segs = re.sub(rb"(\n[^\n]+)", rb"\1\t0.5", segs)
    at.file_uploader(key="agr_file").set_value(
        [("segments.tsv", segs, "text/tab-separated-values")]
    ).run()
    at.multiselect(key="agr_presets_en").set_value(["meteor-1.5"])
    at.multiselect(key="agr_baselines").set_value([])
    at.select_slider(key="agr_resamples").set_value(100).run()
    at.button(key="agr_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at
