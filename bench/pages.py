"""The page benchmark: every main page of a Refit Phase campaign side by side with a bare view.

    make bench                       # demo and big on a throw-away SQLite file
    python bench/pages.py --sizes demo,big,huge --runs 30
    DATABASE_URL=postgres://… python bench/pages.py   # a test_… database beside the given one

What it does (docs/performance.md has the goals and the figures):

- builds its campaigns into a database of its own: with no ``DATABASE_URL`` a SQLite file in a
  temporary folder; with one, Django's test database beside it (``test_<name>``, created and
  dropped as the test runner does) — the given database is never written to. Both are removed
  at the end, whatever happens.
- three sizes of the same Red Factories campaign: ``demo`` (the demo command's RB CG I, built
  through the services), ``big`` (30 CG days, 208 RGs, 1,000 ledger entries, ~5,900 history
  events, 3,000 rolls, 400 OB lines, 600 fortification lines) and ``huge`` (ten times big). The
  volume beyond the demo is bulk-inserted in the shapes the services write (the demo's own
  events, with their Refit Phase step tags, copied over), which keeps a huge build to a minute.
- each page is requested alternately with a bare view (a small template through the same
  middleware, logged in), ``--runs`` times each; it prints the medians, the page's ratio to the
  bare view, its query count and its response size.
- the sheet PDFs and the after-action report's PDF are compared with bare reportlab drawing the
  same rows (and charts) with the same font, both called directly and answered by a bare view
  (bench/sheets.py).
- it runs as production does: ``DEBUG`` off (templates cached, no debug information), without
  the test runner's instrumented template rendering (which copies the context for every
  template drawn, each form widget included), static files named without the manifest (nothing
  is collected). ``DJANGO_DEBUG=1`` in the environment measures the development server instead.
- each time is taken twice: the wall clock and the process's CPU time (``time.process_time``).
  The CPU time is what to read on a shared machine: other jobs do not inflate it, and SQLite
  runs inside the process, so its queries are in it (on PostgreSQL the server's work is not).
- ``--db FILE`` keeps the campaigns in a SQLite file: built on the first run, reused after.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Production's settings (see the docstring); the key only signs the bench's own sessions.
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "k" * 50)
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: nothing collected

# Killed or interrupted, it still removes its database (the ``finally`` below).
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
_TMP = None
_ARGS = sys.argv[1:]
_KEPT = next(
    (
        a.split("=", 1)[1] if "=" in a else (_ARGS[i + 1 :] or [""])[0]
        for i, a in enumerate(_ARGS)
        if a.split("=")[0] == "--db"
    ),
    None,
)  # read before Django starts: the database is chosen by the environment
if _KEPT:
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(_KEPT).resolve()}"
elif not os.environ.get("DATABASE_URL"):
    _TMP = tempfile.mkdtemp(prefix="campaign-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{_TMP}/bench.sqlite3"
    atexit.register(shutil.rmtree, _TMP, True)  # also when the exit comes from inside a page

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402

from bench.sheets import bare_pdf  # noqa: E402

BARE = engines["django"].from_string(
    "<!doctype html><html><head><title>{{ title }}</title></head><body>"
    "<p>{{ request.user.username }}</p><ul>{% for n in numbers %}<li>{{ n }}</li>{% endfor %}"
    "</ul></body></html>"
)


def bare(request):
    """A small template through the same middleware: what Django alone costs a logged-in page."""
    return HttpResponse(BARE.render({"title": "bare", "numbers": range(10)}, request))


urlpatterns = [
    path("bench-bare/", bare),
    path("bench-bare-pdf/", bare_pdf),  # bench/sheets.py: bare reportlab through a view
    path("", include("config.urls")),
]


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def peak_mib(client: Client, url: str) -> float:
    """The memory one request takes at its peak (tracemalloc: Python's allocations)."""
    import tracemalloc

    tracemalloc.start()
    response = client.get(url)
    if response.streaming:  # read piece by piece, as a browser receives it: none kept here
        for _piece in response:
            pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def measure(client: Client, url: str | tuple, runs: int) -> dict:
    """The page and the bare view requested alternately; medians, ratio, queries, size (as
    sent to a browser that accepts gzip). ``url`` may be a (url, post data, headers) tuple: a
    POST, the same one each time (a step's mark, answered with the HTMX block); without data
    (None), a GET with those headers (the step page's HTMX partial)."""
    if isinstance(url, tuple):
        target, data, headers = url

        def ask():
            if data is None:
                return client.get(target, headers=headers)
            return client.post(target, data, headers=headers)
    else:

        def ask():
            return client.get(url)

    page, base, page_cpu, base_cpu = [], [], [], []
    response = ask()  # warm up (and check)
    assert response.status_code == 200, (url, response.status_code)
    queries = []
    with connection.execute_wrapper(
        lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)
    ):
        response = ask()
        # A streamed answer (the export) makes its queries as it is read.
        body = b"".join(response) if response.streaming else response.content
    size = len(body)
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        client.get("/bench-bare/")
        base.append(time.perf_counter() - start)
        base_cpu.append(time.process_time() - cpu)
        start, cpu = time.perf_counter(), time.process_time()
        response = ask()
        if response.streaming:
            b"".join(response)
        page.append(time.perf_counter() - start)
        page_cpu.append(time.process_time() - cpu)
    return {
        "ms": median_ms(page),
        "bare": median_ms(base),
        "ratio": median_ms(page) / median_ms(base),
        "cpu": median_ms(page_cpu),
        "bare_cpu": median_ms(base_cpu),
        "cpu_ratio": median_ms(page_cpu) / median_ms(base_cpu),
        "queries": len(queries),
        "bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="demo,big", help="demo,big,huge")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--only", default="", help="parts of page labels to run, by commas")
    parser.add_argument("--db", default="", help="a SQLite file keeping the campaigns")
    parser.add_argument(
        "--sheets", default="", help="the sheet PDFs to measure, by kind (roster,orbat…): all"
    )
    args = parser.parse_args()
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["*"]
    if not settings.DEBUG:  # nothing collected: static files by their own names
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    old_name = None
    if _TMP is None and not _KEPT:
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    else:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    try:
        from bench.build import build

        results = {}
        for size in args.sizes.split(","):
            start = time.perf_counter()
            world = build(size)
            print(f"\n== {size}: {world.describe()} (built in {time.perf_counter() - start:.0f} s)")
            client = Client(headers={"Accept-Encoding": "gzip"})
            client.force_login(world.player)
            print(
                f"  {'page':<34} {'ms':>8} {'bare':>6} {'ratio':>7} {'cpu ms':>7} {'bare':>5} "
                f"{'ratio':>6} {'queries':>7} {'KiB':>8}"
            )
            for label, url in world.pages():
                if args.only and not any(part in label for part in args.only.split(",")):
                    continue
                row = measure(client, url, args.runs)
                results[(size, label)] = row
                print(
                    f"  {label:<34} {row['ms']:8.1f} {row['bare']:6.2f} {row['ratio']:6.1f}× "
                    f"{row['cpu']:7.1f} {row['bare_cpu']:5.2f} {row['cpu_ratio']:5.1f}× "
                    f"{row['queries']:7d} {row['bytes'] / 1024:8.1f}"
                )
                if label == "export":
                    print(f"  {'export: peak memory':<34} {peak_mib(client, url):8.1f} MiB")
            from bench.sheets import bench_report, bench_sheets

            if not args.only or "pdf" in args.only or args.sheets:
                kinds = [kind for kind in args.sheets.split(",") if kind]
                bench_sheets(world, client, max(10, args.runs // 2), kinds)
                if not kinds or "report" in kinds:
                    bench_report(world, client, max(10, args.runs // 2))
    finally:
        connection.close()
        if old_name is not None:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        if _TMP is not None:
            shutil.rmtree(_TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
