"""config.gzip: Django's GZip middleware at level 1, the rest of its behaviour kept."""

from __future__ import annotations

import gzip
import os
import random
import zlib

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from config import gzip as ours

_random = random.Random(7)
TEXT = b"".join(
    b"<tr><td>%s</td><td>%d CPP</td></tr>\n"
    % (_random.choice([b"A1", b"I6", b"G-3", b"Sapper", b"Pz IVF"]), _random.randrange(60))
    for _ in range(4000)
)


def answer(response, accept: str = "gzip, deflate"):
    request = RequestFactory().get("/", headers={"Accept-Encoding": accept})
    return ours.GZipMiddleware(lambda _request: response)(request)


def body(response) -> bytes:
    return b"".join(response) if response.streaming else response.content


def deflated_size(level: int) -> int:
    deflate = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return len(deflate.compress(TEXT) + deflate.flush())


def padding_and_deflated(data: bytes) -> tuple[bytes, bytes]:
    """The header's file name (Django's random padding) and the deflated data after it."""
    assert data[:3] == b"\x1f\x8b\x08"
    if not data[3] & gzip.FNAME:
        return b"", data[10:-8]
    end = data.index(b"\x00", 10)
    return data[10:end], data[end + 1 : -8]


@pytest.mark.parametrize("streaming", [False, True])
def test_an_answer_is_compressed_at_level_1_and_reads_back_the_same(streaming):
    response = (
        StreamingHttpResponse([TEXT[:5000], TEXT[5000:]]) if streaming else HttpResponse(TEXT)
    )
    answered = answer(response)
    data = body(answered)
    assert gzip.decompress(data) == TEXT
    assert answered["Content-Encoding"] == "gzip"
    assert answered["Vary"] == "Accept-Encoding"
    padding, deflated = padding_and_deflated(data)
    assert set(padding) <= {ord("a")} and len(padding) < 100
    # Level 1's deflate, not Django's level 6.
    assert deflated_size(6) < deflated_size(1) - 500
    assert len(deflated) == deflated_size(1)
    if not streaming:
        assert answered["Content-Length"] == str(len(data))
    else:
        assert not answered.has_header("Content-Length")


def test_the_padding_varies_from_answer_to_answer():
    lengths = {len(padding_and_deflated(body(answer(HttpResponse(TEXT))))[0]) for _ in range(20)}
    assert len(lengths) > 1


def test_what_django_leaves_alone_is_left_alone():
    short = answer(HttpResponse(b"x" * 199))
    assert short.content == b"x" * 199 and not short.has_header("Content-Encoding")
    refused = answer(HttpResponse(TEXT), accept="identity")
    assert refused.content == TEXT and refused["Vary"] == "Accept-Encoding"
    assert not refused.has_header("Content-Encoding")
    already = HttpResponse(TEXT)
    already["Content-Encoding"] = "br"
    assert answer(already).content == TEXT
    noise = os.urandom(1000)  # longer once compressed: sent as it is
    assert answer(HttpResponse(noise)).content == noise


def test_a_strong_etag_becomes_weak():
    response = HttpResponse(TEXT)
    response["ETag"] = '"abc"'
    assert answer(response)["ETag"] == 'W/"abc"'


def test_the_site_answers_through_it(client):
    response = client.get("/accounts/login/", headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert b"<form" in gzip.decompress(response.content)
