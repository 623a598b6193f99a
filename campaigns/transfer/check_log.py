"""The file's history and dice log, checked row by row before anything is written (a part of
``campaigns.transfer.check.FileChecker``): every event's action and data shape as its feature
registered it, the references between events and rolls, the dice arithmetic of each roll."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from campaigns.dice import verify
from campaigns.dice.actors import ROLL_TARGET
from campaigns.dice.legacy_notes import NOTE_LENGTH, split_legacy_note, turn_step_ids
from campaigns.dice.services import DICE
from campaigns.games.rules import Drm
from campaigns.history.labels import ORIGINAL_KEY
from campaigns.history.sentences import SENTENCES
from campaigns.models import (
    CampaignEvent,
    DiceCommitment,
    DiceRoll,
)
from campaigns.transfer.checker import Checker
from campaigns.transfer.format import (
    COMMITMENT_FIELDS,
    DICE_FIELDS,
    EVENT_REFERENCES,
    is_database_reference,
    scope_visibilities,
)
from campaigns.transfer.values import (
    event_data_fits,
    event_data_rule,
    is_int,
    is_ref,
)


class LogChecks(Checker):
    """The history and dice-log sections of ``FileChecker``."""

    def _history(self, data: dict[str, Any], roll_refs: set) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        for n, row in self.rows(data, "history"):
            # Files made before history rows had ids have none: nothing can name their events.
            ref = self.ref("history", n, row, refs, required=False)
            values = self.values(
                "history", n, row, CampaignEvent, ("action", "visibility", "target_type", "data")
            )
            if not values["action"]:
                raise self.error("history", n, "action", _("is missing."))
            if values["visibility"] not in allowed:
                raise self.error(
                    "history",
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            for name in ("actor", "undone_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self.error("history", n, name, _("must be a user name or null."))
            target = self.reference(
                "history", n, row, "target", roll_refs, _("names no dice roll of the file.")
            )
            if target is not None and values["target_type"] != ROLL_TARGET:
                raise self.error(
                    "history", n, "target", _("only an event about a dice roll names one.")
                )
            created_at = self.timestamp("history", n, row, "created_at")
            undone_at = self.timestamp("history", n, row, "undone_at")
            event_data = self._event_data(n, values["action"], values["data"])
            event_data[ORIGINAL_KEY] = {
                "created_at": row.get("created_at") if created_at else None,
                "actor": row.get("actor"),
                "undone_by": row.get("undone_by"),
            }
            rows.append(
                {
                    "ref": ref,
                    "values": {**values, "data": event_data, "undone_at": undone_at},
                    "target": target,
                    "created_at": created_at,
                    "names": None,
                }
            )
        # An event named by another (change.undone → the undone one) by its file id: linked to
        # the new event on import. Anything else there (a database id of the installation the
        # file came from, in files made before history rows had ids) names nothing here.
        for row in rows:
            event_data = row["values"]["data"]
            key = EVENT_REFERENCES.get(row["values"]["action"])
            if key in event_data:
                named = event_data.pop(key)
                if is_ref(named) and named in refs:
                    row["names"] = named
        return rows

    def _event_data(self, number: int, action: str, data: dict[str, Any]) -> dict[str, Any]:
        """An event's data as it may be stored: no database ids, known keys of known types."""
        data = {k: v for k, v in data.items() if not is_database_reference(action, k)}
        # The shapes each feature registered with its sentence: a value of another type would
        # break the history page. Keys not named are kept as they are.
        for key, kind in SENTENCES.data_shape(action).items():
            if key in data and not event_data_fits(kind, data[key]):
                raise self.error("history", number, f"data.{key}", event_data_rule(kind))
        return data

    def _dice_commitments(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """Verifiable dice: each commitment's hash, and its seed when the file holds it (only
        once its phase was over), which must be the one hashed. Absent from older files."""
        section = "dice_commitments"
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        for n, row in self.rows(data, section):
            ref = self.ref(section, n, row, refs)
            values = self.values(section, n, row, DiceCommitment, COMMITMENT_FIELDS)
            if values["visibility"] not in allowed:
                raise self.error(
                    section,
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            if not _is_hex(values["seed_hash"], 64):
                raise self.error(section, n, "seed_hash", _("must be 64 hexadecimal digits."))
            seed = row.get("seed") or ""
            if seed and (not _is_hex(seed, 64) or verify.seed_hash(seed) != values["seed_hash"]):
                raise self.error(
                    section,
                    n,
                    "seed",
                    _("must be 64 hexadecimal digits whose SHA-256 is the hash."),
                )
            revealed_at = self.timestamp(section, n, row, "revealed_at")
            if seed and revealed_at is None:
                raise self.error(section, n, "revealed_at", _("is needed with a seed."))
            rows.append(
                {
                    "ref": ref,
                    "values": {**values, "seed": seed, "revealed_at": revealed_at},
                    "created_at": self.timestamp(section, n, row, "created_at"),
                }
            )
        return rows

    def _dice_rolls(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        section = "dice_rolls"
        rows: list[dict[str, Any]] = []
        refs: set = set()
        allowed = scope_visibilities(self.scope, self.module)
        turn_steps = turn_step_ids(self.module.files.get("turn_sequence"))
        for n, row in self.rows(data, section):
            ref = self.ref(section, n, row, refs)
            values = self.values(section, n, row, DiceRoll, DICE_FIELDS)
            if "sequence_step" not in row and "form_token" not in row:
                # A file from before the two keys: its notes carry them, as the data migration
                # found them in the database.
                split = split_legacy_note(
                    values["note"],
                    step=values["step"],
                    table_id=values["table_id"],
                    turn_steps=turn_steps,
                )
                values.update(
                    note=split.note, sequence_step=split.sequence_step, form_token=split.form_token
                )
            if values["sequence_step"] and values["sequence_step"] not in turn_steps:
                raise self.error(section, n, "sequence_step", _("is not a step of this game."))
            side = row.get("side", "")
            if side != "" and side not in self.module.side_keys:
                raise self.error(section, n, "side", _("is not a side of this game."))
            if values["visibility"] not in allowed:
                raise self.error(
                    section,
                    n,
                    "visibility",
                    _("is secret in a file of scope “%(scope)s”.") % {"scope": self.scope},
                )
            kind = values["kind"]
            if kind not in DICE:
                raise self.error(section, n, "kind", _("must be “dr” or “DR”."))
            faces = row.get("faces")
            if (
                not isinstance(faces, list)
                or len(faces) != DICE[kind]
                or not all(is_int(face) and 1 <= face <= 6 for face in faces)
            ):
                raise self.error(
                    section,
                    n,
                    "faces",
                    _("must list %(count)s die faces from 1 to 6.") % {"count": DICE[kind]},
                )
            if values["original"] != sum(faces):
                raise self.error(section, n, "original", _("must be the sum of the dice."))
            modifiers = row.get("modifiers", [])
            if not isinstance(modifiers, list) or not all(_is_modifier(m) for m in modifiers):
                raise self.error(
                    section,
                    n,
                    "modifiers",
                    _(
                        "must be a list of objects with a whole-number “value”, a text “reason” "
                        "and, for a DRM of the table, its “id” (text)."
                    ),
                )
            if values["final"] != values["original"] + sum(m["value"] for m in modifiers):
                raise self.error(
                    section, n, "final", _("must be the original roll plus the modifiers.")
                )
            note_words = row.get("note_words", {})  # absent from files before it
            if not _is_words(note_words):
                raise self.error(
                    section,
                    n,
                    "note_words",
                    _("must be an object of texts by language code, at most %(length)s long.")
                    % {"length": NOTE_LENGTH},
                )
            for name in ("rolled_by", "voided_by"):
                if row.get(name) is not None and not isinstance(row[name], str):
                    raise self.error(section, n, name, _("must be a user name or null."))
            voided_at = self.timestamp(section, n, row, "voided_at")
            if (voided_at is None) != (not values["void_reason"].strip()):
                raise self.error(
                    section,
                    n,
                    "void_reason",
                    _("is needed for a void roll, and only for one."),
                )
            commitment = row.get("commitment")
            if commitment is not None and commitment not in self.known(DiceCommitment):
                raise self.error(
                    section, n, "commitment", _("names no dice commitment of the file.")
                )
            counter = row.get("counter")
            if (commitment is None) != (counter is None) or (
                counter is not None and not (is_int(counter) and counter >= 0)
            ):
                raise self.error(
                    section,
                    n,
                    "counter",
                    _("must be a whole number from 0 for a committed roll, else null."),
                )
            client = row.get("client_value", "")
            if client != verify.clean_client(client):
                raise self.error(
                    section,
                    n,
                    "client_value",
                    _("must be at most %(length)s lower-case hexadecimal digits.")
                    % {"length": verify.CLIENT_MAX},
                )
            rows.append(
                {
                    "ref": ref,
                    "commitment": commitment,
                    "values": {
                        **values,
                        "counter": counter,
                        "client_value": client,
                        "side": side,
                        "faces": faces,
                        "modifiers": modifiers,
                        "note_words": note_words,
                        "result": row.get("result"),
                        "voided_at": voided_at,
                    },
                    "rolled_at": self.timestamp(section, n, row, "rolled_at"),
                }
            )
        return rows


def _is_hex(value: Any, length: int) -> bool:
    return (
        isinstance(value, str)
        and len(value) == length
        and all(c in "0123456789abcdef" for c in value)
    )


LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def _is_words(words: Any) -> bool:
    """A roll's note in every language (``DiceRoll.note_words``): texts by language code."""
    return isinstance(words, dict) and all(
        code in LANGUAGE_CODES and isinstance(text, str) and len(text) <= NOTE_LENGTH
        for code, text in words.items()
    )


def _is_modifier(record: Any) -> bool:
    """A roll's modifier as the dice service stores it (``Drm.record``)."""
    try:
        Drm.from_record(record)
    except ValueError:
        return False
    return True
