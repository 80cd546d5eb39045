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
