"""What AppTest's download buttons serve: the bytes behind a button's URL."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import urlparse

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


class Storages:
    """Every media store AppTest makes (one per run): a download's bytes are there."""

    made: list[MemoryMediaFileStorage] = []

    @classmethod
    def install(cls, monkeypatch: pytest.MonkeyPatch) -> None:
        real = MemoryMediaFileStorage

        def make(endpoint: str) -> MemoryMediaFileStorage:
            store = real(endpoint)
            cls.made.append(store)
            return store

        monkeypatch.setattr("streamlit.testing.v1.app_test.MemoryMediaFileStorage", make)

    @classmethod
    def content(cls, url: str) -> bytes:
        name = PurePosixPath(urlparse(url).path).name
        return bytes(cls.made[-1].get_file(name).content)
