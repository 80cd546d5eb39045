"""Tests for :mod:`meteor.languages.russian`.

* Stem and function-word parity with Meteor 1.5 (``-l ru -norm -m 'exact stem'``) on
  all 7,700 WMT21 TED en→ru segments, read by path from ``../shared/data`` (never
  copied into the project).
* The seed pair of the Russian notebook: what lemmas, stems and synsets say, word by
  word, so that the expected alignments can be written from these facts.
* ``ё``, case, empty strings and non-Cyrillic tokens; laziness; read-only thesauri.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_DATA, require_shared

from meteor.languages import Language, ResourceError, get_language
from meteor.languages import russian as russian_module
from meteor.languages.russian import (
    RUSSIAN,
    Russian,
    RuWordNetDb,
    SqliteThesaurus,
    Thesaurus,
    WikiRuWordnet,
    fold_yo,
)
from meteor.module_registry import Module

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RU_JSONL = SHARED_DATA / "wmt21_ted_en-ru_mqm" / "meteor15.ru_exact_stem_norm.jsonl.gz"


# --------------------------------------------------------------------------- data


def _read_segments(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("type") == "segment":  # skip the final {"type": "corpus"} line
                yield record


@pytest.fixture(scope="module")
def ru_segments() -> list[dict[str, Any]]:
    require_shared(RU_JSONL)
    segments = list(_read_segments(RU_JSONL))
    assert len(segments) == 7700
    return segments


@pytest.fixture(scope="module")
def ru() -> Russian:
    return RUSSIAN


# ------------------------------------------------------------------ the interface


def test_protocol_and_registry(ru: Russian) -> None:
    assert isinstance(ru, Language)
    assert get_language("ru") is RUSSIAN
    assert ru.code == "ru"
    assert ru.name == "Russian"
    from meteor.stages.embedding import navec_available

    base = frozenset({Module.EXACT, Module.STEM, Module.LEMMA, Module.SYNONYM})
    assert Russian.BASE_MODULES == base
    assert ru.modules == base | ({Module.EMBEDDING} if navec_available() else set())
    assert ru.stemmers == ("snowball",)


def test_import_is_lazy() -> None:
    """Importing the module loads neither pymorphy3, PyStemmer, the jar nor the thesaurus."""
    code = (
        "import sys, meteor.languages.russian as r\n"
        "heavy = [m for m in ('pymorphy3', 'Stemmer', 'wiki_ru_wordnet', 'dawg') "
        "if m in sys.modules]\n"
        "t = r.RUSSIAN.thesaurus\n"
        "print(heavy, t._index is None, r._MORPHOLOGY._word_lists)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == "[] True {}"


def test_preload() -> None:
    russian_module.preload()
    russian_module.preload(RUSSIAN.with_function_words("project"), synonyms=False)
    morphology = russian_module._MORPHOLOGY
    assert morphology._morph is not None  # pymorphy3 loaded
    assert {"meteor", "project"} <= set(morphology._word_lists)  # both function-word lists


def test_paraphrases_are_not_distributed(ru: Russian) -> None:
    with pytest.raises(ResourceError, match="paraphrase-ru"):
        ru.paraphrases()


def test_unknown_stemmer_name(ru: Russian) -> None:
    assert ru.stem("собаку", "snowball") == ru.stem("собаку") == "собак"
    with pytest.raises(ValueError, match="porter"):
        ru.stem("собаку", "porter")


# --------------------------------------------------- 1. stem parity with Meteor 1.5


def test_stem_matches_of_meteor15_have_equal_stems(
    ru: Russian, ru_segments: list[dict[str, Any]]
) -> None:
    """Every jar ``stem`` match: the words differ and our stems are equal.

    Exact matches: the words are equal (so the stems are too).
    """
    modules: Counter[str] = Counter()
    bad: list[tuple[int, str, str]] = []
    for seg in ru_segments:
        for m in seg["alignment"]:
            (hyp,) = m["hyp_words"]
            (ref,) = m["ref_words"]
            modules[m["module"]] += 1
            if m["module"] == "stem":
                if hyp == ref or ru.stem(hyp) != ru.stem(ref):
                    bad.append((seg["line_no"], hyp, ref))
            elif hyp != ref:
                bad.append((seg["line_no"], hyp, ref))
    print(f"\nMeteor 1.5 matches: {dict(modules)}; disagreements: {len(bad)}")
    assert modules == {"exact": 73657, "stem": 7344}
    assert bad == []


def _definite_candidates(stem_of: Any, hyp: list[str], ref: list[str]) -> Iterator[tuple[int, int]]:
    """Pairs that are the only candidate of both their words under exact+stem.

    Candidates of exact and stem together are exactly the pairs with equal stems
    (``meteor-1.5.md`` section 6).  A candidate that is the only one starting at its
    ref position and whose words have coverage 1 is *definite* and always ends up in
    the alignment (section 7).
    """
    hs = [stem_of(w) for w in hyp]
    rs = [stem_of(w) for w in ref]
    pairs = [(i, j) for i in range(len(hyp)) for j in range(len(ref)) if hs[i] == rs[j]]
    per_hyp = Counter(i for i, _ in pairs)
    per_ref = Counter(j for _, j in pairs)
    return ((i, j) for i, j in pairs if per_hyp[i] == 1 and per_ref[j] == 1)


def _definite_misses(
    stem_of: Any, segments: list[dict[str, Any]]
) -> tuple[int, int, list[tuple[int, str, str]]]:
    checked = 0
    unaligned_same_stem = 0
    misses: list[tuple[int, str, str]] = []
    for seg in segments:
        hyp, ref = seg["hyp_tokens"], seg["ref_tokens"]
        if hyp == ref:  # identical sentences: only the exact module runs (section 8)
            continue
        aligned = {(m["hyp_span"][0], m["ref_span"][0]): m["module"] for m in seg["alignment"]}
        for i, j in _definite_candidates(stem_of, hyp, ref):
            checked += 1
            expected = "exact" if hyp[i] == ref[j] else "stem"
            if aligned.get((i, j)) != expected:
                misses.append((seg["line_no"], hyp[i], ref[j]))
        used_h = {i for i, _ in aligned}
        used_r = {j for _, j in aligned}
        unaligned_same_stem += sum(
            1
            for i, h in enumerate(hyp)
            if i not in used_h
            for j, r in enumerate(ref)
            if j not in used_r and stem_of(h) == stem_of(r)
        )
    return checked, unaligned_same_stem, misses


def test_stem_decisions_consistent_with_meteor15(
    ru: Russian, ru_segments: list[dict[str, Any]]
) -> None:
    """Every pair our stemmer makes a *definite* exact/stem candidate is aligned by the jar.

    This also checks the "equal stems" decision on pairs the jar did not align: an
    unaligned pair with equal stems is allowed only when it was not definite (the beam
    search may drop single-word stem matches, ``meteor-1.5.md`` section 9, quirk 1).
    """
    checked, unaligned, misses = _definite_misses(ru.stem, ru_segments)
    print(
        f"\ndefinite exact/stem candidates checked: {checked}; misses: {len(misses)}; "
        f"unaligned same-stem pairs (non-definite, allowed): {unaligned}"
    )
    assert checked > 50_000
    assert misses == []


def test_stem_parity_needs_yo_protection(ru_segments: list[dict[str, Any]]) -> None:
    """Control: PyStemmer without the ``ё`` swap misses definite matches (all with ``ё``)."""
    import Stemmer

    raw = Stemmer.Stemmer("russian")
    _, _, misses = _definite_misses(raw.stemWord, ru_segments)
    print(f"\nunprotected PyStemmer: {len(misses)} misses, e.g. {misses[:3]}")
    assert misses
    assert all("ё" in h + r for _, h, r in misses)


# ---------------------------------------------------------------- 2. function words


def test_meteor_function_word_list(ru: Russian) -> None:
    """``-l ru`` weighs with the jar's English list; the Russian file only with ``-s``."""
    words = ru.function_words()
    assert len(words) == 93
    assert {"the", "of", "and", ",", "."} <= words
    assert "на" not in words and not ru.is_function_word("на")
    russian = ru.with_function_words("meteor-lang").function_words()
    assert len(russian) == 62
    assert {",", ".", "в", "и", "на", "не", "что", "россии", "--"} <= russian
    assert ru.is_meteor_russian_function_word("На") and not ru.is_meteor_function_word("На")


def test_meteor15_ru_weights_with_the_english_list() -> None:
    """The jar's check from ``meteor-1.5.md`` s. 5: δ ≠ 0.5 shows which list is used."""
    import meteor

    hyp, ref = (
        "кот сидел на ковре и смотрел в окно",
        "кошка сидела на коврике и глядела в окно с улыбкой",
    )
    custom = {"alpha": 0.85, "beta": 0.2, "gamma": 0.6, "delta": 0.75}
    jar = meteor.score(hyp, ref, "meteor-1.5-ru", **custom)
    assert round(jar.score, 5) == 0.21260
    own = meteor.score(hyp, ref, "meteor-1.5-ru", function_words="meteor-lang", **custom)
    assert round(own.score, 5) == 0.16061


def test_function_word_counts_match_meteor15(
    ru: Russian, ru_segments: list[dict[str, Any]]
) -> None:
    hyp_total = ref_total = 0
    bad: list[int] = []
    for seg in ru_segments:
        hyp_fw = sum(map(ru.is_function_word, seg["hyp_tokens"]))
        ref_fw = sum(map(ru.is_function_word, seg["ref_tokens"]))
        hyp_total += hyp_fw
        ref_total += ref_fw
        stats = seg["stats"]
        if (hyp_fw, ref_fw) != (stats["hyp_function_words"], stats["ref_function_words"]):
            bad.append(seg["line_no"])
    print(f"\nfunction words: hyp {hyp_total}, ref {ref_total}; segments differing: {len(bad)}")
    assert bad == []


def test_function_words_are_lowercased(ru: Russian) -> None:
    assert ru.is_function_word("The") and ru.is_function_word(",")
    russian = ru.with_function_words("meteor-lang")
    assert russian.is_function_word("На")
    assert russian.is_function_word("РОССИИ")  # a content word on Meteor's frequency list
    assert not ru.is_function_word("собака")
    assert not ru.is_function_word("")


def test_project_function_words(ru: Russian) -> None:
    project = ru.with_function_words("project")
    assert project.function_word_list == "project"
    assert project.thesaurus is ru.thesaurus  # resources shared
    assert project.is_function_word("на") and project.is_function_word("Её")
    assert project.is_function_word("ее") and project.is_function_word("—")
    assert project.is_function_word("#")
    assert not project.is_function_word("россии")
    assert not project.is_function_word("время")
    assert ru.is_project_function_word("которые") and not ru.is_project_function_word("года")
    words = project.function_words()
    assert 300 < len(words) < 500
    assert all(w == w.lower() and w.strip() == w and w for w in words)
    assert ru.with_function_words("meteor").function_words() == ru.function_words()
    with pytest.raises(ValueError, match="function_words"):
        ru.with_function_words("nltk")  # type: ignore[arg-type]


def test_meteor_list_without_pycocoevalcap(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(member: str) -> tuple[str, ...]:
        raise ResourceError("pycocoevalcap is not installed")

    from meteor.languages import snowball

    monkeypatch.setattr(snowball, "jar_lines", missing)
    snowball.jar_function_words.cache_clear()
    try:
        with pytest.raises(ResourceError, match="pip install pycocoevalcap.*'project'"):
            russian_module._read_word_list("meteor")
    finally:
        snowball.jar_function_words.cache_clear()


# ------------------------------------------------------------------ 3. the seed pair

SEED_REF = "Быстрая коричневая лиса прыгнула на грустную собаку"
SEED_HYP = "Стремительная рыжая лисичка скакнула на унылую собачку"

# word -> (lemmas, stem as written, stem after lowercasing, wiki synsets, synonyms ⊇)
SEED_FACTS: dict[str, tuple[set[str], str, str, set[int], set[str]]] = {
    "Быстрая": ({"быстрый"}, "Быстр", "быстр", {973}, {"стремительный", "скорый"}),
    "коричневая": ({"коричневый"}, "коричнев", "коричнев", {12303, 12304}, set()),
    "лиса": ({"лиса", "лис"}, "лис", "лис", {4129, 4130, 4131, 94587}, set()),
    "прыгнула": ({"прыгнуть"}, "прыгнул", "прыгнул", {43125}, set()),
    "на": ({"на"}, "на", "на", {16, 8417, 8418, 8419, 8420, 8421}, {"для", "ради"}),
    "грустную": ({"грустный"}, "грустн", "грустн", {22653}, set()),
    "собаку": ({"собака"}, "собак", "собак", {115, 116, 117, 118, 119, 120, 121}, {"пёс"}),
    "Стремительная": (
        {"стремительный"},
        "Стремительн",
        "стремительн",
        {973, 14484},
        {"быстрый"},
    ),
    "рыжая": ({"рыжий"}, "рыж", "рыж", {19655, 19656}, set()),
    "лисичка": ({"лисичка"}, "лисичк", "лисичк", {8910, 8911, 95687}, set()),
    "скакнула": ({"скакнуть"}, "скакнул", "скакнул", set(), set()),  # not in wiki-ru-wordnet
    "унылую": ({"унылый"}, "уныл", "уныл", {6964, 40743}, {"понурый"}),
    "собачку": ({"собачка"}, "собачк", "собачк", {46601}, set()),
}


@pytest.mark.parametrize("word", list(SEED_FACTS))
def test_seed_word_facts(ru: Russian, word: str) -> None:
    lemmas, stem, lower_stem, synsets, synonyms = SEED_FACTS[word]
    assert ru.lemmas(word) == lemmas
    assert ru.stem(word) == stem
    assert ru.stem(word.lower()) == lower_stem
    assert ru.synsets(word) == synsets
    assert synonyms <= ru.synonyms(word)
    assert not (ru.synonyms(word) & lemmas)  # own lemmas are left out
    assert not ru.is_function_word(word)  # -l ru weighs with the English list
    assert ru.is_meteor_russian_function_word(word) == (word == "на")
    assert ru.is_project_function_word(word) == (word == "на")


def test_seed_pair_relations(ru: Russian) -> None:
    """Which hyp/ref word pairs each resource relates (tokens lowercased, as by ``-norm``).

    Position by position (hyp | ref): only на=на (exact) and
    стремительная~быстрая (a shared wiki-ru-wordnet synset, 973) are related; no stem
    or lemma relates any other pair; грустную/унылую, коричневая/рыжая,
    лиса/лисичка, прыгнула/скакнула and собаку/собачку share nothing.
    """
    hyp = SEED_HYP.lower().split()
    ref = SEED_REF.lower().split()
    related: dict[str, set[tuple[str, str]]] = {"stem": set(), "lemma": set(), "synonym": set()}
    for h in hyp:
        for r in ref:
            if h == r:
                continue  # exact
            if ru.stem(h) == ru.stem(r):
                related["stem"].add((h, r))
            if ru.lemmas(h) & ru.lemmas(r):
                related["lemma"].add((h, r))
            if ru.synsets(h) & ru.synsets(r):
                related["synonym"].add((h, r))
    assert related == {
        "stem": set(),
        "lemma": set(),
        "synonym": {("стремительная", "быстрая")},
    }
    assert [h for h, r in zip(hyp, ref, strict=True) if h == r] == ["на"]
    assert ru.synsets("стремительная") & ru.synsets("быстрая") == {973}


# ----------------------------------------------------- 4. ё, case, odd tokens


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("ёжик", "ёжик"),  # the jar keeps ё (current Snowball would give ежик)
        ("Ёжик", "Ёжик"),
        ("пёс", "пёс"),
        ("её", "её"),  # current Snowball: е
        ("ещё", "ещё"),  # current Snowball: ещ
        ("проведённом", "проведён"),
        ("проведенном", "проведен"),
        ("Лиса", "Лис"),  # case kept
        ("ЛИСА", "ЛИСА"),  # uppercase endings are not stripped, as in the jar
        ("лиса", "лис"),
        ("танцевали", "танцева"),  # meteor-1.5.md section 15
        ("танцевала", "танцева"),
        ("красивых", "красив"),
        ("домах", "дом"),
        ("", ""),
    ],
)
def test_stem_yo_and_case(ru: Russian, word: str, stem: str) -> None:
    assert ru.stem(word) == stem


def test_stem_is_case_sensitive(ru: Russian) -> None:
    assert ru.stem("Собаку") != ru.stem("собаку")
    assert ru.stem("Собаку") == ru.stem("Собака")


def test_lemmas_yo(ru: Russian) -> None:
    assert ru.lemmas("еж") == ru.lemmas("ёж") == ru.lemmas("Ёж") == {"ёж"}
    assert ru.with_function_words("project").lemmas("ёж") == {"ёж"}
    folding = Russian(fold_yo_lemmas=True)
    assert folding.lemmas("ёж") == {"еж"}
    assert fold_yo("Ёлка и ёж") == "Елка и еж"


def test_lemmas_use_all_parses(ru: Russian) -> None:
    # dependencies.md section 3: the first parse alone gives спасть
    assert {"спать", "спасть", "спалить"} <= ru.lemmas("спали")


def test_synsets_fold_yo_on_both_sides(ru: Russian) -> None:
    assert ru.synsets("пес") == ru.synsets("пёс") == {115, 117}
    assert ru.synsets("пес") & ru.synsets("собака")
    assert ru.synsets("Ежа") == ru.synsets("ёж")
    assert "пёс" in ru.synonyms("собака")


@pytest.mark.parametrize(
    "token", ["", " ", "iPhone", "COVID-19", "123", "3,14", ",", "—", "...", "«", "%", "ё", "Ё"]
)
def test_odd_tokens_never_crash(ru: Russian, token: str) -> None:
    assert isinstance(ru.stem(token), str)
    assert isinstance(ru.lemmas(token), frozenset)
    assert isinstance(ru.synsets(token), frozenset)
    assert isinstance(ru.synonyms(token), frozenset)
    assert isinstance(ru.is_function_word(token), bool)
    assert isinstance(ru.is_project_function_word(token), bool)


def test_empty_string(ru: Russian) -> None:
    assert ru.stem("") == ""
    assert ru.lemmas("") == frozenset()
    assert ru.synsets("") == frozenset()
    assert ru.synonyms("") == frozenset()


def test_non_cyrillic_tokens_pass_through(ru: Russian) -> None:
    for token in ("iPhone", "123", ",", "—"):
        assert ru.stem(token) == token
        assert ru.synsets(token) == frozenset()


def test_thread_safe(ru: Russian) -> None:
    words = [w for seg in (SEED_REF, SEED_HYP) for w in seg.split()] * 50
    words += [f"слово{i}" for i in range(500)]
    expected = [(ru.stem(w), ru.lemmas(w), ru.synsets(w)) for w in words]
    fresh = Russian()  # its own synset cache
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda w: (fresh.stem(w), fresh.lemmas(w), fresh.synsets(w)), words))
    assert got == expected


# --------------------------------------------------------------------- thesauri


def test_wiki_thesaurus_is_read_only(ru: Russian) -> None:
    wiki = ru.thesaurus
    assert isinstance(wiki, WikiRuWordnet)
    assert isinstance(wiki, Thesaurus)
    db = wiki.path()
    assert db.name == "wikiwordnet.db"
    before = (db.stat().st_mtime_ns, db.stat().st_size)
    fresh = WikiRuWordnet()
    assert fresh.synsets("быстрый") == {973}
    assert "стремительный" in fresh.members(973)
    assert len(fresh) > 90_000
    assert (db.stat().st_mtime_ns, db.stat().st_size) == before
    assert not any(db.with_name(db.name + s).exists() for s in ("-journal", "-wal"))


def test_synonym_source(ru: Russian) -> None:
    assert ru.synonym_source() == "wiki-ru-wordnet 1.0.3 (Russian Wiktionary, CC BY-SA)"


def test_wiki_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="wiki-ru-wordnet"):
        WikiRuWordnet(tmp_path / "nope.db").synsets("собака")


@pytest.fixture
def ruwordnet_db(tmp_path: Path) -> Path:
    """A tiny file with RuWordNet's schema (``ruwordnet/models.py``)."""
    path = tmp_path / "ruwordnet-mini.db"
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE synset (id TEXT PRIMARY KEY, title TEXT, definition TEXT,
                             part_of_speech TEXT);
        CREATE TABLE sense (id TEXT PRIMARY KEY, name TEXT, lemma TEXT, synset_id TEXT);
        INSERT INTO synset VALUES ('106944-V', 'ПРЫГНУТЬ', '', 'V'),
                                  ('2500-N', 'СОБАКА', '', 'N'),
                                  ('2500-A', 'СОБАЧИЙ', '', 'Adj');
        INSERT INTO sense VALUES ('1', 'ПРЫГНУТЬ', 'ПРЫГНУТЬ', '106944-V'),
                                 ('2', 'СКАКНУТЬ', 'СКАКНУТЬ', '106944-V'),
                                 ('3', 'СДЕЛАТЬ ПРЫЖОК', 'СДЕЛАТЬ ПРЫЖОК', '106944-V'),
                                 ('4', 'СОБАКА', 'СОБАКА', '2500-N'),
                                 ('5', 'ПЁС', 'ПЁС', '2500-N'),
                                 ('6', 'СОБАЧИЙ', 'СОБАЧИЙ', '2500-A');
        """
    )
    con.commit()
    con.close()
    return path


def test_ruwordnet_db(ruwordnet_db: Path) -> None:
    thesaurus = RuWordNetDb(ruwordnet_db)
    assert isinstance(thesaurus, Thesaurus)
    assert thesaurus.source == "RuWordNet (ruwordnet-mini.db)"
    (jump,) = thesaurus.synsets("прыгнуть")
    assert thesaurus.label(jump) == "106944-V"
    assert thesaurus.members(jump) == {"прыгнуть", "скакнуть", "сделать прыжок"}
    assert thesaurus.synsets("пес") == thesaurus.synsets("ПЁС") == thesaurus.synsets("собака")
    assert thesaurus.synsets("собачий") != thesaurus.synsets("собака")  # same number, other POS
    before = ruwordnet_db.stat().st_mtime_ns

    lang = RUSSIAN.with_thesaurus(thesaurus)
    assert lang.synonym_source() == "RuWordNet (ruwordnet-mini.db)"
    assert lang.synsets("прыгнула") & lang.synsets("скакнула")  # the seed pair's verbs
    assert lang.synonyms("скакнула") == {"прыгнуть", "сделать прыжок"}
    assert lang.synsets("псы") == lang.synsets("собаку")
    assert lang.stem("собаку") == RUSSIAN.stem("собаку")
    assert ruwordnet_db.stat().st_mtime_ns == before


def test_ruwordnet_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="missing"):
        RuWordNetDb(tmp_path / "absent.db").synsets("собака")
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    with pytest.raises(ResourceError, match="cannot read"):
        RuWordNetDb(other).synsets("собака")


def test_custom_thesaurus() -> None:
    class Toy:
        source = "toy"

        def synsets(self, lemma: str) -> frozenset[int]:
            return frozenset({1}) if lemma in {"грустный", "унылый"} else frozenset()

        def members(self, synset: int) -> frozenset[str]:
            return frozenset({"грустный", "унылый"}) if synset == 1 else frozenset()

    toy = Toy()
    assert isinstance(toy, Thesaurus)
    lang = Russian("project", toy)
    assert lang.synsets("грустную") == lang.synsets("унылую") == {1}
    assert lang.synonyms("грустную") == {"унылый"}
    assert lang.synonym_source() == "toy"
    assert lang.function_word_list == "project"


def test_sqlite_thesaurus_generic(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    con = sqlite3.connect(path)
    con.executescript(
        "CREATE TABLE t (s INTEGER, w TEXT);"
        "INSERT INTO t VALUES (7, 'Ёлка'), (7, 'ель'), (8, NULL), (9, '  ');"
    )
    con.commit()
    con.close()
    thesaurus = SqliteThesaurus(path, "SELECT s, w FROM t", "test")
    assert thesaurus.synsets("елка") == thesaurus.synsets("ЁЛКА") == {7}
    assert thesaurus.members(7) == {"ёлка", "ель"}
    assert thesaurus.members(8) == frozenset()
    assert len(thesaurus) == 2


def test_letters_without_a_unicode_name_are_their_own_lemma(ru: Russian) -> None:
    """pymorphy3's shape check calls ``unicodedata.name`` and raised ValueError on letters
    with no name in Python's tables (Tangut U+17000, found by tests/unit/test_fuzz.py)."""
    import unicodedata

    tangut = "\U00017000"
    assert tangut.isalpha()
    with pytest.raises(ValueError):
        unicodedata.name(tangut)
    assert ru.lemmas(tangut + "х") == frozenset({tangut + "х"})
    from meteor import Meteor

    for preset in ("seed-ru", "ru"):
        r = Meteor(preset).score(f"кот {tangut}", f"кот {tangut}")
        assert [m.module.value for m in r.alignment.matches] == ["exact", "exact"]
