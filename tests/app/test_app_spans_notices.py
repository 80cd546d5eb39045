"""The span reader's skipped rows on the Corpus and Agreement pages (AppTest): each reason
is worded in the interface language (Russian under ``?ui=RU``, the library's English text
otherwise), with the file names and the user's text shown as they are, escaped."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from _latin import latin_words, latin_words_in, visible_strings
from _spans_app import SEGMENTS, agreement_page, corpus_page, upload_spans

from meteor.io.read import load_corpus
from meteor.io.spans import SKIP_TEXT, read_spans
from pages._widgets import md_escape

HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"


def mqm_row(target: str, seg: str = "1") -> str:
    return f"A\td\t1\t{seg}\tr1\tsrc\t{target}\tFluency/Grammar\tMinor"


# one good row, then a row per reason of an MQM file, then 20 more that are not the
# hypothesis (25 skipped: 20 listed, "5 more")
MQM_NAME = "bad_[rows].tsv"
MQM = "\n".join(
    [
        HEAD,
        mqm_row("the cat sat on <v>a</v> mat today"),
        mqm_row("the cat <v>sat <v>on</v></v> a mat today"),  # nested
        mqm_row("the cat </v>sat on a mat today"),  # closes nothing
        mqm_row("the cat <v>sat on a mat today"),  # never closed
        mqm_row("the cat <v></v>sat on a mat today"),  # empty
        mqm_row("the cat sat on <v>the</v> mat today"),  # not the hypothesis
        *[mqm_row(f"a dog <v>barked</v> {k}", "2") for k in range(20)],
    ]
).encode()
# QE: the .mt's second line is not the second hypothesis
QE = [
    ("run.tags", b"OK OK OK OK OK OK BAD\nOK OK OK OK OK OK OK\nOK OK OK OK OK\n"),
    ("run.mt", b"the cat sat on a mat today\na dog barked\nbirds fly south in winter\n"),
]
REASONS = set(SKIP_TEXT)
# what each reason's Russian warning says
RUSSIAN = {
    "mark_nested": "метка <v> открывается внутри другой",
    "mark_unopened": "метка </v> ничего не закрывает",
    "mark_unclosed": "метка <v> не закрыта (нет </v>)",
    "mark_empty": "пустая метка <v></v>",
    "not_hypothesis": "текст без меток <v> — не гипотеза системы",
    "mt_not_hypothesis": "это не гипотеза системы",
}


def _to_ui(at: Any, ui: str) -> Any:
    """The interface switched to ``ui`` last (AppTest cannot set a widget of a Russian page
    whose options are formatted, e.g. the Corpus page's sort order: the choices are made in
    English, then the sidebar's switch, as a user's click, redraws the page in Russian)."""
    if ui != "EN":
        at.button_group(key="ui").set_value(ui.lower()).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["ui"] == ui.lower()
    return at


def _corpus_with(app_test: Any, ui: str, files: list[tuple[str, bytes]]) -> Any:
    return _to_ui(upload_spans(corpus_page(app_test), files), ui)


def _read(files: list[tuple[str, bytes]]) -> Any:
    return read_spans(files, load_corpus([("segments.tsv", SEGMENTS)]))


CASES = [[(MQM_NAME, MQM)], QE]


def test_the_files_give_every_reason_and_more() -> None:
    mqm, qe = (_read(f) for f in CASES)
    assert {n.reason for n in (*mqm.notices, *qe.notices)} == REASONS
    assert (mqm.skipped, len(mqm.notices), mqm.unlisted) == (25, 20, 5)


@pytest.mark.parametrize(
    ("files", "first"),
    [
        (CASES[0], f"{MQM_NAME}: line 3: skipped: a <v> mark opens inside another; the marks "
         "must be <v>…</v> pairs"),
        (CASES[1], "run.mt: line 2: skipped: not the hypothesis of system 'A' segment '2'"),
    ],
    ids=["mqm", "qe"],
)  # fmt: skip
def test_english_interface_shows_the_librarys_notices(
    app_test: Any, files: Any, first: str
) -> None:
    at = _corpus_with(app_test, "EN", files)
    spans = _read(files)
    assert [w.value for w in at.warning] == [md_escape(x) for x in spans.notice_lines()]
    assert at.warning[0].value == md_escape(first)  # today's text


@pytest.mark.parametrize("files", CASES, ids=["mqm", "qe"])
def test_russian_interface_words_the_notices_in_russian(app_test: Any, files: Any) -> None:
    at = _corpus_with(app_test, "RU", files)
    spans = _read(files)
    warnings = [w.value for w in at.warning]
    english = {md_escape(x) for x in spans.notice_lines()}
    assert len(warnings) == len(spans.notice_lines()) and not english & set(warnings)
    for w, n in zip(warnings, spans.notices, strict=False):
        # the data as they are, escaped: the file name, the line, the segment named
        assert w.startswith(md_escape(f"{n.file}: строка {n.line} пропущена: ")), w
        if n.system:
            assert md_escape(f"«{n.system}», сегмент «{n.seg_id}»") in w, w
        if n.at:
            assert f"символа {n.at})" in w.replace("\\", ""), w
        assert md_escape(RUSSIAN[n.reason]) in w, w
        assert "<v" not in w.replace("\\<", "")  # the marks named, never HTML
    if spans.unlisted:
        assert warnings[-1] == md_escape(f"… и ещё пропущено строк: {spans.unlisted}")
    # every word a Russian user reads is Russian, except the data (file names, systems)
    data = set(re.findall(r"[A-Za-z]+", " ".join(n for n, _ in files)))
    found = latin_words(at, data=data)
    assert not found, found


def test_agreement_page_words_the_notices_in_russian(app_test: Any) -> None:
    at = agreement_page(app_test)
    at.file_uploader(key="agr_spans").set_value(
        [(MQM_NAME, MQM, "text/tab-separated-values")]
    ).run()
    _to_ui(at, "RU")
    spans = _read([(MQM_NAME, MQM)])
    warnings = [w.value for w in at.warning if "пропущен" in w.value]
    assert len(warnings) == len(spans.notice_lines())
    assert warnings[0].startswith(md_escape(f"{MQM_NAME}: строка 3 пропущена: метка "))
    # the spans section alone (the page's other parts name other metrics: COMET, HTER…)
    shown = visible_strings(at, section="Ошибки, отмеченные людьми")
    assert any("пропущен" in x for x in shown) and any("F1" in x for x in shown)
    found = latin_words_in(shown, data={"bad", "rows"})
    assert not found, found


@pytest.mark.parametrize(("ui", "side"), [("EN", "hyp"), ("RU", "гип")])
def test_inspect_spans_in_the_interface_language(app_test: Any, ui: str, side: str) -> None:
    """The cells, the marks' legend and hovers: Russian but for the data (the sentences,
    the raters' categories and names) and the tag names (BAD, a QE tag)."""
    hyp, ref = "the cat sat on a mat today", "the cat sat on the mat"
    spans = ["15,16,Minor,r1,Fluency/Grammar", "8,11,BAD,qe,BAD word", "-,-,Major,r1,Omission"]
    at = app_test(ui=ui, preset="meteor-1.5", lang="en", hyp=hyp, ref=ref, spans=spans)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    marks = [
        tr
        for c in at.get("plotly_chart")
        for tr in json.loads(c.proto.spec)["data"]
        if (tr.get("meta") or {}).get("role", "").startswith("spans_")
    ]
    assert {tr["meta"]["severity"] for tr in marks} == {"Minor", "BAD"}
    hovers = [h for tr in marks for h in tr["hovertext"]]
    assert hovers and all(h.startswith(f"{side}[") for h in hovers), hovers
    qe_word = {"EN": "BAD word", "RU": "слово с меткой BAD"}[ui]  # the QE reader's category
    assert any(f"<br>{qe_word}<br>" in h for h in hovers), hovers
    if ui == "RU":
        data = set(re.findall(r"[A-Za-z]+", f"{hyp} {ref} Fluency Grammar Omission qe r1"))
        section = visible_strings(at, section="Ошибки, отмеченные людьми")
        section += [tr["name"] for tr in marks] + hovers
        found = latin_words_in(section, data=data)
        assert not found, found
