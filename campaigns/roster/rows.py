"""The rows of a side's CG Roster, as read from the database.

Shared by the page (campaigns.roster.views) and the printed sheets
(rosters.builders), so that a printout shows exactly what the page shows. Each reader uses a
fixed handful of queries (the ledger summed per day in SQL) and computes the rows in Python: one
row per CG day, whatever the number of entries. Access is not checked here: callers go through
campaigns.access first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from django.db import connection
from django.db.models import Model
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.games.registry import Period, Side
from campaigns.games.weather import WeatherType, ec_types_of, label_of, types_of
from campaigns.models import (
    Campaign,
    CampaignDay,
    CvpEntry,
    LedgerEntry,
    LedgerKind,
    LedgerTotal,
    Scenario,
    ScenarioType,
    SideDay,
)
from campaigns.roster.forms import RF_CHITS
from campaigns.roster.ledger import CppDay, FppDay, Movement, cpp_days, fpp_days
from campaigns.state import split_map_groups

# --- the CG Roster -------------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioCell:
    scenario_type: str
    attacker: Side | None
    winner: Side | None
    night: bool


@dataclass(frozen=True)
class DayFacts:
    """What the roster reads of a CG day (``CampaignDay``): its moon, weather and EC keys."""

    moon: str
    weather: str
    ec: str


@dataclass(frozen=True)
class SideDayFacts:
    """What the roster reads of a side's day (``SideDay``)."""

    side: str
    hist_drm: int | None
    hist_drms: dict
    elr: int | None
    san: int | None
    elr_san_revealed: bool
    initiative_chit: str
    chit_revealed: bool


@dataclass
class RosterRow:
    index: int
    period: Period
    day: DayFacts | None
    side_day: SideDayFacts | None
    cpp: CppDay
    fpp: FppDay
    chit: str
    scenarios: list[ScenarioCell] = field(default_factory=list)
    cvp: int = 0
    idle: bool = False
    current: bool = False
    future: bool = False  # not reached and nothing recorded: CPP/FPP cells stay blank
    weather: str = ""  # the day's weather in the reader's words (the game's name for its key)
    ec: str = ""  # likewise its EC
    # RF CG I (11.58): the Historical DRM per map group, (group, value or None), in the CG's order
    hist_drms: tuple[tuple[str, int | None], ...] = ()

    @property
    def repl_parts(self) -> str:
        """Repl as the form would be filled in RF CG I: each map group's CPP ("RB 16 + RO 15")."""
        return " + ".join(f"{group} {cpp}" for group, cpp in self.cpp.repl_by_group)


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@cache
def _queries() -> dict[str, str]:
    """The roster's reads as SQL (the same on SQLite and PostgreSQL): a handful of tiny
    queries a request, where the ORM's compiling them cost ten times their SQL
    (docs/performance.md, branch ``sheets``). Each filters on the campaign (and the side) as
    the ORM queries did; access is the caller's (campaigns.access)."""
    index = connection.ops.quote_name("index")
    return {
        # The ledger's GROUP BY as the database keeps it (``LedgerTotal``): a row per day,
        # ledger, kind, map group, RG and amount, however many entries; ordered as the
        # ``GROUP BY`` on the ledger it replaces was.
        "movements": (
            f"SELECT {index}, ledger, kind, map_group, rg, amount, "
            "CASE WHEN located > 0 THEN locations END, entries, first "
            f"FROM {_table(LedgerTotal)} WHERE campaign_id = %s AND side = %s "
            f"ORDER BY {index}, ledger, kind, map_group, rg, amount"
        ),
        "days": f"SELECT {index}, moon, weather, ec FROM {_table(CampaignDay)} "
        "WHERE campaign_id = %s",
        "side_days": (
            f"SELECT {index}, side, hist_drm, hist_drms, elr, san, elr_san_revealed, "
            f"initiative_chit, chit_revealed FROM {_table(SideDay)} "
            "WHERE campaign_id = %s AND side = %s"
        ),
        "cvp": f"SELECT {index}, SUM(cvp) FROM {_table(CvpEntry)} "
        f"WHERE campaign_id = %s AND side = %s AND NOT no_cvp GROUP BY {index}",
        "scenarios": (
            f"SELECT {index}, scenario_type, attacker, winner, night FROM {_table(Scenario)} "
            f"WHERE campaign_id = %s ORDER BY {index}, sequence"
        ),
    }


def _read(name: str, *params: object) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(_queries()[name], params)
        return cursor.fetchall()


def _json(value: object) -> dict:
    """A JSON column as read: text on SQLite and through Django's PostgreSQL adapters."""
    if isinstance(value, str):
        value = json.loads(value)
    return value or {}


def side_movements(campaign: Campaign, side: str, day_count: int) -> dict[str, list[Movement]]:
    """The side's CPP and FPP movements, one per day, kind, map group (RF CG I's
    replenishments), RG and amount with how many entries it stands for (one query of the
    ledger's totals, ``LedgerTotal``, which the database keeps equal to the ledger's
    ``GROUP BY``; SQL, as ``_queries`` says why): the day's columns need the sums only, and "RG
    Purchased" names each RG and cost once with its count (``ledger.grouped_purchases``), in
    the order each was first booked. Entries past the calendar (only after a change of the game
    data) are left out."""
    return ledger_movements(campaign, side, day_count)[0]


def ledger_movements(
    campaign: Campaign, side: str, day_count: int
) -> tuple[dict[str, list[Movement]], int]:
    """``side_movements`` and how many entries lie past the calendar (the ledger page lists
    them apart, reading them only when there are any)."""
    found: dict[str, list[Movement]] = {LedgerEntry.CPP: [], LedgerEntry.FPP: []}
    outside = 0

    def booked(row: tuple) -> tuple:
        index, ledger, kind, map_group, _rg, amount, _places, _count, first = row
        if kind == LedgerKind.RG_PURCHASE:  # in the order booked
            return (ledger, index, kind, "", first)
        return (ledger, index, kind, map_group, amount)

    for index, ledger, kind, map_group, rg, amount, places, count, _first in sorted(
        _read("movements", campaign.pk, side), key=booked
    ):
        if index >= day_count:
            outside += count
        else:
            found[ledger].append(
                Movement(index, kind, amount * count, rg, places, map_group, count)
            )
    return found, outside


def last_filled_day(
    campaign_period: int, entries: Iterable[LedgerEntry | Movement], day_count: int
) -> int:
    """The latest day the sheet has reached: the current day, or a later one with entries."""
    days = [entry.index for entry in entries if entry.index < day_count]
    return min(max([campaign_period, *days]), day_count - 1)


def rf_columns(campaign: Campaign) -> bool:
    """Whether the CG Roster has Red Factories' own columns: the moon, the scenario's type and
    attacker, the initiative chit (RF 11.623) and the Idle Day. SaP's has none (one scenario a
    time frame, no initiative chit, no night: spec sap-cg-spec.md §11.1)."""
    return campaign.module == "red_factories"


def chit_label(campaign_module: str, value: str) -> str:
    if campaign_module == "red_factories":
        return str(dict(RF_CHITS).get(value, value)) if value else ""
    return value


def rule_of(campaign: Campaign, *, fortification: bool = False, recon: bool = False) -> str:
    """The rule number the module's data gives the fortification purchase (RF 11.621, SaP
    11.619) or the recon (RF 11.622, SaP 11.620) — footnotes cite the reader's own game."""
    tables = campaign.game.files.get("tables", {})
    if fortification:
        kinds = ("purchase_costs", "fortification_costs")
        chart = next((c for c in tables.get("charts", []) if c.get("kind") in kinds), {})
        return str(chart.get("rule", ""))
    if recon:
        table = next((t for t in tables.get("dice_tables", []) if t["id"].endswith(".recon")), {})
        return str(table.get("rule", ""))
    raise ValueError("which rule?")


def cpp_fpp_note(campaign: Campaign) -> str:
    """The roster's footnote on Left, Recon and lost FPP, citing the game's own rules."""
    return _(
        "Left = Total − Spent − the CPP paid for recon; the next day's Start = Left. Recon: the "
        "number of Locations that may be reconnoitred (%(recon)s). Unspent FPP are lost at the "
        "end of the fortification step (%(fortification)s)."
    ) % {
        "recon": rule_of(campaign, recon=True),
        "fortification": rule_of(campaign, fortification=True),
    }


def _named(
    types: Sequence[WeatherType], day: DayFacts | None, field: str, language: str | None
) -> str:
    """A day's weather or EC in the reader's words."""
    return label_of(types, getattr(day, field), language) if day is not None else ""


def roster_rows(campaign: Campaign, side: str) -> list[RosterRow]:
    """One row per CG day / time frame of ``side``'s roster (five queries, SQL: ``_queries``)."""
    periods = campaign.cg.periods
    count = len(periods)
    days = {index: DayFacts(*facts) for index, *facts in _read("days", campaign.pk)}
    side_days = {
        index: SideDayFacts(
            side=record_side,
            hist_drm=hist_drm,
            hist_drms=_json(hist_drms),
            elr=elr,
            san=san,
            elr_san_revealed=bool(revealed),
            initiative_chit=chit,
            chit_revealed=bool(chit_revealed),
        )
        for (
            index,
            record_side,
            hist_drm,
            hist_drms,
            elr,
            san,
            revealed,
            chit,
            chit_revealed,
        ) in _read("side_days", campaign.pk, side)
    }
    moved = side_movements(campaign, side, count)
    cpp = cpp_days(count, moved[LedgerEntry.CPP])
    fpp = fpp_days(count, moved[LedgerEntry.FPP])
    cvp = dict(_read("cvp", campaign.pk, side))
    last = last_filled_day(
        campaign.period_index, [*moved[LedgerEntry.CPP], *moved[LedgerEntry.FPP]], count
    )
    sides = {s.key: s for s in campaign.sides}
    scenarios: dict[int, list[ScenarioCell]] = {}
    for index, scenario_type, attacker, winner, night in _read("scenarios", campaign.pk):
        label = (
            ScenarioType(scenario_type).label
            if scenario_type in ScenarioType.values
            else scenario_type
        )
        scenarios.setdefault(index, []).append(
            ScenarioCell(
                scenario_type=str(label),
                attacker=sides.get(attacker),
                winner=sides.get(winner),
                night=bool(night),
            )
        )
    weathers, ecs = types_of(campaign.game.files), ec_types_of(campaign.game.files)
    language = get_language()
    groups = split_map_groups(campaign)
    rows = []
    for index, period in enumerate(periods):
        record = side_days.get(index)
        by_group = record.hist_drms if record is not None else {}
        rows.append(
            RosterRow(
                index=index,
                period=period,
                day=days.get(index),
                side_day=record,
                cpp=cpp[index],
                fpp=fpp[index],
                chit=chit_label(campaign.module, record.initiative_chit) if record else "",
                scenarios=scenarios.get(index, []),
                cvp=cvp.get(index, 0),
                idle=index < campaign.period_index and index not in scenarios,
                current=index == campaign.period_index,
                future=index > last,
                weather=_named(weathers, days.get(index), "weather", language),
                ec=_named(ecs, days.get(index), "ec", language),
                hist_drms=tuple((group, by_group.get(group)) for group in groups),
            )
        )
    return rows
