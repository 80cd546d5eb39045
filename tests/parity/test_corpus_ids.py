"""Segments pair by their ids (issue 13, HIGH 2): a shuffled, filtered or re-sorted file
gives the same per-id scores; duplicate, missing or extra ids are errors that name them;
systems may cover different segments (WMT21 ``seg_da.tsv``), each scored on its own ids,
and the paired test runs on the ids both have."""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_DATA, read_jsonl_gz, require_shared

from meteor import Meteor
from meteor.analysis.resampling import common_segments
from meteor.analysis.significance import paired_bootstrap, segment_differences
from meteor.cli.command_line import main
from meteor.io.read import Corpus, InputError, id_order, load_corpus, read_table
from meteor.runners.parallel import score_corpus

PRESET = "meteor-1.5-paper2005"
DA = SHARED_DATA / "wmt21_ru-en_da"
SEG_DA = DA / "seg_da.tsv"
JAR_PAPER2005 = DA / "meteor15.en_paper2005_norm.jsonl.gz"


def _tsv(header: list[str], rows: list[list[str]]) -> bytes:
    return ("\n".join("\t".join(r) for r in [header, *rows]) + "\n").encode()


def _jsonl(objs: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(o) + "\n" for o in objs).encode()


ROWS = [
    ["s1", "the cat sat on the mat", "a cat sat on the mat"],
    ["s2", "hello world", "hello there world"],
    ["s3", "nothing matches here", "completely different words"],
    ["s4", "one two three", "one two three four"],
]


# --- reading ---------------------------------------------------------------------------


def test_shuffled_rows_give_the_same_corpus() -> None:
    ordered = load_corpus([("h.tsv", _tsv(["seg_id", "hyp", "ref"], ROWS))])
    shuffled_rows = [ROWS[k] for k in (2, 0, 3, 1)]
    shuffled = load_corpus([("h.tsv", _tsv(["seg_id", "hyp", "ref"], shuffled_rows))])
    assert ordered.keyed and ordered.complete

    def per_id(c: Corpus) -> dict[str, tuple[str, tuple[str, ...]]]:
        return dict(zip(c.ids_of(0), zip(c.hyps(0), c.refs_of(0), strict=True), strict=True))

    assert per_id(shuffled) == per_id(ordered)  # ids that are not numbers keep file order
    numbered = [[str(k + 1), h, r] for k, (_, h, r) in enumerate(ROWS)]
    a = load_corpus([("h.tsv", _tsv(["seg_id", "hyp", "ref"], numbered))])
    b = load_corpus([("h.tsv", _tsv(["seg_id", "hyp", "ref"], numbered[::-1]))])
    assert a == b and a.ids == ("1", "2", "3", "4")  # whole-number ids: in number order


def test_shuffled_hypothesis_file_pairs_by_id_with_a_separate_reference_file() -> None:
    refs = _tsv(["seg_id", "ref"], [[i, r] for i, _, r in ROWS])
    hyps = _tsv(["seg_id", "hyp"], [[i, h] for i, h, _ in reversed(ROWS)])
    c = load_corpus([("sys.tsv", hyps)], [("ref.tsv", refs)])
    assert c.ids == ("s1", "s2", "s3", "s4")  # the references' order
    assert c.hyps(0) == tuple(h for _, h, _ in ROWS)
    assert c.refs == tuple((r,) for _, _, r in ROWS)
    # and the scores follow the ids, not the rows
    m = Meteor(PRESET)
    res = m.corpus_score(list(c.hyps(0)), list(c.refs_of(0)))
    for seg, seg_id in zip(res.segments, c.ids_of(0), strict=True):
        h, r = next((h, r) for i, h, r in ROWS if i == seg_id)
        assert seg.score == m.score(h, r).score


def test_json_ids_may_be_numbers_and_text_files_have_line_number_ids() -> None:
    hyps = _jsonl([{"id": 2, "hyp": "b"}, {"id": 1, "hyp": "a"}])
    c = load_corpus([("h.jsonl", hyps)], [("ref.txt", b"ref a\nref b\n")])
    assert c.ids == ("1", "2") and c.hyps(0) == ("a", "b")
    assert c.refs == (("ref a",), ("ref b",))


def test_id_order() -> None:
    assert id_order(["10", "9", "2", "9"]) == ("2", "9", "10")  # whole numbers: by number
    assert id_order(["b", "a", "b", "c"]) == ("b", "a", "c")  # else first seen


@pytest.mark.parametrize(
    ("files", "refs", "pattern"),
    [
        # a repeated id in one file, naming the id and its lines
        (
            [
                (
                    "h.tsv",
                    _tsv(
                        ["seg_id", "hyp", "ref"],
                        [["7", "a", "r"], ["8", "b", "r"], ["7", "c", "r"]],
                    ),
                )
            ],
            [],
            r"h\.tsv: segment id\(s\) repeated: '7' on lines 2, 4",
        ),
        # repeated within one system of a long-form table
        (
            [
                (
                    "long.tsv",
                    _tsv(
                        ["system", "seg_id", "hyp", "ref"],
                        [["A", "1", "a", "r"], ["B", "1", "b", "r"], ["B", "1", "c", "r"]],
                    ),
                )
            ],
            [],
            r"system 'B': segment id\(s\) repeated: '1' on lines 3, 4.*once per system",
        ),
        # an id the references do not have ("extra")
        (
            [("h.tsv", _tsv(["seg_id", "hyp"], [["1", "a"], ["2", "b"], ["x9", "c"]]))],
            [("r.tsv", _tsv(["seg_id", "ref"], [["1", "r"], ["2", "r"]]))],
            r"hypothesis file h\.tsv has segment id\(s\) 'x9' that no reference has",
        ),
        # a separate hypothesis file that lacks ids of the references ("missing": filtered)
        (
            [("h.tsv", _tsv(["seg_id", "hyp"], [["1", "a"], ["3", "c"]]))],
            [("r.tsv", _tsv(["seg_id", "ref"], [["1", "r"], ["2", "r"], ["3", "r"], ["4", "r"]]))],
            r"h\.tsv has no hypothesis for segment id\(s\) '2', '4' \(2 of the 4 ids",
        ),
        # two reference files that disagree
        (
            [("h.tsv", _tsv(["seg_id", "hyp"], [["1", "a"]]))],
            [
                ("r1.tsv", _tsv(["seg_id", "ref"], [["1", "r"], ["2", "r"]])),
                ("r2.tsv", _tsv(["seg_id", "ref"], [["1", "q"]])),
            ],
            r"reference file r2\.tsv has no reference for segment id\(s\) '2' that reference "
            r"file r1\.tsv has",
        ),
        # plain-text references are numbered by line: ids that are not line numbers are named
        (
            [("h.tsv", _tsv(["seg_id", "hyp"], [["A", "a"], ["B", "b"]]))],
            [("ref.txt", b"r1\nr2\n")],
            r"segment id\(s\) 'A', 'B' that no reference has .*ref\.txt is plain text",
        ),
        # a long-form table whose rows give one segment two references
        (
            [
                (
                    "long.tsv",
                    _tsv(
                        ["system", "seg_id", "hyp", "ref"],
                        [["A", "1", "a", "r"], ["B", "1", "b", "OTHER"]],
                    ),
                )
            ],
            [],
            r"line 3: segment id '1' has a different reference than on line 2 \(system 'A'\)",
        ),
        (
            [
                (
                    "h.jsonl",
                    _jsonl([{"seg_id": "1", "hyp": "a", "ref": "r"}, {"hyp": "b", "ref": "r"}]),
                )
            ],
            [],
            r"h\.jsonl: line 2 has no segment id \(field 'seg_id'\)",
        ),
        (
            [("h.tsv", _tsv(["seg_id", "hyp", "ref"], [["1", "a", "r"], [" ", "b", "r"]]))],
            [],
            r"h\.tsv: line 3 has an empty segment id",
        ),
        (
            [("h.jsonl", _jsonl([{"seg_id": None, "hyp": "a", "ref": "r"}]))],
            [],
            r"segment id 'seg_id' must be a string or a whole number, got null",
        ),
    ],
)
def test_id_errors_name_the_ids(files: Any, refs: Any, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        load_corpus(files, refs)


def test_many_repeated_ids_are_summarised() -> None:
    rows = [[str(k % 5), "h", "r"] for k in range(40)]
    with pytest.raises(InputError, match=r"\(5 repeated ids in all\)"):
        read_table(_tsv(["seg_id", "hyp", "ref"], rows), "big.tsv")


def test_many_missing_ids_are_counted() -> None:
    refs = _tsv(["seg_id", "ref"], [[str(k), "r"] for k in range(1, 101)])
    hyps = _tsv(["seg_id", "hyp"], [["1", "h"]])
    with pytest.raises(InputError, match=r"'2', '3', '4', '5', '6' and 94 more \(99 of the 100"):
        load_corpus([("h.tsv", hyps)], [("r.tsv", refs)])


def test_systems_may_cover_different_segments_when_rows_carry_references() -> None:
    rows = [
        ["A", "1", "a1", "r1"],
        ["A", "3", "a3", "r3"],
        ["B", "3", "b3", "r3"],
        ["B", "2", "b2", "r2"],
        ["B", "1", "b1", "r1"],
    ]
    c = load_corpus([("long.tsv", _tsv(["system", "seg_id", "hyp", "ref"], rows))])
    assert c.ids == ("1", "2", "3") and not c.complete
    assert c.hyps("A") == ("a1", "a3") and c.ids_of("A") == ("1", "3")
    assert c.refs_of("A") == (("r1",), ("r3",)) and c.indices("A") == (0, 2)
    assert c.hyps("B") == ("b1", "b2", "b3") and c.indices("B") == (0, 1, 2)
    with pytest.raises(InputError, match="coverage"):
        Corpus(c.systems, c.refs, c.ids, coverage=((0, 1),))


# --- pairing two systems by id ---------------------------------------------------------


def test_paired_bootstrap_on_common_ids_equals_the_aligned_subsets() -> None:
    m = Meteor(PRESET)
    pairs = {str(k): (f"word{k} the cat sat", f"word{k} a cat sat down") for k in range(30)}
    ids_a = [str(k) for k in range(25)]  # A lacks 25..29
    ids_b = [str(k) for k in reversed(range(5, 30))]  # B lacks 0..4, in another order
    a = m.corpus_score([pairs[i][0] for i in ids_a], [pairs[i][1] for i in ids_a])
    b = m.corpus_score([pairs[i][0] + " mat" for i in ids_b], [pairs[i][1] for i in ids_b])
    pos_a, pos_b = common_segments(ids_a, ids_b)
    assert [ids_a[i] for i in pos_a] == [ids_b[j] for j in pos_b] == [str(k) for k in range(5, 25)]
    pb = paired_bootstrap(a, b, m.params, n_samples=200, ids=(ids_a, ids_b))
    aligned = paired_bootstrap(
        [a.segments[i] for i in pos_a], [b.segments[j] for j in pos_b], m.params, n_samples=200
    )
    assert pb.corpus == aligned.corpus and pb.mean_segment == aligned.mean_segment
    assert (pb.n_segments, pb.segments_a, pb.segments_b) == (20, 25, 25)
    assert not pb.all_segments and pb.to_dict()["paired_segments"] == 20
    diffs = segment_differences(a, b, ids=(ids_a, ids_b))
    assert len(diffs) == 20
    for d in diffs:
        assert a.segments[d.index].score == d.score_a and ids_a[d.index] == d.seg_id
        assert b.segments[d.position_b].score == d.score_b and ids_b[d.position_b] == d.seg_id
    with pytest.raises(ValueError, match="no segment id in common"):
        paired_bootstrap(a, b, m.params, ids=([f"a{k}" for k in range(25)], ids_b))
    with pytest.raises(ValueError, match="repeats segment id '1'"):
        common_segments(["1", "1"], ["1"])


# --- the real WMT21 DA file -------------------------------------------------------------


def _da_rows(systems: tuple[str, ...]) -> list[dict[str, str]]:
    with require_shared(SEG_DA).open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r for r in rows if r["system"] in systems]


def _da_tsv(rows: list[dict[str, str]]) -> bytes:
    buf = io.StringIO()
    buf.write("system\tseg_id\thyp\tref\n")
    for r in rows:
        buf.write(f"{r['system']}\t{r['seg_id']}\t{r['hyp']}\t{r['ref']}\n")
    return buf.getvalue().encode()


def test_seg_da_loads_every_system_on_its_own_ids() -> None:
    data = require_shared(SEG_DA).read_bytes()
    c = load_corpus([("seg_da.tsv", data)])
    counts = {name: len(h) for name, h in c.systems}
    assert len(counts) == 11 and c.n_segments == 1000 and not c.complete
    assert counts["Facebook-AI"] == 900 and counts["AFRL"] == 858 and counts["Online-W"] == 969
    assert sum(counts.values()) == 9832
    assert c.ids[:3] == ("1", "2", "3") and c.ids[-1] == "1000"


def test_shuffled_seg_da_gives_the_jars_score_for_every_id() -> None:
    """AFRL and Online-W rows of seg_da.tsv, shuffled, scored by id: every segment's
    score is the jar's score of that (system, seg_id) row."""
    systems = ("AFRL", "Online-W")
    rows = _da_rows(systems)
    jar: dict[tuple[str, str], float] = {}
    with require_shared(SEG_DA).open(encoding="utf-8", newline="") as fh:
        all_rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    for row, rec in zip(all_rows, read_jsonl_gz(require_shared(JAR_PAPER2005)), strict=True):
        assert rec["hyp"] == row["hyp"]
        jar[(row["system"], row["seg_id"])] = rec["score"]
    shuffled = rows[:]
    random.Random(13).shuffle(shuffled)
    c = load_corpus([("shuffled.tsv", _da_tsv(shuffled))])
    ordered = load_corpus([("ordered.tsv", _da_tsv(rows))])
    # the same segments, hypotheses and references whatever the row order (the systems
    # come in the order they first appear)
    assert (ordered.ids, ordered.refs) == (c.ids, c.refs)
    assert dict(ordered.systems) == dict(c.systems)
    assert all(ordered.ids_of(s) == c.ids_of(s) for s in systems)
    m = Meteor(PRESET)
    for name in systems:
        res = score_corpus(m, c.hyps(name), c.refs_of(name), workers=1)
        assert len(res.segments) == sum(r["system"] == name for r in rows)
        for seg_id, seg in zip(c.ids_of(name), res.segments, strict=True):
            assert seg.score == pytest.approx(jar[(name, seg_id)], abs=1e-9)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_scores_seg_da_systems_on_their_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems = ("AFRL", "Facebook-AI")
    rows = _da_rows(systems)
    ordered = tmp_path / "ordered.tsv"
    ordered.write_bytes(_da_tsv(rows))
    shuffled_rows = []
    for k, system in enumerate(systems):  # rows shuffled within each system's block
        block = [r for r in rows if r["system"] == system]
        random.Random(k).shuffle(block)
        shuffled_rows += block
    assert shuffled_rows != rows
    shuffled = tmp_path / "shuffled.tsv"
    shuffled.write_bytes(_da_tsv(shuffled_rows))
    ids = {s: {r["seg_id"] for r in rows if r["system"] == s} for s in systems}
    common = len(ids["AFRL"] & ids["Facebook-AI"])
    records: list[list[dict[str, Any]]] = []
    outs = []
    for path in (ordered, shuffled):
        jsonl = tmp_path / f"{path.stem}.jsonl"
        code, out, err = _run(
            capsys, "score", "-p", PRESET, "-i", str(path), "-b", "200", "--jsonl", str(jsonl),
            "-j", "1",
        )  # fmt: skip
        assert code == 0, err
        assert "'AFRL' has hypotheses for 858 of the" in err
        assert f"paired on {common:,} common segments (AFRL has 858, Facebook-AI 900" in out
        outs.append(out)
        records.append([json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()])
    assert outs[0] == outs[1]  # every number, the paired test included
    assert records[0] == records[1]
    by_id = {(r["system"], r["seg_id"]): r for r in records[0]}
    assert len(by_id) == 858 + 900
    row = next(r for r in rows if r["system"] == "AFRL" and r["seg_id"] == "17")
    assert by_id[("AFRL", "17")]["hyp"] == row["hyp"]
    assert by_id[("AFRL", "17")]["score"] == Meteor(PRESET).score(row["hyp"], row["ref"]).score
    # CSV rows carry the ids too
    out_csv = tmp_path / "seg.csv"
    code, _, err = _run(capsys, "score", "-p", PRESET, "-i", str(shuffled), "--csv", str(out_csv))
    assert code == 0, err
    with out_csv.open(encoding="utf-8", newline="") as fh:
        csv_rows = list(csv.DictReader(fh))
    assert {(r["system"], r["seg_id"]) for r in csv_rows} == set(by_id)


def test_cli_names_duplicate_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dup.tsv"
    path.write_bytes(_tsv(["seg_id", "hyp", "ref"], [["a", "x", "y"], ["a", "x", "y"]]))
    code, _, err = _run(capsys, "score", "-p", PRESET, "-i", str(path))
    assert code == 2 and "segment id(s) repeated: 'a' on lines 2, 3" in err


def test_jar_file_is_gzip_of_segments() -> None:
    """The oracle above reads one jar record per seg_da row (guards the zip)."""
    with gzip.open(require_shared(JAR_PAPER2005), "rt", encoding="utf-8") as fh:
        n = sum(1 for line in fh if '"type": "segment"' in line)
    assert n == 9832


def test_distinct_ids_are_limited() -> None:
    rows = [["A", "1", "a", "r"], ["B", "2", "b", "r"], ["C", "3", "c", "r"]]
    data = _tsv(["system", "seg_id", "hyp", "ref"], rows)
    assert read_table(data, "ok.tsv", limit=3).ids == ("1", "2", "3")
    with pytest.raises(InputError, match=r"3 distinct segment ids; at most 2"):
        read_table(data, "long.tsv", limit=2)


def test_cli_skips_the_paired_test_without_common_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [["A", "1", "the cat", "the cat sat"], ["B", "2", "a dog", "the dog ran"]]
    path = tmp_path / "disjoint.tsv"
    path.write_bytes(_tsv(["system", "seg_id", "hyp", "ref"], rows))
    code, out, err = _run(capsys, "score", "-p", PRESET, "-i", str(path), "-b", "50")
    assert code == 0, err
    assert "system 'B' has no segment id in common with the baseline 'A'; no paired test" in err
    assert out.count("METEOR corpus score") == 2 and "paired on" not in out
