"""RF 11.617 ELR Change [L1411–1421]: the DRMs of the RGs bought the previous CG day (pure).

「−2 直前のCG日に購入した自軍のエリート歩兵中隊につき」 and 「−1 直前のCG日に購入した自軍の1線級
歩兵中隊/AFV小隊[例外: SPW小隊]につき」: −2 per Elite infantry company, −1 per 1st Line
infantry company or AFV platoon (SPW platoons excepted) bought on the previous CG day.

The RG chart says what each RG is: ``type`` (``infantry_company``, ``afv_platoon`` …), an
infantry company's ``squad_class`` (``elite``, ``first_line``, ``second_line``, ``conscript``)
and ``elr_first_line_exempt`` on the SPW platoon (German A9).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BoughtForElr:
    """How many of the RGs bought count for each 11.617 DRM."""

    elite_companies: int
    first_line: int  # 1st Line infantry companies and AFV platoons (not SPW)


def elr_class(group: Mapping[str, Any]) -> str:
    """``"elite"``, ``"first_line"`` or ``""`` (counts for neither DRM) for one RG chart row."""
    kind = group.get("type")
    if kind == "infantry_company":
        squad_class = group.get("squad_class")
        return squad_class if squad_class in ("elite", "first_line") else ""
    if kind == "afv_platoon" and not group.get("elr_first_line_exempt"):
        return "first_line"
    return ""


def bought_for_elr(groups: Iterable[Mapping[str, Any]], bought: Iterable[str]) -> BoughtForElr:
    """Count the RGs bought (one id per RG, repeated for each one bought) against the side's RG
    chart rows ``groups``. An id the chart does not have counts for neither DRM."""
    by_id = {group["id"]: group for group in groups}
    classes = [elr_class(by_id[rg_id]) for rg_id in bought if rg_id in by_id]
    return BoughtForElr(
        elite_companies=classes.count("elite"), first_line=classes.count("first_line")
    )
