"""Agreement with people, issue 34's missing parts: a separate scores file joined on
(system, seg_id) with every unjoined row reported, pairwise judgement files (WMT's DARR
format too) → τ-like on the given pairs, Williams' test of two dependent Pearson
correlations, and ``--preset-file`` on ``reconcile`` and ``report``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import correlate, load_judged
from meteor.errors import InputError
from meteor.io.scores import read_pairs, read_scores

# Three systems on three segments; the human and a metric column ("comet") per row.
OUTPUTS = (
    "system\tseg_id\thyp\tref\n"
    "A\t1\tthe cat sat on the mat\tthe cat sat on the mat\n"
    "A\t2\ta dog\tthe dog barked loudly\n"
    "A\t3\tit rains today\tit is raining today\n"
    "B\t1\ta cat on a mat\tthe cat sat on the mat\n"
    "B\t2\tthe dog barked\tthe dog barked loudly\n"
    "B\t3\train\tit is raining today\n"
    "C\t1\tcat\tthe cat sat on the mat\n"
    "C\t2\tdog barked loudly\tthe dog barked loudly\n"
    "C\t3\tit is raining\tit is raining today\n"
)
HUMAN = {("A", "1"): 90, ("A", "2"): 40, ("A", "3"): 70, ("B", "1"): 60, ("B", "2"): 80,
         ("B", "3"): 20, ("C", "1"): 10, ("C", "2"): 95, ("C", "3"): 85}  # fmt: skip
COMET = {("A", "1"): 0.9, ("A", "2"): 0.4, ("A", "3"): 0.6, ("B", "1"): 0.5, ("B", "2"): 0.8,
         ("B", "3"): 0.1, ("C", "1"): 0.2, ("C", "2"): 0.7, ("C", "3"): 0.9}  # fmt: skip


def _scores_tsv(keys: list[tuple[str, str]]) -> str:
    rows = [f"{s}\t{g}\t{HUMAN.get((s, g), 50)}\t{COMET.get((s, g), 0.5)}" for s, g in keys]
    return "system\tseg_id\thuman\tcomet\n" + "\n".join(rows) + "\n"


def _inline() -> str:
    """OUTPUTS with the human and comet columns in the rows."""
    lines = OUTPUTS.splitlines()
    out = [lines[0] + "\thuman\tcomet"]
    for line in lines[1:]:
        s, g = line.split("\t")[:2]
        out.append(f"{line}\t{HUMAN[(s, g)]}\t{COMET[(s, g)]}")
    return "\n".join(out) + "\n"


KW = {"presets": (), "n_bootstrap": 50, "n_permutations": 50}


# --------------------------------------------------------------------------- 1. scores file


def test_scores_file_joined_equals_the_same_columns_inline() -> None:
    keys = [(s, g) for s in "ABC" for g in "123"][::-1]  # another order: joined by key
    joined = load_judged([("out.tsv", OUTPUTS)], "human", metric_columns=["comet"],
                         scores=[("human.tsv", _scores_tsv(keys))])  # fmt: skip
    inline = load_judged([("all.tsv", _inline())], "human", metric_columns=["comet"])
    a = correlate(joined, **KW).to_dict()  # type: ignore[arg-type]
    b = correlate(inline, **KW).to_dict()  # type: ignore[arg-type]
    assert a["metrics"] == b["metrics"] and a["comparisons"] == b["comparisons"]
    (join,) = a["joins"]
    assert join == {"what": "scores", "sources": ["human.tsv"], "joined": 9, "unscored": 0,
                    "unscored_ids": [], "unused": 0, "unused_ids": []}  # fmt: skip


def test_scores_file_every_unjoined_row_is_reported_and_measures_use_the_joined() -> None:
    keys = [(s, g) for s in "ABC" for g in "123" if (s, g) not in {("B", "2"), ("C", "3")}]
    keys += [("D", "1"), ("A", "7")]  # no such outputs
    judged = load_judged([("out.tsv", OUTPUTS)], "human", metric_columns=["comet"],
                         scores=[("human.tsv", _scores_tsv(keys))])  # fmt: skip
    (join,) = judged.joins
    assert (join.joined, join.unscored, join.unused) == (7, 2, 2)
    assert join.unscored_ids == ("B/2", "C/3") and join.unused_ids == ("A/7", "D/1")
    message = join.message()
    assert "2 output(s)" in message and "'B/2'" in message and "'A/7'" in message
    assert "\n" not in message
    assert judged.corpus.ids_of("B") == ("1", "3") and judged.corpus.ids_of("C") == ("1", "2")
    a = correlate(judged, **KW)  # type: ignore[arg-type]
    assert a.n_rows == 7
    rows = [k for k in keys if k in HUMAN]
    order = sorted(rows, key=lambda k: ("ABC".index(k[0]), k[1]))
    expected = scipy.stats.kendalltau([HUMAN[k] for k in order], [COMET[k] for k in order])
    assert a.metric("comet").seg("kendall_flat").value == pytest.approx(expected.statistic)
    assert json.loads(json.dumps(a.to_dict()))["joins"][0]["unused_ids"] == ["A/7", "D/1"]


def test_scores_file_nothing_joins_or_a_repeated_row_is_one_line_error() -> None:
    with pytest.raises(InputError, match=r"0 rows joined.*check the system names"):
        load_judged([("out.tsv", OUTPUTS)], "human",
                    scores=[("h.tsv", _scores_tsv([("X", "1"), ("Y", "2")]))])  # fmt: skip
    twice = _scores_tsv([("A", "1"), ("A", "1")])
    with pytest.raises(InputError, match=r"segment id '1' is on lines 2 and 3"):
        read_scores(twice, "h.tsv", ["human"])


def test_cli_correlate_scores_reports_unjoined_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor.cli.command_line import main

    out = tmp_path / "out.tsv"
    out.write_text(OUTPUTS, encoding="utf-8")
    human = tmp_path / "human.tsv"
    keys = [(s, g) for s in "ABC" for g in "123" if (s, g) != ("A", "2")] + [("Z", "9")]
    human.write_text(_scores_tsv(keys), encoding="utf-8")
    argv = ["correlate", "--hyp", str(out), "--scores", str(human), "--human-column", "human",
            "--metric-column", "comet", "--preset", "nltk", "--bootstrap", "20",
            "--permutations", "20", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["rows"] == 8 and record["joins"][0]["unscored_ids"] == ["A/2"]
    assert "1 output(s) of the corpus have no score" in captured.err
    assert "'Z/9'" in captured.err and "Traceback" not in captured.err


# --------------------------------------------------------------------------- 2. pairs


PAIRS = (
    "seg_id\tbetter_system\tworse_system\n"
    "1\tA\tB\n"  # comet 0.9 > 0.5: concordant
    "1\tA\tC\n"  # 0.9 > 0.2: concordant
    "1\tB\tC\n"  # 0.5 > 0.2: concordant
    "2\tB\tA\n"  # 0.8 > 0.4: concordant
    "3\tB\tA\n"  # 0.1 < 0.6: discordant
)


def test_pairs_tau_like_flattened_and_grouped_on_a_hand_case() -> None:
    judged = load_judged([("out.tsv", _inline())], None, metric_columns=["comet"],
                         pairs=[("pairs.tsv", PAIRS)])  # fmt: skip
    assert judged.human is None and judged.pairs is not None and len(judged.pairs) == 5
    a = correlate(judged, **KW)  # type: ignore[arg-type]
    comet = a.metric("comet")
    assert [k for k, _ in comet.segment] == ["darr_flat", "darr_item"] and comet.system == ()
    # flattened: (4 concordant − 1 discordant) / 5; by item, pair-weighted (WMT's DARR):
    # items 1, 2, 3 with τ 1, 1, −1 and 3, 1, 1 pairs → (3 + 1 − 1) / 5, the pooled value
    assert comet.seg("darr_flat").value == pytest.approx(3 / 5)
    assert comet.seg("darr_item").value == pytest.approx(3 / 5)
    assert comet.seg("darr_flat").n == 5 and comet.seg("darr_item").n == 3
    e = comet.seg("darr_flat")
    assert e.low <= e.value <= e.high
    record = a.to_dict()
    assert record["darr"]["pairs_file"] == "pairs.tsv" and record["darr"]["pairs"] == 5


def test_pairs_reuse_the_darr_code_same_as_darr_built_pairs() -> None:
    """The pairs a DA column gives under WMT's rule, written as a pairs file, give the
    very same τ-like values and intervals as the DARR pairs built from the column."""
    judged = load_judged([("all.tsv", _inline())], "human", metric_columns=["comet"])
    darr = correlate(judged, darr_threshold=25.0, **KW)  # type: ignore[arg-type]
    lines = ["seg_id\tbetter_system\tworse_system"]
    for g in "123":
        for s in "ABC":
            for t in "ABC":
                if HUMAN[(s, g)] - HUMAN[(t, g)] > 25:
                    lines.append(f"{g}\t{s}\t{t}")
    given = load_judged([("all.tsv", _inline())], "human", metric_columns=["comet"],
                        pairs=[("p.tsv", "\n".join(lines) + "\n")])  # fmt: skip
    from_file = correlate(given, **KW)  # type: ignore[arg-type]
    for key in ("darr_flat", "darr_item"):
        assert from_file.metric("comet").seg(key) == darr.metric("comet").seg(key)
    assert from_file.n_darr_pairs == darr.n_darr_pairs == len(lines) - 1


def test_wmt_darr_file_and_unjoined_pairs_reported() -> None:
    wmt = (
        "LP DATA SID BETTER WORSE\n"
        "ru-en newstest2021 1 A B\n"
        "ru-en newstest2021 3 B A\n"
        "ru-en newstest2021 2 A Online-X\n"  # no such system: unused, reported
    )
    assert read_pairs(wmt, "DArr-seglevel.csv") == [("1", "A", "B"), ("3", "B", "A"),
                                                    ("2", "A", "Online-X")]  # fmt: skip
    judged = load_judged([("all.tsv", _inline())], "human", pairs=[("darr.csv", wmt)])
    (join,) = judged.joins
    assert (join.what, join.joined, join.unused) == ("pairs", 2, 1)
    assert "'2: A > Online-X'" in join.message()
    with pytest.raises(InputError, match="2 language pairs"):
        read_pairs(wmt + "de-en newstest2021 1 A B\n", "d.csv")
    with pytest.raises(InputError, match="needs the columns seg_id, better_system"):
        read_pairs("seg\twinner\tloser\n1\tA\tB\n", "p.tsv")
    with pytest.raises(InputError, match="both better and worse"):
        read_pairs("seg_id,better,worse\n1,A,A\n", "p.csv")


def test_cli_correlate_pairs_only_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from meteor.cli.command_line import main

    out = tmp_path / "out.tsv"
    out.write_text(_inline(), encoding="utf-8")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(PAIRS, encoding="utf-8")
    argv = ["correlate", "--hyp", str(out), "--pairs", str(pairs), "--metric-column", "comet",
            "--baseline", "chrf", "--preset", "nltk", "--bootstrap", "20", "--permutations", "20"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "tau_like (pairs)" in text and "judged pairs from" in text and "system-level" not in text
    assert "kendall" not in text and "tau_like_flattened, PERM-BOTH" in text
    assert main(["correlate", "--hyp", str(out)]) == 2
    err = capsys.readouterr().err
    assert "give --human-column, or pairwise judgements with --pairs" in err


# --------------------------------------------------------------------------- 3. Williams


def test_scipy_has_no_williams_test() -> None:
    assert not [n for n in dir(scipy.stats) if "williams" in n.lower()]


def test_williams_known_example_steiger_case_a() -> None:
    # psych::r.test(103, .4, .5, .1), "Steiger Case A" (Steiger 1980): t = -0.89, p = 0.37.
    t, p = st.williams(0.4, 0.5, 0.1, 103)
    assert t == pytest.approx(-0.89, abs=0.005) and p == pytest.approx(0.37, abs=0.005)


def test_williams_algebraic_limits() -> None:
    assert st.williams(0.3, 0.3, 0.5, 50) == (0.0, 1.0)
    t1, p1 = st.williams(0.6, 0.4, 0.5, 80)
    t2, p2 = st.williams(0.4, 0.6, 0.5, 80)
    assert t1 == pytest.approx(-t2) and p1 == pytest.approx(p2) and t1 > 0
    # r12 + r13 = 0: Williams' t is Hotelling's (1940) t, (r12 − r13)·√((n−3)(1+r23)/(2K))
    r12, r13, r23, n = 0.3, -0.3, 0.2, 40
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    hotelling = (r12 - r13) * math.sqrt((n - 3) * (1 + r23) / (2 * k))
    assert st.williams(r12, r13, r23, n)[0] == pytest.approx(hotelling, rel=1e-12)
    # the same correlations on more rows are more significant
    assert st.williams(0.6, 0.4, 0.5, 400)[1] < p1
    assert all(math.isnan(x) for x in st.williams(0.6, 0.4, 0.5, 3))


def test_williams_rejects_five_percent_under_the_null_monte_carlo() -> None:
    rng = np.random.default_rng(2024)
    cov = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.6], [0.5, 0.6, 1.0]])  # ρ12 = ρ13
    n, reps = 30, 3000
    rejected = 0
    for _ in range(reps):
        x = rng.multivariate_normal(np.zeros(3), cov, size=n)
        r = np.corrcoef(x.T)
        rejected += st.williams(r[0, 1], r[0, 2], r[1, 2], n)[1] < 0.05
    assert 0.04 <= rejected / reps <= 0.06  # binomial sd ≈ 0.004


def test_williams_is_reported_beside_perm_both_segment_and_system() -> None:
    judged = load_judged([("all.tsv", _inline())], "human", metric_columns=["comet"])
    a = correlate(judged, presets=(), baselines=("chrf",), n_bootstrap=20, n_permutations=20)
    (c,) = a.comparisons
    human = [HUMAN[(s, g)] for s in "ABC" for g in "123"]
    chrf, comet = (np.asarray(a_.segment) for a_ in _scores(judged))
    expected = st.williams(st.pearson(human, chrf), st.pearson(human, comet),
                           st.pearson(chrf, comet), 9)  # fmt: skip
    assert c.williams_segment == pytest.approx(expected)
    assert c.williams_system is not None and len(c.williams_system) == 2
    record = c.to_dict()["williams_pearson"]
    assert record["segment_flat"]["t"] == pytest.approx(expected[0])


def _scores(judged: object) -> list:  # type: ignore[type-arg]
    from meteor.analysis.agreement import score_metrics

    return score_metrics(judged, baselines=("chrf",))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- 4. --preset-file


def _preset_file(tmp_path: Path, alpha: float = 0.5) -> Path:
    from meteor.presets import PRESETS

    params = PRESETS["nltk"].params.to_dict()
    params["alpha"] = alpha
    doc = {"format": "meteor-preset", "version": 1, "name": "mine", "description": "",
           "params": params, "tuned_on": {"data": "toy.tsv"}}  # fmt: skip
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_cli_reconcile_from_and_to_preset_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor.cli.command_line import main

    tuned = _preset_file(tmp_path)
    pair = ["--hyp", "the cat sat on a mat", "--ref", "a cat sat on the mat", "-f", "json"]
    assert main(["reconcile", "--from", "nltk", "--to-file", str(tuned), *pair]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["from"] == "nltk" and record["to"].startswith("mine@")
    assert [s["changes"] for s in record["steps"]] == [{"alpha": [0.9, 0.5]}]
    assert main(["reconcile", "--from-file", str(tuned), "--to", "nltk", *pair]) == 0
    assert json.loads(capsys.readouterr().out)["from"].startswith("mine@")
    assert main(["reconcile", "--from", "nltk", "--to", "hf", "--to-file", str(tuned), *pair]) == 2
    assert "give --to PRESET or --to-file PRESET.json (one of them)" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["reconcile", "--from", "nltk", "--to-file", str(bad), *pair]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "field 'format'" in err and err.count("\n") == 1


def test_cli_report_preset_file_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor.cli.command_line import main

    tuned = _preset_file(tmp_path, 0.6)
    out = tmp_path / "out.tsv"
    out.write_text(OUTPUTS, encoding="utf-8")
    rep = tmp_path / "rep"
    argv = ["report", "--hyp", str(out), "--out", str(rep), "--format", "json",
            "--bootstrap", "40", "--preset-file", str(tuned)]  # fmt: skip
    assert main(argv) == 0
    text = (rep / "report.json").read_text(encoding="utf-8")
    assert "preset:mine@" in text and "tuned-on:toy.tsv" in text and "|a:0.6|" in text
    assert main([*argv, "--preset", "nltk"]) == 2
    assert "give --preset or --preset-file, not both" in capsys.readouterr().err
