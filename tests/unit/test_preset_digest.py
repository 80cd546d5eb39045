"""Preset files carry a digest of their own settings (``settings_sha256``): an edited copy
loads only when asked (``allow_edited`` / ``--allow-edited-preset``), with a warning, and
never with its tuned objective value; ``tuned_on.sha256`` is the data file's plain sha256
(what ``sha256sum FILE`` prints); an old file without a digest loads with a notice."""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.cli.command_line import main
from meteor.errors import ParamError
from meteor.presets import load_preset_file, parse_preset_file, settings_digest

ROWS = [
    ("A", "the cat sat on the mat", "the cat sat on the mat", 0.9),
    ("A", "a dog ran", "the dog ran away", 0.1),
    ("A", "it rains today", "it is raining today", 0.6),
    ("B", "cat on mat", "the cat sat on the mat", 0.3),
    ("B", "the dog ran away fast", "the dog ran away", 0.7),
    ("B", "rain", "it is raining today", 0.2),
    ("C", "the cat is on the mat", "the cat sat on the mat", 0.5),
    ("C", "dog", "the dog ran away", 0.0),
    ("C", "it is raining now", "it is raining today", 0.8),
]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tuned")
    data = folder / "data.tsv"
    counts: dict[str, int] = {}
    lines = ["system\tseg_id\thyp\tref\thuman_score"]
    for system, hyp, ref, human in ROWS:
        counts[system] = counts.get(system, 0) + 1
        lines.append(f"{system}\t{counts[system]}\t{hyp}\t{ref}\t{human}")
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = folder / "tuned.json"
    rc = main(["tune", "--hyp", str(data), "--human-column", "human_score", "--preset", "nltk",
               "--objective", "pearson", "--bootstrap", "10", "--out", str(out),
               "--workers", "1"])  # fmt: skip
    assert rc == 0
    return data, out


def test_a_tuned_file_carries_its_digest_and_the_data_files_plain_sha256(
    tuned: tuple[Path, Path],
) -> None:
    data, out = tuned
    doc = json.loads(out.read_text(encoding="utf-8"))
    plain = hashlib.sha256(data.read_bytes()).hexdigest()
    assert doc["tuned_on"]["sha256"] == plain
    assert doc["tuned_on"]["files"] == [{"name": "data.tsv", "sha256": plain}]
    assert doc["settings_sha256"] == settings_digest(doc["params"], doc["tuned_on"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an intact file loads without a word
        preset = load_preset_file(out)
    assert preset.tuned == (doc["tuned_on"]["objective"], doc["tuned_on"]["value"])
    assert "+edited" not in preset.name


def test_an_edited_file_needs_the_flag_and_loses_its_tuned_value(
    tuned: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = tuned
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["params"]["alpha"] = 0.5 if doc["params"]["alpha"] != 0.5 else 0.6
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ParamError, match="do not match its digest"):
        load_preset_file(edited)
    with pytest.raises(ParamError, match="--allow-edited-preset"):
        Meteor(preset_file=edited.read_bytes())
    with pytest.warns(Warning, match="edited by hand"):
        preset = load_preset_file(edited, allow_edited=True)
    assert preset.tuned is None and preset.name.endswith("+edited")
    with pytest.warns(Warning, match="edited by hand"):
        m = Meteor(preset_file=str(edited), allow_edited=True)
    assert m.params.alpha == doc["params"]["alpha"] and "+edited" in m.signature()
    assert main(["score", "--hyp", str(data), "--preset-file", str(edited)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--allow-edited-preset" in err
    argv = ["score", "--hyp", str(data), "--preset-file", str(edited), "--allow-edited-preset"]
    assert main(argv) == 0
    assert "edited by hand" in capsys.readouterr().err


def test_an_old_file_without_a_digest_loads_with_a_notice(tuned: tuple[Path, Path]) -> None:
    _, out = tuned
    doc = json.loads(out.read_text(encoding="utf-8"))
    del doc["settings_sha256"]
    with pytest.warns(Warning, match="no settings digest"):
        preset = parse_preset_file(json.dumps(doc).encode(), "preset file old.json")
    assert preset.tuned is None and "+edited" not in preset.name


@pytest.mark.parametrize("command", ["explain", "reconcile", "correlate"])
def test_every_command_that_reads_a_preset_file_takes_the_flag(
    command: str, tuned: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = tuned
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["params"]["beta"] = doc["params"]["beta"] + 0.5
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    argv = {
        "explain": ["explain", "--preset-file", str(edited), "--hyp", "a cat", "--ref", "the cat"],
        "reconcile": ["reconcile", "--from", "nltk", "--to-file", str(edited), "--hyp", "a cat",
                      "--ref", "the cat"],
        "correlate": ["correlate", "--hyp", str(data), "--human-column", "human_score",
                      "--preset-file", str(edited), "--bootstrap", "5", "--permutations", "0"],
    }[command]  # fmt: skip
    assert main(argv) == 2
    assert "--allow-edited-preset" in capsys.readouterr().err
    assert main([*argv, "--allow-edited-preset"]) == 0
    assert "edited by hand" in capsys.readouterr().err
