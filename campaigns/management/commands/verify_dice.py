"""``manage.py verify_dice <export.json>``: recompute every roll of an export file from its
commitments' revealed seeds (campaigns.dice.verify; docs/verifiable-dice.md). Voided rolls are
checked too. Exit status 1 when a roll does not match."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.dice import verify

WORDS = {
    verify.MATCHES: "matches",
    verify.MISMATCH: "DOES NOT MATCH",
    verify.PENDING: "seed not revealed yet",
    verify.UNVERIFIABLE: "not verifiable (made before commitments)",
}


class Command(BaseCommand):
    help = "Recompute every roll of an export file from its revealed seeds."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("export", help="an export file (JSON) made by a campaign's Export")
        parser.add_argument(
            "--all", action="store_true", help="print every roll, not only those that fail"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["export"])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"{path}: {error}") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path}: not an export file")
        counts: Counter = Counter()
        for roll, verdict in verify.check_file(data):
            counts[verdict.status] += 1
            if options["all"] or verdict.status == verify.MISMATCH:
                expected = f" (the seed gives {list(verdict.expected)})" if verdict.expected else ""
                void = " [void]" if roll.get("voided_at") else ""
                self.stdout.write(
                    f"roll {roll.get('id')}{void} day {roll.get('index')} {roll.get('step')} "
                    f"#{roll.get('counter')}: {roll.get('kind')} {roll.get('faces')} — "
                    f"{WORDS[verdict.status]}{expected}"
                )
        self.stdout.write(", ".join(f"{counts[status]} {WORDS[status]}" for status in WORDS))
        if counts[verify.MISMATCH]:
            raise CommandError(f"{counts[verify.MISMATCH]} roll(s) do not match their commitment")
        self.stdout.write(self.style.SUCCESS("Every roll checked matches its commitment."))
