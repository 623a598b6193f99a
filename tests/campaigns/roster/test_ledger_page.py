"""A side's CPP and FPP ledgers: the entries, per-day subtotals, and adding an entry."""

import re

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import CampaignEvent, LedgerEntry, Role
from campaigns.roster import services as roster
from tests.campaigns.builders import SIDE_PAGE_ACCESS, cell, make_big_campaign

pytestmark = pytest.mark.django_db


def url(campaign, side="german"):
    return reverse("campaigns:ledger", args=[campaign.pk, side])


def roster_url(campaign, side="german"):
    return reverse("campaigns:roster", args=[campaign.pk, side])


def entry(kind, amount, index=0, rg="", note="", ledger=None, locations=""):
    if ledger is None:
        ledger = "fpp" if kind.startswith("fortification") else "cpp"
    return {
        "entry": f"{ledger}:{kind}",
        "index": index,
        "amount": amount,
        "rg": rg,
        "note": note,
        "locations": locations,
    }


def added(campaign, side="german"):
    return list(
        LedgerEntry.objects.filter(campaign=campaign, side=side)
        .exclude(kind="initial")
        .values_list("ledger", "index", "kind", "amount", "rg", "note")
    )


def total(html, name):
    match = re.search(rf'<dd class="{name}">(.*?)</dd>', html)
    assert match, name
    return match.group(1)


# --- who may see and add -------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, side, status",
    SIDE_PAGE_ACCESS,
)
def test_only_the_sides_players_and_the_referee_open_a_ledger(
    campaign, client_as, persona, side, status
):
    assert client_as(persona).get(url(campaign, side)).status_code == status


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
@pytest.mark.parametrize("htmx", [False, True])
def test_nobody_else_adds_to_a_sides_ledger(campaign, client_as, persona, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = client_as(persona).post(
        url(campaign), entry("replenishment", 5, index=1), headers=headers
    )
    assert response.status_code == 404
    assert added(campaign) == []


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302
    assert client.post(url(campaign), entry("replenishment", 5, index=1)).status_code == 302
    assert added(campaign) == []


# --- the page ------------------------------------------------------------------------------


def test_every_entry_is_listed_with_who_and_a_subtotal_per_day(campaign, client_as, people):
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
        note="DR 6",
    )
    response = client_as("german").get(url(campaign))
    html = response.content.decode()
    cpp_days = response.context["cpp_days"]
    assert [(d.index, [e.amount for e in d.entries]) for d in cpp_days] == [(0, [15]), (1, [16])]
    day_one = re.search(r'<tbody id="cpp-day-1">(.*?)</tbody>', html, re.DOTALL).group(1)
    assert "Replenishment" in day_one
    assert "+16" in day_one
    assert "DR 6" in day_one
    assert "<td>german</td>" in day_one
    assert "18 Oct 1942 subtotal" in day_one
    assert "Total 31" in " ".join(day_one.split())


def test_the_form_says_that_a_cost_is_typed_as_a_positive_number(campaign, client_as):
    html = client_as("german").get(url(campaign)).content.decode()
    assert "Type a positive number: a cost" in html


def test_only_the_referee_is_offered_adjustments(campaign, client_as):
    assert 'value="cpp:adjustment"' not in client_as("german").get(url(campaign)).content.decode()
    assert 'value="cpp:adjustment"' in client_as("referee").get(url(campaign)).content.decode()


# --- adding entries ------------------------------------------------------------------------


def test_a_player_records_gains_and_costs_with_the_sign_of_their_kind(campaign, client_as):
    client = client_as("german")
    for data in (
        entry("replenishment", 16, index=1),
        entry("rg_purchase", 7, index=1, rg="i1"),
        entry("recon", 2, index=1),
        entry("fortification_rg", 12, index=1, rg="M1"),
        entry("fortification_purchase", 10, index=1),
    ):
        response = client.post(url(campaign), data)
        assert response.status_code == 302, response.context["form"].errors
    assert added(campaign) == [
        ("cpp", 1, "replenishment", 16, "", ""),
        ("cpp", 1, "rg_purchase", -7, "I1", ""),
        ("cpp", 1, "recon", -2, "", ""),
        ("fpp", 1, "fortification_rg", 12, "M1", ""),
        ("fpp", 1, "fortification_purchase", -10, "", ""),
    ]
    assert CampaignEvent.objects.filter(action="ledger.added", visibility="german").count() == 5
    html = client.get(url(campaign)).content.decode()
    assert "Entry added." in html


def test_the_referee_adds_for_either_side(campaign, client_as):
    client = client_as("referee")
    assert (
        client.post(url(campaign, "soviet"), entry("replenishment", 4, index=2)).status_code == 302
    )
    assert added(campaign, "soviet") == [("cpp", 2, "replenishment", 4, "", "")]


@pytest.mark.parametrize(
    "data, field, message",
    [
        (entry("replenishment", 0, index=1), "amount", "Type a number above 0"),
        (entry("rg_purchase", -7, index=1, rg="I1"), "amount", "Type a number above 0"),
        (entry("rg_purchase", 7, index=1), "rg", "Name the RG bought"),
        (entry("rg_purchase", 7, index=1, rg="Z9"), "rg", "Z9 is not on this side's RG chart"),
        # I6 is on the Soviet chart, not on the German one.
        (entry("rg_purchase", 12, index=1, rg="I6"), "rg", "I6 is not on this side's RG chart"),
        (entry("recon", 1, index=1, rg="I1"), "rg", "Only an RG purchase or FPP from"),
        (entry("replenishment", 5, index=13), "index", "Select a valid choice"),
        (entry("initial", 5, index=0), "entry", "Select a valid choice"),
        ({"entry": "cpp:replenishment", "index": 1, "amount": "lots"}, "amount", "whole number"),
    ],
)
def test_bad_input_is_refused_with_the_field_named_and_kept(
    campaign, client_as, data, field, message
):
    data = {**data, "note": "keep me"}
    response = client_as("german").post(url(campaign), data)
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    html = response.content.decode()
    assert "The entry was not added" in html
    assert message.split(" is not")[0] in html
    assert 'value="keep me"' in html
    assert added(campaign) == []


def test_a_player_cannot_make_an_adjustment(campaign, client_as):
    data = entry("adjustment", -3, index=0, note="I found some")
    response = client_as("german").post(url(campaign), data)
    assert "Only the referee may make adjustments." in response.content.decode()
    assert added(campaign) == []


def test_the_referee_adjusts_only_with_a_reason(campaign, client_as):
    client = client_as("referee")
    response = client.post(url(campaign), entry("adjustment", -3, index=0))
    assert "Give the reason for the adjustment." in response.content.decode()
    assert added(campaign) == []
    response = client.post(url(campaign), entry("adjustment", 0, index=0, note="Recount"))
    assert "An adjustment cannot be 0." in response.content.decode()
    response = client.post(url(campaign), entry("adjustment", -3, index=0, note="Recount"))
    assert response.status_code == 302
    response = client.post(
        url(campaign), entry("adjustment", 5, index=0, note="Forgot FPP", ledger="fpp")
    )
    assert response.status_code == 302
    assert added(campaign) == [
        ("cpp", 0, "adjustment", -3, "", "Recount"),
        ("fpp", 0, "adjustment", 5, "", "Forgot FPP"),
    ]
    page = client.get(roster_url(campaign)).content.decode()
    assert cell(page, 0, "cpp-adjustment") == "−3"
    assert cell(page, 0, "cpp-total") == "12"


def test_a_game_without_rg_charts_refuses_rg_ids(people, client_as):
    russia = services.create_campaign(
        user=people["german"],
        name="Barbarossa",
        module=get_module("defiant_russia"),
        cg_key="full-game",
        role=Role.PLAYER,
        side=get_module("defiant_russia").side_keys[0],
    )
    side = russia.game.side_keys[0]
    response = client_as("german").post(
        url(russia, side), entry("rg_purchase", 3, index=1, rg="I1")
    )
    assert response.context["form"].errors["rg"] == [
        "This game has no RG chart; leave the RG empty."
    ]
    assert added(russia, side) == []


# --- the CPP chain through the pages -------------------------------------------------------


def test_the_roster_follows_entries_added_over_several_days(campaign, client_as):
    # 11.6162: the German carried 2 CPP over to 18 Oct; replenishment +16 makes a Total of 18.
    client = client_as("german")
    for data in (
        entry("rg_purchase", 7, index=0, rg="I1"),
        entry("rg_purchase", 4, index=0, rg="A5"),
        entry("recon", 2, index=0, locations=6),
        entry("replenishment", 16, index=1),
        entry("rg_purchase", 5, index=1, rg="A6"),
        entry("replenishment", 9, index=2),
    ):
        assert client.post(url(campaign), data).status_code == 302
    html = client.get(roster_url(campaign)).content.decode()
    columns = ("cpp-start", "cpp-repl", "cpp-total", "cpp-spent", "cpp-left", "cpp-recon")
    # 11.622: Left is reduced by the 2 CPP of recon at once; Recon holds the 6 Locations.
    assert [cell(html, 0, c) for c in columns] == ["15", "", "15", "11", "2", "6"]
    assert [cell(html, 1, c) for c in columns] == ["2", "16", "18", "5", "13", ""]
    assert [cell(html, 2, c) for c in columns] == ["13", "9", "22", "0", "22", ""]
    ledger = client.get(url(campaign)).content.decode()
    assert total(ledger, "cpp-total") == "22"  # the latest day with entries
    assert "Now (19 Oct 1942)" in ledger


# --- HTMX ----------------------------------------------------------------------------------


def test_htmx_adding_swaps_the_ledger_section_with_the_new_totals(campaign, client_as):
    client = client_as("german")
    response = client.post(
        url(campaign), entry("rg_purchase", 7, index=0, rg="I1"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="ledger-section">')
    assert "Entry added." in html
    assert (total(html, "cpp-total"), total(html, "cpp-spent"), total(html, "cpp-left")) == (
        "15",
        "7",
        "8",
    )
    # Ready for the next purchase on the same day; the amount and RG are cleared.
    form = response.context["form"]
    assert (form["entry"].value(), form["index"].value()) == ("cpp:rg_purchase", 0)
    assert form["amount"].value() is None


def test_htmx_errors_come_back_in_the_section(campaign, client_as):
    response = client_as("german").post(
        url(campaign), entry("rg_purchase", 7, index=0), headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "<html" not in html
    assert "Name the RG bought" in html
    assert added(campaign) == []


# --- secrets -------------------------------------------------------------------------------


@pytest.fixture
def soviet_secrets(campaign, people):
    for kind, amount, rg, ledger in (
        ("replenishment", 987, "", "cpp"),
        ("rg_purchase", -12, "I6", "cpp"),
        ("fortification_rg", 787, "M1", "fpp"),
    ):
        roster.add_ledger_entry(
            campaign,
            by=people["soviet"],
            side="soviet",
            ledger=ledger,
            index=1,
            kind=kind,
            amount=amount,
            rg=rg,
            note="Soviet stash behind the bakery",
        )


@pytest.mark.parametrize("persona", ["german", "referee"])
def test_the_opponents_entries_never_appear_on_a_ledger(
    campaign, client_as, soviet_secrets, persona
):
    html = client_as(persona).get(url(campaign, "german")).content.decode()
    for secret in ("Soviet stash", "987", "995", "787", ">I6<"):
        assert secret not in html


def test_the_opponents_entries_stay_out_of_an_htmx_answer_too(campaign, client_as, soviet_secrets):
    html = (
        client_as("german")
        .post(url(campaign), entry("replenishment", 3, index=1), headers={"HX-Request": "true"})
        .content.decode()
    )
    assert "Soviet stash" not in html
    assert "987" not in html


def test_the_referee_sees_the_soviet_entries_on_the_soviet_ledger(
    campaign, client_as, soviet_secrets
):
    html = client_as("referee").get(url(campaign, "soviet")).content.decode()
    assert html.count("Soviet stash behind the bakery") == 3
    assert "+987" in html


# --- cost ----------------------------------------------------------------------------------


def test_the_number_of_queries_does_not_grow_with_the_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    # The day sums (one, which also counts each ledger's entries and those past the calendar),
    # a page of each ledger's rows, besides the session, the user, the campaign and the access.
    # (An empty ledger's page needs no rows query: the small campaign may take one fewer.)
    with django_assert_max_num_queries(9):
        assert client.get(url(campaign)).status_code == 200
    big = make_big_campaign(people)
    for page in ("", "?cpp=2", "?cpp=3&fpp=2"):
        with django_assert_max_num_queries(9):
            response = client.get(url(big) + page)
        assert response.status_code == 200
    assert len(response.context["cpp_days"]) < 30


def test_entries_past_the_calendar_are_listed_apart_and_read_only_when_there_are_any(
    campaign, client_as, people
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import LedgerEntry

    client = client_as("german")
    client.get(url(campaign))
    with CaptureQueriesContext(connection) as without:
        html = client.get(url(campaign)).content.decode()
    assert "Entries outside the calendar" not in html
    LedgerEntry.objects.create(
        campaign=campaign, side="german", ledger="cpp", index=99, kind="replenishment", amount=7
    )
    with CaptureQueriesContext(connection) as past:
        response = client.get(url(campaign))
    html = response.content.decode()
    assert "Entries outside the calendar" in html and "+7" in html
    assert len(past.captured_queries) == len(without.captured_queries) + 1
    assert response.context["current_cpp"].total == 15  # not counted


# --- pages of a long ledger ----------------------------------------------------------------


def shown(response, ledger="cpp"):
    return [e for day in response.context[f"{ledger}_days"] for e in day.entries]


def test_a_long_ledger_opens_on_its_newest_entries_with_the_days_sums_of_the_whole_ledger(
    client_as, people
):
    big = make_big_campaign(people)  # 30 days × (1 + 5) CPP entries a side
    client = client_as("german")
    first = client.get(url(big))
    entries = shown(first)
    assert len(entries) == 50
    assert max(e.index for e in entries) == 29  # the current CG day first
    days = first.context["cpp_days"]
    assert [d.index for d in days] == sorted(d.index for d in days)  # oldest first on the page
    html = first.content.decode()
    # The totals and the day sums are the whole ledger's, whichever page is shown.
    last = client.get(url(big) + "?cpp=4")
    for name in ("cpp-total", "cpp-spent", "cpp-left", "fpp-spent"):
        assert total(html, name) == total(last.content.decode(), name)
    assert total(html, "cpp-spent") == "5"  # the current day's five purchases of 1 CPP
    day = days[-1]
    assert (day.cpp.repl, day.cpp.spent) == (15, 5)
    assert f'href="{url(big)}?cpp=2"' in html
    assert f'href="{url(big)}?cpp=all"' in html


def test_the_pages_of_a_ledger_hold_every_entry_once_and_all_shows_them_together(client_as, people):
    big = make_big_campaign(people)
    client = client_as("german")
    every = LedgerEntry.objects.filter(campaign=big, side="german", ledger="cpp").count()
    seen = []
    for number in range(1, 5):
        seen += [e.pk for e in shown(client.get(url(big) + f"?cpp={number}"))]
    assert every > 150  # four pages of 50
    assert sorted(seen) == sorted(set(seen)) and len(seen) == every
    whole = client.get(url(big) + "?cpp=all")
    assert len(shown(whole)) == every
    assert len(whole.context["cpp_days"]) == 30
    # The FPP ledger keeps its own page (its first) while the CPP ledger shows all.
    assert len(shown(whole, "fpp")) == 50
    assert f'href="{url(big)}"' in whole.content.decode()  # back to the newest entries


def test_a_ledger_page_past_the_end_shows_the_last_page_and_nonsense_the_first(client_as, people):
    big = make_big_campaign(people)
    client = client_as("german")
    last = client.get(url(big) + "?cpp=99")
    assert min(e.index for e in shown(last)) == 0
    assert client.get(url(big) + "?cpp=x").context["cpp_window"].listing.page.number == 1


def test_a_ledger_page_is_served_to_htmx_as_the_ledger_section(client_as, people):
    big = make_big_campaign(people)
    response = client_as("german").get(url(big) + "?cpp=2", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="ledger-section">')
    assert 'hx-get="' in html and "?cpp=3" in html


def test_an_htmx_add_costs_the_same_on_a_big_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    headers = {"HX-Request": "true"}
    # An FPP credit: the big campaign's days have their replenishment already (one a day).
    with django_assert_max_num_queries(20) as small:
        client.post(url(campaign), entry("fortification_rg", 3, index=1), headers=headers)
    big = make_big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.post(url(big), entry("fortification_rg", 3, index=1), headers=headers)
    assert "Entry added." in response.content.decode()


def test_a_recon_payment_is_typed_with_its_locations_and_only_it(campaign, client_as):
    client = client_as("german")
    response = client.post(url(campaign), entry("rg_purchase", 4, rg="A5", locations=3))
    assert "Only a recon payment carries Locations; clear it." in response.content.decode()
    assert added(campaign) == []
    assert client.post(url(campaign), entry("recon", 2, locations=6)).status_code == 302
    assert LedgerEntry.objects.get(campaign=campaign, kind="recon").locations == 6
    page = " ".join(client.get(url(campaign)).content.decode().split())
    assert "Recon: 6 Locations (2 CPP)" in page
    assert total(page, "recon-locations") == "6" and total(page, "cpp-recon") == "2"


def test_a_note_the_app_wrote_reads_in_each_readers_language(campaign, client_as, people):
    """The roller's language does not stick to a booked note (issue 19): a replenishment booked
    while English was active reads in Japanese for a Japanese referee; a typed note stays as
    typed."""
    from django.utils import translation
    from django.utils.translation import gettext as _

    from campaigns.said import said

    with translation.override("en"):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=1,
            kind="replenishment",
            amount=9,
            note=said(lambda: _("CPP replenishment DR %(final)s") % {"final": 7}),
        )
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="cpp",
            index=2,
            kind="replenishment",
            amount=3,
            note="typed by hand",
        )
    stored = LedgerEntry.objects.get(campaign=campaign, amount=9)
    assert stored.note == "CPP replenishment DR 7"
    assert stored.note_words["ja"] == "CPP補充 DR 7"
    people["referee"].language = "ja"
    people["referee"].save()
    japanese = client_as("referee").get(url(campaign)).content.decode()
    assert "CPP補充 DR 7" in japanese and "CPP replenishment DR 7" not in japanese
    assert "typed by hand" in japanese
    english = client_as("german").get(url(campaign)).content.decode()
    assert "CPP replenishment DR 7" in english
