"""README's Quickstart: two commands that work on a fresh Debian 12 (the clean-clone walkthrough).

A fresh Debian 12 has ``python3`` (3.11) but no ``pip`` and no ``python`` command, and its
system Python refuses ``pip install`` outside a virtual environment (PEP 668,
``/usr/lib/python3.11/EXTERNALLY-MANAGED``).  So the first command installs ``python3-venv``
(and gcc with Python's headers, for ``./native``), makes a virtual environment and runs pip,
Streamlit and pytest from it; the second does the same on its own (a fresh machine may run
only the tests), reusing ``.venv`` when the first made it.  (Run by hand on a clean clone: a fresh
venv's ``pip install -r requirements.txt`` builds ``./native`` and ``streamlit run app.py``
answers ``/_stcore/health``.)
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def quickstart() -> list[list[str]]:
    """The Quickstart's commands, each split on ``&&`` into its steps."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    return [[step.strip() for step in b.strip().split("&&")] for b in blocks]


def test_quickstart_is_two_one_line_commands() -> None:
    blocks = quickstart()
    assert len(blocks) == 2
    assert all("\n" not in step for steps in blocks for step in steps)


def test_each_command_stands_alone() -> None:
    """Each command installs what it runs: apt packages, the venv, then its tools."""
    for steps in quickstart():
        words = [step.split() for step in steps]
        venv = next(i for i, w in enumerate(words) if w[:3] == ["python3", "-m", "venv"])
        apt = [w for w in words[:venv] if w[:2] == ["apt-get", "install"]]
        assert apt and {"python3-venv", "gcc", "python3-dev"} <= set(apt[0]), steps
        assert words[0] == ["apt-get", "update"], steps
        assert any(w[0].endswith("/bin/pip") and w[1:3] == ["install", "-r"] for w in words)
    second = quickstart()[1]
    assert {"chromium", "default-jre-headless"} <= set(" ".join(second).split())
    assert any("requirements-dev.txt" in step for step in second)


def test_quickstart_runs_python_tools_from_a_venv_it_makes() -> None:
    first, second = quickstart()
    steps = first + second
    words = [step.split() for step in steps]
    # no bare pip / python / streamlit / pytest: Debian 12 has no such command (or refuses it)
    bare = [s for s, w in zip(steps, words, strict=True) if w[0] in {"pip", "pip3", "python",
            "streamlit", "pytest"} or w[:3] == ["python3", "-m", "pip"]]  # fmt: skip
    assert not bare, bare
    venv = next(i for i, w in enumerate(words) if w[:3] == ["python3", "-m", "venv"])
    env = words[venv][3]
    apt = [w for w in words[:venv] if w[:2] == ["apt-get", "install"]]
    assert apt and {"python3-venv", "gcc", "python3-dev"} <= set(apt[0])
    tools = [w[0] for w in words if w[0].startswith(f"{env}/bin/")]
    assert {f"{env}/bin/pip", f"{env}/bin/streamlit", f"{env}/bin/python"} <= set(tools)
    # every tool from the venv comes after the venv is made
    assert all(i > venv for i, w in enumerate(words) if w[0].startswith(f"{env}/bin/"))
    assert words[-1][-2:] == ["-m", "pytest"]
    assert first[-1].endswith("streamlit run app.py")
