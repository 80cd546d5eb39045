"""Meteor 1.5's other languages (issue #19): registry, aliases, presets, text handling.

Parity with the jar itself is in ``tests/parity/test_languages_parity.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meteor
from meteor import Meteor, ParamError, Params, get_preset, preset_names
from meteor.languages import (
    Language,
    ResourceError,
    available,
    available_languages,
    canonical_code,
    get_language,
)
from meteor.languages.snowball import GERMAN, SNOWBALL_LANGUAGES, SnowballLanguage
from meteor.module_registry import Module
from meteor.presets import DEFAULT_PRESET
from meteor.text.normalize import tokenize

JAR_LANGUAGES = {
    "cs", "de", "es", "fr", "da", "fi", "hu", "it", "nl", "no", "pt", "ro", "sv", "tr", "ar-bw-red",
    "other",
}  # fmt: skip


def test_every_jar_language_is_registered_with_a_native_name() -> None:
    infos = {i.code: i for i in available()}
    assert set(infos) == JAR_LANGUAGES | {"en", "ru"}
    assert tuple(infos) == available_languages()
    assert infos["de"].native_name == "Deutsch" and infos["cs"].native_name == "Čeština"
    assert infos["ru"].native_name == "Русский"
    for code in JAR_LANGUAGES:
        lang = get_language(code)
        assert isinstance(lang, Language) and isinstance(lang, SnowballLanguage)
        assert lang.code == code and lang.name == infos[code].name


@pytest.mark.parametrize(
    ("alias", "code"),
    [("cz", "cs"), ("czech", "cs"), ("se", "sv"), ("swedish", "sv"), ("German", "de"),
     (" de ", "de"), ("en", "en"), ("russian", "ru"), ("xx", "other"), ("pl", "pl")],
)  # fmt: skip
def test_meteor_names_are_aliases(alias: str, code: str) -> None:
    assert canonical_code(alias) == code


def test_aliases_reach_the_same_scorer() -> None:
    assert get_language("cz") is get_language("cs")
    assert Params(lang="se", norm="lower").lang == "sv"
    assert Meteor(lang="cz").preset == "meteor-1.5-cs"
    assert Meteor(lang="german").preset == "meteor-1.5-de"
    r = meteor.score("Der Hund schläft", "Die Hunde schlafen", lang="de")
    assert "|lang:de|" in r.signature and "preset:meteor-1.5-de|" in r.signature


def test_each_language_has_its_preset_as_default() -> None:
    for lang in SNOWBALL_LANGUAGES:
        name = f"meteor-1.5-{lang.code}"
        assert DEFAULT_PRESET[lang.code] == name
        assert preset_names(lang.code) == (name,)
        p = get_preset(name)
        assert p.params.function_words == "meteor"  # the jar's English list
        assert "paraphrase" in p.description or "-lower" in p.description
        assert p.reproduces == lang.meteor15.flags


@pytest.mark.parametrize(
    ("code", "abgd", "weights", "norm"),
    [
        ("de", (0.95, 1.0, 0.55, 0.55), {Module.EXACT: 1.0, Module.STEM: 0.8}, "meteor"),
        ("fr", (0.90, 1.40, 0.60, 0.65), {Module.EXACT: 1.0, Module.STEM: 0.2}, "meteor"),
        ("es", (0.65, 1.30, 0.50, 0.80), {Module.EXACT: 1.0, Module.STEM: 0.8}, "meteor"),
        ("cs", (0.95, 0.20, 0.60, 0.80), {Module.EXACT: 1.0}, "meteor"),
        ("fi", (0.75, 1.40, 0.70, 0.50), {Module.EXACT: 1.0, Module.STEM: 0.5}, "lower"),
        ("sv", (0.75, 1.40, 0.70, 0.50), {Module.EXACT: 1.0, Module.STEM: 0.5}, "lower"),
    ],
)
def test_preset_tables(code: str, abgd: tuple[float, ...], weights: dict, norm: str) -> None:  # type: ignore[type-arg]
    """``meteor-1.5.md`` sections 1 and 3: rank tables for cs de es fr, li for the rest."""
    p = get_preset(f"meteor-1.5-{code}").params
    assert (p.alpha, p.beta, p.gamma, p.delta) == abgd
    assert dict(p.weights) == weights
    assert p.norm == norm


def test_buckwalter_arabic() -> None:
    """``-l ar-bw-red``: the jar's lookup-table stemmer, case-sensitive, no normaliser."""
    p = get_preset("meteor-1.5-ar-bw-red").params
    assert (p.norm, p.stemmer, p.modules) == ("none", "table", (Module.EXACT, Module.STEM))
    assert canonical_code("arabic-buckwalter-reduced") == "ar-bw-red"
    assert canonical_code("xx") == "other"  # Meteor's -l other / xx: exact matching only
    assert get_preset("meteor-1.5-other").params.modules == (Module.EXACT,)
    ar = get_language("ar-bw-red")
    assert ar.stem("yqwl") == "qAl" and ar.stem("zRwl") == "qAl"  # zRwl: same Java hash as yqwl
    assert ar.stem("notInTable") == "notInTable"
    r = Meteor("meteor-1.5-ar-bw-red").score("yqwl Alktab", "qAl Alktab")
    assert [m.module for m in r.alignment.matches] == [Module.STEM, Module.EXACT]
    with pytest.raises(ParamError, match="no normaliser"):
        Meteor("meteor-1.5-ar-bw-red", norm="meteor")


def test_no_normaliser_stem_synonym_or_paraphrase_where_the_jar_has_none() -> None:
    with pytest.raises(ParamError, match="no normaliser for 'da'"):
        Meteor("meteor-1.5-da", norm="meteor")
    with pytest.raises(ParamError, match="stem"):
        Meteor("meteor-1.5-cs", modules=("exact", "stem"))
    with pytest.raises(ParamError, match="synonym"):
        Meteor("meteor-1.5-de", modules=("exact", "synonym"))
    with pytest.raises(ResourceError, match="paraphrase-de.gz"):
        GERMAN.paraphrases()
    with pytest.raises(ResourceError, match="paraphrase-cz.gz"):
        get_language("cs").paraphrases()
    with pytest.raises(ResourceError, match="no stemmer"):
        get_language("cs").stem("psy")
    assert Meteor("meteor-1.5-da", norm="none").score("Hunde", "hunde").score == 0.0


def test_function_word_lists() -> None:
    """The jar's English list by default; the language's own file with ``meteor-lang``."""
    assert GERMAN.is_function_word("The") and not GERMAN.is_function_word("der")
    german = GERMAN.with_function_words("meteor-lang")
    assert german.is_function_word("Der") and not german.is_function_word("the")
    assert not get_language("da").with_function_words("meteor-lang").is_function_word("og")
    r = Meteor("meteor-1.5-de", function_words="meteor-lang").score("der Hund", "der Hund bellt")
    assert r.stats.hyp_function_words == 1
    with pytest.raises(ParamError, match="function_words"):
        Meteor("meteor-1.5-de", function_words="project")


def test_stems_are_the_jars() -> None:
    assert GERMAN.stem("Ergebnisse") == "Ergebniss"  # the jar keeps the s of -niss
    assert get_language("fr").stem("homme") == "homm"
    assert get_language("fr").stem("Homme") == "Homm"  # current Snowball drops the H
    assert get_language("hu").stem("őket") == "őket"
    assert get_language("pt").stem("revolução") == "revoluçã"
    assert get_language("fi").stem("asioiden") == "asioid"
    # so, as in the jar, Ergebnisse/Ergebnis do not match by stem; Ergebnisse/Ergebnissen do
    r = meteor.score("die Ergebnisse", "das Ergebnis", lang="de")
    assert r.alignment.matches == ()
    r = meteor.score("die Ergebnisse", "die Ergebnissen", lang="de")
    assert [m.module for m in r.alignment.matches] == [Module.EXACT, Module.STEM]


@pytest.mark.parametrize(
    ("lang", "text", "tokens"),
    [
        # NBSP (French spacing) is removed by -norm; « » are tokens of their own
        ("fr", "Il a dit\u00a0: «\u00a0oui\u00a0»\u00a0!", ["il", "a", "dit", ":", "«", "oui", "»", "!"]),
        # French apostrophes split to the left, ’ becomes '
        ("fr", "L’homme l'aime", ["l'", "homme", "l'", "aime"]),
        # German quotes: „ is a token, “ becomes "
        ("de", "„Gut“, sagte er", ["„", "gut", '"', ",", "sagte", "er"]),
        # other languages split apostrophes on both sides
        ("de", "geht's", ["geht", "'", "s"]),
        # a private-use character (WMT22 fr-de) is a token of its own
        ("de", "Preis\uf0e8 10 Euro", ["preis", "\uf0e8", "10", "euro"]),
        # the jar's czech.prefixes is empty ("Nothing for Czech yet"): a dot stays only
        # before a lowercase word (rule 8b), as the jar did with "např. s Petrem"
        ("cs", "Děti, např. Petr.", ["děti", ",", "např", ".", "petr", "."]),
        ("cs", "např. s Petrem", ["např.", "s", "petrem"]),
    ],
)  # fmt: skip
def test_text_handling(lang: str, text: str, tokens: list[str]) -> None:
    assert [t.text for t in tokenize(text, lang)] == tokens
    for t in tokenize(text, lang):
        assert text[t.start : t.end]  # offsets point into the original text


def test_lower_keeps_punctuation_attached() -> None:
    """``-lower`` (the li presets): lowercase only, StringTokenizer splits on spaces."""
    r = Meteor("meteor-1.5-sv").score("Hunden sover.", "hunden sover")
    assert [t.text for t in r.alignment.hyp] == ["hunden", "sover."]
    assert r.score < 1.0


def test_cli_lists_presets_by_language_and_accepts_meteor_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from meteor.cli.command_line import main

    assert main(["presets"]) == 0
    out = capsys.readouterr().out
    german = out.index("\nGerman (de, Deutsch; Meteor 1.5: -l german)")
    czech = out.index("\nCzech (cs, Čeština; Meteor 1.5: -l cz, czech)")
    assert out.index("meteor-1.5-de ", german) < out.index("\n\n", german)
    assert out.index("meteor-1.5-cs ", czech) < out.index("\n\n", czech)
    assert out.index("reproduces: meteor-1.5.jar -l se -lower") > out.index("\nSwedish (sv")
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("Děti si hrály v parku.\n", encoding="utf-8")
    ref.write_text("Děti si hrají v parku.\n", encoding="utf-8")
    assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--lang", "cz"]) == 0
    out = capsys.readouterr().out
    assert "preset:meteor-1.5-cs|lang:cs|" in out


def test_a_stemmer_loads_once_under_concurrent_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Arabic table is large: threads asking for it at once must share one load."""
    import threading
    import time

    from meteor.languages import jar_stemmers

    loads: list[str] = []

    def slow_table(member: str) -> object:
        loads.append(member)
        time.sleep(0.2)
        return lambda word: word.upper()

    monkeypatch.setattr(jar_stemmers, "_lookup_table", slow_table)
    got: list[str] = []
    threads = [
        threading.Thread(target=lambda: got.append(jar_stemmers.jar_stemmer("table:test")("ab")))
        for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.delitem(jar_stemmers._LOADED, "table:test")
    assert loads == ["test"] and got == ["AB"] * 6  # the member after "table:"
