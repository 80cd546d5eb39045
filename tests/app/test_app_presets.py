"""Issue #13 (HIGH 1 and 3, items 17 and 20) and issue #16 (deep links): every preset the
library registers, on every pair page, in both interface languages (AppTest).

The presets are read from the library (``meteor.presets.preset_names``), so a preset
added there is covered here with no change.  A page opened on a preset and left alone
must show exactly the library's record and signature.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from _latin import latin_words

from meteor import Meteor
from meteor.presets import PRESETS, preset_names
from pages._pair import EXAMPLES

#: The pair of issue #13 HIGH 3 (seed-ru labelled сидела↔сидел synonym, 0.6745 vs 0.6284).
SEED_RU_PAIR = (
    "Мы можем стоять на Земле, смотреть в ночное небо и видеть звезды невооруженным глазом.",
    "Мы стоим на Земле и невооруженным глазом видим в ночном небе звезды.",
)
STARRY = (EXAMPLES[0].hyp, EXAMPLES[0].ref)
UI = ["EN", "RU"]


def pair_for(lang: str) -> tuple[str, str]:
    """A pair in the preset's language (any language without an example gets STARRY)."""
    if lang == "ru":
        return SEED_RU_PAIR
    ex = next((e for e in EXAMPLES if e.lang == lang and "\n" not in e.ref), None)
    return (ex.hyp, ex.ref) if ex else STARRY


def fmt(x: float, ru: bool) -> str:
    if math.isnan(x):
        return "—"
    s = f"{x:.4f}"
    return s.replace(".", ",") if ru else s


def assert_clean(at: Any, what: object) -> None:
    assert not at.exception, (what, [e.value for e in at.exception])


def metrics(at: Any) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize("ui", UI)
@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_renders_every_page_as_the_library_scores_it(
    app_test: Any, preset: str, ui: str
) -> None:
    """Inspect, Compare and Learn on the preset, unchanged: no exception, and the score
    and signature shown are ``Meteor(preset).score``'s (issue #13 HIGH 1 and 3).
    Before the fix ``ru`` and ``seed-ru-emb`` crashed every page
    (StreamlitDefaultNotInOptionsError) and ``seed-ru`` showed ``seed-ru+custom``."""
    lang = PRESETS[preset].params.lang
    hyp, ref = pair_for(lang)
    want = Meteor(preset).score(hyp, ref)
    ru = ui == "RU"
    at = app_test(ui=ui, lang=lang, preset=preset, hyp=hyp, ref=ref)
    at.run()
    assert_clean(at, "inspect")
    assert at.sidebar.selectbox(key="preset").value == preset
    assert at.sidebar.multiselect(key="modules").value == [
        m.value for m in PRESETS[preset].params.modules
    ]
    assert metrics(at)["METEOR"] == fmt(want.score, ru)
    assert at.code[0].value == want.signature
    assert "+custom" not in at.code[0].value
    data = set(hyp.split()) | set(ref.split())  # the texts are data, in any script
    assert not ru or not latin_words(at, data=data), latin_words(at, data=data)

    at.switch_page("pages/compare.py").run()
    assert_clean(at, "compare")
    assert not ru or not latin_words(at, data=data), latin_words(at, data=data)
    assert metrics(at)[f"METEOR · A · {preset}"] == fmt(want.score, ru)
    assert at.code[0].value == want.signature
    for other in at.multiselect(key="vs").value:
        assert metrics(at)[f"METEOR · {other}"] == fmt(Meteor(other).score(hyp, ref).score, ru)

    at.switch_page("pages/learn.py").run()
    assert_clean(at, "learn")
    steps = at.select_slider(key="learn_step").options  # tokens, each stage, align, chunks, …
    assert len(steps) == 1 + len(PRESETS[preset].params.modules) + 3
    at.select_slider(key="learn_step").set_value("formula").run()
    assert_clean(at, "learn formula")
    assert not ru or not latin_words(at, data=data), latin_words(at, data=data)
    assert metrics(at)["METEOR"] == fmt(want.score, ru)
    assert at.code[0].value == want.signature


def test_seed_ru_chosen_in_the_sidebar_is_seed_ru(app_test: Any) -> None:
    """Issue #13 HIGH 3, as reported: Russian texts, seed-ru picked in the sidebar.  The
    stages keep the preset's order (exact → lemma → synonym), the signature has no
    ``+custom`` and the score is the library's 0.6284 (the page showed 0.6745)."""
    at = app_test(ui="RU", hyp=SEED_RU_PAIR[0], ref=SEED_RU_PAIR[1])
    at.run()
    at.sidebar.selectbox(key="lang").set_value("ru").run()
    at.text_area(key="hyp").input(SEED_RU_PAIR[0])
    at.text_area(key="ref").input(SEED_RU_PAIR[1]).run()
    at.sidebar.selectbox(key="preset").set_value("seed-ru").run()
    assert_clean(at, "seed-ru")
    want = Meteor("seed-ru").score(*SEED_RU_PAIR)
    assert f"{want.score:.4f}" == "0.6284"
    assert at.sidebar.multiselect(key="modules").value == ["exact", "lemma", "synonym"]
    assert any("точное → лемма → синоним" in c.value for c in at.sidebar.caption)
    assert metrics(at)["METEOR"] == fmt(want.score, ru=True)
    assert at.code[0].value == want.signature
    assert "preset:seed-ru|" in want.signature and "mods:ex+le+sy" in want.signature
    # the Tokens tab labels сидела-like lemma matches as the library does
    labels = {m.hyp_words: m.module.value for m in want.matches}
    assert labels[("стоять",)] == "lemma"


def test_stage_order_is_editable_as_an_order(app_test: Any) -> None:
    """The stage widget's selected order is the order the stages run in, kept in the URL."""
    at = app_test(lang="ru", preset="seed-ru", hyp=SEED_RU_PAIR[0], ref=SEED_RU_PAIR[1])
    at.run()
    at.sidebar.multiselect(key="modules").set_value(["exact", "synonym", "lemma"]).run()
    assert_clean(at, "reordered")
    want = Meteor(
        "seed-ru",
        modules=["exact", "synonym", "lemma"],
        weights={"exact": 1.0, "synonym": 1.0, "lemma": 1.0},
    ).score(*SEED_RU_PAIR)
    assert "preset:seed-ru+custom|" in want.signature and "mods:ex+sy+le" in want.signature
    assert at.code[0].value == want.signature
    assert metrics(at)["METEOR"] == fmt(want.score, ru=False)
    assert any("exact → synonym → lemma" in c.value for c in at.sidebar.caption)
    assert at.query_params["modules"] == ["exact", "synonym", "lemma"]
    # the URL's order comes back in a new session
    again = app_test(lang="ru", preset="seed-ru", modules=["exact", "synonym", "lemma"],
                     hyp=SEED_RU_PAIR[0], ref=SEED_RU_PAIR[1])  # fmt: skip
    again.run()
    assert_clean(again, "reopened")
    assert again.code[0].value == want.signature
    # back to the preset: its order again, and no +custom
    at.sidebar.button(key="reset_params").click().run()
    assert at.sidebar.multiselect(key="modules").value == ["exact", "lemma", "synonym"]
    assert at.code[0].value == Meteor("seed-ru").score(*SEED_RU_PAIR).signature


@pytest.mark.parametrize("preset", [p for p in preset_names() if PRESETS[p].params.lang != "en"])
def test_a_preset_implies_its_language_in_deep_links(app_test: Any, preset: str) -> None:
    """Issue #16: ``/?preset=ru`` without ``lang`` silently opened English meteor-1.5."""
    hyp, ref = pair_for(PRESETS[preset].params.lang)
    at = app_test(preset=preset, hyp=hyp, ref=ref)
    at.run()
    assert_clean(at, preset)
    assert at.sidebar.selectbox(key="lang").value == PRESETS[preset].params.lang
    assert at.sidebar.selectbox(key="preset").value == preset
    assert at.code[0].value == Meteor(preset).score(hyp, ref).signature
    assert not at.warning  # nothing was ignored


#: name=value from a shared or forged link → the widget that keeps its default
BAD_QUERY = [
    ("beam", "1e309", "beam"),  # OverflowError inside Streamlit before the fix
    ("beam", "2.5", "beam"),
    ("beam", "0", "beam"),
    ("alpha", "abc", "alpha"),
    ("alpha", "nan", "alpha"),
    ("beta", "inf", "beta"),
    ("gamma", "-1", "gamma"),
    ("w_exact", "7", "w_exact"),
    ("modules", "telepathy", "modules"),
    ("aligner", "quantum", "aligner"),
    ("stemmer", "none", "stemmer"),
    ("preset", "no-such-preset", "preset"),
    ("lang", "xx", "lang"),
    ("ui", "zz", None),
    ("vs", "bogus", None),
]


@pytest.mark.parametrize(("name", "value", "widget"), BAD_QUERY)
def test_a_bad_url_parameter_is_ignored_with_a_notice(
    app_test: Any, name: str, value: str, widget: str | None
) -> None:
    """Issue #13 item 20: every query parameter validated; a bad one ignored, visibly."""
    at = app_test(**{name: value})
    at.run()
    assert_clean(at, (name, value))
    notices = " ".join(w.value for w in at.warning)
    assert f"{name}={value}" in notices.replace("\\", "")
    assert name not in at.query_params or value not in at.query_params.get_all(name)
    default = Meteor("meteor-1.5").score(*STARRY)
    assert at.code[0].value == default.signature  # the preset's defaults are used
    if widget is not None:
        assert at.sidebar.get("multiselect") or at.sidebar.get("selectbox")
    at.run()  # the notice belongs to the link, not to every later run
    assert not at.warning


def test_a_good_url_gives_no_notice(app_test: Any) -> None:
    at = app_test(lang="ru", preset="ru", alpha="0.5", beam="12", modules=["exact", "lemma"],
                  aligner="beam", w_exact="0.9", vs="seed-ru", ui="RU")  # fmt: skip
    at.run()
    assert_clean(at, "good")
    assert not at.warning
    p = at.code[0].value
    assert "preset:ru+custom" in p and "|a:0.5|" in p and "mods:ex+le|" in p and "beam12" in p


def test_compare_shows_the_other_settings_when_one_fails(app_test: Any) -> None:
    """Issue #13 item 17: a setting that fails (here A with no stage) hid every metric."""
    at = app_test(vs=["nltk", "paper-2005"])
    at.run()
    at.switch_page("pages/compare.py").run()
    at.sidebar.multiselect(key="modules").set_value([]).run()
    assert_clean(at, "A fails")
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("modules" in e and "A · meteor-1.5+custom" in e for e in errors), errors
    shown = metrics(at)
    assert shown["METEOR · nltk"] == fmt(Meteor("nltk").score(*STARRY).score, ru=False)
    assert shown["METEOR · paper-2005"] == fmt(Meteor("paper-2005").score(*STARRY).score, False)
    assert not any(k.startswith("METEOR · A") for k in shown)


def test_russian_interface_hints_at_the_language_of_the_texts(app_test: Any) -> None:
    """Issue #16: the interface language does not change the texts' language; say so."""
    at = app_test(ui="RU")
    at.run()
    assert_clean(at, "ru ui")
    assert any("английский" in i.value for i in at.sidebar.info)
    at.run()
    assert not at.sidebar.info
    same = app_test(ui="RU", lang="ru")
    same.run()
    assert not same.sidebar.info


def test_a_learn_step_the_setting_lacks_is_ignored_with_a_notice(app_test: Any) -> None:
    """A shared link's ``step`` (here a paraphrase step under Russian) is validated too."""
    at = app_test(lang="ru", step="stage:paraphrase")
    at.run()
    at.switch_page("pages/learn.py").run()
    assert_clean(at, "learn")
    assert at.select_slider(key="learn_step").value == "tokens"
    assert any("step=stage:paraphrase" in w.value.replace("\\", "") for w in at.warning)
    at.select_slider(key="learn_step").set_value("align").run()
    assert not at.warning


def test_compare_rows_and_a_vs_b_tabs_for_four_settings(app_test: Any) -> None:
    """Issue #16: with 4 settings each gets a full-width row (no ever-narrower columns)
    and each "A vs B" difference has its own tab with both scores."""
    fox = next(e for e in EXAMPLES if e.key == "fox")
    others = ["nltk", "paper-2005", "meteor-1.5-adq"]
    at = app_test(hyp=fox.hyp, ref=fox.ref, vs=others)
    at.run()
    at.switch_page("pages/compare.py").run()
    assert_clean(at, "compare 4")
    assert [tab.label for tab in at.tabs] == [f"A vs {n}" for n in others]
    a = Meteor("meteor-1.5").score(fox.hyp, fox.ref)
    for tab, n in zip(at.tabs, others, strict=True):
        b = Meteor(n).score(fox.hyp, fox.ref)
        assert tab.caption[0].value == f"METEOR: A {a.score:.4f}, {n} {b.score:.4f}."
    # one bordered row per setting, each holding its metric and its link view
    rows = [b for b in at.main.children.values() if type(b).__name__ == "Block"]
    with_links = [r for r in rows if len(r.get("plotly_chart")) == 1 and len(r.get("metric")) == 1]
    assert len(with_links) == 4


def test_lowercase_ui_parameter_is_understood(app_test: Any) -> None:
    at = app_test(ui="ru")
    at.run()
    assert_clean(at, "ui=ru")
    assert not at.warning
    assert at.title[0].value == "Почему перевод получил такую оценку?"


def test_corpus_page_on_seed_ru_is_the_librarys_corpus_score(app_test: Any) -> None:
    """Issue #13 HIGH 3 on the Corpus page (it reordered seed-ru's stages too)."""
    ru = [e for e in EXAMPLES if e.lang == "ru"]
    hyps = [SEED_RU_PAIR[0], *(e.hyp for e in ru)]
    refs = [SEED_RU_PAIR[1], *(e.ref for e in ru)]
    at = app_test(lang="ru", preset="seed-ru")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("sys.txt", "\n".join(hyps).encode(), "text/plain")]
    )
    at.file_uploader(key="corpus_ref_files").set_value(
        [("ref.txt", "\n".join(refs).encode(), "text/plain")]
    )
    at.run()
    assert_clean(at, "corpus seed-ru")
    want = Meteor("seed-ru").corpus_score(hyps, [[r] for r in refs])
    assert metrics(at)["sys: corpus METEOR (summed statistics)"] == fmt(want.score, ru=False)


def test_a_preset_added_to_the_library_appears_with_a_russian_description(
    app_test: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sidebar reads the presets from the library: a new one (here a made-up Russian
    preset with the stages in an unusual order) is listed, scored as the library scores
    it, and described in Russian without a translation written for it."""
    from meteor.presets import Preset

    base = PRESETS["ru"].params
    mods = ("synonym", "exact", "embedding")
    params = base.replace(modules=mods, weights={"synonym": 0.5, "exact": 1.0, "embedding": 0.3})
    monkeypatch.setitem(PRESETS, "ru-test", Preset("ru-test", params, "A test preset.", "nothing"))
    at = app_test(ui="RU", preset="ru-test", hyp=SEED_RU_PAIR[0], ref=SEED_RU_PAIR[1])
    at.run()
    assert_clean(at, "new preset")
    assert "ru-test" in at.sidebar.selectbox(key="preset").options
    assert at.sidebar.multiselect(key="modules").value == list(mods)
    want = Meteor("ru-test").score(*SEED_RU_PAIR)
    assert at.code[0].value == want.signature
    caption = " ".join(c.value for c in at.sidebar.caption)
    assert "Пресет ru-test (язык: русский): синоним → точное → эмбеддинг" in caption
    assert not latin_words(at, data=set(" ".join(SEED_RU_PAIR).split()))


def test_language_selector_lists_every_language_with_its_own_name(app_test: Any) -> None:
    """Issue #19: the text-language selector offers every registered language, shown as
    code plus native name in the help and under the box (read from the registry, so no language is loaded for it)."""
    from meteor.languages import available

    at = app_test(ui="EN", lang="de")
    at.run()
    assert_clean(at, "inspect")
    box = at.sidebar.selectbox(key="lang")
    assert box.value == "de"
    assert set(box.options) == {i.code for i in available()}
    assert all(f"{i.code} · {i.native_name}" in box.help for i in available())
    assert "de · Deutsch" in [c.value for c in at.sidebar.caption]


def _first_example(lang: str) -> Any:
    return next(e for e in EXAMPLES if e.lang == lang)


@pytest.mark.parametrize("query", [{"lang": "ru", "preset": "ru"}, {"preset": "ru"}, {}])
def test_untyped_pair_is_an_example_of_the_language_of_the_texts(
    app_test: Any, query: dict[str, str]
) -> None:
    """A Russian preset with no text typed showed the English example in the pair boxes
    (and scored it as Russian).  The boxes' default stays the first (English) example;
    the language's own example is written in when the pair is still another language's
    untouched example: on opening (``?lang=ru&preset=ru``) and on a language switch."""
    at = app_test(**query)
    at.run()
    if not query:  # English first, then Russian chosen in the sidebar
        assert at.text_area(key="hyp").value == EXAMPLES[0].hyp
        at.sidebar.selectbox(key="lang").set_value("ru").run()
    assert_clean(at, query)
    ex = _first_example("ru")
    assert (at.text_area(key="hyp").value, at.text_area(key="ref").value) == (ex.hyp, ex.ref)
    preset = at.sidebar.selectbox(key="preset").value
    want = Meteor(preset).score(ex.hyp, [ex.ref])
    assert metrics(at)["METEOR"] == fmt(want.score, ru=False)
    # back to English: the English example again (the Russian one was not typed either)
    at.sidebar.selectbox(key="lang").set_value("en").run()
    assert_clean(at, "back to en")
    assert at.text_area(key="hyp").value == EXAMPLES[0].hyp
    assert at.text_area(key="ref").value == EXAMPLES[0].ref


def test_a_typed_pair_survives_a_switch_of_the_language_of_the_texts(app_test: Any) -> None:
    """Only an untouched example is replaced: a typed pair stays as typed."""
    at = app_test()
    at.run()
    at.text_area(key="hyp").input("мой собственный текст").run()
    at.sidebar.selectbox(key="lang").set_value("ru").run()
    assert_clean(at, "typed")
    assert at.text_area(key="hyp").value == "мой собственный текст"
    assert at.text_area(key="ref").value == EXAMPLES[0].ref


@pytest.mark.parametrize("ui", UI)
@pytest.mark.parametrize("preset", ["nltk", "meteor-1.5"])
def test_the_undefined_note_names_the_setting_not_meteor_15(
    app_test: Any, preset: str, ui: str
) -> None:
    """A pair with no match: Fmean, frag and penalty show "—", and the note under them says
    the setting's formula leaves them undefined (it said "Meteor 1.5" under nltk too)."""
    at = app_test(ui=ui, lang="en", preset=preset, hyp="alpha beta", ref="gamma delta")
    at.run()
    assert_clean(at, preset)
    assert "—" in metrics(at).values()
    notes = [c.value for c in at.caption if c.value.startswith(("“—”", "«—»"))]
    assert len(notes) == 1, [c.value for c in at.caption]
    assert "Meteor 1.5" not in notes[0]
    assert ("this setting's formula" if ui == "EN" else "формула этой настройки") in notes[0]
