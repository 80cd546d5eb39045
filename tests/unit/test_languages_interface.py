"""The :class:`meteor.languages.Language` interface (issue 14): declared capabilities, no probing.

* every registered language implements the interface, and what it declares (stages,
  stemmers, function-word lists, tokenizers, normaliser) is exactly what works;
* a third language plugs in with one ``register`` line and runs end to end
  (the toy language ``zz`` of ``tests/conftest.py``), with hand-checked numbers;
* the registry refuses what would be ambiguous.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import meteor
from meteor import Meteor, ParamError, Params, ResourceError
from meteor.languages import (
    Language,
    available,
    available_languages,
    canonical_code,
    get_language,
    register,
    unregister,
)
from meteor.languages.base import check_language
from meteor.module_registry import MODULE_ORDER, Module
from meteor.params import FUNCTION_WORD_LISTS, TOKENIZERS
from meteor.stages.base import MatchContext
from meteor.stages.embedding import EMBEDDING
from meteor.text.normalize import NORM_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = tuple(info.code for info in available())

#: A word each language with a thesaurus / a lemmatiser / word vectors knows.
SYNONYM_SAMPLE = {"en": "dog", "ru": "собака"}
LEMMA_SAMPLE = {"ru": "собаки"}
VECTOR_SAMPLE = {"ru": "собака"}


def _params(lang: Language, **changes: Any) -> Params:
    """Settings any language accepts: its stemmer, its normaliser or plain lowercasing."""
    base: dict[str, Any] = {
        "lang": lang.code,
        "norm": "meteor" if lang.normaliser else "lower",
        "modules": ("exact",),
        "weights": {"exact": 1.0},
        "stemmer": lang.stemmers[0] if lang.stemmers else "snowball",
    }
    base.update(changes)
    return Params(**base)


# -- every registered language ----------------------------------------------------------


@pytest.mark.parametrize("code", BUILT_IN)
def test_every_language_implements_the_interface(code: str) -> None:
    lang = get_language(code)
    assert isinstance(lang, Language)
    check_language(lang)  # raises on an incoherent declaration
    assert lang.code == code
    assert lang.name == next(i.name for i in available() if i.code == code)
    for attr in ("stem", "synsets", "lemmas", "paraphrases", "embeddings", "vector"):
        assert callable(getattr(lang, attr))


@pytest.mark.parametrize("code", BUILT_IN)
def test_declared_stages_are_the_stages_that_run(code: str) -> None:
    """A stage in ``modules`` scores a pair; a stage not in it is a ParamError naming it."""
    lang = get_language(code)
    for module in MODULE_ORDER:
        settings = {"modules": (module.value,), "weights": {module.value: 1.0}}
        if module not in lang.modules:
            with pytest.raises(ParamError, match=f"modules: {module.value} not available"):
                Meteor(params=_params(lang, **settings))
        elif module is not Module.PARAPHRASE:  # the English table is checked elsewhere
            r = Meteor(params=_params(lang, **settings)).score("a b", "a c")
            assert 0.0 <= r.score <= 1.0


@pytest.mark.parametrize("code", BUILT_IN)
def test_absent_capabilities_say_so(code: str) -> None:
    """An absent capability raises ResourceError (stem, paraphrases, vectors) or finds
    nothing (synsets, lemmas); a present one answers."""
    lang = get_language(code)
    if Module.STEM in lang.modules:
        for stemmer in lang.stemmers:
            assert isinstance(lang.stem("tests", stemmer), str)
        with pytest.raises(ValueError, match="stemmer"):
            lang.stem("tests", "no-such-stemmer")
    else:
        with pytest.raises(ResourceError, match="stemmer"):
            lang.stem("tests")
    if Module.SYNONYM in lang.modules:
        assert lang.synsets(SYNONYM_SAMPLE[code])
        assert lang.synonym_source()
    else:
        assert lang.synsets(SYNONYM_SAMPLE.get(code, "dog")) == frozenset()
    if Module.LEMMA in lang.modules:
        assert lang.lemmas(LEMMA_SAMPLE[code])
    else:
        assert lang.lemmas("dogs") == frozenset()
    if Module.PARAPHRASE in lang.modules:
        assert type(lang).paraphrases is not Language.paraphrases  # loading it takes a while
    else:
        with pytest.raises(ResourceError, match="paraphrase"):
            lang.paraphrases()
    if Module.EMBEDDING in lang.modules:
        assert lang.vector(VECTOR_SAMPLE[code]) is not None
        assert lang.embeddings().source.startswith("navec")
    else:
        with pytest.raises(ResourceError, match="no word embeddings"):
            lang.vector("dog")
        with pytest.raises(ResourceError, match="no word embeddings"):
            lang.embeddings()


@pytest.mark.parametrize("code", BUILT_IN)
def test_declared_function_word_lists_are_the_lists_accepted(code: str) -> None:
    lang = get_language(code)
    for kind in FUNCTION_WORD_LISTS:
        if kind in lang.function_word_lists:
            scorer = Meteor(params=_params(lang, function_words=kind, delta=0.75))
            assert scorer.params.function_words == kind
            assert isinstance(lang.with_function_words(kind).is_function_word("the"), bool)
        else:
            with pytest.raises(ParamError, match=f"function_words={kind!r} is not available"):
                Meteor(params=_params(lang, function_words=kind))
    assert lang.with_function_words("meteor").code == code


@pytest.mark.parametrize("code", BUILT_IN)
def test_tokenizer_and_normaliser_hints_agree_with_the_params_checks(code: str) -> None:
    lang = get_language(code)
    assert lang.normaliser == NORM_LANGUAGES.get(code)
    if lang.normaliser is None:
        with pytest.raises(ParamError, match="no normaliser"):
            Params(lang=code, norm="meteor")
    else:
        words = [t.text for t in Meteor(params=_params(lang)).tokenize("A, mot!")]
        assert words == ["a", ",", "mot", "!"]  # -norm splits the punctuation off
    for tokenizer in TOKENIZERS:
        if tokenizer in lang.tokenizers:
            assert Params(lang=code, norm="lower", tokenizer=tokenizer).tokenizer == tokenizer
        else:
            with pytest.raises(ParamError, match=f"tokenizer {tokenizer!r}"):
                Params(lang=code, norm="lower", tokenizer=tokenizer)


def test_no_module_probes_a_language_with_hasattr_or_getattr() -> None:
    """Capabilities are declared (``Language.modules`` ...), never discovered by probing."""
    probe = re.compile(r"\b(?:has|get)attr\(\s*(?:self\.|ctx\.)?_?\w*lang\w*\s*,")
    found = [
        f"{path.relative_to(ROOT)}:{k}"
        for folder in ("meteor", "pages")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if probe.search(line)
    ]
    assert found == []


# -- the conftest scorers -------------------------------------------------------------------


def test_english_scorer_fixture(en_meteor: Meteor) -> None:
    assert set(en_meteor.params.modules) <= en_meteor.lang.modules
    r = en_meteor.score("the dogs barked", "the dog barked")
    assert [(m.module, m.detail) for m in r.alignment.matches] == [
        (Module.EXACT, ""),
        (Module.STEM, "same stem “dog”"),
        (Module.EXACT, ""),
    ]
    assert "|lang:en|" in r.signature


def test_russian_scorer_fixture(ru_meteor: Meteor) -> None:
    assert set(ru_meteor.params.modules) <= ru_meteor.lang.modules
    assert ru_meteor.lang.with_function_words(ru_meteor.params.function_words).is_function_word("и")
    r = ru_meteor.score("собаки спали дома", "собака спит дома")
    assert [(m.module, m.detail) for m in r.alignment.matches] == [
        (Module.LEMMA, "same lemma “собака”"),
        (Module.LEMMA, "same lemma “спать”"),
        (Module.EXACT, ""),
    ]
    assert "|lang:ru|" in r.signature


# -- a third language plugs in ------------------------------------------------------------

TOY_PARAMS = {
    "lang": "zz",
    "norm": "lower",
    "modules": ("exact", "stem", "synonym"),
    "weights": {"exact": 1.0, "stem": 0.6, "synonym": 0.8},
    "stemmer": "toy",
    "alpha": 0.9,
    "beta": 1.0,
    "gamma": 0.5,
    "delta": 0.75,
}


def test_toy_language_scores_end_to_end_with_hand_checked_numbers(toy_language: Any) -> None:
    """Zedish: ``lo mopa banis ka suno tiki`` against ``ka suno lo fela bani``.

    Matches: lo, ka, suno exact; banis/bani by the toy stemmer; mopa/fela synonyms;
    ``tiki`` unmatched.  ``lo`` and ``ka`` are function words (weight 1 − δ = 0.25,
    content words δ = 0.75).  Two chunks: hyp 0-2 → ref 2-4 and hyp 3-4 → ref 0-1.

    * L_hyp = 0.75·4 + 0.25·2 = 3.5;  L_ref = 0.75·3 + 0.25·2 = 2.75
    * M = 0.75·(1.0 + 0.6 + 0.8) + 0.25·(1.0·2) = 2.3 on both sides
    * P = 2.3/3.5 = 23/35;  R = 2.3/2.75 = 46/55
    * Fmean = 1 / (0.1/P + 0.9/R) = 1 / (7/46 + 49.5/46) = 92/113
    * frag = 2 chunks / 5 matched words = 0.4;  penalty = 0.5 · 0.4^1 = 0.2
    * score = 92/113 · 0.8 = 368/565
    """
    r = meteor.score(
        "Lo mopa banis ka suno tiki", "ka suno lo fela bani", params=Params(**TOY_PARAMS)
    )
    got = [(m.hyp.start, m.ref.start, m.module, m.detail) for m in r.alignment.matches]
    assert got == [
        (3, 0, Module.EXACT, ""),
        (4, 1, Module.EXACT, ""),
        (0, 2, Module.EXACT, ""),
        (1, 3, Module.SYNONYM, "Zedish toy thesaurus synset 00000001"),
        (2, 4, Module.STEM, "same stem “bani”"),
    ]
    assert [t.function_word for t in r.alignment.hyp] == [True, False, False, True, False, False]
    assert len(r.alignment.chunks) == 2
    assert r.precision == pytest.approx(float(Fraction(23, 35)), abs=1e-15)
    assert r.recall == pytest.approx(float(Fraction(46, 55)), abs=1e-15)
    assert r.fmean == pytest.approx(float(Fraction(92, 113)), abs=1e-15)
    assert (r.frag, r.penalty) == pytest.approx((0.4, 0.2), abs=1e-15)
    assert r.score == pytest.approx(float(Fraction(368, 565)), abs=1e-15)
    assert "|lang:zz|" in r.signature and "|stem:toy|" in r.signature
    assert r.to_dict()["signature"] == r.signature
    corpus = meteor.corpus_score(["lo mopa", "suno"], ["lo fela", "lumo"], params=r_params())
    assert [s.score > 0 for s in corpus.segments] == [True, True]
    assert "|lang:zz|" in corpus.signature


def r_params(**changes: Any) -> Params:
    return Params(**{**TOY_PARAMS, **changes})


def test_toy_language_is_checked_against_its_declaration(toy_language: Any) -> None:
    assert get_language("zz") is toy_language and get_language("Zedish") is toy_language
    assert canonical_code("zedish") == "zz" and "zz" in available_languages()
    assert next(i for i in available() if i.code == "zz").native_name == "Zedish"
    with pytest.raises(ParamError, match="no normaliser for 'zz'"):
        r_params(norm="meteor")
    with pytest.raises(ParamError, match="modules: paraphrase not available for language 'zz'"):
        Meteor(
            params=r_params(modules=("exact", "paraphrase"), weights={"exact": 1, "paraphrase": 1})
        )
    with pytest.raises(ParamError, match="modules: lemma not available"):
        Meteor(params=r_params(modules=("lemma",), weights={"lemma": 1}))
    with pytest.raises(ParamError, match="function_words='project' is not available for 'zz'"):
        Meteor(params=r_params(function_words="project"))
    with pytest.raises(ParamError, match="stemmer must be one of toy"):
        Meteor(params=r_params(stemmer="snowball"))
    with pytest.raises(ResourceError, match="no word embeddings"):
        toy_language.vector("mopa")
    # the embedding stage asks the interface, and gets "not available" (no probing)
    ctx = MatchContext(["mopa"], ["fela"], r_params(), toy_language)
    with pytest.raises(ResourceError, match="language 'zz' has no word embeddings"):
        EMBEDDING.candidates(ctx)
    steps: list[str] = []
    Meteor(params=r_params()).prepare(lambda _, msg: steps.append(msg))
    assert steps[-1] == "ready" and "loading stemmer" in steps
    with pytest.raises(ResourceError, match="no paraphrase table for Zedish"):
        toy_language.paraphrases()
    assert toy_language.lemmas("mopas") == frozenset()


def test_toy_language_is_gone_after_its_test() -> None:
    assert "zz" not in available_languages()
    with pytest.raises(ValueError, match="unknown language 'zz'"):
        get_language("zz")


# -- the registry -------------------------------------------------------------------------


def test_register_refuses_taken_codes_and_incoherent_languages(toy_language: Any) -> None:
    assert register(toy_language).code == "zz"  # the same object again: a no-op

    class Other(type(toy_language)):  # type: ignore[misc]
        pass

    with pytest.raises(ValueError, match="'zz' is already taken"):
        register(Other())
    clash = Other()
    clash.code = "xx"  # Meteor 1.5's alias of ``other``
    with pytest.raises(ValueError, match="'xx' is already taken"):
        register(clash)
    clash.code = "zq"
    with pytest.raises(ValueError, match="alias 'de' already names 'de'"):
        register(clash, aliases=("de",))
    assert "zq" not in available_languages()
    bad = Other()
    bad.modules = frozenset({Module.STEM})
    with pytest.raises(ValueError, match="must include exact"):
        check_language(bad)
    bad.modules = frozenset({Module.EXACT, Module.STEM})
    bad.stemmers = ()
    with pytest.raises(ValueError, match="needs at least one stemmer"):
        check_language(bad)
    bad.stemmers, bad.function_word_lists = ("toy",), ("project",)
    with pytest.raises(ValueError, match="must include 'meteor'"):
        check_language(bad)
    bad.function_word_lists, bad.tokenizers = ("meteor",), ("meteor", "spacy")
    with pytest.raises(ValueError, match="tokenizers"):
        check_language(bad)
    with pytest.raises(TypeError, match="must subclass meteor.languages.Language"):
        register(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not added with register"):
        unregister("en")
