"""``python -m meteor``: every output format, the files it writes, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.cli.command_line import main
from meteor.io.record_files import write_alignments

PRESET = "meteor-1.5-paper2005"
HYPS = ["the cat sat on the mat", "a quick brown fox", "", "he jumped quickly"]
HYPS_B = ["the cat was sat on the mat", "the fast brown fox", "nothing", "he jumps quickly"]
REFS = ["the cat sat on the mat", "the quick brown fox", "an empty hypothesis", "he jumps quickly"]
REFS2 = ["a cat sat on a mat", "a quick brown fox", "empty", "he jumped quickly"]


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, str]:
    return {
        "hyp": _write(tmp_path / "sysA.txt", HYPS),
        "hyp_b": _write(tmp_path / "sysB.txt", HYPS_B),
        "ref": _write(tmp_path / "ref.txt", REFS),
        "ref2": _write(tmp_path / "ref2.txt", REFS2),
    }


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor(PRESET)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- formats -------------------------------------------------------------------


def test_text_output(files, capsys, meteor) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(
        capsys, "score", "-p", PRESET, "--hyp", files["hyp"], "--ref", files["ref"]
    )
    assert code == 0, err
    expected = meteor.corpus_score(HYPS, REFS)
    lines = out.splitlines()
    assert lines[0].startswith("METEOR corpus score (summed statistics) = ")
    assert f"= {expected.score:.4f}" in lines[0]
    assert lines[1].startswith("mean of segment scores")
    assert f"= {expected.mean_segment_score:.4f}" in lines[1]
    assert lines[-1] == f"signature: {expected.signature}"
    assert "preset:meteor-1.5-paper2005" in lines[-1]
    assert err == ""  # no progress bar when stderr is not a terminal


def test_json_output(files, capsys, meteor) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "-f", "json"
    )
    assert code == 0
    rep = json.loads(out)
    expected = meteor.corpus_score(HYPS, REFS)
    assert rep["signature"] == expected.signature
    (system,) = rep["systems"]
    assert system["name"] == "sysA"
    assert system["score"] == expected.score
    assert system["mean_segment_score"] == expected.mean_segment_score
    assert system["segments"] == 4
    assert rep["params"]["alpha"] == 0.9


def test_tsv_output(files, capsys, meteor) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "-f", "tsv"
    )
    assert code == 0
    header, row = out.splitlines()
    cols = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    expected = meteor.corpus_score(HYPS, REFS)
    assert float(cols["corpus_score"]) == expected.score
    assert float(cols["mean_segment_score"]) == expected.mean_segment_score
    assert cols["signature"] == expected.signature


def test_two_systems_bootstrap_all_formats(files, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["score", "-p", PRESET, "-i", files["hyp"], "-i", files["hyp_b"], "-r", files["ref"]]
    code, out, _ = run(capsys, *base, "-b", "100", "--seed", "5")
    assert code == 0
    assert out.count("METEOR corpus score (summed statistics)") == 2
    assert "95% CI" in out
    assert "sysB vs sysA (baseline), paired on 4 segments: corpus score difference" in out
    assert "two-sided p = " in out and "paired bootstrap test, Koehn 2004" in out
    code, out, _ = run(capsys, *base, "-b", "100", "--seed", "5", "-f", "json")
    rep = json.loads(out)
    assert [s["name"] for s in rep["systems"]] == ["sysA", "sysB"]
    assert rep["bootstrap"] == {"samples": 100, "seed": 5, "level": 0.95}
    (cmp,) = rep["comparisons"]
    assert cmp["baseline"] == "sysA" and cmp["system"] == "sysB"
    assert 0 < cmp["corpus_score"]["p_value"] <= 1
    ci = rep["systems"][0]["bootstrap"]["corpus_score"]
    assert ci["low"] <= rep["systems"][0]["score"] <= ci["high"]
    code, out, _ = run(capsys, *base, "-b", "100", "-f", "tsv")
    lines = out.splitlines()
    assert len(lines) == 3 and "p_value" in lines[0] and "corpus_ci_low" in lines[0]


def test_multiple_references(files, capsys, meteor) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "-r", files["ref2"],
        "-f", "json",
    )  # fmt: skip
    assert code == 0
    rep = json.loads(out)
    expected = meteor.corpus_score(HYPS, [list(p) for p in zip(REFS, REFS2, strict=True)])
    assert rep["systems"][0]["score"] == expected.score
    assert "nrefs:2" in rep["signature"]


def test_jsonl_csv_and_alignments(files, capsys, tmp_path, meteor) -> None:  # type: ignore[no-untyped-def]
    jl, cs, al = tmp_path / "seg.jsonl", tmp_path / "seg.csv", tmp_path / "run-align.out"
    code, _, _ = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"],
        "--jsonl", str(jl), "--csv", str(cs), "--align-out", str(al),
    )  # fmt: skip
    assert code == 0
    recs = [json.loads(line) for line in jl.read_text(encoding="utf-8").splitlines()]
    assert len(recs) == 4
    for key in "score precision recall fmean frag penalty chunks hyp_tokens ref_tokens".split():
        assert key in recs[0]
    assert recs[0]["alignment"][0] == {
        "hyp_span": [0, 1],
        "ref_span": [0, 1],
        "module": "exact",
        "hyp_words": ["the"],
        "ref_words": ["the"],
        "detail": recs[0]["alignment"][0]["detail"],
    }
    assert recs[2]["precision"] is None  # empty hypothesis: NaN -> null
    assert cs.read_text(encoding="utf-8").count("\n") == 5
    res = meteor.corpus_score(HYPS, REFS)
    assert al.read_text(encoding="utf-8") == write_alignments(res.segments, meteor.params.modules)


def test_alignments_per_system(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    al = tmp_path / "out.align"
    code, _, _ = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-i", files["hyp_b"],
        "-r", files["ref"], "--align-out", str(al), "--jsonl", str(tmp_path / "s.jsonl"),
    )  # fmt: skip
    assert code == 0
    assert (tmp_path / "out.sysA.align").read_text().startswith("Alignment\t1\t")
    assert (tmp_path / "out.sysB.align").is_file()
    recs = [json.loads(x) for x in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [r["system"] for r in recs] == ["sysA"] * 4 + ["sysB"] * 4


def test_tsv_input_with_systems(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    rows = ["system\tseg_id\thyp\tref"] + [
        f"{s}\t{k}\t{h}\t{r}"
        for s, hyps in (("A", HYPS), ("B", HYPS_B))
        for k, (h, r) in enumerate(zip(hyps, REFS, strict=True))
    ]
    path = _write(tmp_path / "both.tsv", rows)
    code, out, _ = run(capsys, "score", "-p", PRESET, "-i", path, "-f", "json")
    assert code == 0
    assert [s["name"] for s in json.loads(out)["systems"]] == ["A", "B"]


def test_stdin(files, capsys, monkeypatch, meteor) -> None:  # type: ignore[no-untyped-def]
    data = ("\n".join(HYPS) + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "score", "-p", PRESET, "-r", files["ref"], "-f", "json")
    assert code == 0
    assert json.loads(out)["systems"][0]["score"] == meteor.corpus_score(HYPS, REFS).score
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "-p", PRESET, "--hyp", "-", "-r", files["ref"], "-f", "tsv")
    assert code == 0 and out.startswith("system\t")  # `score` is the default command


def test_overrides(files, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "-f", "json"]
    code, out, _ = run(
        capsys, *base, "--alpha", "0.5", "--beta", "2", "--gamma", "0.4", "--delta", "0.6",
        "--modules", "exact stem", "--weights", "exact=1.0,stem=0.6", "--aligner", "beam",
    )  # fmt: skip
    assert code == 0
    rep = json.loads(out)
    p = rep["params"]
    assert (p["alpha"], p["beta"], p["gamma"], p["delta"]) == (0.5, 2.0, 0.4, 0.6)
    assert p["modules"] == ["exact", "stem"] and p["weights"] == {"exact": 1.0, "stem": 0.6}
    assert "preset:meteor-1.5-paper2005+custom" in rep["signature"]
    code, out, _ = run(capsys, *base, "--modules", "exact stem", "--weights", "1.0 0.25")
    assert json.loads(out)["params"]["weights"] == {"exact": 1.0, "stem": 0.25}
    code, out, _ = run(capsys, *base, "--weights", "stem=0.5")
    assert json.loads(out)["params"]["weights"] == {"exact": 1.0, "stem": 0.5, "synonym": 1.0}


def test_progress_bar(files, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--progress"
    )
    assert code == 0 and "100%" in err and "segments" in err


def test_version(capsys) -> None:  # type: ignore[no-untyped-def]
    from meteor.params import VERSION

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"meteor {VERSION}"


def test_presets(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "presets")
    assert code == 0
    assert "meteor-1.5-paper2005" in out and "reproduces:" in out and "(default)" in out
    code, out, _ = run(capsys, "presets", "-f", "json")
    data = json.loads(out)
    names = [p["name"] for p in data]
    assert "meteor-1.5" in names and "nltk" in names
    assert all(p["signature"].startswith("meteor|") and p["reproduces"] for p in data)


# --- errors: one line, exit 2, never a traceback ---------------------------------------


def _error(capsys, *argv: str) -> str:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("meteor: error: ")
    assert "Traceback" not in err
    return lines[0]


def test_error_unknown_preset(files, capsys) -> None:  # type: ignore[no-untyped-def]
    msg = _error(capsys, "score", "-p", "nope", "-i", files["hyp"], "-r", files["ref"])
    assert "unknown preset 'nope'" in msg


def test_error_out_of_range(files, capsys) -> None:  # type: ignore[no-untyped-def]
    msg = _error(
        capsys, "score", "-p", PRESET, "--alpha", "1.5", "-i", files["hyp"], "-r", files["ref"]
    )
    assert "alpha must be in [0.0, 1.0], got 1.5" in msg
    msg = _error(capsys, "score", "-p", PRESET, "--alpha", "abc", "-i", files["hyp"])
    assert "--alpha" in msg


def test_error_bad_modules_and_weights(files, capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"]]
    assert "unknown module 'stemm'" in _error(capsys, *base, "--modules", "exact stemm")
    assert "positional weight" in _error(capsys, *base, "--weights", "1.0 0.5")
    assert "not in use" in _error(capsys, *base, "--modules", "exact", "--weights", "stem=0.5")
    assert "must be a number" in _error(capsys, *base, "--weights", "exact=x")
    assert "must be in [0.0, 1.0]" in _error(capsys, *base, "--weights", "exact=2")
    assert "--bootstrap" in _error(capsys, *base, "--bootstrap", "-3")
    assert "--workers" in _error(capsys, *base, "--workers", "0")


def test_error_language_mismatch(files, capsys) -> None:  # type: ignore[no-untyped-def]
    msg = _error(capsys, "score", "-p", PRESET, "-l", "ru", "-i", files["hyp"], "-r", files["ref"])
    assert "is for language 'en', not 'ru'" in msg


def test_error_missing_file(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = str(tmp_path / "nope.txt")
    msg = _error(capsys, "score", "-p", PRESET, "-i", missing, "-r", files["ref"])
    assert "cannot read hypothesis file" in msg and "nope.txt" in msg and "no such file" in msg
    msg = _error(capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", str(tmp_path))
    assert "directory" in msg


def test_error_mismatched_counts(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    short = _write(tmp_path / "short.txt", ["one", "two"])
    msg = _error(capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", short)
    assert "short.txt has 2 segments" in msg and "has 4" in msg


def test_error_invalid_utf8(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\nfine\ncaf\xe9\nfine\n")
    msg = _error(capsys, "score", "-p", PRESET, "-i", str(bad), "-r", files["ref"])
    assert "bad.txt: line 3 is not valid UTF-8" in msg


def test_error_binary_input(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    msg = _error(capsys, "score", "-p", PRESET, "-i", str(binary), "-r", files["ref"])
    assert "binary" in msg


def test_error_no_references(files, capsys) -> None:  # type: ignore[no-untyped-def]
    assert "--ref" in _error(capsys, "score", "-p", PRESET, "-i", files["hyp"])


def test_error_usage(capsys) -> None:  # type: ignore[no-untyped-def]
    assert "invalid choice" in _error(capsys, "score", "--format", "xml")
    assert "unrecognized arguments" in _error(capsys, "score", "--nope")


def test_error_unwritable_output(files, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = str(tmp_path / "no" / "such" / "dir" / "x.jsonl")
    msg = _error(
        capsys, "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--jsonl", out
    )
    assert "cannot write" in msg


def test_python_dash_m(files) -> None:  # type: ignore[no-untyped-def]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", "score", "-p", "nope", "-i", files["hyp"]],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("meteor: error: unknown preset") and proc.stdout == ""
