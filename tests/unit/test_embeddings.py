"""The embedding stage (issue #8): navec news model from the natasha wheel, offline.

Hand-picked pairs: a match above the threshold, none below, out-of-vocabulary words,
words already touched by an earlier stage, function words, the lemma fallback.
Cosines of the news model (``dependencies.md``, "Russian word embeddings and
tokenization"): грустный/унылый 0.39, быстрый/стремительный 0.48; the surface forms
of the seed pair: унылую/грустную 0.44, собачку/собаку 0.45.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from meteor import Meteor, Module
from meteor.languages import ResourceError, navec
from meteor.languages.russian import RUSSIAN, Russian
from meteor.module_registry import MODULE_ORDER
from meteor.stages import embedding as emb

PROJECT_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not emb.navec_available(), reason="navec/natasha not installed")

EX, LE, ST, SY, EM = Module.EXACT, Module.LEMMA, Module.STEM, Module.SYNONYM, Module.EMBEDDING


def scorer(threshold: float = 0.4) -> Meteor:
    """exact → lemma → stem → synonym → embedding, every weight 1."""
    mods = (EX, LE, ST, SY, EM)
    return Meteor(
        "meteor-1.5-ru",
        modules=mods,
        weights={m: 1.0 for m in mods},
        embedding_threshold=threshold,
    )


def emb_matches(hyp: str, ref: str, threshold: float = 0.4) -> list[tuple[str, str, float]]:
    r = scorer(threshold).score(hyp, ref)
    return [
        (m.hyp_words[0], m.ref_words[0], m.similarity or 0.0)
        for m in r.alignment.matches
        if m.module is EM
    ]


def emb_candidates(hyp: str, ref: str, threshold: float) -> list[tuple[str, str]]:
    r = scorer(threshold).score(hyp, ref)
    return [(m.hyp_words[0], m.ref_words[0]) for m in r.candidates if m.module is EM]


# ----------------------------------------------------------------- the model


def test_model_loads_from_installed_package_without_network() -> None:
    """Sockets are disabled; the model comes from natasha/data/emb; natasha is never imported."""
    code = (
        "import socket, sys\n"
        "def no_net(*a, **k):\n"
        "    raise OSError('network disabled in this test')\n"
        "socket.socket = no_net\n"
        "socket.create_connection = no_net\n"
        "from meteor.stages.embedding import NavecEmbeddings, navec_model_path\n"
        "e = NavecEmbeddings()\n"
        "e.load()\n"
        "p = navec_model_path()\n"
        "print(len(e), p.name, p.parent.parent.parent.name, e.source)\n"
        "print(sorted(m for m in ('natasha', 'pymorphy2', 'slovnet', 'yargy') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "250000 navec_news_v1_1B_250K_300d_100q.tar natasha navec news_v1_1B_250K_300d_100q",
        "[]",
    ]


def test_the_stage_is_a_registry_line_and_loads_lazily() -> None:
    """No import side effect registers it: the registry names it without importing its
    module, and neither the registry, the Russian language nor a scorer built with the
    stage imports navec before the stage runs."""
    code = (
        "import sys\n"
        "from meteor.stages.registry import stage_names, get_stage\n"
        "print('embedding' in stage_names(), 'meteor.stages.embedding' in sys.modules)\n"
        "from meteor.languages import get_language\n"
        "get_language('ru')\n"
        "import meteor\n"
        "m = meteor.Meteor('meteor-1.5-ru', modules=('exact', 'embedding'),\n"
        "                  weights={'exact': 1.0, 'embedding': 1.0})\n"
        "print(get_stage('embedding').name, 'navec' in sys.modules)\n"
        "m.score('унылую', 'грустную')\n"
        "print('navec' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True", "False", "embedding", "False", "True"]


def test_russian_offers_the_stage() -> None:
    assert EM in RUSSIAN.modules
    assert Russian.BASE_MODULES | {EM} == RUSSIAN.modules


def test_missing_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="navec model not found"):
        emb.NavecEmbeddings(tmp_path / "none.tar").load()
    monkeypatch.setattr(navec, "navec_model_path", lambda: None)
    with pytest.raises(ResourceError, match="natasha==1.6.0 navec==0.10.0"):
        emb.NavecEmbeddings().path()
    monkeypatch.setattr(navec, "navec_available", lambda: False)
    assert EM not in Russian().modules
    monkeypatch.setattr(RUSSIAN, "modules", Russian.BASE_MODULES)
    with pytest.raises(ResourceError, match="pip install natasha==1.6.0 navec==0.10.0"):
        Meteor("seed-ru-emb")


# ----------------------------------------------------------- vectors, nearest


def test_vector_and_nearest() -> None:
    v = RUSSIAN.vector("собаку")
    assert v is not None and v.shape == (300,) and str(v.dtype) == "float32"
    assert RUSSIAN.vector("лисичка") is None  # out of vocabulary (dependencies.md)
    assert RUSSIAN.vector("скакнула") is None
    ranked = RUSSIAN.nearest("собаку", ["стол", "собачку", "лисичку"])
    assert [w for w, _ in ranked] == ["собачку", "стол"]  # лисичку is OOV
    assert ranked[0][1] == pytest.approx(0.4488, abs=1e-3)
    assert RUSSIAN.nearest("лисичка", ["лиса"]) == []


@pytest.mark.parametrize(
    ("a", "b", "cos"),
    [
        ("грустный", "унылый", 0.39),
        ("быстрый", "стремительный", 0.48),
        ("собака", "собачка", 0.37),
        ("коричневый", "рыжий", 0.25),
        ("собака", "стол", -0.01),
    ],
)
def test_cosines_of_the_reference_note(a: str, b: str, cos: float) -> None:
    assert RUSSIAN.nearest(a, [b])[0][1] == pytest.approx(cos, abs=0.01)


# ------------------------------------------------------------------ the stage


def test_match_above_threshold() -> None:
    r = scorer(0.4).score("унылую", "грустную")
    (m,) = r.alignment.matches
    assert m.module is EM
    assert m.similarity == pytest.approx(0.4396, abs=1e-4)
    assert m.detail == "navec cosine 0.44"
    assert m.to_dict()["similarity"] == m.similarity
    assert r.score > 0


def test_no_match_below_threshold() -> None:
    assert emb_matches("унылую", "грустную", threshold=0.45) == []
    assert emb_candidates("унылую", "грустную", threshold=0.45) == []


def test_threshold_is_inclusive() -> None:
    cos = RUSSIAN.nearest("унылую", ["грустную"])[0][1]
    assert emb_matches("унылую", "грустную", threshold=cos) == [("унылую", "грустную", cos)]


def test_oov_words_never_match() -> None:
    # лисичка and скакнула are not in the news model; even a threshold of -1 adds nothing
    assert emb_candidates("лисичка скакнула", "лиса прыгнула", threshold=-1.0) == []


def test_words_touched_by_earlier_stages_are_left_out() -> None:
    # стремительная~быстрая is a wiki-ru-wordnet synonym candidate: neither word is offered
    cands = emb_candidates("стремительная собачка", "быстрая собака", threshold=-1.0)
    assert cands == [("собачка", "собака")]


def test_function_words_are_left_out() -> None:
    # он/она 0.50, и/а 0.73: their vectors relate words no reader would align
    assert emb_candidates("он и", "она а", threshold=-1.0) == []


def test_lemma_fallback() -> None:
    # "исправляя" is not in the vocabulary; its lemma "исправлять" is
    hit = RUSSIAN.embeddings().lookup("исправляя", RUSSIAN.lemmas)
    assert hit is not None and hit[1:] == ("исправлять", True)
    r = scorer(0.5).score("исправляя", "исправить")
    (m,) = r.alignment.matches
    assert m.module is EM
    assert m.detail == "navec cosine 0.63 (looked up as исправлять / исправить)"


def test_case_and_yo_lookup() -> None:
    e = RUSSIAN.embeddings()
    hit = e.lookup("Пёс")
    assert hit is not None and hit[1] == "пёс"
    assert e.lookup("") is None
    assert e.lookup("<unk>") is None


def test_own_weight() -> None:
    ref, hyp = "грустную собаку", "унылую собачку"
    mods = (EX, LE, ST, SY, EM)
    full = Meteor(
        "meteor-1.5-ru", modules=mods, weights={m: 1.0 for m in mods}, embedding_threshold=0.4
    ).score(hyp, ref)
    half = Meteor(
        "meteor-1.5-ru",
        modules=mods,
        weights={**{m: 1.0 for m in mods}, EM: 0.5},
        embedding_threshold=0.4,
    ).score(hyp, ref)
    k = MODULE_ORDER.index(EM)
    assert full.stats.hyp_content_matches[k] == 2
    assert half.precision == pytest.approx(full.precision / 2)
    assert "emb:0.4" in full.signature


def test_candidates_in_lattice_order() -> None:
    r = scorer(-1.0).score("унылую собачку", "грустную собаку")
    cands = [(m.hyp.start, m.ref.start) for m in r.candidates if m.module is EM]
    assert cands == sorted(cands, key=lambda p: (p[1], p[0]))
    assert len(cands) == 4  # every pair of the two unmatched in-vocabulary words per side
