"""The Corpus page's summary: two score cards per system for a few systems, one table row
per system beyond three (11 systems' 22 cards took about six screens before the tabs)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from meteor import Meteor

PRESET = "meteor-1.5"
REFS = (
    "the cat sat on the mat",
    "a quick brown fox jumps over the lazy dog",
    "we danced with joy under the starry night",
    "the president spoke to the audience",
)
HYPS = {  # five systems, each a little different
    "alpha": ("the cat sat on the mat", "a fast brown fox jumps over a lazy dog",
              "we danced with joy under the night", "the president spoke to audience"),
    "beta": ("a cat sat on a mat", "the quick brown fox jumped over the dog",
             "under the starry night we danced", "the president then spoke"),
    "gamma": ("cat on mat", "brown fox lazy dog", "starry night danced", "president audience"),
    "delta": ("the cat was on the mat", "quick fox over the lazy dog",
              "we danced under the starry night with joy", "the president talked to the crowd"),
    "epsilon": ("mat the on sat cat the", "dog lazy the over jumps fox brown quick a",
                "night starry the under joy with danced we", "audience the to spoke president the"),
}  # fmt: skip


def _upload(systems: list[str]) -> bytes:
    lines = ["system\tseg_id\thyp\tref"]
    for s in systems:
        lines += [
            f"{s}\t{k + 1}\t{h}\t{r}" for k, (h, r) in enumerate(zip(HYPS[s], REFS, strict=True))
        ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _corpus(systems: list[str]) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=240)
    at.query_params["preset"] = PRESET
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("five.tsv", _upload(systems), "text/tab-separated-values")]
    ).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def _cards(at: AppTest) -> list[str]:
    return [m.label for m in at.metric if "corpus METEOR" in m.label or "mean of seg" in m.label]


def test_five_systems_get_one_table_row_each_not_ten_cards() -> None:
    systems = list(HYPS)
    at = _corpus(systems)
    assert _cards(at) == []
    (table,) = [df.value for df in at.dataframe if "score_ci" in df.value.columns]
    assert list(table["system"]) == systems
    m = Meteor(PRESET)
    for system, score, mean in zip(table["system"], table["score"], table["mean"], strict=True):
        res = m.corpus_score(list(HYPS[system]), list(REFS))
        assert score == f"{res.score:.4f}", system
        assert mean == f"{res.mean_segment_score:.4f}", system
    assert all(ci.startswith("[") and ", " in ci for ci in table["score_ci"])
    assert any("One row per system" in c.value for c in at.caption)


def test_three_systems_keep_their_score_cards() -> None:
    at = _corpus(["alpha", "beta", "gamma"])
    assert len(_cards(at)) == 6
    assert not [df for df in at.dataframe if "score_ci" in df.value.columns]
