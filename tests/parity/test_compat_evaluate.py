"""``meteor.compat.evaluate`` against HF evaluate's meteor metric, run with nltk itself.

The oracle restates ``_compute`` of huggingface/evaluate ``metrics/meteor/meteor.py``
(nltk >= 3.6.5 branch): ``references[0]`` a list → ``meteor_score`` over the
tokenised references, else ``single_meteor_score``; ``np.mean`` of the scores.
``nltk.word_tokenize`` reads NLTK's English punkt_tab files (fixture from
``test_hf_preset``).  The local evaluate module is loaded with the real
``evaluate`` package, offline.
"""

from __future__ import annotations

import csv
from typing import Any

import numpy as np
import pytest
from conftest import SHARED_DATA, require_shared
from nltk.translate.meteor_score import meteor_score, single_meteor_score
from test_hf_preset import HOSTILE, nltk_word_tokenize, wn  # noqa: F401  (fixtures)

from meteor.compat import evaluate as compat
from meteor.params import ParamError

HF_EXAMPLE = (
    ["It is a guide to action which ensures that the military always obeys the commands of the party"],
    ["It is a guide to action that ensures that the military will forever heed Party commands"],
)  # fmt: skip


def hf_compute(
    predictions: list[str],
    references: list[Any],
    tok: Any,
    wordnet: Any,
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> dict[str, Any]:
    kw = {"alpha": alpha, "beta": beta, "gamma": gamma, "wordnet": wordnet}
    if isinstance(references[0], list):
        scores = [
            meteor_score([tok(r) for r in refs], tok(p), **kw)
            for refs, p in zip(references, predictions, strict=True)
        ]
    else:
        scores = [
            single_meteor_score(tok(r), tok(p), **kw)
            for r, p in zip(references, predictions, strict=True)
        ]
    return {"meteor": np.mean(scores)}


def _rows() -> tuple[list[dict[str, str]], list[str]]:
    path = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv")
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    ref_b = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "ref_B.txt")
    return rows[::20], ref_b.read_text(encoding="utf-8").splitlines()


def test_hf_docstring_example(nltk_word_tokenize: Any, wn: Any) -> None:  # noqa: F811
    preds, refs = HF_EXAMPLE
    got = compat.compute(predictions=preds, references=refs)
    assert got == hf_compute(preds, refs, nltk_word_tokenize, wn)
    assert round(got["meteor"], 4) == 0.6944  # the value in HF's docstring


def test_equals_hf_on_real_data(nltk_word_tokenize: Any, wn: Any) -> None:  # noqa: F811
    rows, second = _rows()
    preds = [r["hyp"] for r in rows]
    single = [r["ref"] for r in rows]
    double = [[r["ref"], second[int(r["seg_id"]) - 1]] for r in rows]
    for refs in (single, double):
        for abg in ((0.9, 3, 0.5), (0.5, 1.0, 0.25), (1.0, 0.0, 1.0)):
            expected = hf_compute(preds, refs, nltk_word_tokenize, wn, *abg)
            assert compat.compute(predictions=preds, references=refs, **dict(
                zip(("alpha", "beta", "gamma"), abg, strict=True))) == expected  # fmt: skip
    assert compat.segment_scores(preds, single) == [
        single_meteor_score(nltk_word_tokenize(r), nltk_word_tokenize(p), wordnet=wn)
        for p, r in zip(preds, single, strict=True)
    ]


def test_equals_hf_on_hostile_text(nltk_word_tokenize: Any, wn: Any) -> None:  # noqa: F811
    refs = [[h, HOSTILE[17]] for h in reversed(HOSTILE)]
    assert compat.compute(predictions=HOSTILE, references=refs) == hf_compute(
        HOSTILE, refs, nltk_word_tokenize, wn
    )


def test_errors() -> None:
    with pytest.raises(ValueError, match="2 entries but references has 1"):
        compat.compute(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match="empty"):
        compat.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="mixture"):
        compat.compute(predictions=["a", "b"], references=[["a"], "b"])
    with pytest.raises(ParamError, match="alpha"):
        compat.compute(predictions=["a"], references=["a"], alpha=2)
    with pytest.raises(TypeError):
        compat.compute(predictions="a b", references="a b")


def test_evaluate_load_local_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    import evaluate

    metric = evaluate.load(compat.MODULE_PATH)
    preds, refs = HF_EXAMPLE
    rows, second = _rows()
    p = [r["hyp"] for r in rows[:40]]
    single = [r["ref"] for r in rows[:40]]
    double = [[r["ref"], second[int(r["seg_id"]) - 1]] for r in rows[:40]]
    assert metric.compute(predictions=preds, references=refs) == compat.compute(
        predictions=preds, references=refs
    )
    for refs_ in (single, double):
        got = metric.compute(predictions=p, references=refs_, alpha=0.8, beta=2, gamma=0.4)
        assert got == compat.compute(predictions=p, references=refs_, alpha=0.8, beta=2, gamma=0.4)
