"""The after-action report page and PDF for the five personas: each reads its own side and the
public facts, the referee both sides, the observer the public facts, the outsider nothing.

The seeded campaign (tests/rosters/conftest.py): the German bought I1 (7) and A5 (4) on 17 Oct
and A6 (5) on 18 Oct; the Soviet's secrets are +987 CPP and I6 (12). Each side rolled on the SAN
table in secret (tests/rosters/report/conftest.py).
"""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.rosters.test_pdf import plain_text

pytestmark = pytest.mark.django_db

GERMAN_SECRETS = ("I1 (7), A5 (4)", "German: CPP per day", "German available", "German: DR totals")
SOVIET_SECRETS = ("987", "I6 (12)", "Soviet: CPP per day", "Soviet available", "Soviet: DR totals")
PUBLIC = ("Day by day", "Cumulative CVP suffered", "Initial scenario", "Perimeter Area per day")
SEES = {
    "german": (GERMAN_SECRETS, SOVIET_SECRETS),
    "soviet": (SOVIET_SECRETS, GERMAN_SECRETS),
    "referee": (GERMAN_SECRETS + SOVIET_SECRETS, ()),
    "observer": ((), GERMAN_SECRETS + SOVIET_SECRETS),
}


def page(client, campaign, **query):
    return client.get(reverse("report:page", args=[campaign.pk]), query)


def pdf(client, campaign, **query):
    return client.get(reverse("report:pdf", args=[campaign.pk]), query)


@pytest.mark.parametrize("who", sorted(SEES))
def test_the_page_shows_each_member_what_they_may_see(reported, client_as, who):
    response = page(client_as(who), reported, lang="en")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    shown, hidden = SEES[who]
    for words in PUBLIC + shown:
        assert words in text, (who, words)
    for words in hidden:
        assert words not in text, (who, words)
    shows = {"german": "German.", "soviet": "Soviet.", "referee": "German, Soviet."}
    assert f"the secrets of: {shows.get(who, 'public facts only.')}" in text


@pytest.mark.parametrize("who", sorted(SEES))
def test_the_charts_show_each_member_what_they_may_see(reported, client_as, who):
    """The chart images are inline SVG: each is checked on its own."""
    text = page(client_as(who), reported, lang="en").content.decode()
    svgs = [part.split("</svg>")[0] for part in text.split("<svg ")[1:]]
    assert svgs, who
    names = " ".join(svgs)
    shown, hidden = SEES[who]
    for words in ("German available", "Soviet available"):
        expected = words in shown
        assert (words in names) is expected, (who, words)
    assert ("chart-luck-german" in text) is (who in ("german", "referee"))
    assert ("chart-luck-soviet" in text) is (who in ("soviet", "referee"))


@pytest.mark.parametrize("who", sorted(SEES))
def test_the_pdf_shows_each_member_what_they_may_see(reported, client_as, who):
    response = pdf(client_as(who), reported, lang="en", paper="letter")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    text = " ".join(plain_text(response.content).split())
    shown, hidden = SEES[who]
    for words in ("Day by day", "Cumulative CVP suffered") + shown:
        assert words in text, (who, words)
    for words in hidden:
        assert words not in text, (who, words)


@pytest.mark.parametrize("view", [page, pdf])
def test_an_outsider_finds_no_report_and_a_visitor_must_sign_in(reported, client_as, client, view):
    assert view(client_as("outsider"), reported).status_code == 404
    response = view(client, reported)
    assert response.status_code == 302 and reverse("login") in response.url


def test_an_unknown_language_or_paper_is_a_404(reported, client_as):
    assert page(client_as("german"), reported, lang="fr").status_code == 404
    assert pdf(client_as("german"), reported, paper="a3").status_code == 404


def test_the_report_speaks_japanese(reported, client_as):
    text = page(client_as("german"), reported, lang="ja").content.decode()
    assert "戦闘後報告" in text
    assert "日ごと" in text
    assert "Day by day" not in text
    data = pdf(client_as("german"), reported, lang="ja").content
    assert "戦闘後報告" in plain_text(data)


def test_the_overview_links_the_report(reported, client_as):
    text = client_as("observer").get(reverse("campaigns:detail", args=[reported.pk])).content
    assert reverse("report:page", args=[reported.pk]).encode() in text


def test_the_pdf_draws_the_charts(reported, client_as, tmp_path):
    """The chart is on the page as drawn lines: its title and legend as text, and its
    colours in a rendered page."""
    import shutil
    import subprocess

    data = pdf(client_as("referee"), reported, lang="en").content
    reader = PdfReader(io.BytesIO(data))
    pages = [p.extract_text() for p in reader.pages]
    number = next(i for i, t in enumerate(pages) if "CPP available and spent per day" in t)
    assert "German available" in pages[number] and "Soviet spent" in pages[number]
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm (poppler-utils) is needed to look at the rendered chart")
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-f", str(number + 1), "-l", str(number + 1), str(path)]
        + [str(tmp_path / "page")],
        check=True,
    )
    image = next(tmp_path.glob("page*.ppm")).read_bytes()
    # The first series' blue (rosters.report.charts.PALETTE[0]) is on the rendered page.
    body = image[image.index(b"255\n") + 4 :]
    pixels = {body[i : i + 3] for i in range(0, len(body) - 2, 3)}
    assert any(abs(r - 41) < 25 and abs(g - 89) < 25 and abs(b - 158) < 25 for r, g, b in pixels)


def test_the_reduced_map_of_a_day_is_linked_and_served(reported, client_as):
    text = page(client_as("observer"), reported, lang="en").content.decode()
    url = reverse("rosters:perimeter_map", args=[reported.pk]) + "?day=0"
    assert url in text
    assert client_as("observer").get(url).status_code == 200
    assert client_as("observer").get(url.replace("day=0", "day=9")).status_code == 404
    assert client_as("observer").get(url.replace("day=0", "day=x")).status_code == 404


def test_the_pdf_links_each_days_reduced_map(reported, client_as):
    data = pdf(client_as("observer"), reported, lang="en").content
    uris = [
        annotation.get_object()["/A"]["/URI"]
        for page in PdfReader(io.BytesIO(data)).pages
        for annotation in page.get("/Annots") or []
        if "/A" in annotation.get_object()
    ]
    expected = reverse("rosters:perimeter_map", args=[reported.pk]) + "?day=0"
    assert uris == [f"http://testserver{expected}"]


def test_the_report_follows_the_access_module_alone(reported, client_as, monkeypatch):
    """When campaigns.access lets everyone see both sides (a revealed campaign), the German
    player's and the observer's reports show both, with nothing changed in the report."""
    from campaigns.access import Viewer

    monkeypatch.setattr(Viewer, "can_see_side", lambda self, side: True)
    for who in ("german", "observer"):
        text = page(client_as(who), reported, lang="en").content.decode()
        for words in GERMAN_SECRETS + SOVIET_SECRETS:
            assert words in text, (who, words)
