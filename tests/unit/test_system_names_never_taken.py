"""Systems of several inputs with the same name are renamed, never to a name an input
gives, and each renaming is said.

Before: ``--hyp fa.tsv --hyp fb.tsv`` (fa: system ``A``; fb: ``A`` and ``A-2``) showed
fb's ``A`` under the name ``A-2`` and the real ``A-2`` as ``A-2-2``, without a word.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.io.read import InputWarning, load_corpus

FA = b"system\thyp\tref\nA\tthe cat sat\tthe cat sat\n"
FB = b"system\thyp\tref\nA\ta dog ran\tthe cat sat\nA-2\tthe cat sat on\tthe cat sat\n"


def test_a_renamed_system_never_takes_another_systems_name() -> None:
    with pytest.warns(InputWarning) as caught:
        corpus = load_corpus([("fa.tsv", FA), ("fb.tsv", FB)])
    assert corpus.system_names == ("A", "A-3", "A-2")
    assert corpus.hyps("A-2") == ("the cat sat on",)  # fb's A-2, under its own name
    assert corpus.hyps("A-3") == ("a dog ran",)  # fb's A, renamed
    assert [str(w.message) for w in caught] == [
        "fb.tsv: system 'A' is shown as 'A-3' (fa.tsv has a system 'A' too)"
    ]


def test_files_of_the_same_name_say_their_systems_are_renamed() -> None:
    with pytest.warns(InputWarning, match=r"hyp\.txt: system 'hyp' is shown as 'hyp-2'"):
        corpus = load_corpus([("hyp.txt", b"a\n"), ("hyp.txt", b"b\n")], [("ref.txt", b"r\n")])
    assert corpus.system_names == ("hyp", "hyp-2")


def test_score_shows_each_systems_own_numbers_and_says_the_renaming(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "fa.tsv").write_bytes(FA)
    (tmp_path / "fb.tsv").write_bytes(FB)
    (tmp_path / "b.tsv").write_bytes(FB.replace(b"A\ta dog ran\tthe cat sat\n", b""))
    argv = ["score", "--hyp", str(tmp_path / "fa.tsv"), "--hyp", str(tmp_path / "fb.tsv")]
    assert main([*argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    scores = {s["name"]: s["score"] for s in json.loads(out)["systems"]}
    assert main(["score", "--hyp", str(tmp_path / "b.tsv"), "--format", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)["systems"][0]
    assert alone["name"] == "A-2" and scores["A-2"] == alone["score"]
    assert set(scores) == {"A", "A-2", "A-3"}
    assert "meteor: warning: fb.tsv: system 'A' is shown as 'A-3'" in err
