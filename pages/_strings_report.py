"""UI strings of the corpus report on the Corpus page (pages/_report_view.py): key → {"en": …, "ru": …}.

Plain data, merged into :data:`pages._i18n.STRINGS`."""

STRINGS: dict[str, dict[str, str]] = {
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
    "rp_col_matched": {"en": "matched reference words", "ru": "сопоставлено слов эталона"},
    "rp_col_share": {"en": "share", "ru": "доля"},
    "rp_col_seg_id": {"en": "segment id", "ru": "id сегмента"},
    "rp_col_open_a": {"en": "Inspect A", "ru": "Разбор A"},
    "rp_col_open_b": {"en": "Inspect B", "ru": "Разбор B"},
    "rp_col_count_words": {"en": "count", "ru": "раз"},
    "rp_open": {"en": "open", "ru": "открыть"},
    "rp_comparisons": {
        "en": "{n} pairwise comparisons; a difference is significant when the {test} p, "
        "adjusted by the correction “{correction}” over the {n} comparisons, is below "
        "alpha {alpha}; the other test's p is shown beside it. {samples} bootstrap "
        "samples, {trials} randomisation trials, seed {seed}.",
        "ru": "Попарных сравнений: {n}; разность значима, когда p-значение теста "
        "«{test}» с поправкой «{correction}» на {n} сравнений ниже alpha {alpha}; "
        "p-значение другого теста показано рядом. Бутстреп-выборок: {samples}, "
        "испытаний рандомизации: {trials}, seed {seed}.",
    },
    "rp_clusters": {
        "en": "Clusters (greedy top-anchored, this tool's rule: neither WMT's "
        "human-evaluation clustering nor a sacreBLEU feature): systems sorted by corpus "
        "METEOR; a system opens a new cluster when its difference from the top system of "
        "the current cluster is significant, else it joins that cluster.",
        "ru": "Кластеры (жадные, от лучшей системы кластера; правило этого инструмента, "
        "не кластеризация ручной оценки WMT и не функция sacreBLEU): системы упорядочены "
        "по METEOR корпуса; система открывает новый кластер, если её отличие от лучшей "
        "системы текущего кластера значимо, иначе входит в него.",
    },
    "rp_borderline_open": {
        "en": "{system} opens a new cluster after {top} on an adjusted p of {p}, within "
        "0.01 of alpha {alpha}: another seed or number of trials can move this boundary.",
        "ru": "{system} открывает новый кластер после {top} при скорректированном p {p}, "
        "в пределах 0,01 от alpha {alpha}: другой seed или число испытаний может сдвинуть "
        "эту границу.",
    },
    "rp_borderline_stay": {
        "en": "{system} stays in the cluster of {top} on an adjusted p of {p}, within "
        "0.01 of alpha {alpha}: another seed or number of trials can move this boundary.",
        "ru": "{system} остаётся в кластере {top} при скорректированном p {p}, в пределах "
        "0,01 от alpha {alpha}: другой seed или число испытаний может сдвинуть эту "
        "границу.",
    },
    "rp_test": {"en": "Test that decides significance", "ru": "Тест, решающий о значимости"},
    "rp_test_help": {
        "en": "Approximate randomisation (10,000 trials, sacreBLEU's default) or the paired "
        "bootstrap; the other test's p-value is shown beside it.",
        "ru": "Приближённая рандомизация (10 000 испытаний, как в sacreBLEU) или парный "
        "бутстреп; p-значение другого теста показано рядом.",
    },
    "rp_test_ar": {"en": "approximate randomisation", "ru": "приближённая рандомизация"},
    "rp_test_bootstrap": {"en": "paired bootstrap", "ru": "парный бутстреп"},
    "rp_correction": {
        "en": "Multiple-comparison correction",
        "ru": "Поправка на множественные сравнения",
    },
    "rp_correction_help": {
        "en": "Holm (step-down, the default) or Bonferroni adjust every pair's p-value for "
        "the number of comparisons; none leaves them as they are.",
        "ru": "Холм (пошаговая, по умолчанию) или Бонферрони корректируют p-значение "
        "каждой пары на число сравнений; «нет» оставляет их как есть.",
    },
    "rp_correction_holm": {"en": "Holm", "ru": "Холм"},
    "rp_correction_bonferroni": {"en": "Bonferroni", "ru": "Бонферрони"},
    "rp_correction_none": {"en": "none", "ru": "нет"},
    "rp_col_p_adj": {
        "en": "adjusted p ({correction}, {test})",
        "ru": "скорр. p ({correction}, {test})",
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
    "rp_b_label_many": {
        "en": "Column {column} has {n} different values; at most {most} buckets are shown "
        "(a label column such as domain, document or annotator)",
        "ru": "В столбце {column} {n} разных значений; показывается не больше {most} групп "
        "(столбец меток: домен, документ, аннотатор)",
    },
    "rp_b_label_failed": {
        "en": "Cannot bucket by this column: {msg}",
        "ru": "Не удалось разбить по этому столбцу: {msg}",
    },
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
        "en": "Deciding p-values: {test}, {correction}",
        "ru": "Решающие p-значения: {test}, {correction}",
    },
    "rf_test_ar": {"en": "approximate randomisation", "ru": "приближённая рандомизация"},
    "rf_test_bootstrap": {"en": "paired bootstrap", "ru": "парный бутстреп"},
    "rf_correction_holm": {"en": "Holm correction", "ru": "поправка Холма"},
    "rf_correction_bonferroni": {"en": "Bonferroni correction", "ru": "поправка Бонферрони"},
    "rf_correction_none": {"en": "no correction", "ru": "без поправки"},
    "rf_adjusted": {"en": "adjusted", "ru": "скорректированное"},
    "rf_decides": {"en": "decides", "ru": "решает"},
    "rf_stages": {
        "en": "Share of matched reference words by stage",
        "ru": "Доля сопоставленных слов эталона по этапам",
    },
    "rf_frag": {"en": "Fragmentation of the segments", "ru": "Фрагментация сегментов"},
    "rf_meteor": {"en": "METEOR", "ru": "METEOR"},
    "rf_recall": {"en": "recall", "ru": "полнота"},
    "rf_segments": {"en": "segments", "ru": "сегменты"},
    "rf_cluster": {"en": "cluster {n}", "ru": "кластер {n}"},
    "rf_frag_axis": {"en": "chunks / matched words", "ru": "фрагменты / совпавшие слова"},
    # figures as SVG and PDF (pages/_report_downloads.py)
    "rp_fig_head": {"en": "Figures as SVG and PDF", "ru": "Рисунки в SVG и PDF"},
    "rp_fig_make": {
        "en": "Draw the {n} figures as SVG and PDF",
        "ru": "Нарисовать рисунки в SVG и PDF (рисунков: {n})",
    },
    "rp_fig_make_help": {
        "en": "Drawn offline by this machine's Chromium; takes a few seconds. Done once per "
        "report and interface language.",
        "ru": "Рисует Chromium этой машины, без сети; занимает несколько секунд. Выполняется "
        "один раз для отчёта и языка интерфейса.",
    },
    "rp_fig_drawing": {
        "en": "Drawing the figures with Chromium…",
        "ru": "Chromium рисует рисунки…",
    },
    "rp_fig_no_engine": {
        "en": "SVG and PDF figures need Chromium on the machine that runs the app "
        "(apt-get install chromium); the downloads above work without it.",
        "ru": "Для рисунков в SVG и PDF нужен Chromium на машине, где работает приложение "
        "(apt-get install chromium); файлы выше скачиваются и без него.",
    },
    "rp_fig_failed": {
        "en": "The figures could not be drawn: {msg}",
        "ru": "Не удалось нарисовать рисунки: {msg}",
    },
}
