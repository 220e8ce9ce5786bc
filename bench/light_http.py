"""A light HTTP/1.1 client for the load generators of ``bench/``: kept-alive connections
to one server, a request at a time on each, answers read by their length.

A load generator shares the machine's cores with the server it measures, so what it
spends is taken from the server: a general client (httpx) spends about a millisecond of
CPU a request, this one a tenth of that. It speaks only what ``yatzy serve`` answers:
HTTP/1.1 with ``Content-Length`` (no chunked bodies, no redirects, no TLS).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


class Connection:
    """One kept-alive connection, as a browser holds to a site."""

    def __init__(self, url: str) -> None:
        host, port = url.split("://", 1)[1].rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: Any = None) -> tuple[int, bytes]:
        """``(status, body)`` of the answer to ``method path`` (``body`` sent as JSON);
        the connection is opened again when the server had closed it."""
        if self.writer is None or self.writer.is_closing():
            await self.open()
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        line = await self.reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        status = int(line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Pool:
    """``size`` kept-alive connections to one server, each lent to one request at a
    time (as many browsers' connections would be)."""

    def __init__(self, url: str, size: int) -> None:
        self._free: asyncio.Queue[Connection] = asyncio.Queue()
        self._all = [Connection(url) for _ in range(size)]
        for connection in self._all:
            self._free.put_nowait(connection)

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: Any = None) -> tuple[int, bytes]:
        connection = await self._free.get()
        try:
            return await connection.request(method, path, headers, body)
        except BaseException:
            connection.close()  # its state is unknown: the next request opens it again
            raise
        finally:
            self._free.put_nowait(connection)

    def close(self) -> None:
        for connection in self._all:
            connection.close()
