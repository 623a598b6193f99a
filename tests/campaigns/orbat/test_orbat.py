"""The order of battle page (the Chapter O divider) and its quick-add form."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup, Role
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from campaigns.orbat.page import LINES_SHOWN, RG_PAGE
from tests.seats import join as join_seat

pytestmark = pytest.mark.django_db


def url(campaign, side="german"):
    return reverse("campaigns:orbat", args=[campaign.pk, side])


def german_rg(campaign, rg_id="I1"):
    return ReinforcementGroup.objects.get(campaign=campaign, side="german", rg_id=rg_id, number=1)


def big_campaign(people, *, rgs=40, lines=400):
    """RB CG III (30 days) with dozens of German RGs and hundreds of lines in every box."""
    campaign = services.create_campaign(
        user=people["german"],
        name="The long one",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role=Role.PLAYER,
        side="german",
    )
    join_seat(
        services.create_invitation(campaign, by=people["german"], role=Role.REFEREE, side=""),
        people["referee"],
    )
    groups = ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side="german",
            rg_id="I1",
            number=100 + n,
            index=n % 30,
            source=ReinforcementGroup.Source.PURCHASED,
            entered=n % 5 == 0,
            status="retained" if n % 5 == 0 else "awaiting_entry",
        )
        for n in range(rgs)
    )
    boxes = [box for box in OrbatBox if box not in (OrbatBox.RG, OrbatBox.ARRIVING)]
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side="german",
            box=OrbatBox.RG if n % 3 == 0 else boxes[n % len(boxes)],
            group=groups[n % rgs] if n % 3 == 0 else None,
            unit_type="4-6-7",
            kind="infantry",
            quantity=1 + n % 9,
            origin_rg=f"I1#{100 + n % rgs}",
            statuses=["isolated", "ammunition_shortage"] if n % 2 else [],
            status_note="M7" if n % 2 else "",
        )
        for n in range(lines)
    )
    return campaign


# --- who may open it -----------------------------------------------------------------------


@pytest.mark.parametrize(("persona", "side"), [("german", "german"), ("soviet", "soviet")])
def test_a_player_opens_their_own_sides_divider(campaign, client_as, persona, side):
    response = client_as(persona).get(url(campaign, side))
    assert response.status_code == 200
    assert response.context["side"] == side


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_the_referee_opens_both_sides_dividers(campaign, client_as, side):
    assert client_as("referee").get(url(campaign, side)).status_code == 200


@pytest.mark.parametrize(
    ("persona", "side"),
    [
        ("soviet", "german"),
        ("german", "soviet"),
        ("observer", "german"),
        ("observer", "soviet"),
        ("outsider", "german"),
        ("outsider", "soviet"),
    ],
)
def test_the_opponent_observers_and_outsiders_get_404(campaign, client_as, persona, side):
    assert client_as(persona).get(url(campaign, side)).status_code == 404


def test_a_side_the_game_does_not_have_is_404(campaign, client_as):
    assert client_as("referee").get(url(campaign, "russian")).status_code == 404


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    assert client.get(url(campaign)).status_code == 302


@pytest.mark.parametrize(
    ("persona", "side"),
    [("soviet", "german"), ("observer", "german"), ("outsider", "german"), ("german", "soviet")],
)
def test_nobody_adds_to_a_divider_they_may_not_see(campaign, client_as, persona, side):
    before = OrbatEntry.objects.count()
    response = client_as(persona).post(
        url(campaign, side), {"text": "3 × 4-6-7", "box": "retained"}
    )
    assert response.status_code == 404
    assert OrbatEntry.objects.count() == before


# --- what it shows -------------------------------------------------------------------------


def test_the_boxes_come_in_the_dividers_order_with_one_box_per_rg(campaign, client_as):
    response = client_as("german").get(url(campaign))
    titles = [box.title for box in response.context["boxes"]]
    assert titles == [
        "Retained",
        "A5#1",
        "I1#1",
        "I3#1",
        "O1#1",
        "O5#1",
        "Casualties / eliminated",
        "Fortification counters",
        "Wounded leaders",
        "Captured / malfunctioned weapons pending",
    ]


def test_an_rg_box_shows_its_name_and_day_until_its_strength_is_rolled(campaign, client_as, people):
    html = client_as("german").get(url(campaign)).content.decode()
    assert "Rifle Coy" in html and "Assault Coy" in html
    assert "CG day: 17 Oct 1942" in html
    assert html.count("strength not yet rolled") == 5
    orbat.add_units(
        campaign,
        by=people["german"],
        side="german",
        box=OrbatBox.RG,
        group=german_rg(campaign),
        text="12 × 4-6-7; 2 × LMG",
    )
    html = client_as("german").get(url(campaign)).content.decode()
    assert html.count("strength not yet rolled") == 4


def test_an_rg_that_entered_play_keeps_a_box_only_while_lines_are_in_it(
    campaign, client_as, people
):
    group = german_rg(campaign)
    (line,) = orbat.add_units(
        campaign, by=people["german"], side="german", box="rg", group=group, text="3 × 4-6-7"
    )
    ReinforcementGroup.objects.filter(pk=group.pk).update(entered=True, status="on_map")
    response = client_as("german").get(url(campaign))
    assert "I1#1" in [box.title for box in response.context["boxes"]]
    assert "in the scenario" in response.content.decode()
    # Nothing more goes into it: it is not offered as a box to add or move to.
    assert f'value="rg:{oid(group.pk)}"' not in response.content.decode()
    line.delete()
    response = client_as("german").get(url(campaign))
    assert "I1#1" not in [box.title for box in response.context["boxes"]]


def test_lines_show_quantity_unit_kind_origin_statuses_and_details(campaign, client_as, people):
    (line,) = orbat.add_units(
        campaign,
        by=people["german"],
        side="german",
        box=OrbatBox.RETAINED,
        text="14 × 4-6-7 from I3#1",
    )
    orbat.change_entry(
        line,
        by=people["german"],
        version=0,
        statuses=["isolated", "lost_ae_status"],
        status_note="M7 pocket",
    )
    html = client_as("german").get(url(campaign)).content.decode()
    assert "<strong>14</strong> ×" in html
    assert '<strong class="unit">4-6-7</strong>' in html
    assert "infantry" in html
    assert "from I3#1" in html
    assert "[isolated]" in html and "[lost AE status]" in html
    assert "(M7 pocket)" in html


def test_the_link_of_a_box_chooses_it_in_the_add_form(campaign, client_as):
    group = german_rg(campaign, "I3")
    html = client_as("german").get(url(campaign), {"box": f"rg:{oid(group.pk)}"}).content.decode()
    assert f'<option value="rg:{oid(group.pk)}" selected>' in html
    assert f'href="?box=rg%3A{oid(group.pk)}#add"' in html


def test_the_opponents_lines_and_rgs_never_appear(campaign, client_as, people):
    orbat.add_units(
        campaign, by=people["soviet"], side="soviet", box=OrbatBox.RETAINED, text="7 × 6-2-8"
    )
    soviet_rg = ReinforcementGroup.objects.filter(campaign=campaign, side="soviet").first()
    for persona in ("german", "referee"):
        html = client_as(persona).get(url(campaign, "german")).content.decode()
        assert "6-2-8" not in html
        assert "45LL AT" not in html  # the Soviet initial OB
        assert f"rg:{oid(soviet_rg.pk)}" not in html
    german_html = client_as("german").get(url(campaign, "german")).content.decode()
    assert url(campaign, "soviet") not in german_html
    assert "Soviet OB" not in german_html


# --- quick add ----------------------------------------------------------------------------


def test_quick_add_puts_every_line_in_the_box_and_comes_back_to_it(campaign, client_as):
    client = client_as("german")
    response = client.post(
        url(campaign), {"text": "14 × 4-6-7; 9-1 leader; 2 x LMG", "box": "retained"}
    )
    assert response.status_code == 302
    assert response["Location"] == url(campaign) + "?box=retained#box-retained"
    lines = list(
        OrbatEntry.objects.filter(campaign=campaign, side="german").values_list(
            "box", "quantity", "unit_type", "kind"
        )
    )
    assert lines == [
        ("retained", 14, "4-6-7", "infantry"),
        ("retained", 1, "9-1 leader", "leader"),
        ("retained", 2, "LMG", "support_weapon"),
    ]
    html = client.get(response["Location"]).content.decode()
    assert "Added to Retained: 14 × 4-6-7; 1 × 9-1 leader; 2 × LMG." in html
    assert campaign.events.filter(action="orbat.added", visibility="german").count() == 1


def test_quick_add_into_an_rg_box(campaign, client_as):
    group = german_rg(campaign, "I3")
    response = client_as("referee").post(
        url(campaign), {"text": "10 × 5-4-8", "box": f"rg:{oid(group.pk)}"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"#box-rg-{oid(group.pk)}")
    line = OrbatEntry.objects.get(campaign=campaign, side="german")
    assert (line.box, line.group_id, line.quantity) == ("rg", group.pk, 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("14 × King Tiger; 9-1 leader", "Unknown unit type “King Tiger”"),
        ("0 × 4-6-7", "A quantity must be 1 or more."),
        ("-2 × LMG", "A quantity must be 1 or more."),
        ("5000 × 4-6-7", "That is more counters than the game has."),
        ("", "Enter the units to add"),
    ],
)
def test_bad_units_come_back_with_a_message_and_the_text_kept(campaign, client_as, text, message):
    response = client_as("german").post(url(campaign), {"text": text, "box": "retained"})
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    if text:
        assert f'value="{text}"' in html
    assert not OrbatEntry.objects.filter(campaign=campaign, side="german").exists()


@pytest.mark.parametrize("box", ["", "attic", "rg", "rg:999999", "soviet-rg", "entered-rg"])
def test_a_box_not_of_this_side_is_refused(campaign, client_as, box):
    if box == "soviet-rg":
        box = f"rg:{oid(ReinforcementGroup.objects.filter(campaign=campaign, side='soviet')[0].pk)}"
    if box == "entered-rg":
        group = german_rg(campaign)
        ReinforcementGroup.objects.filter(pk=group.pk).update(entered=True, status="retained")
        box = f"rg:{oid(group.pk)}"
    response = client_as("german").post(url(campaign), {"text": "3 × 4-6-7", "box": box})
    assert response.status_code == 200
    html = response.content.decode()
    assert ("Choose a box." if box == "" else "Choose one of this side&#x27;s boxes") in html
    assert 'value="3 × 4-6-7"' in html
    assert not OrbatEntry.objects.filter(campaign=campaign, side="german").exists()


def test_with_htmx_the_boxes_are_swapped_in_place(campaign, client_as):
    client = client_as("german")
    response = client.post(
        url(campaign), {"text": "2 × MMG", "box": "pending"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="orbat-boxes"')
    assert "<html" not in html
    assert "Added to Captured / malfunctioned weapons pending: 2 × MMG." in html
    # The next line at the table goes to the same box.
    assert '<option value="pending" selected>' in html
    response = client.post(
        url(campaign), {"text": "2 × MMGG", "box": "pending"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="orbat-boxes"')
    assert "Unknown unit type “MMGG”" in html and 'value="2 × MMGG"' in html


# --- cost ----------------------------------------------------------------------------------


def test_the_number_of_queries_does_not_grow_with_lines_and_rgs(
    campaign, client_as, people, django_assert_max_num_queries
):
    for persona in ("german", "referee"):
        client = client_as(persona)
        with django_assert_max_num_queries(8) as small:
            assert client.get(url(campaign)).status_code == 200
        big = big_campaign(people)
        assert OrbatEntry.objects.filter(campaign=big).count() >= 400
        with django_assert_max_num_queries(len(small.captured_queries)):
            response = client.get(url(big))
        boxes = response.context["boxes"]
        # Windowed: one page of RGs, each box's first lines; the counts are the whole side's.
        assert len([box for box in boxes if box.group]) <= RG_PAGE
        assert all(len(box.rows) <= LINES_SHOWN for box in boxes)
        every_rg = ReinforcementGroup.objects.filter(campaign=big, side="german").count()
        assert every_rg > 40 and sum(n for *_, n in response.context["status_counts"]) == every_rg
        assert sum(box.total for box in boxes if not box.group) > 150
        with django_assert_max_num_queries(len(small.captured_queries)):
            whole = client.get(url(big), {"rgs": "all", "open": "all"})
        assert len([box for box in whole.context["boxes"] if box.group]) > 30
        assert sum(len(box.rows) for box in whole.context["boxes"]) == 400
        big.delete()


def test_the_newest_rgs_come_first_and_a_box_opens_whole(campaign, client_as, people):
    big = big_campaign(people)
    client = client_as("german")
    first = client.get(url(big))
    days = [box.group.index for box in first.context["boxes"] if box.group]
    second = client.get(url(big), {"rgs": "2"})
    older = [box.group.index for box in second.context["boxes"] if box.group]
    assert days and older and min(days) >= max(older)
    content = first.content.decode()
    assert "?rgs=2" in content and "?rgs=all" in content
    retained = next(box for box in first.context["boxes"] if box.target == "retained")
    assert len(retained.rows) == LINES_SHOWN < retained.total
    assert retained.all_url in content.replace("&amp;", "&")
    opened = client.get(retained.all_url.split("#")[0])
    box = next(box for box in opened.context["boxes"] if box.target == "retained")
    assert len(box.rows) == box.total == retained.total
    others = [b for b in opened.context["boxes"] if b.target != "retained" and b.total]
    assert all(len(b.rows) == min(b.total, LINES_SHOWN) for b in others)


def test_adding_costs_the_same_in_a_big_campaign(
    campaign, client_as, people, django_assert_max_num_queries
):
    client = client_as("german")
    with django_assert_max_num_queries(30) as small:
        client.post(
            url(campaign), {"text": "3 × 4-6-7", "box": "retained"}, headers={"HX-Request": "true"}
        )
    big = big_campaign(people)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.post(
            url(big), {"text": "3 × 4-6-7", "box": "retained"}, headers={"HX-Request": "true"}
        )
    assert "Added to Retained" in response.content.decode()


def test_rg_names_and_days_follow_the_readers_language(campaign, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    names = {
        group["id"]: group["name"]
        for group in campaign.game.files["rg_charts"]["sides"]["german"]["groups"]
    }
    assert names["I1"]["ja"] in html and names["I1"]["en"] not in html
    assert campaign.cg.periods[0].label.in_language("ja") in html


@pytest.mark.parametrize(
    ("option", "words"), [("on_map", "on-map set-up"), ("dug_in", "dug-in"), ("reserve", "Reserve")]
)
def test_an_rg_box_names_how_it_was_bought_in_words(campaign, client_as, option, words):
    ReinforcementGroup.objects.create(
        campaign=campaign,
        side="soviet",
        rg_id="A3",
        number=1,
        index=0,
        source=ReinforcementGroup.Source.PURCHASED,
        option=option,
        cpp_cost=3,
    )
    html = client_as("soviet").get(url(campaign, "soviet")).content.decode()
    assert f"option {words}" in " ".join(html.split())
    assert option not in html.replace(f'"{option}"', "")
    assert "A3#1" not in client_as("german").get(url(campaign)).content.decode()


@pytest.mark.parametrize("opened", ["", "retained", "arriving", "rg", "all"])
def test_each_box_shows_its_first_lines_by_id(campaign, client_as, people, opened):
    """The page's lines (two queries: the counts and the lines, campaigns.orbat.page
    ``_windowed_lines``) are each box's first ``LINES_SHOWN`` by id, the opened box whole, the
    time frame's arrivals whole; the totals are every line of the box."""
    big = big_campaign(people, rgs=3, lines=400)
    crowded = ReinforcementGroup.objects.get(campaign=big, rg_id="I1", number=100)
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=big,
            side=side,
            box=box,
            unit_type="MMG",
            kind="support_weapon",
            quantity=1,
            group=group,
        )
        for side, box, group in [("german", OrbatBox.ARRIVING, None)] * (LINES_SHOWN + 2)
        + [("soviet", OrbatBox.RETAINED, None)] * 3
    )
    params = {"rg": {"open": f"rg:{oid(crowded.pk)}"}, "": {}}.get(opened, {"open": opened})
    response = client_as("german").get(url(big), params)
    boxes = response.context["boxes"]
    assert any(box.group == crowded for box in boxes)
    for box in boxes:
        lines = OrbatEntry.objects.filter(campaign=big, side="german").order_by("id")
        lines = (
            lines.filter(group=box.group)
            if box.group
            else lines.filter(box=box.target, group__isnull=True)
        )
        every = [line.pk for line in lines]
        whole = (
            opened == "all"
            or box.target in (opened, "arriving")
            or (opened == "rg" and box.group == crowded)
        )
        assert [row.entry.pk for row in box.rows] == (every if whole else every[:LINES_SHOWN])
        assert box.total == len(every)
    trimmed = [box for box in boxes if box.hidden]
    assert trimmed if opened != "all" else not trimmed
    assert any(box.group == crowded and box.total > LINES_SHOWN for box in boxes)
