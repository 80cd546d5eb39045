"""The public surface of ``meteor`` (issue 14): pinned, importable, documented; errors in one place."""

from __future__ import annotations

import ast
import importlib
import json
import pickle
import sys
import types
from pathlib import Path

import pytest

import meteor
from meteor import errors

PUBLIC = {
    "PRESETS",
    "Alignment",
    "CandidateLimitError",
    "Chunk",
    "ClusterError",
    "CorpusResult",
    "Explanation",
    "InputError",
    "Match",
    "Meteor",
    "MeteorResult",
    "Module",
    "ParamError",
    "Params",
    "ResourceError",
    "SettingsMismatchError",
    "Span",
    "StagewiseSearchError",
    "Stats",
    "Token",
    "corpus_score",
    "correlate",
    "explain",
    "explain_score",
    "get_language",
    "get_preset",
    "preset_names",
    "presets",
    "reconcile",
    "report",
    "score",
    "sentence_score",
    "tune",
}

HYP = "A fast brown fox leapt over a lazy dog"
REF = "The quick brown fox jumps over the lazy dog"


def test_all_is_exactly_the_public_surface() -> None:
    assert set(meteor.__all__) == PUBLIC
    assert len(meteor.__all__) == len(PUBLIC)  # no duplicates


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_name_is_importable_and_documented(name: str) -> None:
    obj = getattr(meteor, name)
    ns: dict[str, object] = {}
    exec(f"from meteor import {name}", ns)  # noqa: S102 - the import statement itself
    assert ns[name] is obj
    if name == "PRESETS":
        assert isinstance(obj, dict) and obj
        return
    assert (obj.__doc__ or "").strip(), f"meteor.{name} has no docstring"


# -- errors ------------------------------------------------------------------------

OLD_HOMES = {
    "ParamError": "meteor.params",
    "ResourceError": "meteor.languages",
    "CandidateLimitError": "meteor.stages.base",
    "InputError": "meteor.io.read",
    "SettingsMismatchError": "meteor.signatures",
    "StagewiseSearchError": "meteor.aligners.stagewise",
    "ClusterError": "meteor.runners.cluster",
}


@pytest.mark.parametrize(("name", "module"), sorted(OLD_HOMES.items()))
def test_errors_live_in_errors_and_old_paths_still_work(name: str, module: str) -> None:
    cls = getattr(errors, name)
    assert cls.__module__ == "meteor.errors"
    assert getattr(importlib.import_module(module), name) is cls
    assert getattr(meteor, name) is cls
    assert name in errors.__all__


def test_errors_keep_their_bases_and_messages() -> None:
    assert issubclass(errors.ParamError, ValueError)
    assert issubclass(errors.ResourceError, RuntimeError)
    assert issubclass(errors.ClusterError, RuntimeError)
    assert issubclass(errors.StagewiseSearchError, RuntimeError)
    exc = errors.CandidateLimitError(12345, 100, "stem")
    assert str(exc).startswith("this pair has at least 12,345 candidate matches (counted up to")
    again = pickle.loads(pickle.dumps(exc))
    assert (again.found, again.limit, again.module, str(again)) == (12345, 100, "stem", str(exc))


def test_errors_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(errors.__file__).read_text(encoding="utf-8"))
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported and all(
        name.split(".")[0] in sys.stdlib_module_names or name == "__future__" for name in imported
    ), imported


def test_engine_raises_the_public_classes() -> None:
    with pytest.raises(meteor.ParamError, match="alpha"):
        meteor.Meteor("meteor-1.5", alpha=7.0)


# -- API -----------------------------------------------------------------------------


def test_sentence_score_is_score() -> None:
    a = meteor.sentence_score(HYP, REF)
    b = meteor.score(HYP, REF)
    assert a == b
    assert a.score == pytest.approx(0.45176202934445225, abs=1e-12)


def test_presets_is_the_module() -> None:
    assert isinstance(meteor.presets, types.ModuleType)
    assert meteor.presets.PRESETS is meteor.PRESETS
    assert "meteor-1.5" in meteor.preset_names()


def test_explain_module_still_importable() -> None:
    from meteor.analysis.explain import parts as explain

    assert isinstance(explain, types.ModuleType)
    assert callable(explain.unmatched_costs)


def test_corpus_score_workers_same_numbers_without_candidates() -> None:
    hyps = [HYP, "the cat sat on the mat", "nothing matches here"] * 2
    refs = [REF, "a cat was sitting on the mat", "entirely different words"] * 2
    base = meteor.corpus_score(hyps, refs)
    par = meteor.corpus_score(hyps, refs, workers=1)
    assert par.score == base.score
    assert [s.score for s in par.segments] == [s.score for s in base.segments]
    assert base.segments[0].candidates  # in-process keeps candidate lists
    assert not par.segments[0].candidates  # the workers path does not


# -- Explanation ---------------------------------------------------------------------


def test_explanation_record_matches_building_blocks() -> None:
    from meteor.analysis.explain import parts as explain

    m = meteor.Meteor("meteor-1.5")
    r = m.score(HYP, REF)
    e = meteor.explain_score(r, m)
    assert e.score == r.score
    assert e.waterfall == explain.waterfall(r.stats, m.params)
    assert e.word_costs == explain.unmatched_costs(r, m.params)
    assert e.chunk_breaks == explain.chunk_break_costs(r, m.params)
    assert e.near_misses == explain.near_misses(r, m)
    assert e.waterfall[-1].level == pytest.approx(r.score)
    assert e.chunk_breaks and e.word_costs
    # what-if: matching the costliest word raises the score, joining a break too
    assert e.word_costs[0].score_if_matched > r.score
    assert e.chunk_breaks[0].score_if_joined > r.score
    with pytest.raises(AttributeError):
        e.score = 0.0  # type: ignore[misc]
    # Params alone gives the same record
    assert meteor.explain_score(r, m.params) == e


def test_explanation_to_dict_is_json() -> None:
    m = meteor.Meteor("meteor-1.5")
    d = meteor.explain_score(m.score(HYP, REF), m).to_dict()
    text = json.dumps(d)
    back = json.loads(text)
    assert set(back) == {"score", "waterfall", "word_costs", "chunk_breaks", "near_misses"}
    assert back["word_costs"][0]["module"] in {"exact", "stem", "synonym", "paraphrase"}
    assert back["waterfall"][0] == {"key": "ideal", "value": 1.0, "level": 1.0}


def test_explain_needs_only_the_result_for_an_unchanged_preset() -> None:
    """``meteor.explain(result)``: the scorer comes from the signature's preset."""
    m = meteor.Meteor("meteor-1.5")
    r = m.score(HYP, REF)
    assert meteor.explain(r) == meteor.explain(r, m) == meteor.explain_score(r, m)
    ru = meteor.score("Мы стоим на Земле.", "Мы стояли на земле.", preset="meteor-1.5-ru")
    assert meteor.explain(ru).score == ru.score


def test_explain_of_changed_settings_asks_for_the_scorer() -> None:
    custom = meteor.Meteor("meteor-1.5", alpha=0.7)
    r = custom.score(HYP, REF)
    with pytest.raises(ValueError, match="pass the Meteor scorer or the Params"):
        meteor.explain(r)
    assert meteor.explain(r, custom.params).score == r.score
