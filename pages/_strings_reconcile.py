"""UI strings of "Why do A and B differ?" on Compare (pages/_reconcile_view.py): key → {"en": …, "ru": …}.

Plain data, merged into :data:`pages._i18n.STRINGS`.  :data:`REASONS_RU` writes the
library's reasons (:mod:`meteor.analysis.reconcile_reasons`) in Russian."""

STRINGS: dict[str, dict[str, str]] = {
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


#: The library's reasons in Russian: code → template (the English ones:
#: ``meteor.analysis.reconcile_reasons.TEMPLATES``, the same fields but the library's English
#: error message).  ``{n:pl:a|b|c}``: the
#: form for 1, for 2–4, for 5 and more.
REASONS_RU: dict[str, str] = {
    "fw.meteor": "список Meteor 1.5 (function/english.words)",
    "fw.meteor-lang": "список Meteor 1.5 для языка текстов",
    "fw.project": "список проекта",
    "fw.other": "{name}",
    "aligner.other": "{name}",
    "tok.meteor": "токенизатор Meteor 1.5",
    "tok.whitespace": "разбиение по пробелам",
    "tok.nltk": "токенизатор NLTK",
    "tok.razdel": "razdel",
    "tok.other": "{name}",
    "norm.meteor": "-norm Meteor (отделение пунктуации, нижний регистр)",
    "norm.lower": "нижний регистр",
    "norm.none": "регистр сохранён",
    "norm.other": "{name}",
    "tokenises": "{b} токенизирует: {after} ({a}: {before})",
    "normalisation": "нормализация: {after} ({a}: {before})",
    "punct_dropped": "пунктуация отбрасывается",
    "punct_kept": "пунктуация сохраняется",
    "java_keys_on": "слова сравниваются по хеш-коду строки Java, как в Meteor 1.5",
    "java_keys_off": "слова сравниваются как строки (без хеш-кодов Java)",
    "yo_fold": "ё приравнивается к е",
    "yo_keep": "ё отличается от е",
    "language": "язык {before} → {after}",
    "function_words": "список служебных слов: {before} → {after}",
    "stages": "этапы {before: → } заменяются на {after: → }",
    "stages_nltk": "(выравниватель «{aligner}» выполняет три собственных этапа NLTK)",
    "stemmer": "стеммер {before} → {after}",
    "embedding_threshold": "порог эмбеддингов {before:.4g} → {after:.4g}",
    "resources_nltk": "(выравниватель «{aligner}» использует собственные стеммер Porter и "
    "WordNet из NLTK)",
    "weight": "вес совпадений этапа «{stage}» в {b}: {after:.4g} ({a}: {before:.4g})",
    "weight_here": "вес совпадений этапа «{stage}» в {b}: {after:.4g} ({a}: {before:.4g}); "
    "здесь их {n}",
    "aligner_greedy": "{name} выравнивает как NLTK: жадно, в порядке очереди",
    "aligner_beam": "{name} выравнивает лучевым поиском Meteor 1.5 (ширина {width}): "
    "наибольшее взвешенное покрытие, затем наименьшее число фрагментов",
    "aligner_stagewise": "{name} выравнивает как в статье 2005 года: этап за этапом, "
    "наибольшее сопоставление с наименьшим числом пересечений",
    "aligner_other": "{name} выравнивает выравнивателем «{aligner}»",
    "alpha": "α {before:.4g} → {after:.4g}",
    "alpha_fmean": "α {before:.4g} → {after:.4g}: Fmean = P·R/(αP+(1−α)R) = {p:.4f}·{r:.4f}/"
    "({after:.4g}·{p:.4f}+{rest:.4g}·{r:.4f}) = {fmean:.4f}",
    "beta_gamma": "β {beta0:.4g} → {beta1:.4g}, γ {gamma0:.4g} → {gamma1:.4g}",
    "beta_gamma_penalty": "β {beta0:.4g} → {beta1:.4g}, γ {gamma0:.4g} → {gamma1:.4g}: "
    "штраф {gamma1:.4g}·frag^{beta1:.4g} = {penalty:.4f} за {chunks} "
    "{chunks:pl:фрагмент|фрагмента|фрагментов}, совпадений {matches:g} (frag {frag:.4f})",
    "delta": "δ {before:.4g} → {after:.4g}: значимые слова весят {after:.4g}, служебные {rest:.4g}",
    "delta_pr": "δ {before:.4g} → {after:.4g}: значимые слова весят {after:.4g}, служебные "
    "{rest:.4g} (P {p:.4f}, R {r:.4f})",
    "perfect_rule_on": "правило идеального сегмента Meteor 1.5 (frag 0, когда все слова "
    "совпали одним фрагментом) включено",
    "perfect_rule_off": "правило идеального сегмента Meteor 1.5 (frag 0, когда все слова "
    "совпали одним фрагментом) выключено",
    "perfect_applies": "правило идеального сегмента Meteor 1.5: все слова совпали одним "
    "фрагментом, поэтому frag = 0 и штрафа нет",
    "perfect_not_full": "правило идеального сегмента Meteor 1.5 включено, но не применяется "
    "(не один полный фрагмент)",
    "no_perfect_frag": "без правила идеального сегмента: frag = 1 фрагмент / {matches} "
    "{matches:pl:совпадение|совпадения|совпадений} = {frag:.4f}, штраф {penalty:.4f}",
    "no_perfect": "без правила идеального сегмента (здесь оно и не применилось бы: не один "
    "полный фрагмент)",
    "arith_nltk": "теперь действует арифметика NLTK: Fmean = P·R/(αP+(1−α)R) в порядке "
    "вычислений NLTK",
    "arith_meteor": "теперь действует арифметика Meteor 1.5: Fmean = 1/((1−α)/P + α/R)",
    "match": "{hyp}→{ref} ({stage})",
    "adds": "добавляет {n} {n:pl:совпадение|совпадения|совпадений}: {matches}",
    "loses": "теряет {n} {n:pl:совпадение|совпадения|совпадений}: {matches}",
    "chunks": "фрагментов {before} → {after}",
    "best_ref": "лучший эталон теперь эталон {now} (был {was})",
    "agg_mean": "{name} усредняет оценки сегментов (как HF evaluate)",
    "agg_sum": "{name} суммирует статистику сегментов (как Meteor 1.5)",
    # the library's message is English (ParamError): the English interface and the CLI quote it
    "cannot_come_yet": "группа «{group}» пока не может идти: с настройками, переключёнными до "
    "неё, такое сочетание не работает",
    "order_changed": "порядок изменён: {groups:; }",
    "switched_together": "переключены вместе: ни одна из групп не работает отдельно отсюда",
    "method_none": "нет: настройки совпадают",
    "method_exact": "точно: все {subsets} {subsets:pl:подмножество|подмножества|подмножеств} "
    "из {n} {n:pl:группы|групп|групп}",
    "method_sampled": "выборка: {orders} случайных порядков (зерно {seed}); у каждой доли "
    "указана стандартная ошибка (наибольшая {error:.2g})",
    "interaction": "{g} × {h} {value:+.4f}",
    "path_disagree": "путь и доли расходятся для групп: {groups}; факторы взаимодействуют",
    "path_disagree_strongest": "путь и доли расходятся для групп: {groups}; факторы "
    "взаимодействуют (сильнее всего: {pairs:; })",
    "path_agree": "путь и доли совпадают: группы складываются независимо",
    "invalid_count": "недопустимых сочетаний: {n}; каждое оценено по ближайшему допустимому",
}
