"""One reader (issue 32, item 6): the streaming reader (:mod:`meteor.io.stream`, used by
``meteor stream``) applies the corpus reader's rules and messages.

The same inputs go through :func:`meteor.io.read.load_corpus` and
:func:`meteor.io.stream.iter_segments`/:func:`check_files`: same segments, same
warnings, same errors.  The streaming reader holds a line at a time (counted on a file
object that records what was read), and the streaming command reads its inputs with it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from meteor.io.lines import InputWarning
from meteor.io.read import InputError, load_corpus
from meteor.io.stream import check_files, iter_file, iter_segments
from meteor.runners.cluster.inputs import check_files as cluster_check_files

ROOT = Path(__file__).resolve().parents[2]


def _both(tmp: Path, name: str, data: bytes, *, keep_bom: bool = False) -> tuple[object, object]:
    """(corpus reader, streaming reader) on one file holding hypotheses and references:
    the segments, or the error message, and the warnings of each."""
    path = tmp / name
    path.write_bytes(data)
    out = []
    for read in (
        lambda: (lambda c: list(zip(c.hyps(0), c.refs, strict=True)))(
            load_corpus([(name, data)], keep_bom=keep_bom)
        ),
        lambda: list(iter_segments(path, keep_bom=keep_bom)),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got: object = read()
            except InputError as exc:
                got = str(exc)
        out.append((got, [str(w.message) for w in caught if w.category is InputWarning]))
    return out[0], out[1]


def test_jsonl_type_label_is_a_segment_and_only_the_harness_summary_is_skipped(
    tmp_path: Path,
) -> None:
    data = (
        b'{"type": "segment", "hyp": "a cat", "ref": "the cat"}\n'
        b'{"type": "doc", "hyp": "a dog", "ref": "the dog"}\n'
        b'{"type": "corpus", "score": 0.5}\n'
    )
    corpus, streamed = _both(tmp_path, "d.jsonl", data)
    assert corpus == streamed
    segments, warned = streamed  # type: ignore[misc]
    assert segments == [("a cat", ("the cat",)), ("a dog", ("the dog",))]
    assert len(warned) == 1 and "d.jsonl: skipped line 3" in warned[0]


def test_jsonl_repeated_key_is_refused_by_both(tmp_path: Path) -> None:
    data = b'{"hyp": "a", "ref": "b"}\n{"hyp": "a", "hyp": "c", "ref": "b"}\n'
    corpus, streamed = _both(tmp_path, "d.jsonl", data)
    assert corpus == streamed
    assert streamed[0] == (  # type: ignore[index]
        "d.jsonl: line 2 gives the key 'hyp' more than once; give each key once (JSON "
        "readers keep only the last value)"
    )


def test_pandas_quoted_tsv_and_csv_read_alike(tmp_path: Path) -> None:
    tsv = b'hyp\tref\n"He said ""hi"" to me"\the said hi\n"a\ttab"\tx\n'
    corpus, streamed = _both(tmp_path, "q.tsv", tsv)
    assert corpus == streamed
    assert streamed[0] == [  # type: ignore[index]
        ('He said "hi" to me', ("he said hi",)),
        ("a\ttab", ("x",)),
    ]
    csv_data = b'hyp,ref\n"one, two",three\n"say ""x""",y\n'
    corpus, streamed = _both(tmp_path, "c.csv", csv_data)
    assert corpus == streamed
    assert streamed[0] == [("one, two", ("three",)), ('say "x"', ("y",))]  # type: ignore[index]


def test_quoted_field_that_does_not_read_as_quoted_tsv_warns_alike(tmp_path: Path) -> None:
    data = b'hyp\tref\n"a ""b"" c"\tx\n"bad"quote\ty\n'
    corpus, streamed = _both(tmp_path, "w.tsv", data)
    assert corpus == streamed
    assert "line 2 has a field in csv quotes" in streamed[1][0]  # type: ignore[index]


def test_bom_kept_or_dropped_alike_and_a_table_header_never_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_bytes(b"\xef\xbb\xbfthe cat\nsat\n")
    (tmp_path / "r.txt").write_bytes(b"\xef\xbb\xbfa cat\nsat\n")
    files = [("h.txt", (tmp_path / "h.txt").read_bytes())]
    refs = [("r.txt", (tmp_path / "r.txt").read_bytes())]
    for keep in (False, True):
        corpus = load_corpus(files, refs, keep_bom=keep)
        streamed = list(iter_segments(tmp_path / "h.txt", [tmp_path / "r.txt"], keep_bom=keep))
        assert streamed == list(zip(corpus.hyps(0), corpus.refs, strict=True))
        assert streamed[0][0] == ("\ufeffthe cat" if keep else "the cat")
    corpus_t, streamed_t = _both(tmp_path, "b.tsv", b"\xef\xbb\xbfhyp\tref\nx\ty\n", keep_bom=True)
    assert corpus_t == streamed_t and streamed_t[0] == [("x", ("y",))]  # type: ignore[index]


def test_bad_system_name_refused_alike(tmp_path: Path) -> None:
    data = b'{"system": "A\\tB", "hyp": "a", "ref": "b"}\n'
    corpus, streamed = _both(tmp_path, "s.jsonl", data)
    assert corpus == streamed
    assert str(streamed[0]).startswith(  # type: ignore[index]
        "s.jsonl: line 1: the system name 'A\\tB' contains a tab"
    )


def test_lone_cr_bad_utf8_and_nul_alike(tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_bytes(b"x\ny\nz\n")
    ref = [("r.txt", b"x\ny\nz\n")]
    for data in (b"a\rb\r\nc", b"ok\n\xff\xfe\nz\n", b"ok\nn\x00l\nz\n"):
        (tmp_path / "h.txt").write_bytes(data)
        try:
            c = load_corpus([("h.txt", data)], ref)
            want: object = list(zip(c.hyps(0), c.refs, strict=True))
        except InputError as exc:
            want = str(exc)
        try:
            got: object = list(iter_segments(tmp_path / "h.txt", [tmp_path / "r.txt"]))
        except InputError as exc:
            got = str(exc)
        assert got == want, data


def test_trailing_blank_line_is_named_by_both(tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_bytes(b"a\nb\n\n")
    (tmp_path / "r.txt").write_bytes(b"x\ny\n")
    with pytest.raises(InputError) as corpus_err:
        load_corpus([("h.txt", b"a\nb\n\n")], [("r.txt", b"x\ny\n")])
    with pytest.raises(InputError) as stream_err:
        check_files(tmp_path / "h.txt", [tmp_path / "r.txt"])
    assert str(corpus_err.value).endswith("h.txt has 3 (the last one is empty)")
    assert str(stream_err.value) == (
        "r.txt has 2 segments but h.txt has 3 (the last one is empty); every file needs one "
        "segment per line (nothing was scored)"
    )


def test_check_files_reads_jsonl_up_front(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").write_bytes(
        b'{"hyp": "a", "ref": "b"}\n' + b'{"hyp": "' + b"w" * 200_001 + b'", "ref": "b"}\n'
    )
    with pytest.raises(InputError, match="d.jsonl: line 2 has a segment of 200,001 characters"):
        cluster_check_files(tmp_path / "d.jsonl")
    (tmp_path / "e.jsonl").write_bytes(b'{"hyp": "a", "ref": "b"}\n{"hyp": "a", "hyp": "b"}\n')
    with pytest.raises(InputError, match="line 2 gives the key 'hyp' more than once"):
        cluster_check_files(tmp_path / "e.jsonl")


class _Counting(io.RawIOBase):
    """A binary file that records how many bytes were read from it."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: memoryview) -> int:  # type: ignore[override]
        n = min(len(buf), len(self.data) - self.pos, 4096)  # at most 4 KB per read
        buf[:n] = self.data[self.pos : self.pos + n]
        self.pos += n
        return n


@pytest.mark.parametrize("name", ["big.txt", "big.jsonl"])
def test_streaming_reader_yields_the_first_row_before_reading_the_rest(name: str) -> None:
    line = b'{"hyp": "the cat sat", "ref": "a cat sat"}\n' if name.endswith("jsonl") else b"x\n"
    n = 200_000 if name.endswith("jsonl") else 1_000_000
    source = _Counting(line * n)
    rows = iter_file(source, name=name, role="hyp")  # type: ignore[arg-type]
    first = next(rows)
    assert first[1] in ("x", "the cat sat")
    assert source.pos <= 1 << 16 < len(source.data) // 8  # one chunk read, not the file
    assert 1 + sum(1 for _ in rows) == n and source.pos == len(source.data)


def test_streaming_command_reads_with_the_one_reader(tmp_path: Path) -> None:
    """The streaming command on such inputs: refused before connecting to any cluster
    (the address is never reached), warned once, noted (BOM) and complete."""
    (tmp_path / "d.jsonl").write_bytes(b'{"hyp": "a", "hyp": "c", "ref": "b"}\n')
    (tmp_path / "s.jsonl").write_bytes(b'{"sys": "A\\nB", "hyp": "a", "ref": "b"}\n')
    (tmp_path / "q.csv").write_bytes(b'hyp,ref\n"one, two",three\n"x","y"\nz\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "meteor", "stream", "--dask", "tcp://127.0.0.1:9"]
    expected = {
        "d.jsonl": "d.jsonl: line 1 gives the key 'hyp' more than once",
        "s.jsonl": "s.jsonl: line 1: the system name 'A\\nB' contains a line break",
        "q.csv": "q.csv: line 4 has 1 fields but the header has 2 (read as quoted CSV)",
    }
    for name, message in expected.items():
        proc = subprocess.run(
            [*base, "-i", str(tmp_path / name), "--dask-timeout", "5"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"meteor: error: {message}"), proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_streaming_command_scores_as_meteor_score(tmp_path: Path) -> None:
    """A JSONL with ``type`` labels and the harness summary, and a text file with a BOM:
    the streaming command prints ``meteor score``'s numbers, warns and notes once."""
    (tmp_path / "d.jsonl").write_bytes(
        b'{"type": "segment", "hyp": "the cat sat on the mat", "ref": "a cat sat on a mat"}\n'
        b'{"type": "doc", "hyp": "the dog", "ref": "the dog ran"}\n{"type": "corpus"}\n'
    )
    (tmp_path / "h.txt").write_bytes(b"\xef\xbb\xbfthe cat sat\nthe dog\n")
    (tmp_path / "r.txt").write_bytes(b"the cat sat\nthe dog ran\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (["-i", "d.jsonl"], ["-i", "h.txt", "-r", "r.txt"]):
        runs = [
            subprocess.run(
                [sys.executable, "-m", *cmd, *args],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            for cmd in (["meteor", "stream", "--dask", "local:1"], ["meteor", "score"])
        ]
        streamed, scored = runs
        assert streamed.returncode == 0 == scored.returncode, streamed.stderr
        assert streamed.stdout == scored.stdout
        assert streamed.stdout.startswith("METEOR corpus score (summed statistics) = 0.")
        assert streamed.stderr == scored.stderr  # the one warning, or the one BOM note
        assert streamed.stderr.count("\n") == 1
        assert ("skipped line 3" if args[1] == "d.jsonl" else "byte-order mark") in scored.stderr
