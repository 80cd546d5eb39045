"""Every measure named exactly in ``correlate``'s text and JSON (``kendall_tau_b``, ``tau_like``
for DARR, ``pearson``, ``spearman``; flattened / by item), 4 decimals in text, and
``--sided one|two`` for PERM-BOTH and Williams' test with the default stated."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import correlate, load_judged
from meteor.errors import InputError

TABLE = (
    "system\tseg_id\thyp\tref\thuman_score\thuman_raw\tcomet\n"
    "A\t1\tthe cat sat\tthe cat sat\t0.1\t90\t0.9\n"
    "B\t1\ta cat sat\tthe cat sat\t0.2\t65\t0.5\n"
    "C\t1\tcat\tthe cat sat\t0.3\t40\t0.1\n"
    "A\t2\ta dog ran\ta dog ran\t0.5\t70\t0.2\n"
    "B\t2\tthe dog ran\ta dog ran\t0.4\t45\t0.8\n"
    "C\t2\tdog\ta dog ran\t0.3\t80\t0.4\n"
    "A\t3\tit rains\tit rains today\t0.6\t85\t0.7\n"
    "B\t3\train today\tit rains today\t0.1\t30\t0.3\n"
    "C\t3\tit is raining today\tit rains today\t0.2\t50\t0.6\n"
)


def test_json_names_every_measure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from meteor.cli.command_line import main

    path = tmp_path / "t.tsv"
    path.write_text(TABLE, encoding="utf-8")
    argv = ["correlate", "--hyp", str(path), "--human-column", "human_score", "--preset",
            "nltk", "--metric-column", "comet", "--bootstrap", "10", "--permutations", "10"]  # fmt: skip
    assert main([*argv, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record["metrics"][0]["segment"]) == {
        "kendall_tau_b_flattened", "kendall_tau_b_by_item", "pearson_flattened",
        "pearson_by_item", "spearman_flattened", "spearman_by_item", "tau_like_flattened",
        "tau_like_by_item_pair_weighted",
    }  # fmt: skip
    assert set(record["metrics"][0]["system"]) == {"pearson", "kendall_tau_b"}
    assert record["comparisons"][0]["measure"] == "kendall_tau_b_flattened"
    assert record["significance"]["sided"] == "two"
    assert "two-sided (the default" in record["significance"]["method"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    for name in ("kendall_tau_b", "tau_like (DARR)", "pearson", "spearman"):
        assert name in text
    assert "two-sided (the default" in text
    row = next(line for line in text.splitlines() if line.startswith("nltk           pearson"))
    assert re.search(r" -?\d\.\d{4} \[-?\d\.\d{4}, -?\d\.\d{4}\]", row)


def test_one_sided_tests() -> None:
    judged = load_judged([("t.tsv", TABLE)], "human_score", metric_columns=["comet"])
    kw = {"presets": (), "baselines": ("chrf",), "n_bootstrap": 10, "n_permutations": 200}
    two = correlate(judged, **kw)  # type: ignore[arg-type]
    one = correlate(judged, sided="one", **kw)  # type: ignore[arg-type]
    (c2,), (c1,) = two.comparisons, one.comparisons
    assert c1.williams_segment is not None and c2.williams_segment is not None
    assert c1.williams_segment[1] == pytest.approx(c2.williams_segment[1] / 2)
    assert c1.delta == c2.delta and c1.p_value <= c2.p_value
    assert one.to_dict()["significance"]["sided"] == "one"
    with pytest.raises(InputError, match="sided must be 'one' or 'two'"):
        correlate(judged, sided="both", **kw)  # type: ignore[arg-type]


def test_one_sided_perm_both_counts_the_observed_direction_only() -> None:
    rng = np.random.default_rng(3)
    human = rng.normal(size=200)
    items = np.repeat(np.arange(50), 4)
    data = st.SegmentData.build(human, items)
    a = human + rng.normal(scale=0.8, size=200)
    b = human + rng.normal(scale=1.2, size=200)
    d2, p2 = st.perm_both("pearson_flat", data, a, b, 300, 5)
    d1, p1 = st.perm_both("pearson_flat", data, a, b, 300, 5, sided="one")
    e1, q1 = st.perm_both("pearson_flat", data, b, a, 300, 5, sided="one")
    assert d1 == d2 == -e1 and p1 <= p2
    assert q1 == pytest.approx(p1)  # the direction observed, whichever order is given
