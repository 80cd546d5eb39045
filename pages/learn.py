"""How METEOR works: the current pair walked through stage by stage."""

from __future__ import annotations

import streamlit as st

from meteor.analysis.explain import parts as explain
from meteor.analysis.explain import walkthrough as walk
from meteor.params import Params
from meteor.presets import DEFAULT_PRESET
from meteor.types import Match
from pages._frame import require_frame
from pages._i18n import Translator, freeze, integer, module_label, num, side_label, ui
from pages._match_details import DETAIL_STRINGS, detail_text
from pages._pair import EXAMPLES, EXAMPLES_RU, load_pair, require_pair
from pages._scoring import analysis_for, stage_steps_for
from pages._settings import current_setting, preset_setting, sync_url
from pages._widgets import md_escape, score_card, show_link_view, table

require_frame()  # before any output: a deep link to a fresh server skips app.py

PAGE_STRINGS = freeze(
    {
        "learn_title": {
            "en": "How METEOR works, on your pair",
            "ru": "Как работает METEOR — на вашей паре",
        },
        "learn_intro": {
            "en": "Step through the computation of the current pair under the current "
            "settings (sidebar). The link view grows with each step.",
            "ru": "Пройдите вычисление для текущей пары при текущих настройках (боковая "
            "панель). С каждым шагом схема связей дополняется.",
        },
        "step": {"en": "Step", "ru": "Шаг"},
        "step_tokens": {"en": "1 · tokens", "ru": "1 · токены"},
        "step_stage": {"en": "{n} · {stage}", "ru": "{n} · {stage}"},
        "step_align": {"en": "{n} · alignment", "ru": "{n} · выравнивание"},
        "step_chunks": {"en": "{n} · chunks", "ru": "{n} · фрагменты"},
        "step_formula": {"en": "{n} · formula", "ru": "{n} · формула"},
        "tokens_text": {
            "en": "The texts are normalised and split into tokens exactly as the settings' "
            "tokenizer does ({how}). These are the units everything below counts. Hollow "
            "marks are function words: with δ = {delta} a content word weighs δ and a "
            "function word 1 − δ.",
            "ru": "Тексты нормализуются и делятся на токены так, как это делает токенизатор "
            "текущих настроек ({how}). Всё дальнейшее считается в этих единицах. Полые "
            "значки — служебные слова: при δ = {delta} значимое слово весит δ, служебное — "
            "1 − δ.",
        },
        # how the settings tokenise (Params.tokenizer, .norm, .no_punct): "{split}, {case}"
        "split_norm": {
            "en": "Meteor's -norm: punctuation split off",
            "ru": "в Meteor -norm: пунктуация отделяется",
        },
        "split_nopunct": {
            "en": "Meteor's -norm -noPunct: punctuation removed",
            "ru": "в Meteor -norm -noPunct: пунктуация удаляется",
        },
        "split_space": {
            "en": "split at spaces: punctuation stays attached to its word",
            "ru": "деление по пробелам: пунктуация остаётся при слове",
        },
        "split_nltk": {
            "en": "nltk.word_tokenize: punctuation split off",
            "ru": "nltk.word_tokenize: пунктуация отделяется",
        },
        "split_razdel": {
            "en": "razdel: punctuation split off",
            "ru": "razdel: пунктуация отделяется",
        },
        "split_other": {"en": "tokenizer {name}", "ru": "токенизатор {name}"},
        "case_lower": {"en": "lowercased", "ru": "регистр понижается"},
        "case_kept": {"en": "case kept", "ru": "регистр сохраняется"},
        "stage_exact": {
            "en": "**Exact**: a hypothesis word and a reference word are the same string.",
            "ru": "**Точное совпадение**: слово гипотезы и слово эталона совпадают.",
        },
        "stage_stem": {
            "en": "**Stem**: different words with the same stem ({stemmer} stemmer). "
            "The shared stem is in the detail column.",
            "ru": "**Основа**: разные слова с одинаковой основой (стеммер {stemmer}). "
            "Общая основа — в столбце «подробности».",
        },
        "stage_synonym": {
            "en": "**Synonym**: different words that share a synonym set (synset) of the "
            "thesaurus. The shared synset is in the detail column.",
            "ru": "**Синоним**: разные слова с общим набором синонимов (синсетом) тезауруса. "
            "Общий синсет — в столбце «подробности».",
        },
        "stage_paraphrase": {
            "en": "**Paraphrase**: phrase pairs from the paraphrase table; a match may join "
            "n hypothesis words to m reference words (drawn as a filled band).",
            "ru": "**Перефразирование**: пары фраз из таблицы перефразирований; совпадение "
            "может связывать n слов гипотезы с m словами эталона (закрашенная полоса).",
        },
        "stage_lemma": {
            "en": "**Lemma**: different word forms with a common normal form (pymorphy3).",
            "ru": "**Лемма**: разные словоформы с общей нормальной формой (pymorphy3).",
        },
        "stage_embedding": {
            "en": "**Embedding**: words whose word vectors (navec) have a cosine similarity of "
            "at least {threshold}. The cosine is in the detail column.",
            "ru": "**Эмбеддинг**: слова, векторы которых (navec) имеют косинусную близость не "
            "меньше {threshold}. Косинус — в столбце «подробности».",
        },
        "stage_generic": {
            "en": "**{stage}**: the candidates this stage proposes.",
            "ru": "**{stage}**: кандидаты, которые предлагает этот этап.",
        },
        # what a stage's candidates compete for, per aligner (Params.aligner)
        "stage_scope_beam": {
            "en": "Like Meteor 1.5, every stage proposes candidates for every word, even "
            "words an earlier stage already matched; the aligner chooses afterwards.",
            "ru": "Как в Meteor 1.5, каждый этап предлагает кандидатов для всех слов, даже "
            "уже сопоставленных раньше; выбирает потом выравниватель.",
        },
        "stage_scope_stagewise": {
            "en": "With the stage-by-stage aligner (2005 paper), this stage only matches words "
            "the earlier stages left unmatched: of the candidates listed (all it finds), "
            "those touching an already matched word are dropped.",
            "ru": "При поэтапном выравнивателе (статья 2005 г.) этап сопоставляет только "
            "слова, оставшиеся без пары после предыдущих этапов: из перечисленных кандидатов "
            "(всех, что он находит) отбрасываются те, что затрагивают уже сопоставленное "
            "слово.",
        },
        "stage_scope_greedy": {
            "en": "With the greedy aligner (NLTK), this stage only matches words the earlier "
            "stages left unmatched, and NLTK runs its own matching; the candidates listed "
            "come from this library's stage.",
            "ru": "При жадном выравнивателе (NLTK) этап сопоставляет только слова, оставшиеся "
            "без пары после предыдущих этапов, и NLTK сопоставляет по-своему; перечисленные "
            "кандидаты — от этапа этой библиотеки.",
        },
        "stage_counts": {
            "en": "{n} candidate(s); {new} hypothesis word(s) get their first candidate here; "
            "{chosen} of this stage's matches end up in the alignment.",
            "ru": "Кандидатов: {n}; слов гипотезы, впервые получивших кандидата: {new}; "
            "совпадений этого этапа в итоговом выравнивании: {chosen}.",
        },
        "no_candidates": {
            "en": "This stage proposes nothing for this pair.",
            "ru": "Для этой пары этап ничего не предлагает.",
        },
        "align_beam": {
            "en": "**Beam aligner (Meteor 1.5).** {n} candidates in all. {d} of them are "
            "*definite* — the only candidate at their reference position, touching words no "
            "other candidate touches — and are fixed first. The rest is a beam search "
            "(width {beam}) over reference positions that prefers more coverage (exact "
            "counts 1, other stages 0.5, truncated to whole numbers as Java does), then "
            "fewer chunks, then a smaller distance between positions.",
            "ru": "**Лучевой выравниватель (Meteor 1.5).** Всего кандидатов: {n}. Из них "
            "*определённых* — {d}: единственный кандидат на своей позиции эталона, чьи слова "
            "не затрагивает никто другой; они фиксируются сразу. Остальное решает лучевой "
            "поиск (ширина {beam}) по позициям эталона: больше покрытие (точное — 1, прочие "
            "этапы — 0,5, с отбрасыванием дробной части, как в Java), затем меньше "
            "фрагментов, затем меньше расстояние между позициями.",
        },
        "align_stagewise": {
            "en": "**Stage-by-stage aligner (2005 paper).** {n} candidates. Each stage only "
            "considers the words earlier stages left unmatched and keeps the largest set of "
            "matches, with the fewest crossings among sets of that size.",
            "ru": "**Поэтапный выравниватель (статья 2005 г.).** Кандидатов: {n}. Каждый этап "
            "рассматривает только слова, оставшиеся без пары после предыдущих, и берёт "
            "наибольшее множество совпадений с наименьшим числом пересечений.",
        },
        "align_greedy": {
            "en": "**Greedy aligner (NLTK).** Stage by stage, hypothesis words are taken right "
            "to left and each takes the rightmost free reference word that matches; nothing "
            "is optimised. (The candidate links below come from this library's stages.)",
            "ru": "**Жадный выравниватель (NLTK).** По этапам слова гипотезы берутся справа "
            "налево, и каждое занимает самое правое свободное подходящее слово эталона; "
            "ничего не оптимизируется. (Кандидаты ниже — от этапов этой библиотеки.)",
        },
        "numbered_from_1": {
            "en": "Words are numbered from 1 on each side, as on every page of the app.",
            "ru": "Слова нумеруются с 1 в каждом тексте, как на всех страницах приложения.",
        },
        "col_chosen": {"en": "chosen", "ru": "выбрано"},
        "col_definite": {"en": "definite", "ru": "определённое"},
        "col_span": {"en": "positions (hyp → ref)", "ru": "позиции (гип. → эт.)"},
        "col_chunk": {"en": "chunk", "ru": "фрагмент"},
        "chunks_text": {
            "en": "A chunk is a maximal run of matches that are adjacent and in the same "
            "order on both sides. This pair has {c} chunk(s) over {m} matched hypothesis "
            "words; the fewer the chunks, the smaller the fragmentation penalty.",
            "ru": "Фрагмент — максимальная цепочка совпадений, идущих подряд и в одном порядке "
            "в обоих текстах. У этой пары фрагментов: {c}, сопоставленных слов гипотезы: {m}; "
            "чем меньше фрагментов, тем меньше штраф.",
        },
        "formula_text": {
            "en": "Each formula first in symbols, then with this pair's numbers (from the "
            "engine's breakdown). α = {a}, β = {b}, γ = {g}, δ = {d}.",
            "ru": "Каждая формула сначала в символах, затем с числами этой пары (из разбора "
            "движка). α = {a}, β = {b}, γ = {g}, δ = {d}. Индексы «гип» и «эт» — гипотеза и "
            "эталон, F_ср — F-мера (взвешенное среднее P и R), фрагм — фрагментация.",
        },
        # the words inside the formulas (meteor.analysis.explain.walkthrough.FORMULA_WORDS)
        "formula_hyp": {"en": "hyp", "ru": "гип"},
        "formula_ref": {"en": "ref", "ru": "эт"},
        "formula_mean": {"en": "mean", "ru": "ср"},
        "formula_frag": {"en": "frag", "ru": "фрагм"},
        "formula_pen": {"en": "Pen", "ru": "Штраф"},
        "formula_stage": {"en": "stage", "ru": "этап"},
        "formula_content": {"en": "content", "ru": "значимые"},
        "formula_function": {"en": "function", "ru": "служебные"},
        "formula_chunks": {"en": "chunks", "ru": "фрагменты"},
        "formula_single_chunk": {"en": "single-chunk rule", "ru": "правило одного фрагмента"},
        "formula_single_chunk_off": {
            "en": "no single-chunk rule here",
            "ru": "правила одного фрагмента здесь нет",
        },
        "frag_single_chunk": {
            "en": "frag = 0 by Meteor 1.5's **single-chunk rule** (its “perfect segment”): every "
            "word of both texts is matched, by any stage, and the matches form one chunk, so "
            "there is nothing to penalise; without the rule frag would be {c}/(({h} + {r})/2). "
            "The words need not be identical: this is not a perfect match unless every match "
            "is exact (stage weights below 1 still lower P and R).",
            "ru": "фрагм = 0 по **правилу одного фрагмента** Meteor 1.5 (его «идеальный "
            "сегмент»): все слова обоих текстов сопоставлены (любым этапом) и совпадения "
            "образуют один фрагмент, так что штрафовать не за что; без этого правила фрагм была бы "
            "{c}/(({h} + {r})/2). Слова не обязаны совпадать буквально: это не полное "
            "совпадение, если не все совпадения точные (веса этапов меньше 1 всё равно "
            "снижают P и R).",
        },
        "frag_single_chunk_off": {
            "en": "Every word of both texts is matched, in one chunk, but this setting has no "
            "single-chunk rule (Meteor 1.5 has one; NLTK and the 2005 paper do not): frag stays "
            "chunks / mean matches, so even identical texts lose a little to the penalty.",
            "ru": "Все слова обоих текстов сопоставлены и образуют один фрагмент, но в этих "
            "настройках нет правила одного фрагмента (оно есть в Meteor 1.5, но не в NLTK и не "
            "в статье 2005 г.): фрагм остаётся равной числу фрагментов, делённому на среднее "
            "число совпадений, так что штраф немного снижает оценку даже у одинаковых текстов.",
        },
        "doc_title": {
            "en": "The documentation's two examples",
            "ru": "Два примера на русском",
        },
        "doc_text": {
            "en": "The METEOR doc page computes two examples by hand with Fmean = 10PR/(R+9P) "
            "and a linear penalty 0.5·chunks/matches. The `seed-doc` preset reproduces them:",
            "ru": "Те же два случая, что разобраны вручную в документации METEOR, на русских "
            "предложениях: две группы слов поменялись местами, и каждое слово стоит отдельно. "
            "Оценки считает движок с русским пресетом:",
        },
        "ru_example_chunks": {"en": "{c} chunk(s)", "ru": "фрагментов: {c}"},
        "doc_states": {"en": "the doc page states {v}", "ru": "в документации: {v}"},
        "doc_load": {"en": "Walk through", "ru": "Разобрать"},
        "doc_example": {"en": "{name}", "ru": "пример {k}"},
    }
)
t = Translator(PAGE_STRINGS, DETAIL_STRINGS)

st.title(t("learn_title"))
st.caption(t("learn_intro"))

hyp, refs = require_pair(examples=False)
setting = current_setting()
a = analysis_for(hyp, refs, setting)
r = a.result
p = a.params
steps = stage_steps_for(hyp, refs, setting)
weights = dict(p.weights)

options = ["tokens"] + [f"stage:{s.module.value}" for s in steps] + ["align", "chunks", "formula"]


def step_label(n: int, opt: str) -> str:
    if opt == "tokens":
        return t("step_tokens")
    if opt.startswith("stage:"):
        return t("step_stage", n=n, stage=module_label(opt.split(":", 1)[1]))
    return t(f"step_{opt}", n=n)


def positions(m: Match) -> str:
    """A match's word positions, hypothesis → reference."""
    return f"{explain.span_label(m.hyp)} → {explain.span_label(m.ref)}"


def tokenisation(params: Params) -> str:
    """How ``params`` split and normalise the texts, in the UI language (never a claim the
    settings do not make: ``-noPunct`` drops punctuation, ``norm="none"`` keeps the case)."""
    tok = params.tokenizer
    if tok == "meteor" and params.norm == "meteor":
        split = t("split_nopunct" if params.no_punct else "split_norm")
    elif tok in ("meteor", "whitespace"):
        split = t("split_space")
    elif tok in ("nltk", "razdel"):
        split = t(f"split_{tok}")
    else:
        split = t("split_other", name=md_escape(tok))
    return f"{split}, {t('case_kept' if params.norm == 'none' else 'case_lower')}"


def roomy(tex: str) -> str:
    """``tex`` between two invisible struts (2 em up, 1.4 em down): st.latex's box, sized to
    the formula's first line, hides what overflows it (a numerator, a subscript)."""
    return f"\\;\\rule{{0pt}}{{2em}}{tex}\\rule[-1.4em]{{0pt}}{{0pt}}\\;"


# labels fixed now (AppTest calls format_func outside the run)
step_labels = {opt: step_label(n, opt) for n, opt in enumerate(options, start=1)}


# The step lives in the URL as its raw id (?step=align); a bound select_slider
# would store the translated label instead.
if st.session_state.get("learn_step") not in options:
    wanted = st.query_params.get("step")
    st.session_state["learn_step"] = wanted if wanted in options else "tokens"
    if wanted is not None and wanted not in options:  # a link's step this setting lacks
        st.warning(t("url_ignored", params=f"step={md_escape(wanted)}"), icon="⚠️")
step = st.select_slider(t("step"), options, format_func=step_labels.__getitem__, key="learn_step")
sync_url("step", step, "tokens")

if step == "tokens":
    st.markdown(t("tokens_text", how=tokenisation(p), delta=num(p.delta, 2)))
    show_link_view(r.alignment, "learn_fig", matches=(), mark_unmatched=False)
    table(
        [
            {
                t("col_side"): side_label(row.side),
                t("col_index"): row.index + 1,  # numbered from 1, as on every page
                t("col_token"): row.text,
                t("function_word"): t("yes") if row.function_word else "",
            }
            for row in explain.token_table(r)
        ],
        "learn_tokens",
    )
    st.caption(t("numbered_from_1"))
elif step.startswith("stage:"):
    k = options.index(step) - 1
    s = steps[k]
    so_far = [m for st_ in steps[: k + 1] for m in st_.candidates]
    key = f"stage_{s.module.value}"
    if key in t:
        st.markdown(t(key, stemmer=p.stemmer, threshold=num(p.embedding_threshold, 2)))
    else:  # a stage the library added later: its name, never a raw key
        st.markdown(t("stage_generic", stage=module_label(s.module).capitalize()))
    if f"stage_scope_{p.aligner}" in t:  # an aligner registered later: no claim made
        st.caption(t(f"stage_scope_{p.aligner}"))
    st.markdown(
        t(
            "stage_counts",
            n=integer(len(s.candidates)),
            new=integer(s.new_words),
            chosen=integer(len(s.chosen)),
        )
    )
    show_link_view(r.alignment, "learn_fig", matches=(), candidates=so_far)
    if s.candidates:
        table(
            [
                {
                    t("hypothesis"): " ".join(m.hyp_words),
                    t("reference"): " ".join(m.ref_words),
                    t("col_span"): positions(m),
                    t("col_detail"): detail_text(m),
                }
                for m in s.candidates
            ],
            "learn_cands",
        )
        st.caption(t("numbered_from_1"))
    else:
        st.caption(t("no_candidates"))
elif step == "align":
    cands = r.candidates
    definite = set(walk.definite_candidates(cands, len(r.alignment.hyp), len(r.alignment.ref)))
    chosen_keys = {(m.module, m.hyp, m.ref) for m in r.matches}
    if p.aligner == "beam":
        st.markdown(
            t("align_beam", n=integer(len(cands)), d=integer(len(definite)), beam=p.beam_size)
        )
    else:
        st.markdown(t(f"align_{p.aligner}", n=integer(len(cands))))
    all_cands = [m for s in steps for m in s.candidates]
    show_link_view(
        r.alignment, "learn_fig", matches=r.matches, candidates=all_cands, weights=weights
    )
    table(
        [
            {
                t("col_stage"): module_label(m.module),
                t("hypothesis"): " ".join(m.hyp_words),
                t("reference"): " ".join(m.ref_words),
                t("col_span"): positions(m),
                t("col_definite"): t("yes") if i in definite and p.aligner == "beam" else "",
                t("col_chosen"): "✓" if (m.module, m.hyp, m.ref) in chosen_keys else "",
            }
            for i, m in enumerate(cands)
        ],
        "learn_align",
    )
    st.caption(t("numbered_from_1"))
elif step == "chunks":
    st.markdown(t("chunks_text", c=integer(r.stats.chunks), m=integer(r.stats.hyp_word_matches)))
    show_link_view(r.alignment, "learn_fig", weights=weights)
    words_h, words_r = r.alignment.hyp_words, r.alignment.ref_words
    table(
        [
            {
                t("col_chunk"): ch.index + 1,
                t("hypothesis"): " ".join(words_h[ch.hyp.start : ch.hyp.end]),
                t("reference"): " ".join(words_r[ch.ref.start : ch.ref.end]),
            }
            for ch in r.alignment.chunks
        ],
        "learn_chunks",
    )
else:
    st.markdown(
        t("formula_text", a=num(p.alpha, 2), b=num(p.beta, 2), g=num(p.gamma, 2),
          d=num(p.delta, 2))
    )  # fmt: skip
    words = {k: t(f"formula_{k}") for k in walk.FORMULA_WORDS}
    for line in walk.formula_lines(
        r.stats, a.breakdown, p, fmt=num, words=words, stage_name=module_label
    ):
        st.latex(roomy(line.symbolic))
        st.latex(roomy(line.numeric))
        rule = walk.frag_rule(r.stats, p)
        if line.key == "frag" and rule != "ratio":  # which rule gives frag, in words
            st.caption(
                t(
                    f"frag_{rule}",
                    c=integer(r.stats.chunks),
                    h=integer(r.stats.hyp_word_matches),
                    r=integer(r.stats.ref_word_matches),
                )
            )
    score_card(r, compact=True)

# -- two worked examples, scored live ---------------------------------------------
st.divider()
st.subheader(t("doc_title"))
st.markdown(t("doc_text"))
if ui() == "ru":  # the same two cases on Russian sentences, under the Russian preset
    lang, preset = "ru", DEFAULT_PRESET["ru"]
    examples = [(f"ru_{k}", "", h, r, None) for k, (h, r) in enumerate(EXAMPLES_RU, start=1)]
else:  # the doc page's two examples and the scores it states
    lang, preset = "en", "seed-doc"
    examples = [
        (x.key, x.key, x.hyp, x.ref, v) for x, v in zip(EXAMPLES[:2], ("0.750", "0.5"), strict=True)
    ]
doc = preset_setting(preset)
for k, (key, name, hyp_x, ref_x, stated) in enumerate(examples, start=1):
    d = analysis_for(hyp_x, (ref_x,), doc)
    c1, c2, c3 = st.columns([3, 1, 1])
    c1.text(f"{hyp_x}\n{ref_x}")
    note = (
        t("doc_states", v=stated)
        if stated
        else t("ru_example_chunks", c=integer(d.result.stats.chunks))
    )
    c2.metric(f"{preset} · {t('doc_example', name=name, k=k)}", num(d.result.score, 3), help=note)
    c3.button(
        t("doc_load"), key=f"doc_{key}", on_click=load_pair, args=(hyp_x, ref_x, lang, preset)
    )
