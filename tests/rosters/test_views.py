"""The Sheets page, each sheet as PDF and as a printable page: who gets what, and what is in it."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import FortificationPurchase, ReinforcementGroup, Role
from rosters.builders import KINDS

pytestmark = pytest.mark.django_db

SECRET = [slug for slug, kind in KINDS.items() if kind.secret]
BLANK = [slug for slug, kind in KINDS.items() if not kind.secret]


def index_url(campaign, **query):
    url = reverse("rosters:index", args=[campaign.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def sheet_url(campaign, side, kind, fmt="pdf", **query):
    url = reverse(f"rosters:{fmt}", args=[campaign.pk, side, kind])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def pdf_text(response) -> str:
    """The PDF's text line by line as laid out, runs of spaces made one."""
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(
        " ".join(line.split())
        for page in reader.pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
    )


def expected_status(persona, side, kind):
    if persona == "outsider":
        return 404
    if kind in BLANK:
        return 200
    if persona == "referee" or persona == side:
        return 200
    return 404  # the opponent's and an observer's request looks like no sheet at all


# --- who gets what, on every URL ------------------------------------------------------------


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer", "outsider"])
def test_every_sheet_url_answers_each_persona_as_the_rules_of_secrecy_say(
    seeded, client_as, persona
):
    client = client_as(persona)
    answers = {
        (side, kind, fmt): client.get(sheet_url(seeded, side, kind, fmt)).status_code
        for side in ("german", "soviet")
        for kind in KINDS
        for fmt in ("pdf", "page")
    }
    assert answers == {
        (side, kind, fmt): expected_status(persona, side, kind)
        for side in ("german", "soviet")
        for kind in KINDS
        for fmt in ("pdf", "page")
    }


@pytest.mark.parametrize(
    "persona, status", [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200)]
)
def test_members_open_the_sheets_page(seeded, client_as, persona, status):
    assert client_as(persona).get(index_url(seeded)).status_code == status


def test_an_outsider_gets_404_and_a_visitor_is_sent_to_sign_in(seeded, client_as, client):
    assert client_as("outsider").get(index_url(seeded)).status_code == 404
    assert client.get(index_url(seeded)).status_code == 302
    assert client.get(sheet_url(seeded, "german", "roster")).status_code == 302


def test_the_sheets_page_lists_what_each_persona_may_download(seeded, client_as):
    def links(persona):
        html = client_as(persona).get(index_url(seeded, lang="en", paper="a4")).content.decode()
        return {
            (side, kind)
            for side in ("german", "soviet")
            for kind in KINDS
            if sheet_url(seeded, side, kind, "pdf", lang="en", paper="a4").replace("&", "&amp;")
            in html
        }

    everything = {(side, kind) for side in ("german", "soviet") for kind in KINDS}
    blanks = {(side, kind) for side in ("german", "soviet") for kind in BLANK}
    assert links("referee") == everything
    assert links("german") == blanks | {("german", kind) for kind in SECRET}
    assert links("soviet") == blanks | {("soviet", kind) for kind in SECRET}
    assert links("observer") == blanks


def test_the_sheets_page_offers_language_and_paper(seeded, client_as):
    html = client_as("german").get(index_url(seeded, lang="ja", paper="letter")).content.decode()
    assert '<option value="ja" lang="ja" selected>' in html
    assert '<option value="letter" selected>' in html
    assert "lang=ja&amp;paper=letter" in html


def test_the_nav_has_a_sheets_tab(seeded, client_as):
    html = client_as("german").get(index_url(seeded)).content.decode()
    assert f'<a href="{index_url(seeded)}" aria-current="page">' in html


@pytest.mark.parametrize(
    "query", [{"lang": "fr"}, {"paper": "a3"}, {"lang": "en", "paper": "legal"}]
)
def test_an_unknown_language_or_paper_is_404(seeded, client_as, query):
    client = client_as("german")
    assert client.get(sheet_url(seeded, "german", "roster", "pdf", **query)).status_code == 404
    assert client.get(sheet_url(seeded, "german", "roster", "page", **query)).status_code == 404
    assert client.get(index_url(seeded, **query)).status_code == 404


def test_an_unknown_sheet_or_side_is_404(seeded, client_as):
    client = client_as("referee")
    assert client.get(sheet_url(seeded, "german", "nonsense")).status_code == 404
    assert client.get(sheet_url(seeded, "russian", "roster")).status_code == 404


def test_sheets_refuse_post(seeded, client_as):
    assert client_as("german").post(sheet_url(seeded, "german", "roster")).status_code == 405


# --- what the PDFs say ---------------------------------------------------------------------


def test_the_german_roster_pdf_has_the_german_numbers_and_no_soviet_ones(seeded, client_as):
    response = client_as("german").get(sheet_url(seeded, "german", "roster", lang="en"))
    assert response.status_code == 200
    text = pdf_text(response)
    assert "German CG Roster" in text
    assert "I1 (7), A5 (4)" in text
    assert "A6 (5)" in text
    for line in text.splitlines():
        if line.startswith("18 Oct 1942"):
            # 11.6162: Start 2, Repl 16, Total 18, Spent 5, Left 13
            assert line.split()[3:13] == ["−2", "3†", "2†", "2", "16", "18", "A6", "(5)", "5", "13"]
            break
    else:
        raise AssertionError("no 18 Oct row")
    for secret in ("987", "995", "787", "I6"):
        assert secret not in text


def test_the_referee_gets_the_soviet_numbers(seeded, client_as):
    text = pdf_text(client_as("referee").get(sheet_url(seeded, "soviet", "roster", lang="en")))
    assert "995" in text and "I6 (12)" in text and "787" in text


@pytest.mark.parametrize("slug", SECRET)
def test_no_german_pdf_carries_a_soviet_secret(seeded, client_as, slug):
    text = pdf_text(client_as("german").get(sheet_url(seeded, "german", slug, lang="en")))
    for secret in ("987", "995", "787", "I6", "658", "Sapper", "Q9-secret"):
        assert secret not in text


def test_the_summary_pdf_states_the_evenings_facts(seeded, client_as):
    text = pdf_text(client_as("german").get(sheet_url(seeded, "german", "summary", lang="en")))
    assert "CPP left 13" in text
    assert "RGs awaiting entry 7" in text
    assert "0 won, 1 lost" in text


def test_user_text_is_escaped_before_it_reaches_the_pdf(seeded, client_as):
    seeded.name = "Night & <i>Fog</i>"
    seeded.save()
    text = pdf_text(client_as("german").get(sheet_url(seeded, "german", "orbat", lang="en")))
    assert "<b>M7</b> & cellar" in text
    assert "Night & <i>Fog</i>" in text


def test_the_japanese_pdf_reads_in_japanese(seeded, client_as):
    text = pdf_text(client_as("german").get(sheet_url(seeded, "german", "roster", lang="ja")))
    assert "1942年10月17日" in text
    assert "ドイツ軍" in text


def test_the_pdf_is_inline_with_a_name_and_not_cached(seeded, client_as):
    response = client_as("german").get(sheet_url(seeded, "german", "roster", lang="ja"))
    assert response["Content-Disposition"] == (
        f'inline; filename="campaign-{seeded.pk}-german-roster-ja-a4.pdf"'
    )
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_the_paper_size_follows_the_choice(seeded, client_as):
    client = client_as("german")
    for paper, width, height in (("a4", 842, 595), ("letter", 792, 612)):
        response = client.get(sheet_url(seeded, "german", "roster", paper=paper))
        box = PdfReader(io.BytesIO(response.content)).pages[0].mediabox
        assert (round(box.width), round(box.height)) == (width, height)


# --- the printable page --------------------------------------------------------------------


def test_the_printable_page_shows_the_sheet_with_print_css(seeded, client_as):
    response = client_as("german").get(
        sheet_url(seeded, "german", "roster", "page", lang="en", paper="letter")
    )
    html = response.content.decode()
    assert "<h1>German CG Roster</h1>" in html
    assert "@page { size: letter landscape;" in html
    assert "css/sheets.css" in html
    assert '<th scope="colgroup" colspan="7">CPP</th>' in html
    assert '<td class="num shaded"></td>' in html  # the first day's Repl
    assert '<td class="num">13</td>' in html
    assert "987" not in html


def test_the_printable_page_escapes_user_text(seeded, client_as):
    html = client_as("german").get(sheet_url(seeded, "german", "orbat", "page")).content.decode()
    assert "&lt;b&gt;M7&lt;/b&gt; &amp; cellar" in html
    assert "<b>M7</b>" not in html


def test_the_printable_page_speaks_the_chosen_language(seeded, client_as):
    html = (
        client_as("german")
        .get(sheet_url(seeded, "german", "roster", "page", lang="ja"))
        .content.decode()
    )
    assert '<article class="sheet" lang="ja">' in html
    assert "1942年10月17日" in html


# --- cost ----------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(KINDS))
def test_queries_do_not_grow_with_the_campaign(
    seeded, grown, client_as, django_assert_max_num_queries, slug
):
    client = client_as("german")
    for fmt in ("pdf", "page"):
        with django_assert_max_num_queries(20) as small:
            assert client.get(sheet_url(seeded, "german", slug, fmt)).status_code == 200
        with django_assert_max_num_queries(len(small.captured_queries)):
            assert client.get(sheet_url(grown, "german", slug, fmt)).status_code == 200


def test_the_sheets_page_costs_the_same_for_a_big_campaign(
    seeded, grown, client_as, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(10) as small:
        assert client.get(index_url(seeded)).status_code == 200
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(index_url(grown)).status_code == 200


def test_a_short_game_has_only_its_status_sheet(people, client_as):
    module = get_module("defiant_russia")
    short_game = services.create_campaign(
        user=people["german"],
        name="Barbarossa",
        module=module,
        cg_key=module.campaign_games[0].key,
        role=Role.REFEREE,
        side="",
    )
    client = client_as("german")
    html = client.get(index_url(short_game)).content.decode()
    side = module.sides[0].key
    assert reverse("rosters:pdf", args=[short_game.pk, side, "status"]) in html
    assert client.get(sheet_url(short_game, side, "blank-roster")).status_code == 404


# --- records as the forms define them (the Fortification Purchase Record) -------------------


@pytest.fixture
def soviet_fortified(seeded):
    """The Soviet bought a 6-factor A-P minefield and HIP for 2 squads on 18 Oct and wrote where
    the initial OB's 5 Fortified Building Locations stand."""
    FortificationPurchase.objects.create(
        campaign=seeded,
        side="soviet",
        index=1,
        item="ap-minefield",
        details={"order": {"factors": 6}},
        fpp=18,
    )
    FortificationPurchase.objects.create(
        campaign=seeded,
        side="soviet",
        index=1,
        item="hip",
        details={"order": {"unit": "squad"}},
        quantity=2,
        fpp=6,
    )
    FortificationPurchase.objects.filter(
        campaign=seeded, side="soviet", details__initial=True
    ).update(location="K5-secret-building")
    return seeded


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Initial OB", "Fortified Building Location", "A-P 6", "squad 2", "(11.621)"]),
        ("ja", ["初期編制", "要塞化された建物", "A-P 6", "分隊 2", "11.621"]),
    ],
)
def test_the_fortification_record_pdf_writes_the_totals_as_the_form_does(
    soviet_fortified, client_as, language, words
):
    response = client_as("soviet").get(
        sheet_url(soviet_fortified, "soviet", "fortifications", lang=language)
    )
    text = pdf_text(response)
    for word in words:
        assert word in text, (language, word)
    assert "K5-secret-building" in text
    for raw in ("ap-minefield", "fortified-building", "squad\n"):
        assert raw not in text


@pytest.mark.parametrize("persona", ["german", "observer", "outsider"])
def test_the_soviet_buildings_and_totals_stay_secret(soviet_fortified, client_as, persona):
    client = client_as(persona)
    for kind in ("fortifications", "orbat"):
        assert client.get(sheet_url(soviet_fortified, "soviet", kind, lang="en")).status_code == 404
    blank = client.get(sheet_url(soviet_fortified, "soviet", "blank-fortifications", lang="en"))
    if persona == "outsider":
        assert blank.status_code == 404
        return
    text = pdf_text(blank)
    assert "5 (initial OB)" in text  # what the rules print, for every member
    assert "K5-secret-building" not in text and "A-P 6" not in text


def test_the_referee_sees_the_soviet_buildings_in_the_record_and_the_divider(
    soviet_fortified, client_as
):
    client = client_as("referee")
    url = sheet_url(soviet_fortified, "soviet", "fortifications", lang="en")
    record = pdf_text(client.get(url))
    assert "K5-secret-building" in record and "A-P 6" in record
    divider = pdf_text(client.get(sheet_url(soviet_fortified, "soviet", "orbat", lang="en")))
    assert "Fortified Building Location" in divider


# --- RG statuses: the side's and the referee's only -------------------------------------------


@pytest.mark.parametrize("slug", ["summary", "orbat", "rg-record"])
@pytest.mark.parametrize(
    "persona, status",
    [("german", 200), ("referee", 200), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_a_german_rgs_status_reaches_only_the_german_and_the_referee(
    seeded, client_as, slug, persona, status
):
    ReinforcementGroup.objects.filter(campaign=seeded, side="german", rg_id="A5", number=1).update(
        status="withdrawn", entered=True
    )
    response = client_as(persona).get(sheet_url(seeded, "german", slug, lang="en"))
    assert response.status_code == status
    if status == 200:
        assert "withdrawn" in pdf_text(response)


def test_the_soviet_sheets_say_nothing_of_german_statuses(seeded, client_as):
    ReinforcementGroup.objects.filter(campaign=seeded, side="german").update(status="withdrawn")
    for slug in ("summary", "orbat", "rg-record"):
        text = pdf_text(client_as("soviet").get(sheet_url(seeded, "soviet", slug, lang="en")))
        assert "withdrawn" not in text, slug
