"""Visible text of an AppTest run, and the Latin-script words in it (issue #16).

The Russian interface may show Latin script only for proper names, codes (preset,
language and parameter names, file formats, command-line flags, file names), the
signature (``st.code``), formulas (``st.latex``, METEOR's own notation) and data
(the texts being scored and the example sentences).  Everything else a Russian
user reads must be Russian.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from meteor.languages import available_languages
from meteor.presets import preset_names
from pages._pair import EXAMPLES

#: Proper names, abbreviations and METEOR's notation allowed in the Russian UI.
ALLOWED = {
    # names of tools, resources, people
    "METEOR", "Meteor", "NLTK", "WordNet", "Porter", "porter", "Snowball", "snowball",
    "pymorphy", "pymorphy3", "navec", "razdel", "natasha", "wiki-ru-wordnet", "RuWordNet",
    "Java", "X-Ray", "sacreBLEU", "Koehn", "Banerjee", "Lavie", "Kendall", "Shapley", "HF",
    "evaluate", "Streamlit", "Plotly", "Tableau", "pycocoevalcap", "Universal", "pandas",
    # abbreviations and formats
    "JSON", "JSONL", "CSV", "TSV", "HTML", "URL", "README", "UTF", "MQM", "WMT21", "WMT",
    "TED", "UI", "ID", "id", "MB", "F1", "QE", "BOM", "UTF-8",
    # the tags of WMT's QE word-level format
    "OK", "BAD",
    # stemmer codes (Language.stemmers; Buckwalter Arabic's is the jar's lookup "table")
    "table",
    # METEOR's notation (as in the papers and the signature)
    "Fmean", "Pen", "frag", "PR",
}  # fmt: skip

_CODE_SPAN = re.compile(r"`[^`]*`")
_TAG = re.compile(r"<[^>]*>")
_STYLE = re.compile(r"<style>.*?</style>", re.S)  # CSS, not text (its drawn texts: Chromium test)
_PLACEHOLDER = re.compile(r"%\{[^}]*\}")
_PATH = re.compile(r"\S*[/\\]\S*|\S*\.(?:py|md|txt|tsv|jsonl|ndjson|json|out|words|csv|html)\b")
_FLAG = re.compile(r"(?<![\w-])-[A-Za-z]\w*")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:[-'’][A-Za-z0-9_]+)*")

#: proto fields that hold no visible text
_SKIP_FIELDS = {
    "id", "form_id", "spec", "data", "default", "value", "query_param_key", "type", "icon",
    "url", "theme", "arrow_data", "styler", "column_config", "columns", "deferred_file_id",
    "selection_mode", "key", "page_script_hash", "mime", "file_name", "tag",
}  # fmt: skip


def _proto_strings(msg: Any, out: list[str]) -> None:
    from google.protobuf.message import Message

    for fd, val in msg.ListFields():
        if fd.name in _SKIP_FIELDS:
            continue
        vals = list(val) if fd.is_repeated else [val]
        if fd.type == fd.TYPE_STRING:
            out.extend(vals)
        elif fd.type == fd.TYPE_MESSAGE:
            for v in vals:
                if isinstance(v, Message):
                    _proto_strings(v, out)


def _plotly_strings(spec: dict[str, Any], out: list[str]) -> None:
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) and trace.get("type") != "heatmap" and "name" in trace:
            out.append(str(trace["name"]))
        if isinstance(trace.get("hovertemplate"), str):
            out.append(trace["hovertemplate"])
    layout = spec.get("layout", {})

    def titles(o: Any) -> Iterator[str]:
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "title" and isinstance(v, dict) and isinstance(v.get("text"), str):
                    yield v["text"]
                elif k == "title" and isinstance(v, str):
                    yield v
                elif k == "annotations" and isinstance(v, list):
                    yield from (a["text"] for a in v if isinstance(a.get("text"), str))
                else:
                    yield from titles(v)

    out.extend(titles(layout))


def visible_strings(at: Any, section: str | None = None) -> list[str]:
    """Labels, help, options, captions, messages, table headers and chart texts shown
    (``section``: only those of the section whose heading holds it, up to the next heading)."""
    from streamlit.testing.v1.element_tree import Block, Code, Dataframe, HeadingBase, Latex, Text

    out: list[str] = []
    nodes = list(at._tree)
    if section is not None:
        k = next(
            k for k, n in enumerate(nodes) if isinstance(n, HeadingBase) and section in n.value
        )
        end = next((j for j in range(k + 1, len(nodes)) if isinstance(nodes[j], HeadingBase)), None)
        nodes = nodes[k:end]
    for node in nodes:
        if isinstance(node, Code | Latex | Text):
            continue  # signature and commands; formulas; data (the example sentences)
        if node.type == "plotly_chart":
            _plotly_strings(json.loads(node.proto.spec), out)
            continue
        if isinstance(node, Dataframe):
            config = json.loads(node.proto.columns or "{}")
            for c in node.value.columns:
                out.append(str(config.get(str(c), {}).get("label", c)))
            continue
        proto = getattr(node, "proto", None)
        if proto is not None:
            _proto_strings(proto, out)

    def blocks(b: Any) -> None:
        if isinstance(b, Block):
            if getattr(b, "proto", None) is not None:
                _proto_strings(b.proto, out)
            for c in b.children.values():
                blocks(c)

    if section is None:
        blocks(at._tree)
    return out


def _data_words() -> set[str]:
    words: set[str] = set()
    for e in EXAMPLES:
        words.update(_WORD.findall(f"{e.hyp} {e.ref}"))
    return words


def latin_words(at: Any, *, data: set[str] | frozenset[str] = frozenset()) -> dict[str, str]:
    """Latin-script words outside the allow-list → the text they were found in."""
    return latin_words_in(visible_strings(at), data=data)


def latin_words_in(
    texts: list[str], *, data: set[str] | frozenset[str] = frozenset()
) -> dict[str, str]:
    """Latin-script words of ``texts`` (e.g. a browser's ``innerText``) outside the
    allow-list → the text they were found in."""
    codes = sorted({*preset_names(), *available_languages()}, key=len, reverse=True)
    langs = set(available_languages())
    allowed = ALLOWED | _data_words() | set(data) | langs | {c.upper() for c in langs}
    found: dict[str, str] = {}
    for text in texts:
        s = _PLACEHOLDER.sub(" ", _TAG.sub(" ", _CODE_SPAN.sub(" ", _STYLE.sub(" ", text))))
        for code in codes:
            s = re.sub(rf"(?<![\w-]){re.escape(code)}(?![\w-])", " ", s)
        s = _FLAG.sub(" ", _PATH.sub(" ", s))
        for w in _WORD.findall(s):
            if len(w) == 1 or w in allowed or "_" in w:
                continue
            if all(part in allowed for part in re.split(r"[-'’]", w)):
                continue  # e.g. en-ru
            found.setdefault(w, text[:120])
    return found
