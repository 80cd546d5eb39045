"""Issue #16: the Russian interface is Russian on every page (AppTest).

Every page is rendered with the Russian interface (Inspect, Compare, Learn at every
step, Corpus with the demo corpus and its two-system comparison); the visible text
must have no Latin-script word outside ``tests/_latin.py``'s allow-list.
"""

from __future__ import annotations

import json
from typing import Any

from _latin import latin_words

from meteor.io.read import demo_corpus
from meteor.presets import PRESETS

PAIR_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)


def assert_clean(at: Any, what: object) -> None:
    assert not at.exception, (what, [e.value for e in at.exception])


def test_every_page_in_russian_has_no_english_words(app_test: Any) -> None:
    demo = demo_corpus()
    systems = {name for name, _ in demo.systems}
    at = app_test(ui="RU", lang="ru", preset="ru", hyp=PAIR_RU[0], ref=PAIR_RU[1])
    at.run()
    assert_clean(at, "inspect")
    found = {f"inspect: {w}": x for w, x in latin_words(at).items()}
    for view in ("matrix", "tokens"):  # one view shown at a time: read each
        at.button_group(key="inspect_view").set_value(view).run()
        assert_clean(at, view)
        found |= {f"inspect {view}: {w}": x for w, x in latin_words(at).items()}
    at.switch_page("pages/compare.py").run()
    at.multiselect(key="vs").set_value(["meteor-1.5-ru", "seed-ru", "seed-ru-emb"]).run()
    assert_clean(at, "compare")
    found |= {f"compare: {w}": x for w, x in latin_words(at).items()}
    at.switch_page("pages/learn.py").run()
    steps = [f"stage:{m.value}" for m in PRESETS["ru"].params.modules]
    for step in ["tokens", *steps, "align", "chunks", "formula"]:
        at.select_slider(key="learn_step").set_value(step).run()
        assert_clean(at, step)
        found |= {f"learn {step}: {w}": x for w, x in latin_words(at).items()}
    at.switch_page("pages/corpus.py").run()
    assert_clean(at, "corpus")
    found |= {f"corpus: {w}": x for w, x in latin_words(at).items()}
    at.radio(key="corpus_source").set_value("demo").run()
    assert_clean(at, "corpus demo")
    found |= {f"corpus demo: {w}": x for w, x in latin_words(at, data=systems).items()}
    assert not found, "\n".join(f"{k!r} in {v!r}" for k, v in sorted(found.items()))


def test_english_interface_is_the_control(app_test: Any) -> None:
    """The check finds English where there is English (it can fail)."""
    at = app_test(ui="EN", lang="ru", preset="ru", hyp=PAIR_RU[0], ref=PAIR_RU[1])
    at.run()
    found = latin_words(at)
    assert {"Hypothesis", "Preset", "Stages"} <= set(found), sorted(found)


def test_corpus_figures_take_the_pages_labels() -> None:
    """meteor.viz.corpus_charts draws every string from its label keys (no Streamlit)."""
    from meteor.analysis.significance import bootstrap
    from meteor.metric import Meteor
    from meteor.viz import corpus_charts as corpus_figures

    demo = demo_corpus()
    m = Meteor("meteor-1.5")
    results = {
        name: m.corpus_score(list(hyps), [list(r) for r in demo.refs])
        for name, hyps in demo.systems
    }
    ru = {k: f"метка{i}" for i, k in enumerate(corpus_figures.LABELS_EN)}
    ru |= {"better": "лучше {name}", "tie": "поровну"}
    (na, ra), (nb, rb) = list(results.items())[:2]
    figs = [
        corpus_figures.distributions(results, labels=ru),
        corpus_figures.score_vs_length(results, labels=ru),
        corpus_figures.ab_scatter(ra, rb, names=(na, nb), labels=ru),
        corpus_figures.interval_bars(
            {n: bootstrap(r, m.params, n_samples=50) for n, r in results.items()}, labels=ru
        ),
    ]
    english = [
        v.replace("{name} ", "").replace(" {name}", "") for v in corpus_figures.LABELS_EN.values()
    ]
    for fig in figs:
        spec = fig.to_plotly_json()
        spec["layout"].pop("template", None)
        texts = json.dumps(spec["data"], ensure_ascii=False, default=str)
        texts += json.dumps(spec["layout"], ensure_ascii=False, default=str)
        for en in english:
            assert f'"{en}' not in texts and f" {en}" not in texts, en
    assert [tr.name for tr in figs[2].data][1:] == [f"лучше {nb}", f"лучше {na}", "поровну"]


def test_corpus_uploader_takes_any_file_and_says_why_one_is_refused(app_test: Any) -> None:
    """Issue #16: a binary file got only Streamlit's red icon (refused by extension in
    the browser) while the page asked for a file.  Any file is taken; one that is not
    text is refused by the reader with its name and the reason, under the uploader."""
    at = app_test(ui="RU")
    at.run()
    at.switch_page("pages/corpus.py").run()
    up = at.file_uploader(key="corpus_hyp_files")
    assert list(up.proto.type) == []  # no extension filter in the browser
    assert "МБ" in up.proto.help
    up.set_value([("scan.pdf", bytes(range(256)) * 8, "application/pdf")])
    at.file_uploader(key="corpus_ref_files").set_value([("r.txt", b"x\n", "text/plain")])
    at.run()
    assert_clean(at, "binary upload")
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "scan.pdf" in errors and "двоичный файл" in errors, errors  # in Russian
    assert "binary" not in errors.lower(), errors
