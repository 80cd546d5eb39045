"""Issue 31 ("trust at the edges, round 3"): the library API and its caches.

A full disk is simulated for real: every file made with :func:`tempfile.mkstemp` in a
"full" folder (every cache writes through it: a temporary sibling, then ``os.replace``)
has its descriptor pointed at ``/dev/full``, so its writes fail with the kernel's own
``ENOSPC``.  The paraphrase index builder runs in a child process: the same hook
reaches it as a ``sitecustomize`` module on ``PYTHONPATH``.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from meteor import metric, resources
from meteor.errors import CacheSpaceError, ResourceError
from meteor.languages import nltk_wordnet, paraphrase
from meteor.languages.paraphrase import ParaphraseTable

ROOT = Path(__file__).resolve().parents[2]

#: The hook: ``FULL_DIRS`` (``os.pathsep``-separated) are full; a build whose index
#: temporary file starts with ``PAUSE_PREFIX`` appends a line to ``PAUSE_MARK`` and
#: waits for the file ``PAUSE_GO`` before writing.
HOOK = textwrap.dedent(
    """
    import os, tempfile, time

    _mkstemp = tempfile.mkstemp

    def _under(folder, roots):
        folder = os.path.realpath(folder)
        return any(folder == r or folder.startswith(r + os.sep) for r in roots)

    def mkstemp(suffix=None, prefix=None, dir=None, text=False):
        fd, name = _mkstemp(suffix, prefix, dir, text)
        roots = [os.path.realpath(p) for p in os.environ.get("FULL_DIRS", "").split(os.pathsep) if p]
        where = dir if dir is not None else tempfile.gettempdir()
        if roots and _under(where, roots):
            full = os.open("/dev/full", os.O_WRONLY)
            os.dup2(full, fd)
            os.close(full)
        pause = os.environ.get("PAUSE_PREFIX")
        if pause and (prefix or "").startswith(pause):
            with open(os.environ["PAUSE_MARK"], "a") as fh:
                fh.write(f"{os.getpid()}\\n")
            for _ in range(1200):
                if os.path.exists(os.environ["PAUSE_GO"]):
                    break
                time.sleep(0.05)
        return fd, name

    tempfile.mkstemp = mkstemp
    """
)

SMALL_TABLE = "0.5\nquick\nfast\n0.4\nfast\nquick\n0.3\nbrown fox\nred fox\n"


@pytest.fixture
def hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``hook(*full_folders)``: those folders are full, here and in child processes."""
    folder = tmp_path / "hook"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(HOOK)
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(folder), old) if p))
    sys.path.insert(0, str(folder))
    try:
        import importlib

        module = importlib.import_module("sitecustomize")
    finally:
        sys.path.remove(str(folder))
    monkeypatch.setattr("tempfile.mkstemp", module.mkstemp)
    monkeypatch.delitem(sys.modules, "sitecustomize")

    def full(*folders: Path) -> None:
        monkeypatch.setenv("FULL_DIRS", os.pathsep.join(str(f) for f in folders))

    return full


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, this process's choices and tables set aside; returns it."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_CACHE_DIR", str(cache))
    monkeypatch.setattr(resources, "_CACHE_CHOICE", {})
    monkeypatch.setattr(resources, "_FALLBACKS", {}, raising=False)
    monkeypatch.setattr(paraphrase, "_TABLES", {})
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})
    return cache


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder the fallback goes to (here, and in child processes)."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(tmp))
    monkeypatch.setenv("TMPDIR", str(tmp))
    return tmp


@pytest.fixture
def small_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "paraphrase-xx.gz"
    with gzip.open(src, "wb") as fh:
        fh.write(SMALL_TABLE.encode())
    monkeypatch.setattr(resources, "paraphrase_table_path", lambda lang="en": src)
    return src


def _no_leftovers(folder: Path) -> None:
    assert not [p for p in folder.rglob("*.tmp")], "a temporary file was left behind"


# -- item 7: a full disk for the cache ---------------------------------------------------


def test_full_cache_folder_builds_the_paraphrase_index_in_a_temporary_folder(
    hook: Callable[..., None], fresh: Path, temp_root: Path, small_source: Path
) -> None:
    """Before: ``RuntimeError: building the paraphrase index ... [Errno 28]``."""
    hook(fresh)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = ParaphraseTable.load("xx")
    assert table.lookup(["quick"]) == [("fast",)]
    assert table.path.parent.parent == temp_root  # the fallback folder, in the temp folder
    (w,) = [w for w in caught if issubclass(w.category, resources.CacheWarning)]
    assert f"cache folder {str(fresh)!r} cannot be used (no space left" in str(w.message)
    assert "paraphrase index" in str(w.message) and "a folder with room" in str(w.message)
    assert not (fresh / table.path.name).exists()
    _no_leftovers(fresh)


def test_no_room_anywhere_is_one_documented_error(
    hook: Callable[..., None], fresh: Path, temp_root: Path, small_source: Path
) -> None:
    hook(fresh, temp_root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", resources.CacheWarning)
        with pytest.raises(CacheSpaceError) as info:
            ParaphraseTable.load("xx")
    msg = str(info.value)
    assert isinstance(info.value, ResourceError)  # the CLI and the app show these
    assert str(fresh) in msg and str(temp_root) in msg and "MB" in msg
    assert "no space left for the paraphrase index" in msg and "\n" not in msg
    _no_leftovers(fresh)
    _no_leftovers(temp_root)


def test_explicit_index_folder_without_room_names_it(
    hook: Callable[..., None], tmp_path: Path, fresh: Path, small_source: Path
) -> None:
    where = tmp_path / "elsewhere"
    where.mkdir()
    hook(where)
    with pytest.raises(CacheSpaceError, match="no space left in the folder .*elsewhere"):
        ParaphraseTable.load("xx", cache=where)


def test_cli_with_no_room_anywhere_prints_one_line(
    hook: Callable[..., None],
    fresh: Path,
    temp_root: Path,
    small_source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: ``internal error (RuntimeError: ...)``, status 1."""
    from meteor.cli.command_line import main

    hook(fresh, temp_root)
    h = tmp_path / "h.txt"
    h.write_text("a quick brown fox\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", resources.CacheWarning)
        code = main(["score", "-p", "meteor-1.5", "-i", str(h), "-r", str(h)])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("meteor: error:")]
    assert code == 2, err
    assert len(lines) == 1 and "no space left for the paraphrase index" in lines[0], err
    assert "internal error" not in err and "Traceback" not in err


def test_full_cache_folder_puts_the_nltk_wordnet_copy_in_a_temporary_folder(
    hook: Callable[..., None], fresh: Path, temp_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: ``OSError: [Errno 28] No space left on device`` from the copy."""
    monkeypatch.setattr(nltk_wordnet, "_READERS", {})
    monkeypatch.setattr(nltk_wordnet, "_BY_ENV", {})
    hook(fresh)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = nltk_wordnet.wordnet_reader()
    assert [s.name() for s in reader.synsets("quick")][:1] == ["quick.n.01"]
    assert any("the WordNet copy" in str(w.message) for w in caught)
    assert Path(reader.root.path).is_relative_to(temp_root)
    _no_leftovers(fresh)


def test_full_cache_folder_costs_the_small_caches_nothing(
    hook: Callable[..., None], fresh: Path, tmp_path: Path
) -> None:
    """The WordNet lemma table, the Russian thesaurus, the jar's stem table and the nltk
    WordNet index are only kept when they can be: with the folder full, each is built,
    used, and not kept, with no error and no temporary file left."""
    from meteor.languages import english, jar_stemmers, russian_thesaurus
    from meteor.languages.lemma_table import LemmaTable

    hook(fresh)
    key = "k"
    stems = jar_stemmers.StemTable.from_rows([(97, "b")])
    writes: list[Callable[[], None]] = [
        lambda: english._write_wordnet_cache(
            fresh / "wordnet" / "x.bin", key, LemmaTable({"a": [1]}), {"x": ("y",)}
        ),
        lambda: resources.write_cache_file(
            fresh / "thesaurus" / "x.bin",
            russian_thesaurus._encode(key, {"a": (1,)}, {1: ("a",)}, {1: "l"}) or b"",
        ),
        lambda: resources.write_cache_file(fresh / "jar-stem-x.bin", stems.to_bytes(key)),
        lambda: resources.write_cache_file(
            fresh / "nltk_data" / nltk_wordnet.INDEX_CACHE_NAME, b"y" * 100_000
        ),
    ]
    for write in writes:
        write()
    assert not [p for p in fresh.rglob("*") if p.is_file()]  # nothing kept, nothing left


def _load_script(cache: Path, source: Path, out: Path) -> list[str]:
    code = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from meteor import resources
        from meteor.languages.paraphrase import ParaphraseTable
        resources.paraphrase_table_path = lambda lang="en": Path({str(source)!r})
        built = []
        t = ParaphraseTable.load("xx", progress=lambda f, m: built.append(m))
        Path({str(out)!r}).write_text(("built" if built else "opened") + " " + repr(t.lookup(["quick"])))
        """
    )
    return [sys.executable, "-c", code]


def _waiting_on_flock(pids: set[int]) -> bool:
    """Whether one of ``pids`` waits for an ``flock`` (a ``->`` line of /proc/locks)."""
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return False
    for line in text.splitlines():
        parts = line.split()
        if "->" in parts and "FLOCK" in parts:
            at = parts.index("->")
            with_pid = parts[at + 4] if len(parts) > at + 4 else ""
            if with_pid.isdigit() and int(with_pid) in pids:
                return True
    return False


def test_two_first_runs_build_the_paraphrase_index_once(
    hook: Callable[..., None], fresh: Path, small_source: Path, tmp_path: Path
) -> None:
    """Two processes start on an empty cache: one builds, the other waits for its lock
    and opens that index.  The builder is held just before writing its index until the
    other process is seen waiting for the lock (or, before the fix, building too); the
    builds are counted by the marker lines the held builders write."""
    mark, go = tmp_path / "builds", tmp_path / "go"
    env = {
        **os.environ,
        "PAUSE_PREFIX": paraphrase.index_path("xx", fresh).name,
        "PAUSE_MARK": str(mark),
        "PAUSE_GO": str(go),
        "PYTHONPATH": os.pathsep.join([os.environ["PYTHONPATH"], str(ROOT)]),
    }
    outs = [tmp_path / "a.out", tmp_path / "b.out"]
    procs = [
        subprocess.Popen(_load_script(fresh, small_source, out), env=env, cwd=tmp_path)
        for out in outs
    ]
    try:
        pids = {p.pid for p in procs}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            builds = mark.read_text().split() if mark.exists() else []
            if len(builds) >= 2 or (builds and _waiting_on_flock(pids)):
                break
            assert all(p.poll() is None for p in procs), "a process ended early"
            time.sleep(0.05)
        else:
            pytest.fail("neither a second build nor a process waiting for the lock was seen")
        go.write_text("")
        for p in procs:
            assert p.wait(timeout=120) == 0
    finally:
        go.write_text("")
        for p in procs:
            if p.poll() is None:
                p.kill()
    results = sorted(out.read_text() for out in outs)
    assert results == ["built [('fast',)]", "opened [('fast',)]"], results
    assert len(mark.read_text().split()) == 1


# -- item 16: out of memory ----------------------------------------------------------------


def test_cli_out_of_memory_is_one_line(
    fresh: Path,
    small_source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ulimit -v 250000`` made the index's mapping fail (``ENOMEM``): the index was then
    rebuilt, and the build's ``MemoryError`` was an ``internal error``.  Here the mapping
    fails as it does under that limit."""
    import errno
    import mmap

    from meteor.cli.command_line import main

    def no_memory(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENOMEM, os.strerror(errno.ENOMEM))

    monkeypatch.setattr(mmap, "mmap", no_memory)  # the index is built, then not mapped
    h = tmp_path / "h.txt"
    h.write_text("a quick brown fox\n")
    code = main(["score", "-p", "meteor-1.5", "-i", str(h), "-r", str(h)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines() == [
        "meteor: error: out of memory while mapping the paraphrase index; raise the memory "
        "limit, or try fewer workers (--workers 1) or a smaller input (split the files)"
    ]


# -- item 16: one rule for the API and the CLI -------------------------------------------


def test_empty_corpus_is_refused_like_the_cli() -> None:
    """Before: ``corpus_score([], [])`` returned 0.0, the CLI refused an empty corpus."""
    import meteor
    from meteor.errors import InputError

    for call in (lambda: meteor.corpus_score([], []), lambda: meteor.Meteor().corpus_score([], [])):
        with pytest.raises(InputError, match="no segments: hyps and refs are empty"):
            call()


def test_weight_of_a_module_not_in_use_is_refused_like_the_cli() -> None:
    import meteor
    from meteor.errors import ParamError

    with pytest.raises(ParamError, match=r"weights names module\(s\) stem that are not in use"):
        meteor.Meteor("meteor-1.5", modules=("exact",), weights={"exact": 1.0, "stem": 0.6})
    # the default weights, and modules changed alone, are still fine
    assert meteor.Meteor("meteor-1.5", modules=("exact",)).params.modules == (meteor.Module.EXACT,)
    assert meteor.Params(modules=("exact",)).weights == ((meteor.Module.EXACT, 1.0),)


@pytest.mark.parametrize("value", ["0.5", True])
def test_hf_compute_refuses_a_string_or_bool_alpha(value: object) -> None:
    """Before: ``float()`` read them as 0.5 and 1.0 (README: refused)."""
    from meteor.compat import evaluate
    from meteor.errors import ParamError

    with pytest.raises(ParamError, match=r"alpha must be a number in \[0.0, 1.0\], got"):
        evaluate.compute(predictions=["a b"], references=["a b"], alpha=value)  # type: ignore[arg-type]


def test_too_few_bootstrap_resamples_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``-b 1`` printed a "95% CI" that was one resample's score twice."""
    from meteor.cli.command_line import main

    h = tmp_path / "h.txt"
    h.write_text("a quick brown fox\nthe cat\n")
    code = main(["score", "-p", "nltk", "-i", str(h), "-r", str(h), "-b", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and "CI" not in out
    assert err.startswith("meteor: error: --bootstrap must be 0 (off) or at least 40, got 1")
