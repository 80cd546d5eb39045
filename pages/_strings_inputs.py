"""The library's input errors in the interface's languages: code → {"en": …, "ru": …}.

Plain data for :mod:`pages._input_messages`: an error's ``code`` (one of
:data:`meteor.errors.INPUT_CODES`) picks the template its ``params`` fill; English shows
the library's own message (``{msg}``: ``str(exc)``), as the command line prints it.
"""

#: Per code, the Russian template; English shows the library's own message (``{msg}``).
_RU: dict[str, str] = {
    "too_large": "{name}: {size} байт ({size_mb} МБ); принимается не больше {limit} байт "
    "({limit_mb} МБ) на файл — разделите файл и оцените части (статистики складываются)",
    "nul_byte": "{name}: в строке {line} есть нулевой байт; похоже, это двоичный файл, а не текст "
    "UTF-8 с одним сегментом в строке{utf16_note}",
    "lone_surrogate": "{name}: в строке {line} одиночный суррогат ({codepoint}), это не текст; "
    "сохраните файл в UTF-8",
    "not_utf8": "{name}: строка {line} не в кодировке UTF-8 (байт {byte} в позиции {column}); "
    "сохраните файл в UTF-8",
    "too_many_segments": "{name}: сегментов {count}, а принимается не больше {limit} — разделите "
    "файл и оцените части (статистики складываются)",
    "count_mismatch": "{where} сегментов {count}{last_note}, а {other_where} — "
    "{other_count}{other_last_note}; число сегментов должно совпадать",
    "no_segments": "{where} нет ни одного сегмента (пустая строка — это пустой сегмент, но в "
    "пустом файле сегментов нет)",
    "system_count_mismatch": "{name}: у системы «{system}» сегментов {count}, а у системы "
    "«{other_system}» — {other_count}; добавьте столбец seg_id, чтобы сопоставить сегменты по id",
    "system_refs_mismatch": "у системы «{system}» сегментов {count}, а эталонов — {refs}",
    "preset_not_utf8": "{file}: это не текст UTF-8 (байт {byte} в позиции {position}); сохраните "
    "файл в UTF-8",
    "preset_not_json": "{file}: это не JSON (ошибка в строке {line}, позиция {column})",
    "preset_too_deep": "{file}: массивы или объекты вложены слишком глубоко для файла пресета "
    "(файл пресета — объект настроек глубиной в три уровня)",
    "no_text_column": "{name}: нет ни столбца гипотез (`hyp`), ни столбца эталонов (`ref`); "
    "столбцы: {columns}",
    "segment_refs_differ": "{name}: в строке {line} у сегмента «{seg_id}» другие эталоны, чем в "
    "строке {other_line}; у всех строк сегмента эталоны должны совпадать",
    # TSV, CSV and JSONL rows (meteor.io.rows)
    "table_empty": "{name}: файл {kind} пуст, а нужна строка заголовка (например, `hyp` и `ref`)",
    "header_repeats": "{name}: в заголовке повторяются столбцы {columns}",
    "row_width": "{name}: в строке {line} полей {count}, а в заголовке {width} ({header})",
    "too_many_rows": "{name}: строк больше {limit}, а принимается не больше {limit} — разделите "
    "файл и оцените части (статистики складываются)",
    "quoted_row_width": "{name}: в строке {line} полей {count}, а в заголовке {width} (файл "
    "прочитан как {kind} с кавычками)",
    "quoted_invalid": "{name}: строка {line} не читается как {kind} с кавычками",
    "jsonl_empty_line": "{name}: строка {line} пуста; каждая строка файла JSONL — один объект JSON",
    "jsonl_duplicate_key": "{name}: в строке {line} ключ «{key}» повторяется; дайте каждый ключ "
    "один раз (JSON-читатели оставляют только последнее значение)",
    "jsonl_invalid": "{name}: строка {line} — не JSON",
    "jsonl_too_deep": "{name}: в строке {line} JSON вложен слишком глубоко, его не прочитать",
    "jsonl_not_object": "{name}: строка {line} — не объект JSON с полями `hyp` и `ref`",
    # how an input was read (meteor.io.lines.InputWarning)
    "system_renamed": "{name}: система «{system}» показана как «{shown_system}» (в {other_file} "
    "тоже есть система «{system}»)",
    "csv_quotes_unquoted": '{name}: в строке {line} есть поле в кавычках CSV (`"…""…""…"`, '
    "как их пишет `to_csv` из pandas), но файл не читается как TSV с кавычками; он прочитан без "
    "кавычек, каждое поле — как написано",
    "summary_skipped": "{name}: пропущены строки ({count}): {lines} — это сводка с полем "
    '`"type": "corpus"` без полей `hyp` и `ref` (Meteor 1.5 пишет её последней), а не сегмент',
    # annotation files (meteor.io.spans) and a link's spans (annotation_from_strings)
    "span_severity": "{file}: строка {line}: неизвестная серьёзность «{value}»; допустимы "
    "`No-error`, `Neutral`, `Minor`, `Major`, `Critical` (в любом регистре)",
    "span_format": "не удаётся понять формат разметки {file}: нужен MQM в `.tsv`, пословные метки "
    "QE в `.tags` (с его `.mt`) или фрагменты в `.jsonl`",
    "span_unjoined": "{file}: ни одна из строк разметки ({rows}) не называет сегмент таблицы "
    "(`system` и `seg_id`) с той же гипотезой; пропущено строк, чей текст — не гипотеза: {skipped}",
    "span_mqm_empty": "{file}: файл MQM пуст, а нужна строка заголовка",
    "span_mqm_columns": "{file}: это не файл MQM: нет столбцов `{missing}` (в заголовке: "
    "{header}; нужны `system`, `seg_id`, `rater`, `target`, `category`, `severity`)",
    "span_jsonl_fields": "{file}: в строке {line} нет полей `{missing}`; в каждой строке нужны "
    "поля `system`, `seg_id`, `start`, `end`, `severity`, `category`",
    "span_offset": "{file}: строка {line}: `{field}` должно быть смещением в символах (целым "
    "числом не меньше 0), а не {value}",
    "span_empty": "{file}: строка {line}: пустой фрагмент (`start` {start}, `end` {end}); "
    "фрагмент — это символы [`start`, `end`) при `end` > `start`",
    "span_past_end": "{file}: строка {line}: `end` {end} — за концом гипотезы системы «{system}», "
    "сегмент «{seg_id}» (символов: {length})",
    "span_qe_files": "пословные метки QE: нужен один файл `.tags` (и не больше одного файла "
    "`.mt`), а получено: {file}",
    "span_mt_lines": "в {file} строк {count}, а в {other_file} — {other_count}; они должны идти "
    "парами строка к строке",
    "span_tags_lines": "в {file} строк {count}, а гипотез в таблице сегментов — {hyps}; метки QE "
    "идут парами с гипотезами строка к строке",
    "span_qe_tag": "{file}: строка {line}: неизвестная метка «{tag}»; метки — `OK` и `BAD`",
    "span_tag_count": "{file}: строка {line}: меток {count}, а слов {words} (нужно меток {words}, "
    "или {with_gaps} с метками промежутков)",
    "span_value": "фрагмент {index} («{value}») не в виде `start,end,severity,rater,category`",
    "span_value_severity": "фрагмент {index}: неизвестная серьёзность «{value}»",
    "span_value_offsets": "фрагмент {index}: `start` и `end` должны быть смещениями в символах, а "
    "не «{start}», «{end}»",
    "span_value_range": "фрагмент {index}: [{start}, {end}) пуст или выходит за конец гипотезы "
    "(символов: {length})",
}

#: Per code: the message's template per interface language.
TEMPLATES: dict[str, dict[str, str]] = {code: {"en": "{msg}", "ru": ru} for code, ru in _RU.items()}

#: Where an input is, by its role (``describe_source`` in :mod:`meteor.io.read`), Russian.
WHERE_RU: dict[str, str] = {
    "hyp_file": "в файле гипотез {file}",
    "system": "у системы «{system}» в файле {file}",
    "refs_in": "в эталонах из файла {file}",
    "ref_file": "в файле эталонов {file}",
}

#: The notes some codes add, Russian.
NOTES_RU: dict[str, str] = {
    "last_empty": " (последний из них пустой)",
    "utf16": " (возможно, это UTF-16; сохраните его в UTF-8)",
    # an error without a known code: the library's English text, said to be that
    "english": "подробности (текст библиотеки, по-английски): {msg}",
}
