"""UI strings of "Why do A and B differ?" on Compare (pages/_reconcile_view.py): key → {"en": …, "ru": …}.

Plain data, merged into :data:`pages._i18n.STRINGS` (so ``t(key)`` finds them);
kept apart so that the shared table stays readable."""

STRINGS: dict[str, dict[str, str]] = {
    "rc_words_lang": {
        "en": "In the library's words:",
        "ru": "Пояснения библиотеки (на английском, как их пишет библиотека):",
    },
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
}
