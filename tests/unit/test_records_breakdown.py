"""Issue 32 item 8: the records hold one :class:`Breakdown`, never copies of its numbers.

``MeteorResult``, ``CorpusResult`` and the stream summary each keep the formula's
record (P, R, Fmean, frag, penalty, score) as one field; ``precision`` … ``score``
stay readable (and read-only) as properties of it, and the JSON form is unchanged.
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from meteor import CorpusResult, Meteor, MeteorResult, stats
from meteor.runners.transport import Decoder, encode
from meteor.scoring import Breakdown, compute

NUMBERS = ("precision", "recall", "fmean", "frag", "penalty", "score")


def _stream_summary() -> type:
    pytest.importorskip("distributed")
    from meteor.runners.cluster.stream import StreamSummary

    return StreamSummary


@pytest.mark.parametrize("cls", [MeteorResult, CorpusResult, "stream"])
def test_records_hold_one_breakdown_and_no_copies(cls: type | str) -> None:
    record = _stream_summary() if cls == "stream" else cls
    assert isinstance(record, type)
    names = [f.name for f in dataclasses.fields(record)]
    assert names.count("breakdown") == 1
    assert not set(NUMBERS) & set(names), "a number of the breakdown is copied beside it"


def test_breakdown_lives_with_the_records() -> None:
    assert Breakdown is getattr(
        stats, "Breakdown", None
    )  # meteor.scoring re-exports the records' type


def test_segment_and_corpus_numbers_read_their_breakdown() -> None:
    m = Meteor("meteor-1.5")
    hyps = ["the cat sat on the mat", "a dog barked", ""]
    refs = ["the cat is on the mat", "the dog was barking", "something"]
    r = m.score(hyps[0], refs[0])
    assert r.breakdown == compute(r.stats, m.params)
    for name in NUMBERS:
        assert getattr(r, name) is getattr(r.breakdown, name)
        with pytest.raises((AttributeError, TypeError)):  # frozen (TypeError: Python 3.11's
            setattr(r, name, 0.5)  # frozen slots dataclass on a name that is no field)
    c = m.corpus_score(hyps, refs)
    assert c.breakdown == compute(c.stats, m.params)
    assert [getattr(c, n) for n in NUMBERS] == [getattr(c.breakdown, n) for n in NUMBERS]
    d = r.to_dict()
    assert list(d)[:6] == ["score", "precision", "recall", "fmean", "frag", "penalty"]
    assert list(c.to_dict())[:7] == [
        "score",
        "mean_segment_score",
        "precision",
        "recall",
        "fmean",
        "frag",
        "penalty",
    ]
    # records still cross processes whole
    assert pickle.loads(pickle.dumps(r)) == r
    back = Decoder().decode(encode(r))
    assert back == r and back.breakdown == r.breakdown and hash(back) == hash(r)
