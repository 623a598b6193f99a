"""What every rules module shares: a DRM with its reason, a refusal with its rule, and how both
are written for the reader. Plain Python, no Django, so that the pure rules of ``refit.rules``
and ``campaigns.shortgames.rules`` and the services above them use the same types.

Text in the reader's language is picked by ``campaigns.games.registry.localized``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.games.registry import LocalizedText, localized


def signed(value: int) -> str:
    """A DRM (or any modifier) as the rules print it: "+1", "−2", "0".

    ASL charts print DRMs as +1/−1 and an unmodified roll's 0 without a sign: a zero is no
    modifier at all, and "+0" or "−0" would suggest one. The minus is U+2212 MINUS SIGN, as in
    the printed rules, not the ASCII hyphen, so that "−2" lines up with "+2" and never reads
    as a dash. The CJK font the sheets embed has the glyph.
    """
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return "0"


@dataclass(frozen=True)
class Drm:
    """One modifier of a roll and why it applies.

    ``reason`` is the rules' words in both languages (a data file's ``when``, a leader's name),
    or, once a service has put it into the reader's language, a plain string (what the dice log
    stores); empty when the caller words it from ``id``. ``rule`` is the rule that gives it
    (written after the reason), ``id`` the dice table's modifier it is (tables.json
    ``modifiers``), ``detail`` the number behind a worked-out value ("44 CVP").
    """

    value: int
    reason: LocalizedText | str = ""
    rule: str = ""
    id: str = ""
    detail: str = ""

    def text(self, language: str | None) -> str:
        """The reason in ``language``, naming the rule when there is one."""
        words = localized(self.reason, language) or self.id
        return f"{words} ({self.rule})" if self.rule else words

    def record(
        self, language: str | None, words: Mapping[str, str] | None = None
    ) -> dict[str, Any]:
        """The DRM as ``DiceRoll.modifiers`` and export files keep it (docs/export-format.md):
        ``{"value", "reason"}`` (the reason in the roller's language), ``"id"`` when it is one of
        the table's modifiers and ``"words"`` ({language: reason}) when the reason is the app's
        or the rules' words rather than a person's, so that each reader reads it in their own
        language (``modifier_reason``)."""
        record: dict[str, Any] = {"value": self.value, "reason": self.text(language)}
        if self.id:
            record["id"] = self.id
        if words:
            record["words"] = dict(words)
        return record

    @classmethod
    def from_record(cls, record: Any) -> Drm:
        """A DRM read back from ``DiceRoll.modifiers`` or an export file; ValueError when the
        record is not one."""
        if (
            not isinstance(record, Mapping)
            or not {"value", "reason"} <= set(record) <= {"value", "reason", "id", "words"}
            or not isinstance(record["value"], int)
            or isinstance(record["value"], bool)
            or not isinstance(record["reason"], str)
            or not isinstance(record.get("id", ""), str)
            or not _is_words(record.get("words", {}))
        ):
            raise ValueError(f"not a modifier: {record!r}")
        return cls(record["value"], record["reason"], id=record.get("id", ""))


def _is_words(words: Any) -> bool:
    return isinstance(words, Mapping) and all(
        isinstance(key, str) and isinstance(text, str) for key, text in words.items()
    )


def modifier_reason(record: Mapping[str, Any], language: str | None) -> str:
    """A logged DRM's reason in ``language``: its ``words`` in that language when it has them
    (English when not), else the reason as it was logged (older rolls, a person's own words)."""
    words = record.get("words")
    if isinstance(words, Mapping) and words.get("en"):
        return localized(words, language)
    return str(record.get("reason", ""))


@dataclass(frozen=True)
class Reason:
    """Why something is refused or limited: a code, the rule that says so, and its numbers.

    ``text`` is the words ready-made in both languages, for rules whose words come from the
    game data or are written with their numbers by the rules themselves (the short games);
    such a reason is shown with ``in_language``. Without it, the caller words the code
    (``sentence``).
    """

    code: str
    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: LocalizedText | None = None

    def in_language(self, language: str | None) -> str:
        """The ready-made words in ``language`` with the rule in brackets after them. A reason
        without words is shown by its code, so that a refusal is never silent."""
        words = localized(self.text, language) if self.text is not None else self.code
        return f"{words} ({self.rule})" if self.rule else words

    def sentence(self, texts: Mapping[str, str], params: Mapping[str, Any] | None = None) -> str:
        """The refusal as one sentence in the active language, naming its rule.

        ``texts`` maps each code to its sentence, marked for translation (``gettext_lazy``: it
        is translated here, when turned into a string). A sentence places the rule itself with
        ``%(rule)s`` or has it added in brackets after it. An unknown code is shown as itself,
        so that a refusal is never silent. ``params`` are the numbers as the caller wrote them
        for the reader (hex names, option labels); by default the reason's own.
        """
        text = str(texts.get(self.code, self.code))
        values = {**(self.params if params is None else params), "rule": self.rule}
        try:
            sentence = text % values
        except (KeyError, TypeError, ValueError):
            sentence = text
        if not self.rule or "%(rule)s" in text:
            return sentence
        return f"{sentence} ({self.rule})"
