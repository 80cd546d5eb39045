"""The nltk-compatible aligner against nltk 3.10.4 itself, and the offline WordNet.

nltk's numbers are non-canonical (``dependencies.md`` section 6.2); they are the
expected values here only because this aligner's contract is "what nltk does".
nltk runs in the test, on the same WordNet reader, and its private stage
functions are the oracle for the alignment itself.
"""

from __future__ import annotations

import csv
import os
import stat
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nltk.translate.meteor_score as nltk_meteor
import pytest
from conftest import shared_path
from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.stem.porter import PorterStemmer

from meteor.aligners.greedy import align_nltk, nltk_candidates
from meteor.languages.nltk_wordnet import (
    STAMP_NAME,
    WORDNET_FILES,
    FastWordNetCorpusReader,
    ensure_wordnet_copy,
    register_data_root,
    wordnet_reader,
)
from meteor.module_registry import Module
from meteor.resources import wordnet_dir
from meteor.types import Match

WMT_SEGMENTS = 2750  # every 4th line of all_outputs.tsv (11 systems x 1000)


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="module")
def wn() -> WordNetCorpusReader:
    return wordnet_reader()


def nltk_score_from(matches: Sequence[Match], n_hyp: int, n_ref: int) -> float:
    """nltk's formula (``single_meteor_score``) on our matches, chunks as ``_count_chunks``."""
    pairs = sorted((m.hyp.start, m.ref.start) for m in matches)  # nltk sorts by hyp index
    m = len(pairs)
    try:
        precision = m / n_hyp
        recall = m / n_ref
        fmean = precision * recall / (0.9 * precision + 0.1 * recall)
        chunks = 1
        for (h0, r0), (h1, r1) in zip(pairs, pairs[1:], strict=False):
            if not (h1 == h0 + 1 and r1 == r0 + 1):
                chunks += 1
        frag = chunks / m
    except ZeroDivisionError:
        return 0.0
    return (1 - 0.5 * frag**3.0) * fmean


def nltk_alignment(hyp: list[str], ref: list[str], wn: Any) -> dict[tuple[int, int], str]:
    """(hyp, ref) -> stage, from nltk's own stage functions (the oracle)."""
    eh, er = list(enumerate(hyp)), list(enumerate(ref))
    exact, eh, er = nltk_meteor._match_enums(eh, er)
    stem, eh, er = nltk_meteor._enum_stem_match(eh, er, stemmer=PorterStemmer())
    syn, _, _ = nltk_meteor._enum_wordnetsyn_match(eh, er, wordnet=wn)
    out = {p: "exact" for p in exact}
    out.update({p: "stem" for p in stem})
    out.update({p: "synonym" for p in syn})
    return out


def check_against_nltk(hyp_text: str, ref_text: str, wn: Any, *, enum: bool = True) -> bool:
    """Same pairs and stages as nltk, and nltk's score from our matches to 1e-12.

    With ``enum`` the pairs are also compared with ``_enum_align_words`` (the
    stage functions in sequence, which the stage oracle already calls).
    """
    hyp, ref = hyp_text.lower().split(), ref_text.lower().split()
    ours = align_nltk(hyp, ref, wordnet=wn)
    got = {(m.hyp.start, m.ref.start): m.module.value for m in ours}
    same = got == nltk_alignment(hyp, ref, wn)
    if enum:
        enum_pairs, _, _ = nltk_meteor._enum_align_words(
            list(enumerate(hyp)), list(enumerate(ref)), wordnet=wn
        )
        same = same and sorted(got) == enum_pairs
    # nltk lowercases itself; feed it the original tokens
    expected = nltk_meteor.meteor_score([ref_text.split()], hyp_text.split(), wordnet=wn)
    return same and abs(nltk_score_from(ours, len(hyp), len(ref)) - expected) <= 1e-12


# --------------------------------------------------------------------------- WordNet


def test_reader_is_fast_cached_and_offline(wn: WordNetCorpusReader) -> None:
    import nltk.data

    assert isinstance(wn, FastWordNetCorpusReader)
    assert wordnet_reader() is wn
    root = Path(nltk.data.path[0])
    assert (root / "corpora" / "wordnet" / STAMP_NAME).is_file()
    assert wn.get_version() == "3.0"
    assert {"jump", "leap"} <= {lem.name() for s in wn.synsets("leapt") for lem in s.lemmas()}


def test_reader_first_build_is_shared_across_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Concurrent first calls build once (the lock) and all get the same reader."""
    import time

    import meteor.languages.nltk_wordnet as nw

    builds: list[Path] = []

    def slow_build(target: Path, cls: Any = None) -> Any:
        builds.append(target)
        time.sleep(0.2)
        return object()

    monkeypatch.setattr(nw, "_build_reader", slow_build)
    got: list[Any] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            got.append(wordnet_reader(tmp_path))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 4 and all(r is got[0] for r in got)
    assert builds == [tmp_path / "nltk_data" / "corpora" / "wordnet"]
    assert (builds[0] / STAMP_NAME).is_file()


def test_copy_is_lf_private_and_stamped(tmp_path: Path) -> None:
    root = ensure_wordnet_copy(tmp_path)
    target = root / "corpora" / "wordnet"
    src = wordnet_dir()
    for name in WORDNET_FILES:
        data = (target / name).read_bytes()
        assert b"\r\n" not in data
        assert data == (src / name).read_bytes().replace(b"\r\n", b"\n")
        assert stat.S_IMODE((target / name).stat().st_mode) == 0o644
    for folder in (root, root / "corpora", target):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert (target / STAMP_NAME).is_file()
    assert not list(target.glob(".*.tmp"))


def test_half_written_copy_is_rebuilt(tmp_path: Path) -> None:
    root = ensure_wordnet_copy(tmp_path)
    target = root / "corpora" / "wordnet"
    noun = target / "data.noun"
    good = noun.stat().st_size
    # a finished copy is left alone
    inode = noun.stat().st_ino
    ensure_wordnet_copy(tmp_path)
    assert noun.stat().st_ino == inode
    # a truncated file (size mismatch) is rewritten
    with noun.open("r+b") as fh:
        fh.truncate(1000)
    ensure_wordnet_copy(tmp_path)
    assert noun.stat().st_size == good
    # no stamp: rebuilt (a file written by a crashed build is replaced)
    (target / STAMP_NAME).unlink()
    (target / "lexnames").write_bytes(b"broken")
    ensure_wordnet_copy(tmp_path)
    assert (target / "lexnames").read_bytes() == (wordnet_dir() / "lexnames").read_bytes().replace(
        b"\r\n", b"\n"
    )
    assert (target / STAMP_NAME).is_file()
    # loosened permissions are not accepted either
    os.chmod(noun, 0o666)
    ensure_wordnet_copy(tmp_path)
    assert stat.S_IMODE(noun.stat().st_mode) == 0o644


@pytest.mark.slow  # building the stock reader alone takes about 5 s
def test_fast_reader_equals_stock_reader(wn: WordNetCorpusReader) -> None:
    """Skipping ``map_wn`` changes no English lookup (dependencies.md 2.3, fast reader)."""
    import warnings

    import nltk.data

    root = Path(nltk.data.path[0])
    register_data_root(root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stock = WordNetCorpusReader(str(root / "corpora" / "wordnet"), None)
    words: set[str] = set()
    for row in read_tsv(shared_path("wmt21_ru-en_da/all_outputs.tsv"))[:100]:
        words.update(row["hyp"].lower().split())
        words.update(row["ref"].lower().split())
    stemmer = PorterStemmer()
    words |= {stemmer.stem(w) for w in list(words)}
    words |= {"leapt", "jumps", "automobile", "dog", "better", "geese", "ran"}
    for w in sorted(words):
        ours = [(s.name(), tuple(lem.name() for lem in s.lemmas())) for s in wn.synsets(w)]
        theirs = [(s.name(), tuple(lem.name() for lem in s.lemmas())) for s in stock.synsets(w)]
        assert ours == theirs, w


def test_documented_value(wn: WordNetCorpusReader) -> None:
    """dependencies.md section 2.3: the fox example is 0.7687074829931974."""
    hyp = "A fast brown fox leapt over a lazy dog"
    ref = "The quick brown fox jumps over the lazy dog"
    expected = nltk_meteor.meteor_score([ref.split()], hyp.split(), wordnet=wn)
    assert expected == 0.7687074829931974
    ours = align_nltk(hyp.lower().split(), ref.lower().split(), wordnet=wn)
    assert abs(nltk_score_from(ours, 9, 9) - expected) <= 1e-12
    by_hyp = {m.hyp_words[0]: m for m in ours}
    assert by_hyp["leapt"].module is Module.SYNONYM
    assert by_hyp["leapt"].ref_words == ("jumps",)
    assert "jump (stem of jumps)" in by_hyp["leapt"].detail
    assert by_hyp["fast"].module is Module.SYNONYM
    assert len(ours) == 7


# --------------------------------------------------------------------------- aligner


def _check(row: dict[str, str], x: float) -> bool:
    """The ``nltk_check`` column (three shapes), without evaluating data as code."""
    check, expected = row["nltk_check"], float(row["nltk_expected"])
    if check.startswith("abs(round(x,4)-"):
        return abs(round(x, 4) - expected) < float(check.rsplit("<", 1)[1])
    if check.startswith("round(x,4)=="):
        return round(x, 4) == expected
    assert check == f"x=={row['nltk_expected']}", check
    return x == expected


def test_nltk_doctest_examples(wn: WordNetCorpusReader) -> None:
    rows = read_tsv(shared_path("nltk_examples/examples.tsv"))
    assert len(rows) == 7
    for row in rows:
        assert check_against_nltk(row["hyp"], row["ref"], wn), row["case"]
        hyp, ref = row["hyp"].lower().split(), row["ref"].lower().split()
        x = nltk_score_from(align_nltk(hyp, ref, wordnet=wn), len(hyp), len(ref))
        assert _check(row, x), (row["case"], x)


def test_multi_reference_docstring(wn: WordNetCorpusReader) -> None:
    lines = shared_path("nltk_examples/multi_ref_example.txt").read_text(encoding="utf-8")
    fields = dict(
        line.split(":", 1) for line in lines.splitlines() if line and not line.startswith("#")
    )
    hyp = fields["hyp"].split()
    refs = [fields[k].split() for k in ("ref1", "ref2", "ref3")]
    best = max(
        nltk_score_from(align_nltk([w.lower() for w in hyp], [w.lower() for w in r], wordnet=wn),
                        len(hyp), len(r))
        for r in refs
    )  # fmt: skip
    assert abs(best - nltk_meteor.meteor_score(refs, hyp, wordnet=wn)) <= 1e-12
    assert round(best, 4) == 0.6944


def test_greedy_right_to_left_quirk(wn: WordNetCorpusReader) -> None:
    """dependencies.md 6.1: ref "the dog and the cat", hyp "the dog" -> (0,3), (1,1), 0.2128."""
    ours = align_nltk(["the", "dog"], "the dog and the cat".split(), wordnet=wn)
    assert [(m.hyp.start, m.ref.start) for m in ours] == [(1, 1), (0, 3)]  # by ref index
    assert round(nltk_score_from(ours, 2, 5), 4) == 0.2128


def test_synonyms_run_on_stems(wn: WordNetCorpusReader) -> None:
    """automobile/car is missed because synsets('automobil') is empty (section 6.1)."""
    assert align_nltk(["automobile"], ["car"], wordnet=wn) == ()
    assert wn.synsets("automobile")


def test_stem_detail_and_words(wn: WordNetCorpusReader) -> None:
    (m,) = align_nltk(["jumping"], ["jumps"], wordnet=wn)
    assert m.module is Module.STEM and m.detail == "porter stem: jump"
    assert (m.hyp_words, m.ref_words) == (("jumping",), ("jumps",))


def test_rejects_strings(wn: WordNetCorpusReader) -> None:
    with pytest.raises(TypeError):
        align_nltk("a b", ["a"], wordnet=wn)  # type: ignore[arg-type]


class _Lemma:
    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name


class _Synset:
    def __init__(self, name: str, lemmas: list[str]) -> None:
        self._name, self._lemmas = name, [_Lemma(x) for x in lemmas]

    def name(self) -> str:
        return self._name

    def lemmas(self) -> list[_Lemma]:
        return self._lemmas


class _ToyWordNet:
    """A three-synset stand-in: the synonym stage needs only ``synsets(word)``."""

    table = {
        "big": [_Synset("big.a.01", ["big", "large", "great_big"])],
        "larg": [_Synset("large.a.01", ["large", "big"])],
        "hous": [_Synset("house.n.01", ["house", "home"])],
    }

    def synsets(self, word: str) -> list[_Synset]:
        return self.table.get(word, [])


def test_synonym_names_parse_every_synset_as_nltk(wn: WordNetCorpusReader) -> None:
    """The names ``FastWordNetCorpusReader`` reads from its memory map are nltk's Synset's
    (``lemma_names()``, ``name()``), for all 117,659 synsets of WordNet 3.0."""
    n = 0
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        with open(Path(wn.root.path) / f"data.{name}", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):  # the licence header
                    continue
                offset = int(line[:8])
                synset = wn.synset_from_pos_and_offset(pos, offset)
                assert wn._names_at(pos, offset) == (tuple(synset.lemma_names()), synset.name())
                n += 1
    assert n == 117_659


def test_synonym_names_equal_the_synset_objects(wn: WordNetCorpusReader) -> None:
    """``synonym_names(word)`` is what ``_synonyms`` builds from ``synsets(word)``, keys in
    the same order, for words, their stems, inflected forms and marked adjectives."""
    from meteor.aligners.greedy import _porter_stem

    words = {"leapt", "jumps", "geese", "ran", "better", "best", "U.S.", "Dogs", "", "(a)", "a_b"}
    words |= {"galore", "elect", "aforesaid", "around", "ill", "nearby"}  # (ip) (p) (a) markers
    words |= set(list(wn._lemma_pos_offset_map)[::20])
    words |= {_porter_stem(w) for w in list(words)}
    for w in sorted(words):
        found: dict[str, str] = {}
        for synset in wn.synsets(w):
            for lemma in synset.lemmas():
                if "_" not in lemma.name() and lemma.name() not in found:
                    found[lemma.name()] = synset.name()
        got = wn.synonym_names(w)
        assert list(got.items()) == list(found.items()), w


@pytest.mark.parametrize(
    "word", ["galore(ip)", "elect(p)", "f(x)(a)", "()", "(a)", "a)", "a(b", "x"]
)
def test_unmarked_is_nltks_marker_regex(word: str) -> None:
    import re

    from meteor.languages.nltk_wordnet import _unmarked

    m = re.match(r"(.*?)(\([^()]*\))?$", word)
    assert m is not None and _unmarked(word) == m.group(1)


def test_injected_wordnet_and_tie_order() -> None:
    toy = _ToyWordNet()
    hyp = "big big house home".split()
    ref = "large home large big".split()
    ours = align_nltk(hyp, ref, wordnet=toy)
    got = {(m.hyp.start, m.ref.start): m.module.value for m in ours}
    assert got == nltk_alignment(hyp, ref, toy)
    assert [m.ref.start for m in ours] == sorted(m.ref.start for m in ours)
    # the same choice as the Candidate tuples the facade reads
    assert [(c[0], c[1], c[3], c[5]) for c in nltk_candidates(hyp, ref, wordnet=toy)] == [
        (m.module, m.hyp.start, m.ref.start, m.detail) for m in ours
    ]


def test_wmt21_segments_agree_with_nltk(wn: WordNetCorpusReader) -> None:
    rows = read_tsv(shared_path("wmt21_ru-en_da/all_outputs.tsv"))
    assert len(rows) == 11_000
    sample = rows[::4]
    assert len(sample) == WMT_SEGMENTS
    agree = sum(
        check_against_nltk(r["hyp"], r["ref"], wn, enum=k % 5 == 0) for k, r in enumerate(sample)
    )
    print(f"\nnltk agreement on WMT21 ru-en: {agree}/{len(sample)} = {agree / len(sample):.2%}")
    assert agree == len(sample)


def test_default_stems_are_memoised_per_word_a_callers_stemmer_is_not() -> None:
    """nltk stems every word of every pair; the default PorterStemmer's stems are kept per
    word type (a pure function of the word), a caller's own stemmer is asked every time."""
    from meteor.aligners import greedy

    toy = _ToyWordNet()
    hyp, ref = "running dogs barked".split(), "the runner dog barks".split()
    before = greedy._porter_stem.cache_info().hits
    first = nltk_candidates(hyp, ref, wordnet=toy)
    assert nltk_candidates(hyp, ref, wordnet=toy) == first
    assert greedy._porter_stem.cache_info().hits >= before + len(hyp) + len(ref) - 1

    class Counting:
        def __init__(self) -> None:
            self.calls = 0
            self.porter = PorterStemmer()

        def stem(self, token: str) -> str:
            self.calls += 1
            return self.porter.stem(token)

    mine = Counting()
    assert nltk_candidates(hyp, ref, wordnet=toy, stemmer=mine) == [
        (c[0], c[1], c[2], c[3], c[4], c[5].replace("porter", "Counting"), c[6]) for c in first
    ]
    calls = mine.calls
    nltk_candidates(hyp, ref, wordnet=toy, stemmer=mine)
    assert mine.calls == 2 * calls > 0
