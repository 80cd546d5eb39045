"""Issue #31 ("Trust at the edges, round 3"), the Learn page and the Russian interface (AppTest).

* item 14: a link leaving the Corpus page in Russian keeps the interface language (``ui=RU``);
* item 17: the Learn page's stage texts say what the selected preset really does (its
  aligner, normalisation and punctuation), and the Russian Learn page has no English
  match details and writes its numbers with a decimal comma.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

PAIR_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)


def assert_clean(at: Any, what: object) -> None:
    assert not at.exception, (what, [e.value for e in at.exception])


# -- item 14: links leaving a Russian page keep the interface language --------------


def _demo_corpus(at: Any) -> None:
    at.run()
    assert_clean(at, "first run")
    at.switch_page("pages/corpus.py").run()
    at.radio(key="corpus_source").set_value("demo").run()
    assert_clean(at, "corpus demo")


def _ui_of(url: str) -> list[str]:
    return parse_qs(urlparse(url).query).get("ui", [])


def test_corpus_links_keep_the_russian_interface(app_test: Any) -> None:
    """The table's «открыть» links and the drill-down's «Открыть сегмент…» button carry
    ``ui=RU`` next to ``lang=ru&preset=ru``."""
    at = app_test(ui="RU", lang="ru", preset="ru")
    _demo_corpus(at)
    links = list(at.dataframe(key="corpus_table").value["inspect"])
    assert links
    for url in links:
        q = parse_qs(urlparse(url).query)
        assert q["lang"] == ["ru"] and q["preset"] == ["ru"], url
        assert q.get("ui") == ["RU"], url


def test_drill_down_link_keeps_the_russian_interface(monkeypatch: Any) -> None:
    """The segment drill-down's «Открыть сегмент на странице «Разбор пары»» button
    (``st.link_button(..., inspect_link(result))``) carries ``ui=RU`` too.  A unit test:
    under AppTest, a rerun of the Russian Corpus page fails in AppTest itself (it calls
    the sort box's ``format_func`` outside the run, in English)."""
    import pages._corpus_common as cc
    import pages._i18n as i18n
    from meteor import Meteor

    result = Meteor("ru").score(*PAIR_RU)
    state = {"ui": "ru", "lang": "ru", "preset": "ru"}
    monkeypatch.setattr(cc.st, "session_state", state)
    monkeypatch.setattr(i18n.st, "session_state", state)
    q = parse_qs(urlparse(cc.inspect_link(result)).query)
    assert q["lang"] == ["ru"] and q["preset"] == ["ru"] and q["ui"] == ["RU"]
    state["ui"] = "en"
    assert "ui" not in parse_qs(urlparse(cc.inspect_link(result)).query)


def test_corpus_links_follow_a_switch_of_the_interface(app_test: Any) -> None:
    """English links carry no ``ui``; after switching to Russian, the (cached) rows are
    rebuilt with ``ui=RU`` — not served from the English run's cache."""
    at = app_test(ui="EN", lang="ru", preset="ru")
    _demo_corpus(at)
    links = list(at.dataframe(key="corpus_table").value["inspect"])
    assert links and all(_ui_of(u) == [] for u in links)
    at.segmented_control(key="ui").set_value("ru").run()
    assert_clean(at, "switch to RU")
    links = list(at.dataframe(key="corpus_table").value["inspect"])
    assert links and all(_ui_of(u) == ["RU"] for u in links), links[:2]


# -- item 17: the Learn page says what the preset does, and says it in Russian ------------

STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
#: what each preset's tokens step and stage steps must (and must not) claim
EVERY_WORD = "every stage proposes candidates for every word"
LEFT_UNMATCHED = "only matches words the earlier stages left unmatched"
PRESET_TEXTS = {
    # preset: (tokens text says, tokens text must not say, stage caption says, must not say)
    "meteor-1.5": ("-norm: punctuation split off, lowercased", "removed", EVERY_WORD, LEFT_UNMATCHED),
    "seed-doc": ("-noPunct: punctuation removed, lowercased", "split off", LEFT_UNMATCHED,
                 EVERY_WORD),
    "nltk": ("split at spaces: punctuation stays attached to its word, lowercased", "-norm",
             LEFT_UNMATCHED, EVERY_WORD),
}  # fmt: skip


#: word forms: lemma, stem and synonym candidates under the ru preset
FORMS_RU = (
    "Быстрые коричневые лисы прыгнули на грустную собаку",
    "Быстрая коричневая лиса скакнула на унылых собак",
)


def _texts(at: Any) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def _learn(at: Any) -> None:
    at.run()
    assert_clean(at, "first run")
    at.switch_page("pages/learn.py").run()
    assert_clean(at, "learn")


def test_learn_texts_follow_the_preset(app_test: Any) -> None:
    """Each preset's tokens step names its own tokenisation (seed-doc drops punctuation:
    Meteor's -noPunct), and its stage steps say which words a stage may still match
    (beam: every word; stage by stage and greedy: only words left unmatched)."""
    wrong = []
    for preset, (says, not_says, scope, not_scope) in PRESET_TEXTS.items():
        at = app_test(preset=preset, hyp=STARRY[0], ref=STARRY[1])
        _learn(at)
        text = _texts(at)
        if says not in text or not_says in text.split("tokenizer does", 1)[-1].split(")")[0]:
            wrong.append(f"{preset} tokens: {text}")
        at.select_slider(key="learn_step").set_value("stage:exact").run()
        assert_clean(at, (preset, "stage"))
        text = _texts(at)
        if scope not in text or not_scope in text:
            wrong.append(f"{preset} stage: {text}")
    assert not wrong, "\n\n".join(wrong)


def _details(at: Any) -> list[str]:
    """The detail column of the stage's candidate table (AppTest keeps no dataframe keys)."""
    frames = [df.value for df in at.dataframe if "подробности" in df.value.columns]
    assert len(frames) == 1, len(frames)
    return [str(x) for x in frames[0]["подробности"]]


def test_russian_learn_details_are_russian(app_test: Any) -> None:
    """Under the Russian interface the candidates' details are Russian, with a decimal
    comma (no "same lemma", no "navec cosine 0.57"), and the formula's words too."""
    at = app_test(ui="RU", lang="ru", preset="ru", hyp=FORMS_RU[0], ref=FORMS_RU[1])
    _learn(at)
    at.select_slider(key="learn_step").set_value("stage:lemma").run()
    assert_clean(at, "lemma")
    lemma = _details(at)
    assert lemma and all(d.startswith("общая лемма «") for d in lemma), lemma
    at.select_slider(key="learn_step").set_value("stage:stem").run()
    stem = _details(at)
    assert stem and all(d.startswith("общая основа «") for d in stem), stem
    at.select_slider(key="learn_step").set_value("stage:synonym").run()
    synsets = _details(at)
    assert synsets and all(d.startswith("синсет ") for d in synsets), synsets
    # the fox pair has embedding candidates (cosines 0.44 and 0.45)
    at = app_test(ui="RU", lang="ru", preset="ru", hyp=PAIR_RU[0], ref=PAIR_RU[1])
    _learn(at)
    at.select_slider(key="learn_step").set_value("stage:embedding").run()
    assert_clean(at, "embedding")
    cosines = _details(at)
    assert cosines and all(d.startswith("косинус navec 0,") for d in cosines), cosines
    assert not any("." in d or "cosine" in d for d in cosines), cosines
    at.select_slider(key="learn_step").set_value("formula").run()
    assert_clean(at, "formula")
    latex = "\n".join(x.value for x in at.latex)
    for en in ("stage", "content", "function", "chunks"):
        assert f"\\text{{{en}}}" not in latex, en
    for ru in ("этап", "значимые", "служебные", "фрагменты", "точное"):  # "точное": exact
        assert f"\\text{{{ru}}}" in latex, ru
    assert "{,}" in latex and "0.7500" not in latex  # decimal commas in the formulas


def test_russian_learn_tokens_text_follows_the_preset(app_test: Any) -> None:
    """seed-ru lowercases and splits at spaces (no -norm): its Russian text says so."""
    at = app_test(ui="RU", lang="ru", preset="seed-ru", hyp=PAIR_RU[0], ref=PAIR_RU[1])
    _learn(at)
    text = _texts(at)
    assert "деление по пробелам" in text and "-norm" not in text, text
    at.select_slider(key="learn_step").set_value("stage:exact").run()
    text = _texts(at)
    assert "только слова, оставшиеся без пары" in text, text
    assert "каждый этап предлагает кандидатов для всех слов" not in text, text
