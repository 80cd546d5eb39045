"""``Meteor(preset_file=…)`` / ``load_preset_file`` refuse what is not a regular file at once:
a FIFO with no writer used to block the call for ever (the CLI checks its inputs first; the
library must not hang either)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor.params import ParamError
from meteor.presets import load_preset_file


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)
    code = f"from meteor.presets import load_preset_file\nload_preset_file({str(fifo)!r})"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert done.returncode == 1
    assert "not a regular file" in done.stderr and "p.json" in done.stderr


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ParamError, match="preset file .*: (not a regular file|Is a directory)"):
        load_preset_file(tmp_path)
