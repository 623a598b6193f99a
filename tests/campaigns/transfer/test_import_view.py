import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.models import Campaign, CampaignEvent, LedgerEntry, Membership, Scenario
from campaigns.transfer import checker as transfer_checker
from campaigns.transfer import load as transfer_load
from campaigns.transfer import services as transfer
from tests.campaigns.transfer.test_services import GERMAN_SECRETS, big_campaign, play_some_days

pytestmark = pytest.mark.django_db

URL = reverse("campaigns:import")


@pytest.fixture
def played(campaign, people):
    return play_some_days(campaign, people)


def exported(campaign, user) -> bytes:
    return transfer.dumps(transfer.build_export(viewer_for(user, campaign.pk))).encode()


def upload(content: bytes, name="campaign.json"):
    return SimpleUploadedFile(name, content, content_type="application/json")


def new_campaigns(before):
    return Campaign.objects.exclude(pk__in=before)


# --- the page ------------------------------------------------------------------------------


def test_any_signed_in_user_gets_the_form(client_as):
    response = client_as("outsider").get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html
    assert f'href="{URL}"' in html and "Import a campaign" in html


def test_an_anonymous_visitor_is_asked_to_sign_in(client):
    for response in (client.get(URL), client.post(URL)):
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_the_page_takes_a_fixed_number_of_queries(client_as, django_assert_max_num_queries):
    client = client_as("outsider")
    with django_assert_max_num_queries(3):
        assert client.get(URL).status_code == 200


# --- importing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exporter", "role", "side"),
    [
        ("referee", "referee", ""),
        ("soviet", "player", "soviet"),
        ("german", "player", "german"),
        ("observer", "observer", ""),
    ],
)
def test_an_export_becomes_a_new_campaign_with_the_importer_in_the_files_role(
    played, people, client_as, exporter, role, side
):
    before = list(Campaign.objects.values_list("pk", flat=True))
    response = client_as("outsider").post(
        URL, {"file": upload(exported(played, people[exporter]))}, follow=True
    )
    (imported,) = new_campaigns(before)
    assert response.redirect_chain == [(reverse("campaigns:detail", args=[imported.pk]), 302)]
    assert imported.name == "Into the Factory, club night (imported)"
    assert imported.created_by == people["outsider"]
    (membership,) = Membership.objects.filter(campaign=imported)
    assert (membership.user, membership.role, membership.side) == (people["outsider"], role, side)
    assert "Imported “Into the Factory, club night (imported)”." in response.content.decode()
    assert CampaignEvent.objects.filter(campaign=imported, action="campaign.imported").count() == 1


def test_the_imported_campaigns_pages_open(played, people, client_as):
    client = client_as("outsider")
    client.post(URL, {"file": upload(exported(played, people["referee"]))})
    imported = Campaign.objects.get(name__endswith="(imported)")
    for name in ("detail", "history", "members", "dice_log"):
        assert client.get(reverse(f"campaigns:{name}", args=[imported.pk])).status_code == 200
    history = client.get(reverse("campaigns:history", args=[imported.pk])).content.decode()
    assert "Created the campaign “Into the Factory, club night”." in history
    # Who rolled is told by the imported rolls' history events: nobody here rolled them.
    log = client.get(reverse("campaigns:dice_log", args=[imported.pk]))
    assert [row.rolled_by for row in log.context["rows"]] == [
        "referee",
        "referee",
        "soviet",
        "german",
    ]
    assert "Rolled before the EC" in log.content.decode()


def test_a_round_trip_through_the_views_is_lossless(played, client_as):
    first = json.loads(
        client_as("referee").get(reverse("campaigns:export", args=[played.pk])).getvalue()
    )
    client = client_as("outsider")
    client.post(URL, {"file": upload(json.dumps(first).encode())})
    imported = Campaign.objects.get(name__endswith="(imported)")
    second = json.loads(client.get(reverse("campaigns:export", args=[imported.pk])).getvalue())
    for data in (first, second):
        del data["exported_at"], data["campaign"]["name"], data["campaign"]["created_at"]
        del data["members"]
        data["history"] = [e for e in data["history"] if e["action"] != "campaign.imported"]
    assert second == first


# --- secrecy -------------------------------------------------------------------------------


def test_importing_a_copy_gives_no_way_into_the_original(played, people, client_as):
    client = client_as("outsider")
    client.post(URL, {"file": upload(exported(played, people["referee"]))})
    assert client.get(reverse("campaigns:detail", args=[played.pk])).status_code == 404
    assert client.get(reverse("campaigns:export", args=[played.pk])).status_code == 404


def test_the_original_members_are_not_in_the_copy(played, people, client_as):
    client_as("outsider").post(URL, {"file": upload(exported(played, people["referee"]))})
    imported = Campaign.objects.get(name__endswith="(imported)")
    for persona in ("german", "soviet", "referee", "observer"):
        response = client_as(persona).get(reverse("campaigns:export", args=[imported.pk]))
        assert response.status_code == 404, persona


def test_a_player_who_edits_the_scope_gets_only_what_their_file_held(played, people, client_as):
    # Claiming "full" makes them referee of their own copy, which holds no German rows.
    data = json.loads(exported(played, people["soviet"]))
    data["scope"] = "full"
    client = client_as("soviet")
    client.post(URL, {"file": upload(json.dumps(data).encode())})
    imported = Campaign.objects.get(name__endswith="(imported)")
    assert not LedgerEntry.objects.filter(campaign=imported, side="german").exists()
    content = client.get(reverse("campaigns:export", args=[imported.pk])).getvalue().decode()
    for secret in GERMAN_SECRETS:
        assert secret not in content, secret


def test_a_side_file_carrying_the_other_sides_rows_is_refused(played, people, client_as):
    data = json.loads(exported(played, people["referee"]))
    data["scope"] = "side:soviet"
    response = client_as("soviet").post(URL, {"file": upload(json.dumps(data).encode())})
    assert "is secret in a file of scope “side:soviet”" in response.content.decode()
    assert not Campaign.objects.filter(name__endswith="(imported)").exists()


# --- refusals ------------------------------------------------------------------------------


def refused(client, content: bytes, name="campaign.json"):
    before = Campaign.objects.count()
    response = client.post(URL, {"file": upload(content, name)})
    assert response.status_code == 200
    assert Campaign.objects.count() == before
    html = response.content.decode()
    assert "Choose the file again" in html
    assert 'class="errorlist' in html
    return html


@pytest.fixture
def good(played, people):
    return json.loads(exported(played, people["referee"]))


def test_a_file_that_is_not_json_is_refused(client_as):
    html = refused(client_as("outsider"), b"\x89PNG\r\n\x1a\n", "map.png")
    assert "The file is not JSON." in html


def test_a_file_with_the_wrong_format_marker_is_refused(client_as, good):
    html = refused(client_as("outsider"), json.dumps({**good, "format": "vassal.save"}).encode())
    assert "not a campaign export" in html


def test_an_unsupported_format_version_is_refused(client_as, good):
    html = refused(client_as("outsider"), json.dumps({**good, "format_version": 7}).encode())
    assert "export format version 7" in html and "Update the app" in html


def test_an_unknown_game_is_refused(client_as, good):
    data = {**good, "campaign": {**good["campaign"], "module": "panzer_leader"}}
    html = refused(client_as("outsider"), json.dumps(data).encode())
    assert "a game this installation does not have" in html


def test_an_unknown_campaign_game_is_refused(client_as, good):
    data = {**good, "campaign": {**good["campaign"], "campaign_game": "rb-cg-42"}}
    html = refused(client_as("outsider"), json.dumps(data).encode())
    assert "a campaign game Red Factories does not have" in html


def test_newer_game_data_is_refused(client_as, good):
    data = {**good, "campaign": {**good["campaign"], "data_version": "9"}}
    html = refused(client_as("outsider"), json.dumps(data).encode())
    assert "game data version 9" in html


def test_a_bad_row_is_named(client_as, good):
    good["ledger"][2]["amount"] = "lots"
    html = refused(client_as("outsider"), json.dumps(good).encode())
    assert "ledger, entry 3, “amount”: must be a whole number." in html


def test_a_file_over_5_mb_is_refused(client_as, good):
    padded = json.dumps({**good, "padding": "x" * (5 * 1024 * 1024)}).encode()
    html = refused(client_as("outsider"), padded)
    assert "larger than 5 MB" in html


def test_an_empty_post_asks_for_a_file(client_as):
    response = client_as("outsider").post(URL, {})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


def test_an_empty_file_is_refused(client_as):
    html = client_as("outsider").post(URL, {"file": upload(b"")}).content.decode()
    assert "The submitted file is empty." in html


# --- crafted files -------------------------------------------------------------------------


def pages_of(campaign, user):
    """Every page of the campaign the user may open (GET), side pages of the visible sides."""
    viewer = viewer_for(user, campaign.pk)
    pk = campaign.pk
    last = len(campaign.cg.periods) - 1
    urls = [
        reverse(f"campaigns:{name}", args=[pk])
        for name in ("detail", "members", "calendar", "scenarios", "cvp", "history", "dice_log")
    ]
    urls += [reverse("campaigns:export", args=[pk])]
    urls += [reverse("campaigns:day", args=[pk, index]) for index in (0, last)]
    urls += [
        reverse("campaigns:scenario", args=[pk, scenario.pk])
        for scenario in Scenario.objects.filter(campaign=campaign)
    ]
    for side in viewer.visible_sides():
        urls += [reverse(f"campaigns:{name}", args=[pk, side]) for name in ("roster", "ledger")]
        urls += [reverse("campaigns:orbat", args=[pk, side])]
        if viewer.can_act_for_side(side):
            urls += [reverse("campaigns:side_day", args=[pk, side, index]) for index in (0, last)]
    return urls


def event_of(data, action):
    return next(event for event in data["history"] if event["action"] == action)


def odd_but_harmless(data):
    """Everything a file may hold that this app never writes, but that the format allows."""
    data["history"] += [
        # An action this app does not know renders as its key, whatever its data.
        {"action": "house_rule.applied", "visibility": "public", "data": {"amount": "lots"}},
        # Known actions: keys not read are kept; days and sides that are not there render empty.
        {
            "action": "ledger.added",
            "visibility": "public",
            "data": {"side": "romanian", "index": 99, "amount": 3, "extra": [[{"x": None}]]},
        },
        {"action": "orbat.added", "visibility": "public", "data": {"units": []}},
        {"action": "dice.rolled", "visibility": "public", "data": {}},
        {"action": "member.joined", "visibility": "public", "data": {"role": "emperor"}},
        {"action": "change.undone", "visibility": "public", "data": {"undone": 99999}},
        {"action": "refit.step_marked", "visibility": "public", "data": {"status": "skipped"}},
    ]
    event_of(data, "member.joined")["data"]["invitation"] = 4242
    data["scenarios"][0]["locations"] = {"german": {"gained": None, "lost": 2}, "soviet": {}}
    data["rgs"][0]["details"] = {"sw": [{"name": ["MMG", {"en": "x", "ja": "y"}]}], "n": 1.5}
    rg_line = next(row for row in data["orbat"] if row["box"] == "rg")
    rg_line.update(statuses=["teleported", ""], kind="spaceship", unit_type="½-0-9")
    data["dice_rolls"][0].update(
        result=[{"a": [1, {"en": "x"}]}, None, True, 1.5, "text"],
        table_id="no.such.table",
        step="99.9",
        side="",
    )
    data["side_days"][0].update(hist_drm=-5, initiative_chit="No such chit")
    data["days"][0].update(moon="Blue", weather="Frogs")


def refuse_with(section, field, value):
    def change(data):
        data[section][0][field] = value

    return change


def event_data(action, **values):
    def change(data):
        event_of(data, action)["data"].update(values)

    return change


@pytest.mark.parametrize(
    ("exporter", "change", "refused_with"),
    [
        ("referee", odd_but_harmless, None),
        ("soviet", odd_but_harmless, None),
        ("referee", refuse_with("history", "created_at", "2024-02-30T10:00:00"), "“created_at”"),
        ("referee", refuse_with("cvp", "scenario", [1]), "“scenario”: must be an id"),
        ("referee", refuse_with("orbat", "group", [1]), "“group”: must be an id"),
        ("referee", refuse_with("scenarios", "locations", {"german": 3}), "“locations.german”"),
        ("soviet", event_data("ledger.added", amount="x"), "“data.amount”: must be a whole"),
        ("referee", event_data("orbat.added", units=[1]), "“data.units”: must be a list of"),
        ("referee", event_data("dice.rolled", faces=6), "“data.faces”: must be a list of"),
        ("referee", event_data("dice.rolled", final="6"), "“data.final”: must be a whole"),
        ("referee", event_data("cvp.added", cvp=None), "“data.cvp”: must be a whole"),
    ],
)
def test_a_crafted_file_is_refused_or_every_page_of_the_copy_opens(
    played, people, client_as, exporter, change, refused_with
):
    data = json.loads(exported(played, people[exporter]))
    change(data)
    client = client_as("outsider")
    if refused_with:
        html = refused(client, json.dumps(data).encode())
        assert refused_with in html
        return
    before = list(Campaign.objects.values_list("pk", flat=True))
    assert client.post(URL, {"file": upload(json.dumps(data).encode())}).status_code == 302
    (imported,) = new_campaigns(before)
    urls = pages_of(imported, people["outsider"])
    assert len(urls) >= (19 if exporter == "referee" else 16)
    for page in urls:
        assert client.get(page).status_code == 200, page
    history = client.get(reverse("campaigns:history", args=[imported.pk])).content.decode()
    assert "house_rule.applied" in history


def test_an_invalid_date_is_refused_naming_the_entry(good, client_as):
    good["history"][2]["created_at"] = "2024-02-30T10:00:00"
    html = refused(client_as("outsider"), json.dumps(good).encode())
    assert "history, entry 3, “created_at”: must be a date and time (ISO 8601)." in html


def test_a_digit_that_is_no_number_is_refused(good, client_as):
    data = {**good, "campaign": {**good["campaign"], "data_version": "²"}}
    html = refused(client_as("outsider"), json.dumps(data).encode())
    assert "“data_version” must be a whole number written as text." in html


def test_anything_unforeseen_refuses_the_file_as_damaged(good, client_as, monkeypatch):
    def broken(value):
        raise TypeError("a case nobody thought of")

    monkeypatch.setattr(transfer_checker, "parse_datetime", broken)
    html = refused(client_as("outsider"), json.dumps(good).encode())
    assert "ledger, entry 1: The file is damaged or not an export of this app." in html


def test_a_value_the_database_refuses_writes_nothing(good, client_as, monkeypatch):
    from django.db import DataError

    def refused_by_database(*args, **kwargs):
        raise DataError("value too long for type character varying(20)")

    monkeypatch.setattr(transfer_load, "_restore_times", refused_by_database)
    events = CampaignEvent.objects.count()
    html = refused(client_as("outsider"), json.dumps(good).encode())
    assert "The file is damaged or not an export of this app." in html
    assert "character varying" not in html
    assert CampaignEvent.objects.count() == events


# --- size ----------------------------------------------------------------------------------


def test_importing_a_big_campaign_writes_in_batches_not_row_by_row(
    people, client_as, django_assert_max_num_queries
):
    big = big_campaign(people, rows=300)
    content = exported(big, people["referee"])
    rows = sum(len(v) for v in json.loads(content).values() if isinstance(v, list))
    assert rows > 1400
    client = client_as("outsider")
    # A few queries per table (the Refit Phase's RePhs: an insert and their start times; the
    # initial OB's Fortified Building Locations fill the fortification table).
    # (+2: the dice commitments' insert and their times)
    with django_assert_max_num_queries(46):
        response = client.post(URL, {"file": upload(content)})
    assert response.status_code == 302
