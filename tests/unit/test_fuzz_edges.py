"""Issue 13 "Fuzzing": the input readers, the CLI's argument parsing and ``Params``.

Whatever comes in, each entry point either works or raises its own documented error
(``InputError``, ``ParamError``, one ``meteor: error:`` line with status 2); nothing
else escapes, nothing hangs, no traceback is printed.

Bounded for CI: ``METEOR_FUZZ_EXAMPLES`` (default 40 per property, a few seconds in
all) raises the number of examples for a longer run by hand, e.g.::

    METEOR_FUZZ_EXAMPLES=5000 python -m pytest -q tests/unit/test_fuzz_edges.py
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor.cli.command_line import main
from meteor.io import read as mio
from meteor.params import ParamError, Params

EXAMPLES = int(os.environ.get("METEOR_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# -- input readers ---------------------------------------------------------------------------

cells = st.text(alphabet=st.sampled_from("ab \t\"'{}[]:,\\\r\u2028é\x00"), max_size=8)
headers = st.lists(
    st.sampled_from(["hyp", "ref", "ref2", "refs", "system", "seg_id", "id", "x", "", "hyp"]),
    min_size=1,
    max_size=4,
)


@st.composite
def tsv_files(draw: st.DrawFn) -> bytes:
    head = draw(headers)
    rows = draw(st.lists(st.lists(cells, min_size=0, max_size=5), max_size=6))
    lines = ["\t".join(head)] + ["\t".join(r) for r in rows]
    return ("\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))).encode("utf-8")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


@st.composite
def jsonl_files(draw: st.DrawFn) -> bytes:
    keys = st.sampled_from(["hyp", "ref", "refs", "system", "seg_id", "type", "other"])
    objs = draw(st.lists(st.dictionaries(keys, json_values, max_size=5), max_size=5))
    lines = [json.dumps(o, allow_nan=True) for o in objs]
    if draw(st.booleans()):
        lines.append(draw(st.text(max_size=10)))  # a line that may not be JSON at all
    return "\n".join(lines).encode("utf-8", "surrogatepass")


files = st.one_of(
    st.binary(max_size=200).map(lambda b: ("f.txt", b)),
    st.text(max_size=100).map(lambda t: ("f.txt", t.encode("utf-8", "surrogatepass"))),
    tsv_files().map(lambda b: ("f.tsv", b)),
    jsonl_files().map(lambda b: ("f.jsonl", b)),
)


@FUZZ
@given(file=files)
def test_read_table_gives_a_table_or_an_input_error(file: tuple[str, bytes]) -> None:
    name, data = file
    try:
        table = mio.read_table(data, name)
    except mio.InputError as exc:
        assert str(exc)
        return
    assert len(table.ids) == table.n_segments
    for _, hyps in table.systems:
        assert len(hyps) == table.n_segments and all(isinstance(h, str) for h in hyps)
    if table.refs is not None:
        assert all(isinstance(r, str) for refs in table.refs for r in refs)


@FUZZ
@given(hyp=files, ref=files)
def test_load_corpus_gives_a_corpus_or_an_input_error(
    hyp: tuple[str, bytes], ref: tuple[str, bytes]
) -> None:
    try:
        corpus = mio.load_corpus([hyp], [("r" + ref[0], ref[1])])
    except mio.InputError:
        return
    assert all(len(h) == corpus.n_segments for _, h in corpus.systems)
    assert all(refs for refs in corpus.refs)


# -- Params ----------------------------------------------------------------------------------

FIELDS = ["lang", "alpha", "beta", "gamma", "delta", "modules", "weights", "aligner", "beam_size",
          "norm", "no_punct", "stemmer", "function_words", "perfect_rule", "java_keys", "fold_yo",
          "embedding_threshold", "tokenizer", "colour"]  # fmt: skip
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["exact stem", "0.5", "1_0", "nan", "beam", "stagewise", "ru", "razdel"]),
    st.lists(st.sampled_from(["exact", "stem", "synonym", "paraphrase", "lemma", "e", 3]), max_size=4),
    st.dictionaries(st.sampled_from(["exact", "stem", "x"]), st.floats() | st.text(max_size=3), max_size=3),
    st.tuples(st.sampled_from(["exact", "stem"]), st.floats(0, 1)).map(lambda t: [t]),
)  # fmt: skip


@FUZZ
@given(kw=st.dictionaries(st.sampled_from(FIELDS), values, max_size=5))
def test_params_accept_or_raise_param_error(kw: dict[str, Any]) -> None:
    try:
        p = Params.from_dict(kw)
    except ParamError as exc:
        assert str(exc)
        return
    for name in ("alpha", "beta", "gamma", "delta", "embedding_threshold"):
        v = getattr(p, name)
        assert type(v) is float and not math.isnan(v)
    assert type(p.beam_size) is int and p.modules and len(p.weights) == len(p.modules)
    assert Params.from_dict(p.to_dict()) == p  # what is accepted round-trips


# -- CLI argument parsing --------------------------------------------------------------------

OPTIONS = ["-p", "--preset", "-l", "--alpha", "--beta", "--gamma", "--delta", "-m", "-w",
           "--aligner", "-f", "--width", "--jsonl", "--csv", "--align-out", "-b", "--seed",
           "-j", "--input-format", "--max-bootstrap-work", "--progress", "-i", "-r", "--", "-h"]  # fmt: skip
VALUES = ["nltk", "meteor-1.5", "paper-2005", "en", "ru", "xx", "0.5", "-1", "2", "1e400", "nan",
          "exact stem", "exact=1", "1 2", "beam", "stagewise", "json", "jsonl", "csv", "tsv",
          "text", "3", "0", "100000000", "-", "", "=", "--alpha=0.3", "{out}", "{dir}",
          "{hyp}", "{ref}", "/proc/version", "/dev/null"]  # fmt: skip


@FUZZ
@given(tokens=st.lists(st.sampled_from(OPTIONS + VALUES), max_size=8))
def test_cli_arguments_end_in_a_status_never_a_traceback(
    tokens: list[str],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d = tmp_path_factory.mktemp("cli")
    (d / "hyp.txt").write_text("the cat sat\na dog\n")
    (d / "ref.txt").write_text("the cat sat down\nthe dog\n")
    subs = {"{out}": str(d / "o.out"), "{dir}": str(d), "{hyp}": str(d / "hyp.txt"),
            "{ref}": str(d / "ref.txt")}  # fmt: skip
    argv = ["score", "-i", subs["{hyp}"], "-r", subs["{ref}"]] + [subs.get(t, t) for t in tokens]

    class NoStdin:
        buffer = None

        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", NoStdin())
    monkeypatch.chdir(d)
    try:
        code = main(argv)
    except SystemExit as exc:  # -h/--help and --version exit through argparse
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert err.startswith("meteor: error: ") and err.count("\n") == 1, (argv, err)
    assert not list(Path(d).glob("*.part"))  # no temporary output left behind
