"""UI strings in English and Russian, and numbers written the UI language's way.

* :data:`STRINGS`: the strings every page shares, a read-only table
  (``types.MappingProxyType`` of read-only mappings) built once at import;
* :class:`Translator`: a page's own ``t``, reading the page's table, then :data:`STRINGS`
  (a page never writes into a shared table, so a key cannot change meaning with the
  page that ran last);
* :func:`t`, :func:`num`, :func:`integer`, :func:`signed` and the labels of stages,
  sides and figures, in the interface language chosen in the sidebar (:func:`ui`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import streamlit as st

from meteor.module_registry import Module
from meteor.viz import figures

#: The interface languages, in the order of the sidebar's switch.
UI_LANGS = ("en", "ru")

#: A table of UI strings: key → {"en": ..., "ru": ...} (read-only once frozen).
Table = Mapping[str, Mapping[str, str]]


def freeze(table: Mapping[str, Mapping[str, str]]) -> Table:
    """A read-only copy of ``table`` (each entry must have its English text)."""
    for key, entry in table.items():
        if "en" not in entry:
            raise ValueError(f"UI string {key!r} has no English text")
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in table.items()})


def merged(*tables: Table) -> Table:
    """One read-only table of ``tables``; a key two tables define differently is an error."""
    out: dict[str, Mapping[str, str]] = {}
    for table in tables:
        for key, entry in table.items():
            if key in out and dict(out[key]) != dict(entry):
                raise ValueError(f"UI string {key!r} is defined twice, differently")
            out[key] = entry
    return freeze(out)


STRINGS: Table = freeze(
    {
        # frame
        "app_title": {"en": "METEOR explorer", "ru": "METEOR: разбор оценки"},
        "nav_analyse": {"en": "Analyse", "ru": "Анализ"},
        "nav_learn": {"en": "Learn", "ru": "Обучение"},
        "page_inspect": {"en": "Inspect a pair", "ru": "Разбор пары"},
        "page_corpus": {"en": "Corpus", "ru": "Корпус"},
        "page_compare": {"en": "Compare settings", "ru": "Сравнение настроек"},
        "page_learn": {"en": "How METEOR works", "ru": "Как устроен METEOR"},
        "ui_lang": {"en": "Interface language", "ru": "Язык интерфейса"},
        "engine_lang": {"en": "Language of the texts", "ru": "Язык текстов"},
        "preset": {"en": "Preset", "ru": "Пресет"},
        "preset_file": {"en": "Preset file", "ru": "Файл пресета"},
        "preset_file_help": {
            "en": "A preset file written by `meteor tune --out` (JSON): its settings fill the "
            "parameters below and the signature names it.",
            "ru": "Файл пресета от `meteor tune --out` (JSON): его настройки заполняют параметры "
            "ниже, а подпись называет его.",
        },
        "preset_file_bad": {
            "en": "Cannot use the preset file: {msg}",
            "ru": "Не удалось прочитать файл пресета: {msg}",
        },  # fmt: skip
        "preset_file_on": {
            "en": "Preset file in use: {name}",
            "ru": "Используется файл пресета: {name}",
        },  # fmt: skip
        "reproduces": {"en": "Reproduces", "ru": "Воспроизводит"},
        "params": {
            "en": "Parameters: α β γ δ, stages, weights, aligner",
            "ru": "Параметры: α β γ δ, этапы, веса, выравниватель",
        },
        "alpha_help": {
            "en": "α: weight of recall against precision, Fmean = PR / (αP + (1−α)R)",
            "ru": "α: вес полноты относительно точности, Fmean = PR / (αP + (1−α)R)",
        },
        "beta_help": {
            "en": "β: exponent of the fragmentation penalty γ·frag^β",
            "ru": "β: показатель степени штрафа γ·frag^β",
        },
        "gamma_help": {
            "en": "γ: largest possible fragmentation penalty",
            "ru": "γ: наибольший возможный штраф за фрагментацию",
        },
        "delta_help": {
            "en": "δ: weight of content words against function words (0.5: all words equal)",
            "ru": "δ: вес значимых слов относительно служебных (0,5 — все слова равны)",
        },
        "stages": {"en": "Stages (in order)", "ru": "Этапы (по порядку)"},
        "stages_help": {
            "en": "The stages run in the order chosen here, and the order can change the "
            "alignment and the score. To move a stage to the end, remove it and add it again.",
            "ru": "Этапы выполняются в выбранном здесь порядке, и порядок может изменить "
            "выравнивание и оценку. Чтобы перенести этап в конец, уберите его и добавьте снова.",
        },
        "stage_order": {"en": "Order: {order}", "ru": "Порядок: {order}"},
        "no_stages": {"en": "No stage chosen.", "ru": "Ни один этап не выбран."},
        "preset_stages": {"en": "Stages", "ru": "Этапы"},
        "preset_generic": {
            "en": "Preset {name} ({lang}): {stages}; α {a}, β {b}, γ {g}, δ {d}; {aligner}.",
            "ru": "Пресет {name} (язык: {lang}): {stages}; α {a}, β {b}, γ {g}, δ {d}; "
            "выравниватель: {aligner}.",
        },
        "url_ignored": {
            "en": "The link's parameter(s) {params} cannot be used and were ignored: the "
            "default is used instead. The URL parameters are listed in the README.",
            "ru": "Параметры ссылки {params} недопустимы и пропущены: вместо них взяты значения "
            "по умолчанию. Параметры адреса перечислены в README.",
        },
        "lang_hint": {
            "en": "The texts are scored as {lang}: the interface language does not change it. "
            "Choose the language of the texts below.",
            "ru": "Тексты оцениваются как {lang}: язык интерфейса на это не влияет. Язык "
            "текстов выбирается ниже.",
        },
        "weights": {"en": "Stage weights", "ru": "Веса этапов"},
        "aligner": {"en": "Aligner", "ru": "Выравниватель"},
        "aligner_beam": {"en": "beam (Meteor 1.5)", "ru": "лучевой (Meteor 1.5)"},
        "aligner_greedy": {"en": "greedy (NLTK)", "ru": "жадный (NLTK)"},
        "aligner_stagewise": {"en": "stage by stage (2005 paper)", "ru": "поэтапный (статья 2005)"},
        "beam_size": {"en": "Beam width", "ru": "Ширина луча"},
        "stemmer": {"en": "Stemmer", "ru": "Стеммер"},
        "reset": {"en": "Reset to preset", "ru": "Сбросить к пресету"},
        "custom_note": {
            "en": "Parameters differ from the preset: the signature says “+custom”.",
            "ru": "Параметры отличаются от пресета: в подписи стоит «+custom».",
        },
        # modules
        "exact": {"en": "exact", "ru": "точное"},
        "stem": {"en": "stem", "ru": "основа"},
        "synonym": {"en": "synonym", "ru": "синоним"},
        "paraphrase": {"en": "paraphrase", "ru": "перефразирование"},
        "lemma": {"en": "lemma", "ru": "лемма"},
        "embedding": {"en": "embedding", "ru": "эмбеддинг"},
        # pair
        "examples": {"en": "Load an example", "ru": "Загрузить пример"},
        "examples_ph": {"en": "Choose an example…", "ru": "Выберите пример…"},
        "hyp": {"en": "Hypothesis", "ru": "Гипотеза"},
        "ref": {"en": "Reference(s), one per line", "ru": "Эталон(ы), по одному в строке"},
        "hyp_help": {
            "en": "The system output to score (one segment).",
            "ru": "Перевод, который оценивается (один сегмент).",
        },
        "ref_help": {
            "en": "Several lines = several references: the best one wins (first on ties).",
            "ru": "Несколько строк — несколько эталонов: побеждает лучший (при равенстве — первый).",
        },
        "need_hyp": {
            "en": "Enter a hypothesis to score (it is empty or only spaces).",
            "ru": "Введите гипотезу (поле пустое или содержит только пробелы).",
        },
        "need_ref": {
            "en": "Enter at least one reference (the field is empty or only spaces).",
            "ru": "Введите хотя бы один эталон (поле пустое или содержит только пробелы).",
        },
        "too_long": {
            "en": "The {what} has {n} characters; this page takes at most {limit} per text. "
            "Score long texts with the Corpus page or the command line (python -m meteor).",
            "ru": "{what}: {n} символов; на этой странице не более {limit} на текст. "
            "Длинные тексты оцениваются на странице «Корпус» или из командной строки "
            "(python -m meteor).",
        },
        "too_many_refs": {
            "en": "{n} references given; this page takes at most {limit}.",
            "ru": "Задано эталонов: {n}; на этой странице не более {limit}.",
        },
        "what_hyp": {"en": "hypothesis", "ru": "Гипотеза"},
        "what_ref": {"en": "reference", "ru": "Эталон"},
        "error": {"en": "Cannot score: {msg}", "ru": "Оценка невозможна: {msg}"},
        "loading": {"en": "Loading language resources…", "ru": "Загрузка языковых ресурсов…"},
        # score card
        "score": {"en": "METEOR", "ru": "METEOR"},
        "precision": {"en": "Precision P", "ru": "Точность P"},
        "recall": {"en": "Recall R", "ru": "Полнота R"},
        "fmean": {"en": "Fmean", "ru": "Fmean"},
        "frag": {"en": "Fragmentation", "ru": "Фрагментация"},
        "penalty": {"en": "Penalty", "ru": "Штраф"},
        "chunks": {"en": "Chunks", "ru": "Фрагменты"},
        "matches": {"en": "Matches hyp / ref", "ru": "Совпад. гип. / эт."},
        "signature": {"en": "Signature", "ru": "Подпись"},
        "nan_note": {
            "en": "“—” marks a quantity Meteor 1.5 leaves undefined (NaN), e.g. with no match.",
            "ru": "«—» — величина, которую Meteor 1.5 оставляет неопределённой (NaN), "
            "например, когда совпадений нет.",
        },
        # table columns several pages share
        "col_side": {"en": "side", "ru": "сторона"},
        "col_stage": {"en": "stage", "ru": "этап"},
        "col_hyp": {"en": "hypothesis", "ru": "гипотеза"},
        "col_ref": {"en": "reference", "ru": "эталон"},
        "col_detail": {"en": "detail", "ru": "подробности"},
        # generic
        "yes": {"en": "yes", "ru": "да"},
        "no": {"en": "no", "ru": "нет"},
        # figure labels (keys of meteor.viz.figures.LABELS_EN)
        "hypothesis": {"en": "hypothesis", "ru": "гипотеза"},
        "reference": {"en": "reference", "ru": "эталон"},
        "chunk": {"en": "chunk", "ru": "фрагмент"},
        "unmatched": {"en": "unmatched", "ru": "без пары"},
        "function_word": {"en": "function word", "ru": "служебное слово"},
        "weight": {"en": "weight", "ru": "вес"},
        "candidates": {"en": "candidates", "ru": "кандидаты"},
        "matched_by": {"en": "matched by", "ru": "сопоставлено этапом"},
        "not_matched": {"en": "not matched", "ru": "не сопоставлено"},
        "ref_position": {"en": "reference position", "ru": "позиция в эталоне"},
        "ideal": {"en": "perfect match", "ru": "идеальное совпадение"},
        "unmatched_hyp": {"en": "unmatched hypothesis words", "ru": "слова гипотезы без пары"},
        "unmatched_ref": {"en": "unmatched reference words", "ru": "слова эталона без пары"},
        "partial_credit": {
            "en": "partial credit (stage weights)",
            "ru": "неполный вес (веса этапов)",
        },
        "fragmentation": {"en": "fragmentation", "ru": "фрагментация"},
        "current": {"en": "current", "ru": "текущее"},
        "coincide": {  # {names} and {params} are filled in by meteor.viz.figures
            "en": "Same curve, drawn one over another: {names} ({params})",
            "ru": "Одна и та же кривая, линии наложены: {names} ({params})",
        },
        "matrix_compact": {  # {n_hyp} and {n_ref} are filled in by meteor.viz.figures
            "en": "{n_hyp} × {n_ref} tokens: compact view, only matched cells are drawn. "
            "Drag to zoom in for every word; double-click to zoom out.",
            "ru": "{n_hyp} × {n_ref} токенов: сжатый вид, показаны только совпавшие клетки. "
            "Выделите область, чтобы увидеть все слова; двойной щелчок — обратно.",
        },
        # corpus figure labels: "cf_" + a key of meteor.viz.corpus.LABELS_EN
        "cf_field_score": {"en": "segment score", "ru": "оценка сегмента"},
        "cf_field_precision": {"en": "precision", "ru": "точность"},
        "cf_field_recall": {"en": "recall", "ru": "полнота"},
        "cf_field_frag": {
            "en": "fragmentation (chunks / mean matches)",
            "ru": "фрагментация (фрагменты / среднее число совпадений)",
        },
        "cf_field_penalty": {"en": "fragmentation penalty", "ru": "штраф за фрагментацию"},
        "cf_field_fmean": {"en": "Fmean", "ru": "Fmean"},
        "cf_segments": {"en": "segments", "ru": "сегментов"},
        "cf_segment": {"en": "segment", "ru": "сегмент"},
        "cf_length": {"en": "length", "ru": "длина"},
        "cf_score": {"en": "score", "ru": "оценка"},
        "cf_ref_length": {"en": "reference length (tokens)", "ru": "длина эталона (токены)"},
        "cf_hyp_length": {"en": "hypothesis length (tokens)", "ru": "длина гипотезы (токены)"},
        "cf_better": {"en": "{name} better", "ru": "лучше {name}"},
        "cf_tie": {"en": "tie", "ru": "поровну"},
        "cf_equal": {"en": "equal", "ru": "равенство"},
        "cf_a_axis": {"en": "{name} segment score (A)", "ru": "оценка сегмента, {name} (A)"},
        "cf_b_axis": {"en": "{name} segment score (B)", "ru": "оценка сегмента, {name} (B)"},
        "cf_corpus_bar": {
            "en": "corpus score (summed statistics)",
            "ru": "оценка корпуса (сумма статистик)",
        },
        "cf_mean_bar": {"en": "mean of segment scores", "ru": "среднее оценок сегментов"},
        # why A and B differ (Compare; pages/_reconcile_view.py)
        "rc_title": {"en": "Why do A and B differ?", "ru": "Почему A и B расходятся?"},
        "rc_intro": {
            "en": "The path switches one group of settings from A's value to B's at a time, in "
            "pipeline order, and re-scores; the last step lands on B. Each group's fair share "
            "(Shapley value) splits the same gap without an order.",
            "ru": "Путь переключает по одной группе настроек со значения A на значение B в порядке "
            "конвейера и пересчитывает оценку; последний шаг даёт B. Справедливая доля группы "
            "(значение Шепли) делит тот же разрыв без учёта порядка.",
        },
        "rc_b": {"en": "B", "ru": "B"},
        "rc_score_a": {"en": "A · {name}", "ru": "A · {name}"},
        "rc_score_b": {"en": "B · {name}", "ru": "B · {name}"},
        "rc_gap": {"en": "Gap B − A", "ru": "Разрыв B − A"},
        "rc_steps": {"en": "Steps", "ru": "Шагов"},
        "rc_same": {
            "en": "A and B agree in every setting that matters here: nothing to reconcile.",
            "ru": "A и B совпадают во всех значимых настройках: объяснять нечего.",
        },
        "rc_path": {"en": "The path from A to B", "ru": "Путь от A к B"},
        "rc_shares": {"en": "Fair shares of the gap", "ru": "Справедливые доли разрыва"},
        "rc_col_group": {"en": "group of settings", "ru": "группа настроек"},
        "rc_col_share": {"en": "fair share", "ru": "доля"},
        "rc_col_step": {"en": "path step", "ru": "шаг пути"},
        "rc_method": {"en": "Shares: {method}", "ru": "Доли: {method}"},
        "rc_stepper": {"en": "Alignment after step", "ru": "Выравнивание после шага"},
        "rc_step_0": {"en": "0 · A ({name})", "ru": "0 · A ({name})"},
        "rc_step_k": {"en": "{k} · {group}", "ru": "{k} · {group}"},
        "rc_after": {
            "en": "After step {k}: METEOR {before} → {score}",
            "ru": "После шага {k}: METEOR {before} → {score}",
        },
        "rc_at_a": {"en": "Setting A: METEOR {score}", "ru": "Настройка A: METEOR {score}"},
        "rc_failed": {
            "en": "Cannot reconcile A and {name}: {msg}",
            "ru": "Не удалось сопоставить A и {name}: {msg}",
        },
        "rc_too_long": {
            "en": "This pair is too long for the step-by-step view here; run "
            "`python -m meteor reconcile` on it instead.",
            "ru": "Пара слишком длинная для пошагового разбора здесь; запустите для неё "
            "`python -m meteor reconcile`.",
        },
        "rc_g_text": {
            "en": "text (tokenizer, normalisation, case)",
            "ru": "текст (токенизатор, нормализация, регистр)",
        },
        "rc_g_function_words": {"en": "function words", "ru": "служебные слова"},
        "rc_g_stages": {"en": "stages (which, order)", "ru": "этапы (какие, порядок)"},
        "rc_g_resources": {"en": "stemmer and resources", "ru": "стеммер и ресурсы"},
        "rc_g_weights": {"en": "stage weights", "ru": "веса этапов"},
        "rc_g_aligner": {"en": "aligner", "ru": "выравниватель"},
        "rc_g_parameters": {"en": "α β γ δ", "ru": "α β γ δ"},
        "rc_g_rules": {"en": "scoring rules", "ru": "правила подсчёта"},
        "rc_g_aggregation": {"en": "corpus aggregation", "ru": "агрегирование по корпусу"},
        # near misses' "why not matched" (Inspect; meteor.analysis.why_unmatched)
        "reason_beam_quirk": {
            "en": "Meteor 1.5's beam counts a lone one-word stem/synonym match as covering "
            "nothing, so it left this out",
            "ru": "лучевой поиск Meteor 1.5 считает одиночное однословное совпадение по основе "
            "или синониму ничего не покрывающим и пропустил его",
        },
        "reason_weight_zero": {
            "en": "stage weighted 0: its match counts nothing",
            "ru": "вес этапа 0: его совпадение ничего не даёт",
        },
        "reason_matcher": {
            "en": "this setting's own stage rule misses it (NLTK compares Porter stems); "
            "Meteor 1.5's matcher finds it",
            "ru": "собственное правило этапа этой настройки его не находит (NLTK сравнивает "
            "основы Porter); сопоставитель Meteor 1.5 находит",
        },
        # page "Agreement with people" (issue 34)
        "page_agreement": {"en": "Agreement with people", "ru": "Согласие с людьми"},
        "agr_title": {
            "en": "Which METEOR agrees with people?",
            "ru": "Какой METEOR согласуется с людьми?",
        },
        "agr_intro": {
            "en": "A corpus with a human score per (system, segment) row: each preset's and "
            "baseline's correlation with the human scores, with 95 % intervals, and which "
            "differences are significant.",
            "ru": "Корпус с оценкой человека для каждой строки (система, сегмент): корреляция "
            "каждого пресета и базовой метрики с оценками людей, 95-процентные интервалы и "
            "значимость различий.",
        },
        "agr_source": {"en": "Data", "ru": "Данные"},
        "agr_src_demo": {
            "en": "Demo: WMT21 ru→en, 60 segments × 11 systems, human DA",
            "ru": "Пример: WMT21 ru→en, 60 сегментов × 11 систем, оценки DA",
        },
        "agr_src_upload": {"en": "Upload a file", "ru": "Загрузить файл"},
        "agr_demo_caption": {
            "en": "WMT21 newstest2021 Russian→English (wmt-conference/wmt21-news-systems): "
            "research use only; human_score is the mean z-scored Direct Assessment. "
            "English texts: English presets.",
            "ru": "WMT21 newstest2021, русский→английский (wmt-conference/wmt21-news-systems): "
            "только для исследований; human_score — среднее z-нормированных оценок DA. "
            "Тексты английские: пресеты английского.",
        },
        "agr_upload": {
            "en": "A TSV, CSV or JSONL file: system, seg_id, hyp, ref and a human score column",
            "ru": "Файл TSV, CSV или JSONL: system, seg_id, hyp, ref и столбец оценок людей",
        },
        "agr_no_file": {
            "en": "Upload a file, or choose the demo.",
            "ru": "Загрузите файл или выберите пример.",
        },
        "agr_bad_input": {"en": "Cannot read the file: {msg}", "ru": "Файл не читается: {msg}"},
        "agr_no_numeric": {
            "en": "{name} has no column of numbers to use as the human score.",
            "ru": "В файле {name} нет числового столбца для оценок людей.",
        },
        "agr_human_col": {"en": "Human score column", "ru": "Столбец оценок людей"},
        "agr_higher": {"en": "Higher is better", "ru": "Больше — лучше"},
        "agr_higher_help": {
            "en": "Untick for error scores (MQM error counts, HTER).",
            "ru": "Снимите для оценок ошибок (число ошибок MQM, HTER).",
        },
        "agr_metric_cols": {
            "en": "Metric columns of the file to compare (e.g. COMET)",
            "ru": "Столбцы метрик из файла для сравнения (например, COMET)",
        },
        "agr_presets": {"en": "METEOR presets", "ru": "Пресеты METEOR"},
        "agr_baselines": {"en": "Baselines (sacreBLEU)", "ru": "Базовые метрики (sacreBLEU)"},
        "agr_resamples": {
            "en": "Bootstrap resamples and permutations",
            "ru": "Повторные выборки бутстрепа и перестановки",
        },
        "agr_run": {"en": "Measure agreement", "ru": "Измерить согласие"},
        "agr_need_metric": {
            "en": "Choose at least one preset, baseline or column.",
            "ru": "Выберите хотя бы один пресет, базовую метрику или столбец.",
        },
        "agr_press_run": {
            "en": "Press “Measure agreement”: every metric is scored once for this input and "
            "these choices.",
            "ru": "Нажмите «Измерить согласие»: каждая метрика оценивается один раз для этих "
            "данных и этого выбора.",
        },
        "agr_scoring": {"en": "Scoring {msg}", "ru": "Оценивание: {msg}"},
        "agr_measuring": {
            "en": "Measuring agreement: bootstrap intervals and permutation tests…",
            "ru": "Измерение согласия: бутстреп-интервалы и перестановочные тесты…",
        },
        "agr_failed": {
            "en": "Cannot measure agreement: {msg}",
            "ru": "Согласие измерить нельзя: {msg}",
        },
        "agr_summary": {
            "en": "{rows} rows, {items} source segments, {systems} systems; human: {column} "
            "({direction}); intervals: {n} bootstrap resamples of source segments (of systems "
            "at system level).",
            "ru": "{rows} строк, {items} исходных сегментов, {systems} систем; люди: {column} "
            "({direction}); интервалы: {n} бутстреп-выборок исходных сегментов (систем на "
            "уровне систем).",
        },
        "agr_dir_higher": {"en": "higher is better", "ru": "больше — лучше"},
        "agr_dir_lower": {"en": "lower is better", "ru": "меньше — лучше"},
        "agr_table_title": {
            "en": "Correlation with the human scores",
            "ru": "Корреляция с оценками людей",
        },
        "agr_statistic": {"en": "Segment-level statistic", "ru": "Статистика уровня сегментов"},
        "agr_stat_kendall": {"en": "Kendall τ-b", "ru": "τ-b Кендалла"},
        "agr_stat_pearson": {"en": "Pearson", "ru": "Пирсон"},
        "agr_stat_spearman": {"en": "Spearman", "ru": "Спирмен"},
        "agr_stat_darr": {"en": "DARR τ-like", "ru": "τ-подобная DARR"},
        "agr_conv_flat": {"en": "flattened", "ru": "без группировки"},
        "agr_conv_item": {"en": "grouped by item", "ru": "по исходным сегментам"},
        "agr_col_metric": {"en": "metric", "ru": "метрика"},
        "agr_col_kind": {"en": "kind", "ru": "вид"},
        "agr_col_flat": {"en": "segments, flattened", "ru": "сегменты, без группировки"},
        "agr_col_item": {"en": "segments, grouped by item", "ru": "сегменты, по исходным"},
        "agr_col_sys_pearson": {"en": "systems, Pearson", "ru": "системы, Пирсон"},
        "agr_col_sys_kendall": {"en": "systems, Kendall τ-b", "ru": "системы, τ-b Кендалла"},
        "agr_kind_preset": {"en": "METEOR preset", "ru": "пресет METEOR"},
        "agr_kind_params": {"en": "METEOR setting", "ru": "настройка METEOR"},
        "agr_kind_baseline": {"en": "baseline", "ru": "базовая метрика"},
        "agr_kind_column": {"en": "file column", "ru": "столбец файла"},
        "agr_table_caption": {
            "en": "value [95 % interval]. Flattened: one correlation over all rows; grouped by "
            "item: per source segment over its systems, averaged (mt-metrics-eval's two "
            "conventions). DARR: pairs of outputs of one source whose human scores differ by "
            "more than 25.",
            "ru": "значение [95-процентный интервал]. Без группировки: одна корреляция по всем "
            "строкам; по исходным сегментам: для каждого сегмента по его системам, затем "
            "среднее (два соглашения mt-metrics-eval). DARR: пары переводов одного сегмента, "
            "оценки людей которых различаются больше чем на 25.",
        },
        "agr_sig_title": {
            "en": "Which differences are significant",
            "ru": "Какие различия значимы",
        },
        "agr_sig_caption": {
            "en": "Δ = A − B in flattened Kendall τ-b; PERM-BOTH permutation test (Deutsch et "
            "al. 2021), {n} permutations, two-sided; ✓: p < 0.05.",
            "ru": "Δ = A − B по τ-b Кендалла без группировки; перестановочный тест PERM-BOTH "
            "(Deutsch et al. 2021), {n} перестановок, двусторонний; ✓: p < 0,05.",
        },
        "agr_col_delta": {"en": "Δ", "ru": "Δ"},
        "agr_col_p": {"en": "p", "ru": "p"},
        "agr_col_sig": {"en": "p < 0.05", "ru": "p < 0,05"},
        "agr_scatter_title": {
            "en": "Metric against people, per segment",
            "ru": "Метрика и люди по сегментам",
        },
        "agr_scatter_metric": {"en": "Metric", "ru": "Метрика"},
        "agr_scatter_caption": {
            "en": "Click a point to see that pair and open it on the Inspect page.",
            "ru": "Нажмите на точку, чтобы увидеть пару и открыть её на странице «Разбор пары».",
        },
        "agr_point_head": {
            "en": "{system} · segment {seg_id}: metric {metric}, human {human}",
            "ru": "{system} · сегмент {seg_id}: метрика {metric}, люди {human}",
        },
        "agr_open_inspect": {
            "en": "Open this pair on the Inspect page",
            "ru": "Открыть пару на странице «Разбор пары»",
        },
        "agr_heat_title": {
            "en": "Agreement over two parameters",
            "ru": "Согласие при двух параметрах",
        },
        "agr_heat_caption": {
            "en": "Each cell re-scores the metric's kept statistics with those values (the same "
            "alignment: nothing is aligned again). ○ the metric's own setting, ★ the best cell.",
            "ru": "Каждая клетка пересчитывает сохранённую статистику метрики с этими значениями "
            "(то же выравнивание, ничего не выравнивается заново). ○ собственная настройка "
            "метрики, ★ лучшая клетка.",
        },
        "agr_heat_metric": {"en": "METEOR preset", "ru": "Пресет METEOR"},
        "agr_heat_x": {"en": "Across", "ru": "По горизонтали"},
        "agr_heat_y": {"en": "Up", "ru": "По вертикали"},
        "agr_heat_measure": {"en": "Measure", "ru": "Мера"},
        "agr_heat_same": {
            "en": "Choose two different parameters.",
            "ru": "Выберите два разных параметра.",
        },
        "agr_heat_none": {
            "en": "No METEOR preset in this run: add one to see the grid.",
            "ru": "В этом расчёте нет пресета METEOR: добавьте его, чтобы увидеть сетку.",
        },
        "agr_use_value": {"en": "{param} to use", "ru": "{param}: значение"},
        "agr_use": {"en": "Use this setting", "ru": "Использовать эту настройку"},
        "agr_use_help": {
            "en": "Sets the sidebar: this preset with these two values (Inspect and Compare use "
            "it).",
            "ru": "Задаёт боковую панель: этот пресет с этими двумя значениями (их используют "
            "«Разбор пары» и «Сравнение настроек»).",
        },
        "agr_used": {
            "en": "The sidebar now has {preset} with {x} = {xv}, {y} = {yv}.",
            "ru": "На боковой панели теперь {preset} с {x} = {xv}, {y} = {yv}.",
        },
        "agr_fig_metric_axis": {"en": "{name} segment score", "ru": "оценка сегмента, {name}"},
        "agr_fig_human_axis": {"en": "human score ({column})", "ru": "оценка людей ({column})"},
        "agr_fig_lower_better": {"en": "lower is better", "ru": "меньше — лучше"},
        "agr_fig_system": {"en": "system", "ru": "система"},
        "agr_fig_segment": {"en": "segment", "ru": "сегмент"},
        "agr_fig_current": {"en": "the metric's own setting", "ru": "собственная настройка"},
        "agr_fig_best": {"en": "best: {value}", "ru": "лучшая: {value}"},
        # issue 31 item 17 (round 3): axis titles, notices
        "score_axis": {"en": "METEOR score", "ru": "оценка METEOR"},
        "token_notice": {"en": "{side}: {msg}", "ru": "{side}: {msg}"},
        # the corpus report on the Corpus page (issue 35; pages/_report_view.py)
        "corpus_tab_ranking": {"en": "Ranking", "ru": "Рейтинг"},
        "corpus_tab_buckets": {"en": "Buckets", "ru": "Группы"},
        "corpus_tab_where": {"en": "Where the points go", "ru": "Куда уходят баллы"},
        "rp_intro": {
            "en": "The corpus report: every system ranked by corpus METEOR with its 95% "
            "interval, every pair tested (paired bootstrap and approximate randomisation), "
            "clusters, buckets and where each system loses its points; downloads for a paper.",
            "ru": "Отчёт по корпусу: все системы по METEOR корпуса с 95% интервалом, проверка "
            "каждой пары (парный бутстреп и приближённая рандомизация), кластеры, группы и "
            "то, где каждая система теряет баллы; файлы для статьи.",
        },
        "rp_build": {
            "en": "Build the report ({systems} systems, {pairs} comparisons)",
            "ru": "Построить отчёт (систем: {systems}, сравнений: {pairs})",
        },
        "rp_build_help": {
            "en": "Runs {samples} bootstrap samples and randomisation trials per system and "
            "per pair; with many systems this takes a while. Done once per upload and setting.",
            "ru": "{samples} бутстреп-выборок и испытаний рандомизации на систему и на пару; "
            "при многих системах это долго. Выполняется один раз для загрузки и настройки.",
        },
        "rp_build_first": {
            "en": "Build the report in the Ranking tab first.",
            "ru": "Сначала постройте отчёт во вкладке «Рейтинг».",
        },
        "rp_progress": {"en": "Report: {step}", "ru": "Отчёт: {step}"},
        "rp_failed": {
            "en": "Cannot build the report: {msg}",
            "ru": "Не удалось построить отчёт: {msg}",
        },
        "rp_col_rank": {"en": "rank", "ru": "место"},
        "rp_col_cluster": {"en": "cluster", "ru": "кластер"},
        "rp_col_system": {"en": "system", "ru": "система"},
        "rp_col_segments": {"en": "segments", "ru": "сегменты"},
        "rp_col_meteor": {"en": "corpus METEOR", "ru": "METEOR корпуса"},
        "rp_col_low": {"en": "95% CI low", "ru": "95% ДИ от"},
        "rp_col_high": {"en": "95% CI high", "ru": "95% ДИ до"},
        "rp_col_mean": {"en": "mean of segment scores", "ru": "среднее оценок сегментов"},
        "rp_col_a": {"en": "A (higher)", "ru": "A (выше)"},
        "rp_col_b": {"en": "B", "ru": "B"},
        "rp_col_common": {"en": "common segments", "ru": "общих сегментов"},
        "rp_col_diff": {"en": "B − A", "ru": "B − A"},
        "rp_col_p_bs": {"en": "p (bootstrap)", "ru": "p (бутстреп)"},
        "rp_col_p_ar": {"en": "p (randomisation)", "ru": "p (рандомизация)"},
        "rp_col_sig": {"en": "significant", "ru": "значимо"},
        "rp_col_bucket": {"en": "bucket", "ru": "группа"},
        "rp_col_count": {"en": "n", "ru": "n"},
        "rp_col_ref_words": {"en": "reference words", "ru": "слов эталона"},
        "rp_col_hyp_words": {"en": "hypothesis words", "ru": "слов гипотезы"},
        "rp_col_word": {"en": "word", "ru": "слово"},
        "rp_col_missed": {"en": "missed", "ru": "пропущено"},
        "rp_col_unmatched": {"en": "unmatched", "ru": "без пары"},
        "rp_col_occurrences": {"en": "occurrences", "ru": "вхождений"},
        "rp_col_stage": {"en": "stage", "ru": "этап"},
        "rp_col_matched": {"en": "matched reference words", "ru": "сопоставлено слов эталона"},
        "rp_col_share": {"en": "share", "ru": "доля"},
        "rp_col_frag_bin": {"en": "fragmentation", "ru": "фрагментация"},
        "rp_col_seg_id": {"en": "segment id", "ru": "id сегмента"},
        "rp_col_open_a": {"en": "Inspect A", "ru": "Разбор A"},
        "rp_col_open_b": {"en": "Inspect B", "ru": "Разбор B"},
        "rp_col_count_words": {"en": "count", "ru": "раз"},
        "rp_open": {"en": "open", "ru": "открыть"},
        "rp_yes": {"en": "yes", "ru": "да"},
        "rp_no": {"en": "no", "ru": "нет"},
        "rp_comparisons": {
            "en": "{n} pairwise comparisons (alpha {alpha}; a difference is significant when "
            "both p-values are below it; no correction for multiple comparisons — "
            "Bonferroni's threshold would be {bonf}); {samples} bootstrap samples, {trials} "
            "randomisation trials, seed {seed}.",
            "ru": "Попарных сравнений: {n} (alpha {alpha}; разность значима, когда оба "
            "p-значения ниже; поправки на множественные сравнения нет — порог Бонферрони был "
            "бы {bonf}); бутстреп-выборок: {samples}, испытаний рандомизации: {trials}, "
            "seed {seed}.",
        },
        "rp_clusters": {
            "en": "Clusters: systems sorted by corpus METEOR; a system opens a new cluster "
            "when its difference from the top system of the current cluster is significant.",
            "ru": "Кластеры: системы упорядочены по METEOR корпуса; система открывает новый "
            "кластер, если её отличие от лучшей системы текущего кластера значимо.",
        },
        "rp_mean_note": {
            "en": "Corpus METEOR sums the segments' statistics (Meteor 1.5's system score); the "
            "mean of segment scores is a different number, shown beside it.",
            "ru": "METEOR корпуса суммирует статистику сегментов (оценка системы в Meteor "
            "1.5); среднее оценок сегментов — другое число, оно показано рядом.",
        },
        "rp_common_ids": {
            "en": "Systems cover different segments: each pair was compared on the segment "
            "ids both have (column “common segments”).",
            "ru": "Системы покрывают разные сегменты: каждая пара сравнивалась по общим "
            "идентификаторам сегментов (столбец «общих сегментов»).",
        },
        "rp_nan_note": {
            "en": "Some intervals are undefined (too few segments).",
            "ru": "Некоторые интервалы не определены (слишком мало сегментов).",
        },
        "rp_pairs_head": {"en": "Pairwise tests", "ru": "Попарные проверки"},
        "rp_downloads": {"en": "Downloads for a paper", "ru": "Файлы для статьи"},
        "rp_dl_latex": {"en": "LaTeX tables", "ru": "Таблицы LaTeX"},
        "rp_dl_md": {"en": "Markdown", "ru": "Markdown"},
        "rp_dl_json": {"en": "Whole analysis (JSON)", "ru": "Весь анализ (JSON)"},
        "rp_dl_html": {"en": "HTML report", "ru": "Отчёт HTML"},
        "rp_dl_caption": {
            "en": "Each file states the signature and the data; the HTML report has every "
            "figure inside and opens offline; LaTeX needs `\\usepackage{booktabs}`.",
            "ru": "В каждом файле — подпись и сведения о данных; отчёт HTML содержит все "
            "графики и открывается без сети; для LaTeX нужен `\\usepackage{booktabs}`.",
        },
        "rp_bucketing": {"en": "Bucketing", "ru": "Разбиение"},
        "rp_b_ref_length": {
            "en": "Reference length (tokens)",
            "ru": "Длина эталона (токенов)",
        },
        "rp_b_length_ratio": {
            "en": "Length ratio (hypothesis / reference)",
            "ru": "Отношение длин (гипотеза / эталон)",
        },
        "rp_b_ref_frequency": {
            "en": "Word frequency in the references",
            "ru": "Частота слова в эталонах",
        },
        "rp_b_word_class": {
            "en": "Function vs content words",
            "ru": "Служебные и знаменательные слова",
        },
        "rp_b_label": {"en": "Label: {column}", "ru": "Метка: {column}"},
        "rp_b_seg_caption": {
            "en": "Each segment in one bucket; a bucket's METEOR from its summed statistics, "
            "with its 95% interval; n: segments.",
            "ru": "Каждый сегмент — в одной группе; METEOR группы по сумме её статистик, с 95% "
            "интервалом; n — сегменты.",
        },
        "rp_b_word_caption": {
            "en": "Each word in one bucket; recall: share of the bucket's reference words "
            "matched, precision: of its hypothesis words (no METEOR per word bucket).",
            "ru": "Каждое слово — в одной группе; полнота — доля сопоставленных слов эталона "
            "группы, точность — слов гипотезы (METEOR для групп слов не считается).",
        },
        "rp_labels": {"en": "Bucket also by column", "ru": "Группировать также по столбцу"},
        "rp_labels_help": {
            "en": "Columns of the uploaded tables besides system, id, hypothesis and "
            "reference (domain, document…): one bucketing each.",
            "ru": "Столбцы загруженных таблиц кроме системы, id, гипотезы и эталона (домен, "
            "документ…): по разбиению на каждый.",
        },
        "rp_system": {"en": "System", "ru": "Система"},
        "rp_missed": {
            "en": "Most-missed reference words (recall loss)",
            "ru": "Чаще всего пропущенные слова эталона (потеря полноты)",
        },
        "rp_unmatched": {
            "en": "Unmatched hypothesis words (precision loss)",
            "ru": "Слова гипотезы без пары (потеря точности)",
        },
        "rp_stages": {"en": "What each stage rescued", "ru": "Что дал каждый этап"},
        "rp_missed_total": {
            "en": "{missed} of {total} reference words unmatched.",
            "ru": "Без пары {missed} из {total} слов эталона.",
        },
        "rp_two": {"en": "Two systems head to head", "ru": "Две системы лицом к лицу"},
        "rp_sys_a": {"en": "System A", "ru": "Система A"},
        "rp_sys_b": {"en": "System B", "ru": "Система B"},
        "rp_same": {"en": "Choose two different systems.", "ru": "Выберите две разные системы."},
        "rp_no_common": {
            "en": "{a} and {b} have no segment id in common.",
            "ru": "У {a} и {b} нет общих сегментов.",
        },
        "rp_common": {
            "en": "Compared on {n} common segments.",
            "ru": "Сравнение по общим сегментам: {n}.",
        },
        "rp_wins": {"en": "Where {name} wins most", "ru": "Где {name} выигрывает больше всего"},
        "rp_only": {
            "en": "Reference words only {name} matches",
            "ru": "Слова эталона, которые сопоставляет только {name}",
        },
        "rp_link_caption": {
            "en": "Each row's links open that segment on the Inspect page.",
            "ru": "Ссылки в строке открывают сегмент на странице «Разбор пары».",
        },
        "rp_need_two": {
            "en": "Upload two or more systems for the pairwise tests and the head-to-head view.",
            "ru": "Загрузите две или больше систем для попарных проверок и сравнения лицом к лицу.",
        },
        "rf_ranking": {
            "en": "Corpus METEOR with 95 % interval (colour: cluster)",
            "ru": "METEOR корпуса с 95% интервалом (цвет — кластер)",
        },
        "rf_pvalues": {
            "en": "Pairwise p-values (paired bootstrap)",
            "ru": "Попарные p-значения (парный бутстреп)",
        },
        "rf_stages": {
            "en": "Share of matched reference words by stage",
            "ru": "Доля сопоставленных слов эталона по этапам",
        },
        "rf_frag": {"en": "Fragmentation of the segments", "ru": "Фрагментация сегментов"},
        "rf_meteor": {"en": "METEOR", "ru": "METEOR"},
        "rf_recall": {"en": "recall", "ru": "полнота"},
        "rf_segments": {"en": "segments", "ru": "сегменты"},
    }
)


def ui() -> str:
    """The interface language (``en``/``ru``) chosen in the sidebar."""
    v = st.session_state.get("ui", "en")
    return v if v in UI_LANGS else "en"


def lookup(table: Table, key: str, **kw: Any) -> str:
    """``table[key]`` in the UI language (English when untranslated; the key when unknown)."""
    entry = table.get(key)
    if entry is None:
        return key
    s = entry.get(ui()) or entry["en"]
    return s.format(**kw) if kw else s


def t(key: str, **kw: Any) -> str:
    """The shared UI string ``key`` (:data:`STRINGS`) in the UI language, formatted with ``kw``."""
    return lookup(STRINGS, key, **kw)


class Translator:
    """A page's ``t``: its own tables and :data:`STRINGS`, merged once (no key clash).

    ``t(key, **kw)`` is the string in the UI language; ``key in t`` says whether the
    page (or :data:`STRINGS`) defines it.
    """

    __slots__ = ("table",)

    def __init__(self, *tables: Table) -> None:
        self.table: Table = merged(STRINGS, *tables)

    def __call__(self, key: str, **kw: Any) -> str:
        return lookup(self.table, key, **kw)

    def __contains__(self, key: object) -> bool:
        return key in self.table


def num(x: float | None, digits: int = 4) -> str:
    """A number for display: decimal comma in Russian, “—” for NaN/None."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    s = f"{x:.{digits}f}"
    if s.startswith("-"):
        s = "−" + s[1:]
    return s.replace(".", ",") if ui() == "ru" else s


def integer(n: int) -> str:
    """An integer with the UI language's thousands separator."""
    s = f"{n:,}"
    return s.replace(",", "\u202f") if ui() == "ru" else s


def signed(x: float, digits: int = 4) -> str:
    """A change with its sign (+0.0123 / −0.0123)."""
    if x == 0 or math.isnan(x):
        return num(x, digits)
    return ("+" if x > 0 else "−") + num(abs(x), digits)


def module_label(m: Module | str) -> str:
    """A stage's name in the UI language."""
    return t(m.value if isinstance(m, Module) else m)


def side_label(side: str) -> str:
    """``"hyp"``/``"ref"`` (a token table's side) as the UI says it."""
    return t("hypothesis") if side == "hyp" else t("reference")


def stage_order(mods: Iterable[Module | str]) -> str:
    """Stages as the UI shows an order: ``exact → lemma → synonym`` (translated)."""
    return " → ".join(module_label(m) for m in mods)


def fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.figures` in the UI language.

    Every key of ``figures.LABELS_EN``, translated where :data:`STRINGS` has it
    (the parameter symbols α β γ δ stay as the library writes them).
    """
    labels = {k: t(k) if k in STRINGS else en for k, en in figures.LABELS_EN.items()}
    labels["chunks"] = t("chunks").lower()
    labels["score"] = "METEOR"
    return labels


def corpus_fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.corpus` in the UI language (its label keys)."""
    from meteor.viz import corpus as corpus_figures

    return {
        k: t(f"cf_{k}") if f"cf_{k}" in STRINGS else v for k, v in corpus_figures.LABELS_EN.items()
    }
