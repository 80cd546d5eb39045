"""No user text becomes markup in any of the report's four human formats.

A system name, a word and a file name that are HTML, a Markdown link and image, a
table pipe and backticks go through :func:`to_markdown`, :func:`to_html`,
:func:`to_latex` and the SVG figures; in each they come out as text only:

* Markdown: no raw ``<`` or ``>`` outside the signature's code span (HTML entities),
  every ``[ ] ( ) ! * _ | `` ` behind a backslash (no link, image, emphasis or extra
  cell), each table row as many cells as its header, and the signature — backticks
  and all — one code span whose content is the signature.
* HTML: only the page's own tags; each hostile string appears escaped.
* LaTeX: every special character escaped.
* SVG (Chromium): each name is one text node, no element from user text.
"""

from __future__ import annotations

import dataclasses
import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import meteor
from meteor.analysis.report_text import latex_escape, to_latex, to_markdown
from meteor.io.read import load_corpus
from meteor.viz.report_html import to_html

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
LINK = "[click](http://evil.example/)"
IMAGE = "![x](http://evil.example/i.png)"
SYSTEMS = {
    SCRIPT: "sys",
    f"{IMG} & `tick` *em* _u_ a|b": "img",
    f"{LINK} {IMAGE} www.evil.example": "link",
}
FILE_NAME = f"{IMG}{LINK}.tsv"
SIGNATURE = "meteor|v:1.5|name:``a`b`` <b>x</b>"
REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "sys": ["the cat <script>alert(1)</script> mat", "a dog ran", "we like tea"],
    "img": ["cat [click](http://evil.example/) mat", "dog park", "green tea ![x](y)"],
    "link": ["the cat sat", "a dog <img src=x onerror=alert(1)> park", "tea"],
}
HOSTILE = [SCRIPT, IMG, LINK, IMAGE, FILE_NAME]


def _upload() -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    for name, key in SYSTEMS.items():
        rows += [
            f"{name}\t{k}\t{h}\t{r}"
            for k, (h, r) in enumerate(zip(HYPS[key], REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


@pytest.fixture(scope="module")
def rep() -> meteor.CorpusReport:
    built = meteor.report(load_corpus([(FILE_NAME, _upload())]), preset="meteor-1.5", n_samples=20)
    assert set(built.systems) == set(SYSTEMS) and FILE_NAME in built.sources
    return dataclasses.replace(built, signature=SIGNATURE)


def _code_spans(line: str) -> tuple[str, list[str]]:
    """``line`` without its code spans (CommonMark: an unescaped run of n backticks
    up to the next run of exactly n), and the spans' contents."""
    out, spans, k = [], [], 0
    while k < len(line):
        if line[k] == "\\":  # an escaped character opens nothing
            out.append(line[k : k + 2])
            k += 2
            continue
        m = re.compile(r"`+").match(line, k)
        if m is None:
            out.append(line[k])
            k += 1
            continue
        n = len(m.group())
        close = re.compile(r"(?<!`)`{" + str(n) + r"}(?!`)").search(line, m.end())
        if close is None:
            out.append(m.group())
            k = m.end()
            continue
        body = line[m.end() : close.start()]
        if body.startswith(" ") and body.endswith(" ") and body.strip():
            body = body[1:-1]
        spans.append(body)
        k = close.end()
    return "".join(out), spans


def _unescaped(text: str, chars: str) -> list[str]:
    """Characters of ``chars`` in ``text`` not behind a backslash."""
    found, k = [], 0
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] in chars:
            found.append(text[k])
        k += 1
    return found


def test_markdown_is_text_only(rep: meteor.CorpusReport) -> None:
    md = to_markdown(rep)
    spans: list[str] = []
    for line in md.splitlines():
        rest, got = _code_spans(line)
        spans += got
        assert "<" not in rest and ">" not in rest, line
        ci = re.sub(r"\[([+-]?\d\.\d{4}|--), ([+-]?\d\.\d{4}|--)\]", "", rest)  # intervals
        assert not _unescaped(ci, "[]!`"), line
        assert not re.search(r"(?<![\\\w])www\.|https?:", rest), line  # no autolink
        if line.startswith("|"):
            assert not _unescaped(rest.split("|", 1)[1], "*_"), line
    assert spans == [SIGNATURE]
    header = None
    for line in md.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = len(_unescaped(line, "|"))
        header = header or cells
        assert cells == header, line
    for text in (SCRIPT, FILE_NAME):
        assert html.escape(text, quote=False).replace("&amp;", "&") not in md  # not raw
    names = {html.unescape(re.sub(r"\\(.)", r"\1", line[4:])) for line in md.splitlines()
             if line.startswith("### ")}  # fmt: skip
    assert set(SYSTEMS) <= names  # each name whole once unescaped


def test_html_is_text_only(rep: meteor.CorpusReport) -> None:
    page = to_html(rep)
    body = page[page.index("<body>") : page.index("<div class='fig'>")]
    tags = set(re.findall(r"<\s*([a-zA-Z][a-zA-Z0-9]*)", body))
    assert tags <= {"body", "h1", "h2", "h3", "p", "code", "table", "tr", "th", "td"}, tags
    for text in (*HOSTILE, SIGNATURE):
        assert html.escape(text) in page or html.escape(text, quote=False) in page, text
    assert SCRIPT not in page.replace("<\\/script>", "")  # nor in a figure's JSON
    assert IMG not in page


def test_latex_is_text_only(rep: meteor.CorpusReport) -> None:
    tex = to_latex(rep)
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    for name in SYSTEMS:
        assert latex_escape(name) in body
    assert latex_escape(SIGNATURE) in body
    stripped = re.sub(r"\\[a-zA-Z]+(\{\})?|\\[&%#$_{}]", "", body).replace("$p<", "")
    stripped = stripped.replace("``Mean seg.''", "")  # the caption's own quotes
    assert not re.search(r"[<>|`~^]", stripped.replace("--", "")), re.findall(
        r".{15}[<>|].{15}", stripped
    )


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")
def test_svg_figures_are_text_only(rep: meteor.CorpusReport) -> None:
    from meteor.viz.figure_files import figure_images
    from meteor.viz.report_figures import report_figures

    svgs = figure_images(report_figures(rep), ["svg"])
    for (name, _fmt), svg in svgs.items():
        root = ET.fromstring(svg)
        tags = {el.tag.rsplit("}", 1)[-1] for el in root.iter()}
        assert not tags & {"script", "img", "a", "foreignObject", "iframe"}, (name, tags)
        texts = {"".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")}
        assert set(SYSTEMS) <= texts, (name, set(SYSTEMS) - texts)
