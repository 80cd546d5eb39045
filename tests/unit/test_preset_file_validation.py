"""Preset files (``meteor tune --out``) that are not what they claim are refused with the
file and the field named: deep nesting, repeated keys, ``"version": true``, a base preset
that is none, a name ``--preset-file`` could not show; a setting of the file that cannot
run here names the file; ``--lang`` never moves a file's setting silently; a huge value
is quoted cut; two files with the same name can be compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meteor.analysis.agreement import correlate, load_judged
from meteor.cli.command_line import main
from meteor.errors import shown
from meteor.metric import Meteor
from meteor.params import ParamError, Params
from meteor.presets import PRESETS, check_preset_name, parse_preset_file


def _doc(**changes: Any) -> dict[str, Any]:
    params = PRESETS["nltk"].params.to_dict()
    doc: dict[str, Any] = {"format": "meteor-preset", "version": 1, "name": "mine",
                           "description": "", "params": params,
                           "tuned_on": {"data": "toy.tsv"}}  # fmt: skip
    doc.update(changes)
    return doc


def _bytes(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc).encode("utf-8")


def _write(tmp_path: Path, name: str, doc: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_bytes(_bytes(doc))
    return path


# --------------------------------------------------------------------------- nesting


def test_a_deeply_nested_file_is_one_clear_error_with_its_code() -> None:
    with pytest.raises(ParamError) as exc:
        parse_preset_file(b"[" * 200_000, "preset file deep.json")
    assert str(exc.value).startswith("preset file deep.json: arrays or objects nested too deeply")
    assert exc.value.code == "preset_too_deep" and exc.value.params == {"file": "deep.json"}


def test_a_deeply_nested_file_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 200_000)
    code = main(["explain", "--hyp", "a b", "--ref", "a b", "--preset-file", str(deep)])
    err = capsys.readouterr().err
    assert code == 2
    assert "internal error" not in err and "nested too deeply" in err and "deep.json" in err
    assert err.count("\n") == 1


def test_a_deep_value_inside_a_field_is_refused_not_crashed() -> None:
    doc = _bytes(_doc()).replace(b'"alpha": 0.9', b'"alpha": ' + b"[" * 900 + b"]" * 900)
    with pytest.raises(ParamError, match="alpha"):
        parse_preset_file(doc, "preset file p.json")


# --------------------------------------------------------------------------- fields


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_bytes(_doc(version=True)), "field 'version' must be 1, got True"),
        (_bytes(_doc(version=1.0)), "field 'version' must be 1, got 1.0"),
        (
            _bytes(_doc()).replace(b'"name": "mine"', b'"name": "mine", "name": "other"'),
            "field 'name' appears more than once",
        ),  # fmt: skip
        (
            _bytes(_doc()).replace(b'"alpha": 0.9', b'"alpha": 0.9, "alpha": 0.1'),
            "field 'alpha' appears more than once",
        ),  # fmt: skip
        (_bytes(_doc(base_preset=[1, 2])), "field 'base_preset' must name a preset"),
        (_bytes(_doc(base_preset="no-such-preset")), "field 'base_preset' must name a preset"),
        (_bytes(_doc(name="x\x1b[31mred\x07")), "field 'name' must not hold control characters"),
        (_bytes(_doc(name="   ")), "field 'name' must be a non-empty string"),
    ],
)
def test_a_wrong_field_is_refused_and_named(data: bytes, message: str) -> None:
    with pytest.raises(ParamError) as exc:
        parse_preset_file(data, "preset file p.json")
    assert str(exc.value).startswith("preset file p.json: ") and message in str(exc.value)


def test_a_real_base_preset_and_custom_are_accepted() -> None:
    assert parse_preset_file(_bytes(_doc(base_preset="nltk"))).params.alpha == 0.9
    assert parse_preset_file(_bytes(_doc(base_preset="custom"))).params.alpha == 0.9


def test_the_name_rule_is_one_function() -> None:
    assert check_preset_name("tuned-nltk") == "tuned-nltk"
    for bad in ("", "   ", "a\x07b", "a\x9bb", 3):
        with pytest.raises(ParamError, match="field 'name'"):
            check_preset_name(bad, "--name")


def test_a_huge_value_is_quoted_cut_with_an_ellipsis() -> None:
    data = _bytes(_doc()).replace(b'"alpha": 0.9', b'"alpha": 1' + b"0" * 400)
    with pytest.raises(ParamError) as exc:
        parse_preset_file(data, "preset file p.json")
    message = str(exc.value)
    assert "alpha" in message and "0" * 60 not in message and message.endswith("characters]")
    with pytest.raises(ParamError) as exc2:
        Params(alpha=10**400)
    assert len(str(exc2.value)) < 100 and str(exc2.value).endswith("characters]")
    assert shown("x" * 1000) == "'" + "x" * 38 + "…[1,002 characters]" and shown(0.5) == "0.5"


# --------------------------------------------------------------------------- the scorer


def test_a_setting_that_cannot_run_here_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "al.json", _doc(params={**_doc()["params"], "aligner": "nope"}))
    with pytest.raises(ParamError) as exc:
        Meteor(preset_file=path)
    assert str(exc.value).startswith(f"preset file {path}: aligner must be one of")
    with pytest.raises(ParamError, match=r"^preset file: aligner must be one of"):
        Meteor(preset_file=path.read_bytes())


def test_lang_never_moves_a_preset_file_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "en.json", _doc())
    with pytest.raises(ParamError, match=r"is for language 'en', not 'de'"):
        Meteor(preset_file=path, lang="de")
    assert Meteor(preset_file=path, lang="en").params.lang == "en"  # the same language: fine
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    code = main(["score", "-i", str(hyp), "-r", str(hyp), "--lang", "de",
                 "--preset-file", str(path)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "en.json is for language 'en', not 'de'" in err


# --------------------------------------------------------------------------- same names


OUTPUTS = (
    "system\tseg_id\thyp\tref\thuman\n"
    "A\t1\tthe cat sat on the mat\tthe cat sat on the mat\t90\n"
    "A\t2\ta dog\tthe dog barked loudly\t40\n"
    "B\t1\ta cat on a mat\tthe cat sat on the mat\t60\n"
    "B\t2\tthe dog barked\tthe dog barked loudly\t80\n"
    "C\t1\tcat\tthe cat sat on the mat\t10\n"
    "C\t2\tdog barked loudly\tthe dog barked loudly\t95\n"
)


def test_two_preset_files_with_the_same_name_are_compared(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    one = _write(tmp_path, "one.json", _doc())
    two = _write(tmp_path, "two.json", _doc(params={**_doc()["params"], "alpha": 0.5}))
    same = _write(tmp_path / "b", "one.json", _doc(params={**_doc()["params"], "alpha": 0.6}))
    judged = load_judged([("t.tsv", OUTPUTS.encode())], "human")
    got = correlate(judged, presets=(), preset_files=(str(one), str(two)),
                    n_bootstrap=20, n_permutations=5)  # fmt: skip
    assert [m.name for m in got.metrics] == ["mine (one.json)", "mine (two.json)"]
    assert got.metrics[0].signature != got.metrics[1].signature
    got = correlate(judged, presets=(), preset_files=(str(one), str(same), str(two)),
                    n_bootstrap=20, n_permutations=5)  # fmt: skip
    assert [m.name for m in got.metrics] == [f"mine ({one})", f"mine ({same})", "mine (two.json)"]
    # one file alone keeps its plain name
    got = correlate(judged, presets=(), preset_files=(str(one),), n_bootstrap=20,
                    n_permutations=5)  # fmt: skip
    assert [m.name for m in got.metrics] == ["mine"]
