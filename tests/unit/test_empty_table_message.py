"""A table with a header and no rows: a grammatical message naming the file."""

from __future__ import annotations

import pytest

from meteor.errors import InputError
from meteor.io.read import load_corpus


def test_a_keyed_table_with_only_a_header() -> None:
    """Before: "no segments: the references in hdr.tsv is empty"."""
    with pytest.raises(InputError) as exc:
        load_corpus([("hdr.tsv", b"seg_id\thyp\tref\n")])
    assert str(exc.value) == "no segments: hdr.tsv has no rows (only a header)"


def test_a_reference_file_with_only_a_header() -> None:
    with pytest.raises(InputError) as exc:
        load_corpus([("h.txt", b"a\n")], [("r.tsv", b"seg_id\tref\n")])
    assert "reference file r.tsv" in str(exc.value)
