"""Resources come from pip packages; a missing package gives a message naming what to install."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HIDE = textwrap.dedent(
    """
    import importlib.util, sys
    _find = importlib.util.find_spec
    def find_spec(name, *a, **k):
        if name.split(".")[0] in HIDDEN:
            return None
        return _find(name, *a, **k)
    importlib.util.find_spec = find_spec
    sys.path.insert(0, ROOT)
    """
)


def run_without(packages: list[str], body: str) -> subprocess.CompletedProcess[str]:
    code = f"HIDDEN = {packages!r}\nROOT = {str(ROOT)!r}\n" + HIDE + textwrap.dedent(body)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_without_pycocoevalcap() -> None:
    """meteor-1.5 says what to install; presets without paraphrases still work (issue #3)."""
    out = run_without(
        ["pycocoevalcap"],
        """
        import meteor
        from meteor.languages import ResourceError
        try:
            meteor.score("a fast dog", "a quick dog", preset="meteor-1.5")
        except ResourceError as exc:
            print("ERROR:", exc)
        for p in ("meteor-1.5-paper2005", "nltk", "paper-2005", "seed-doc"):
            r = meteor.score("A fast brown fox leapt over a lazy dog",
                             "The quick brown fox jumps over the lazy dog", preset=p)
            print(p, round(r.score, 4))
        """,
    )
    assert out.returncode == 0, out.stderr
    assert "ERROR:" in out.stdout and "pip install pycocoevalcap==1.2" in out.stdout
    scores = dict(line.split() for line in out.stdout.splitlines() if not line.startswith("ERROR"))
    assert scores["meteor-1.5-paper2005"] == "0.7687"  # δ = 0.5: function words change nothing
    assert scores["nltk"] == "0.7687"


def test_cli_without_pycocoevalcap_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_text("a fast dog\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a quick dog\n", encoding="utf-8")
    out = run_without(
        ["pycocoevalcap"],
        f"""
        import sys
        from meteor.cli.command_line import main
        sys.exit(main(["score", "--hyp", {str(tmp_path / "h.txt")!r},
                       "--ref", {str(tmp_path / "r.txt")!r}, "--workers", "1"]))
        """,
    )
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("meteor: error:") and "pycocoevalcap" in out.stderr
