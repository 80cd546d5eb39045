"""A match's detail (``Match.detail``, written in English by :mod:`meteor.stages`) in the
interface language: "same stem “x”", "same lemma “x”", "WordNet 3.0 synset N", "paraphrase
table" and "navec cosine c (looked up as h / r)" in Russian, numbers written the Russian
way.  Learn's candidate tables and Inspect's near misses show it.
"""

from __future__ import annotations

import re

from meteor.types import Match
from pages._i18n import Translator, freeze, num, ui

DETAIL_STRINGS = freeze(
    {
        "detail_stem": {"en": "same stem “{w}”", "ru": "общая основа «{w}»"},
        "detail_lemma": {"en": "same lemma “{w}”", "ru": "общая лемма «{w}»"},
        "detail_synset": {"en": "{src} synset {off}", "ru": "синсет {off} ({src})"},
        "detail_paraphrase": {"en": "paraphrase table", "ru": "таблица перефразирований"},
        "detail_cosine": {"en": "navec cosine {c}", "ru": "косинус navec {c}"},
        "detail_lookup": {"en": " (looked up as {h} / {r})", "ru": " (найдено как {h} / {r})"},
    }
)
t = Translator(DETAIL_STRINGS)

#: The library's candidate details (meteor.stages) → (pattern, key of the UI string).
_DETAILS = (
    (re.compile(r"same stem “(?P<w>.*)”\Z"), "detail_stem"),
    (re.compile(r"same lemma “(?P<w>.*)”\Z"), "detail_lemma"),
    (re.compile(r"(?P<src>.+) synset (?P<off>\d+)\Z"), "detail_synset"),
    (re.compile(r"paraphrase table\Z"), "detail_paraphrase"),
)
_COSINE = re.compile(r"navec cosine \S+(?: \(looked up as (?P<h>.*) / (?P<r>.*)\))?\Z")


def detail_text(m: Match) -> str:
    """A candidate's detail in the UI language, its numbers written the UI's way (the
    library writes English; a detail of an unknown form is shown as it is)."""
    if ui() == "en":
        return m.detail
    for pattern, key in _DETAILS:
        if hit := pattern.match(m.detail):
            return t(key, **hit.groupdict())
    if (hit := _COSINE.match(m.detail)) and m.similarity is not None:
        text = t("detail_cosine", c=num(m.similarity, 2))
        if hit["h"] is not None:
            text += t("detail_lookup", h=hit["h"], r=hit["r"])
        return text
    return m.detail
