"""Every JSON the commands print is strict JSON, for every preset and every kind of pair.

``explain``, ``reconcile`` and ``score`` (``--format json`` and ``jsonl``) on an empty
side, a pair with no match, a perfect pair and an ordinary one: the output parses with
``json.loads`` while ``parse_constant`` refuses ``NaN``/``Infinity``; a number the
formula leaves undefined (Fmean, frag, penalty with no match) is ``null`` and ``-0.0`` is
written ``0.0``.  A case the command refuses must say so in one line and print nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meteor
from meteor.analysis.reconcile_reasons import reason, render
from meteor.cli.command_line import main
from meteor.json_numbers import json_number, json_ready, json_text
from meteor.presets import PRESETS, get_preset

PAIRS = {
    "empty_hyp": ("", "the cat sat on the mat"),
    "empty_ref": ("the cat sat on the mat", ""),
    "no_match": ("a b", "c d"),
    "no_match_words": ("Nothing here overlaps.", "Completely different words appear"),
    "perfect": ("the cat sat on the mat", "the cat sat on the mat"),
    "ordinary": (
        "The fast brown fox leaps over the lazy dogs",
        "The quick brown fox jumped over the lazy dog",
    ),
}
NAMES = sorted(PRESETS)
BY_LANG: dict[str, list[str]] = {}
for _name in NAMES:
    BY_LANG.setdefault(get_preset(_name).params.lang, []).append(_name)


def _refuse(constant: str) -> Any:
    raise AssertionError(f"{constant} in JSON output")


def _strict(text: str) -> Any:
    assert "NaN" not in text and "Infinity" not in text
    assert not re.search(r"(?<![\w.])-0\.0(?![\d])", text), "-0.0 in JSON output"
    return json.loads(text, parse_constant=_refuse)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def _check(argv: list[str], lines: bool = False) -> list[Any]:
    rc, out, err = _run(argv)
    if rc != 0:  # a refusal: one clear line, nothing on stdout
        assert out == "" and err.startswith("meteor: error: ") and err.count("\n") == 1, err
        assert "internal error" not in err and "JSON compliant" not in err, err
        return []
    if lines:
        return [_strict(line) for line in out.splitlines()]
    return [_strict(out)]


SLOW = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SLOW
@given(preset=st.sampled_from(NAMES), kind=st.sampled_from(sorted(PAIRS)))
def test_explain_json_is_strict(preset: str, kind: str) -> None:
    hyp, ref = PAIRS[kind]
    for doc in _check(["explain", "--preset", preset, "--hyp", hyp, "--ref", ref, "-f", "json"]):
        assert doc["preset"] == preset


@SLOW
@given(data=st.data(), kind=st.sampled_from(sorted(PAIRS)))
def test_reconcile_json_is_strict(data: st.DataObject, kind: str) -> None:
    a = data.draw(st.sampled_from(NAMES), label="a")
    b = data.draw(st.sampled_from(BY_LANG[get_preset(a).params.lang] + ["meteor-1.5"]), label="b")
    hyp, ref = PAIRS[kind]
    argv = ["reconcile", "--from", a, "--to", b, "--hyp", hyp, "--ref", ref, "-f", "json"]
    for doc in _check(argv):
        assert abs(sum(doc["shares"].values()) - doc["gap"]) <= 1e-12
        _, text, _ = _run(argv[:-2])  # the text view of the same case: no "nan"
        assert "nan" not in re.findall(r"[a-z]+", text)


@SLOW
@given(preset=st.sampled_from(NAMES), kinds=st.lists(st.sampled_from(sorted(PAIRS)), min_size=1))
def test_score_json_and_jsonl_are_strict(preset: str, kinds: list[str], tmp_path: Path) -> None:
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("".join(PAIRS[k][0] + "\n" for k in kinds), encoding="utf-8")
    r.write_text("".join(PAIRS[k][1] + "\n" for k in kinds), encoding="utf-8")
    base = ["score", "-i", str(h), "-r", str(r), "--preset", preset]
    _check([*base, "-f", "json"])
    docs = _check([*base, "-f", "jsonl"], lines=True)
    assert len(docs) in (0, len(kinds))


@pytest.mark.parametrize("preset", ["hf", "nltk"])
def test_the_issues_cases_give_null_not_an_error(preset: str) -> None:
    """hf/nltk records carry NaN Fmean and penalty on a pair with no match."""
    for hyp, ref in (PAIRS["no_match"], PAIRS["no_match_words"]):
        [doc] = _check(["reconcile", "--from", preset, "--to", "meteor-1.5", "--hyp", hyp,
                        "--ref", ref, "-f", "json"])  # fmt: skip
        assert doc["steps"][0]["penalty"][0] is None
        [ex] = _check(["explain", "--preset", preset, "--hyp", hyp, "--ref", ref, "-f", "json"])
        assert ex["score"] == 0.0
    assert (
        meteor.score(*PAIRS["no_match"], preset).penalty
        != meteor.score(*PAIRS["no_match"], preset).penalty
    )  # NaN in the record itself: the JSON writer says null


def test_text_views_say_undefined() -> None:
    rc, out, _ = _run(["reconcile", "--from", "hf", "--to", "meteor-1.5", "--hyp", "a b",
                       "--ref", "c d"])  # fmt: skip
    assert rc == 0
    assert "penalty undefined -> undefined" in out
    assert "(frag undefined)" in out
    assert "nan" not in re.findall(r"[a-z]+", out)


def test_the_one_helper() -> None:
    nan, inf = float("nan"), float("inf")
    assert json_number(nan) is None and json_number(inf) is None and json_number(-inf) is None
    assert str(json_number(-0.0)) == "0.0" and json_number(0.25) == 0.25
    assert json_ready({"a": (1, -0.0, nan), "b": [True, "x"]}) == {"a": [1, 0.0, None],
                                                                   "b": [True, "x"]}  # fmt: skip
    assert json_text({"p": nan, "q": -0.0}) == '{"p": null, "q": 0.0}'
    assert render(reason("alpha", before=nan, after=0.5)) == "α undefined → 0.5"
