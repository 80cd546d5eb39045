"""``meteor score``'s comparison of systems names its test and states the p-value's
formula once, as computed (issue 42): the paired bootstrap's two-sided
``p = min(1, 2(k+1)/(B+1))``, never 0.  Before, the text said "twice the share of
resamples on the other side of 0, so p < 0.05 exactly when the 95% CI excludes 0",
which is not what is computed (the +1) and not exact."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from meteor.cli.command_line import main

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea", "birds sing",
        "it rained all night long", "she bought fresh bread"]  # fmt: skip
SYSTEMS = {
    "sysA": ["the cat sat on mat", "a dog ran in park", "we like tea", "birds sing",
             "it rained all night", "she bought bread"],
    "sysB": ["cat mat", "dog park", "tea green", "sing", "night rain", "bread"],
    "sysC": ["the cat sat", "a dog in the park", "we like green tea", "birds",
             "rain all night", "she bought fresh bread"],
}  # fmt: skip
FORMULA = "p = min(1, 2(k+1)/(B+1))"


def _score(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n", encoding="utf-8")
    argv = ["score", "-p", "meteor-1.5", "-r", str(tmp_path / "ref.txt"), "-b", "100",
            "--seed", "5", *extra]  # fmt: skip
    for name, hyps in SYSTEMS.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        argv += ["-i", str(tmp_path / f"{name}.txt")]
    assert main(argv) == 0
    return capsys.readouterr().out


def test_the_text_names_the_test_and_the_formula_once(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = _score(tmp_path, capsys)
    data = json.loads(_score(tmp_path, capsys, "-f", "json"))
    assert len(data["comparisons"]) == 2
    assert out.count(FORMULA) == 1 and out.count("paired bootstrap test, Koehn 2004") == 1
    assert "twice the share" not in out and "exactly when" not in out
    assert "k the resamples on the far side of 0" in out
    # the printed p is the formula's, as the JSON holds it
    for cmp in data["comparisons"]:
        p = cmp["corpus_score"]["p_value"]
        k = round(p * 101 / 2) - 1
        assert p == min(1.0, 2 * (k + 1) / 101)
        line = next(ln for ln in out.splitlines() if ln.startswith(f"{cmp['system']} vs "))
        assert re.search(rf"two-sided p = {p:.4f} \(sacreBLEU", line), line


def test_the_json_names_the_test_and_the_formula(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(_score(tmp_path, capsys, "-f", "json"))
    for cmp in data["comparisons"]:
        assert cmp["test"] == "paired bootstrap (Koehn 2004), two-sided"
        assert cmp["p_value_definition"].startswith("min(1, 2 * (min(#{b: dB_b <= 0}")
        assert "(samples + 1)" in cmp["p_value_definition"]
        assert cmp["samples"] == 100
