"""The ``meteor reconcile`` examples of docs/reconcile.md are the command's real output (the clean-clone
walkthrough ran them literally): every line shown is printed, in order, and an example that
leaves lines out says so ("steps that change nothing left out") in the paragraph above it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from meteor.analysis.reconcile import reconcile
from meteor.cli.reconcile import format_text

ROOT = Path(__file__).resolve().parents[2]


def examples() -> list[tuple[str, list[str], list[str]]]:
    """(the paragraph above, the command's words, the lines shown) of each example."""
    section = (ROOT / "docs" / "reconcile.md").read_text(encoding="utf-8")
    found = re.findall(r"((?:[^\n]+\n)+)\n```\n\$ (python -m meteor reconcile [^\n]+)\n(.*?)```",
                       section, re.S)  # fmt: skip
    return [
        (above, shlex.split(cmd), shown.rstrip("\n").split("\n")) for above, cmd, shown in found
    ]


def test_reconcile_examples_are_the_real_output() -> None:
    found = examples()
    assert len(found) == 2
    for above, words, shown in found:
        args = words[3:]
        refs = [args[i + 1] for i, a in enumerate(args) if a == "--ref"]
        opt = {a: args[i + 1] for i, a in enumerate(args) if a in ("--from", "--to", "--hyp")}
        out = format_text(reconcile(opt["--hyp"], refs, opt["--from"], opt["--to"])).split("\n")
        it = iter(out)
        assert all(line in it for line in shown), (words, shown, out)  # in order
        if len(shown) < len(out):
            assert "left out" in " ".join(above.split()), (above, len(shown), len(out))
