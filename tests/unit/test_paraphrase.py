"""Tests of :mod:`meteor.languages.paraphrase`: Meteor 1.5's paraphrase candidates from a compact index.

Three layers:

* a small synthetic table, against a literal Python reading of Meteor 1.5's
  ``ParaphraseTransducer`` + ``ParaphraseMatcher`` (:class:`NaiveMeteorMatcher`):
  exact order and duplicates, Java line ends and tokenising, the cache checks;
* the real English table (``pycocoevalcap==1.2``), against lattices dumped from
  the jar for hand cases (small expected values, typed in below);
* the Meteor 1.5 alignments of real MT data in ``../shared/data``: every
  paraphrase match Java chose must be among our candidates; and (``slow``) the
  exact candidate lists of 600 real segments against the naive reader run on
  the relevant part of the real table.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import SHARED_DATA, read_jsonl_gz, require_shared, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor.languages import ResourceError, paraphrase, paraphrase_build
from meteor.languages.paraphrase import ParaphraseTable, get_table
from meteor.languages.paraphrase_build import build_index
from meteor.languages.paraphrase_index import InvalidIndexError, StaleIndexError

Candidate = tuple[int, int, int, int]

# --------------------------------------------------------------------------- naive reference


def java_lines(text: str) -> list[str]:
    """``BufferedReader.readLine`` over the whole text (``\\n``, ``\\r``, ``\\r\\n``)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def java_tokens(line: str) -> tuple[str, ...]:
    """``new StringTokenizer(line)``: split on space, tab, newline, CR and form feed only."""
    return tuple(re.findall(r"[^ \t\n\r\f]+", line))


class NaiveMeteorMatcher:
    """A deliberately plain model of the Java classes, for small tables only.

    ``ParaphraseTransducer``: records are (A, B) in file order; a trie over A
    whose nodes are the prefixes of A phrases, each end node emitting its
    records in file order.  ``ParaphraseMatcher.match``: walk the trie from each
    reference position, look for each record's B anywhere in the hypothesis;
    then the same from each hypothesis position.
    """

    def __init__(self, text: str) -> None:
        lines = java_lines(text)
        self.records: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        for k in range(0, len(lines) - 2, 3):
            self.records.append((java_tokens(lines[k + 1]), java_tokens(lines[k + 2])))
        self.nodes: set[tuple[str, ...]] = set()
        self.emits: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for idx, (a, _) in enumerate(self.records):
            for n in range(1, len(a) + 1):
                self.nodes.add(a[:n])
            self.emits[a].append(idx)

    def walk(self, words: Sequence[str], start: int) -> list[tuple[int, int]]:
        """``State.getPaths``: ``(length, record)`` pairs, shortest phrase first."""
        out: list[tuple[int, int]] = []
        for n in range(1, len(words) - start + 1):
            key = tuple(words[start : start + n])
            if key not in self.nodes:
                break
            out += [(n, r) for r in self.emits.get(key, [])]
        return out

    @staticmethod
    def occurrences(words: Sequence[str], phrase: tuple[str, ...]) -> list[int]:
        return [i for i in range(len(words)) if tuple(words[i : i + len(phrase)]) == phrase]

    def candidates(self, hyp: Sequence[str], ref: Sequence[str]) -> list[Candidate]:
        out: list[Candidate] = []
        for j in range(len(ref)):
            for n, r in self.walk(ref, j):
                b = self.records[r][1]
                out += [(i, len(b), j, n) for i in self.occurrences(hyp, b)]
        for i in range(len(hyp)):
            for n, r in self.walk(hyp, i):
                b = self.records[r][1]
                out += [(i, n, j, len(b)) for j in self.occurrences(ref, b)]
        return out


def lattice(cands: Sequence[Candidate]) -> list[Candidate]:
    """Meteor's ``s.matches`` lists concatenated by reference position (a stable grouping)."""
    return sorted(cands, key=lambda c: c[2])


# --------------------------------------------------------------------------- a synthetic table

# Probability line, A, B.  Covers: several records per A (file order kept),
# mirrored pairs (duplicates across the two directions), an exact duplicate
# record, A groups that are not contiguous, an identical pair, extra spaces and
# tabs (StringTokenizer), mixed line ends, an empty A (never emitted by Java)
# and a last line without a line end.
SYNTH_RECORDS = [
    ("0.5", "a b", "c"),
    ("0.1", "a b", "d e"),
    ("0.2", "c", "a b"),
    ("0.3", "a", "c"),
    ("0.3", "a", "c"),  # exact duplicate record
    ("0.4", "d", "e"),
    ("0.4", "e", "d"),
    ("0.1", "a b", "e"),  # the "a b" group again, after other phrases
    ("0.2", "b  c", "a\td"),  # double space and a tab
    ("0.2", " d e ", "b"),  # leading and trailing spaces
    ("0.9", "e", "e"),  # identical pair: Meteor proposes it (no "different words" test)
    ("0.2", "   ", "a"),  # empty A: Java adds it to the trie root, which is never read
    ("0.7", "c d e a", "b"),
]
SYNTH_WORDS = ["a", "b", "c", "d", "e", "zz"]  # zz is not in the table


def synth_text(line_ends: Sequence[str] = ("\n",), final_newline: bool = True) -> str:
    parts: list[str] = []
    k = 0
    for rec in SYNTH_RECORDS:
        for line in rec:
            parts.append(line + line_ends[k % len(line_ends)])
            k += 1
    text = "".join(parts)
    return text if final_newline else text.rstrip("\r\n")


def write_gz(path: Path, text: str) -> Path:
    with gzip.open(path, "wb") as fh:
        fh.write(text.encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> tuple[ParaphraseTable, NaiveMeteorMatcher]:
    d = tmp_path_factory.mktemp("synth")
    text = synth_text(("\n", "\r\n", "\r"), final_newline=False)
    src = write_gz(d / "paraphrase-xx.gz", text)
    build_index(src, d / "synth.idx", lang="xx")
    return ParaphraseTable.open(d / "synth.idx"), NaiveMeteorMatcher(text)


def test_synthetic_hand_order(synth: tuple[ParaphraseTable, NaiveMeteorMatcher]) -> None:
    table, naive = synth
    hyp = ["c", "zz", "a", "b"]
    ref = ["a", "b", "c"]
    expected = [
        # direction 1 (ParaphraseMatcher.java:31-66): walk the reference
        (0, 1, 0, 1),  # ref "a" -> hyp "c" (record 4)
        (0, 1, 0, 1),  # the same again (record 5 duplicates record 4)
        (0, 1, 0, 2),  # ref "a b" -> "c": longer A phrases after shorter ones
        (2, 2, 2, 1),  # ref "c" -> hyp "a b"
        # direction 2 (:68-101): walk the hypothesis
        (0, 1, 0, 2),  # hyp "c" -> ref "a b": the mirror record, so a duplicate
        (2, 1, 2, 1),  # hyp "a" -> ref "c"
        (2, 1, 2, 1),  # the duplicate record again
        (2, 2, 2, 1),  # hyp "a b" -> ref "c": a duplicate of direction 1
    ]
    assert table.candidates(hyp, ref) == expected
    assert naive.candidates(hyp, ref) == expected


def test_synthetic_whitespace_and_identical_pairs(
    synth: tuple[ParaphraseTable, NaiveMeteorMatcher],
) -> None:
    table, naive = synth
    # "b  c" -> "a\td" is the phrase pair (b c) -> (a d); " d e " -> "b" is (d e) -> (b).
    # (hyp "a" -> ref "c" comes twice from the duplicated record.)
    assert table.candidates(["a", "d"], ["b", "c"]) == [(0, 2, 0, 2), (0, 1, 1, 1), (0, 1, 1, 1)]
    assert table.candidates(["b"], ["d", "e"]) == [(0, 1, 0, 2)]
    # e -> e is proposed from both sides.
    assert table.candidates(["e"], ["e"]) == [(0, 1, 0, 1), (0, 1, 0, 1)]
    assert naive.candidates(["e"], ["e"]) == [(0, 1, 0, 1), (0, 1, 0, 1)]
    assert table.lookup(["b", "c"]) == [("a", "d")]
    assert table.lookup(["a", "b"]) == [("c",), ("d", "e"), ("e",)]  # file order, then reverse
    assert table.lookup(["zz"]) == []
    assert table.lookup([]) == []
    assert table.header["skipped_empty_b"] == 0


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    hyp=st.lists(st.sampled_from(SYNTH_WORDS), max_size=9),
    ref=st.lists(st.sampled_from(SYNTH_WORDS), max_size=9),
)
def test_synthetic_equals_naive_matcher(
    synth: tuple[ParaphraseTable, NaiveMeteorMatcher], hyp: list[str], ref: list[str]
) -> None:
    table, naive = synth
    assert table.candidates(hyp, ref) == naive.candidates(hyp, ref)


@pytest.mark.parametrize(
    ("ends", "final"),
    [(("\n",), True), (("\r\n",), True), (("\r",), True), (("\r",), False), (("\n", "\r"), False)],
)
def test_java_line_ends_give_the_same_index(
    tmp_path: Path, ends: tuple[str, ...], final: bool
) -> None:
    """``BufferedReader.readLine`` line ends (ParaphraseTransducer.java:104-108)."""
    ref = build_index(write_gz(tmp_path / "a.gz", synth_text()), tmp_path / "a.idx")
    got = build_index(write_gz(tmp_path / "b.gz", synth_text(ends, final)), tmp_path / "b.idx")
    same = ("n_records", "n_phrases", "n_a", "n_vocab", "width", "seed")
    assert {k: got[k] for k in same} == {k: ref[k] for k in same}
    a = ParaphraseTable.open(tmp_path / "a.idx")
    b = ParaphraseTable.open(tmp_path / "b.idx")
    for hyp, rf in [(["c", "a", "b"], ["a", "b", "c"]), (["d", "e", "b"], ["b", "d", "e"])]:
        assert a.candidates(hyp, rf) == b.candidates(hyp, rf)


def test_truncated_table_is_refused(tmp_path: Path) -> None:
    src = write_gz(tmp_path / "t.gz", "0.1\na\nb\n0.2\nc\n")  # the last record lacks its B line
    with pytest.raises(ValueError, match="3-line record"):
        build_index(src, tmp_path / "t.idx")


def test_empty_b_records_are_skipped_and_counted(tmp_path: Path) -> None:
    src = write_gz(tmp_path / "e.gz", "0.1\na\n  \n0.2\na\nb\n")
    header = build_index(src, tmp_path / "e.idx")
    assert header["skipped_empty_b"] == 1
    assert ParaphraseTable.open(tmp_path / "e.idx").candidates(["b"], ["a"]) == [(0, 1, 0, 1)]


def test_empty_inputs(synth: tuple[ParaphraseTable, NaiveMeteorMatcher]) -> None:
    table, _ = synth
    assert table.candidates([], ["a"]) == []
    assert table.candidates(["a"], []) == []
    assert table.candidates(["zz"], ["zz"]) == []


# --------------------------------------------------------------------------- cache integrity


@pytest.fixture
def small_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``load("xx")`` reads a small table instead of the jar's."""
    src = write_gz(tmp_path / "paraphrase-xx.gz", synth_text())
    from meteor import resources

    monkeypatch.setattr(resources, "paraphrase_table_path", lambda lang="en": src)
    return src


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flip-payload":
        data[len(data) // 2] ^= 0x55
        path.write_bytes(data)
    elif how == "flip-header":
        data[20] ^= 0x01
        path.write_bytes(data)
    elif how == "flip-digest":
        data[-1] ^= 0x01
        path.write_bytes(data)
    elif how == "garbage":
        path.write_bytes(b"not an index at all")
    elif how == "empty":
        path.write_bytes(b"")
    else:  # pragma: no cover
        raise AssertionError(how)


HYP = ["c", "zz", "a", "b", "d", "e"]
REF = ["a", "b", "c", "e", "d"]


@pytest.mark.parametrize(
    "how", ["truncate", "flip-payload", "flip-header", "flip-digest", "garbage", "empty"]
)
def test_damaged_cache_is_rebuilt(small_source: Path, tmp_path: Path, how: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    calls: list[tuple[float, str]] = []
    first = ParaphraseTable.load("xx", cache=cache, progress=lambda f, m: calls.append((f, m)))
    expected = first.candidates(HYP, REF)
    assert expected and calls and calls[-1][0] == 1.0
    path = first.path
    assert path.parent == cache
    del first

    # Reading a valid index reports no progress (nothing is built).
    calls.clear()
    assert ParaphraseTable.load("xx", cache=cache, progress=lambda f, m: calls.append((f, m)))
    assert calls == []

    _damage(path, how)
    with pytest.raises(InvalidIndexError):
        ParaphraseTable.open(path)
    again = ParaphraseTable.load("xx", cache=cache, progress=lambda f, m: calls.append((f, m)))
    assert calls and calls[-1][0] == 1.0  # it was rebuilt ...
    assert again.candidates(HYP, REF) == expected  # ... and gives the same candidates
    # no temporary file left; the build lock (issue 31: two first runs build once) stays,
    # as a lock file taken with flock does
    assert sorted(p.name for p in cache.iterdir()) == [path.name, f"{path.name}.lock"]


def test_stale_cache_is_rebuilt(small_source: Path, tmp_path: Path) -> None:
    calls: list[float] = []
    t = ParaphraseTable.load("xx", cache=tmp_path)
    st_ = small_source.stat()
    data = bytearray(small_source.read_bytes())
    data[5] ^= 0x01  # the gzip header's time stamp: same size, other bytes, still a table
    small_source.write_bytes(bytes(data))
    with pytest.raises(StaleIndexError, match="another version"):
        ParaphraseTable.open(
            t.path, expect_source={"size": st_.st_size, "mtime_ns": st_.st_mtime_ns + 10**9}
        )
    ParaphraseTable.load("xx", cache=tmp_path, progress=lambda f, m: calls.append(f))
    assert calls and calls[-1] == 1.0  # other bytes: rebuilt


def test_the_same_table_at_another_time_is_not_rebuilt(small_source: Path, tmp_path: Path) -> None:
    """Each environment installs its own copy of the table (its own modification time):
    the index is kept when the bytes are the same, and the check is paid once."""
    t = ParaphraseTable.load("xx", cache=tmp_path)
    assert t.header["source"]["sha256"] == hashlib.sha256(small_source.read_bytes()).hexdigest()
    st_ = small_source.stat()
    os.utime(small_source, ns=(st_.st_atime_ns, st_.st_mtime_ns + 10**9))
    calls: list[float] = []
    again = ParaphraseTable.load("xx", cache=tmp_path, progress=lambda f, m: calls.append(f))
    assert calls == []  # not rebuilt
    assert again.candidates(HYP, REF) == t.candidates(HYP, REF)
    seen = t.path.with_name(t.path.name + ".sources.json")
    assert json.loads(seen.read_text()) == [
        [t.header["source"]["sha256"], st_.st_size, st_.st_mtime_ns + 10**9]
    ]
    with pytest.MonkeyPatch.context() as mp:  # remembered: no digest the next time
        mp.setattr(paraphrase_build, "file_sha256", lambda p: pytest.fail("hashed again"))
        assert ParaphraseTable.load("xx", cache=tmp_path, progress=lambda f, m: calls.append(f))
    assert calls == []
    seen.write_text("not json")  # a damaged note only costs the digest
    assert ParaphraseTable.load("xx", cache=tmp_path, progress=lambda f, m: calls.append(f))
    assert calls == []


def test_progress_is_monotone_and_ends_at_one(small_source: Path, tmp_path: Path) -> None:
    calls: list[tuple[float, str]] = []
    build_index(small_source, tmp_path / "p.idx", progress=lambda f, m: calls.append((f, m)))
    fracs = [f for f, _ in calls]
    assert fracs == sorted(fracs)
    assert 0.0 <= fracs[0] and fracs[-1] == 1.0
    assert all(isinstance(m, str) and m for _, m in calls)


def test_cache_argument_may_name_the_file(small_source: Path, tmp_path: Path) -> None:
    target = tmp_path / "sub" / "my.idx"
    t = ParaphraseTable.load("xx", cache=target)
    assert t.path == target and target.is_file()


def test_stale_temporary_files_are_removed(small_source: Path, tmp_path: Path) -> None:
    dest = tmp_path / "x.idx"
    junk = tmp_path / "x.idx.abc123.tmp"
    junk.write_bytes(b"half a file")
    os.utime(junk, (0, 0))
    build_index(small_source, dest)
    assert not junk.exists() and dest.is_file()


def test_interrupted_build_leaves_no_index(small_source: Path, tmp_path: Path) -> None:
    class StopRunError(Exception):
        pass

    def stop(frac: float, msg: str) -> None:
        raise StopRunError  # as Streamlit stops a script run that the user restarts

    with pytest.raises(StopRunError):
        ParaphraseTable.load("xx", cache=tmp_path, progress=stop)
    assert not any(p.suffix == ".idx" for p in tmp_path.iterdir())
    assert ParaphraseTable.load("xx", cache=tmp_path).candidates(HYP, REF)


def test_failed_build_reports_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = write_gz(tmp_path / "paraphrase-xx.gz", "0.1\na\n")
    from meteor import resources

    monkeypatch.setattr(resources, "paraphrase_table_path", lambda lang="en": bad)
    with pytest.raises(RuntimeError, match="3-line record"):
        ParaphraseTable.load("xx", cache=tmp_path)


def test_missing_language_names_the_fix() -> None:
    with pytest.raises(ResourceError, match="pip install"):
        get_table("zz")


# --------------------------------------------------------------------------- the real English table


@pytest.fixture(scope="module")
def en() -> ParaphraseTable:
    return get_table("en")  # pycocoevalcap is a test dependency: a ResourceError fails


def test_get_table_is_process_wide(en: ParaphraseTable) -> None:
    called: list[float] = []
    assert get_table("en", progress=lambda f, m: called.append(f)) is en
    assert called == []  # progress only matters for the call that loads


# Lattices dumped from the jar (Stage.matches after ParaphraseMatcher.match, by
# reference position), for already-normalised token lists.
# fmt: off
JAVA_LATTICES: list[tuple[str, str, list[Candidate]]] = [
    (
        "for example the results will be shown",
        "for instance the results are shown",
        [
            (1, 1, 0, 2), (0, 2, 0, 2), (0, 2, 0, 3), (0, 3, 0, 3), (0, 2, 0, 2),
            (1, 1, 1, 1), (0, 2, 1, 1), (1, 1, 1, 2), (1, 2, 1, 2), (1, 1, 1, 1),
            (3, 2, 3, 2), (3, 2, 3, 2), (3, 3, 3, 2), (5, 1, 4, 1), (4, 2, 4, 2),
            (4, 2, 4, 1),
        ],
    ),
    (
        "under the starry night , we danced with glee .",
        "we danced with joy under the starry night .",
        [(7, 2, 2, 2), (8, 1, 3, 1)],  # "with glee" = "with joy", "glee" = "joy"
    ),
    ("glee", "joy", [(0, 1, 0, 1)]),
    ("joy", "glee", [(0, 1, 0, 1)]),
    (
        "a fast brown fox leapt over a lazy dog",
        "the quick brown fox jumps over the lazy dog",
        [(1, 1, 1, 1), (1, 1, 1, 1)],  # fast/quick from both directions: a duplicate
    ),
    (
        "we want to test it",
        "we wish to test it",
        [
            (1, 1, 0, 2), (1, 2, 0, 2), (0, 2, 0, 2), (0, 3, 0, 2), (1, 1, 0, 3),
            (1, 2, 0, 3), (0, 2, 0, 3), (0, 3, 0, 3), (0, 2, 0, 2), (0, 2, 0, 3),
            (0, 3, 0, 2), (0, 3, 0, 3), (1, 1, 1, 1), (1, 1, 1, 2), (1, 2, 1, 2),
            (0, 2, 1, 2), (0, 3, 1, 2), (1, 1, 1, 1), (1, 1, 1, 2), (1, 2, 1, 2),
        ],
    ),
    (
        "he said : \" don 't go to the us based café ! \"",
        "he said \" don 't go to the us based cafe \"",
        [(11, 1, 10, 1)],  # café = cafe
    ),
    # Candidates exist for an identical pair too; Aligner.align (:155-161) skips
    # every module but the first for it, which is the aligner's business.
    ("the cat sat on the mat", "the cat sat on the mat", []),
    ("Aa", "BB", []),  # equal String.hashCode, but this stage compares strings
    ("in order to", "so as to", []),
    ("the cat and the dog", "the dog and the cat", []),
]
# fmt: on


@pytest.mark.parametrize(("hyp", "ref", "java"), JAVA_LATTICES)
def test_real_table_matches_java_lattice(
    en: ParaphraseTable, hyp: str, ref: str, java: list[Candidate]
) -> None:
    assert lattice(en.candidates(hyp.split(), ref.split())) == java


def test_real_table_global_order_is_direction_one_then_two(en: ParaphraseTable) -> None:
    got = en.candidates("a fast car".split(), "the quick car".split())
    # Direction 1 finds "quick" at ref 1 first; direction 2 then finds "fast" at hyp 1.
    assert got[0] == (1, 1, 1, 1) and got[-1] == (1, 1, 1, 1)


def test_real_table_lookup(en: ParaphraseTable) -> None:
    glee = en.lookup(["glee"])
    assert ("joy",) in glee
    assert ("glee",) in en.lookup(["joy"])  # the reverse direction is included
    assert ("for", "instance") in en.lookup(["for", "example"])
    assert en.lookup(["qqqzzz"]) == []
    assert len(glee) == len(set(glee))


def test_real_index_damage_is_detected(en: ParaphraseTable, tmp_path: Path) -> None:
    copy = tmp_path / en.path.name
    shutil.copyfile(en.path, copy)
    assert ParaphraseTable.open(copy).candidates(["glee"], ["joy"]) == [(0, 1, 0, 1)]
    with open(copy, "r+b") as fh:  # one flipped bit deep in the phrase arrays
        fh.seek(en.path.stat().st_size * 2 // 3)
        b = fh.read(1)
        fh.seek(-1, os.SEEK_CUR)
        fh.write(bytes([b[0] ^ 0x01]))
    with pytest.raises(InvalidIndexError, match="checksum"):
        ParaphraseTable.open(copy)
    with open(copy, "r+b") as fh:
        fh.truncate(en.path.stat().st_size - 1000)
    with pytest.raises(InvalidIndexError):
        ParaphraseTable.open(copy)


DATA_FILES = [
    "newstest2009_cs-en/meteor15.en_default_norm.jsonl.gz",
    "ted_sk-en/meteor15.en_default_norm.jsonl.gz",
    "wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz",
    "meteor15_cases/cases.default_norm.jsonl.gz",
]


@pytest.mark.slow
def test_java_paraphrase_matches_are_candidates(en: ParaphraseTable) -> None:
    """Every paraphrase match in Meteor 1.5's final alignments is among the candidates."""
    total = found = segments = 0
    missing: list[tuple[str, list[int], list[int]]] = []
    for name in DATA_FILES:
        path = require_shared(SHARED_DATA / name)
        for seg in read_jsonl_gz(path):
            chosen = [a for a in seg["alignment"] if a["module"] == "paraphrase"]
            if not chosen:
                continue
            segments += 1
            cands = set(en.candidates(seg["hyp_tokens"], seg["ref_tokens"]))
            for a in chosen:
                (hs, he), (rs, re_) = a["hyp_span"], a["ref_span"]
                total += 1
                if (hs, he - hs, rs, re_ - rs) in cands:
                    found += 1
                else:
                    missing.append((" ".join(seg["hyp_tokens"]), a["hyp_span"], a["ref_span"]))
    print(
        f"\nparaphrase matches chosen by Meteor 1.5: {total} in {segments} segments; "
        f"among our candidates: {found} ({found / max(total, 1):.2%})"
    )
    assert total > 1000
    assert missing == []


@pytest.mark.slow
def test_real_table_equals_naive_matcher(en: ParaphraseTable) -> None:
    """Exact order and duplicates against the naive reader, on 400 real segments."""
    segs: list[tuple[list[str], list[str]]] = []
    for name in DATA_FILES[:3]:
        for k, seg in enumerate(read_jsonl_gz(shared_path(name))):
            if k % 40 == 0:
                segs.append((seg["hyp_tokens"], seg["ref_tokens"]))
    wanted: set[str] = set()
    for hyp, ref in segs:
        for words in (hyp, ref):
            for i in range(len(words)):
                for n in range(1, 8):
                    wanted.add(" ".join(words[i : i + n]))
    from meteor import resources

    kept: list[str] = []
    rest: list[str] = []
    with gzip.open(resources.paraphrase_table_path("en"), "rt", encoding="utf-8") as fh:
        while chunk := fh.readlines(1 << 22):
            lines = rest + chunk
            whole = len(lines) - len(lines) % 3
            rest = lines[whole:]
            for k in range(0, whole, 3):
                if lines[k + 1].rstrip("\n") in wanted:
                    kept += lines[k : k + 3]
    assert rest == []
    naive = NaiveMeteorMatcher("".join(kept))
    for hyp, ref in segs:
        assert en.candidates(hyp, ref) == naive.candidates(hyp, ref)


def test_batched_sentence_lookups_equal_single_ones(en: ParaphraseTable) -> None:
    """``phrases_many`` (one vectorised walk for a block of sentences) = ``phrases`` each."""
    sents: list[list[str]] = [[]]
    for k, seg in enumerate(read_jsonl_gz(shared_path(DATA_FILES[0]))):
        if k % 25 == 0:
            sents += [seg["hyp_tokens"], seg["ref_tokens"], []]
        if len(sents) > 120:
            break
    many = en.phrases_many(sents)
    assert many == [en.phrases(s) for s in sents]
    assert en.phrases_many([]) == []
    assert sum(len(p.wants) for p in many) > 1000  # the block really holds paraphrases
    for a, b in zip(sents[1::3], sents[2::3], strict=True):
        pa, pb = many[sents.index(a)], many[sents.index(b)]
        assert en.pair_candidates(pa, pb) == en.candidates(a, b)


def test_module_main_lookup(en: ParaphraseTable, capsys: pytest.CaptureFixture[str]) -> None:
    assert paraphrase.main(["lookup", "glee"]) == 0
    assert "joy" in capsys.readouterr().out.split("\n")
