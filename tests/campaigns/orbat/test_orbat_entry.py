"""Changing and removing one line of a side's order of battle: +1/−1, statuses, moves."""

import pytest
from django.urls import reverse

from campaigns.games.registry import get_module
from campaigns.members import services
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup, Role
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from tests.campaigns.orbat.test_orbat import big_campaign

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def page(campaign, side="german"):
    return reverse("campaigns:orbat", args=[campaign.pk, side])


def url(line, side=None):
    return reverse("campaigns:orbat_entry", args=[line.campaign_id, side or line.side, line.pk])


def remove_url(line, side=None):
    return reverse("campaigns:orbat_remove", args=[line.campaign_id, side or line.side, line.pk])


@pytest.fixture
def squads(campaign, people):
    (line,) = orbat.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="14 × 4-6-7"
    )
    return line


@pytest.fixture
def soviet_line(campaign, people):
    (line,) = orbat.add_units(
        campaign, by=people["soviet"], side="soviet", box=OrbatBox.RETAINED, text="7 × 6-2-8"
    )
    return line


def fresh(line):
    return OrbatEntry.objects.get(pk=line.pk)


def rg(campaign, side="german", rg_id="I1"):
    return ReinforcementGroup.objects.get(campaign=campaign, side=side, rg_id=rg_id, number=1)


# --- who may change a line -----------------------------------------------------------------


@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_only_the_side_and_the_referee_may_change_or_remove_its_lines(squads, client_as, persona):
    client = client_as(persona)
    for action, data in [
        ("quantity", {"quantity": 15}),
        ("edit", {"quantity": 14, "statuses": ["isolated"]}),
        ("move", {"move_quantity": 3, "box": "casualties"}),
    ]:
        response = client.post(url(squads), {"action": action, "version": 0, **data})
        assert response.status_code == 404
        response = client.post(url(squads), {"action": action, "version": 0, **data}, headers=HTMX)
        assert response.status_code == 404
    assert client.post(remove_url(squads), {"version": 0}).status_code == 404
    assert (
        client.get(page(squads.campaign), {"edit": oid(squads.pk)}, headers=HTMX).status_code == 404
    )
    line = fresh(squads)
    assert (line.quantity, line.statuses, line.box, line.version) == (14, [], "retained", 0)


def test_the_referee_may_change_a_sides_line(squads, client_as):
    response = client_as("referee").post(
        url(squads), {"action": "quantity", "quantity": 13, "version": 0}
    )
    assert response.status_code == 302
    assert fresh(squads).quantity == 13


def test_another_sides_line_does_not_exist_on_this_sides_page(squads, soviet_line, client_as):
    german = client_as("german")
    # The Soviet line's id under the German URL: as if there were no such line.
    data = {"action": "quantity", "quantity": 1, "version": 0}
    assert german.post(url(soviet_line, side="german"), data).status_code == 404
    assert german.post(remove_url(soviet_line, side="german"), {"version": 0}).status_code == 404
    assert german.post(url(soviet_line), data).status_code == 404
    response = german.get(page(squads.campaign), {"edit": oid(soviet_line.pk)}, headers=HTMX)
    assert response.status_code == 404
    # Opened without HTMX, the foreign id is ignored and shows nothing of it.
    html = german.get(page(squads.campaign), {"edit": oid(soviet_line.pk)}).content.decode()
    assert "6-2-8" not in html
    line = fresh(soviet_line)
    assert (line.quantity, line.version) == (7, 0)


def test_a_line_of_another_campaign_is_404(squads, client_as, people):
    other = services.create_campaign(
        user=people["german"],
        name="Another",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role=Role.PLAYER,
        side="german",
    )
    (line,) = orbat.add_units(
        other, by=people["german"], side="german", box=OrbatBox.RETAINED, text="2 × LMG"
    )
    wrong = reverse("campaigns:orbat_entry", args=[squads.campaign_id, "german", line.pk])
    data = {"action": "quantity", "quantity": 3, "version": 0}
    assert client_as("german").post(wrong, data).status_code == 404
    assert fresh(line).quantity == 2


def test_changes_are_posts(squads, client_as):
    assert client_as("german").get(url(squads)).status_code == 405
    assert client_as("german").get(remove_url(squads)).status_code == 405


# --- quantity -------------------------------------------------------------------------------


def test_plus_one_and_minus_one_change_the_quantity_and_come_back_to_the_box(squads, client_as):
    client = client_as("german")
    response = client.post(url(squads), {"action": "quantity", "quantity": 15, "version": 0})
    assert response.status_code == 302
    assert response["Location"] == page(squads.campaign) + "#box-retained"
    assert (fresh(squads).quantity, fresh(squads).version) == (15, 1)
    client.post(url(squads), {"action": "quantity", "quantity": 14, "version": 1})
    assert (fresh(squads).quantity, fresh(squads).version) == (14, 2)
    html = client.get(page(squads.campaign)).content.decode()
    # The buttons carry the next values and the new version.
    assert 'name="quantity" value="13"' in html and 'name="quantity" value="15"' in html
    assert 'name="version" value="2"' in html


@pytest.mark.parametrize(
    ("quantity", "message"),
    [
        ("0", "A quantity must be 1 or more; remove the line instead."),
        ("-3", "A quantity must be 1 or more; remove the line instead."),
        ("1000", "That is more counters than the game has."),
        ("lots", "Enter the quantity as a whole number."),
    ],
)
def test_a_bad_quantity_is_refused_with_a_message(squads, client_as, quantity, message):
    response = client_as("german").post(
        url(squads), {"action": "edit", "quantity": quantity, "version": 0}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Quantity: {message}" in html
    # What was typed stays in the field.
    assert (
        f'name="quantity" min="1" max="999" inputmode="numeric" required value="{quantity}"' in html
    )
    assert (fresh(squads).quantity, fresh(squads).version) == (14, 0)


def test_minus_one_on_a_single_counter_is_disabled_and_refused(campaign, client_as, people):
    (leader,) = orbat.add_units(
        campaign, by=people["german"], side="german", box=OrbatBox.RETAINED, text="9-1 leader"
    )
    client = client_as("german")
    html = client.get(page(campaign)).content.decode()
    assert 'name="quantity" value="0" class="step"' in html
    assert 'aria-label="−1 One fewer" disabled>' in html
    response = client.post(
        url(leader), {"action": "quantity", "quantity": 0, "version": 0}, headers=HTMX
    )
    assert "remove the line instead" in response.content.decode()
    assert fresh(leader).quantity == 1


# --- statuses ------------------------------------------------------------------------------


def test_statuses_and_where_are_saved_and_shown_with_their_labels(squads, client_as):
    client = client_as("german")
    response = client.post(
        url(squads),
        {
            "action": "edit",
            "version": 0,
            "quantity": 12,
            "statuses": ["isolated", "ammunition_shortage", "lost_ae_status"],
            "status_note": "  M7 pocket ",
        },
    )
    assert response.status_code == 302
    line = fresh(squads)
    assert line.quantity == 12
    assert line.statuses == ["isolated", "ammunition_shortage", "lost_ae_status"]
    assert line.status_note == "M7 pocket"
    html = client.get(page(squads.campaign)).content.decode()
    assert "[isolated]" in html and "[ammunition shortage]" in html
    assert "[lost AE status]" in html and "(M7 pocket)" in html
    assert squads.campaign.events.filter(action="orbat.changed", visibility="german").exists()


def test_unticking_every_status_clears_them(squads, client_as, people):
    orbat.change_entry(squads, by=people["german"], version=0, statuses=["dug_in"])
    client_as("german").post(url(squads), {"action": "edit", "version": 1, "quantity": 14})
    assert fresh(squads).statuses == []


def test_an_unknown_status_is_refused_and_the_typed_values_kept(squads, client_as):
    response = client_as("german").post(
        url(squads),
        {
            "action": "edit",
            "version": 0,
            "quantity": 9,
            "statuses": ["isolated", "teleported"],
            "status_note": "L5",
        },
    )
    html = response.content.decode()
    assert "Statuses: “teleported” is not a status this page knows." in html
    assert 'value="isolated" checked' in html
    assert 'value="L5"' in html and 'required value="9"' in html
    line = fresh(squads)
    assert (line.quantity, line.statuses, line.status_note) == (14, [], "")


def test_the_edit_forms_open_for_one_line_at_a_time(squads, campaign, client_as, people):
    orbat.add_units(campaign, by=people["german"], side="german", box="retained", text="2 × LMG")
    client = client_as("german")
    closed = client.get(page(campaign)).content.decode()
    assert 'name="statuses"' not in closed
    assert f'href="{page(campaign)}?edit={oid(squads.pk)}#entry-{oid(squads.pk)}"' in closed
    opened = client.get(page(campaign), {"edit": oid(squads.pk)}).content.decode()
    assert opened.count('name="statuses" value="isolated"') == 1
    assert opened.count('name="move_quantity"') == 1
    # With HTMX only the line comes back, opened, then closed again.
    row = client.get(page(campaign), {"edit": oid(squads.pk)}, headers=HTMX).content.decode()
    assert row.lstrip().startswith(f'<li id="entry-{oid(squads.pk)}"')
    assert 'name="statuses" value="isolated"' in row
    row = client.get(page(campaign), {"line": oid(squads.pk)}, headers=HTMX).content.decode()
    assert row.lstrip().startswith(f'<li id="entry-{oid(squads.pk)}"')
    assert 'name="statuses"' not in row


# --- moves ---------------------------------------------------------------------------------


def test_moving_part_of_a_line_splits_it(squads, client_as):
    client = client_as("german")
    response = client.post(
        url(squads), {"action": "move", "version": 0, "move_quantity": 3, "box": "casualties"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#box-retained")
    lines = set(
        OrbatEntry.objects.filter(campaign=squads.campaign, side="german").values_list(
            "box", "quantity"
        )
    )
    assert lines == {("retained", 11), ("casualties", 3)}
    html = client.get(response["Location"]).content.decode()
    assert "Moved 3 × 4-6-7 to Casualties / eliminated." in html


def test_moving_a_whole_line_into_an_rg_box(squads, client_as):
    group = rg(squads.campaign)
    client_as("german").post(
        url(squads),
        {"action": "move", "version": 0, "move_quantity": 14, "box": f"rg:{oid(group.pk)}"},
    )
    line = fresh(squads)
    assert (line.box, line.group_id, line.quantity) == ("rg", group.pk, 14)
    assert OrbatEntry.objects.filter(campaign=squads.campaign, side="german").count() == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"move_quantity": 15, "box": "casualties"}, "Move between 1 and 14: the line has 14."),
        ({"move_quantity": 0, "box": "casualties"}, "Move 1 or more."),
        ({"move_quantity": 2, "box": "retained"}, "The line is already in that box."),
        ({"move_quantity": 2, "box": ""}, "Choose a box."),
        ({"move_quantity": 2, "box": "soviet-rg"}, "Choose one of this side&#x27;s boxes"),
    ],
)
def test_a_bad_move_is_refused_with_a_message(squads, client_as, data, message):
    if data["box"] == "soviet-rg":
        data = {**data, "box": f"rg:{oid(rg(squads.campaign, 'soviet', 'I3').pk)}"}
    response = client_as("german").post(url(squads), {"action": "move", "version": 0, **data})
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert f'value="{data["move_quantity"]}"' in html
    assert OrbatEntry.objects.filter(campaign=squads.campaign, side="german").count() == 1
    assert (fresh(squads).quantity, fresh(squads).version) == (14, 0)


# --- stale edits ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"action": "quantity", "quantity": 13},
        {"action": "edit", "quantity": 14, "statuses": ["hidden"]},
        {"action": "move", "move_quantity": 4, "box": "wounded"},
    ],
)
def test_a_stale_edit_is_refused_and_overwrites_nothing(squads, client_as, data):
    # Two tablets opened the page at version 0; the first adds one.
    client_as("referee").post(url(squads), {"action": "quantity", "quantity": 15, "version": 0})
    client = client_as("german")
    response = client.post(url(squads), {"version": 0, **data})
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Someone else changed this in the meantime." in html
    line = fresh(squads)
    assert (line.quantity, line.statuses, line.box, line.version) == (15, [], "retained", 1)
    assert OrbatEntry.objects.filter(campaign=squads.campaign, side="german").count() == 1


def test_a_stale_edit_with_htmx_shows_the_saved_line_and_the_message(squads, client_as):
    client_as("referee").post(url(squads), {"action": "quantity", "quantity": 15, "version": 0})
    response = client_as("german").post(
        url(squads), {"action": "quantity", "quantity": 13, "version": 0}, headers=HTMX
    )
    html = response.content.decode()
    assert html.lstrip().startswith(f'<li id="entry-{oid(squads.pk)}"')
    assert "Someone else changed this in the meantime." in html
    assert "<strong>15</strong>" in html and 'name="version" value="1"' in html
    assert fresh(squads).quantity == 15


def test_a_stale_removal_is_refused(squads, client_as):
    client_as("referee").post(url(squads), {"action": "quantity", "quantity": 15, "version": 0})
    client = client_as("german")
    response = client.post(remove_url(squads), {"version": 0})
    assert response.status_code == 302
    assert "Someone else changed this" in client.get(response["Location"]).content.decode()
    assert fresh(squads).quantity == 15


# --- removal -------------------------------------------------------------------------------


def test_removing_a_line(squads, client_as):
    client = client_as("german")
    response = client.post(remove_url(squads), {"version": 0})
    assert response.status_code == 302
    assert response["Location"] == page(squads.campaign) + "#box-retained"
    assert not OrbatEntry.objects.filter(pk=squads.pk).exists()
    assert "Removed 14 × 4-6-7." in client.get(response["Location"]).content.decode()
    assert squads.campaign.events.filter(action="orbat.removed", visibility="german").exists()


def test_removing_without_a_version_is_refused(squads, client_as):
    client = client_as("german")
    response = client.post(remove_url(squads), {})
    assert "This form is out of date" in client.get(response["Location"]).content.decode()
    assert OrbatEntry.objects.filter(pk=squads.pk).exists()


# --- HTMX ----------------------------------------------------------------------------------


def test_with_htmx_a_quantity_change_swaps_only_the_line(squads, client_as):
    response = client_as("german").post(
        url(squads), {"action": "quantity", "quantity": 15, "version": 0}, headers=HTMX
    )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert html.lstrip().startswith(f'<li id="entry-{oid(squads.pk)}"')
    assert "orbat-boxes" not in html
    assert "<strong>15</strong>" in html and 'name="version" value="1"' in html
    assert response["HX-Retarget"] == f"#entry-{oid(squads.pk)}"


def test_with_htmx_a_move_or_removal_swaps_the_boxes(squads, client_as):
    client = client_as("german")
    response = client.post(
        url(squads),
        {"action": "move", "version": 0, "move_quantity": 2, "box": "casualties"},
        headers=HTMX,
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="orbat-boxes"')
    assert "Moved 2 × 4-6-7 to Casualties / eliminated." in html
    moved = OrbatEntry.objects.get(campaign=squads.campaign, side="german", box="casualties")
    response = client.post(remove_url(moved), {"version": 0}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="orbat-boxes"')
    assert "Removed 2 × 4-6-7." in html
    assert f'id="entry-{oid(moved.pk)}"' not in html


def test_with_htmx_a_refused_move_comes_back_in_its_line(squads, client_as):
    response = client_as("german").post(
        url(squads),
        {"action": "move", "version": 0, "move_quantity": 20, "box": "casualties"},
        headers=HTMX,
    )
    # The move form aims at the boxes; the refusal is shown in the line instead.
    assert response["HX-Retarget"] == f"#entry-{oid(squads.pk)}"
    html = response.content.decode()
    assert html.lstrip().startswith(f'<li id="entry-{oid(squads.pk)}"')
    assert "Move between 1 and 14" in html
    assert '<option value="casualties" selected>' in html


# --- cost ----------------------------------------------------------------------------------


def test_changing_a_line_costs_the_same_in_a_big_campaign(
    squads, client_as, people, django_assert_max_num_queries
):
    # A new client for each change, so that no message waits from the one before.
    cases = [
        ({"action": "quantity", "quantity": 15}, HTMX),
        ({"action": "move", "move_quantity": 1, "box": "casualties"}, HTMX),
        ({"action": "edit", "quantity": 9, "statuses": ["isolated"]}, {}),
    ]
    counts = []
    for data, headers in cases:
        line, client = fresh(squads), client_as("german")
        with django_assert_max_num_queries(15) as small:
            client.post(url(line), {"version": line.version, **data}, headers=headers)
        counts.append(len(small.captured_queries))
    big = big_campaign(people)
    (line,) = orbat.add_units(
        big, by=people["german"], side="german", box="retained", text="14 × 4-6-7"
    )
    for (data, headers), count in zip(cases, counts, strict=True):
        line, client = fresh(line), client_as("german")
        with django_assert_max_num_queries(count):
            client.post(url(line), {"version": line.version, **data}, headers=headers)
    assert fresh(line).quantity == 9


def test_a_post_that_says_no_change_is_refused(squads, client_as):
    response = client_as("german").post(url(squads), {"version": 0, "quantity": 3})
    assert response.status_code == 400
    assert (fresh(squads).quantity, fresh(squads).version) == (14, 0)
