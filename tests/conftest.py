"""Shared test fixtures and the one way to reach the shared data.

Shared data (``../shared/data``)
================================
The full parity suites read real MT data and the Meteor 1.5 jar's outputs from the folder
``shared/data`` beside the repository (``../shared/data`` from the project root), or from the
folder named by the environment variable ``METEOR_SHARED_DATA``.  Those files are never copied
into the repository.  A clean clone has no such folder; there the golden subset committed in
``tests/data/golden`` (``tests/parity/test_golden.py``, always run) still checks every algorithm, and
every test that needs the shared folder goes through ONE helper here, which:

* returns the path when the shared folder is present;
* outside CI, SKIPS the test with one reason line, the same for every such test, so
  ``pytest -ra`` folds them into a single "SKIPPED [n] ... shared data not found at ...: clone it
  beside the repository ... or set METEOR_SHARED_DATA=..." line (plus a summary line at the end);
* in CI (``CI`` set to anything but ``""``/``0``/``false``/``no``), FAILS instead: CI has the data,
  so a skip there would hide a broken parity suite;
* fails (never skips) when the folder exists but the named file is missing: the data layout and
  the test disagree.

How to use it in a new test (pick one):

``shared_path("wmt21_ted_en-ru_mqm/meteor15.ru_exact_stem_norm.jsonl.gz")``
    the helper itself: call it inside the test or fixture (NOT at import or collection time, or
    the whole module errors on a clean clone), it returns the ``Path``;
``shared_data`` (fixture)
    the shared data folder as a ``Path`` (``shared_data / "ted_sk-en" / ...``);
``@pytest.mark.shared_data`` (marker, also as a module's ``pytestmark``)
    skips/fails the test before it runs when the folder is absent; then ``SHARED_DATA / rel``
    may be used directly;
``require_shared(path)``
    older spelling: ``path`` is any path under ``SHARED_DATA``; same rules.

``SHARED_DATA`` is the folder's path (it may not exist); never test ``SHARED_DATA.exists()``
yourself and skip: the helper is what makes CI fail instead.

Run the full suites on a clean clone with::

    git clone <shared-data repo> ../shared      # or: export METEOR_SHARED_DATA=/path/to/shared/data
    python -m pytest
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(
    os.environ.get("METEOR_SHARED_DATA") or PROJECT_ROOT.parent / "shared" / "data"
).resolve()
#: the golden subset committed with the repository (tests/data/golden/README.md)
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"


def in_ci() -> bool:
    """``CI`` is set the way CI services set it (``true``, ``1``, ...)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


_WHERE = f"shared data not found at {SHARED_DATA}"
_HOW = (
    "clone it beside the repository (../shared/data) or set METEOR_SHARED_DATA=/path/to/shared/data"
)
#: the one skip reason of every test that needs the shared data (outside CI)
SHARED_MISSING = (
    f"{_WHERE}: {_HOW} to run the full parity suites "
    "(the golden subset in tests/data/golden ran instead)"
)
#: the failure message in CI
SHARED_MISSING_CI = f"CI=true and {_WHERE}: the full parity suites must run in CI; {_HOW}"


def _shared_missing() -> None:
    """Skip (or, in CI, fail) the calling test when the shared folder is absent."""
    if not SHARED_DATA.is_dir():
        if in_ci():
            pytest.fail(SHARED_MISSING_CI, pytrace=False)
        pytest.skip(SHARED_MISSING)


def shared_path(rel: str | Path = "") -> Path:
    """``SHARED_DATA / rel``, skipping (outside CI) or failing (in CI) when the data is absent.

    Call it inside a test or fixture, never at import time.  When the shared folder exists
    but ``rel`` does not, the test fails: that is a real mismatch, not a clean clone.
    """
    _shared_missing()
    path = SHARED_DATA / rel
    if not path.exists():
        pytest.fail(f"shared data file not found: {path} (the folder {SHARED_DATA} exists)")
    return path


def require_shared(path: Path) -> Path:
    """``path`` under ``SHARED_DATA`` (older spelling of :func:`shared_path`; same rules)."""
    _shared_missing()
    if not path.exists():
        pytest.fail(f"shared data file not found: {path} (expected under {SHARED_DATA})")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder (skipped outside CI, failed in CI, when it is absent)."""
    return shared_path()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "shared_data: needs ../shared/data (skipped on a clean clone, a failure in CI)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The xdist groups of ``--dist loadgroup`` (pyproject.toml): a test file's tests on one
    worker (its module fixtures start once), and every browser test on one worker, one at
    a time: two Streamlit servers and two Chromiums drawing at once on a 2-core machine
    made waits for a drawn figure time out now and then."""
    for item in items:
        browser = item.get_closest_marker("browser") is not None
        item.add_marker(
            pytest.mark.xdist_group("browser" if browser else item.nodeid.split("::")[0])
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared_data") is not None:
        _shared_missing()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One closing line saying how many tests waited for the shared data and how to run them."""

    def count(kind: str, message: str) -> int:
        return sum(message in str(r.longrepr) for r in terminalreporter.stats.get(kind, []))

    skipped = count("skipped", SHARED_MISSING)
    failed = count("failed", SHARED_MISSING_CI) + count("error", SHARED_MISSING_CI)
    if skipped:
        terminalreporter.write_line(
            f"{skipped} tests need the shared data and were skipped: {SHARED_MISSING}", yellow=True
        )
    if failed:
        terminalreporter.write_line(
            f"{failed} tests failed for want of the shared data: {SHARED_MISSING_CI}", red=True
        )


def native_part(module: str, what: str) -> Any:
    """``meteor_native.<module>`` (``pip install ./native``) for a test comparing a C part
    with its Python code: without it the test is skipped on a user's machine (the library
    then runs the Python code) and fails in CI, where both are tested."""
    import importlib

    try:
        return importlib.import_module(f"meteor_native.{module}")
    except ImportError:
        if in_ci():
            pytest.fail(f"meteor_native is not installed: CI tests {what} in C too")
        pytest.skip(f"{what} in C is not installed (pip install ./native); Python code in use")


def assert_deferred_as_kept(m: Any, hyps: list[str], refs: list[str]) -> None:
    """A corpus run of ``m`` (records deferred: an aligner's ``corpus_pair`` in one go)
    gives the statistics, scores and, once read, records of a run that keeps them."""
    kept = m.score_segments(hyps, refs)
    deferred = m.score_segments(hyps, refs, candidates=False)
    for a, b in zip(kept, deferred, strict=True):
        assert b.alignment.pending() is not None
        assert (a.stats, a.score) == (b.stats, b.score)
        assert a.alignment.matches == b.alignment.matches
        assert a.alignment.chunks == b.alignment.chunks


def read_jsonl_gz(path: Path) -> Iterator[dict[str, Any]]:
    """Segment lines of a Meteor 1.5 harness file (the final corpus line is skipped)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "segment":
                yield d


def wordnet_forms(every: int) -> list[str]:
    """Every ``every``-th WordNet 3.0 lemma and exception form (index and ``.exc`` files, in
    file order) as it is: the words a stemmer's C twin is checked on."""
    from meteor.resources import wordnet_dir

    forms: list[str] = []
    for pos in ("noun", "verb", "adj", "adv"):
        with open(wordnet_dir() / f"index.{pos}", encoding="utf-8") as fh:
            forms += [line.split(" ", 1)[0] for line in fh if line[:1] != " "]
        with open(wordnet_dir() / f"{pos}.exc", encoding="utf-8") as fh:
            forms += [w for line in fh for w in line.split()]
    return forms[::every]


def golden_words() -> set[str]:
    """Every whitespace token of the committed golden files (texts and token lists), as it
    is and lowercased."""
    words: set[str] = set()
    for path in sorted(GOLDEN.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                for key in ("hyp", "refs", "hyp_tokens", "ref_tokens"):
                    value = row.get(key, "")
                    texts = [value] if isinstance(value, str) else value
                    toks = [t for text in texts if isinstance(text, str) for t in text.split()]
                    words.update(w for tok in toks for w in (tok, tok.lower()))
    return words


def corpus_line(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        last: dict[str, Any] = {}
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "corpus":
                last = d
        return last


def java_alignment(d: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The jar's alignment in a harness record as sorted (hyp span, ref span, stage)."""
    return sorted((tuple(a["hyp_span"]), tuple(a["ref_span"]), a["module"]) for a in d["alignment"])


def our_alignment(r: Any) -> list[tuple[Any, ...]]:
    """A ``MeteorResult``'s alignment in the form of ``java_alignment``."""
    return sorted(
        ((m.hyp.start, m.hyp.end), (m.ref.start, m.ref.end), m.module.value)
        for m in r.alignment.matches
    )


# -- languages: English, Russian and a toy third language ---------------------------------------


@pytest.fixture(scope="session")
def en_meteor() -> Any:
    """An English scorer with Meteor 1.5's defaults (preset ``meteor-1.5``)."""
    from meteor import Meteor

    return Meteor("meteor-1.5")


@pytest.fixture(scope="session")
def ru_meteor() -> Any:
    """A Russian scorer with the project's richest preset (``ru``: exact, lemma, stem,
    synonym and, when navec is installed, embedding)."""
    from meteor import Meteor
    from meteor.languages import get_language
    from meteor.module_registry import Module

    if Module.EMBEDDING in get_language("ru").modules:
        return Meteor("ru")
    return Meteor("ru", modules=("exact", "lemma", "stem", "synonym"))


#: The toy language's registry code ("xx" is Meteor 1.5's alias of ``other``).
TOY_CODE = "zz"


def _toy_language_class() -> type:
    """Zedish, a made-up language: the smallest complete :class:`meteor.languages.Language`.

    Function words ``lo`` and ``ka``; a stemmer ``toy`` that drops a plural ``-s``; two
    synonym sets (``mopa``/``fela``: 1, ``suno``/``lumo``: 2); stages exact, stem and
    synonym; no normaliser, lemmas, paraphrases or word vectors (the base class's
    "not available").
    """
    from meteor.languages import Language
    from meteor.module_registry import Module

    class Zedish(Language):
        code = TOY_CODE
        name = "Zedish"
        modules = frozenset({Module.EXACT, Module.STEM, Module.SYNONYM})
        stemmers = ("toy",)
        FUNCTION_WORDS = frozenset({"lo", "ka"})
        SYNSETS = {"mopa": 1, "fela": 1, "suno": 2, "lumo": 2}

        def is_function_word(self, word: str) -> bool:
            return word.lower() in self.FUNCTION_WORDS

        def stem(self, word: str, stemmer: str | None = None) -> str:
            if stemmer not in (None, "toy"):
                raise ValueError(f"unknown Zedish stemmer {stemmer!r}")
            return word[:-1] if len(word) > 2 and word.endswith("s") else word

        def synsets(self, word: str) -> frozenset[int]:
            sid = self.SYNSETS.get(word)
            return frozenset() if sid is None else frozenset({sid})

        def synonym_source(self) -> str:
            return "Zedish toy thesaurus (tests/conftest.py)"

    return Zedish


_TOY: list[Any] = []


@pytest.fixture
def toy_language() -> Iterator[Any]:
    """Zedish (code ``zz``) registered for one test with ONE line, then removed again.

    Proves a third language plugs in without touching the core: ``Params(lang="zz")``
    and ``meteor.score`` work while it is registered.  The same object each time (a
    registry code keeps its object for the whole process).
    """
    from meteor import languages

    if not _TOY:
        _TOY.append(_toy_language_class()())
    languages.register(_TOY[0], native_name="Zedish", aliases=("zedish",))  # the one line
    try:
        yield _TOY[0]
    finally:
        languages.unregister(TOY_CODE)


# -- app tests (tests/app/test_app.py, tests/browser/test_browser.py) -------------------------------


@pytest.fixture
def app_test(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Factory: ``app_test(**query_params)`` → an ``AppTest`` of ``app.py`` (not yet run).

    AppTest resets ``PagesManager.uses_pages_directory`` before every run; with a
    ``pages/`` folder beside ``app.py`` a rerun then goes through Streamlit's v1
    page discovery and executes the page file alone, without ``app.py``'s frame
    and sidebar.  The real server clears the flag for good once ``st.navigation``
    is called, so the fixture does the same.  (The pages call
    ``pages._frame.require_frame``, which catches such a run and reruns it through
    ``app.py``; the fixture spares every run that extra pass.  A plain ``AppTest``
    models a fresh server's first request: see
    ``test_app.py::test_deep_link_first_request_runs_inside_the_frame``.)
    """
    from streamlit.runtime import pages_manager
    from streamlit.testing.v1 import AppTest

    original = pages_manager.PagesManager.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        pages_manager.PagesManager.uses_pages_directory = False

    monkeypatch.setattr(pages_manager.PagesManager, "__init__", init)

    def make(**query: str | list[str]) -> AppTest:
        at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=120)
        for key, value in query.items():
            at.query_params[key] = value
        return at

    return make


# -- browser tests (tests/browser/test_browser.py, tests/browser/test_browser_security.py) ---------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test module (see ``_browser.py``)."""
    from _browser import CHROMIUM, CHROMIUM_ARGS

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server() -> Iterator[dict[str, Any]]:
    """``streamlit run app.py`` on a free port, one per test module (``_browser.streamlit_server``);
    a module that needs another environment defines its own ``server``."""
    from _browser import streamlit_server

    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    with streamlit_server(env) as srv:
        yield srv


#: The Meteor 1.5 expected-value files of the English WMT and TED sets (``-norm``).
WMT_EN_FILES = (
    "wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz",
    "newstest2009_cs-en/meteor15.en_default_norm.jsonl.gz",
    "ted_sk-en/meteor15.en_default_norm.jsonl.gz",
)


def wmt_en_texts() -> Iterator[str]:
    """Every hypothesis and reference of :data:`WMT_EN_FILES`, in file order (shared data:
    skipped or failed as :func:`shared_path` says when it is absent)."""
    for name in WMT_EN_FILES:
        for d in read_jsonl_gz(shared_path(name)):
            yield d["hyp"]
            yield from d["refs"]
