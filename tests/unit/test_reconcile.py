"""``meteor.reconcile``: why two METEORs disagree, step by step (issue 33).

The Meteor 1.5 numbers below are the jar's own (``meteor-1.5.jar -l en -norm``, run with
the dev harness ``shared/tools/meteor15`` on these pairs; the cat pair is also
``shared/data/nltk_examples/meteor15_oracle_en_norm``).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

import meteor
from meteor.analysis.reconcile import reconcile, reconcile_corpus
from meteor.analysis.reconcile_groups import differing_groups
from meteor.analysis.reconcile_shapley import Game
from meteor.cli.command_line import main
from meteor.params import ParamError

CAT_HYP = "The cat was sat on the mat"  # nlg-eval issue 105
CAT_REF = "The cat sat on the mat"
JAR_CAT = 0.5119556177223324  # meteor-1.5.jar -l en -norm
DOC_HYP = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
DOC_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
JAR_DOC = 0.44736091739438233  # the jar, with the first reference and with all three


def _check_sums(rc: meteor.analysis.reconcile.Reconciliation) -> None:
    """Shares add up to the gap; the path starts on A and lands on B."""
    assert abs(math.fsum(v for _, v in rc.shares) - rc.gap) <= 1e-12
    if rc.steps:
        assert rc.steps[0].score_before == rc.score_a
        assert abs(rc.steps[-1].score - rc.score_b) <= 1e-12
        for s0, s1 in itertools.pairwise(rc.steps):
            assert s0.score == s1.score_before


@pytest.mark.parametrize("a", ["nltk", "hf"])
def test_cat_pair_both_ends_exact(a: str) -> None:
    rc = meteor.reconcile(CAT_HYP, CAT_REF, a, "meteor-1.5")
    assert rc.score_a == meteor.score(CAT_HYP, CAT_REF, a).score
    assert round(rc.score_a, 4) == 0.9654  # nltk's doctest
    assert rc.score_b == JAR_CAT
    _check_sums(rc)
    # the tuned formula alone (β 0.2: the penalty of 2 chunks) makes the whole gap here
    assert rc.share("parameters") == pytest.approx(rc.gap, abs=1e-12)
    step = next(s for s in rc.steps if s.group == "parameters")
    assert any("0.6·frag^0.2 = 0.4816 for 2 chunks in 6 matches" in w for w in step.words)


@pytest.mark.parametrize("refs", [DOC_REFS[:1], DOC_REFS], ids=["one-ref", "three-refs"])
def test_nltk_doc_example_hf_to_jar(refs: list[str]) -> None:
    rc = meteor.reconcile(DOC_HYP, refs, "hf", "meteor-1.5")
    assert rc.score_a == meteor.score(DOC_HYP, refs, "hf").score
    assert rc.score_b == JAR_DOC
    if len(refs) == 3:
        assert round(rc.score_a, 4) == 0.6944  # nltk's docstring
    _check_sums(rc)
    aligner = next(s for s in rc.steps if s.group == "aligner")
    assert any("beam search (width 40)" in w for w in aligner.words)
    assert {m.module.value for m in aligner.matches_added} >= {"paraphrase"}
    assert aligner.chunks == (6, 3)
    # path and shares differ here: the record says the factors interact, and which
    assert rc.interactions and any("interact" in w for w in rc.words)
    assert ("stages", "aligner") in {(g, h) for g, h, _ in rc.interactions}


def test_alpha_only_by_hand() -> None:
    """Only α differs: its share is the whole gap, computed here from P, R and the penalty."""
    a = meteor.get_preset("meteor-1.5").params
    b = a.replace(alpha=0.5)
    rc = meteor.reconcile(CAT_HYP, CAT_REF, a, b)
    assert rc.groups == ("parameters",)
    r = meteor.score(CAT_HYP, CAT_REF, "meteor-1.5")
    p, rec, pen = r.precision, r.recall, r.penalty
    by_hand = p * rec / (0.5 * p + 0.5 * rec) * (1 - pen) - r.score
    assert rc.shares == (("parameters", pytest.approx(by_hand, abs=1e-12)),)
    assert rc.gap == pytest.approx(by_hand, abs=1e-12)
    assert len(rc.steps) == 1 and rc.steps[0].delta == pytest.approx(by_hand, abs=1e-12)
    assert rc.interactions == ()


def test_every_subset_value_is_what_meteor_score_gives() -> None:
    """The shortcut (formula-only groups re-score the same statistics) changes no number."""
    pa, pb = meteor.get_preset("hf").params, meteor.get_preset("meteor-1.5").params
    players = differing_groups(pa, pb)
    game = Game(pa, pb, [DOC_HYP], [DOC_REFS], players, ("sum", "sum"), corpus=False)
    checked = 0
    for r in range(len(players) + 1):
        for t in itertools.combinations(players, r):
            s = frozenset(t)
            try:
                params = game.params(s)
            except ParamError:
                continue
            assert game.direct(s) == meteor.score(DOC_HYP, DOC_REFS, params=params).score
            checked += 1
    assert checked == 2 ** len(players)


def test_invalid_combination_is_skipped_with_reason() -> None:
    """paper-2005 → meteor-1.5: the stage-wise aligner cannot take paraphrases."""
    rc = meteor.reconcile(CAT_HYP, CAT_REF, "paper-2005", "meteor-1.5")
    _check_sums(rc)
    order = [s.group for s in rc.steps]
    assert order.index("aligner") < order.index("stages")  # a valid order, said so
    assert any("stages cannot come yet" in s.note for s in rc.steps)
    assert rc.invalid and all("paraphrase" in i.reason for i in rc.invalid)
    for inv in rc.invalid:  # valued by the nearest runnable combination
        assert "aligner" in inv.valued_as and set(inv.groups) <= set(inv.valued_as)
    assert any("cannot run" in w for w in rc.words)


def test_sides_as_params_and_meteor_and_json() -> None:
    m = meteor.Meteor("nltk")
    rc = reconcile(CAT_HYP, [CAT_REF], m, meteor.get_preset("meteor-1.5").params)
    assert (rc.name_a, rc.name_b) == ("nltk", "meteor-1.5")
    d = json.loads(json.dumps(rc.to_dict(), allow_nan=False))
    assert d["score_a"] == rc.score_a and d["score_b"] == JAR_CAT
    assert [s["group"] for s in d["steps"]] == [s.group for s in rc.steps]
    assert all({"group", "score"} <= set(s) for s in d["steps"])
    assert set(d["shares"]) == set(rc.groups)
    same = meteor.reconcile(CAT_HYP, CAT_REF, "nltk", "nltk")
    assert same.steps == () and same.shares == () and same.gap == 0.0
    with pytest.raises(ParamError, match="preset name, a Params or a Meteor"):
        meteor.reconcile(CAT_HYP, CAT_REF, 3, "nltk")  # type: ignore[arg-type]
    with pytest.raises(ParamError, match="unknown preset"):
        meteor.reconcile(CAT_HYP, CAT_REF, "nope", "nltk")


HYPS = [CAT_HYP, DOC_HYP, "on the mat sat the cat", "a quick brown fox"]
REFS = [CAT_REF, DOC_REFS, CAT_REF, "the fast brown fox jumps"]


def test_corpus_ends_are_corpus_score_under_each_aggregation() -> None:
    rc = meteor.reconcile(HYPS, REFS, "nltk", "meteor-1.5", corpus=True)
    assert rc.aggregation == ("mean", "sum")
    assert rc.score_a == meteor.corpus_score(HYPS, REFS, "nltk").mean_segment_score
    assert rc.score_b == meteor.corpus_score(HYPS, REFS, "meteor-1.5").score
    assert rc.groups[-1] == "aggregation"
    _check_sums(rc)
    assert "exact" in rc.share_method
    aligner = next(s for s in rc.steps if s.group == "aligner")
    # the reordered cat (greedy: 0.5 as nltk's doctest) moves most, then the doc example
    assert [k for k, _, _ in aligner.moved] == [2, 1]
    assert aligner.moved[0][1] == 0.5
    assert aligner.score_sum is not None and aligner.score_mean is not None
    assert rc.steps[-1].score == rc.steps[-1].score_sum


def test_corpus_sampled_shares_state_their_error() -> None:
    rc = reconcile_corpus(HYPS, REFS, "hf", "meteor-1.5-adq", orders=6, seed=1)
    assert rc.share_method.startswith("sampled: 6 random orders (seed 1)")
    assert set(dict(rc.share_errors)) == set(rc.groups)
    _check_sums(rc)
    again = reconcile_corpus(HYPS, REFS, "hf", "meteor-1.5-adq", orders=6, seed=1)
    assert again.shares == rc.shares  # seeded


def test_corpus_bad_input_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="2 segments but references have 1"):
        reconcile_corpus(HYPS[:2], REFS[:1], "nltk", "meteor-1.5")
    with pytest.raises(TypeError, match="list of strings"):
        reconcile_corpus("abc", REFS, "nltk", "meteor-1.5")


def test_cli_pair_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["reconcile", "--from", "nltk", "--to", "meteor-1.5", "--hyp", CAT_HYP]
        + ["--ref", CAT_REF, "--format", "json"]
    )
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["score_b"] == JAR_CAT and d["steps"][-1]["score"] == pytest.approx(JAR_CAT, abs=1e-12)
    assert d["shares"]["parameters"] == pytest.approx(d["score_b"] - d["score_a"], abs=1e-12)


def test_cli_text_and_corpus_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reconcile", "--from", "hf", "--to", "meteor-1.5", "--hyp", CAT_HYP,
                 "--ref", CAT_REF]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "path (one group at a time" in out and "shares (Shapley, exact" in out
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS[:3]) + "\n", encoding="utf-8")
    ref.write_text("\n".join([CAT_REF, DOC_REFS[0], CAT_REF]) + "\n", encoding="utf-8")
    code = main(["reconcile", "--from", "nltk", "--to", "meteor-1.5", "-i", str(hyp),
                 "-r", str(ref), "-f", "json"])  # fmt: skip
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["corpus"] and d["segments"] == 3
    assert d["score_b"] == meteor.corpus_score(HYPS[:3], [CAT_REF, DOC_REFS[0], CAT_REF]).score


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--hyp", "a", "--ref", "b", "-i", "x.txt"], "not both"),
        (["--hyp", "a"], "give --hyp TEXT and --ref TEXT"),
        (["-i", "x.txt"], "needs both -i"),
        (["--hyp", "a", "--ref", "b", "--orders", "1"], "--orders must be at least 2"),
    ],
)
def test_cli_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reconcile", "--from", "nltk", "--to", "meteor-1.5", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
