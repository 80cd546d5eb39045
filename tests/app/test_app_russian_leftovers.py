"""The Russian interface has no English leftovers: no "Fmean", "frag", "X-Ray" or
hyp/ref subscripts in what it shows, and the Learn page's two worked examples are
Russian sentence pairs scored by the engine under the Russian preset."""

from __future__ import annotations

import re
from typing import Any

from meteor import Meteor
from meteor.presets import DEFAULT_PRESET
from meteor.viz import figures
from pages._pair import EXAMPLES_RU

PAIR = (
    "Быстрые коричневые лисы прыгнули через собаку",
    "Быстрая коричневая лиса прыгнула через собаку",
)
LATIN_LEFTOVERS = re.compile(r"Fmean|\bfrag\b|X-Ray|\\text\{(hyp|ref|mean|Pen|frag)\}")


def _run(at: Any, page: str | None = None) -> Any:
    at.run()
    assert not at.exception
    if page:
        at.switch_page(page).run()
        assert not at.exception
    return at


def _shown(at: Any) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [x.value for x in at.latex] + [m.label for m in at.metric]
    parts += [str(getattr(r, "options", "")) for r in at.radio]
    parts += [str(getattr(s, "options", "")) for s in at.segmented_control]
    parts += [b.label for b in at.get("download_button")]
    return "\n".join(map(str, parts))


def test_learn_formulas_speak_russian(app_test: Any) -> None:
    at = _run(app_test(ui="RU", lang="ru", preset="ru", hyp=PAIR[0], ref=PAIR[1]), "pages/learn.py")
    at.select_slider(key="learn_step").set_value("formula").run()
    assert not at.exception
    shown = _shown(at)
    assert not LATIN_LEFTOVERS.findall(shown), LATIN_LEFTOVERS.findall(shown)
    latex = "\n".join(x.value for x in at.latex)
    for ru in ("\\text{гип}", "\\text{эт}", "F_{\\text{ср}}", "\\text{фрагм}", "\\text{Штраф}"):
        assert ru in latex, ru
    assert "F-мера" in [m.label for m in at.metric]


def test_inspect_has_no_x_ray_nor_fmean_in_russian(app_test: Any) -> None:
    at = _run(app_test(ui="RU", lang="ru", preset="ru", hyp=PAIR[0], ref=PAIR[1], view="matrix"))
    shown = _shown(at)
    assert not LATIN_LEFTOVERS.findall(shown), LATIN_LEFTOVERS.findall(shown)
    assert "F-мера" in [m.label for m in at.metric]


def test_learn_examples_are_russian_pairs_scored_by_the_engine(app_test: Any) -> None:
    at = _run(app_test(ui="RU", hyp=PAIR[0], ref=PAIR[1]), "pages/learn.py")
    texts = [x.value for x in at.text]
    assert all(re.search("[A-Za-z]", x) is None for x in texts), texts
    assert [f"{h}\n{r}" for h, r in EXAMPLES_RU] == texts
    preset = DEFAULT_PRESET["ru"]
    m = Meteor(preset)
    want = [f"{m.score(h, r).score:.3f}".replace(".", ",") for h, r in EXAMPLES_RU]
    got = [x.value for x in at.metric if x.label.startswith(preset)]
    assert got == want, (got, want)
    assert [m.score(h, r).stats.chunks for h, r in EXAMPLES_RU] == [2, 7]
    # the button walks through the Russian pair under the Russian preset
    at.button(key="doc_ru_1").click().run()
    assert not at.exception
    assert at.session_state["lang"] == "ru" and at.session_state["preset"] == preset
    assert at.session_state["hyp"] == EXAMPLES_RU[0][0]


def test_link_view_hovers_name_the_sides_in_the_interface_language() -> None:
    r = Meteor("meteor-1.5").score("the cat", "the cat")
    labels = dict(figures.LABELS_EN, hypothesis="гипотеза", reference="эталон")
    fig = figures.link_view(r.alignment, labels=labels)
    hovers = [str(h) for tr in fig.data if tr.hovertext for h in tr.hovertext]
    assert any("гипотеза 1" in h and "эталон 1" in h for h in hovers), hovers
    assert not any(re.search(r"\bhyp\b|\bref\b", h) for h in hovers), hovers
