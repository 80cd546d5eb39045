"""Russian texts of the presets and languages for the sidebar (data only, no Streamlit).

English texts are the library's own (``Preset.description`` and ``reproduces``); a preset
missing here gets a Russian description built from its parameters
(``pages._settings.preset_description``).
"""

from __future__ import annotations

#: preset name -> (description, what it reproduces); commands and names stay as they are.
PRESET_TEXTS_RU: dict[str, tuple[str, str]] = {
    "meteor-1.5": (
        "Meteor 1.5 для английского по умолчанию (задача `rank`): точное совпадение, основа, "
        "синоним, перефразирование.",
        "`java -jar meteor-1.5.jar hyp ref -l en -norm` (WMT, pycocoevalcap)",
    ),
    "meteor-1.5-adq": (
        "Meteor 1.5 для английского, задача `adq` (адекватность перевода).",
        "`meteor-1.5.jar -l en -norm -t adq`",
    ),
    "meteor-1.5-hter": (
        "Meteor 1.5 для английского, задача `hter` (число правок до эталона).",
        "`meteor-1.5.jar -l en -norm -t hter`",
    ),
    "meteor-1.5-li": (
        "Meteor 1.5 для английского, задача `li` (параметры, не зависящие от языка).",
        "`meteor-1.5.jar -l en -norm -t li`",
    ),
    "meteor-1.5-tune": (
        "Meteor 1.5 для английского, задача `tune` (отправная точка для настройки).",
        "`meteor-1.5.jar -l en -norm -t tune`",
    ),
    "meteor-1.5-universal": (
        "Параметры Meteor Universal на английском: только точное совпадение и перефразирование.",
        "`meteor-1.5.jar -l en -norm -t universal`",
    ),
    "meteor-1.5-paper2005": (
        "Формула статьи 2005 года (α 0,9, β 3, γ 0,5, вес каждого этапа 1) на выравнивателе "
        "Meteor 1.5.",
        "`meteor-1.5.jar -l en -norm -p '0.9 3.0 0.5 0.5' -m 'exact stem synonym' "
        "-w '1.0 1.0 1.0'`",
    ),
    "meteor-1.5-paper2005-naive": (
        "Часто цитируемые настройки 2005 года так, как их на деле выполняет Meteor 1.5: "
        "δ = 1 отбрасывает служебные слова, а ключ -p молча даёт синонимам вес 0,6 из "
        "задачи `adq`.",
        "`meteor-1.5.jar -l en -norm -p '0.9 3.0 0.5 1.0' -m 'exact stem synonym'`",
    ),
    "paper-2005": (
        "Banerjee и Lavie (2005): по этапам точное совпадение → основа (Porter) → синоним "
        "(WordNet), на каждом этапе наибольшее сопоставление с наименьшим числом "
        "пересечений, Fmean = 10PR/(R+9P), штраф 0,5·(фрагменты/совпадения)³.",
        "алгоритм статьи 2005 года (исходная реализация не сохранилась)",
    ),
    "nltk": (
        "NLTK 3.10 `nltk.translate.meteor_score` (и `meteor` из HF `evaluate`) со всеми его "
        "особенностями.",
        "`nltk.translate.meteor_score.meteor_score([ref.split()], hyp.split())`",
    ),
    "seed-doc": (
        "Страница документации из исходных материалов: Fmean = 10PR/(R+9P), линейный штраф "
        "0,5·фрагменты/совпадения, пунктуация отбрасывается.",
        "разобранные примеры страницы документации METEOR (0,750 и 0,5)",
    ),
    "meteor-1.5-ru": (
        "Meteor 1.5 для русского так, как работает публичный Meteor 1.5: точное совпадение "
        "и основа (Snowball); служебные слова берутся из его английского списка (без "
        "ключа -s он взвешивает так любой язык).",
        "`meteor-1.5.jar -l ru -norm -m 'exact stem' -w '1.0 0.5'`",
    ),
    "seed-ru": (
        "METEOR из исходного русского ноутбука: нижний регистр и деление по пробелам, "
        "точное совпадение → лемма (pymorphy3) → синоним (wiki-ru-wordnet вместо "
        "скачиваемого в ноутбуке RuWordNet), α 0,9, β 3, γ 0,5, вес каждого этапа 1, с "
        "точным поэтапным оптимумом статьи 2005 года вместо жадного сопоставления "
        "ноутбука. Служебные слова — русский список Meteor 1.5 (при δ 0,5 они меняют "
        "только статистику, не оценку).",
        "`meteor_score(reference, candidate)` исходного ноутбука (002_*.txt)",
    ),
    "seed-ru-emb": (
        "seed-ru и последний этап по векторам navec из ноутбука: ещё не сопоставленные "
        "слова совпадают, если их косинусная близость (новостная модель navec) не меньше 0,4.",
        "метод исходного ноутбука, где соседи по navec стали этапом сопоставления",
    ),
    "ru": (
        "Настроен для русского по оценкам MQM на WMT21 TED en-ru (настройка на нечётных "
        "докладах, проверка на чётных): точное совпадение → лемма → основа → синоним → "
        "эмбеддинг navec (косинус ≥ 0,4) на нормализаторе и лучевом выравнивателе "
        "Meteor 1.5; значимые слова весят 0,9, служебные слова проекта — 0,1; лёгкий "
        "штраф за фрагментацию (γ 0,1).",
        "внешнего инструмента нет: настроен в этом проекте (docs/russian.md, bench/ru_tune.py)",
    ),
}

#: Language codes by their Russian names (the sidebar's list of text languages).
LANGUAGE_NAMES_RU: dict[str, str] = {
    "en": "английский",
    "ru": "русский",
    "de": "немецкий",
    "fr": "французский",
    "cs": "чешский",
    "es": "испанский",
    "it": "итальянский",
    "pt": "португальский",
    "pl": "польский",
    "uk": "украинский",
    "nl": "нидерландский",
    "tr": "турецкий",
    "ar": "арабский",
    "zh": "китайский",
    "ja": "японский",
    "da": "датский",
    "sv": "шведский",
    "ro": "румынский",
    "hu": "венгерский",
    "fi": "финский",
}
