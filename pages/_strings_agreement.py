"""UI strings of the page "Agreement with people" (pages/agreement.py, pages/_agreement_view.py): key → {"en": …, "ru": …}.

Plain data, merged into :data:`pages._i18n.STRINGS`."""

STRINGS: dict[str, dict[str, str]] = {
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
    "agr_darr_col": {"en": "DARR pairs from column", "ru": "Пары DARR по столбцу"},
    "agr_darr_col_help": {
        "en": "DARR compares the metric on pairs of translations of one source segment whose "
        "scores in this column differ by the threshold or more. WMT builds them from raw DA "
        "scores (0–100) with a threshold of 25; on z-scores (about −3 to 3) a threshold of 25 "
        "finds no pair.",
        "ru": "DARR сравнивает метрику на парах переводов одного исходного сегмента, оценки "
        "которых в этом столбце различаются на порог или больше. WMT строит их по исходным "
        "оценкам DA (0–100) с порогом 25; на z-оценках (примерно от −3 до 3) порог 25 не "
        "даёт ни одной пары.",
    },
    "agr_darr_threshold": {"en": "DARR threshold", "ru": "Порог DARR"},
    "agr_darr_threshold_help": {
        "en": "A pair counts when its two scores differ by this or more (WMT: 25 on raw DA).",
        "ru": "Пара учитывается, если две оценки различаются на это число или больше (WMT: 25 "
        "на исходных оценках DA).",
    },
    "agr_darr_pairs": {
        "en": "DARR: {pairs} pairs of translations of one source whose scores in column {column} "
        "differ by {threshold} or more.",
        "ru": "DARR: {pairs} пар переводов одного сегмента, оценки которых в столбце {column} "
        "различаются на {threshold} или больше.",
    },
    "agr_darr_none": {
        "en": "DARR shows “—”: no two translations of one source have scores in column {column} "
        "that differ by {threshold} or more, so there is no pair to compare{scale}. Choose "
        "a raw-score column or a smaller threshold above.",
        "ru": "В столбце DARR «—»: ни у одной пары переводов одного сегмента оценки в столбце "
        "{column} не различаются на {threshold} или больше, сравнивать нечего{scale}. Выберите "
        "выше столбец исходных оценок или порог поменьше.",
    },
    "agr_darr_scale": {
        "en": " (its scores range from {lo} to {hi})",
        "ru": " (его оценки лежат от {lo} до {hi})",
    },
    "agr_darr_given": {
        "en": "DARR: {pairs} pairs judged in the file (no column nor threshold is used).",
        "ru": "DARR: {pairs} пар, оценённых в файле (столбец и порог не используются).",
    },
    "agr_table_caption": {
        "en": "value [95 % interval]. Flattened: one correlation over all rows; grouped by "
        "item: per source segment over its systems, averaged (mt-metrics-eval's two "
        "conventions). DARR (mt-metrics-eval's rule): pairs of outputs of one source whose scores "
        "in the DARR column (chosen below; a raw DA column is offered first) differ by the "
        "threshold or more; by item it is weighted by pairs, the same as all pairs pooled.",
        "ru": "значение [95-процентный интервал]. Без группировки: одна корреляция по всем "
        "строкам; по исходным сегментам: для каждого сегмента по его системам, затем "
        "среднее (два соглашения mt-metrics-eval). DARR (правило mt-metrics-eval): пары "
        "переводов одного сегмента, оценки которых в столбце DARR (выбирается ниже; столбец "
        "сырых оценок DA предлагается первым) различаются на порог или больше; по сегментам — "
        "с весом по числу пар, то есть то же, что все пары вместе.",
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
        "en": "Sets the sidebar: this preset with these two values (Inspect and Compare use it).",
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
    "agr_tune_title": {"en": "Tune", "ru": "Подбор параметров"},
    "agr_tune_intro": {
        "en": "Search α, β, γ, δ (and each stage's weight) of a preset for the best agreement "
        "with the human scores (meteor.tune: aligned once, searched on the statistics), and "
        "check it on held-out folds of whole documents or systems.",
        "ru": "Поиск α, β, γ, δ (и веса каждого этапа) пресета, лучше всего согласующихся с "
        "оценками людей (meteor.tune: выравнивание один раз, поиск по статистикам), с "
        "проверкой на отложенных блоках из целых документов или систем.",
    },
    "agr_tune_none": {
        "en": "No METEOR preset in this run: add one to tune it.",
        "ru": "В этом расчёте нет пресета METEOR: добавьте его, чтобы подобрать параметры.",
    },
    "agr_tune_base": {"en": "Preset to tune", "ru": "Пресет для подбора"},
    "agr_tune_objective": {"en": "Objective", "ru": "Цель"},
    "agr_obj_system_pearson": {"en": "Systems, Pearson r", "ru": "Системы, r Пирсона"},
    "agr_obj_system_kendall": {"en": "Systems, Kendall τ-b", "ru": "Системы, τ-b Кендалла"},
    "agr_tune_weights": {"en": "Stage weights too", "ru": "Также веса этапов"},
    "agr_tune_weights_help": {
        "en": "α, β, γ and δ are always searched; this adds each stage's weight.",
        "ru": "α, β, γ и δ подбираются всегда; здесь добавляется вес каждого этапа.",
    },
    "agr_tune_group": {"en": "Folds of whole", "ru": "Блоки из целых"},
    "agr_tune_group_system": {"en": "systems", "ru": "систем"},
    "agr_tune_group_help": {
        "en": "No group has rows on both sides of a fold: a document (talk) column, or the systems.",
        "ru": "Ни одна группа не попадает по обе стороны блока: столбец документа (доклада) "
        "или системы.",
    },
    "agr_tune_folds": {"en": "Folds (k)", "ru": "Блоков (k)"},
    "agr_tune_rounds": {"en": "Refinement rounds", "ru": "Раундов уточнения"},
    "agr_tune_rounds_help": {
        "en": "After the 5⁴ grid over α β γ δ: rounds of coordinate descent on halving steps "
        "(0: the grid only).",
        "ru": "После сетки 5⁴ по α β γ δ: раунды покоординатного спуска с уменьшающимся вдвое "
        "шагом (0 — только сетка).",
    },
    "agr_tune_run": {"en": "Tune", "ru": "Подобрать"},
    "agr_tune_press": {
        "en": "Press “Tune” to search (the result is kept for these choices).",
        "ru": "Нажмите «Подобрать» (результат сохраняется для этих настроек).",
    },
    "agr_tune_failed": {"en": "Cannot tune: {msg}", "ru": "Подобрать нельзя: {msg}"},
    "agr_tune_cv_title": {
        "en": "Held out: {objective} on each fold",
        "ru": "На отложенных блоках: {objective}",
    },
    "agr_tune_cv_caption": {
        "en": "Each fold: tuned on the other folds, measured on this one, next to {base} and "
        "chrF on the same rows, with 95 % bootstrap intervals ({n} resamples). {k} folds of "
        "whole {group}.",
        "ru": "Каждый блок: подбор на остальных блоках, измерение на этом, рядом с {base} и "
        "chrF на тех же строках, 95-процентные бутстреп-интервалы ({n} повторов). {k} блоков "
        "из целых групп «{group}».",
    },
    "agr_tune_col_fold": {"en": "fold", "ru": "блок"},
    "agr_tune_col_rows": {"en": "rows", "ru": "строк"},
    "agr_tune_col_groups": {"en": "groups", "ru": "групп"},
    "agr_tune_col_tuned": {"en": "tuned", "ru": "подобранная"},
    "agr_tune_col_param": {"en": "parameter", "ru": "параметр"},
    "agr_tune_mean": {"en": "mean", "ru": "среднее"},
    "agr_tune_summary": {
        "en": "Tuned on all {rows} rows: {value} ({base}: {base_value}) — {points} parameter "
        "points in {seconds} s on the statistics, aligned once in {align} s. The preset file "
        "is tuned on all of these rows; the folds above say how it generalises.",
        "ru": "На всех {rows} строках: {value} ({base}: {base_value}) — {points} точек за "
        "{seconds} с по статистикам, выравнивание один раз за {align} с. Файл пресета "
        "подобран на всех этих строках; как он обобщается, показывают блоки выше.",
    },
    "agr_tune_params_title": {"en": "The best setting", "ru": "Лучшая настройка"},
    "agr_tune_signature": {
        "en": "Scores with the preset file carry this signature:",
        "ru": "Оценки с файлом пресета несут эту подпись:",
    },
    "agr_tune_download": {"en": "Download the preset file", "ru": "Скачать файл пресета"},
    "agr_tune_use_help": {
        "en": "Makes the tuned preset file the sidebar's setting (Inspect and Compare use it; "
        "the signature names it).",
        "ru": "Делает подобранный файл пресета настройкой боковой панели (её используют "
        "«Разбор пары» и «Сравнение настроек»; подпись называет его).",
    },
    "agr_tune_used": {
        "en": "The sidebar now scores with {name}.",
        "ru": "Боковая панель теперь считает с {name}.",
    },
}
