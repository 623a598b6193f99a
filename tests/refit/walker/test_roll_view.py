"""Rolling one of a step's dice tables from the step page: logged, never redone silently."""

import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import CampaignEvent, DiceRoll, SideDay
from campaigns.oid import oid
from refit.walker import services as walker
from tests.refit.builders import booby_traps, finish_phase, mark_past
from tests.refit.walker.test_services import walk_all

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def roll_url(campaign, side="german", rule="11.620"):
    return reverse("refit:roll", args=[campaign.pk, side, rule])


def step_url(campaign, side="german", rule="11.620"):
    return reverse("refit:step", args=[campaign.pk, side, rule])


def text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def data(reph, table="rf.rg-strength", drm=None, note="", **answers):
    """A roll form's post; ``drm`` is the one DRM the player adds: (value, reason)."""
    posted = {"reph": reph.pk, "table": table, "note": note}
    if drm is not None:
        posted["drm"], posted["reason"] = drm
    posted.update({f"q_{key.replace('_', '-')}": value for key, value in answers.items()})
    return posted


@pytest.fixture
def reph(campaign, people):
    """Before the initial scenario, both sides past 11.619: 11.620 (secret) is current. The
    Historical DRM of the first day is entered (the rules do not give it)."""
    SideDay.objects.filter(campaign=campaign, index=0).update(hist_drm=0)
    reph = walker.open_reph(campaign)
    for side in ("german", "soviet"):
        mark_past(campaign, reph, side, "11.619", people)
    return reph


@pytest.fixture
def after(campaign, people, reph):
    """The RePh after the initial scenario."""
    for step in walker.steps(campaign, reph)[1:]:
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    scenario = finish_phase(campaign, reph, by=people["referee"])
    return finish_phase(campaign, scenario, by=people["referee"])


def public_step_current(campaign, people, after, rule="11.606"):
    """Walk both sides up to ``rule`` (a public step) in the RePh after the scenario."""
    for step in walker.steps(campaign, after):
        if step.rule == rule:
            return
        for side in ("german", "soviet"):
            mark_past(campaign, after, side, step.rule, people)


# --- who may roll --------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["soviet", "observer", "outsider"])
def test_nobody_else_rolls_for_a_german_secret_step(campaign, client_as, reph, persona, htmx):
    headers = HTMX if htmx else {}
    response = client_as(persona).post(roll_url(campaign), data(reph), headers=headers)
    assert response.status_code == 404
    assert not DiceRoll.objects.exists()


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona, status", [("soviet", 403), ("observer", 403), ("outsider", 404)])
def test_a_public_steps_table_is_rolled_by_its_side_and_the_referee_only(
    campaign, client_as, people, after, persona, status, htmx
):
    public_step_current(campaign, people, after)
    headers = HTMX if htmx else {}
    response = client_as(persona).post(
        roll_url(campaign, "german", "11.606"), data(after, "rf.escape"), headers=headers
    )
    assert response.status_code == status
    assert not DiceRoll.objects.exists()


def test_a_public_roll_is_public(campaign, client_as, people, after):
    public_step_current(campaign, people, after)
    with dice.use_roller(Loaded(2, 3)):
        response = client_as("referee").post(
            roll_url(campaign, "german", "11.606"), data(after, "rf.escape", note="Hero in C4")
        )
    assert response.status_code == 302
    roll = DiceRoll.objects.get()
    assert (roll.visibility, roll.side, roll.step, roll.kind) == (
        "public",
        "german",
        "11.606",
        "DR",
    )
    observer = client_as("observer").get(step_url(campaign, "german", "11.606")).content.decode()
    assert "Hero in C4" in observer
    assert "roll-form" not in observer


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client, reph):
    assert client.post(roll_url(campaign), data(reph)).status_code == 302
    assert not DiceRoll.objects.exists()


# --- rolling -------------------------------------------------------------------------------


def test_a_roll_is_logged_with_its_dice_drms_and_result(campaign, client_as, people, reph):
    SideDay.objects.filter(campaign=campaign, index=0, side="german").update(hist_drm=-2)
    client = client_as("german")
    with dice.use_roller(Loaded(6, 5)):
        response = client.post(roll_url(campaign), data(reph, drm=(1, "Balance"), note="I1 #1"))
    assert response.status_code == 302
    assert response["Location"] == step_url(campaign) + "#rolls"
    roll = DiceRoll.objects.get()
    assert (roll.faces, roll.original, roll.final) == ([6, 5], 11, 10)
    assert roll.modifiers == [
        {
            "value": -2,
            "reason": "Historical DRM (11.6161)",
            "id": "historical",
            # The app's words, in every language: each reader reads their own.
            "words": {"en": "Historical DRM (11.6161)", "ja": "史的DRM (11.6161)"},
        },
        {"value": 1, "reason": "Balance"},  # the player's own words, as typed
    ]
    assert roll.result["strength"] == "depleted"
    assert (roll.visibility, roll.index, roll.rolled_by, roll.note) == (
        "german",
        0,
        people["german"],
        "I1 #1",
    )
    assert CampaignEvent.objects.filter(action="dice.rolled", visibility="german").count() == 1
    html = client.get(response["Location"]).content.decode()
    assert (
        "RG Strength Table: DR 6 + 5 −2 (Historical DRM (11.6161)) +1 (Balance) = 10 → Depleted"
        in html
    )


def test_a_dr_table_rolls_one_die(campaign, client_as, reph):
    with dice.use_roller(Loaded(4)):
        client_as("german").post(roll_url(campaign), data(reph, "rf.infantry-company-sw"))
    roll = DiceRoll.objects.get()
    assert (roll.kind, roll.faces, roll.table_id) == ("dr", [4], "rf.infantry-company-sw")


def test_every_roll_stays_in_the_log(campaign, client_as, reph):
    client = client_as("german")
    with dice.use_roller(Loaded(1, 1, 6, 6)):
        client.post(roll_url(campaign), data(reph, note="first"))
        client.post(roll_url(campaign), data(reph, note="again"))
    assert DiceRoll.objects.count() == 2
    html = client.get(step_url(campaign)).content.decode()
    rows = re.findall(r"<tr data-roll=.*?</tr>", html, re.DOTALL)
    assert ["again" in text(rows[0]), "first" in text(rows[1])] == [True, True]


@pytest.mark.parametrize(
    "table, message",
    [
        ("rf.weather", "Choose one of this step&#x27;s dice tables."),  # another step's table
        ("rf.historical-drm", "Choose one of this step&#x27;s dice tables."),  # a chart
        ("", "Choose one of this step&#x27;s dice tables."),
    ],
)
def test_only_the_steps_dice_tables_are_rolled(campaign, client_as, reph, table, message):
    response = client_as("german").post(roll_url(campaign), data(reph, table), follow=True)
    assert message in response.content.decode()
    assert not DiceRoll.objects.exists()


@pytest.mark.parametrize(
    "drm, message",
    [
        ((10, "Too much"), "A DRM is between −9 and +9."),
        ((-10, "Too little"), "A DRM is between −9 and +9."),
        (("two", "Words"), "Type a whole number between −9 and +9."),
        ((-1, ""), "Say where this DRM comes from."),
        (("", "Historical DRM"), "Give this DRM&#x27;s value, or clear its reason."),
    ],
)
def test_a_bad_added_drm_is_refused_and_kept(campaign, client_as, reph, drm, message):
    response = client_as("german").post(roll_url(campaign), data(reph, drm=drm, note="keep me"))
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert "Nothing was rolled: check the DRMs." in html
    assert 'value="keep me"' in html
    value, reason = drm
    if reason:
        assert f'value="{reason}"' in html
    form = re.search(r'<details class="roll" open>.*?</details>', html, re.DOTALL).group(0)
    assert 'value="rf.rg-strength"' in form
    assert not DiceRoll.objects.exists()


def test_drms_that_could_take_the_roll_off_the_table_are_refused(
    campaign, client_as, people, after
):
    # The Booby Trap Level Reduction dr (11.6123) covers final rolls 1 to 6 only.
    booby_traps(campaign)  # level B: the Soviet rolls it
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    response = client_as("soviet").post(
        roll_url(campaign, "soviet", "11.612"),
        data(new_day, "rf.booby-trap-reduction", drm=(2, "Wishful")),
    )
    html = response.content.decode()
    assert "Those DRMs take the roll off rf.booby-trap-reduction." in html
    assert not DiceRoll.objects.exists()


def test_a_roll_is_made_on_the_sides_current_step_only(campaign, client_as, reph):
    response = client_as("german").post(
        roll_url(campaign, "german", "11.621"), data(reph, "rf.recon"), follow=True
    )
    assert "Roll for 11.621 while it is the side&#x27;s current step (now: 11.620)." in (
        response.content.decode()
    )
    assert not DiceRoll.objects.exists()


def test_a_page_from_a_finished_refit_phase_rolls_nothing(campaign, client_as, people, reph):
    for step in walker.steps(campaign, reph)[1:]:
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    finish_phase(campaign, reph, by=people["referee"])
    response = client_as("german").post(roll_url(campaign), data(reph), follow=True)
    assert "already finished" in response.content.decode()
    assert not DiceRoll.objects.exists()


def test_with_htmx_the_dice_block_shows_the_new_roll(campaign, client_as, reph):
    with dice.use_roller(Loaded(2, 2)):
        response = client_as("german").post(
            roll_url(campaign), data(reph, note="I1 #2"), headers=HTMX
        )
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-dice">')
    assert "RG Strength Table: DR 2 + 2 = 4 → Full" in html
    rolls = re.search(r'<section id="rolls">.*?</section>', html, re.DOTALL).group(0)
    assert "I1 #2" in rolls and "DR 2 + 2 = 4" in text(rolls)


def test_with_htmx_bad_drms_come_back_in_the_block(campaign, client_as, reph):
    response = client_as("german").post(roll_url(campaign), data(reph, drm=(-1, "")), headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="step-dice">')
    assert "Say where this DRM comes from." in html
    assert not DiceRoll.objects.exists()


# --- secrecy -------------------------------------------------------------------------------


def test_the_germans_secret_roll_never_reaches_the_soviet(campaign, client_as, people, reph):
    with dice.use_roller(Loaded(5, 6)):
        client_as("german").post(
            roll_url(campaign), data(reph, drm=(-1, "QUUX reason"), note="XYZZY company")
        )
    roll = DiceRoll.objects.get()
    assert roll.visibility == "german"
    client = client_as("soviet")
    pages = [reverse("refit:overview", args=[campaign.pk])] + [
        step_url(campaign, "soviet", step.rule) for step in walker.steps(campaign, reph)
    ]
    for page in pages:
        html = client.get(page).content.decode()
        assert "XYZZY" not in html and "QUUX" not in html
        assert f'data-roll="{oid(roll.pk)}"' not in html
    assert "XYZZY company" in client_as("referee").get(step_url(campaign)).content.decode()


def test_a_secret_table_in_a_public_step_rolls_secretly(campaign, client_as, people, after):
    # 11.612 is public; its SAN adjustment dr (11.6122) is secret.
    walk_all(campaign, after, people)
    new_day = finish_phase(campaign, after, by=people["referee"])
    SideDay.objects.filter(campaign=campaign, index=new_day.index, side="german").update(san=4)
    with dice.use_roller(Loaded(6)):
        client_as("german").post(
            roll_url(campaign, "german", "11.612"),
            data(new_day, "rf.san-adjustment", note="SAN XYZZY"),
        )
    assert DiceRoll.objects.get().visibility == "german"
    html = client_as("soviet").get(step_url(campaign, "german", "11.612")).content.decode()
    assert "XYZZY" not in html


def _walk_to_new_day(campaign, people):
    """Walk both sides to the new-day RePh of 18 Oct, then up to 11.616 for the German."""
    for outcome in ({}, {}, {"cg_won": False}):
        reph = walker.open_reph(campaign)
        for step in walker.steps(campaign, reph):
            for side in ("german", "soviet"):
                mark_past(campaign, reph, side, step.rule, people)
        finish_phase(campaign, reph, by=people["referee"], **outcome)
    reph = walker.open_reph(campaign)
    for step in walker.steps(campaign, reph):
        if step.rule == "11.616":
            break
        for side in ("german", "soviet"):
            mark_past(campaign, reph, side, step.rule, people)
    return reph


def test_the_cpp_replenishment_is_rolled_with_the_campaigns_drms_and_booked(
    campaign, client_as, people
):
    from campaigns.models import LedgerEntry
    from tests.campaigns.dice.test_services import Loaded

    reph = _walk_to_new_day(campaign, people)
    url = reverse("refit:step", args=[campaign.pk, "german", "11.616"])
    page = client_as("german").get(url).content.decode()
    assert "DRMs from the campaign:" in page and "Historical DRM (11.6161)" in page
    # The Soviet does not see the German's step, nor a way to roll it.
    assert client_as("soviet").get(url).status_code == 404
    roll_url = reverse("refit:roll", args=[campaign.pk, "german", "11.616"])
    with dice.use_roller(Loaded(4, 6)):
        client_as("german").post(roll_url, {"reph": reph.pk, "table": "rf.cpp-replenishment"})
    entry = LedgerEntry.objects.get(campaign=campaign, side="german", kind="replenishment")
    # DR 10, Historical DRM −2, deemed Attack chit +1 → 9 → +14 CPP (no CVP lost here).
    assert (entry.index, entry.amount) == (1, 14)
    assert (
        client_as("soviet")
        .post(roll_url, {"reph": reph.pk, "table": "rf.cpp-replenishment"})
        .status_code
        == 404
    )


def test_an_unknown_historical_drm_is_explained_instead_of_a_roll(campaign, client_as, people):
    _walk_to_new_day(campaign, people)
    url = reverse("refit:step", args=[campaign.pk, "soviet", "11.616"])
    page = client_as("soviet").get(url).content.decode()
    assert "The Historical DRM for this day is unknown" in page
    assert "Roll and book the CPP" not in page
