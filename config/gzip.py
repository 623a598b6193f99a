"""Django's GZip middleware at a lower compression level.

Django compresses at level 6, fixed. For the text this app answers (HTML tables, SVG maps, the
export's JSON) level 1 takes a quarter of the time for answers 15–25 % larger: 0.14 against
0.56 ms for the demo's export (77 KiB → 8.6 against 6.8 KiB), ~0.8 against ~2 ms for a
perimeter map (docs/performance.md, "eighth round"). A club's small server feels the time; a
phone on the table's Wi-Fi does not feel a few KiB. Level 1 is also nginx's default.

Everything else is Django's: the short answers left alone, ``Vary: Accept-Encoding``, the
strong ETag made weak, and the random padding of every compressed answer (Django 4.2's "Heal
the BREACH"; docs/decisions.md, "GZip").
"""

from __future__ import annotations

import gzip
import secrets
from collections.abc import Iterable, Iterator

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.middleware.gzip import re_accepts_gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import StreamingBuffer

LEVEL = 1


class GZipMiddleware(DjangoGZipMiddleware):
    """``django.middleware.gzip.GZipMiddleware``'s ``process_response`` step by step, the
    compression at ``LEVEL``."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.streaming and response.is_async:  # none here (WSGI): Django's, level 6
            return super().process_response(request, response)
        if not response.streaming and len(response.content) < 200:  # type: ignore[attr-defined]
            return response
        if response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        if response.streaming:
            response.streaming_content = compress_sequence(  # type: ignore[attr-defined]
                response.streaming_content,  # type: ignore[attr-defined]
                self.max_random_bytes,
            )
            del response.headers["Content-Length"]  # not known until it is all sent
        else:
            compressed = compress(response.content, self.max_random_bytes)  # type: ignore[attr-defined]
            if len(compressed) >= len(response.content):  # type: ignore[attr-defined]
                return response
            response.content = compressed  # type: ignore[attr-defined]
            response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):  # a strong ETag made weak (RFC 9110 8.8.1)
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response


def _padding(max_random_bytes: int) -> bytes:
    """The header's file name of random length ("Heal the BREACH"), as Django's."""
    return b"a" * secrets.randbelow(max_random_bytes)


def compress(text: bytes, max_random_bytes: int) -> bytes:
    """``django.utils.text.compress_string`` at ``LEVEL``."""
    compressed = memoryview(gzip.compress(text, compresslevel=LEVEL, mtime=0))
    header = bytearray(compressed[:10])
    header[3] = gzip.FNAME
    return bytes(header) + _padding(max_random_bytes) + b"\x00" + compressed[10:]


def compress_sequence(pieces: Iterable[bytes], max_random_bytes: int) -> Iterator[bytes]:
    """``django.utils.text.compress_sequence`` at ``LEVEL``: each piece sent as compressed."""
    buffer = StreamingBuffer()
    with gzip.GzipFile(
        filename=_padding(max_random_bytes), mode="wb", compresslevel=LEVEL, fileobj=buffer, mtime=0
    ) as zipped:
        yield buffer.read()  # the header
        for piece in pieces:
            zipped.write(piece)
            data = buffer.read()
            if data:
                yield data
    yield buffer.read()
