"""METEOR as HF evaluate computes it, from the METEOR alignment workbench (offline).

Load with ``evaluate.load(meteor.compat.evaluate.MODULE_PATH)``; ``compute`` takes
HF's ``predictions``, ``references`` (strings, or lists of strings), ``alpha``,
``beta`` and ``gamma`` and returns ``{"meteor": ...}``, the same number as
``evaluate.load("meteor")`` without nltk downloads.
"""

import datasets
import evaluate

from meteor.compat.evaluate import compute as _compute

_DESCRIPTION = """METEOR (Banerjee & Lavie, 2005) as HF evaluate's `meteor` metric computes it
(nltk.word_tokenize + nltk.translate.meteor_score), reproduced offline by the METEOR
alignment workbench."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predictions (strings).
    references: one reference string per prediction, or a list of references per prediction.
    alpha: weight of precision against recall (default 0.9).
    beta: shape of the fragmentation penalty (default 3).
    gamma: weight of the fragmentation penalty (default 0.5).
Returns:
    meteor: the mean of the per-prediction METEOR scores.
"""

_CITATION = """@inproceedings{banarjee2005,
  title = {{METEOR}: An Automatic Metric for {MT} Evaluation with Improved Correlation
           with Human Judgments},
  author = {Banerjee, Satanjeev and Lavie, Alon},
  booktitle = {ACL Workshop on Intrinsic and Extrinsic Evaluation Measures for MT
               and/or Summarization},
  year = {2005},
  pages = {65--72},
}"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class HfMeteor(evaluate.Metric):
    def _info(self):  # type: ignore[no-untyped-def]
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {
                        "predictions": datasets.Value("string", id="sequence"),
                        "references": datasets.Sequence(
                            datasets.Value("string", id="sequence"), id="references"
                        ),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Value("string", id="sequence"),
                        "references": datasets.Value("string", id="sequence"),
                    }
                ),
            ],
        )

    def _compute(self, predictions, references, alpha=0.9, beta=3, gamma=0.5):  # type: ignore[no-untyped-def]
        return _compute(
            predictions=predictions, references=references, alpha=alpha, beta=beta, gamma=gamma
        )
