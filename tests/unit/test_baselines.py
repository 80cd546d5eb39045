"""The sacreBLEU baselines (meteor.analysis.baselines): sacreBLEU's own numbers with one
process or two, and a second run on the same texts read from the cache folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from meteor.analysis import baselines as bl
from meteor.analysis.agreement import load_judged, score_metrics
from meteor.analysis.judged import Judged
from meteor.runners import parallel

DEMO = Path(bl.__file__).resolve().parents[1] / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
NAMES = ("chrf", "chrf++", "bleu")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("METEOR_CACHE_DIR", str(tmp_path))
    return tmp_path / bl.CACHE_FOLDER


@pytest.fixture(scope="module")
def judged() -> Judged:
    return load_judged([(DEMO.name, DEMO.read_bytes())], "human_score")


def _expected(judged: Judged) -> dict[str, tuple[list[float], list[float]]]:
    """Each baseline's segment and system scores from sacreBLEU called directly."""
    corpus = judged.corpus
    out: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in NAMES}
    for name, hyps in corpus.systems:
        refs = [r[0] for r in corpus.refs_of(name)]
        for h, r in zip(hyps, refs, strict=True):
            out["chrf"][0].append(sacrebleu.sentence_chrf(h, [r]).score)
            out["chrf++"][0].append(sacrebleu.sentence_chrf(h, [r], word_order=2).score)
            out["bleu"][0].append(sacrebleu.sentence_bleu(h, [r]).score)
        out["chrf"][1].append(CHRF().corpus_score(list(hyps), [refs]).score)
        out["chrf++"][1].append(CHRF(word_order=2).corpus_score(list(hyps), [refs]).score)
        out["bleu"][1].append(BLEU().corpus_score(list(hyps), [refs]).score)
    return out


@pytest.mark.parametrize("workers", [1, 2])
def test_scores_are_sacrebleus_own(
    judged: Judged, cache: Path, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: list[int] = []
    run = parallel.run_in_workers

    def counted(*args: Any, **kwargs: Any) -> None:
        pools.append(kwargs["workers"])
        run(*args, **kwargs)

    monkeypatch.setattr(parallel, "run_in_workers", counted)
    assert sum(len(h) for _, h in judged.corpus.systems) >= bl.MIN_PARALLEL_ROWS
    got = score_metrics(judged, baselines=NAMES, workers=workers)
    assert pools == ([] if workers == 1 else [2])  # two processes did the work
    expected = _expected(judged)
    for m in got:
        segment, system = expected[m.name]
        assert list(m.segment) == segment  # the same floats, bit for bit
        assert list(m.system) == system
        assert m.kind == "baseline"
        assert m.systems == tuple(n for n, _ in judged.corpus.systems)
    assert "eff:yes" in got[2].signature and "eff:no" in got[2].signature


def test_second_run_reads_the_cache(
    judged: Judged, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = score_metrics(judged, baselines=NAMES, workers=1)
    assert len(list(cache.glob("*.bin"))) == 3  # one file per (corpus, baseline signature)
    scored: list[int] = []  # hypotheses scored by sacreBLEU (beyond the signature's "a")
    for cls in (CHRF, BLEU):
        for method in ("sentence_score", "corpus_score"):
            real = getattr(cls, method)

            def spy(self: Any, hyp: Any, refs: Any, *a: Any, _real: Any = real) -> Any:
                if hyp not in ("a", ["a"]):
                    scored.append(1)
                return _real(self, hyp, refs, *a)

            monkeypatch.setattr(cls, method, spy)
    again = score_metrics(judged, baselines=NAMES, workers=1)
    assert scored == []  # nothing scored again
    assert again == first  # segment and system scores, signatures: equal
    # another text: another digest, scored again (and its own file)
    corpus = judged.corpus
    name, hyps = corpus.systems[0]
    changed = load_judged(
        [(DEMO.name, DEMO.read_text(encoding="utf-8").replace(hyps[0], hyps[0] + " extra", 1))],
        "human_score",
    )
    score_metrics(changed, baselines=("chrf",), workers=1)
    assert scored
    assert len(list(cache.glob("*.bin"))) == 4


def test_damaged_cache_file_is_scored_again(judged: Judged, cache: Path) -> None:
    (first,) = score_metrics(judged, baselines=("bleu",), workers=1)
    (path,) = cache.glob("*.bin")
    data = path.read_bytes()
    path.write_bytes(data[:-3] + b"\x00\x00\x00")  # the CRC-32 no longer agrees
    (again,) = score_metrics(judged, baselines=("bleu",), workers=1)
    assert again == first
    assert path.read_bytes() == data  # written again, whole


def test_variable_references_are_sacrebleus_own(cache: Path) -> None:
    """Segments with one, two or three references (a set shared by several systems, one
    system covering part of the segments): each segment score is ``sentence_chrf``/
    ``sentence_bleu``'s with its own references, each system's ``corpus_score``'s with one
    stream per reference (a shorter set repeating its first)."""
    from meteor.io.read import Corpus

    refs = (
        ("The cat sat on the mat.", "A cat was sitting on the mat.", "On the mat sat a cat."),
        ("It rained all day long.",),
        ("He plays the piano well.", "He is a good pianist."),
        ("Prices rose sharply in May.",),
    )
    hyps = {
        "a": ("the cat is on the mat", "it was raining all day", "he plays piano well", "prices rose"),
        "b": ("A cat sat on a mat.", "Rain all day.", "He is good at the piano.", "In May prices rose sharply."),
        "c": ("The mat had a cat on it.", "He plays the piano well."),
    }  # fmt: skip
    corpus = Corpus(
        tuple(hyps.items()), refs, ("1", "2", "3", "4"), coverage=((0, 1, 2, 3),) * 2 + ((0, 2),)
    )
    judged = Judged(corpus, {k: [0.0] * len(v) for k, v in hyps.items()})
    got = {m.name: m for m in score_metrics(judged, baselines=NAMES, workers=1)}
    classes = {"chrf": (CHRF, {}), "chrf++": (CHRF, {"word_order": 2}), "bleu": (BLEU, {})}
    for name, (cls, kwargs) in classes.items():
        segment: list[float] = []
        system: list[float] = []
        for sys_name, sys_hyps in corpus.systems:
            sys_refs = [tuple(r) for r in corpus.refs_of(sys_name)]
            sentence = cls(**kwargs, **({"effective_order": True} if cls is BLEU else {}))
            segment += [
                sentence.sentence_score(h, list(r)).score
                for h, r in zip(sys_hyps, sys_refs, strict=True)
            ]
            streams = [[r[i] if i < len(r) else r[0] for r in sys_refs] for i in range(3)]
            system.append(cls(**kwargs).corpus_score(list(sys_hyps), streams).score)
        assert list(got[name].segment) == segment, name
        assert list(got[name].system) == system, name
        assert len(set(segment)) > 3 and len(set(system)) == 3  # the check can tell them apart


@pytest.mark.parametrize("names", [("chrf",), ("chrf++", "chrf"), ("chrf", "bleu")])
def test_chrf_alone_or_beside_chrf_plus_is_sacrebleus_own(
    judged: Judged, cache: Path, names: tuple[str, ...]
) -> None:
    """chrF takes chrF++'s character statistics when both are asked for (one reference a
    segment), and extracts its own otherwise: the same numbers either way, in any order."""
    expected = _expected(judged)
    for m in score_metrics(judged, baselines=names, workers=1):
        assert (list(m.segment), list(m.system)) == expected[m.name]
