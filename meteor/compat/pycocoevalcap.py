"""pycocoevalcap 1.2's ``Meteor`` scorer, without Java.

``from meteor.compat.pycocoevalcap import Meteor`` replaces
``from pycocoevalcap.meteor.meteor import Meteor``:
``Meteor().compute_score(gts, res)`` returns ``(corpus_score, per_image_scores)``
with the floats pycocoevalcap gets from its Meteor 1.5 jar (``java -jar meteor-1.5.jar
- - -stdio -l en -norm``), reproduced step by step as docs/compat.md describes.
"""

from __future__ import annotations

import functools
import math
import re
import threading
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path

from meteor.memo import ByteBoundedMemo
from meteor.metric import CHAR_BYTES, MAX_TOKENS, TOKEN_BYTES
from meteor.metric import Meteor as _Scorer
from meteor.params import Params
from meteor.scoring import compute
from meteor.stats import Stats
from meteor.text import normalize
from meteor.types import MeteorResult, Token

__all__ = ["Meteor", "jar_fields", "java_pow", "jar_score"]

_JAVA_POW_TABLE = Path(__file__).resolve().parent / "data" / "java_pow_b0.2.tsv"

_PARTS = re.compile(r"\|\|\|")
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))  # String.trim(): every char <= U+0020
_LINE_BREAK = re.compile(r"[\r\n]")


def jar_fields(hypothesis: str, references: Sequence[str]) -> tuple[str, list[str]]:
    """(hypothesis, references) as the jar receives them from pycocoevalcap's ``_stat``.

    Raises:
        ValueError: a line break in a caption (the jar reads one line per request).
    """
    for text in (hypothesis, *references):
        if _LINE_BREAK.search(text):
            raise ValueError(
                f"caption {text[:60]!r} contains a line break: pycocoevalcap's Meteor "
                "jar reads one line per request, so it would score the wrong text"
            )
    hyp = hypothesis.replace("|||", "").replace("  ", " ")
    line = " ||| ".join(("SCORE", " ||| ".join(references), hyp))
    parts = _PARTS.split(line)
    while parts and parts[-1] == "":  # Java's String.split drops trailing empty strings
        parts.pop()
    return parts[-1].strip(_JAVA_TRIM), [p.strip(_JAVA_TRIM) for p in parts[1:-1]]


@functools.cache
def _java_pow_02() -> dict[float, float]:
    table: dict[float, float] = {}
    for line in _JAVA_POW_TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            c, m2, value = line.split("\t")
            table[int(c) / (int(m2) / 2)] = float.fromhex(value)
    return table


def java_pow(frag: float, beta: float) -> float:
    """Java's ``Math.pow(frag, beta)`` for Meteor's fragmentation, as the jar computes it.

    HotSpot's ``Math.pow`` and C's ``pow`` differ in the last bit for about one argument
    in a thousand: for β = 0.2 (pycocoevalcap's task) the differing values of every
    fragmentation with up to 1,200 matched words, measured on OpenJDK 17
    (``tools/make_java_pow_table.py``), are used; everything else is ``math.pow``.
    """
    if beta == 0.2:
        value = _java_pow_02().get(frag)
        if value is not None:
            return value
    return math.pow(frag, beta)


def jar_score(stats: Stats, params: Params) -> float:
    """``MeteorScorer.computeMetrics``'s score with Java's ``Math.pow`` (:func:`java_pow`)."""
    return compute(stats, params, power=java_pow).score


class _StdioScorer(_Scorer):
    """The ``meteor-1.5`` scorer on raw jar input: no control-character sanitising (its
    own token memo: the shared one holds sanitised tokens)."""

    def __init__(self) -> None:
        super().__init__("meteor-1.5")
        self._tok_cache = ByteBoundedMemo()  # under the process's memo budget (meteor.memo)

    def tokenize(self, text: str, *, what: str = "the text") -> tuple[Token, ...]:
        cached = self._tok_cache.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        toks = super().tokenize(text, what=what)  # type, length and surrogate checks
        if normalize.sanitize(text)[1]:  # C0 controls: the jar's normaliser makes them tokens
            toks = normalize.tokenize(text, "en", "meteor", function_word=self._function_word)
            if len(toks) > MAX_TOKENS:
                raise ValueError(f"{what} has {len(toks):,} tokens; at most {MAX_TOKENS:,}")
            self._tok_cache.put(text, toks, TOKEN_BYTES * len(toks) + CHAR_BYTES * len(text))
        return toks


class Meteor:
    """Drop-in for ``pycocoevalcap.meteor.meteor.Meteor`` (1.2), in pure Python.

    Thread-safe like the original (one lock around ``compute_score``).
    """

    def __init__(self) -> None:
        self._scorer = _StdioScorer()
        self.lock = threading.Lock()

    def compute_score(
        self,
        gts: Mapping[Hashable, Sequence[str]],
        res: Mapping[Hashable, Sequence[str]],
    ) -> tuple[float, list[float]]:
        """``(corpus score, [score of each image in gts.keys() order])``, as pycocoevalcap.

        Args:
            gts: image id → reference captions.
            res: image id → a list holding exactly one generated caption.

        Raises:
            AssertionError: different ids in ``gts`` and ``res``, or an image with other
                than one hypothesis (pycocoevalcap's own asserts).
            ValueError: a caption with a line break, or one the scorer refuses (too long).
        """
        assert gts.keys() == res.keys()
        hyps: list[str] = []
        refs: list[list[str]] = []
        for i in gts.keys():
            assert len(res[i]) == 1
            hyp, rs = jar_fields(res[i][0], gts[i])
            hyps.append(hyp)
            refs.append(rs)
        with self.lock:
            segments = self._scorer.score_segments(hyps, refs, candidates=False)
            corpus = self._scorer.combine(segments)
        params = self._scorer.params
        return jar_score(corpus.stats, params), [jar_score(s.stats, params) for s in segments]

    def segments(
        self,
        gts: Mapping[Hashable, Sequence[str]],
        res: Mapping[Hashable, Sequence[str]],
    ) -> list[MeteorResult]:
        """The full records (alignment, statistics) behind :meth:`compute_score`'s scores.

        A record's ``score`` uses C's ``pow``; :func:`jar_score` of its ``stats`` is the
        number :meth:`compute_score` reports (they differ by an ulp for ~0.1 % of segments).
        """
        assert gts.keys() == res.keys()
        pairs = [jar_fields(res[i][0], gts[i]) for i in gts.keys()]
        with self.lock:
            return self._scorer.score_segments(
                [h for h, _ in pairs], [r for _, r in pairs], candidates=False
            )

    def method(self) -> str:
        return "METEOR"
