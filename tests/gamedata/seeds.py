"""Read the original rules (the seeds) from tests, to check the data files against them."""

from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
FILES = {
    "defiant_russia": "001_534cfa9f1632b81e.txt",
    "cherkassy_pocket": "002_df3dfbb03d5b62ed.txt",
    "red_factories": "003_17379023c41927ed.txt",
    "slaughter_at_ponyri": "004_012ff7493835fc3d.txt",
}


def seed_lines(module: str) -> list[str]:
    """The seed's lines, 1-based (index 0 is empty) so that line numbers read as in the spec."""
    path = SEEDS / FILES[module]
    if not path.exists():
        pytest.fail(f"the rules seed {path} is not beside this checkout (shared/ must be)")
    return ["", *path.read_text(encoding="utf-8").splitlines()]
