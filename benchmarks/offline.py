"""Benchmarks run offline: connections outside 127.0.0.1 raise (a peer that would fetch a
suffix list or a page fails loudly instead of timing the network)."""

from __future__ import annotations

import os
import socket
from typing import Any


def no_network(name: str) -> None:
    """Refuse connections outside 127.0.0.1 for the rest of the process; tldextract
    (newspaper4k) reads its bundled suffix list. ``name`` goes in the error message."""
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "localhost", "::1") and "/" not in host:
            raise OSError(f"{name}: no network ({host})")
        return connect(self, address)

    socket.socket.connect = guarded  # type: ignore[method-assign,assignment]
