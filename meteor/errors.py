"""Every public exception of the library, in one module that imports only the standard library.

Low-level modules raise them without importing upward; the old import paths
(``meteor.params.ParamError``, ...) re-export them.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "INPUT_CODES",
    "SHOWN_CHARS",
    "CacheSpaceError",
    "CandidateLimitError",
    "ClusterError",
    "InputError",
    "ParamError",
    "ResourceError",
    "SettingsMismatchError",
    "StagewiseSearchError",
    "shown",
]


#: The machine-readable reasons (``exc.code``) an :class:`InputError` or :class:`ParamError`
#: (or ``meteor.io.lines.InputWarning``) may carry, with the names of their ``exc.params``,
#: from which a user interface writes the message in its own language.
INPUT_CODES: dict[str, tuple[str, ...]] = {
    "too_large": ("name", "size", "limit"),
    "nul_byte": ("name", "line", "utf16"),
    "lone_surrogate": ("name", "line", "codepoint"),
    "not_utf8": ("name", "line", "byte", "column"),
    "too_many_segments": ("name", "count", "limit"),
    "count_mismatch": (
        "role",
        "file",
        "system",
        "count",
        "last_empty",
        "other_role",
        "other_file",
        "other_system",
        "other_count",
        "other_last_empty",
    ),  # fmt: skip
    "no_segments": ("role", "file", "system"),
    "system_count_mismatch": ("name", "system", "count", "other_system", "other_count"),
    "system_refs_mismatch": ("system", "count", "refs"),
    "preset_not_utf8": ("file", "byte", "position"),
    "preset_not_json": ("file", "line", "column"),
    "preset_too_deep": ("file",),
    "no_text_column": ("name", "columns"),
    "segment_refs_differ": ("name", "line", "seg_id", "other_line"),
    # TSV, CSV and JSONL rows (meteor.io.rows)
    "table_empty": ("name", "kind"),
    "header_repeats": ("name", "columns"),
    "row_width": ("name", "line", "count", "width", "header"),
    "too_many_rows": ("name", "limit"),
    "quoted_row_width": ("name", "line", "count", "width", "kind"),
    "quoted_invalid": ("name", "line", "kind"),
    "jsonl_empty_line": ("name", "line"),
    "jsonl_duplicate_key": ("name", "line", "key"),
    "jsonl_invalid": ("name", "line"),
    "jsonl_too_deep": ("name", "line"),
    "jsonl_not_object": ("name", "line"),
    # how an input was read (meteor.io.lines.InputWarning, raised by notice())
    "system_renamed": ("name", "system", "shown_system", "other_file"),
    "csv_quotes_unquoted": ("name", "line"),
    "summary_skipped": ("name", "lines", "count"),
    # annotation files (meteor.io.spans.read_spans) and a link's spans (annotation_from_strings)
    "span_severity": ("file", "line", "value"),
    "span_format": ("file",),
    "span_unjoined": ("file", "rows", "skipped"),
    "span_mqm_empty": ("file",),
    "span_mqm_columns": ("file", "missing", "header"),
    "span_jsonl_fields": ("file", "line", "missing"),
    "span_offset": ("file", "line", "field", "value"),
    "span_empty": ("file", "line", "start", "end"),
    "span_past_end": ("file", "line", "end", "system", "seg_id", "length"),
    "span_qe_files": ("file",),
    "span_mt_lines": ("file", "count", "other_file", "other_count"),
    "span_tags_lines": ("file", "count", "hyps"),
    "span_qe_tag": ("file", "line", "tag"),
    "span_tag_count": ("file", "line", "count", "words", "with_gaps"),
    "span_value": ("index", "value"),
    "span_value_severity": ("index", "value"),
    "span_value_offsets": ("index", "start", "end"),
    "span_value_range": ("index", "start", "end", "length"),
}

#: Longest value a message quotes (:func:`shown`): a 400-digit number is cut, not printed.
SHOWN_CHARS = 40


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters with an ellipsis and the
    whole length (``'xxx…[100,002 characters]'``) when longer."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int beyond Python's digit limit, a deep list
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[: max(1, limit - 1)]}…[{len(text):,} characters]"


def _rebuild(cls: type[_CodedError], message: str, code: str | None, params: dict[str, Any]) -> Any:
    """Unpickle a :class:`_CodedError` exception (``params`` are keyword arguments)."""
    return cls(message, code, **params)


class _CodedError(ValueError):
    """A message with an optional machine-readable reason: ``code`` (one of
    :data:`INPUT_CODES`) and the values it names (``params``); ``str(exc)`` is the message."""

    def __init__(self, message: str = "", code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (_rebuild, (type(self), str(self), self.code, self.params))


class ParamError(_CodedError):
    """An invalid parameter; the message names the field and its range.

    A preset file that cannot be read carries a ``code`` (:data:`INPUT_CODES`)."""


class ResourceError(RuntimeError):
    """A language resource is missing; the message says what to install."""


class CacheSpaceError(ResourceError):
    """The cache folder, and the temporary folder tried after it, have no room for a file
    that must be written there; the message names the folder and the space needed."""


class CandidateLimitError(ValueError):
    """A pair has more candidate matches than the caller's limit (:attr:`MatchContext.limit`;
    a word repeated n times on both sides gives n² candidates).  The message says which
    limit it was and how to raise it (``hint``, given by the caller that set it).
    """

    def __init__(self, found: int, limit: int, module: str, hint: str | None = None) -> None:
        tail = hint or "split the texts into several segments"
        super().__init__(
            f"this pair has at least {found:,} candidate matches (counted up to the {module} "
            f"stage), more than the {limit:,} accepted per hypothesis-reference pair -- "
            f"{tail}"
        )
        self.found = found
        self.limit = limit
        self.module = module
        self.hint = hint

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (type(self), (self.found, self.limit, self.module, self.hint))


class InputError(_CodedError):
    """Input that cannot be read as segments; the message says where and why.

    ``InputError(message, code=..., **params)``: the common problems carry a ``code``
    (:data:`INPUT_CODES`) and its ``params``; ``str(exc)`` is always the English message.
    """


class SettingsMismatchError(ValueError):
    """Results made with different settings were to be combined; the message shows both."""


class StagewiseSearchError(RuntimeError):
    """The exact search exceeded its state budget: the pair is too ambiguous.

    Raised rather than returning an alignment that might not be optimal; pass a
    larger ``max_nodes`` (or ``None``) to :func:`meteor.aligners.stagewise.align_stagewise`
    to insist.

    Attributes:
        explored: search states explored by the call when it stopped.
        limit: the ``max_nodes`` it was given.
    """

    def __init__(self, message: str, explored: int, limit: int) -> None:
        super().__init__(message)
        self.explored = explored
        self.limit = limit


class ClusterError(RuntimeError):
    """The cluster cannot do the run; the message says why and what to do."""
