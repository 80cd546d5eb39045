"""Issue 31 (jar parity on bytes): control characters, a byte-order mark, empty sides, scripts.

The expected scores are the Meteor 1.5 jar's own, run on files as users run it
(``java -jar meteor-1.5.jar hyp.txt ref.txt -l en -norm``; the jar of ``pycocoevalcap==1.2``,
Java 17), one case per line of the two files -- not through the reference harness, which
replaces C0 controls by spaces only to keep the jar's alignment file parseable
(``shared/tools/meteor15/README.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.text import normalize, records

#: (hypothesis, reference, the jar's segment score with ``-l en -norm``)
JAR_CONTROLS: list[tuple[str, str, float]] = [
    ("a\x0bb c", "a b c", 0.17518248175182483),  # U+000B: regex \s, not a token delimiter
    ("a\x1fb c", "a b c", 0.4197512445337911),
    ("a\x01b c", "a b c", 0.4197512445337911),
    ("a\x7fb c", "a b c", 0.4197512445337911),
    ("a\x85b c", "a b c", 0.4197512445337911),
    ("a\x9fb c", "a b c", 0.4197512445337911),
    ("a\x00b c", "a b c", 0.4197512445337911),
    ("a\x08b c", "a b c", 0.4197512445337911),
    ("a\x1cb c", "a b c", 0.4197512445337911),
    ("a\x1d\x1eb c", "a b c", 0.39584136351604354),
    ("the cat\x1b sat", "the cat sat", 0.4197512445337911),
    ("a\u2028b c", "a b c", 0.4197512445337911),
    ("\x01a b c", "a b c", 1.0),  # String.trim drops controls at either end
    ("a b c\x01", "a b c", 1.0),
    ("\x0ba b c", "a b c", 1.0),
    ("a b c\x0b", "a b c", 1.0),
    ("a \x01 b c", "a b c", 0.4197512445337911),  # alone between spaces: a token
    ("a \x0b b c", "a b c", 0.4197512445337911),
    ("\x01", "a b c", 0.0),  # alone on its line: no token at all
    ("\x0b", "a b c", 0.0),
    ("a\x0cb c", "a b c", 1.0),  # form feed and tab are token delimiters
    ("a\tb c", "a b c", 1.0),
    ("a\x1fb c", "a\x1fb c", 1.0),
    ("a\x0bb c", "a\x0bb c", 1.0),
]


@pytest.fixture(scope="module")
def meteor15() -> Meteor:
    return Meteor("meteor-1.5")


@pytest.mark.parametrize(("hyp", "ref", "jar"), JAR_CONTROLS, ids=lambda v: ascii(v)[:20])
def test_control_characters_score_as_the_jar_on_files(
    meteor15: Meteor, hyp: str, ref: str, jar: float
) -> None:
    assert meteor15.score(hyp, ref).score == jar


@pytest.mark.parametrize("preset", ["meteor-1.5-hter", "meteor-1.5-paper2005", "meteor-1.5-ru"])
def test_every_meteor15_preset_keeps_controls_in_tokens(preset: str) -> None:
    toks = Meteor(preset).tokenize("a\x0bb c\x01d")
    assert [t.text for t in toks] == ["a\x0bb", "c", "\x01", "d"]


def test_tokens_with_controls_are_the_same_in_c_and_python(
    meteor15: Meteor, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [h for h, _, _ in JAR_CONTROLS] + ["U.S.\x01 don't\x0b--x", "\x1f\x0b\x1f", "x\x7f."]
    native = [meteor15.tokenize(t) for t in texts]
    meteor15.clear_memos()
    monkeypatch.setattr(normalize, "NATIVE_NORMALIZE", None)
    monkeypatch.setattr(records, "NATIVE_TOKENS", None)
    try:
        python = [meteor15.tokenize(t) for t in texts]
    finally:
        meteor15.clear_memos()
    assert python == native
    for text, toks in zip(texts, python, strict=True):
        assert all(0 <= t.start < t.end <= len(text) for t in toks)


def test_a_line_break_inside_a_segment_is_a_space_for_the_jar_presets(meteor15: Meteor) -> None:
    # a file line cannot hold one (readLine ends the line there); a str given to the API can
    assert [t.text for t in meteor15.tokenize("a\nb\r\nc\rd")] == ["a", "b", "c", "d"]


@pytest.mark.parametrize("preset", ["paper-2005", "seed-doc"])
def test_other_presets_still_make_c0_controls_spaces(preset: str) -> None:
    assert [t.text for t in Meteor(preset).tokenize("a\x0bb c\x01d")] == ["a", "b", "c", "d"]


# -- issue 31 item 16: an empty side is charged nothing ---------------------------------


def _waterfall(hyp: str, ref: str) -> dict[str, float]:
    from meteor.analysis.explain.parts import waterfall

    m = Meteor("meteor-1.5-paper2005")
    return {s.key: s.value for s in waterfall(m.score(hyp, ref).stats, m.params)}


def test_an_empty_hypothesis_is_charged_nothing() -> None:
    wf = _waterfall("", "x")
    assert wf["unmatched_hyp"] == 0.0
    assert wf["unmatched_ref"] == -1.0
    assert wf["ideal"] + sum(v for k, v in wf.items() if k not in ("ideal", "score")) == 0.0


def test_an_empty_reference_is_charged_nothing() -> None:
    wf = _waterfall("a b", "")
    assert (wf["unmatched_hyp"], wf["unmatched_ref"]) == (-1.0, 0.0)


def test_two_empty_sides_charge_no_word() -> None:
    wf = _waterfall("", "")
    assert wf["unmatched_hyp"] == wf["unmatched_ref"] == 0.0
    assert wf["ideal"] == wf["score"] == 0.0


def test_explain_cli_charges_an_empty_hypothesis_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from meteor.cli.command_line import main

    assert main(["explain", "--hyp", "", "--ref", "x", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    steps = {s["key"]: s["value"] for s in out["waterfall"]}
    assert steps["unmatched_hyp"] == 0.0 and steps["unmatched_ref"] == -1.0


# -- issue 31 item 6: a UTF-8 byte-order mark -------------------------------------------

BOM = b"\xef\xbb\xbf"
LINES = b"the cat sat on the mat\nthe dog barked\n"
#: the jar (-l en -norm) on two-line files, one of them (or both) starting with a BOM
JAR_BOM = [(BOM + LINES, LINES, 0.559714437336918), (LINES, BOM + LINES, 0.4789309102986),
           (BOM + LINES, BOM + LINES, 1.0)]  # fmt: skip


def _segments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, hyp: bytes, ref: bytes, *opts: str
) -> tuple[list[float], str]:
    from meteor.cli.command_line import main

    (tmp_path / "h.txt").write_bytes(hyp)
    (tmp_path / "r.txt").write_bytes(ref)
    argv = ["score", "-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt")]
    code = main([*argv, "--format", "jsonl", *opts])
    out, err = capsys.readouterr()
    assert code == 0, err
    return [json.loads(x)["score"] for x in out.splitlines() if x.startswith('{"segment"')], err


@pytest.mark.parametrize(("hyp", "ref", "jar"), JAR_BOM)
def test_cli_keeps_a_bom_in_segment_1_as_the_jar(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, hyp: bytes, ref: bytes, jar: float
) -> None:
    scores, err = _segments(capsys, tmp_path, hyp, ref)
    assert scores == [jar, 1.0]
    notes = [x for x in err.splitlines() if "byte-order mark" in x]
    assert len(notes) == hyp.startswith(BOM) + ref.startswith(BOM)
    assert all(x.startswith("meteor: note: ") and "--strip-bom" in x for x in notes)


def test_strip_bom_drops_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scores, err = _segments(capsys, tmp_path, BOM + LINES, LINES, "--strip-bom")
    assert scores == [1.0, 1.0] and "byte-order mark" not in err


def test_other_presets_drop_a_bom_as_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain, _ = _segments(capsys, tmp_path, LINES, LINES, "-p", "paper-2005")
    scores, err = _segments(capsys, tmp_path, BOM + LINES, LINES, "-p", "paper-2005")
    assert scores == plain and "byte-order mark" not in err


def test_a_table_header_never_keeps_a_bom() -> None:
    from meteor.io.read import load_corpus

    c = load_corpus([("t.tsv", BOM + b"hyp\tref\na b\ta b\n")], keep_bom=True)
    assert c.hyps() == ("a b",)
    text = load_corpus([("h.txt", BOM + b"a\n")], [("r.txt", b"a\n")], keep_bom=True)
    assert text.hyps() == ("\ufeffa",)
    assert load_corpus([("h.txt", BOM + b"a\n")], [("r.txt", b"a\n")]).hyps() == ("a",)


class _Upload:
    def __init__(self, name: str, data: bytes) -> None:
        self.name, self._data = name, data

    def getvalue(self) -> bytes:
        return self._data


def test_the_app_drops_a_bom_under_other_presets_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pages._corpus_common as common

    shown: list[str] = []
    monkeypatch.setattr(common.st, "warning", lambda msg, **_: shown.append(msg))
    corpus = common.load_uploads([_Upload("h.txt", BOM + LINES)], [_Upload("r.txt", LINES)])
    assert corpus is not None and corpus.hyps()[0] == "the cat sat on the mat"
    assert len(shown) == 1 and "byte-order mark" in shown[0] and "dropped" in shown[0]


@pytest.mark.parametrize("ticked", [False, True])
def test_the_app_keeps_a_bom_under_meteor15_unless_asked(
    monkeypatch: pytest.MonkeyPatch, ticked: bool
) -> None:
    """Issue 31 item 6: the app follows the jar under the Meteor 1.5 presets (segment 1
    keeps the mark in its first word), says so, and a checkbox drops it."""
    import pages._corpus_common as common

    shown: list[str] = []
    boxes: list[str] = []
    monkeypatch.setattr(common.st, "warning", lambda msg, **_: shown.append(msg))
    monkeypatch.setattr(common.st, "checkbox", lambda label, **_: boxes.append(label) or ticked)
    corpus = common.load_uploads(
        [_Upload("h.txt", BOM + LINES)], [_Upload("r.txt", LINES)], jar_bytes=True
    )
    assert corpus is not None and len(boxes) == 1 and len(shown) == 1
    first = corpus.hyps()[0]
    if ticked:
        assert first == "the cat sat on the mat" and "dropped" in shown[0]
    else:
        assert first == "\ufeffthe cat sat on the mat" and "stays in the first word" in shown[0]
        assert common.safe_name(boxes[0]) in shown[0]  # names the checkbox that drops it
        assert Meteor("meteor-1.5").score(first, ["the cat sat on the mat"]).score < 1.0


def test_the_app_asks_nothing_without_a_bom(monkeypatch: pytest.MonkeyPatch) -> None:
    import pages._corpus_common as common

    boxes: list[str] = []
    monkeypatch.setattr(common.st, "checkbox", lambda label, **_: boxes.append(label) or False)
    corpus = common.load_uploads(
        [_Upload("h.txt", LINES)], [_Upload("r.txt", LINES)], jar_bytes=True
    )
    assert corpus is not None and boxes == []


# -- issue 31 item 17: why blank tokens and letters one per token -------------------------


def _notices(preset: str, text: str) -> tuple[str, ...]:
    from meteor.text.notices import token_notices

    m = Meteor(preset)
    norm = m.params.tokenizer == "meteor" and m.params.norm == "meteor"
    return tuple(map(str, token_notices([t.text for t in m.tokenize(text)], meteor_norm=norm)))


def test_a_zwj_token_gets_a_notice(meteor15: Meteor) -> None:
    assert [t.text for t in meteor15.tokenize("a\u200db c")] == ["a", "\u200d", "b", "c"]
    (note,) = _notices("meteor-1.5", "a\u200db c")
    assert "U+200D ZERO WIDTH JOINER" in note and "blank" in note


@pytest.mark.parametrize(
    ("text", "script"), [("καλημέρα", "Greek"), ("مرحبا", "Arabic"), ("שלום", "Hebrew")]
)
def test_letters_split_one_per_token_get_a_notice(text: str, script: str) -> None:
    (note,) = _notices("meteor-1.5", text)
    assert note.startswith(f"{script} letters are one token each ({len(text)} token(s))")


def test_no_notice_for_ordinary_text_or_other_tokenisers() -> None:
    assert _notices("meteor-1.5", "Привет, café 1,000 U.S.") == ()
    assert _notices("nltk", "καλημέρα κόσμε") == ()  # whole words there
