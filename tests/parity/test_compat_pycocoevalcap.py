"""``meteor.compat.pycocoevalcap.Meteor`` against the real pycocoevalcap 1.2 and its jar.

The oracle is ``pycocoevalcap.meteor.meteor.Meteor`` itself (installed from
requirements.txt, jar included), which runs ``java -jar meteor-1.5.jar - - -stdio
-l en -norm``: a dev/test oracle, never part of the product.  It needs ``java``;
without it the test skips locally and **fails** under ``CI=true``
(``.ci/run`` installs ``default-jre-headless`` when java is missing).

Data: caption-like multi-reference items built from WMT21 ru→en (10 systems, 2
human references): each item's hypothesis is one system's output, its five
references the two human translations and three other systems' outputs, as
COCO's five captions per image; plus hostile strings.
"""

from __future__ import annotations

import csv
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_DATA, require_shared
from test_hf_preset import HOSTILE

from meteor import Meteor as Scorer
from meteor.compat.pycocoevalcap import Meteor, jar_fields, java_pow


def caption_items(
    n_segments: int = 1000, per_segment: int = 2
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(gts, res): ``n_segments × per_segment`` items with five references each."""
    path = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv")
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    second = (
        require_shared(SHARED_DATA / "wmt21_ru-en_da" / "ref_B.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    by_seg: dict[int, list[str]] = defaultdict(list)
    human: dict[int, str] = {}
    for r in rows:
        seg = int(r["seg_id"])
        by_seg[seg].append(r["hyp"])
        human[seg] = r["ref"]
    gts: dict[str, list[str]] = {}
    res: dict[str, list[str]] = {}
    for seg in sorted(by_seg)[:n_segments]:
        outs = by_seg[seg]
        for k in range(per_segment):
            i = (seg + 3 * k) % len(outs)
            others = [outs[(i + d) % len(outs)] for d in (1, 4, 7)]
            key = f"{seg}-{k}"
            gts[key] = [human[seg], second[seg - 1], *others]
            res[key] = [outs[i]]
    return gts, res


def hostile_items() -> tuple[dict[Any, list[str]], dict[Any, list[str]]]:
    texts = [h for h in HOSTILE if "\n" not in h and "\r" not in h]
    texts += [
        "a ||| b", "|||", "||||", "|||||", "x|", "|x", "a||||b", "  double  spaces  ",
        "triple   spaces", "pipe | in | text", "\x00\x01 ctrl \x1f", "\x0bvt\x0b",
        "trail\x01", "\x02lead", "A man riding a horse .", "a MAN riding a horse",
    ]  # fmt: skip
    gts: dict[Any, list[str]] = {}
    res: dict[Any, list[str]] = {}
    for k, h in enumerate(texts):
        gts[k] = [texts[(k + 5) % len(texts)], h.upper(), h, "A man riding a horse ."]
        res[k] = [h]
        gts[("ref", k)] = [h, "a ||| b", "x"]  # hostile references (| split, trims)
        res[("ref", k)] = ["a man rides a horse"]
    gts["no refs"], res["no refs"] = [], ["a horse"]
    gts[7.5], res[7.5] = ["the same caption"], ["the same caption"]  # a perfect segment
    return gts, res


def need_java() -> None:
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java is not on PATH: the real pycocoevalcap oracle cannot run in CI")
        pytest.skip("java is not on PATH (apt-get install default-jre-headless)")


@pytest.fixture(scope="module")
def real_meteor() -> Any:
    need_java()
    from pycocoevalcap.meteor.meteor import Meteor as RealMeteor

    m = RealMeteor()
    yield m
    del m


def _compare(real: Any, gts: dict[Any, list[str]], res: dict[Any, list[str]]) -> int:
    expected = real.compute_score(gts, res)
    got = Meteor().compute_score(gts, res)
    assert got[0] == expected[0]
    same = sum(a == b for a, b in zip(got[1], expected[1], strict=True))
    bad = [(k, a, b) for k, a, b in zip(gts, got[1], expected[1], strict=True) if a != b]
    assert not bad, bad[:5]
    return same


def test_equals_real_pycocoevalcap_on_captions(real_meteor: Any) -> None:
    gts, res = caption_items()
    assert len(gts) == 2000 and all(len(r) == 5 for r in gts.values())
    same = _compare(real_meteor, gts, res)
    print(f"\npycocoevalcap drop-in: {same}/{len(gts)} image scores bit-identical, corpus equal")


def test_equals_real_pycocoevalcap_on_hostile_strings(real_meteor: Any) -> None:
    gts, res = hostile_items()
    _compare(real_meteor, gts, res)


def test_corpus_is_the_aggregate_not_the_mean() -> None:
    gts = {1: ["a cat sits on the mat"], 2: ["the dog runs in the park today"]}
    res = {1: ["a cat sits on the mat"], 2: ["dog park"]}
    corpus, scores = Meteor().compute_score(gts, res)
    scorer = Scorer("meteor-1.5")
    assert scores == [scorer.score(res[i][0], gts[i]).score for i in gts]
    total = scorer.corpus_score([res[i][0] for i in gts], [gts[i] for i in gts])
    assert corpus == total.score != sum(scores) / 2


def test_jar_fields() -> None:
    assert jar_fields("a  b ||| c", ["r1", "r2 ||| r3"]) == ("a b c", ["r1", "r2", "r3"])
    assert jar_fields("x", []) == ("x", [""])
    assert jar_fields("\x01 y \x02", [" \x1fr "]) == ("y", ["r"])
    with pytest.raises(ValueError, match="line break"):
        jar_fields("a\nb", ["r"])
    with pytest.raises(ValueError, match="line break"):
        jar_fields("a", ["r\rs"])


def test_pycocoevalcap_asserts_and_method() -> None:
    m = Meteor()
    assert m.method() == "METEOR"
    with pytest.raises(AssertionError):
        m.compute_score({1: ["a"]}, {2: ["a"]})
    with pytest.raises(AssertionError):
        m.compute_score({1: ["a"]}, {1: ["a", "b"]})
    assert [s.score for s in m.segments({1: ["a b"]}, {1: ["a b"]})] == [1.0]


def test_control_characters_are_tokens_as_in_the_jar() -> None:
    # pycocoevalcap sends captions raw: Meteor's normaliser makes each C0 control a token,
    # as the jar run on files does (and so the meteor-1.5 preset; test_edges_bytes.py)
    gts, res = {1: ["nul soh del"]}, {1: ["nul\x00soh\x01del"]}
    _, (score,) = Meteor().compute_score(gts, res)
    assert score < 1.0
    assert score == Scorer("meteor-1.5").score("nul\x00soh\x01del", "nul soh del").score


def test_java_pow_equals_the_jvm() -> None:
    """Every segment fragmentation with up to 300 matched words, against live Math.pow."""
    need_java()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from make_java_pow_table import JAVA

    pairs = [(c, m2) for m2 in range(2, 301) for c in range(1, m2 // 2 + 1)]
    src = Path(tempfile.mkdtemp()) / "JavaPow.java"
    src.write_text(JAVA, encoding="utf-8")
    out = subprocess.run(
        ["java", str(src)],
        input="".join(f"{c} {m2} 0.2\n" for c, m2 in pairs),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    java = [struct.unpack("<d", struct.pack("<q", int(b)))[0] for b in out]
    ours = [java_pow(c / (m2 / 2), 0.2) for c, m2 in pairs]
    assert ours == java
    differ = sum(j != math.pow(c / (m2 / 2), 0.2) for (c, m2), j in zip(pairs, java, strict=True))
    assert differ > 0  # the table is needed: C's pow differs from Java's somewhere
