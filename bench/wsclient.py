"""A Streamlit session spoken over the real websocket protocol, without a browser (bench only).

As the browser does on ``/_stcore/stream``, :class:`WsSession` sends ``BackMsg`` protobufs
(``rerun_script`` with the page, the query string, the widgets' values and the widget's
fragment) and reads ``ForwardMsg`` ones (``new_session``, ``navigation``, the ``delta``
elements, ``script_finished``), with Streamlit's own protobuf classes: the server does a
browser's whole work while the client costs a few milliseconds of CPU per rerun
(docs/app-load.md).  It reads back the text areas and the ``st.metric`` values, so a
benchmark can type a pair and wait until the score card shows ``meteor.score``'s number.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg


class WsSession:
    """One app session over a websocket (an ``appserver.Session``): rerun with widget values,
    wait for what is shown."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.ws: Any = None
        self.page_hash = ""
        self.query = ""
        self.widgets: dict[str, tuple[str, str]] = {}  # label -> (widget id, fragment id)
        self.values: dict[str, str] = {}  # widget id -> the value this client set
        self.metrics: dict[str, str] = {}  # label -> text shown
        self.finished = 0  # script_finished messages received
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.error: str | None = None

    async def connect(self, timeout: float) -> float:
        """Open the session and run the first page; seconds until its script finished."""
        t0 = time.perf_counter()
        self.ws = await asyncio.wait_for(
            websockets.connect(self.url, subprotocols=["streamlit"], max_size=None), timeout
        )
        self._reader = asyncio.create_task(self._read())
        await self._send_rerun([], "")
        await self.wait(lambda: self.finished >= 1 and "METEOR" in self.metrics, timeout)
        return time.perf_counter() - t0

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = ForwardMsg()
                msg.ParseFromString(raw)
                self._apply(msg)
                self._changed.set()
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self._changed.set()

    def _apply(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.page_hash = msg.new_session.page_script_hash or self.page_hash
        elif kind == "navigation":
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "script_finished":
            self.finished += 1
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            which = el.WhichOneof("type")
            if which == "text_area":
                self.widgets[el.text_area.label] = (el.text_area.id, msg.delta.fragment_id)
            elif which == "metric":
                self.metrics[el.metric.label] = el.metric.body

    async def _send_rerun(self, states: list[tuple[str, str]], fragment_id: str) -> None:
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = self.page_hash
        if fragment_id:
            cs.fragment_id = fragment_id
        for wid, value in states:
            w = cs.widget_states.widgets.add()
            w.id = wid
            w.string_value = value
        await self.ws.send(back.SerializeToString())

    async def type_text(self, label: str, text: str) -> None:
        """What a browser sends when a text area's new value is committed (Ctrl+Enter)."""
        wid, fragment = self.widgets[label]
        self.values[wid] = text
        await self._send_rerun(list(self.values.items()), fragment)

    async def shown(self) -> str | None:
        return self.metrics.get("METEOR")

    async def edit(
        self, box: str, text: str, expected: str | None, timeout: float
    ) -> tuple[float, float]:
        old = self.metrics.get("METEOR")
        before = self.finished
        t0 = time.perf_counter()
        await self.type_text(box, text)
        if expected is None:
            await self.wait(lambda: self.metrics.get("METEOR") != old, timeout)
        else:
            await self.wait(lambda: self.metrics.get("METEOR") == expected, timeout)
        shown = time.perf_counter() - t0
        await self.wait(lambda: self.finished > before, timeout)
        return shown, time.perf_counter() - t0

    async def wait(self, cond: Any, timeout: float) -> None:
        """Until ``cond()`` holds (checked after each message); TimeoutError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not cond():
            if self.error is not None:
                raise ConnectionError(self.error)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self._changed.clear()
            await asyncio.wait_for(self._changed.wait(), left)
