"""The fortification page: the table to buy from, the record with its set-up Locations.
Secret to the side and the referee; every action a plain POST with an HTMX partial on top."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from campaigns.models import CampaignEvent, FortificationPurchase
from campaigns.roster.services import add_ledger_entry
from refit.fortifications import services as fortifications
from refit.rules.fortification import FortificationOrder as Order
from refit.walker import services as walker
from tests.campaigns.builders import make_big_campaign

pytestmark = pytest.mark.django_db


def bought(**filters):
    """The purchases, without the initial OB's Fortified Building Locations (given, not bought)."""
    return FortificationPurchase.objects.filter(**filters).exclude(details__has_key="initial")


HTMX = {"HX-Request": "true"}


def page_url(campaign, side="soviet"):
    return reverse("fortifications:page", args=[campaign.pk, side])


def buy_url(campaign, side="soviet"):
    return reverse("fortifications:buy", args=[campaign.pk, side])


def text(html):
    return html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def buy_data(reph, item="wire", token="tok-1", **extra):
    return {"reph": reph.pk, "token": token, "item": item, "quantity": 1, **extra}


@pytest.mark.parametrize(
    ("persona", "status"),
    [("soviet", 200), ("referee", 200), ("german", 404), ("observer", 404), ("outsider", 404)],
)
def test_who_sees_the_soviet_fortification_page(campaign, client_as, persona, status, reph):
    fortifications.buy(campaign, "soviet", 0, Order("wire"), campaign.created_by)
    response = client_as(persona).get(page_url(campaign))
    assert response.status_code == status
    if status == 200:
        body = text(response.content.decode())
        assert "Wire" in body and "Fortification Purchase Table" in body
        assert response.context["fpp"].left == 35


def test_the_table_offers_only_the_sides_items_with_their_inputs(campaign, client_as, reph):
    soviet = client_as("soviet").get(page_url(campaign)).content.decode()
    assert 'data-item="at-ditch"' in soviet and 'data-item="booby-trap"' in soviet
    assert 'name="factors"' in soviet and 'name="detonating_unit"' in soviet
    assert 'data-booby-trap="C"' in soviet
    german = client_as("german").get(page_url(campaign, "german")).content.decode()
    assert 'data-item="at-ditch"' not in german and 'data-item="pillbox"' not in german
    assert 'data-item="wire"' in german


@pytest.mark.parametrize(
    ("persona", "status", "count"),
    [
        ("soviet", 302, 1),
        ("referee", 302, 1),
        ("german", 404, 0),
        ("observer", 404, 0),
        ("outsider", 404, 0),
    ],
)
def test_who_may_buy_for_the_soviet(campaign, client_as, reph, persona, status, count):
    response = client_as(persona).post(buy_url(campaign), buy_data(reph))
    assert response.status_code == status
    assert bought(campaign=campaign).count() == count


def test_buying_with_htmx_answers_the_partial_with_fpp_left(campaign, client_as, reph):
    response = client_as("soviet").post(
        buy_url(campaign), buy_data(reph, "foxhole", size=2, quantity=3), headers=HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="fortifications">')
    assert 'data-fpp="left">44<' in body
    assert "Bought 3 × Foxhole for 6 FPP." in text(body)
    assert "HX-Request" in response["Vary"]


def test_the_purchase_is_confirmed_in_the_readers_language(campaign, client_as, people, reph):
    people["soviet"].language = "ja"
    people["soviet"].save()
    response = client_as("soviet").post(
        buy_url(campaign), buy_data(reph, "foxhole", size=2, quantity=3), headers=HTMX
    )
    body = text(response.content.decode())
    assert "3 × 単独壕を6 FPPで購入した。" in body
    assert "foxhole" not in body


def test_double_submit_buys_once_and_refusals_name_the_rule(campaign, client_as, reph):
    client = client_as("soviet")
    client.post(buy_url(campaign), buy_data(reph))
    client.post(buy_url(campaign), buy_data(reph))
    assert bought(campaign=campaign).count() == 1
    response = client.post(
        buy_url(campaign), buy_data(reph, "tunnel", token="tok-2", quantity=2), follow=True
    )
    assert "That costs 60 FPP but only 35 are left. (11.621)" in text(response.content.decode())


def test_bad_input_buys_nothing(campaign, client_as, reph):
    response = client_as("soviet").post(buy_url(campaign), buy_data(reph, quantity=0), follow=True)
    assert "Nothing was bought" in text(response.content.decode())
    assert not bought().exists()


def test_a_page_left_open_from_an_earlier_reph_buys_nothing(campaign, client_as, reph):
    data = buy_data(reph)
    data["reph"] = reph.pk + 1000
    client_as("soviet").post(buy_url(campaign), data)
    assert not bought().exists()


def test_take_back_and_location(campaign, client_as, people, reph):
    purchase = fortifications.buy(campaign, "soviet", 0, Order("wire"), people["soviet"])
    location_url = reverse("fortifications:location", args=[campaign.pk, "soviet", purchase.pk])
    for persona in ("german", "observer", "outsider"):
        response = client_as(persona).post(location_url, {"version": 0, "location": "X1"})
        assert response.status_code == 404
    client_as("soviet").post(location_url, {"version": purchase.version, "location": "H41"})
    purchase.refresh_from_db()
    assert purchase.location == "H41"
    remove_url = reverse("fortifications:remove", args=[campaign.pk, "soviet", purchase.pk])
    assert client_as("german").post(remove_url, {"reph": reph.pk}).status_code == 404
    client_as("soviet").post(remove_url, {"reph": reph.pk})
    assert not bought().exists()


def test_the_opponent_learns_nothing_from_history(campaign, client_as, people, reph):
    fortifications.buy(
        campaign, "soviet", 0, Order("set-dc", detonating_unit="4-4-7 A"), people["soviet"]
    )
    assert CampaignEvent.objects.filter(action="fortification.purchased").exists()
    history_url = reverse("campaigns:history", args=[campaign.pk])
    for persona, sees in (
        ("german", False),
        ("observer", False),
        ("soviet", True),
        ("referee", True),
    ):
        body = text(client_as(persona).get(history_url).content.decode())
        assert ("Set DC" in body) is sees, persona


def test_the_fortification_step_links_the_page_for_those_who_may_see_it(campaign, client_as, reph):
    step_url = reverse("refit:step", args=[campaign.pk, "soviet", "11.621"])
    assert page_url(campaign) in client_as("soviet").get(step_url).content.decode()
    assert page_url(campaign) in client_as("referee").get(step_url).content.decode()
    observer = client_as("observer").get(step_url)
    assert page_url(campaign) not in observer.content.decode()


def test_sap_under_construction_form(sap_campaign, client_as, people):
    reph = walker.open_reph(sap_campaign)
    url = page_url(sap_campaign, "russian")
    body = client_as("soviet").get(url).content.decode()
    assert 'name="under_construction"' in body and 'name="belt"' in body
    german = client_as("german").get(page_url(sap_campaign, "german")).content.decode()
    assert 'name="under_construction"' not in german
    add_ledger_entry(
        sap_campaign,
        by=people["referee"],
        side="russian",
        ledger="fpp",
        index=reph.index,
        kind="adjustment",
        amount=30,
        note="M1",
    )
    data = buy_data(
        reph,
        "known_mine_belt",
        belt="ap_6",
        quantity=2,
        under_construction="on",
        hexes="P5 P6",
        hexes_confirmed="on",
    )
    client_as("soviet").post(buy_url(sap_campaign, "russian"), data)
    purchase = bought(campaign=sap_campaign).get()
    assert (purchase.fpp, purchase.detail, purchase.hexes) == (10, "6-FP A-P", "P5 P6")
    record = client_as("soviet").get(url).content.decode()
    assert "placed in" in text(record)


def test_page_queries_do_not_grow_with_the_campaign(
    campaign, client_as, people, reph, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(15) as small:  # issue 18: at most 15, at every size
        assert client.get(page_url(campaign)).status_code == 200
    big = make_big_campaign(people)
    FortificationPurchase.objects.bulk_create(
        FortificationPurchase(
            campaign=big, side="soviet", index=n % 20, item="wire", quantity=1, fpp=15
        )
        for n in range(80)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(page_url(big))
    assert len(response.context["record"].lines) == 80 + 1  # and the initial OB's buildings
    # The page shows the newest 50 lines; the other pages and "all" on request.
    assert len(response.context["lines"]) == 50
    for query in ("?lines=2", "?lines=all"):
        with django_assert_max_num_queries(len(small.captured_queries)):
            assert client.get(page_url(big) + query).status_code == 200


def test_a_long_record_opens_on_its_newest_lines_and_shows_all_on_request(client_as, people, reph):
    big = make_big_campaign(people)
    FortificationPurchase.objects.bulk_create(
        FortificationPurchase(
            campaign=big, side="soviet", index=n % 20, item="wire", quantity=1, fpp=15
        )
        for n in range(80)
    )
    client = client_as("soviet")
    first = client.get(page_url(big))
    every = list(first.context["record"].lines)
    assert first.context["lines"] == every[-50:]  # the newest, in the record's order
    html = first.content.decode()
    assert f'href="{page_url(big)}?lines=2"' in html and f'href="{page_url(big)}?lines=all"' in html
    second = client.get(page_url(big) + "?lines=2", headers={"HX-Request": "true"})
    assert second.context["lines"] == every[:-50]
    assert second.content.decode().lstrip().startswith('<div id="fortifications">')
    whole = client.get(page_url(big) + "?lines=all")
    assert whole.context["lines"] == every
    assert "?lines=" not in whole.content.decode().split('id="record"')[1].split("</section>")[0]


@pytest.mark.parametrize(
    ("persona", "status"),
    [("soviet", 200), ("referee", 200), ("german", 404), ("observer", 404), ("outsider", 404)],
)
def test_the_total_boxes_and_the_initial_buildings_are_shown_to_the_side_and_referee_only(
    campaign, client_as, people, reph, persona, status
):
    soviet = people["soviet"]
    fortifications.buy(campaign, "soviet", 0, Order("ap-minefield", factors=3), soviet)  # 9 FPP
    fortifications.buy(campaign, "soviet", 0, Order("booby-trap"), soviet)  # 40 FPP
    response = client_as(persona).get(page_url(campaign))
    assert response.status_code == status
    if status != 200:
        return
    body = response.content.decode()
    totals = text(re.search(r'<dl class="facts" id="fortification-totals">.*?</dl>', body, re.S)[0])
    assert totals == (  # in the purchase table's order
        "A-P Minefield A-P 3 Fortified Building Location 5 Booby Trap level increase 1"
    )
    assert "Initial OB" in text(body)
    # The level in force for the 17 Oct scenario counts today's purchase (C → B).
    assert 'data-booby-trap="B"' in body
    assert "Booby-trap level for this day's scenario" in text(body)
    initial = FortificationPurchase.objects.get(campaign=campaign, details__initial=True)
    assert reverse("fortifications:remove", args=[campaign.pk, "soviet", initial.pk]) not in body


def test_the_page_speaks_words_not_keys(sap_campaign, client_as, people):
    reph = walker.open_reph(sap_campaign)
    for language in ("en", "ja"):
        people["soviet"].language = language
        people["soviet"].save()
        body = client_as("soviet").get(page_url(sap_campaign, "russian")).content.decode()
        shown = text(re.sub(r'(value|name|id|for|data-[a-z-]+)="[^"]*"', "", body))
        for raw in ("ap_6", "at_12", "hidden_mine_belt", "VEHICLE", "SQUAD", "on_map"):
            assert raw not in shown, (language, raw)
        assert '<option value="ap_6">6-FP A-P</option>' in body
    assert '<option value="squad">分隊</option>' in body
    assert reph is not None


def _row(body, item):
    match = re.search(rf'<tr data-item="{item}">(.*?)</tr>', body, re.S)
    assert match, item
    return match.group(1)


def test_items_the_initial_ssr_forbids_show_why_instead_of_a_buy_button(campaign, client_as, reph):
    """RB CG I's initial RePh: the German buys only "?" (SSR I.2); the page says so before
    anyone presses Buy. The referee, who may buy past it with a reason, keeps the form."""
    german = client_as("german").get(page_url(campaign, "german")).content.decode()
    for item in ("foxhole", "trench", "wire"):
        row = _row(german, item)
        assert "<form" not in row
        assert "Only “?” may be bought now. (SSR I.2)" in text(row)
    assert "<form" in _row(german, "concealment")
    assert "Not available" not in text(_row(german, "concealment"))
    referee = client_as("referee").get(page_url(campaign, "german")).content.decode()
    row = _row(referee, "trench")
    assert "<form" in row and 'name="override_reason"' in row
    assert "(SSR I.2)" in text(row)
    # The Soviet side is not under SSR I.2: its foxholes are offered as before.
    soviet = client_as("soviet").get(page_url(campaign)).content.decode()
    assert "<form" in _row(soviet, "foxhole") and "Not available" not in soviet
