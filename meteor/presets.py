"""Named presets: each reproduces one official METEOR number, and says which.

The Meteor 1.5 task tables come from ``Constants.java:139-330`` (summarised in
``meteor-1.5.md`` section 3), with the weights bound to modules by name.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from meteor.errors import shown
from meteor.json_numbers import RepeatedKeyError, unique_keys
from meteor.module_registry import MODULE_ORDER, Module
from meteor.params import ParamError, Params

__all__ = [
    "PRESETS",
    "Preset",
    "check_preset_name",
    "get_preset",
    "load_preset_file",
    "parse_preset_file",
    "preset_names",
    "settings_digest",
    "DEFAULT_PRESET",
]

EX, ST, SY, PA, LE, EM = MODULE_ORDER


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    params: Params
    description: str
    reproduces: str
    needs_paraphrase: bool = False
    #: a preset file's tuned objective and its value, only when its settings match its
    #: digest (:func:`parse_preset_file`); None otherwise.
    tuned: tuple[str, float] | None = None


def _jar15(
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    w: tuple[float, ...],
    mods: tuple[Module, ...] = (EX, ST, SY, PA),
    lang: str = "en",
    **more: Any,
) -> Params:
    """Meteor 1.5's parameters (``-p``), modules (``-m``) and their weights (``-w``)."""
    return Params(
        lang=lang,
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        delta=delta,
        modules=mods,
        weights=tuple(zip(mods, w, strict=True)),
        **more,
    )


#: The 2005 paper's formula (α 0.9, β 3, γ 0.5, δ 0.5; exact, stem, synonym at weight 1)
#: on Meteor 1.5's normaliser and aligner; the presets below change only what they name.
_PAPER = _jar15(0.9, 3.0, 0.5, 0.5, (1.0, 1.0, 1.0), (EX, ST, SY))
#: Porter stems, no perfect-segment rule, no Java map order: the paper and NLTK, not the jar.
_NOT_JAR = {"stemmer": "porter", "perfect_rule": False, "java_keys": False}
#: The paper's stage-by-stage aligner (``paper-2005``; ``seed-doc`` changes β).
_STAGEWISE = _PAPER.replace(aligner="stagewise", **_NOT_JAR)
#: NLTK 3.10 meteor_score on str.split() tokens; ``hf`` is the same on nltk.word_tokenize.
_NLTK = _PAPER.replace(aligner="greedy", norm="lower", tokenizer="whitespace", **_NOT_JAR)

#: Meteor 1.5's other English tasks (``-t``): α, β, γ, δ, the weights of exact, stem,
#: synonym and paraphrase, and what the task is for.
_EN15_TASKS = {
    "adq": (0.75, 1.40, 0.45, 0.70, (1.0, 1.0, 0.6, 0.8), " (adequacy)"),
    "hter": (0.40, 1.50, 0.35, 0.55, (1.0, 0.2, 0.6, 0.8), ""),
    "li": (0.75, 1.40, 0.70, 0.50, (1.0, 0.5, 0.5, 0.5), " (language-independent parameters)"),
    "tune": (0.50, 1.00, 0.50, 0.50, (1.0, 0.5, 0.5, 0.5), " (starting point for tuning)"),
}

_LIST: list[Preset] = [
    Preset(
        "meteor-1.5",
        _jar15(0.85, 0.20, 0.60, 0.75, (1.0, 0.6, 0.8, 0.6)),
        "Meteor 1.5 English default (task rank): exact, stem, synonym, paraphrase.",
        "java -jar meteor-1.5.jar hyp ref -l en -norm (WMT, pycocoevalcap)",
        needs_paraphrase=True,
    ),
    *(
        Preset(
            f"meteor-1.5-{task}",
            _jar15(alpha, beta, gamma, delta, weights),
            f"Meteor 1.5 English, task {task}{note}.",
            f"meteor-1.5.jar -l en -norm -t {task}",
            needs_paraphrase=True,
        )
        for task, (alpha, beta, gamma, delta, weights, note) in _EN15_TASKS.items()
    ),
    Preset(
        "meteor-1.5-universal",
        _jar15(0.70, 1.40, 0.30, 0.70, (1.0, 0.6), (EX, PA)),
        "Meteor Universal parameters on English: exact and paraphrase only.",
        "meteor-1.5.jar -l en -norm -t universal",
        needs_paraphrase=True,
    ),
    Preset(
        "meteor-1.5-paper2005",
        _PAPER,
        "The 2005 formula (α 0.9, β 3, γ 0.5, all stages weight 1) on Meteor 1.5's aligner.",
        "meteor-1.5.jar -l en -norm -p '0.9 3.0 0.5 0.5' -m 'exact stem synonym' -w '1.0 1.0 1.0'",
    ),
    Preset(
        "meteor-1.5-paper2005-naive",
        _PAPER.replace(delta=1.0, weights=((EX, 1.0), (ST, 1.0), (SY, 0.6))),
        "The often-quoted 2005 settings as the jar really runs them: δ = 1 drops function "
        "words and -p silently gives synonyms the ADQ weight 0.6.",
        "meteor-1.5.jar -l en -norm -p '0.9 3.0 0.5 1.0' -m 'exact stem synonym'",
    ),
    Preset(
        "paper-2005",
        _STAGEWISE,
        "Banerjee & Lavie (2005): stage by stage exact → Porter → WordNet, largest mapping "
        "with fewest crossings, Fmean = 10PR/(R+9P), penalty 0.5·(chunks/matches)³.",
        "the algorithm of the 2005 paper (no reference implementation survives)",
    ),
    Preset(
        "nltk",
        _NLTK,
        "NLTK 3.10 nltk.translate.meteor_score on str.split() tokens, quirks included.",
        "nltk.translate.meteor_score.meteor_score([ref.split()], hyp.split())",
    ),
    Preset(
        "hf",
        _NLTK.replace(tokenizer="nltk"),
        "HF evaluate's meteor: nltk.word_tokenize (Punkt + Treebank, offline model), then "
        "NLTK 3.10 meteor_score with α 0.9, β 3, γ 0.5.",
        "evaluate.load('meteor').compute(...): meteor_score([word_tokenize(r) for r in refs], "
        "word_tokenize(hyp))",
    ),
    Preset(
        "seed-doc",
        _STAGEWISE.replace(beta=1.0, no_punct=True),
        "The seed documentation page: Fmean = 10PR/(R+9P), linear penalty 0.5·chunks/matches, "
        "punctuation dropped.",
        "the worked examples of the METEOR doc page (0.750 and 0.5)",
    ),
    Preset(
        "meteor-1.5-ru",
        _jar15(0.75, 1.40, 0.70, 0.50, (1.0, 0.5), (EX, ST), "ru"),
        "Meteor 1.5 Russian as it runs with the public jar: exact and Snowball stem, "
        "function words from the jar's English list (the jar weighs every language with "
        "it unless -s is given).",
        "meteor-1.5.jar -l ru -norm -m 'exact stem' -w '1.0 0.5'",
    ),
]

# Russian presets beyond Meteor 1.5 (tuning protocol and figures: docs/russian.md).

#: Cosine threshold of ``seed-ru-emb``: the seed pair's унылую~грустную (0.44) and
#: собачку~собаку (0.45) match, коричневая~рыжая (0.30) does not.
SEED_RU_EMBEDDING_THRESHOLD = 0.4
#: The embedding stage of the tuned ``ru`` preset (bench/ru_tune.py, step 3).
RU_EMBEDDING_THRESHOLD = 0.4
RU_EMBEDDING_WEIGHT = 0.75


def _seed_ru(embedding: bool) -> Params:
    mods = (EX, LE, SY, EM) if embedding else (EX, LE, SY)
    return _PAPER.replace(
        lang="ru",
        modules=mods,
        weights=tuple((m, 1.0) for m in mods),
        aligner="stagewise",
        norm="lower",
        perfect_rule=False,
        java_keys=False,
        function_words="meteor-lang",
        embedding_threshold=SEED_RU_EMBEDDING_THRESHOLD,
    )


_RUSSIAN: list[Preset] = [
    Preset(
        "seed-ru",
        _seed_ru(embedding=False),
        "The seed Russian notebook's METEOR: lowercase + whitespace tokens, exact → "
        "pymorphy lemma → synonym (wiki-ru-wordnet instead of the notebook's downloaded "
        "RuWordNet), α 0.9, β 3, γ 0.5, every stage weight 1, with the exact stage-by-stage "
        "optimum of the 2005 paper instead of the notebook's greedy first-come matching. "
        "Function words: the jar's Russian list (function/russian.words; with δ 0.5 they "
        "change only the statistics, not the score).",
        "the seed notebook's meteor_score(reference, candidate) (002_*.txt)",
    ),
    Preset(
        "seed-ru-emb",
        _seed_ru(embedding=True),
        "seed-ru plus the notebook's navec vectors as a last stage: still-unmatched words "
        f"match when their cosine (navec news model) is ≥ {SEED_RU_EMBEDDING_THRESHOLD}.",
        "the seed notebook's method with its navec neighbours used as a matching stage",
    ),
    Preset(
        "ru",
        Params(
            lang="ru",
            alpha=0.95,
            beta=1.0,
            gamma=0.1,
            delta=0.9,
            modules=(EX, LE, ST, SY, EM),
            weights=((EX, 1.0), (LE, 0.25), (ST, 1.0), (SY, 0.75), (EM, RU_EMBEDDING_WEIGHT)),
            function_words="project",
            embedding_threshold=RU_EMBEDDING_THRESHOLD,
        ),
        "Tuned for Russian on WMT21 TED en-ru MQM (tuned on the odd talks, checked on the "
        "even ones): exact → lemma → stem → synonym → navec embedding (cosine ≥ 0.4) on "
        "Meteor 1.5's normaliser and beam aligner; content words count 0.9, the project's "
        "function words 0.1; a light fragmentation penalty (γ 0.1).",
        "no external tool: tuned in this project (docs/russian.md, bench/ru_tune.py)",
    ),
]
_LIST.extend(_RUSSIAN)

# Meteor 1.5's other languages: one preset per language, from its table in
# meteor/languages/snowball.py (docs/languages.md).


def _meteor15_language_presets() -> list[Preset]:
    from meteor.languages.snowball import SNOWBALL_LANGUAGES

    out = []
    for lang in SNOWBALL_LANGUAGES:
        d = lang.meteor15
        mods = (EX, ST) if lang.algorithm else (EX,)
        stages = f"exact and {lang.stemmers[0]} stem" if lang.algorithm else "exact"
        out.append(
            Preset(
                f"meteor-1.5-{lang.code}",
                _jar15(
                    d.alpha,
                    d.beta,
                    d.gamma,
                    d.delta,
                    d.weights,
                    mods,
                    lang.code,
                    norm=d.norm,
                    stemmer=lang.stemmers[0],
                ),
                f"Meteor 1.5 {lang.name} as it runs with the public jar: {stages}; {d.note}. "
                "Function words from the jar's English list (the jar weighs every "
                "language with it unless -s is given).",
                d.flags,
            )
        )
    return out


_LIST.extend(_meteor15_language_presets())

PRESETS: dict[str, Preset] = {p.name: p for p in _LIST}
DEFAULT_PRESET = {"en": "meteor-1.5", "ru": "meteor-1.5-ru"}
DEFAULT_PRESET.update({p.params.lang: p.name for p in _LIST if p.params.lang not in DEFAULT_PRESET})


def register(preset: Preset) -> None:
    """Add a preset (used by language modules that define their own)."""
    PRESETS[preset.name] = preset


def preset_names(lang: str | None = None) -> tuple[str, ...]:
    """The registered preset names (of one language when ``lang`` is given), in order."""
    return tuple(n for n, p in PRESETS.items() if lang is None or p.params.lang == lang)


def get_preset(name: str) -> Preset:
    """Look a preset up by name.

    Raises:
        ParamError: naming the unknown preset and listing the known ones.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ParamError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}") from None


# --------------------------------------------------------------------------- preset files

#: What a preset file (``meteor tune --out tuned.json``) says it is.
PRESET_FILE_FORMAT = "meteor-preset"
_FILE_FIELDS = (
    "format",
    "version",
    "name",
    "description",
    "params",
    "base_preset",
    "tuned_on",
    "settings_sha256",
)


def settings_digest(params: object, tuned_on: object) -> str:
    """The digest a preset file carries of its own settings (field ``settings_sha256``):
    SHA-256 of the canonical JSON (sorted keys, no spaces) of ``{"params", "tuned_on"}``."""
    text = json.dumps(
        {"params": params, "tuned_on": tuned_on},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _label_part(text: str) -> str:
    """``text`` fit for a signature field (no ``|``, no spaces)."""
    return "".join("_" if c == "|" or c.isspace() else c for c in text) or "_"


def check_preset_name(name: object, where: str = "preset file") -> str:
    """A preset file's ``name``: a string with a visible character and no control
    character (also checked by ``meteor tune --name`` before tuning).

    Raises:
        ParamError: naming the field ``name``.
    """
    if not isinstance(name, str) or not name.strip():
        raise ParamError(f"{where}: field 'name' must be a non-empty string, got {shown(name)}")
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name):  # C0, DEL, C1: ESC, BEL, CR
        raise ParamError(
            f"{where}: field 'name' must not hold control characters, got {shown(name)}"
        )
    return name


def parse_preset_file(
    data: bytes, where: str = "preset file", *, allow_edited: bool = False
) -> Preset:
    """A preset from the bytes of a preset file (see :func:`load_preset_file`; the digest
    rules: :func:`_check_digest`).

    Raises:
        ParamError: not JSON, nested too deeply, a repeated field, not a preset file, a field
            that is missing or wrong (the message names the file and the field), or settings
            that do not match the digest without ``allow_edited``.
    """
    file = where.removeprefix("preset file ")  # the file's name, for the error's params
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParamError(
            f"{where}: not UTF-8 text (byte 0x{data[exc.start]:02x} at position "
            f"{exc.start + 1}); save it as UTF-8",
            "preset_not_utf8",
            file=file,
            byte=data[exc.start],
            position=exc.start + 1,
        ) from None
    try:
        doc = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=unique_keys)
    except RepeatedKeyError as exc:
        raise ParamError(f"{where}: field {shown(exc.key)} appears more than once") from None
    except json.JSONDecodeError as exc:
        raise ParamError(
            f"{where}: not a JSON preset file ({exc})",
            "preset_not_json",
            file=file,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except RecursionError:  # `[` × 200,000: json recurses once per level
        raise ParamError(
            f"{where}: arrays or objects nested too deeply to be a preset file (a preset "
            "file is an object of settings, three levels deep)",
            "preset_too_deep",
            file=file,
        ) from None
    except ValueError as exc:
        raise ParamError(f"{where}: not a JSON preset file ({exc})") from None
    try:
        return _preset_from_document(doc, data, where, allow_edited)
    except RecursionError:  # a deep value inside a field, quoted in a message
        raise ParamError(
            f"{where}: arrays or objects nested too deeply to be a preset file",
            "preset_too_deep",
            file=file,
        ) from None


def _preset_from_document(doc: Any, data: bytes, where: str, allow_edited: bool) -> Preset:
    """The :class:`Preset` a parsed preset file describes (see :func:`parse_preset_file`)."""
    if not isinstance(doc, dict) or doc.get("format") != PRESET_FILE_FORMAT:
        raise ParamError(
            f"{where}: field 'format' must be {PRESET_FILE_FORMAT!r} (a file written by "
            "`meteor tune --out`)"
        )
    unknown = sorted(set(map(str, doc)) - set(_FILE_FIELDS))
    if unknown:
        raise ParamError(f"{where}: unknown field(s) {', '.join(map(shown, unknown))}")
    version = doc.get("version")
    if type(version) is not int or version != 1:  # `true` == 1 in Python: refused too
        raise ParamError(f"{where}: field 'version' must be 1, got {shown(version)}")
    name = check_preset_name(doc.get("name"), where)
    description = doc.get("description", "")
    if not isinstance(description, str):
        raise ParamError(f"{where}: field 'description' must be a string")
    if "base_preset" in doc:
        base = doc["base_preset"]
        if not isinstance(base, str) or (base not in PRESETS and base != "custom"):
            raise ParamError(
                f"{where}: field 'base_preset' must name a preset (or be 'custom'), "
                f"got {shown(base)}"
            )
    tuned_on = doc.get("tuned_on")
    if not isinstance(tuned_on, dict) or not isinstance(tuned_on.get("data"), str):
        raise ParamError(
            f"{where}: field 'tuned_on.data' must name the data the preset was tuned on"
        )
    raw = doc.get("params")
    if not isinstance(raw, dict):
        raise ParamError(f"{where}: field 'params' must be an object of settings")
    try:
        params = Params.from_dict(raw)
    except (ParamError, TypeError) as exc:
        raise ParamError(f"{where}: field 'params': {exc}") from None
    # the name its scores carry in their signature: tuned@1a2b3c4d5e6f,tuned-on:seg_da.tsv
    digest = hashlib.sha256(data).hexdigest()
    label = f"{_label_part(name)}@{digest[:12]},tuned-on:{_label_part(tuned_on['data'])}"
    tuned = _check_digest(doc, where, allow_edited)
    label += "+edited" if tuned is False else ""
    reproduces = f"preset file tuned on {tuned_on['data']}"
    return Preset(label, params, description, reproduces, tuned=None if tuned is False else tuned)


def _check_digest(
    doc: dict[str, object], where: str, allow_edited: bool
) -> tuple[str, float] | None | Literal[False]:
    """The file's ``settings_sha256`` (:func:`settings_digest`) against its settings: the
    tuned ``(objective, value)`` of a file that matches; False for a file edited by hand
    (loaded only with ``allow_edited``, with a warning); None for a file written before
    digests (with a notice) or without a tuned value.

    Raises:
        ParamError: an edited file without ``allow_edited``.
    """
    given = doc.get("settings_sha256")
    if given is None:
        warnings.warn(
            f"{where}: no settings digest (written before digests): loaded unverified, "
            "without its tuned objective value",
            stacklevel=4,
        )
        return None
    if given != settings_digest(doc.get("params"), doc.get("tuned_on")):
        if not allow_edited:
            raise ParamError(
                f"{where}: its settings do not match its digest (edited by hand?); load it "
                "with --allow-edited-preset (API: allow_edited=True) to use it without its "
                "tuned objective value"
            )
        warnings.warn(
            f"{where}: edited by hand (its settings do not match its digest): loaded as "
            "asked; its tuned objective value is dropped",
            stacklevel=4,
        )
        return False
    tuned_on = doc["tuned_on"]
    assert isinstance(tuned_on, dict)
    objective, value = tuned_on.get("objective"), tuned_on.get("value")
    if isinstance(objective, str) and isinstance(value, int | float):
        return objective, float(value)
    return None


def load_preset_file(path: str | os.PathLike[str], *, allow_edited: bool = False) -> Preset:
    """Read a preset file (JSON, ``meteor tune --out tuned.json``) → a :class:`Preset`, named
    (in the signature) by the file's own name, its SHA-256's first 12 hex digits and its data.

    Raises:
        ParamError: the file cannot be read, or a field is missing or wrong (named).
    """
    try:
        # opened without blocking, then checked: a FIFO with no writer would hang a plain open
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ParamError(
                    f"preset file {os.fspath(path)}: not a regular file (a named pipe, device "
                    "or folder); copy it to a regular file first"
                )
            data = fh.read((1 << 20) + 1)
    except OSError as exc:
        raise ParamError(f"preset file {os.fspath(path)}: {exc.strerror or exc}") from None
    if len(data) > 1 << 20:
        raise ParamError(f"preset file {os.fspath(path)}: larger than 1 MiB, not a preset file")
    return parse_preset_file(data, f"preset file {os.fspath(path)}", allow_edited=allow_edited)
