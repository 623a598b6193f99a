"""Rolls made before a roll had a ``sequence_step`` and a ``form_token`` kept both in its note.

The short games wrote a step table's roll as ``"<step id>: <note>"`` (or the step id alone) and
the combat helpers put the page's token in brackets: ``"combat [a1b2] (1/3)"``,
``"combat [a1b2] fleet (1/2)"``, ``"Kiev · 12:6 → 2:1 [a1b2]"``. ``split_legacy_note`` reads
such a note back into the two values and the words a person reads; the data migration and the
import of an older export file both use it, so the two cannot disagree. ``legacy_note`` is its
inverse, for undoing the migration. Pure: plain values in, plain values out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

NOTE_LENGTH = 200  # DiceRoll.note's max_length
# The rules whose rolls carried a form token: Defiant Russia's combat dice and fleet dice
# (7.11, 11.51: one roll per die, all sharing the token) and Cherkassy Pocket's CRT roll (11.9).
COMBAT_DIE_RULES = frozenset({"7.11", "11.51"})
CRT_RULE = "11.9"
# A token was slugified and cut to 20 characters; the combat dice then named their die.
_TOKEN = r"\[(?P<token>[a-z0-9_-]{1,20})\]"
_DIE_COUNT = r" (?:fleet )?\(\d+/\d+\)"
_COMBAT_DIE_NOTE = re.compile(rf"(?P<label>.*) {_TOKEN}(?P<die>{_DIE_COUNT})", re.S)
_CRT_NOTE = re.compile(rf"(?P<label>.*) {_TOKEN}", re.S)
_DIE_COUNT_AT_END = re.compile(rf"(?P<label>.*?)(?P<die>{_DIE_COUNT})", re.S)


@dataclass(frozen=True)
class RollNote:
    """A roll's note as a person reads it, and the two values the note used to carry."""

    note: str
    sequence_step: str = ""
    form_token: str = ""


def turn_step_ids(turn_sequence: Mapping[str, Any] | None) -> frozenset[str]:
    """The step ids of a module's turn_sequence.json (none for a game without one)."""
    steps = (turn_sequence or {}).get("steps", [])
    return frozenset(
        step["id"] for step in steps if isinstance(step, dict) and isinstance(step.get("id"), str)
    )


def split_legacy_note(
    note: str, *, step: str, table_id: str, turn_steps: Collection[str]
) -> RollNote:
    """Take the step id and the form token out of a note written the old way.

    ``turn_steps`` are the step ids of the campaign's turn sequence: only a short game wrote
    either value into notes, so for any other game (no turn sequence) the note is left as it is.
    A step id was written only before a table roll (a combat die has no table), and a token only
    in a combat roll, at the place the combat helper put it: a player's own note that merely
    starts with a step id or holds a bracket elsewhere stays the player's words. (A combat label
    ending in a bracketed word, sent without a token, reads as a token; the pages always sent
    one, and ``legacy_note`` writes it back as it was.)
    """
    if not turn_steps:
        return RollNote(note)
    if table_id:
        for step_id in turn_steps:
            if note == step_id:
                return RollNote("", sequence_step=step_id)
            if note.startswith(step_id + ": "):
                return RollNote(note[len(step_id) + 2 :], sequence_step=step_id)
        return RollNote(note)
    if step in COMBAT_DIE_RULES and (match := _COMBAT_DIE_NOTE.fullmatch(note)):
        return RollNote(match["label"] + match["die"], form_token=match["token"])
    if step == CRT_RULE and (match := _CRT_NOTE.fullmatch(note)):
        return RollNote(match["label"], form_token=match["token"])
    return RollNote(note)


def legacy_note(roll_note: RollNote, *, step: str) -> str:
    """The note as it was written before the two fields existed (the inverse of the above)."""
    note = roll_note.note
    if roll_note.sequence_step:
        note = f"{roll_note.sequence_step}: {note}" if note else roll_note.sequence_step
    if roll_note.form_token:
        token = f" [{roll_note.form_token}]"
        match = _DIE_COUNT_AT_END.fullmatch(note) if step in COMBAT_DIE_RULES else None
        note = f"{match['label']}{token}{match['die']}" if match else f"{note}{token}"
    return note[:NOTE_LENGTH]
