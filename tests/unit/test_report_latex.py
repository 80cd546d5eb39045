"""The report's LaTeX fits a page and prints what it says (:func:`to_latex`).

* A bucket table holds at most five systems (seven columns with the bucket and its
  count); eleven systems make three tables per bucketing, every system's cell in one
  of them with the number the single table had.
* ``<``, ``>`` and ``|`` are escaped (``\\textless{}``, ``\\textgreater{}``,
  ``\\textbar{}``): under LaTeX's default OT1 encoding they print as ``¡ ¿ —``, so the
  signature's ``|`` read as a dash.
"""

from __future__ import annotations

import re

import pytest

import meteor
from meteor.analysis.report_text import LATEX_SYSTEMS_PER_TABLE, latex_escape, to_latex

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
WORDS = ["cat", "dog", "tea", "mat", "park", "green", "sat", "ran", "like", "the", "we", "a"]


def _systems(n: int) -> dict[str, list[str]]:
    return {
        f"Online-{chr(ord('A') + k)}": [
            " ".join(WORDS[(k + j) % len(WORDS)] for j in range(3 + i)) for i in range(3)
        ]
        for k in range(n)
    }


def _tabulars(tex: str) -> list[tuple[str, str]]:
    """Each tabular's column spec and body."""
    return re.findall(r"\\begin\{tabular\}\{([^}]*)\}(.*?)\\end\{tabular\}", tex, re.S)


@pytest.fixture(scope="module")
def eleven() -> meteor.CorpusReport:
    return meteor.report(_systems(11), REFS, "meteor-1.5", n_samples=20)


def test_no_table_is_wider_than_seven_columns(eleven: meteor.CorpusReport) -> None:
    tex = to_latex(eleven)
    tables = _tabulars(tex)
    assert LATEX_SYSTEMS_PER_TABLE == 5
    assert len(tables) == 1 + 3 * len(eleven.buckets)  # ranking + 5 + 5 + 1 systems
    for spec, body in tables:
        assert len(spec) <= 7, spec
        for row in body.split("\\\\")[:-1]:
            assert row.count("&") == len(spec) - 1  # every row as wide as its spec
    for k in (1, 6, 11):
        assert f"Systems {k}--{min(k + 4, 11)} of 11 (ranking order)." in tex


def test_every_systems_bucket_value_is_in_one_table(eleven: meteor.CorpusReport) -> None:
    tex = to_latex(eleven)
    for table in eleven.buckets:
        for system in eleven.systems:
            heads = [
                body
                for _spec, body in _tabulars(tex)
                if f" & {latex_escape(system)}" in body
                and latex_escape(table.title) in body.split("\\\\")[0]
            ]
            assert len(heads) == 1, (table.title, system)
            head, *rows = heads[0].split("\\\\")
            col = [c.strip() for c in head.split("&")].index(latex_escape(system))
            for label, row in zip(table.labels, rows, strict=False):
                b = table.get(system, label)
                cell = [c.strip() for c in row.split("&")][col]
                value = None if b is None else (b.meteor if table.unit == "segments" else b.recall)
                want = "--" if value is None or value != value else f"{value:.4f}"
                assert cell == want, (table.title, system, label)


def test_angle_brackets_and_bar_are_escaped(eleven: meteor.CorpusReport) -> None:
    assert latex_escape("a<b>c|d") == r"a\textless{}b\textgreater{}c\textbar{}d"
    rep = meteor.report({"<sys|1>": REFS, "plain": ["cat", "dog", "tea"]}, REFS, "meteor-1.5",
                        n_samples=20)  # fmt: skip
    tex = to_latex(rep)
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    assert not re.search(r"[<>|]", body.replace("$p<", "")), re.findall(r".{20}[<>|].{20}", body)
    assert r"\textless{}sys\textbar{}1\textgreater{}" in body
    assert "|" in rep.signature
    assert latex_escape(rep.signature) in body  # the footnote's signature: \textbar{}
