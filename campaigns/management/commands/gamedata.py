"""Inspect and check the game modules' data files.

python manage.py gamedata list
python manage.py gamedata show MODULE [--json]
python manage.py gamedata validate FILE
"""

import dataclasses
import json as jsonlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.games.registry import (
    GameDataError,
    GameModule,
    all_modules,
    get_module,
    load_module_file,
)


def normalized(module: GameModule) -> dict:
    """The module as plain data, with the key names documented in docs/gamedata.md.

    The registry fields come first; the other data files follow under ``data``, by file name.
    """
    normal = dataclasses.asdict(module)
    normal.pop("dice_tables")
    normal["data"] = normal.pop("files")
    return normal


class Command(BaseCommand):
    help = "List, show or validate game module data (see docs/gamedata.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("list", help="the modules, their versions and campaign games")
        show = sub.add_parser("show", help="one module's normalized data")
        show.add_argument("module")
        show.add_argument("--json", action="store_true", help="as JSON")
        validate = sub.add_parser("validate", help="check a module data file")
        validate.add_argument("file", type=Path)

    def handle(self, *args, action: str, **options) -> None:
        getattr(self, f"handle_{action}")(**options)

    def handle_list(self, **options) -> None:
        for module in all_modules():
            self.stdout.write(
                f"{module.key}  v{module.version}  {module.name.en} — "
                f"{len(module.campaign_games)} campaign game(s): "
                + ", ".join(cg.code for cg in module.campaign_games)
            )

    def handle_show(self, module: str, json: bool = False, **options) -> None:
        try:
            game = get_module(module)
        except KeyError:
            known = ", ".join(m.key for m in all_modules())
            raise CommandError(f"unknown module {module!r}; known: {known}") from None
        if json:
            self.stdout.write(_dumps(normalized(game)))
            return
        self.stdout.write(f"{game.name.en} / {game.name.ja}  (data version {game.version})")
        self.stdout.write("Sides: " + ", ".join(f"{s.key} ({s.name.en})" for s in game.sides))
        for cg in game.campaign_games:
            self.stdout.write(
                f"  {cg.code:<11} {cg.name.en:<26} rule {cg.rule:<6} "
                f"{cg.periods[0].label.en} – {cg.periods[-1].label.en} ({len(cg.periods)})"
            )

    def handle_validate(self, file: Path, **options) -> None:
        """Check a module.json, or another data file together with the module it belongs to."""
        try:
            data = jsonlib.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"{file}: cannot read ({exc.strerror})") from None
        except ValueError as exc:
            raise CommandError(f"{file}: not valid JSON ({exc})") from None
        module_file = file.parent / "module.json"
        if file.name != "module.json" and not module_file.exists():
            raise CommandError(f"{file}: a data file is checked with its module.json beside it")
        try:
            if file.name == "module.json":
                module = load_module_file(file, overrides={"module": data})
            else:
                module = load_module_file(module_file, overrides={file.stem: data})
        except GameDataError as exc:
            raise CommandError(f"{file}: {exc}") from None
        self.stdout.write(self.style.SUCCESS(f"{file}: valid ({module.key} v{module.version})"))


def _dumps(data: dict) -> str:
    return jsonlib.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
