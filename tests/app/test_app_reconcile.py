"""Compare's "Why do A and B differ?" (issue 33) under AppTest: the library's record shown.

Both scores are :func:`meteor.score`'s for the two settings, the steps count is the
record's, the link view after a step is that step's alignment, and the Russian
interface labels the view in Russian.
"""

from __future__ import annotations

import json
from typing import Any

import meteor
from meteor import Meteor

#: nltk's doc example (one reference): the stages and aligner steps move the alignment
DOC = (
    "It is a guide to action which ensures that the military always obeys the commands of the party",
    "It is a guide to action that ensures that the military will forever heed Party commands",
)
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")


def fmt(x: float, ru: bool = False) -> str:
    s = f"{x:.4f}"
    s = s.replace(".", ",") if ru else s
    return s.replace("-", "−")


def metrics(at: Any) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def charts(at: Any) -> list[dict[str, Any]]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def role(at: Any, name: str) -> dict[str, Any]:
    for spec in charts(at):
        for trace in spec["data"]:
            if trace.get("meta", {}).get("role") == name:
                return trace
    raise AssertionError(f"no trace {name}")


def open_compare(app_test: Any, pair: tuple[str, str] = FOX, **query: Any) -> Any:
    at = app_test(hyp=pair[0], ref=pair[1], **query)
    at.run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_view_shows_both_scores_and_the_steps(app_test: Any) -> None:
    at = open_compare(app_test, vs=["nltk", "paper-2005"])
    a = meteor.score(*FOX, "meteor-1.5")
    rec = meteor.reconcile(*FOX, "meteor-1.5", "nltk")  # the first B offered
    assert at.selectbox(key="rc_b").value == "nltk"
    shown = metrics(at)
    assert shown["A · meteor-1.5"] == fmt(a.score)
    assert shown["B · nltk"] == fmt(meteor.score(*FOX, "nltk").score)
    assert shown["Steps"] == str(len(rec.steps)) and len(rec.steps) >= 2
    path = role(at, "reconcile_path")
    assert path["meta"]["keys"] == ["A", *(s.group for s in rec.steps), "B"]
    # the stepper starts on B: the link view after the last step is B's own alignment
    assert at.select_slider(key="rc_k").value == len(rec.steps)
    assert_links(at, Meteor("nltk").score(*FOX))
    # another B: the view follows it
    at.selectbox(key="rc_b").set_value("paper-2005").run()
    assert not at.exception
    rec2 = meteor.reconcile(*FOX, "meteor-1.5", "paper-2005")
    shown = metrics(at)
    assert shown["B · paper-2005"] == fmt(meteor.score(*FOX, "paper-2005").score)
    assert shown["Steps"] == str(len(rec2.steps))


def assert_links(at: Any, r: Any) -> None:
    """The last link view shown draws ``r``'s tokens, stages and chunks."""
    links = [s for s in charts(at) if any(t.get("meta", {}).get("role") == "tokens_hyp"
             for t in s["data"])][-1]  # fmt: skip
    meta = [(t.get("meta") or {}, t) for t in links["data"]]
    hyp = next(t for m, t in meta if m.get("role") == "tokens_hyp")
    assert hyp["text"] == list(r.alignment.hyp_words)
    assert {m["module"] for m, _ in meta if m.get("role") in ("links", "phrase_links")} == {
        x.module.value for x in r.matches
    }
    assert sum(1 for m, _ in meta if m.get("role") == "chunk") == r.stats.chunks


def test_stepper_shows_each_steps_alignment(app_test: Any) -> None:
    at = open_compare(app_test, DOC, vs=["nltk"])
    rec = meteor.reconcile(*DOC, "meteor-1.5", "nltk")
    ends = {0: Meteor("meteor-1.5").score(*DOC), len(rec.steps): Meteor("nltk").score(*DOC)}
    drawn = [
        (r.alignment.hyp_words, [(m.module, m.hyp, m.ref) for m in r.matches])
        for r in ends.values()
    ]
    assert drawn[0] != drawn[1]  # the view must move
    for k in range(len(rec.steps) + 1):
        at.select_slider(key="rc_k").set_value(k).run()
        assert not at.exception
        score = rec.score_a if k == 0 else rec.steps[k - 1].score
        texts = [c.value for c in at.caption]
        assert any(fmt(score) in c for c in texts), (k, texts)
        assert_links(at, ends.get(k) or rec.steps[k - 1].result)
        words = rec.steps[k - 1].words if k else ()
        shown = "\n".join(x.value for x in at.text)
        assert all(w in shown for w in words)


def test_russian_labels(app_test: Any) -> None:
    at = open_compare(app_test, ui="RU", vs=["nltk"])
    rec = meteor.reconcile(*FOX, "meteor-1.5", "nltk")
    assert any(h.value == "Почему A и B расходятся?" for h in at.subheader)
    shown = metrics(at)
    assert shown["A · meteor-1.5"] == fmt(rec.score_a, ru=True)
    assert shown["B · nltk"] == fmt(rec.score_b, ru=True)
    assert shown["Шагов"] == str(len(rec.steps))
    assert at.select_slider(key="rc_k").label == "Выравнивание после шага"


def test_inspect_near_miss_names_the_beam_quirk(app_test: Any) -> None:
    """Inspect's "why not matched" gives the rule, not "proposed, not chosen" (issue 33)."""
    at = app_test(hyp="the handling of cases", ref="we handled the case")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    near = next(df.value for df in at.dataframe if "why not matched" in df.value.columns)
    rows = dict(zip(near.iloc[:, 1], near["why not matched"], strict=True))
    assert rows["handling"].startswith("Meteor 1.5's beam counts a lone one-word")
    assert "proposed, not chosen by the aligner" not in set(near["why not matched"])


def test_russian_view_writes_the_librarys_reasons_in_russian(app_test: Any) -> None:
    """Under the Russian interface the reasons (the shares' method, the path against the
    shares, each step's words) are Russian: rendered from the record's reason codes, one
    line per reason, with no English word but the pair's own (its words are data) and no
    note saying that what follows is English."""
    import re

    from _latin import latin_words_in

    at = open_compare(app_test, DOC, ui="RU", vs=["paper-2005"])
    rec = meteor.reconcile(*DOC, "meteor-1.5", "paper-2005")
    assert rec.reasons and any(s.reasons for s in rec.steps)
    data = set(re.findall(r"[A-Za-z]+", " ".join(DOC)))

    def shown() -> list[str]:
        return [x.value for x in at.text]

    lines = shown()[0].split("\n")
    assert len(lines) == 1 + len(rec.reasons), lines  # the method, then the reasons
    assert lines[0].startswith("Доли: точно: все 128 подмножеств из 7 групп"), lines[0]
    read = list(lines)
    for k in range(1, len(rec.steps) + 1):
        at.select_slider(key="rc_k").set_value(k).run()
        assert not at.exception
        step = rec.steps[k - 1]
        words = shown()[1].split("\n") if step.reasons else []
        assert len(words) == len(step.reasons) + (step.note_reason is not None), words
        read += words
    assert read and not latin_words_in(read, data=data), latin_words_in(read, data=data)
    assert not any("на английском" in c.value for c in at.caption)
    # the control: the same check finds the English words of the English record
    assert latin_words_in([*rec.words, *rec.steps[0].words], data=data)


def test_every_reason_has_its_russian_template() -> None:
    """Each code of the library's reasons has a Russian template with the same fields."""
    import string

    from meteor.analysis.reconcile_reasons import TEMPLATES
    from pages._reconcile_view import _russian

    ru = _russian().templates
    assert set(ru) == set(TEMPLATES)

    def fields(s: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f}

    # the same fields, but the library's English error message (ParamError) is not quoted
    en = {c: fields(e) for c, e in TEMPLATES.items()}
    assert {c: fields(ru[c]) for c in TEMPLATES} == {**en, "cannot_come_yet": {"group"}}


def test_russian_note_of_a_reordered_path_is_russian(app_test: Any) -> None:
    """From paper-2005 (the stage-wise aligner) to meteor-1.5 the stages cannot come before
    the aligner (no paraphrases stage by stage): the step's note says so in Russian, without
    the library's English message."""
    from _latin import latin_words_in

    pair = ("the cat sat on the mat", "the cat is on the mat")
    rec = meteor.reconcile(*pair, "paper-2005", "meteor-1.5")
    k = next(k for k, s in enumerate(rec.steps, 1) if s.note_reason is not None)
    at = open_compare(app_test, pair, ui="RU", preset="paper-2005", vs=["meteor-1.5"])
    at.select_slider(key="rc_k").set_value(k).run()
    assert not at.exception
    note = at.text[1].value.split("\n")[0]
    assert note.startswith("порядок изменён: группа «этапы (какие, порядок)» пока не может идти")
    assert not latin_words_in([note]), note
