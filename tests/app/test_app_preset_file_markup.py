"""A preset file's own text (its ``name``, ``tuned_on.data``) is shown as text, never as
Markdown: a hostile file cannot put a remote image or a live link in the sidebar."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from streamlit.testing.v1 import AppTest

from meteor.presets import PRESETS
from pages._input_messages import safe_name
from pages._widgets import code_span, md_escape

HOSTILE_NAME = "![x](http://example.invalid/a.png) [link](http://x)"
HOSTILE_DATA = "[d](http://example.invalid/d) www.example.invalid a@example.invalid"


def _escaped(text: str, k: int) -> bool:
    """Whether ``text[k]`` is backslash-escaped (an odd run of backslashes before it)."""
    run = 0
    while k - run - 1 >= 0 and text[k - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _without_code_spans(md: str) -> str:
    """``md`` with its code spans removed (their content is never a link)."""
    return re.sub(r"(?<!\\)(`+)(?!`).*?(?<!`)\1(?!`)", " ", md, flags=re.S)


def live_links(md: str) -> list[str]:
    """What in ``md`` GitHub-flavoured Markdown would turn into an image or a link:
    an unescaped ``![``/``](``/``<http``, or an autolink (``http://``, ``www.``, ``a@b.c``)."""
    text = _without_code_spans(md)
    found = []
    for m in re.finditer(r"!\[|\]\(|<https?:|https?://|www\.|\w@\w", text):
        start, hit = m.start(), m.group()
        if hit in ("![", "]("):
            key = start + 1 if hit == "![" else start
            if not (_escaped(text, start) or _escaped(text, key)):
                found.append(hit)
        elif hit.startswith("<"):
            if not _escaped(text, start):
                found.append(hit)
        elif hit.startswith("http"):
            colon = start + hit.index(":")
            if not _escaped(text, colon):
                found.append(hit)
        elif hit == "www.":
            if not _escaped(text, start + 3):
                found.append(hit)
        elif not _escaped(text, start + 1):  # a@b
            found.append(hit)
    return found


def _markdown_texts(at: AppTest) -> Iterable[str]:
    """Every text the page renders as Markdown: elements and the labels of metrics."""
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title",
                 "header", "subheader"):  # fmt: skip
        for el in getattr(at, kind):
            yield str(el.value)
    for metric in at.metric:
        yield str(metric.label)


def _doc() -> bytes:
    doc = {"format": "meteor-preset", "version": 1, "name": HOSTILE_NAME, "description": "",
           "params": PRESETS["nltk"].params.to_dict(), "tuned_on": {"data": HOSTILE_DATA}}  # fmt: skip
    return json.dumps(doc).encode("utf-8")


def test_the_detector_finds_what_would_render_as_a_link() -> None:
    assert live_links(HOSTILE_NAME) and live_links(HOSTILE_DATA)
    assert live_links("see http://x") and live_links("a www.x.org") and live_links("me@x.org")
    assert not live_links(code_span(HOSTILE_NAME)) and not live_links("`http://x`")
    assert not live_links(r"\!\[x\]\(y\)") and not live_links(r"http\://x")


def test_escapers_leave_no_image_nor_link() -> None:
    for text in (HOSTILE_NAME, HOSTILE_DATA, "http://a.b/c https://x mailto:a@b.c WWW.x.org"):
        assert not live_links(md_escape(text)), md_escape(text)
        assert not live_links(safe_name(text)), safe_name(text)
        assert not live_links(code_span(text))
    assert code_span("a `b` c") == "``a `b` c``" and code_span("`x`") == "`` `x` ``"


def test_a_hostile_preset_file_name_is_shown_as_text_in_the_sidebar() -> None:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    at.run()
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("hostile.json", _doc(), "application/json")]
    )
    at.run()
    assert not at.exception and not at.error
    shown = [c.value for c in at.sidebar.caption if "example.invalid" in c.value]
    assert shown, "the preset file's name is shown"
    for md in _markdown_texts(at):
        assert not live_links(md), md
    at.run()  # the same file again (the caption of a file already applied)
    assert [c.value for c in at.sidebar.caption if "example.invalid" in c.value] == shown
    for md in _markdown_texts(at):
        assert not live_links(md), md


def test_a_hostile_preset_file_name_is_text_on_every_page() -> None:
    """Compare and its reconcile view name the setting in metric labels (Markdown)."""
    from streamlit.runtime import pages_manager

    pages_manager.PagesManager.uses_pages_directory = False  # stay in app.py's frame
    at = AppTest.from_file("../../app.py", default_timeout=300)
    at.run()
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("hostile.json", _doc(), "application/json")]
    )
    at.run()
    for page in ("pages/compare.py", "pages/learn.py", "pages/inspect.py"):
        at.switch_page(page).run()
        assert not at.exception, page
        labels = [str(m.label) for m in at.metric]
        if page == "pages/compare.py":
            assert any("example.invalid" in x for x in labels), labels  # the file is named
        for md in _markdown_texts(at):
            assert not live_links(md), (page, md)
