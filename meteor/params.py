"""Parameters of a METEOR computation: validated, frozen, hashable — a value.

Weights are bound to modules **by name** — never by slot as Meteor 1.5's ``-w``
is (``meteor-1.5.md`` section 12).  A wrong value raises :class:`ParamError` naming
the field and its allowed range.  This module imports no registry of stages or
aligners: the aligner's checks are :class:`meteor.Meteor`'s.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, get_args

from meteor.errors import ParamError as ParamError
from meteor.errors import shown
from meteor.languages import canonical_code
from meteor.module_registry import Module, stage_modules
from meteor.text import TOKENIZERS as TOKENIZERS
from meteor.text import TokenizerName as TokenizerName

__all__ = [
    "ALIGNERS",
    "DEFAULT_ALIGNER",
    "NORM_MODES",
    "PARAM_SYMBOLS",
    "VERSION",
    "NormMode",
    "ParamError",
    "Params",
    "TOKENIZERS",
    "TokenizerName",
    "parse_number",
]

#: The formula's parameters (Params fields) and their symbols.
PARAM_SYMBOLS = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}

VERSION = "0.1.0"

NormMode = Literal["meteor", "lower", "none"]
FunctionWordList = Literal["meteor", "meteor-lang", "project"]
#: The built-in aligners, as the app offers them (each has a label there).
#: ``Params(aligner=...)`` accepts any name registered in :mod:`meteor.aligners`.
ALIGNERS: tuple[str, ...] = ("beam", "greedy", "stagewise")
#: The aligner of ``Params()``: Meteor 1.5's, which takes every kind of candidate.
DEFAULT_ALIGNER = "beam"
NORM_MODES: tuple[str, ...] = get_args(NormMode)
FUNCTION_WORD_LISTS: tuple[str, ...] = get_args(FunctionWordList)

#: (low, high) inclusive ranges of the numeric fields.
RANGES: dict[str, tuple[float, float]] = {
    "alpha": (0.0, 1.0),
    "beta": (0.0, 20.0),
    "gamma": (0.0, 1.0),
    "delta": (0.0, 1.0),
    "weight": (0.0, 1.0),
    "beam_size": (1, 10_000),
    "embedding_threshold": (-1.0, 1.0),
}


#: The settings signature's builder, set by :mod:`meteor.signatures` when imported.
_signer: Callable[..., str] | None = None


#: A number written in text, the one way this library reads one (:func:`parse_number`):
#: ASCII digits, an optional sign, point and exponent; no ``_``, no full-width digits.
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_number(text: str) -> float | None:
    """The number written in ``text`` (surrounding spaces allowed), or None.

    The one parser of numbers given as text: plain ASCII decimals such as ``0.5``,
    ``-3``, ``1e-4``; not ``"1_0"``, full-width ``"０.5"``, ``"nan"``, ``"inf"`` (which
    ``float()`` reads) nor a decimal too large for a float (``1e400``).
    """
    stripped = text.strip()
    if not DECIMAL.fullmatch(stripped):
        return None
    value = float(stripped)
    return value if math.isfinite(value) else None


def check_number(name: str, value: Any, key: str | None = None) -> float:
    """A real number in the field's range: ``int``, ``float`` or a numpy scalar (a
    string is refused rather than parsed, as is ``bool``)."""
    lo, hi = RANGES[key or name]
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        hint = " (a string: pass the number itself)" if isinstance(value, str | bytes) else ""
        raise ParamError(f"{name} must be a number in [{lo}, {hi}], got {shown(value)}{hint}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ParamError(f"{name} must be a number in [{lo}, {hi}], got {shown(value)}") from None
    if math.isnan(number) or not lo <= number <= hi:
        raise ParamError(f"{name} must be in [{lo}, {hi}], got {shown(value)}")
    return number


def _to_module(value: Any, field_name: str) -> Module:
    if isinstance(value, Module):
        return value
    names = ", ".join(m.value for m in stage_modules())
    if not isinstance(value, str):
        raise ParamError(
            f"{field_name}: a module is named by a string ({names}), got {shown(value)}"
        )
    try:
        return Module(value.strip().lower())
    except ValueError:
        raise ParamError(
            f"{field_name}: unknown module {shown(value)}; choose from {names}"
        ) from None


def _module_list(value: Any, field_name: str = "modules") -> tuple[Module, ...]:
    """A sequence of module names → modules; one string is refused with the fix."""
    if isinstance(value, str):
        raise ParamError(
            f"{field_name} must be a sequence of module names such as ('exact', 'stem'), "
            f"not one string {shown(value)} (meteor.params.parse_modules({shown(value)}) splits it)"
        )
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise ParamError(
            f"{field_name} must be a sequence of module names such as ('exact', 'stem'), "
            f"got {shown(value)}"
        )
    return tuple(_to_module(m, field_name) for m in value)


@dataclass(frozen=True, slots=True)
class Params:
    """Everything that changes a METEOR number.

    Attributes:
        lang: ISO 639-1 language code (``en``, ``ru``, ``de`` ...; see
            :func:`meteor.languages.available`).  Meteor 1.5's names are accepted and
            stored as the code (``cz`` → ``cs``, ``se`` → ``sv``).
        alpha: weight of recall against precision in Fmean = PR / (αP + (1−α)R).
        beta: exponent of the fragmentation penalty γ·frag^β.
        gamma: maximum fragmentation penalty.
        delta: weight of content words against function words (0.5: plain ratios).
        modules: the matching stages, in order: built-in ones or any registered with
            :func:`meteor.stages.registry.register_stage`.
        weights: a weight per module, by name (used for scoring only, as in Meteor 1.5).
        aligner: a registered aligner (:func:`meteor.aligners.aligner_names`): ``beam``
            (Meteor 1.5), ``greedy`` (NLTK 3.10), ``stagewise`` (2005 paper) or one
            registered with :func:`meteor.aligners.register_aligner` (checked by
            :class:`meteor.Meteor`).
        beam_size: beam width of the ``beam`` aligner (Meteor 1.5 default 40).
        norm: ``meteor`` (Meteor's ``-norm`` + lowercase), ``lower`` or ``none``.
        no_punct: drop punctuation (Meteor ``-noPunct``; only with ``norm="meteor"``).
        stemmer: stemmer name offered by the language (``snowball``, ``porter``).
        function_words: ``meteor`` (Meteor 1.5's English ``function/english.words``, which
            it weighs every language with), ``meteor-lang`` (the jar's list for the language,
            as ``-s function/<lang>.words``) or ``project`` (the project's own, Russian).
        perfect_rule: fragmentation 0 when every word matches in one chunk (Meteor 1.5).
        java_keys: compare words by Java ``String.hashCode`` as Meteor 1.5 does.
        fold_yo: fold ё→е before matching (Russian option; Meteor 1.5 does not).
        embedding_threshold: minimum cosine for the embedding stage.
        tokenizer: ``meteor`` (Meteor 1.5's tokenisation under ``norm``), ``razdel``
            (Russian only, :mod:`meteor.text.tokenize_ru`), ``whitespace`` (``str.split()``)
            or ``nltk`` (``nltk.word_tokenize``, as HF evaluate); for all but ``meteor``,
            ``norm`` only decides the case.
    """

    lang: str = "en"
    alpha: float = 0.85
    beta: float = 0.20
    gamma: float = 0.60
    delta: float = 0.75
    modules: tuple[Module, ...] = (Module.EXACT, Module.STEM, Module.SYNONYM, Module.PARAPHRASE)
    weights: tuple[tuple[Module, float], ...] = (
        (Module.EXACT, 1.0),
        (Module.STEM, 0.6),
        (Module.SYNONYM, 0.8),
        (Module.PARAPHRASE, 0.6),
    )
    aligner: str = DEFAULT_ALIGNER
    beam_size: int = 40
    norm: NormMode = "meteor"
    no_punct: bool = False
    stemmer: str = "snowball"
    function_words: FunctionWordList = "meteor"
    perfect_rule: bool = True
    java_keys: bool = True
    fold_yo: bool = False
    embedding_threshold: float = 0.5
    tokenizer: TokenizerName = "meteor"
    _weight_map: dict[Module, float] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        s = object.__setattr__
        if not isinstance(self.lang, str) or not self.lang:
            raise ParamError(f"lang must be a language code such as 'en', got {shown(self.lang)}")
        s(self, "lang", canonical_code(self.lang))  # Meteor's names too: cz -> cs, se -> sv
        for name in ("alpha", "beta", "gamma", "delta", "embedding_threshold"):
            s(self, name, check_number(name, getattr(self, name)))
        bs = check_number("beam_size", self.beam_size)
        if bs != int(bs):
            raise ParamError(f"beam_size must be a whole number, got {shown(self.beam_size)}")
        s(self, "beam_size", int(bs))
        mods = _module_list(self.modules)
        if not mods:
            raise ParamError("modules must name at least one module (e.g. exact)")
        if len(set(mods)) != len(mods):
            raise ParamError(f"modules must not repeat a module: {[m.value for m in mods]}")
        s(self, "modules", mods)
        raw = self.weights
        pairs: list[tuple[Module, float]]
        if isinstance(raw, Mapping):
            pairs = [(_to_module(k, "weights"), v) for k, v in raw.items()]
        elif isinstance(raw, str | bytes) or not isinstance(raw, Iterable):
            raise ParamError(
                "weights must be a mapping such as {'exact': 1.0, 'stem': 0.6} or "
                f"(module, weight) pairs, got {shown(raw)}"
            )
        else:
            pairs = []
            for item in raw:
                if not isinstance(item, tuple | list) or len(item) != 2:
                    raise ParamError(
                        f"weights must be (module, weight) pairs or a mapping, got {shown(item)}"
                    )
                pairs.append((_to_module(item[0], "weights"), item[1]))
        wmap: dict[Module, float] = {}
        for mod, w in pairs:
            wmap[mod] = check_number(f"weights[{mod.value}]", w, "weight")
        # Weights of modules not in use are refused (but the default weights name all four).
        if raw is not type(self).__dataclass_fields__["weights"].default:
            extra = [m.value for m in wmap if m not in mods]
            if extra:
                raise ParamError(
                    f"weights names module(s) {', '.join(extra)} that are not in use "
                    f"(modules: {' '.join(m.value for m in mods)}); add them to modules "
                    "or drop their weights"
                )
        missing = [m.value for m in mods if m not in wmap]
        if missing:
            raise ParamError(f"weights: no weight given for module(s) {', '.join(missing)}")
        s(self, "weights", tuple((m, wmap[m]) for m in mods))
        s(self, "_weight_map", {m: wmap[m] for m in mods})
        if not isinstance(self.aligner, str) or not self.aligner.strip():
            raise ParamError(
                f"aligner must be an aligner's name such as 'beam', got {shown(self.aligner)}"
            )
        if self.norm not in NORM_MODES:
            raise ParamError(f"norm must be one of {', '.join(NORM_MODES)}, got {shown(self.norm)}")
        if self.function_words not in FUNCTION_WORD_LISTS:
            raise ParamError(
                f"function_words must be one of {', '.join(FUNCTION_WORD_LISTS)}, "
                f"got {shown(self.function_words)}"
            )
        for flag in ("no_punct", "perfect_rule", "java_keys", "fold_yo"):
            if not isinstance(getattr(self, flag), bool):
                raise ParamError(f"{flag} must be true or false, got {shown(getattr(self, flag))}")
        if self.norm == "meteor" and self.tokenizer == "meteor":
            _check_normaliser(self.lang)
        if self.no_punct and self.norm != "meteor":
            raise ParamError("no_punct requires norm='meteor' (as Meteor 1.5's -noPunct)")
        if not isinstance(self.stemmer, str) or not self.stemmer.strip():
            raise ParamError(f"stemmer must be a stemmer name, got {shown(self.stemmer)}")
        if self.tokenizer not in TOKENIZERS:
            raise ParamError(
                f"tokenizer must be one of {', '.join(TOKENIZERS)}, got {shown(self.tokenizer)}"
            )
        if self.tokenizer == "razdel" and self.lang != "ru":
            raise ParamError(
                f"tokenizer 'razdel' is a Russian tokenizer; it needs lang='ru', not {shown(self.lang)}"
            )

    def weight(self, module: Module) -> float:
        """The scoring weight of ``module`` (0.0 for a module not in use)."""
        return self._weight_map.get(module, 0.0)

    def replace(self, **changes: Any) -> Params:
        """A copy with some fields changed (and re-validated).

        Changing ``modules`` alone keeps the existing weights by name and gives a
        newly added module weight 1.0 only if no weight is known for it: pass
        ``weights`` explicitly to be sure.
        """
        if "modules" in changes and "weights" not in changes:
            mods = _module_list(changes["modules"])
            changes["weights"] = tuple((m, stage_weight(m, self)) for m in mods)
        unknown = set(changes) - {f.name for f in fields(self) if f.init}
        if unknown:
            raise ParamError(f"unknown parameter(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every setting by name, in field order; modules and weights by module name."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        d["modules"] = [m.value for m in self.modules]
        d["weights"] = {m.value: w for m, w in self.weights}
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Params:
        if not isinstance(d, Mapping):
            raise ParamError(f"params must be a mapping of field names to values, got {shown(d)}")
        known = {f.name for f in fields(cls) if f.init}
        unknown = {str(k) for k in d} - known
        if unknown:
            raise ParamError(f"unknown parameter(s): {', '.join(sorted(unknown))}")
        kw = dict(d)
        if "modules" in kw and isinstance(kw["modules"], list):
            kw["modules"] = tuple(kw["modules"])
        if "weights" in kw and isinstance(kw["weights"], Mapping):
            kw["weights"] = tuple(kw["weights"].items())
        return cls(**kw)

    def signature(self, *, preset: str | None = None, nrefs: int = 1) -> str:
        """A sacreBLEU-style reproducibility signature that encodes every setting
        (:func:`meteor.signatures.settings_signature`)."""
        if _signer is None:  # pragma: no cover - meteor.signatures plugs itself in on import
            raise RuntimeError("meteor.signatures is not loaded")
        return _signer(self, preset=preset, nrefs=nrefs)


def _check_normaliser(lang: str) -> None:
    """Meteor 1.5's ``-norm`` exists for en cs de es fr ru only (``Constants.isSupported``)."""
    from meteor.languages import available_languages
    from meteor.text.normalize import NORM_LANGUAGES

    if lang in available_languages() and lang not in NORM_LANGUAGES:
        raise ParamError(
            f"norm: Meteor 1.5 has no normaliser for {lang!r} (-norm supports "
            f"{', '.join(k for k in NORM_LANGUAGES if k != 'cz')}); use norm='lower' or 'none'"
        )


def parse_modules(spec: str | Iterable[str]) -> tuple[Module, ...]:
    """``"exact stem"`` or ``["exact", "stem"]`` → modules (for CLIs and forms)."""
    items = spec.replace(",", " ").split() if isinstance(spec, str) else list(spec)
    return tuple(_to_module(x, "modules") for x in items)


def stage_weight(module: Module, params: Params, *fallbacks: Params) -> float:
    """The weight ``module`` gets, whether or not ``params`` enables it: the one rule.

    The weight in ``params`` when it enables ``module``; otherwise the weight in
    the first of ``fallbacks`` that enables it; otherwise 1.0 (Meteor 1.5 gives a
    stage with no ``-w`` weight 1.0).
    """
    for p in (params, *fallbacks):
        if module in p.modules:
            return p.weight(module)
    return 1.0
