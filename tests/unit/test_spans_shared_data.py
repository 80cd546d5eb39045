"""The span table on the shared WMT21 TED MQM data: the numbers docs/spans.md quotes."""

from __future__ import annotations

import json

import pytest
from conftest import shared_path

from meteor.cli.command_line import main


@pytest.mark.parametrize(
    ("lp", "name", "preset", "counts"),
    [
        ("en-de", "mqm_ted_ende.tsv", "meteor-1.5-de", (6766, 15389, 45794, 7933)),
        ("zh-en", "mqm_ted_zhen.tsv", "meteor-1.5", (3641, 4845, 13264, 1954)),
    ],
)
def test_docs_numbers(
    lp: str, name: str, preset: str, counts: tuple[int, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = shared_path(f"wmt21_ted_mqm_spans/{lp}")
    args = ["spans", "--hyp", str(folder / "segments.tsv"), "--spans", str(folder / name)]
    assert main([*args, "-p", preset, "--bootstrap", "0", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (s,) = out["settings"]
    assert (out["segments"], s["error_tokens"], s["flagged"], s["flagged_errors"]) == counts
