"""Benchmark: how long the campaign pages take on a large database. Reports, never asserts.

    make bench

Builds a throwaway SQLite database with many campaigns and a long history, then times the pages a
player opens most. Later issues add the RePh, sheets and perimeter timings here.
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
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from accounts.models import User  # noqa: E402
from campaigns import history, services  # noqa: E402
from campaigns.games.registry import get_module  # noqa: E402

CAMPAIGNS = 200
EVENTS_PER_CAMPAIGN = 500
RUNS = 20


def timed(client: Client, url: str) -> str:
    samples = []
    for _ in range(RUNS):
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


if __name__ == "__main__":
    main()
