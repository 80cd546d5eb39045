"""``report --word-counts``: a word on two lines and an empty file are refused; the case
forms of a word, added together, are said."""

from __future__ import annotations

import pytest

from meteor.errors import InputError
from meteor.io.labels import read_word_counts
from meteor.io.lines import InputWarning


def test_a_word_given_twice_is_refused() -> None:
    with pytest.raises(
        InputError, match=r"wc\.txt: the word 'the' is on lines 1 and 3; give each word once"
    ):
        read_word_counts(b"the\t3\ncat\t1\nthe\t2\n", "wc.txt")


@pytest.mark.parametrize("data", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_an_empty_word_counts_file_is_refused(data: bytes) -> None:
    with pytest.raises(InputError, match=r"wc\.txt: no word counts \(the file is empty\)"):
        read_word_counts(data, "wc.txt")


def test_case_forms_are_added_and_said() -> None:
    with pytest.warns(
        InputWarning, match=r"1 word\(s\) are written in several cases \(such as 'The', 'the'\)"
    ):
        counts = read_word_counts(b"The\t3\nthe\t2\ncat 1\n", "wc.txt")
    assert counts == {"the": 5, "cat": 1}


def test_a_non_ascii_digit_count_is_refused() -> None:
    with pytest.raises(InputError, match="line 1 is not 'word<TAB>count'"):
        read_word_counts("the\t３\n".encode(), "wc.txt")
