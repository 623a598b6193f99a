"""The scenario's end page: each side picks its losses from its own OB (the referee both), the
losses become CVP entries of the scenario linked to the OB lines, which move to their divider
boxes in the same change (undone together); the public counts and the winner the VC give."""

import re

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, CvpEntry, OrbatBox, OrbatEntry, Scenario
from campaigns.oid import oid
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from refit.walker import facts
from tests.refit.builders import reph_at

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def end_url(campaign, scenario):
    return reverse("campaigns:scenario_end", args=[campaign.pk, scenario.pk])


def losses_url(campaign, scenario, side):
    return reverse("campaigns:scenario_losses", args=[campaign.pk, scenario.pk, side])


@pytest.fixture
def scenario(campaign, people):
    return records.save_scenario(
        campaign, by=people["referee"], index=0, scenario_type="initial", attacker="german"
    )


def ob(campaign, people, side, text, box=OrbatBox.RETAINED):
    return orbat.add_units(campaign, by=people["referee"], side=side, box=box, text=text)


def loss_data(side, entry, outcome="eliminated", **fields):
    data = {
        f"{side}-outcome_{oid(entry.pk)}": outcome,
        f"{side}-quantity_{oid(entry.pk)}": fields.pop("quantity", ""),
        f"{side}-cvp_{oid(entry.pk)}": fields.pop("cvp", ""),
        f"{side}-phase_{oid(entry.pk)}": fields.pop("phase", "scenario"),
        f"{side}-version_{oid(entry.pk)}": entry.version,
    }
    if fields.pop("no_cvp", False):
        data[f"{side}-nocvp_{oid(entry.pk)}"] = "on"
    return data


def end_data(scenario, **fields):
    data = {"version": scenario.version, "winner": "", "all_stone_locations": ""}
    data.update(fields)
    return data


# --- who sees what --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("persona", "status", "pickers"),
    [
        ("german", 200, ["german"]),
        ("soviet", 200, ["soviet"]),
        ("referee", 200, ["german", "soviet"]),
        ("observer", 200, []),
        ("outsider", 404, None),
    ],
)
def test_each_persona_sees_only_the_ob_it_may_act_for(
    campaign, people, scenario, client_as, persona, status, pickers
):
    ob(campaign, people, "german", "4 × 4-6-7 from I3")
    ob(campaign, people, "soviet", "3 × 4-4-7")
    response = client_as(persona).get(end_url(campaign, scenario))
    assert response.status_code == status
    if status != 200:
        return
    shown = [side.key for side in response.context["sides"] if side.form is not None]
    assert shown == pickers
    page = response.content.decode()
    assert ("4-6-7" in page) == ("german" in pickers)
    assert ("4-4-7" in page) == ("soviet" in pickers)
    assert ('id="end-form"' in page) == (persona != "observer")


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 404), ("referee", 302), ("observer", 404), ("outsider", 404)],
)
def test_only_the_side_and_the_referee_record_its_losses(
    campaign, people, scenario, client_as, persona, status
):
    (line,) = ob(campaign, people, "german", "2 × 4-6-7")
    response = client_as(persona).post(
        losses_url(campaign, scenario, "german"), loss_data("german", line)
    )
    assert response.status_code == status
    assert CvpEntry.objects.filter(campaign=campaign).exists() == (status == 302)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("german", 302), ("soviet", 302), ("referee", 302), ("observer", 403), ("outsider", 404)],
)
def test_every_player_and_the_referee_record_the_public_end(
    campaign, people, scenario, client_as, persona, status
):
    response = client_as(persona).post(
        end_url(campaign, scenario), end_data(scenario, controlled_german=15)
    )
    assert response.status_code == status
    scenario.refresh_from_db()
    assert (scenario.winner == "german") == (status == 302)


def test_a_short_game_has_no_scenario_end(people, client_as):
    from tests.campaigns.records.test_scenarios import make_campaign

    game = make_campaign(people, "defiant_russia", "full-game", "axis")
    turn = records.save_scenario(game, by=people["referee"], index=0, scenario_type="turn")
    assert client_as("german").get(end_url(game, turn)).status_code == 404


# --- losses from the OB ---------------------------------------------------------------------


def test_losses_become_cvp_entries_linked_to_the_lines_moved_to_casualties(
    campaign, people, scenario, client_as
):
    squads, leader = ob(campaign, people, "german", "5 × 4-6-7; 9-1 leader")
    data = {
        **loss_data("german", squads, quantity=2),  # 2 CVP each: a squad (A26.2), pre-filled
        **loss_data("german", leader, "wounded"),
    }
    page = client_as("german").get(end_url(campaign, scenario))
    (german,) = [side for side in page.context["sides"] if side.key == "german"]
    assert [row.known_cvp for row in german.form.rows()] == [2, 2]
    data[f"german-cvp_{oid(squads.pk)}"] = 2
    response = client_as("german").post(losses_url(campaign, scenario, "german"), data)
    assert response.status_code == 302
    squads.refresh_from_db()
    leader.refresh_from_db()
    assert (squads.box, squads.quantity) == (OrbatBox.RETAINED, 3)
    (casualties,) = OrbatEntry.objects.filter(campaign=campaign, box=OrbatBox.CASUALTIES)
    assert (casualties.unit_type, casualties.quantity) == ("4-6-7", 2)
    assert (leader.box, leader.statuses) == (OrbatBox.WOUNDED, ["wounded"])
    (entry,) = CvpEntry.objects.filter(campaign=campaign)
    assert (entry.cvp, entry.what, entry.scenario, entry.orbat_entry) == (
        4,
        "2 × 4-6-7",
        scenario,
        casualties,
    )
    event = CampaignEvent.objects.get(action="scenario.losses")
    assert event.visibility == "german"
    # Undone together: the CVP entry goes, the lines come back.
    history.undo(event, by=people["german"])
    assert not CvpEntry.objects.filter(campaign=campaign).exists()
    squads.refresh_from_db()
    leader.refresh_from_db()
    assert (squads.quantity, leader.box) == (5, OrbatBox.RETAINED)
    assert not OrbatEntry.objects.filter(campaign=campaign, box=OrbatBox.CASUALTIES).exists()


def test_a_unit_the_app_cannot_value_needs_its_cvp_typed(campaign, people, scenario, client_as):
    (tank,) = ob(campaign, people, "german", "StuG III B")
    client = client_as("german")
    response = client.post(losses_url(campaign, scenario, "german"), loss_data("german", tank))
    assert response.status_code == 200
    assert "cannot tell it from the unit" in response.content.decode()
    assert not CvpEntry.objects.exists()
    response = client.post(
        losses_url(campaign, scenario, "german"), loss_data("german", tank, "wreck", cvp=5)
    )
    (entry,) = CvpEntry.objects.all()
    assert (entry.cvp, entry.manual) == (5, True)


def test_the_cvp_table_pre_fills_what_a26_2_does_not_give(campaign, people, scenario, client_as):
    """Issue 15: the players entered the CVP of an AFV type once (the CG victory page); the
    scenario's end pre-fills it and a blank field takes it. A type not in the table is still
    typed, and never guessed."""
    from campaigns.records import victory_data

    victory_data.save_cvp_values(
        campaign, by=people["referee"], values={"StuG  III B": 3}, versions={}
    )
    (tank,) = ob(campaign, people, "german", "StuG III B")
    (gun,) = ob(campaign, people, "german", "MMG")
    client = client_as("german")
    page = client.get(end_url(campaign, scenario)).content.decode()

    def cvp_input(line):
        return re.search(rf'<input[^>]*name="german-cvp_{oid(line.pk)}"[^>]*>', page).group(0)

    assert 'value="3"' in cvp_input(tank)
    assert "value=" not in cvp_input(gun)
    client.post(losses_url(campaign, scenario, "german"), loss_data("german", tank, "wreck"))
    (entry,) = CvpEntry.objects.all()
    assert entry.cvp == 3
    response = client.post(losses_url(campaign, scenario, "german"), loss_data("german", gun))
    assert "cannot tell it from the unit" in response.content.decode()


def test_an_uncontrolled_exit_and_a_late_loss_count_as_the_rules_say(
    campaign, people, scenario, client_as
):
    squads, half = ob(campaign, people, "soviet", "4 × 4-4-7; 2 × 2-2-8")
    data = {
        **loss_data("soviet", squads, "exited_uncontrolled", cvp=2, quantity=1),
        **loss_data("soviet", half, cvp=1, phase="reph_after_vc"),
    }
    client_as("soviet").post(losses_url(campaign, scenario, "soviet"), data)
    exited = CvpEntry.objects.get(exited_uncontrolled=True)
    assert exited.cvp == 2
    reph = reph_at(campaign, "new_day", 1)
    soviet = facts.for_side(campaign, reph, "soviet")
    # CG13: the exit counts for victory (and battle hardening), not for 11.616; the late loss
    # (after 11.6031) for 11.616 only.
    assert (soviet["cvp_scenario"], soviet["cvp_completed"]) == (2, 2)


def test_the_opponents_lines_cannot_be_posted_through_ones_own_side(
    campaign, people, scenario, client_as
):
    (soviet_line,) = ob(campaign, people, "soviet", "4 × 4-4-7")
    response = client_as("german").post(
        losses_url(campaign, scenario, "german"), loss_data("german", soviet_line, cvp=2)
    )
    assert response.status_code == 200  # no such line among the German's: nothing chosen
    assert not CvpEntry.objects.exists()
    soviet_line.refresh_from_db()
    assert soviet_line.box == OrbatBox.RETAINED


def test_a_stale_line_is_refused_and_nothing_is_saved(campaign, people, scenario, client_as):
    (line,) = ob(campaign, people, "german", "4 × 4-6-7")
    data = loss_data("german", line, cvp=2)
    orbat.change_entry(line, by=people["german"], version=line.version, quantity=3)
    response = client_as("german").post(losses_url(campaign, scenario, "german"), data)
    assert response.status_code == 200
    assert not CvpEntry.objects.exists()


# --- the public end and the winner ---------------------------------------------------------


def test_the_winner_is_derived_where_the_vc_are_structured(campaign, people, scenario, client_as):
    # RB CG I's initial scenario: the German wins with >= 15 Stone Locations at the end.
    client = client_as("soviet")
    data = end_data(scenario, controlled_german=14, winner="german")
    client.post(end_url(campaign, scenario), data)
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.end["winner_by"]) == ("soviet", "rules")
    assert scenario.locations == {"german": {"controlled": 14}}
    response = client.get(end_url(campaign, scenario))
    assert "The VC give: Soviet wins." in response.content.decode()


def test_where_the_vc_cannot_be_evaluated_the_players_choose_and_are_told_why(people, client_as):
    from tests.campaigns.records.test_scenarios import make_campaign

    ro = make_campaign(people, "red_factories", "ro-cg-1", "german")
    scenario = records.save_scenario(ro, by=people["referee"], index=0, scenario_type="initial")
    client = client_as("german")
    page = client.get(end_url(ro, scenario)).content.decode()
    assert "The VC cannot be evaluated from what is recorded." in page
    assert "the players judge the winner" in page
    client.post(end_url(ro, scenario), end_data(scenario, winner="german"))
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.end["winner_by"]) == ("german", "players")


def test_a_winner_the_players_chose_is_no_longer_asked_for(campaign, people, client_as):
    """Issue 15 (18 Oct's German Assault): with no Stone Locations recorded the VC cannot
    decide; once the players saved the winner the page says so instead of asking for the
    counts. Recording the counts later lets the VC decide again."""
    assault = records.save_scenario(
        campaign, by=people["referee"], index=1, scenario_type="assault", attacker="german"
    )
    client = client_as("german")
    before = client.get(end_url(campaign, assault)).content.decode()
    assert "Record the Stone Locations gained and lost first." in before
    client.post(end_url(campaign, assault), end_data(assault, winner="german"))
    assault.refresh_from_db()
    assert (assault.winner, assault.end["winner_by"]) == ("german", "players")
    for page in (
        client.get(end_url(campaign, assault)).content.decode(),
        client.get(end_url(campaign, assault), **HX).content.decode(),
    ):
        assert "Record the Stone Locations gained and lost first." not in page
        assert "The players recorded the winner: German." in page
        assert "the players&#x27; choice stands" in page
    client.post(end_url(campaign, assault), end_data(assault, gained_german=1, lost_german=0))
    assault.refresh_from_db()
    assert (assault.winner, assault.end["winner_by"]) == ("soviet", "rules")
    page = client.get(end_url(campaign, assault)).content.decode()
    assert "The players recorded the winner" not in page


def test_an_assault_is_judged_on_the_recorded_losses(campaign, people, client_as):
    assault = records.save_scenario(
        campaign, by=people["referee"], index=1, scenario_type="assault", attacker="german"
    )
    (line,) = ob(campaign, people, "soviet", "10 × 4-4-7")
    client = client_as("referee")
    client.post(losses_url(campaign, assault, "soviet"), loss_data("soviet", line, cvp=2))
    client.post(end_url(campaign, assault), end_data(assault, gained_german=3, lost_german=1))
    assault.refresh_from_db()
    # 20 CVP inflicted, none suffered: at least twice (11.6235).
    assert assault.winner == "german"
    response = client.get(end_url(campaign, assault), **HX)
    assert response["Vary"] and "HX-Request" in response["Vary"]
    assert 'id="scenario-end"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_sap_pages_carry_no_red_factories_texts(people, client_as):
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    frame = records.save_scenario(sap, by=people["referee"], index=0, scenario_type="time_frame")
    ob(sap, people, "german", "4 × 4-6-7")
    page = client_as("german").get(end_url(sap, frame)).content.decode()
    for text in ("Stone Location", "CG13", "CG18"):
        assert text not in page, text
    assert "CG11" in page


def test_the_page_costs_the_same_queries_whatever_the_campaigns_size(
    campaign, people, scenario, client_as, django_assert_max_num_queries
):
    ob(campaign, people, "german", "4 × 4-6-7")
    client = client_as("referee")
    with django_assert_max_num_queries(30) as small:
        client.get(end_url(campaign, scenario))
    for day in range(1, 6):
        other = records.save_scenario(
            campaign, by=people["referee"], index=day, scenario_type="dual_attack"
        )
        records.add_cvp(
            campaign,
            by=people["referee"],
            side="german",
            index=day,
            scenario=other,
            phase="scenario",
            what="x",
            cvp=2,
        )
    ob(campaign, people, "german", "; ".join(f"{n} × 4-6-7" for n in range(1, 20)))
    ob(campaign, people, "soviet", "; ".join(f"{n} × 4-4-7" for n in range(1, 20)))
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(end_url(campaign, scenario))
    assert Scenario.objects.filter(campaign=campaign).count() == 6
    assert len(response.context["sides"][0].form.rows()) == 20


def test_sap_scenario_and_cvp_forms_carry_no_red_factories_texts(people, client_as):
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    client = client_as("german")
    scenarios = client.get(reverse("campaigns:scenarios", args=[sap.pk]))
    assert "night" not in scenarios.context["form"].fields
    cvp = client.get(reverse("campaigns:cvp", args=[sap.pk])).content.decode()
    for page in (scenarios.content.decode(), cvp):
        for text in ("23 Oct", "Night", "Stone Location", "CG13", "CG18"):
            assert text not in page, text
    assert "SaP CG11" in cvp
    # Red Factories keeps them.
    rf = make_campaign(people, "red_factories", "rb-cg-1", "german")
    page = client.get(reverse("campaigns:scenarios", args=[rf.pk])).content.decode()
    assert "23 Oct" in page and "Night" in page and "Stone Location" in page


def test_a_derived_winner_is_not_typed_again_on_the_scenario_form(
    campaign, people, scenario, client_as
):
    client = client_as("german")
    client.post(end_url(campaign, scenario), end_data(scenario, controlled_german=16))
    scenario.refresh_from_db()
    edit = reverse("campaigns:scenario", args=[campaign.pk, scenario.pk])
    form = client.get(edit).context["form"]
    assert form.fields["winner"].disabled
    data = {
        **form.initial,
        "winner": "soviet",
        "turns_played": 7,
        "attacker": "german",
        "sets_up_first": "",
        "moves_first": "",
        "notes": "",
    }
    data = {key: value for key, value in data.items() if value is not None}
    client.post(edit, data)
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.turns_played) == ("german", 7)
    assert scenario.locations == {"german": {"controlled": 16}}


def test_with_htmx_a_side_records_its_losses_in_place(campaign, people, scenario, client_as):
    (line,) = ob(campaign, people, "german", "3 × 4-6-7")
    response = client_as("german").post(
        losses_url(campaign, scenario, "german"), loss_data("german", line, quantity=1), **HX
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert 'id="scenario-end"' in page
    assert "Recorded the end of the scenario for German: 2 CVP." in page
    assert "HX-Request" in response["Vary"]
    # A refused choice is shown again with what was typed, in place.
    response = client_as("german").post(
        losses_url(campaign, scenario, "german"),
        {f"german-outcome_{oid(line.pk)}": "wounded"},
        **HX,
    )
    assert "Choose one of the outcomes offered." in response.content.decode()


def test_losses_recorded_after_the_end_was_saved_are_flagged(campaign, people, client_as):
    assault = records.save_scenario(
        campaign, by=people["referee"], index=1, scenario_type="assault", attacker="german"
    )
    client = client_as("referee")
    client.post(end_url(campaign, assault), end_data(assault, gained_german=2))
    assault.refresh_from_db()
    assert assault.winner == "soviet"  # 2 net, no CVP: the defender
    (line,) = ob(campaign, people, "soviet", "3 × 4-4-7")
    client.post(losses_url(campaign, assault, "soviet"), loss_data("soviet", line, cvp=2))
    page = client.get(end_url(campaign, assault)).content.decode()
    assert "The recorded winner is not the one the VC give now" in page
    client.post(end_url(campaign, assault), end_data(assault, gained_german=2))
    assault.refresh_from_db()
    assert assault.winner == "german"


def test_sap_fortification_lines_of_the_initial_ob_are_only_eliminated(people, client_as):
    """QA: Fanatic Strongpoints (CG16) were offered "wreck / immobilized / abandoned", Hidden
    Mine Belts (CG17) "captured": the data calls them fortifications, so only "eliminated"."""
    from tests.campaigns.records.test_scenarios import make_campaign

    sap = make_campaign(people, "slaughter_at_ponyri", "timetable-disrupted", "german")
    frame = records.save_scenario(sap, by=people["referee"], index=0, scenario_type="time_frame")
    lines = {
        entry.unit_type.split(" (")[0]: entry
        for entry in OrbatEntry.objects.filter(campaign=sap, side="russian")
    }
    strongpoint, mines = lines["Fanatic Strongpoint"], lines["Hidden Mine Belt"]
    assert (strongpoint.kind, mines.kind) == ("fortification", "fortification")
    page = client_as("soviet").get(end_url(sap, frame)).content.decode()
    for entry in (strongpoint, mines):
        name = f"russian-outcome_{oid(entry.pk)}"
        select = page[page.index(f'name="{name}"') :]
        select = select[: select.index("</select>")]
        assert 'value="eliminated"' in select
        for refused in ("wreck", "immobilized", "abandoned", "captured"):
            assert f'value="{refused}"' not in select, refused


@pytest.mark.parametrize(
    ("persona", "sees_wounded"),
    [("german", True), ("referee", True), ("soviet", False), ("observer", False)],
)
def test_every_recorded_outcome_is_in_the_losses_summary(
    campaign, people, scenario, client_as, persona, sees_wounded
):
    """QA: a wounded leader was missing from the summary, and a loss typed at 0 CVP too. The
    wounded leader is the side's own record (its OB), so only who sees the side's secrets reads
    it; the 0-CVP loss is a public CVP entry."""
    squads, leader = ob(campaign, people, "german", "5 × 4-6-7; 9-1 leader")
    (truck,) = ob(campaign, people, "german", "StuG III B")
    data = {
        **loss_data("german", leader, "wounded"),
        **loss_data("german", truck, cvp=0),
    }
    response = client_as("german").post(losses_url(campaign, scenario, "german"), data)
    assert response.status_code == 302
    (entry,) = CvpEntry.objects.filter(campaign=campaign)
    assert (entry.what, entry.cvp) == ("StuG III B", 0)
    page = client_as(persona).get(end_url(campaign, scenario)).content.decode()
    summary = page[page.index('id="losses-german"') : page.index('id="losses-soviet"')]
    assert "StuG III B: 0 CVP" in summary
    assert ("9-1 leader: wounded" in summary) is sees_wounded


def test_the_initial_scenario_says_exactly_which_count_its_vc_still_need(
    campaign, people, scenario, client_as
):
    """QA (RB CG I, 17 Oct): with gained and lost saved, the page still asked vaguely for "the
    Stone Location counts". The VC (L617: at least 15 controlled) need the German's count
    controlled at the end: the page names it; with it recorded, the VC decide."""
    client = client_as("referee")
    client.post(
        end_url(campaign, scenario),
        end_data(scenario, gained_german=4, lost_german=1, gained_soviet=1, lost_soviet=4),
    )
    scenario.refresh_from_db()
    assert scenario.locations["german"] == {"gained": 4, "lost": 1}
    page = client.get(end_url(campaign, scenario)).content.decode()
    assert "Record German&#x27;s Stone Locations controlled at the end" in page
    assert "(controlled at the end, or gained and lost)" not in page
    scenario.refresh_from_db()
    client.post(
        end_url(campaign, scenario),
        end_data(scenario, gained_german=4, lost_german=1, controlled_german=16),
    )
    scenario.refresh_from_db()
    assert (scenario.winner, scenario.end["winner_by"]) == ("german", "rules")
