"""The Streamlit app under AppTest: every number shown equals the library's record.

Pages: Inspect (default), Learn, Compare (and a smoke run of Corpus when present).
The ``app_test`` fixture (conftest.py) builds an ``AppTest`` of ``app.py``.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

import meteor
from meteor import Meteor, metric
from meteor.analysis.explain import parts as explain
from meteor.analysis.explain import walkthrough as walk

ROOT = Path(__file__).resolve().parents[2]
STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")
FOX_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)
BIG = "word " * 20_000  # 100 KB
BAD_INPUTS = {"empty": "", "whitespace": "  \n\t  ", "100kb": BIG}


def fmt(x: float, digits: int = 4, ru: bool = False) -> str:
    """The app's number format (pages._i18n.num), written out independently."""
    if math.isnan(x):
        return "—"
    s = f"{x:.{digits}f}"
    return s.replace(".", ",") if ru else s


def metrics(at: Any) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def card(r: Any, ru: bool = False) -> dict[str, str]:
    labels = (
        ["METEOR", "Точность P", "Полнота R", "F-мера", "Фрагментация", "Штраф", "Фрагменты",
         "Совпадения"]
        if ru
        else ["METEOR", "Precision P", "Recall R", "Fmean", "Fragmentation", "Penalty", "Chunks",
              "Matches"]
    )  # fmt: skip
    values = [fmt(r.score, ru=ru), fmt(r.precision, ru=ru), fmt(r.recall, ru=ru),
              fmt(r.fmean, ru=ru), fmt(r.frag, ru=ru), fmt(r.penalty, ru=ru), str(r.stats.chunks),
              f"{r.stats.hyp_word_matches}/{r.stats.ref_word_matches}"]  # fmt: skip
    return dict(zip(labels, values, strict=True))


def chart(at: Any, n: int) -> dict[str, Any]:
    return json.loads(at.get("plotly_chart")[n].proto.spec)


def table(at: Any, *columns: str) -> Any:
    """The first dataframe shown with all these columns (AppTest keeps no dataframe keys)."""
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return df.value
    raise AssertionError(f"no table with columns {columns}")


def assert_clean(at: Any) -> None:
    assert not at.exception, [e.value for e in at.exception]


# -- Inspect ---------------------------------------------------------------------------------


def test_inspect_default_pair_matches_library(app_test: Any) -> None:
    at = app_test()
    at.run()
    assert_clean(at)
    r = Meteor("meteor-1.5").score(*STARRY)
    shown = metrics(at)
    for label, value in card(r).items():
        assert shown[label] == value, label
    assert at.code[0].value == r.signature
    # the link view: one legend entry per stage used, tokens at numeric positions
    spec = chart(at, 0)
    stages = {m.module.value for m in r.matches}
    legend = [t["legendgroup"] for t in spec["data"]
              if t.get("showlegend", True) and t.get("legendgroup") in stages]  # fmt: skip
    assert sorted(legend) == sorted(stages)
    hyp = next(t for t in spec["data"] if t.get("meta", {}).get("role") == "tokens_hyp")
    assert hyp["text"] == list(r.alignment.hyp_words)


def test_inspect_why_this_score_tables_match_library(app_test: Any) -> None:
    """Issue #14: "why this score" is the library's Explanation record, shown as is."""
    at = app_test(preset="seed-doc")
    at.run()
    assert_clean(at)
    m = Meteor("seed-doc")
    r = m.score(*STARRY)
    why = meteor.explain(r, m)
    costs = table(at, "word", "score if matched")
    assert list(costs.iloc[:, 2]) == [c.word for c in why.word_costs]
    assert list(costs.iloc[:, 3]) == [fmt(c.score_if_matched) for c in why.word_costs]
    breaks = table(at, "between chunks")
    (b,) = why.chunk_breaks
    assert list(breaks.iloc[:, 3]) == [fmt(b.score_if_joined)]
    near = table(at, "why not matched")
    assert list(near.iloc[:, 4]) == [fmt(n.score_if_added) for n in why.near_misses]
    wf = chart(at, 2 if len(at.get("plotly_chart")) > 2 else 1)["data"][0]
    assert wf["type"] == "waterfall"
    assert wf["y"][:-1] == pytest.approx([s.value for s in why.waterfall[:-1]])


def test_pages_assemble_no_explanation_themselves() -> None:
    """Issue #14: the costs, breaks, near misses and waterfall come from one library call
    (``meteor.explain``, in pages/_scoring.py); no page computes them piece by piece."""
    pieces = re.compile(r"\b(unmatched_costs|chunk_break_costs|near_misses|waterfall)\(")
    for path in sorted((ROOT / "pages").glob("*.py")):
        assert not pieces.findall(path.read_text(encoding="utf-8")), path.name
    assert re.search(r"\bexplain\b[(,]", (ROOT / "pages" / "_scoring.py").read_text("utf-8"))


def roles(at: Any) -> list[str]:
    """The role of each chart's first trace (links: ``tokens_hyp`` among them)."""
    out = []
    for n in range(len(at.get("plotly_chart"))):
        out.extend(str(tr.get("meta", {}).get("role", tr["type"])) for tr in chart(at, n)["data"])
    return out


def test_inspect_shows_one_view_at_a_time(app_test: Any) -> None:
    """Issue 16: only the chosen view is built and sent (st.tabs sent all three on every
    edit); each view is reachable, and the choice is in the URL (?view=)."""
    at = app_test(hyp=FOX[0], ref=FOX[1])
    at.run()
    assert_clean(at)
    r = Meteor("meteor-1.5").score(*FOX)
    view = at.button_group(key="inspect_view")
    assert view.value == "links"
    assert [o.content for o in view.proto.options] == ["Link view", "Matrix (X-Ray)", "Tokens"]
    assert "tokens_hyp" in roles(at) and "matrix" not in roles(at)
    assert "waterfall" in roles(at)
    assert not any("token" in df.value.columns for df in at.dataframe)
    assert "view" not in at.query_params

    view.set_value("matrix").run()
    assert_clean(at)
    assert "matrix" in roles(at) and "tokens_hyp" not in roles(at)
    assert at.query_params["view"] == "matrix"
    assert at.radio(key="xray").value == "module"
    at.radio(key="xray").set_value("order").run()
    assert_clean(at)
    assert "matrix" in roles(at)

    at.button_group(key="inspect_view").set_value("tokens").run()
    assert_clean(at)
    assert len(table(at, "token", "matched by")) == len(explain.token_table(r))
    assert "matrix" not in roles(at) and "tokens_hyp" not in roles(at)
    # the matrix keeps its colouring while another view is shown
    at.button_group(key="inspect_view").set_value("matrix").run()
    assert at.radio(key="xray").value == "order"
    at.button_group(key="inspect_view").set_value("links").run()
    assert_clean(at)
    assert "view" not in at.query_params and "tokens_hyp" in roles(at)

    deep = app_test(hyp=FOX[0], ref=FOX[1], view="tokens")  # a shared link opens its view
    deep.run()
    assert_clean(deep)
    assert deep.button_group(key="inspect_view").value == "tokens"
    assert len(table(deep, "token", "matched by")) == len(explain.token_table(r))


def test_inspect_figures_are_built_once_per_pair_and_language(
    app_test: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: a rerun of the same pair (another session, a widget elsewhere) takes the
    figures from the shared cache; the UI language is part of the key."""
    from meteor.viz import figures

    built: list[str] = []

    def counting(name: str) -> Any:
        original = getattr(figures, name)

        def build(*args: Any, **kwargs: Any) -> Any:
            built.append(name)
            return original(*args, **kwargs)

        return build

    for name in ("link_view", "waterfall_figure"):
        monkeypatch.setattr(figures, name, counting(name))
    pair = ("the cat sat on the mat by the door", "a cat was sitting on the mat near a door")
    at = app_test(hyp=pair[0], ref=pair[1], alpha="0.77")  # a setting no other test uses
    at.run()
    assert_clean(at)
    assert sorted(built) == ["link_view", "waterfall_figure"]
    shown = [chart(at, n) for n in range(2)]
    again = app_test(hyp=pair[0], ref=pair[1], alpha="0.77")  # a second session
    again.run()
    assert_clean(again)
    assert sorted(built) == ["link_view", "waterfall_figure"]  # nothing rebuilt
    assert [chart(again, n) for n in range(2)] == shown
    ru = app_test(ui="RU", hyp=pair[0], ref=pair[1], alpha="0.77")
    ru.run()
    assert_clean(ru)
    assert len(built) == 4  # built again in Russian
    assert all(chart(ru, n)["layout"]["separators"] == ", " for n in range(2))
    assert all("separators" not in s["layout"] for s in shown)


def test_query_params_restore_the_state(app_test: Any) -> None:
    at = app_test(hyp=FOX[0], ref=FOX[1], preset="nltk", alpha="0.5", modules=["exact", "stem"])
    at.run()
    assert_clean(at)
    assert at.text_area(key="hyp").value == FOX[0]
    assert at.text_area(key="ref").value == FOX[1]
    assert at.sidebar.selectbox(key="preset").value == "nltk"
    assert at.sidebar.slider(key="alpha").value == 0.5
    assert at.sidebar.multiselect(key="modules").value == ["exact", "stem"]
    r = Meteor("nltk", alpha=0.5, modules=("exact", "stem")).score(*FOX)
    assert metrics(at) == card(r)
    assert "preset:nltk+custom" in at.code[0].value and "|a:0.5|" in at.code[0].value
    assert at.code[0].value == r.signature


def test_changing_a_parameter_rescores(app_test: Any) -> None:
    at = app_test(hyp=FOX[0], ref=FOX[1])
    at.run()
    at.sidebar.slider(key="gamma").set_value(0.2).run()
    assert_clean(at)
    assert metrics(at) == card(Meteor("meteor-1.5", gamma=0.2).score(*FOX))
    # stage weights and stages
    at.sidebar.slider(key="w_synonym").set_value(0.3).run()
    r = Meteor("meteor-1.5", gamma=0.2, weights={"exact": 1, "stem": 0.6, "synonym": 0.3,
                                                   "paraphrase": 0.6}).score(*FOX)  # fmt: skip
    assert metrics(at)["METEOR"] == fmt(r.score)
    # preset change resets every parameter to the preset's values
    at.sidebar.selectbox(key="preset").set_value("paper-2005").run()
    assert at.sidebar.slider(key="gamma").value == 0.5
    assert at.sidebar.selectbox(key="aligner").value == "stagewise"
    assert at.sidebar.selectbox(key="stemmer").value == "porter"
    assert metrics(at) == card(Meteor("paper-2005").score(*FOX))
    assert "preset:paper-2005|" in at.code[0].value


@pytest.mark.parametrize("what", ["hyp", "ref"])
@pytest.mark.parametrize("kind", list(BAD_INPUTS))
@pytest.mark.parametrize("page", ["pages/inspect.py", "pages/learn.py", "pages/compare.py"])
def test_bad_input_gives_a_message(app_test: Any, page: str, kind: str, what: str) -> None:
    at = app_test()
    at.run()
    if page != "pages/inspect.py":
        at.switch_page(page).run()
    at.text_area(key=what).input(BAD_INPUTS[kind]).run()
    assert_clean(at)
    messages = [x.value for x in (*at.info, *at.warning, *at.error)]
    assert messages, "a message must say why nothing is scored"
    if kind == "100kb":
        assert any("100,000 characters" in x or "100,000" in x for x in messages)
    else:
        assert any(("hypothesis" if what == "hyp" else "reference") in x for x in messages)
    assert not at.get("plotly_chart") or page == "pages/learn.py"


def test_bad_parameters_give_the_library_message(app_test: Any) -> None:
    at = app_test()
    at.run()
    at.sidebar.multiselect(key="modules").set_value([]).run()
    assert_clean(at)
    assert any("modules" in e.value for e in at.error)
    at.sidebar.multiselect(key="modules").set_value(["exact"]).run()
    assert not at.error
    at.sidebar.selectbox(key="lang").set_value("ru").run()
    at.sidebar.selectbox(key="aligner").set_value("greedy").run()
    assert_clean(at)
    assert any("greedy" in e.value and "English" in e.value for e in at.error)


def test_user_text_is_never_html(app_test: Any) -> None:
    at = app_test(hyp="<script>alert(1)</script> <b>bold</b>", ref="<b>bold</b> text")
    at.run()
    assert_clean(at)
    for el in at.markdown:
        assert "<script>" not in el.value and "<b>bold" not in el.value
    for n in range(len(at.get("plotly_chart"))):
        assert "<b>bold" not in at.get("plotly_chart")[n].proto.spec
        assert "<script>" not in at.get("plotly_chart")[n].proto.spec


def test_russian_interface_and_pair(app_test: Any) -> None:
    at = app_test(ui="RU")
    at.run()
    at.selectbox(key="example").set_value("fox_ru").run()
    assert_clean(at)
    assert at.sidebar.selectbox(key="lang").value == "ru"
    assert at.sidebar.selectbox(key="preset").value == "meteor-1.5-ru"
    assert at.text_area(key="hyp").value == FOX_RU[0]
    r = Meteor("meteor-1.5-ru").score(*FOX_RU)
    assert metrics(at) == card(r, ru=True)
    assert "," in metrics(at)["METEOR"]  # decimal comma
    assert at.title[0].value == "Почему перевод получил такую оценку?"


def test_several_references(app_test: Any) -> None:
    at = app_test()
    at.run()
    at.selectbox(key="example").set_value("multi").run()
    assert_clean(at)
    hyp = at.text_area(key="hyp").value
    refs = at.text_area(key="ref").value.splitlines()
    assert len(refs) == 3
    r = Meteor("meteor-1.5").score(hyp, refs)
    assert metrics(at) == card(r)
    radio = at.radio(key="shown_ref")
    assert radio.value == r.best_ref_index
    other = next(k for k in range(3) if k != r.best_ref_index)
    radio.set_value(other).run()
    assert any(fmt(r.score) in x.value for x in at.info)  # the official score stays in view
    assert metrics(at) == card(Meteor("meteor-1.5").score(hyp, refs[other]))


def test_reruns_never_push_the_pair_back_to_the_browser(app_test: Any) -> None:
    """Regression: ``pair_inputs`` rewrote both boxes' session state on every run, so every
    rerun resent them to the browser ("set_value"); a rerun still in flight then overwrote
    the box the user had just committed (the box showed the old text, the scores were the
    new text's).  Only a (re)mount may carry the pair to the browser."""
    at = app_test()
    at.run()
    at.run()

    def pushed() -> list[str]:
        return [k for k in ("hyp", "ref") if at.text_area(key=k).proto.set_value]

    assert pushed() == []
    at.text_area(key="hyp").input(FOX[0]).run()
    assert pushed() == []  # the reference box keeps what the browser has
    at.text_area(key="ref").input(FOX[1]).run()
    assert pushed() == []
    at.sidebar.slider(key="alpha").set_value(0.5).run()
    assert pushed() == []
    assert (at.text_area(key="hyp").value, at.text_area(key="ref").value) == FOX
    assert metrics(at) == card(Meteor("meteor-1.5", alpha=0.5).score(*FOX))
    # an example is an explicit change: that one is sent
    at.selectbox(key="example").set_value("cat_mat").run()
    assert pushed() == ["hyp", "ref"]
    at.run()
    assert pushed() == []


def test_typed_pair_follows_page_switches(app_test: Any) -> None:
    """The pair typed on one page is the one shown and scored on the next."""
    at = app_test()
    at.run()
    at.text_area(key="hyp").input(FOX[0]).run()
    r = Meteor("meteor-1.5").score(FOX[0], STARRY[1])
    for page in ("pages/compare.py", "pages/learn.py", "pages/corpus.py", "pages/inspect.py"):
        at.switch_page(page).run()
        assert_clean(at)
        if page == "pages/corpus.py":
            continue
        assert at.text_area(key="hyp").value == FOX[0], page
        assert at.text_area(key="ref").value == STARRY[1], page
        hyp = next(t for t in chart(at, 0)["data"] if t.get("meta", {}).get("role") == "tokens_hyp")
        assert hyp["text"] == list(r.alignment.hyp_words), page
    assert metrics(at) == card(r)


def _history_navigation(at: Any, monkeypatch: pytest.MonkeyPatch, **query: str) -> None:
    """Browser Back/Forward to an entry whose URL holds ``query``: the browser reruns with
    ``is_history_navigation`` set, and Streamlit lets the URL decide every bound widget
    (a missing parameter means the widget's default).  AppTest has no such request, so
    the flag is put into the rerun data of this one run."""
    from functools import partial

    from streamlit.runtime.scriptrunner import RerunData
    from streamlit.testing.v1 import local_script_runner

    with monkeypatch.context() as mp:
        mp.setattr(local_script_runner, "RerunData", partial(RerunData, is_history_navigation=True))
        at.query_params = dict(query)
        at.run()


def test_back_and_forward_never_empty_the_pair(
    app_test: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: Back to an entry without ``hyp``/``ref`` in its URL (the first page, or a
    page switch recorded before the pair was typed) emptied both boxes ("Enter a
    hypothesis"): the boxes' widget default was ``None``, the example pair being written
    into session state instead.  A missing parameter now means the example pair, as in a
    fresh tab opened on that URL."""
    at = app_test()
    at.run()
    at.text_area(key="hyp").input(FOX[0]).run()
    at.text_area(key="ref").input(FOX[1]).run()
    entries = [
        ({}, STARRY),  # Back to the first entry
        ({"hyp": FOX[0]}, (FOX[0], STARRY[1])),  # an entry from before the reference was typed
        ({"hyp": FOX[0], "ref": FOX[1]}, FOX),  # Forward to the last one
        ({}, STARRY),
    ]
    for query, pair in entries:
        _history_navigation(at, monkeypatch, **query)
        assert_clean(at)
        assert (at.text_area(key="hyp").value, at.text_area(key="ref").value) == pair, query
        assert metrics(at) == card(Meteor("meteor-1.5").score(*pair)), query
    # an ordinary rerun afterwards keeps the pair, and typing still works
    at.run()
    assert (at.text_area(key="hyp").value, at.text_area(key="ref").value) == STARRY
    at.text_area(key="hyp").input(FOX[0]).run()
    assert metrics(at) == card(Meteor("meteor-1.5").score(FOX[0], STARRY[1]))


@pytest.mark.parametrize(
    ("page", "query"),
    [
        ("pages/compare.py", {"preset": "nltk"}),
        ("pages/learn.py", {"preset": "nltk", "step": "align"}),
        ("pages/corpus.py", {"preset": "nltk"}),
    ],
)
def test_deep_link_first_request_runs_inside_the_frame(page: str, query: dict[str, str]) -> None:
    """Regression: the first request of a fresh server, when it was a deep link, ran the
    page file alone (Streamlit's legacy ``pages/`` discovery, which nothing had switched
    off yet): no sidebar and the URL's settings ignored.  A plain AppTest (not the
    ``app_test`` fixture) whose first run is the page reproduces that request."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(page).run()
    assert_clean(at)
    assert at.sidebar.selectbox(key="preset").value == "nltk"
    assert at.sidebar.selectbox(key="lang").value == "en"
    if page == "pages/compare.py":
        a = Meteor("nltk").score(*STARRY)
        assert metrics(at)["METEOR · A · nltk"] == fmt(a.score)
    if page == "pages/learn.py":
        assert at.select_slider(key="learn_step").value == "align"
    if page == "pages/corpus.py":
        assert at.title[0].value == "Score a corpus"


# -- Learn ------------------------------------------------------------------------------------


def test_learn_steps_and_formulas(app_test: Any) -> None:
    at = app_test(hyp=FOX[0], ref=FOX[1])
    at.run()
    at.switch_page("pages/learn.py").run()
    assert_clean(at)
    m = Meteor("meteor-1.5")
    r = m.score(*FOX)
    options = ["tokens", "stage:exact", "stage:stem", "stage:synonym", "stage:paraphrase",
               "align", "chunks", "formula"]  # fmt: skip
    for opt in options:
        at.select_slider(key="learn_step").set_value(opt).run()
        assert_clean(at)
        if opt == "stage:synonym":
            cands = table(at, "detail")
            assert set(cands.iloc[:, 0]) == {"fast", "leapt"}
            assert all(d.startswith("WordNet 3.0 synset") for d in cands.iloc[:, 3])
        if opt == "align":
            align = table(at, "chosen")
            assert (align["chosen"] == "✓").sum() == len(r.matches)
        if opt != "formula":
            assert at.get("plotly_chart")
    lines = walk.formula_lines(r.stats, m.breakdown(r), m.params, fmt=fmt)
    shown = [x.value for x in at.latex]  # each between the page's invisible struts
    for line in lines:
        assert any(line.numeric in s for s in shown), line.numeric
    assert metrics(at)["METEOR"] == fmt(r.score)


def test_learn_reproduces_the_doc_examples(app_test: Any) -> None:
    at = app_test()
    at.run()
    at.switch_page("pages/learn.py").run()
    assert_clean(at)
    shown = metrics(at)
    assert shown["seed-doc · starry"] == "0.750"
    assert shown["seed-doc · scrambled"] == "0.500"
    m = Meteor("seed-doc")
    assert shown["seed-doc · starry"] == fmt(m.score(*STARRY).score, 3)
    at.button(key="doc_scrambled").click().run()
    assert at.sidebar.selectbox(key="preset").value == "seed-doc"
    assert at.text_area(key="hyp").value.startswith("Danced we with")


def test_learn_step_deep_link(app_test: Any) -> None:
    at = app_test(step="align")
    at.run()
    at.switch_page("pages/learn.py").run()
    assert_clean(at)
    assert at.select_slider(key="learn_step").value == "align"


# -- Compare ----------------------------------------------------------------------------------


def test_compare_settings_side_by_side(app_test: Any) -> None:
    at = app_test(hyp=FOX[0], ref=FOX[1])
    at.run()
    at.switch_page("pages/compare.py").run()
    assert_clean(at)
    assert at.multiselect(key="vs").value == ["nltk"]
    a = Meteor("meteor-1.5").score(*FOX)
    b = Meteor("nltk").score(*FOX)
    shown = metrics(at)
    assert shown["METEOR · A · meteor-1.5"] == fmt(a.score)
    assert shown["METEOR · nltk"] == fmt(b.score)
    scores = table(at, "quantity")
    assert list(scores.iloc[0, 1:]) == [fmt(a.score), fmt(b.score)]
    assert list(scores.iloc[2, 1:]) == [fmt(a.recall), fmt(b.recall)]
    sens = next(
        s for s in (chart(at, n) for n in range(len(at.get("plotly_chart"))))
        if any(t.get("meta", {}).get("role") == "curve" for t in s["data"])
    )  # fmt: skip
    dots = [t for t in sens["data"] if t["meta"]["role"] == "current"]
    assert len(dots) == 8
    assert dots[0]["y"][0] == pytest.approx(a.score) and dots[0]["x"][0] == 0.85


def test_compare_deep_link_and_custom_setting(app_test: Any) -> None:
    at = app_test(hyp=FOX[0], ref=FOX[1], vs=["meteor-1.5-adq", "paper-2005"], beta="1.0")
    at.run()
    at.switch_page("pages/compare.py").run()
    assert_clean(at)
    assert at.multiselect(key="vs").value == ["meteor-1.5-adq", "paper-2005"]
    shown = metrics(at)
    assert shown["METEOR · A · meteor-1.5+custom"] == fmt(
        Meteor("meteor-1.5", beta=1.0).score(*FOX).score
    )
    assert shown["METEOR · paper-2005"] == fmt(Meteor("paper-2005").score(*FOX).score)
    assert shown["METEOR · meteor-1.5-adq"] == fmt(Meteor("meteor-1.5-adq").score(*FOX).score)


def test_corpus_page_is_registered_when_present(app_test: Any) -> None:
    at = app_test()
    at.run()
    if not (ROOT / "pages" / "corpus.py").is_file():
        pytest.skip("pages/corpus.py is not there: the app runs without it")
    at.switch_page("pages/corpus.py").run()
    assert_clean(at)


# -- speed --------------------------------------------------------------------------------------

HYP40 = (
    "the committee said on monday that the new rules would be applied to all the member states "
    "from next year , although several governments have asked for more time to prepare their "
    "budgets , their systems and their staff ."
)
REF40 = (
    "on monday the committee announced that the new regulations will apply to every member "
    "state starting next year , even though some governments requested additional time to get "
    "their budgets , systems and staff ready ."
)


def test_parameter_change_rescores_without_loading_or_tokenising_again(
    app_test: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moving a slider costs a rescore: no resource load, no new token or sentence work.

    How long it takes is measured by bench/bench_load_ws.py, not here (a clock in a
    test measures the machine).
    """
    at = app_test(hyp=HYP40, ref=REF40)
    at.run()
    assert_clean(at)
    r = Meteor("meteor-1.5").score(HYP40, REF40)
    assert len(r.alignment.hyp) == 40
    prepared: list[float] = []
    real_prepare = Meteor.prepare

    def counted(self: Meteor, progress: Any = None) -> None:
        prepared.append(self.params.alpha)
        real_prepare(self, progress)

    monkeypatch.setattr(Meteor, "prepare", counted)
    memos = {key: len(memo) for key, memo in metric._SHARED_CACHES.items()}
    assert any(key[0] == "sentences" and n for key, n in memos.items())
    for alpha in (0.5, 0.6, 0.7, 0.8, 0.55):
        at.sidebar.slider(key="alpha").set_value(alpha).run()
        assert_clean(at)
        assert metrics(at)["METEOR"] == fmt(
            Meteor("meteor-1.5", alpha=alpha).score(HYP40, REF40).score
        )
    assert prepared == []  # every resource stayed loaded
    # the tokens and sentences of the pair were found again, not built again
    assert {key: len(memo) for key, memo in metric._SHARED_CACHES.items()} == memos
