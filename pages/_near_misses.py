"""Inspect's near-miss table (the Explanation record's ``near_misses``), sized to fit the
page at 1,366 px with the sidebar open; each stage's detail and the presets with that stage
are listed, whole, under the table."""

from __future__ import annotations

import streamlit as st

from meteor.analysis.explain.record import Explanation
from pages._i18n import Translator, freeze, module_label, num, signed
from pages._match_details import detail_text
from pages._widgets import BORDER_PX, ROW_PX, md_escape

NEAR_STRINGS = freeze(
    {
        "near_title": {"en": "Near misses", "ru": "Почти совпадения"},
        "near_caption": {
            "en": "Unmatched words that another stage, stemmer or the aligner's other choice "
            "would have matched, and the score with that match added (chunks recounted).",
            "ru": "Слова без пары, которые сопоставил бы другой этап, другой стеммер или иной "
            "выбор выравнивателя, и оценка с этим совпадением (фрагменты пересчитаны).",
        },
        "no_near": {
            "en": "No near misses: no other stage would match the unmatched words.",
            "ru": "Других совпадений нет: ни один этап не сопоставил бы оставшиеся слова.",
        },
        "near_all_matched": {
            "en": "Every word is matched: there is no unmatched word for another stage to match.",
            "ru": "Все слова сопоставлены: другому этапу нечего сопоставлять.",
        },
        "near_details": {
            "en": "Each near miss: the stage's detail and the presets with this stage",
            "ru": "Каждое почти совпадение: подробности этапа и пресеты с этим этапом",
        },
        "near_detail_line": {
            "en": "- **{stage}** · {hyp} → {ref}: {detail}; presets with this stage: {presets}",
            "ru": "- **{stage}** · {hyp} → {ref}: {detail}; пресеты с этим этапом: {presets}",
        },
        "reason_not_chosen": {
            "en": "proposed, not chosen by the aligner",
            "ru": "предложено, но не выбрано выравнивателем",
        },
        "reason_stage_off": {"en": "stage not enabled", "ru": "этап выключен"},
        "reason_stemmer": {"en": "other stemmer ({stemmer})", "ru": "другой стеммер ({stemmer})"},
        "col_if": {"en": "score if matched", "ru": "оценка"},
        "col_gain": {"en": "gain", "ru": "прирост"},
        "col_why": {"en": "why not matched", "ru": "почему нет"},
    }
)
#: The table's ``t``: its strings, then the shared ones (pages._i18n.STRINGS).
t = Translator(NEAR_STRINGS)

#: The near-miss table's column widths in pixels: together 900, within the 904 px the page
#: has at 1,366 px with the sidebar open.
NEAR_WIDTHS = {"stage": 110, "hyp": 110, "ref": 110, "why": 360, "score": 130, "gain": 80}
#: Pixels a wrapped line of a table cell takes (14 px text) and the cell's padding.
LINE_PX, CELL_PAD_PX = 21, 17
#: Average width of a character of a table cell, for the wrapped lines of a text.
CHAR_PX = 7.0


def cell_lines(text: str, width_px: int) -> int:
    """About how many lines ``text`` wraps to in a table column ``width_px`` wide."""
    per_line = max(int((width_px - CELL_PAD_PX) / CHAR_PX), 1)
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > per_line:
            lines, used = lines + 1, len(word)
        else:
            used += len(word) + (1 if used else 0)
    return lines


def near_row_height(rows: list[dict[str, str]], widths: dict[str, int]) -> int | None:
    """The table's row height: the default (None) when every cell fits one line, else tall
    enough for the longest cell's lines (Streamlit wraps cell text above 64 px)."""
    lines = max((cell_lines(str(v), widths[k]) for row in rows for k, v in row.items()), default=1)
    return None if lines == 1 else max(70, lines * LINE_PX + 14)


def show_near_misses(why: Explanation) -> None:
    """Matches another stage, stemmer or alignment choice would make: ``near_misses`` (the
    reason wraps in its cell; with no unmatched word, "every word is matched")."""
    st.markdown(f"**{t('near_title')}**")
    if not why.near_misses:
        st.caption(t("near_all_matched" if not why.word_costs else "no_near"))
        return
    st.caption(t("near_caption"))
    keyed = [
        {
            "stage": module_label(n.match.module),
            "hyp": " ".join(n.match.hyp_words),
            "ref": " ".join(n.match.ref_words),
            "why": t(f"reason_{n.reason}", stemmer=n.stemmer),
            "score": num(n.score_if_added),
            "gain": signed(n.gain),
        }
        for n in why.near_misses
    ]
    heads = {"stage": "col_stage", "hyp": "hypothesis", "ref": "reference", "why": "col_why",
             "score": "col_if", "gain": "col_gain"}  # fmt: skip
    height = near_row_height(keyed, NEAR_WIDTHS)
    st.dataframe(
        [{t(heads[k]): v for k, v in row.items()} for row in keyed],
        hide_index=True,
        width="content",
        row_height=height,
        height=(height or ROW_PX) * len(keyed) + ROW_PX + BORDER_PX,
        column_config={
            t(heads[k]): st.column_config.TextColumn(t(heads[k]), width=w)
            for k, w in NEAR_WIDTHS.items()
        },
        key="near",
    )
    with st.expander(t("near_details")):
        st.markdown(
            "\n".join(
                t(
                    "near_detail_line",
                    stage=module_label(n.match.module),
                    hyp=md_escape(" ".join(n.match.hyp_words)),
                    ref=md_escape(" ".join(n.match.ref_words)),
                    detail=md_escape(detail_text(n.match) or "—"),
                    presets=md_escape(", ".join(n.presets)) or "—",
                )
                for n in why.near_misses
            )
        )
