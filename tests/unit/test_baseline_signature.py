"""The BLEU baseline's signature says what was computed: segment BLEU with effective order
(sacreBLEU's ``sentence_bleu``: ``eff:yes``), the system scores by ``corpus_score``."""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from meteor.analysis.agreement import load_judged, score_metrics

TABLE = (
    "system\tseg_id\thyp\tref\thuman\n"
    "A\t1\tthe cat sat on the mat\tthe cat sat on the mat\t0.9\n"
    "A\t2\ta dog\tthe dog ran away\t0.2\n"
    "B\t1\tcat on mat\tthe cat sat on the mat\t0.3\n"
    "B\t2\tthe dog ran off\tthe dog ran away\t0.6\n"
)


def test_bleu_signature_is_sentence_bleus_with_effective_order() -> None:
    judged = load_judged([("t.tsv", TABLE)], "human")
    bleu, chrf = score_metrics(judged, baselines=("bleu", "chrf"))
    hyps = [h for _, hs in judged.corpus.systems for h in hs]
    refs = [r[0] for n, _ in judged.corpus.systems for r in judged.corpus.refs_of(n)]
    sentence, corpus, chrf_metric = BLEU(effective_order=True), BLEU(), CHRF()
    sentence.sentence_score(hyps[0], [refs[0]])  # sacreBLEU signs only after a computation
    corpus.corpus_score(hyps, [refs])
    chrf_metric.corpus_score(hyps, [refs])
    segment, system = bleu.signature.split("; system: ")
    assert segment == sentence.get_signature().format()
    assert "eff:yes" in segment and "eff:no" in system
    assert system == corpus.get_signature().format()
    expected = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert list(bleu.segment) == pytest.approx(expected, abs=1e-12)
    assert chrf.signature == chrf_metric.get_signature().format()  # one computation, one signature
