"""Issue 13 items 8 and 9: an unusable cache folder, damaged cache entries, interrupted
index builds, and progress while the paraphrase index is built for the first time."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from meteor import metric, resources
from meteor.cli.command_line import main
from meteor.languages import paraphrase, paraphrase_build
from meteor.languages.paraphrase import ParaphraseTable

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_cache_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget which cache folder this process chose (restored after the test)."""
    monkeypatch.setattr(resources, "_CACHE_CHOICE", {})


@pytest.mark.parametrize("kind", ["file", "uncreatable"])
def test_unusable_cache_folder_falls_back_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_cache_choice: None, kind: str
) -> None:
    if kind == "file":
        bad = tmp_path / "cache-file"
        bad.write_text("not a folder")
        reason = "it is a file, not a folder"
    else:
        bad = Path("/proc/meteor-cache")  # no folder can be made there, even by root
        reason = "it cannot be created"
    monkeypatch.setenv("METEOR_CACHE_DIR", str(bad))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = resources.cache_dir()
        second = resources.cache_dir()
    assert first == second and first.is_dir() and first != bad
    assert os.environ["METEOR_CACHE_DIR"] == str(first)  # child processes share it
    (w,) = caught  # one warning, not one per call
    assert issubclass(w.category, resources.CacheWarning)
    assert f"cache folder {str(bad)!r} cannot be used ({reason}" in str(w.message)
    assert "set METEOR_CACHE_DIR to a writable folder" in str(w.message)


def test_cli_with_unusable_cache_prints_one_warning_line(tmp_path: Path) -> None:
    """A real run: nltk's WordNet copy goes to the fallback; one warning line, score printed."""
    bad = tmp_path / "cache-file"
    bad.write_text("x")
    ref = tmp_path / "r.txt"
    ref.write_text("the quick brown fox\n")
    env = {**os.environ, "METEOR_CACHE_DIR": str(bad)}
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", "score", "-p", "nltk", "-r", str(ref)],
        input=b"a fast brown fox\n",
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 0, err  # before: an internal error after the build
    assert err.count("\n") == 1 and err.startswith("meteor: warning: cache folder "), err
    assert "METEOR corpus score" in proc.stdout.decode()
    assert bad.read_text() == "x"  # the file was left alone


@pytest.fixture
def wordnet_sandbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    import nltk.data

    from meteor.languages import nltk_wordnet

    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))
    monkeypatch.setattr(nltk_wordnet, "_READERS", {})
    yield tmp_path


@pytest.mark.parametrize("name", [".complete", "index.noun"])
def test_folder_where_a_wordnet_cache_file_belongs_is_repaired(
    wordnet_sandbox: Path, name: str
) -> None:
    from meteor.aligners.greedy import align_nltk
    from meteor.languages.nltk_wordnet import ensure_wordnet_copy, wordnet_reader

    target = wordnet_sandbox / "nltk_data" / "corpora" / "wordnet" / name
    target.mkdir(parents=True)
    (target / "junk").write_text("x")  # before: IsADirectoryError, every run
    ensure_wordnet_copy(wordnet_sandbox)
    assert target.is_file()
    reader = wordnet_reader(wordnet_sandbox)
    found = align_nltk(["a", "fast", "dog"], ["a", "quick", "dog"], wordnet=reader)
    assert [m.module.value for m in found] == ["exact", "synonym", "exact"]


# -- paraphrase index ----------------------------------------------------------------------

SMALL_TABLE = "0.5\nquick\nfast\n0.4\nfast\nquick\n0.3\nbrown fox\nred fox\n"


@pytest.fixture
def small_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``load(...)`` reads a small real-format table instead of the jar's."""
    src = tmp_path / "paraphrase-xx.gz"
    with gzip.open(src, "wb") as fh:
        fh.write(SMALL_TABLE.encode())
    monkeypatch.setattr(resources, "paraphrase_table_path", lambda lang="en": src)
    return src


def test_folder_where_the_index_belongs_is_replaced(small_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    idx = paraphrase.index_path("xx", cache)
    idx.mkdir(parents=True)  # before: os.replace failed after the build
    table = ParaphraseTable.load("xx", cache=cache)
    assert idx.is_file() and table.lookup(["quick"]) == [("fast",)]


def test_temporary_file_of_a_dead_build_is_removed(small_source: Path, tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid is now free: a build killed with SIGKILL looks like this
    dest = tmp_path / "x.idx"
    junk = tmp_path / f"x.idx.{dead.pid}.abc123.tmp"
    junk.write_bytes(b"\0" * 1000)  # fresh: before, only files over an hour old went
    alive = tmp_path / f"x.idx.{os.getpid()}.def456.tmp"
    alive.write_bytes(b"\0")  # a build in progress in a live process is left alone
    paraphrase_build.build_index(small_source, dest, lang="xx")
    assert not junk.exists() and alive.exists() and dest.is_file()


def test_interrupted_build_leaves_no_temporary_file(small_source: Path, tmp_path: Path) -> None:
    class StopRunError(Exception):
        pass

    def stop(frac: float, msg: str) -> None:
        if msg == "writing the index":  # the builder is writing its temporary file
            raise StopRunError

    with pytest.raises(StopRunError):
        ParaphraseTable.load("xx", cache=tmp_path, progress=stop)
    assert not list(tmp_path.glob("*.tmp"))


# -- item 9: progress during the cold index build ------------------------------------------


def test_cli_shows_the_index_build_on_stderr(
    small_source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fresh_cache_choice: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--progress``: the first-run build of the paraphrase index is shown, with its steps.

    The build is real (the small table above stands in for the jar's, so it takes
    a second, not 15); this process's table and sentence caches are set aside so no
    other test sees the small table.
    """
    monkeypatch.setenv("METEOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(paraphrase, "_TABLES", {})
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})
    h = tmp_path / "h.txt"
    h.write_text("a quick brown fox\n")
    code = main(["score", "-p", "meteor-1.5", "-i", str(h), "-r", str(h), "--progress"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "loading [" in err  # the loading bar, before scoring
    assert "reading the paraphrase table" in err and "writing the index" in err
    assert "100% ready" in err
    assert (tmp_path / "cache" / paraphrase.index_path("xx").name.replace("xx", "en")).is_file()
