"""The report's significance options (issue 42, item 5): 10,000 randomisation trials by
default, one named test decides (``test="ar" | "bootstrap"``) after a multiple-comparison
correction (``correction="holm" | "bonferroni" | "none"``), and every output names both."""

from __future__ import annotations

import html
import inspect
import json
from pathlib import Path

import pytest

import meteor
from meteor.analysis.corpus_report import build_report, corpus_report
from meteor.analysis.ranking import DEFAULT_TRIALS, rank_systems
from meteor.analysis.report_text import latex_escape, to_json, to_latex, to_markdown
from meteor.cli.command_line import main
from meteor.io.read import load_corpus
from meteor.viz.report_html import to_html

DEMO = Path(meteor.__file__).parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
SAMPLES, TRIALS = 200, 2000


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, meteor.CorpusResult], meteor.Meteor]:
    """The 11 WMT21 ru-en systems of the packaged demo (60 segments each), scored once."""
    corpus = load_corpus([(DEMO.name, DEMO.read_bytes())])
    m = meteor.Meteor("meteor-1.5")
    return {n: m.corpus_score(list(h), list(corpus.refs_of(n))) for n, h in corpus.systems}, m


def test_default_randomisation_trials_are_ten_thousand() -> None:
    """Before: the trials defaulted to the bootstrap's 1,000 resamples."""
    assert DEFAULT_TRIALS == 10_000
    for fn, name in (
        (rank_systems, "trials"),
        (build_report, "n_trials"),
        (meteor.report, "n_trials"),
    ):
        assert inspect.signature(fn).parameters[name].default == DEFAULT_TRIALS, fn
    refs = ["the cat sat on the mat", "a dog ran in the park", "we like green tea"] * 4
    bad = ["cat mat", "dog park the", "tea"] * 4
    rep = meteor.report({"good": refs, "bad": bad}, refs, "meteor-1.5", n_samples=50)
    assert rep.ranking.trials == 10_000
    assert json.loads(to_json(rep))["ranking"]["randomisation_trials"] == 10_000
    assert "10,000 randomisation trials" in to_markdown(rep)


def test_the_named_test_decides(demo) -> None:
    """Before: "significant" needed both p-values below alpha.  Now the named test decides,
    on pairs where the two tests disagree too."""
    results, m = demo
    by = {
        test: rank_systems(
            results, m.params, n_samples=SAMPLES, trials=TRIALS, test=test, correction="none"
        )  # fmt: skip
        for test in ("ar", "bootstrap")
    }
    disagree = 0
    for p_ar, p_bs in zip(by["ar"].pairs, by["bootstrap"].pairs, strict=True):
        assert (p_ar.a, p_ar.b) == (p_bs.a, p_bs.b)
        assert p_ar.p_randomisation == p_bs.p_randomisation
        assert p_ar.p_bootstrap == p_bs.p_bootstrap  # both shown, whichever decides
        assert p_ar.p_adjusted == p_ar.p_randomisation and p_bs.p_adjusted == p_bs.p_bootstrap
        assert p_ar.significant == (p_ar.p_randomisation < 0.05)
        assert p_bs.significant == (p_bs.p_bootstrap < 0.05)
        disagree += p_ar.significant != p_bs.significant
    assert disagree >= 1  # e.g. NVIDIA-NeMo / Online-A: bootstrap 0.0498, randomisation 0.09
    assert by["ar"].clusters() != by["bootstrap"].clusters()
    assert by["ar"].to_dict()["test"] == "ar" and by["bootstrap"].to_dict()["test"] == "bootstrap"


def _holm_by_hand(ps: list[float]) -> list[float]:
    """Holm's adjusted p, written independently: for p_i, the largest (m − r + 1)·p over
    the p-values ranked at or below it (r their 1-based rank), capped at 1."""
    m = len(ps)
    ranked = sorted(range(m), key=lambda k: ps[k])
    rank = {k: r + 1 for r, k in enumerate(ranked)}
    return [
        min(1.0, max((m - rank[j] + 1) * ps[j] for j in range(m) if rank[j] <= rank[i]))
        for i in range(m)
    ]


def test_holm_adjusted_p_values_of_the_report_equal_hand_computation(demo) -> None:
    """Before: no correction was offered (55 pairs, alpha 0.05 each)."""
    results, m = demo
    rk = rank_systems(results, m.params, n_samples=SAMPLES, trials=TRIALS)
    assert rk.correction == "holm" and rk.test == "ar" and rk.comparisons == 55
    raw = [p.p_randomisation for p in rk.pairs]
    assert [p.p_adjusted for p in rk.pairs] == pytest.approx(_holm_by_hand(raw), abs=1e-15)
    assert all(p.significant == (p.p_adjusted < 0.05) for p in rk.pairs)
    bonf = rank_systems(
        results, m.params, n_samples=SAMPLES, trials=TRIALS, correction="bonferroni"
    )
    assert [p.p_adjusted for p in bonf.pairs] == pytest.approx([min(1.0, 55 * p) for p in raw])
    # Holm rejects at least what Bonferroni rejects, and no more than no correction
    none = rank_systems(results, m.params, n_samples=SAMPLES, trials=TRIALS, correction="none")
    s = [sum(p.significant for p in r.pairs) for r in (bonf, rk, none)]
    assert s[0] <= s[1] <= s[2] and s[0] < s[2]


@pytest.mark.parametrize(
    ("test", "correction", "test_text", "correction_text"),
    [
        ("ar", "holm", "approximate randomisation (2,000 trials)", "Holm correction over 55"),
        ("bootstrap", "bonferroni", "paired bootstrap (200 resamples)", "Bonferroni correction"),
        ("ar", "none", "approximate randomisation", "no multiple-comparison correction"),
    ],
)
def test_every_output_names_the_test_and_the_correction(
    demo, test: str, correction: str, test_text: str, correction_text: str
) -> None:
    results, m = demo
    ids = {n: tuple(str(k) for k in range(len(r.segments))) for n, r in results.items()}
    rep = build_report(results, m.params, ids=ids, n_samples=SAMPLES, n_trials=TRIALS,
                       test=test, correction=correction)  # fmt: skip
    decision = rep.ranking.decision
    assert decision.startswith(f"significant: {test_text}") and correction_text in decision
    data = json.loads(to_json(rep))["ranking"]
    assert data["test"] == test and data["multiple_comparison_correction"] == correction
    assert data["decision"] == decision
    assert all("p_adjusted" in p and p["p_adjusted"] > 0 for p in data["pairs"])
    md = to_markdown(rep)
    assert decision[1:] in html.unescape(md) and f"correction {correction})" in md
    assert rep.ranking.adjusted_label in md
    assert latex_escape(decision[1:]) in to_latex(rep)
    page = to_html(rep)
    assert decision[1:] in html.unescape(page) and f"correction {correction})</h2>" in page


def test_bad_options_are_refused_before_scoring() -> None:
    said: list[str] = []
    corpus = load_corpus([(DEMO.name, DEMO.read_bytes())])
    for opts, field in (
        ({"test": "wilcoxon"}, "test must be one of ar, bootstrap"),
        ({"correction": "fdr"}, "correction must be one of holm, bonferroni, none"),
        ({"n_trials": 0}, "n_trials must be a positive whole number"),
        ({"n_trials": 2_000_000}, "n_trials is 2,000,000; at most 1,000,000"),
    ):
        with pytest.raises(ValueError, match=field):
            corpus_report(corpus, "meteor-1.5", progress=said.append, **opts)  # type: ignore[arg-type]
    assert said == []  # nothing was scored


def test_cli_takes_test_correction_and_trials(tmp_path: Path, capsys) -> None:
    out = tmp_path / "rep"
    code = main(["report", "--hyp", str(DEMO), "--out", str(out), "--format", "json,md",
                 "--bootstrap", "100", "--trials", "500", "--test", "bootstrap",
                 "--correction", "bonferroni"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))["ranking"]
    assert data["test"] == "bootstrap" and data["multiple_comparison_correction"] == "bonferroni"
    assert data["randomisation_trials"] == 500 and data["bootstrap_samples"] == 100
    for pair in data["pairs"]:
        assert pair["p_adjusted"] == min(1.0, 55 * pair["p_paired_bootstrap"])
        assert pair["significant"] == (pair["p_adjusted"] < 0.05)
    capsys.readouterr()
    assert main(["report", "--hyp", str(DEMO), "--out", str(tmp_path / "x"), "--test", "t"]) == 2
    assert "--test" in capsys.readouterr().err
    assert main(["report", "--hyp", str(DEMO), "--out", str(tmp_path / "y"), "--trials", "0"]) == 2
    assert "--trials must be between 1 and 1,000,000, got 0" in capsys.readouterr().err
