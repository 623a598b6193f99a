"""The purchase page, its forms and the RG Purchase Record: secret to the side and the referee."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import LedgerEntry, ReinforcementGroup, SideDay
from campaigns.roster.services import add_ledger_entry
from refit.purchases import notes
from refit.purchases import services as purchases
from refit.rules.purchase_costs import Options
from refit.walker import services as walker
from tests.campaigns.builders import make_big_campaign
from tests.refit.builders import mark_past

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def page_url(campaign, side="german"):
    return reverse("purchases:page", args=[campaign.pk, side])


def buy_url(campaign, side="german"):
    return reverse("purchases:buy", args=[campaign.pk, side])


def record_url(campaign, side="german"):
    return reverse("purchases:record", args=[campaign.pk, side])


def text(html):
    return html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def buy_data(reph, rg="A6", token="tok-1", **extra):
    return {"reph": reph.pk, "token": token, "rg": rg, **extra}


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 200), ("referee", 200), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_who_sees_the_german_purchase_page(campaign, client_as, persona, status, reph):
    assert client_as(persona).get(page_url(campaign)).status_code == status
    assert client_as(persona).get(record_url(campaign)).status_code == status


def test_the_page_shows_the_chart_with_reasons_and_cpp(campaign, client_as, reph):
    response = client_as("german").get(page_url(campaign))
    body = text(response.content.decode())
    assert "StuIG Pltn" in body  # German A3, CG Max 0 in RB CG I
    assert "This CG allows none (CG Max 0). (11.6196)" in body
    assert "The initial scenario's SSR forbids it. (SSR I.2)" in body  # G1
    initial = campaign.game.files["campaign_games"]["campaign_games"]["rb-cg-1"]["initial_ob"]
    assert response.context["cpp"].left == initial["german"]["cpp"]
    assert 'data-cpp="left"' in response.content.decode()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("referee", 302), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_who_may_buy_for_the_german(campaign, client_as, persona, status, reph):
    response = client_as(persona).post(buy_url(campaign), buy_data(reph))
    assert response.status_code == status
    bought = ReinforcementGroup.objects.filter(campaign=campaign, source="purchased").count()
    assert bought == (1 if status == 302 else 0)


def test_a_soviet_player_may_not_act_for_the_german_even_seeing_nothing(campaign, client_as, reph):
    # The opponent gets 404, not 403: the German's page does not exist for him.
    assert client_as("soviet").post(buy_url(campaign), buy_data(reph)).status_code == 404


def test_buying_with_htmx_updates_the_cpp_box(campaign, client_as, reph):
    client = client_as("german")
    before = client.get(page_url(campaign)).context["cpp"]
    response = client.post(buy_url(campaign), buy_data(reph), headers=HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="purchases">')
    assert f'data-cpp="left">{before.left - 5}<' in html
    assert "Bought A6#1 for 5 CPP." in text(html)
    assert response["Vary"] and "HX-Request" in response["Vary"]


def test_double_submit_buys_once(campaign, client_as, reph):
    client = client_as("german")
    client.post(buy_url(campaign), buy_data(reph))
    client.post(buy_url(campaign), buy_data(reph))
    assert ReinforcementGroup.objects.filter(campaign=campaign, source="purchased").count() == 1
    assert LedgerEntry.objects.filter(campaign=campaign, kind="rg_purchase").count() == 1


def test_a_refused_purchase_names_the_rule(campaign, client_as, reph):
    response = client_as("german").post(
        buy_url(campaign), buy_data(reph, rg="A6", placement="on_map"), follow=True
    )
    assert "SSR I.2" in text(response.content.decode())
    assert not ReinforcementGroup.objects.filter(source="purchased").exists()


def test_a_stale_page_buys_nothing(campaign, client_as, reph):
    response = client_as("german").post(
        buy_url(campaign), {**buy_data(reph), "reph": reph.pk + 99}, follow=True
    )
    assert "earlier Refit Phase" in text(response.content.decode())
    assert not ReinforcementGroup.objects.filter(source="purchased").exists()


def test_the_referee_overrides_a_limit_on_the_page(campaign, client_as, reph):
    client = client_as("referee")
    client.post(buy_url(campaign), buy_data(reph, rg="A2", token="a"))
    client.post(buy_url(campaign), buy_data(reph, rg="A2", token="b", override_reason="errata"))
    rgs = ReinforcementGroup.objects.filter(campaign=campaign, rg_id="A2", source="purchased")
    assert rgs.count() == 2
    # a player's override reason is ignored: the limit holds
    client_as("german").post(
        buy_url(campaign), buy_data(reph, rg="A2", token="c", override_reason="please")
    )
    assert rgs.count() == 2


def test_taking_back_on_the_page(campaign, client_as, reph):
    client = client_as("german")
    client.post(buy_url(campaign), buy_data(reph))
    rg = ReinforcementGroup.objects.get(campaign=campaign, source="purchased")
    url = reverse("purchases:remove", args=[campaign.pk, "german", rg.pk])
    # The page's form posts to that address (put together once per page: views.with_urls).
    page = client.get(page_url(campaign)).content.decode()
    assert f'action="{url}"' in page and f'hx-post="{url}"' in page
    assert client_as("observer").post(url, {"reph": reph.pk}).status_code == 404
    assert client_as("soviet").post(url, {"reph": reph.pk}).status_code == 404
    response = client.post(url, {"reph": reph.pk}, headers=HTMX)
    assert response.status_code == 200
    assert not ReinforcementGroup.objects.filter(pk=rg.pk).exists()


def test_an_rg_of_the_other_side_is_not_found(campaign, client_as, people, reph):
    soviet = ReinforcementGroup.objects.filter(campaign=campaign, side="soviet").first()
    url = reverse("purchases:remove", args=[campaign.pk, "german", soviet.pk])
    assert client_as("german").post(url, {"reph": reph.pk}).status_code == 404


def test_rolling_for_an_rg_on_the_page(campaign, client_as, people, reph):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    client = client_as("german")
    client.post(buy_url(campaign), buy_data(reph, rg="A6"))
    rg = ReinforcementGroup.objects.get(campaign=campaign, source="purchased")
    mark_past(campaign, reph, "german", "11.619", people)
    page = client.get(page_url(campaign)).content.decode()
    assert "Roll for A6#1" in text(page)
    receive = reverse("purchases:receive", args=[campaign.pk, "german", rg.pk])
    assert f'action="{receive}"' in page
    url = reverse("purchases:receive", args=[campaign.pk, "german", rg.pk])
    assert client_as("soviet").post(url, {"reph": reph.pk}).status_code == 404
    with dice.use_roller(Loaded(1, 2, 6, 6)):  # Full; armor leader DR 12 − 1 = 11: none
        response = client.post(url, {"reph": reph.pk}, headers=HTMX)
    assert "A6#1: F" in text(response.content.decode())
    record = client.get(record_url(campaign)).content.decode()
    assert "Pz IV F1 Pltn" in text(record)
    # The Soviet's record shows none of it.
    soviet = client_as("soviet").get(record_url(campaign, "soviet")).content.decode()
    assert "Pz IV F1" not in soviet


def test_the_record_rows(campaign, client_as, people, reph):
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    client = client_as("soviet")
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="soviet",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=20,
        note="test",
    )
    client.post(buy_url(campaign, "soviet"), buy_data(reph, rg="I3", placement="on_map"))
    response = client.get(record_url(campaign, "soviet"))
    rows = [item.row for item in response.context["rows"]]
    bought = [r for r in rows if r.source == "purchased"]
    assert [(r.rg_id, r.purchased_number, r.remaining, r.onboard) for r in bought] == [
        ("I3", 1, 7, "O")
    ]
    given = [r for r in rows if r.source == "initial"]
    assert {r.rg_id for r in given} == {"I3", "I4"}
    assert all(r.purchased_number is None for r in given)
    # Each RG's status in its life cycle: bought, its rolls still to make.
    assert {(r.status, r.status_label) for r in rows} == {("bought", "bought, not yet rolled")}
    assert 'data-status="bought"' in response.content.decode()


def test_query_counts_do_not_grow_with_the_campaign(
    campaign, client_as, people, reph, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(40) as small:
        assert client.get(page_url(campaign)).status_code == 200
    with django_assert_max_num_queries(20) as small_record:
        assert client.get(record_url(campaign)).status_code == 200
    big = make_big_campaign(people)
    ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=big,
            side="german",
            rg_id="I1",
            number=100 + n,
            index=n % 30,
            source="purchased",
            details={"received": {"units": {"4-6-7": 12}}},
        )
        for n in range(60)
    )
    walker.open_reph(big)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(page_url(big)).status_code == 200
    for query in ("", "?rows=2", "?rows=all"):
        with django_assert_max_num_queries(len(small_record.captured_queries)):
            response = client.get(record_url(big) + query)
    assert len(response.context["rows"]) >= 60


def test_a_long_record_opens_on_its_newest_rows_and_a_note_saved_keeps_its_page(
    client_as, people, reph
):
    big = make_big_campaign(people)
    ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=big,
            side="german",
            rg_id="I1",
            number=100 + n,
            index=n % 30,
            source="purchased",
            details={"received": {"units": {"4-6-7": 12}}},
        )
        for n in range(70)
    )
    client = client_as("german")
    whole = client.get(record_url(big) + "?rows=all").context["rows"]
    assert len(whole) >= 70
    first = client.get(record_url(big))
    assert [r.row for r in first.context["rows"]] == [r.row for r in whole[-50:]]
    html = first.content.decode()
    assert f'href="{record_url(big)}?rows=2"' in html
    assert f'href="{record_url(big)}?rows=all"' in html
    second = client.get(record_url(big) + "?rows=2", headers=HTMX)
    assert second.content.decode().lstrip().startswith('<div id="record">')
    assert [r.row for r in second.context["rows"]] == [r.row for r in whole[:-50]]
    assert 'name="rows" value="2"' in second.content.decode()
    rg = second.context["rows"][0].rg
    url = reverse("purchases:rg_notes", args=[big.pk, "german", rg.pk])
    saved = client.post(url, {"seen": notes.notes_seen(rg), "note": "MOL", "rows": "2"})
    assert saved.url == record_url(big) + "?rows=2"
    saved = client.post(
        url,
        {
            "seen": notes.notes_seen(ReinforcementGroup.objects.get(pk=rg.pk)),
            "note": "x",
            "rows": "2",
        },
        headers=HTMX,
    )
    assert [r.row.pk for r in saved.context["rows"]] == [r.row.pk for r in whole[:-50]]


def _bought_with_hexes(campaign, people, reph):
    add_ledger_entry(
        campaign,
        by=people["referee"],
        side="german",
        ledger="cpp",
        index=0,
        kind="adjustment",
        amount=20,
        note="test",
    )
    return purchases.buy(
        campaign, "german", 0, "O1", Options(pre_registered_hexes=2), people["german"]
    )


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("referee", 302), ("soviet", 404), ("observer", 404), ("outsider", 404)],
)
def test_who_writes_an_rgs_hexes_and_observer(campaign, client_as, people, reph, persona, status):
    rg = _bought_with_hexes(campaign, people, reph)
    url = reverse("purchases:rg_notes", args=[campaign.pk, "german", rg.pk])
    data = {"seen": notes.notes_seen(rg), "hexes": "H41, J40", "observer_location": "K2"}
    assert client_as(persona).post(url, data).status_code == status
    rg.refresh_from_db()
    assert (rg.details.get("hexes"), rg.details.get("observer_location")) == (
        ("H41 J40", "K2") if status == 302 else (None, None)
    )


def test_rg_notes_are_checked_and_shown_in_the_record(campaign, client_as, people, reph):
    rg = _bought_with_hexes(campaign, people, reph)
    url = reverse("purchases:rg_notes", args=[campaign.pk, "german", rg.pk])
    client = client_as("german")
    seen = notes.notes_seen(rg)
    response = client.post(url, {"seen": seen, "hexes": "A1 A2 A3"}, follow=True)
    assert "bought with 2 pre-registered hex(es); 3 are written" in text(response.content.decode())
    response = client.post(url, {"seen": seen, "hexes": "A1 A2", "note": "MOL"}, headers=HTMX)
    assert response.content.decode().lstrip().startswith('<div id="record">')
    assert "2 pre-registered hex(es): A1 A2" in text(response.content.decode())
    stale = client.post(url, {"seen": seen, "note": "overwrite"}, follow=True)
    assert "since the page was opened" in text(stale.content.decode())
    rg.refresh_from_db()
    assert rg.details["note"] == "MOL"


def test_the_stuka_count_is_e721_plus_one(campaign, client_as, people, reph):
    rg = ReinforcementGroup.objects.create(
        campaign=campaign, side="german", rg_id="S1", number=1, index=0, source="purchased"
    )
    url = reverse("purchases:rg_notes", args=[campaign.pk, "german", rg.pk])
    record = client_as("german").get(record_url(campaign)).content.decode()
    assert 'name="e721"' in record
    client_as("german").post(url, {"seen": notes.notes_seen(rg), "e721": 2})
    rg.refresh_from_db()
    assert (rg.details["e721"], rg.details["stukas"]) == (2, 3)
    record = text(client_as("german").get(record_url(campaign)).content.decode())
    assert "3 Stukas (E7.21 2 + 1, RF9)" in record
    other = _bought_with_hexes(campaign, people, reph)
    other_url = reverse("purchases:rg_notes", args=[campaign.pk, "german", other.pk])
    response = client_as("german").post(
        other_url, {"seen": notes.notes_seen(other), "e721": 2}, follow=True
    )
    assert "Only a Stuka RG (S1) has an E7.21 number." in text(response.content.decode())
