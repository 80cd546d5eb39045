"""The README is a short front door, its links lead somewhere, and every command it (or a docs page)
shows runs.

* README.md has at most 250 lines; every relative link of README.md and of docs/*.md names a file
  that exists (and, with ``#anchor``, a heading of that file).
* Every line of a ```` ```bash ```` block in README.md and docs/*.md is a command.  Each runs with
  exit status 0 on the data the clone holds (``meteor/data/demo``, ``meteor/data/agreement``), from
  a fresh folder (outputs land there, never in the clone), or carries a trailing comment
  ``# needs: <what>`` saying what beyond the clone it needs (:data:`NEEDS`), and is not run.  A
  command that needs the shared data names its file under ``$METEOR_SHARED_DATA``, checked to exist
  when that folder is there.  The README's Quickstart (two install commands) is pinned by
  ``test_readme_quickstart.py`` and run by ``.ci/run``; it is the one block left out here.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

#: What a command that is not run may need, as its ``# needs:`` comment says.
NEEDS = {"shared data", "a Dask cluster", "a running server", "HAProxy"}
#: The most commands run here (a few seconds each keeps the file fast).
MAX_RUN = 15
#: Seconds one command may take (the slowest, correlate on the demo, takes about 3 s).
TIMEOUT = 120


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as ``-``."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m) for m in re.findall(r"^#+ (.+)$", text, re.M)}


def _links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [
        target
        for target in re.findall(r"\]\(([^)\s]+)\)", text)
        if not re.match(r"[a-z]+:", target)  # http:, https:, mailto:
    ]


def commands(page: Path) -> list[str]:
    """The command lines of ``page``'s bash blocks (the README's Quickstart left out)."""
    text = page.read_text(encoding="utf-8")
    if page == README:
        quick = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
        text = text.replace(quick, "")
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        lines += [ln for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return lines


def _need(command: str) -> str | None:
    found = re.search(r"#[^#]*\bneeds: ([^#;]+?)\s*$", command)
    return found.group(1) if found else None


ALL = [(page.relative_to(ROOT).as_posix(), cmd) for page in PAGES for cmd in commands(page)]
TO_RUN = [(where, cmd) for where, cmd in ALL if _need(cmd) is None]


def test_readme_is_a_short_front_door() -> None:
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= 250, f"README.md has {n} lines; at most 250 (the rest belongs in docs/)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_exists(page: Path) -> None:
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(target)
    assert not broken, f"{page.name}: links to nothing: {broken}"


def test_readme_links_every_docs_page() -> None:
    """Each docs page is reachable from the front door's "where each topic lives"."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _links(README)}
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md")}
    assert not pages - linked, sorted(p.name for p in pages - linked)


def test_commands_not_run_say_what_they_need() -> None:
    assert ALL, "no command found"
    unknown = [(w, c) for w, c in ALL if _need(c) is not None and _need(c) not in NEEDS]
    assert not unknown, unknown
    assert 0 < len(TO_RUN) <= MAX_RUN, [c for _, c in TO_RUN]
    shared = os.environ.get("METEOR_SHARED_DATA")
    for where, cmd in ALL:
        if _need(cmd) != "shared data":
            continue
        files = re.findall(r"\$METEOR_SHARED_DATA/([^\"'\s]+)", cmd)
        assert files, f"{where}: {cmd!r} needs the shared data but names no file in it"
        if shared and Path(shared).is_dir():
            missing = [f for f in files if not (Path(shared) / f).exists()]
            assert not missing, f"{where}: {missing} not in {shared}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder that sees the clone's package (and its data) as ``meteor/`` (``docs/`` and
    ``tests/`` too, for the files the pages name), with ``python`` on PATH the interpreter running
    the tests."""
    here = tmp_path_factory.mktemp("commands")
    # the package and its data; the preset files docs/ names; tests/data
    for name in ("meteor", "docs", "tests"):
        (here / name).symlink_to(ROOT / name, target_is_directory=True)
    bin_dir = here / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "python"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return here


@pytest.mark.parametrize(("where", "command"), TO_RUN, ids=[f"{w}:{i}" for i, (w, _) in
                                                             enumerate(TO_RUN)])  # fmt: skip
def test_command_runs(folder: Path, where: str, command: str) -> None:
    env = dict(os.environ, PATH=f"{folder / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"], cwd=folder, env=env,
        capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, (
        f"{where}: {command}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    )
    assert done.stdout.strip() or "--out" in command or "--jsonl" in command, (where, command)


def test_readme_python_example_runs(folder: Path) -> None:
    """The README's Python block runs as it is, from a folder that sees the package."""
    text = README.read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "exact" in done.stdout
