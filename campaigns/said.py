"""Words the app writes about what happened, said in the reader's language.

A service that books a result returns a sentence; the roller reads it at once, the other side
later, each in their own language. ``said`` wraps the function that words it: the sentence is
worded again each time it is read (``str()``), in the language active then. What is stored
keeps it in every language of the app (``in_every_language``), so that a page renders the
reader's words and never the roller's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise, lazy

from campaigns.games.registry import localized


def said(render: Callable[[], str]) -> Promise:
    """``render``'s words, worded in the language active when they are read."""
    return lazy(render, str)()


def in_every_language(text: Any) -> dict[str, str]:
    """{language: text} for every language of the app (``text`` a ``said`` or lazy string)."""
    words = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words[code] = str(text)
    return words


def is_said(text: Any) -> bool:
    return isinstance(text, Promise)


def in_language(words: Mapping[str, str] | None, fallback: str, language: str | None) -> str:
    """Stored words in ``language`` (English when it lacks them); ``fallback`` (the text as it
    was stored in one language, by older versions) when there are none."""
    if isinstance(words, Mapping) and words.get("en"):
        return localized(words, language)
    return fallback
