"""Benchmark: how long the campaign pages take on a large database. Reports, never asserts.

    make bench-perimeters

Builds a throwaway SQLite database with many campaigns and a long history, then times the pages a
player opens most, and the printable sheets (PDF and printable page) of a 30-day campaign with
200 RGs, the perimeter computation on each full map, and how long a small save waits while a
perimeter proposal runs (the proposal's search must not hold the write lock).
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
# Always its own throw-away SQLite file (removed at the end), whatever DATABASE_URL says.
_TMP = tempfile.mkdtemp(prefix="campaign-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{_TMP}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from accounts.models import User  # noqa: E402
from campaigns.games.registry import get_module  # noqa: E402
from campaigns.history import services as history  # noqa: E402
from campaigns.members import services  # noqa: E402
from campaigns.models import (  # noqa: E402
    LedgerEntry,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    Scenario,
)
from rosters.builders import KINDS  # noqa: E402

CAMPAIGNS = 200
EVENTS_PER_CAMPAIGN = 500
RUNS = 20
SHEET_RGS = 200
SHEET_LINES = 400
SHEET_RUNS = 5  # a 20-page PDF takes a while; five runs show the spread


def timed(client: Client, url: str, runs: int = RUNS) -> str:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return f"median {statistics.median(samples):6.1f} ms, max {max(samples):6.1f} ms"


def main() -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    player = User.objects.create_user("bench")
    rf = get_module("red_factories")
    campaigns = [
        services.create_campaign(
            user=player,
            name=f"Bench {n}",
            module=rf,
            cg_key="rb-cg-3",
            role="player",
            side="german",
        )
        for n in range(CAMPAIGNS)
    ]
    big = campaigns[0]
    for n in range(EVENTS_PER_CAMPAIGN):
        history.record(big, player, "bench.event", visibility="german" if n % 2 else "public")
    client = Client()
    client.force_login(player)
    print(f"{CAMPAIGNS} campaigns, {EVENTS_PER_CAMPAIGN} events in one, {RUNS} runs each")
    for label, url in [
        ("my campaigns", "/"),
        ("campaign overview", f"/campaigns/{big.pk}/"),
        ("members", f"/campaigns/{big.pk}/members/"),
        ("history", f"/campaigns/{big.pk}/history/"),
    ]:
        print(f"  {label:<18} {timed(client, url)}")
    bench_sheets(player, client)
    bench_perimeters()
    bench_save_during_proposal(player, campaigns[1])


def sheet_campaign(player: User):
    """RB CG III (30 CG days): a ledger every day, a scenario every other day, 200 German RGs
    and 400 lines on the divider."""
    campaign = services.create_campaign(
        user=player,
        name="Sheets bench",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role="player",
        side="german",
    )
    days = len(campaign.cg.periods)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side="german",
            ledger="cpp",
            index=index,
            kind=kind,
            amount=amount,
            rg=rg,
        )
        for index in range(1, days)
        for kind, amount, rg in (("replenishment", 15, ""), ("rg_purchase", -7, "I1"))
    )
    Scenario.objects.bulk_create(
        Scenario(campaign=campaign, index=index, scenario_type="assault", attacker="german")
        for index in range(0, days, 2)
    )
    chart = campaign.game.files["rg_charts"]["sides"]["german"]["groups"]
    groups = ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side="german",
            rg_id=chart[n % len(chart)]["id"],
            number=100 + n,
            index=n % days,
            source="purchased",
            cpp_cost=1 + n % 9,
            strength="FD"[n % 2],
            details={
                "received": {"units": {"4-6-7": 12}, "sw": {"LMG": 2}, "leaders": ["9-1"]},
                "note": f"RG {n}: observer and a note long enough to wrap in its cell",
            },
        )
        for n in range(SHEET_RGS)
    )
    fixed = [box for box in OrbatBox if box != OrbatBox.RG]
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side="german",
            box=OrbatBox.RG if n % 2 else fixed[n % len(fixed)],
            group=groups[n % SHEET_RGS] if n % 2 else None,
            unit_type="4-6-7",
            kind="infantry",
            quantity=1 + n % 9,
            status_note=f"line {n}",
        )
        for n in range(SHEET_LINES)
    )
    campaign.period_index = days - 1
    campaign.save()
    return campaign


def bench_sheets(player: User, client: Client) -> None:
    campaign = sheet_campaign(player)
    print(f"sheets: 30 CG days, {SHEET_RGS} RGs, {SHEET_LINES} divider lines, {SHEET_RUNS} runs")
    base = f"/campaigns/{campaign.pk}/sheets/german"
    for slug in KINDS:
        for fmt, url in (("pdf", f"{base}/{slug}.pdf"), ("page", f"{base}/{slug}/")):
            label = f"{slug} ({fmt})"
            print(f"  {label:<28} {timed(client, url + '?lang=ja&paper=a4', SHEET_RUNS)}")


# --- perimeters (refit.rules.perimeter, 11.605-11.6066) ----------------------------------------


def half_and_half(hexmap, first: str = "german", second: str = "soviet") -> dict:
    """Control of a map split down the middle: each side's edge hexes and a control marker every
    few hexes on its side of the line, so that a proposal has anchors to search through."""
    middle = (min(h[0] for h in hexmap.cells) + max(h[0] for h in hexmap.cells)) // 2
    control = {
        h: first if h[0] < middle - 1 else second
        for h in hexmap.edge_hexes
        if abs(h[0] - middle) > 1
    }
    for h in hexmap.cells:
        if h[1] % 4 == 0 and h[0] in (middle - 3, middle - 8):
            control[h] = first
        if h[1] % 4 == 2 and h[0] in (middle + 3, middle + 8):
            control[h] = second
    return control


def crowded(hexmap, first: str = "german", second: str = "soviet") -> dict:
    """Control markers everywhere (a seeded scatter, the enemy's among the first side's): a
    proposal for the first side searches for seconds."""
    import random

    rnd = random.Random(2)
    middle = (min(h[0] for h in hexmap.cells) + max(h[0] for h in hexmap.cells)) // 2
    control = {
        h: first if h[0] < middle - 1 else second
        for h in hexmap.edge_hexes
        if abs(h[0] - middle) > 1
    }
    for h in hexmap.sorted(hexmap.cells - hexmap.edge_hexes):
        draw = rnd.random()
        if h[0] >= middle:
            if draw < 0.1:
                control[h] = second
        elif draw < 0.3:
            control[h] = first
        elif draw < 0.4:
            control[h] = second
    return control


def bench_perimeters(runs: int = 5) -> None:
    """On each full map: both sides' proposals (≤ 200 ms each, issue 17) and the whole
    evaluation with units and pockets (≤ 20 ms), on three boards — control split down the
    middle, control scattered everywhere, and the CG's initial SSR control. CPU time of this
    process: on a shared machine the wall clock also counts the other processes' turns."""
    import json
    import random

    from refit.rules.hexgrid import HexMap
    from refit.rules.perimeter.board import MMC, SMC, VEHICLE, Board, NonGroundPocket, Unit
    from refit.rules.perimeter.initial import initial_control
    from refit.rules.perimeter.isolation import evaluate
    from refit.rules.perimeter.proposal import propose

    for module, key, cg in (
        ("red_factories", "RB", "rb-cg-1"),
        ("red_factories", "RF", ""),
        ("slaughter_at_ponyri", "SaP", "timetable-disrupted"),
    ):
        data = json.loads((ROOT / f"campaigns/games/{module}/maps.json").read_text())
        hexmap = HexMap.from_data(key, data["maps"][key])
        second = "russian" if module == "slaughter_at_ponyri" else "soviet"
        boards = {"split": half_and_half(hexmap, second=second)}
        boards["scattered"] = crowded(hexmap, second=second)
        if cg:
            boards["SSR"] = initial_control(hexmap, data["initial_control"][cg])
        for name, control in boards.items():
            rnd = random.Random(7)
            cells = hexmap.sorted(hexmap.land)
            units = tuple(
                Unit(f"u{n}", side, kind, rnd.choice(cells))
                for n in range(80)
                for side, kind in [(("german", second)[n % 2], (MMC, VEHICLE, SMC)[n % 3])]
            )
            pocket = NonGroundPocket("german", (cells[len(cells) // 2],), "1")
            board = Board(
                map=hexmap,
                sides=("german", second),
                control=control,
                units=units,
                non_ground_pockets=(pocket,),
            )
            proposing, computing = [], []
            for _ in range(runs):
                start = time.process_time()
                markers = propose(board, "german")
                middle = time.process_time()
                markers += propose(board, second)
                end = time.process_time()
                evaluate(board, markers)
                proposing += [(middle - start) * 1000, (end - middle) * 1000]
                computing.append((time.process_time() - end) * 1000)
            label = f"perimeter {key} {name} ({len(hexmap.cells)} hexes, {len(markers)} markers)"
            print(
                f"  {label:<52} evaluate median {statistics.median(computing):6.1f} ms, "
                f"max {max(computing):6.1f}; propose (a side) median "
                f"{statistics.median(proposing):6.1f} ms, max {max(proposing):6.1f}"
            )


def bench_save_during_proposal(player: User, other) -> None:
    """A player proposes a perimeter on the full RF map while, on another campaign, someone
    saves a control marker: the save must not wait for the proposal's search. (SQLite's write
    transaction holds the whole database: a search inside one held every save on the server.)"""
    import threading

    from django.db import connection

    from refit.perimeters.state import base_map, current_state

    campaign = services.create_campaign(
        user=player,
        name="Perimeter bench",
        module=get_module("red_factories"),
        cg_key="rf-cg-1",
        role="player",
        side="german",
    )
    state = current_state(campaign)
    hexmap = base_map(campaign)
    state.control = {hexmap.name(h): side for h, side in crowded(hexmap).items()}
    state.save()
    other_state = current_state(other)
    proposing = Client()
    proposing.force_login(player)
    saving = Client()
    saving.force_login(player)
    for warm_up in (campaign, other):  # build both maps once, as a running server has
        assert saving.get(f"/campaigns/{warm_up.pk}/perimeters/").status_code == 200
    took: list[float] = []

    def propose() -> None:
        start = time.perf_counter()
        url = f"/campaigns/{campaign.pk}/perimeters/german/propose/"
        response = proposing.post(url, {"version": state.version})
        took.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 302, response.status_code
        connection.close()

    thread = threading.Thread(target=propose)
    thread.start()
    waits = []
    version = other_state.version
    while thread.is_alive():
        start = time.perf_counter()
        url = f"/campaigns/{other.pk}/perimeters/control/"
        hexes = "H41" if version % 2 else "H42"
        response = saving.post(url, {"version": version, "hexes": hexes, "side": "german"})
        assert response.status_code == 302, response.status_code
        waits.append((time.perf_counter() - start) * 1000)
        version += 1
        time.sleep(0.02)
    thread.join()
    state.refresh_from_db()
    print(
        f"  {'save during a proposal (RF map)':<40} proposal {took[0]:6.1f} ms "
        f"({len(state.markers)} markers); "
        f"{len(waits)} saves meanwhile, median {statistics.median(waits):6.1f} ms, "
        f"max {max(waits):6.1f} ms"
    )


if __name__ == "__main__":
    import shutil

    try:
        if sys.argv[1:] == ["perimeters"]:  # the perimeter timings alone
            bench_perimeters()
        else:
            main()
    finally:
        shutil.rmtree(_TMP, ignore_errors=True)
