"""Is a Dask scheduler there? A check of a ``tcp://`` address before ``distributed`` connects.

``distributed`` waits for ever on a silent server and allocates whatever length the
first 8 bytes of a garbage answer give; :func:`probe_scheduler` names what answered
instead, as a :class:`~meteor.errors.ClusterError` (:func:`unreachable`,
:func:`not_a_scheduler`, whose messages the client uses too).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time

from meteor.errors import ClusterError

__all__ = ["not_a_scheduler", "probe_scheduler", "unreachable"]

#: Most bytes of a Dask handshake (a scheduler sends about 60 at once on connecting).
_HANDSHAKE_MAX = 1 << 16


def unreachable(address: str, timeout: float, what: str) -> ClusterError:
    """The error for a scheduler that cannot be reached, saying ``what`` happened."""
    return ClusterError(
        f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({what}); "
        "start one with `dask scheduler` and give the address it prints"
    )


def not_a_scheduler(address: str, what: str) -> ClusterError:
    """The error for an address where something other than a scheduler answered."""
    return ClusterError(
        f"{address} is not a Dask scheduler ({what}); give the address `dask scheduler` "
        "prints (tcp://HOST:8786 by default)"
    )


def probe_scheduler(address: str, deadline: float, timeout: float) -> None:
    """Check that a Dask scheduler answers at a ``tcp://`` address, before ``distributed``
    connects (module docstring).

    On connecting, a scheduler sends its handshake at once: an 8-byte little-endian
    length, then that many bytes (frame count, frame lengths, a msgpack map with
    ``python``, ``pickle-protocol``, ``compression``).  Anything else is named: nothing
    listening, no answer (after a plain HTTP request too), an HTTP server (e.g. the
    dashboard, port 8787), or other bytes.  Other schemes (``tls://``, …) are left to
    the client (``meteor.runners.cluster.client._client_within``).

    Raises:
        ClusterError: the address and what answered there.
    """
    where = _tcp_host_port(address)
    if where is None:
        return
    host, port = where
    sock = _connect_until(address, host, port, deadline, timeout)
    with sock:
        _check_handshake(sock, address, host, deadline, timeout)


def _tcp_host_port(address: str) -> tuple[str, int] | None:
    """The host and port of a ``tcp://`` address (None for another scheme)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, loc = parse_address(address)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(loc, 8786)
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"the Dask address {address!r} is not valid ({exc})") from None
    return host, port


def _connect_until(
    address: str, host: str, port: int, deadline: float, timeout: float
) -> socket.socket:
    """A connection to host:port; a refused one is retried until the deadline."""
    refused: OSError | None = None
    while True:  # a scheduler that is starting: retry until the deadline
        left = deadline - time.monotonic()
        if left <= 0:
            why = "connection refused" if refused is not None else "no time left"
            raise unreachable(address, timeout, f"{why}: nothing listens there")
        try:
            return socket.create_connection((host, port), timeout=left)
        except ConnectionRefusedError as exc:
            refused = exc
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
        except TimeoutError:
            raise unreachable(address, timeout, "no answer to the connection") from None
        except OSError as exc:
            raise unreachable(address, timeout, f"{exc.strerror or exc}") from None


def _read(sock: socket.socket, n: int, until: float) -> bytes:
    """Up to ``n`` bytes, as many as arrive before ``until``."""
    data = b""
    while len(data) < n:
        left = until - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(data))
        except OSError:  # a timeout too
            break
        if not chunk:
            break
        data += chunk
    return data


def _check_handshake(
    sock: socket.socket, address: str, host: str, deadline: float, timeout: float
) -> None:
    """Read the scheduler's handshake; name whatever else answers."""
    # Half the time for the handshake; then an HTTP request, to say what is silent.
    first = _read(sock, 8, time.monotonic() + (deadline - time.monotonic()) / 2)
    if not first:  # a scheduler would have spoken; an HTTP server waits for a request
        with contextlib.suppress(OSError):
            sock.sendall(
                b"GET / HTTP/1.0\r\nHost: " + host.encode("ascii", "replace") + b"\r\n\r\n"
            )
        first = _read(sock, 8, deadline)
    if not first:
        raise unreachable(
            address, timeout, "no answer: something accepted the connection but sent nothing"
        )
    if first.startswith(b"HTTP/"):
        raise not_a_scheduler(address, "an HTTP server answered there")
    if first.startswith((b"<", b"SSH-")) or len(first) < 8:
        raise not_a_scheduler(address, f"it answered {_shown(first)}")
    (size,) = struct.unpack("<Q", first)
    if not 16 <= size <= _HANDSHAKE_MAX:
        raise not_a_scheduler(address, f"it answered {_shown(first)}")
    body = _read(sock, size, deadline)
    if len(body) < size:
        raise unreachable(address, timeout, "the handshake stopped half-way")
    if b"pickle-protocol" not in body or b"python" not in body:
        raise not_a_scheduler(address, f"it answered {_shown(first + body)}")


def _shown(data: bytes) -> str:
    """The first bytes of an answer, printable (never more than 24)."""
    text = data[:24].decode("latin-1")
    return (
        "'"
        + "".join(c if " " <= c <= "~" else "." for c in text)
        + ("…'" if len(data) > 24 else "'")
    )
