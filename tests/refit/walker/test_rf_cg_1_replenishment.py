"""RF CG I "Red Factories" (11.58): 11.616's CPP replenishment DR once per map group (one on the
RB map, one on the RO map), each with its map group's Historical DRM, both into the side's one
CPP pool — played through the step page for 12 Nov by both sides, with the roster read after."""

import re

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, LedgerEntry, SideDay
from refit.walker import automatic, strictness
from refit.walker import services as walker
from tests.conftest import red_factories_campaign
from tests.refit.builders import reph_at
from tests.refit.walker.test_automatic import walk_to

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


class Loaded:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def rf(people):
    return red_factories_campaign(people, "rf-cg-1", "Red Factories, both maps")


@pytest.fixture
def nov_12(rf, people):
    """12 Nov's RePh (the second CG day), both sides at 11.616. The referee entered the
    Historical DRM per map group: German RB −1, RO 0; Soviet RB +1, RO +2 (test values: the
    chart is not in our rules)."""
    SideDay.objects.filter(campaign=rf, index=1, side="german").update(
        hist_drms={"RB": -1, "RO": 0}, san=3, elr=4
    )
    SideDay.objects.filter(campaign=rf, index=1, side="soviet").update(
        hist_drms={"RB": 1, "RO": 2}, san=3, elr=3
    )
    reph = reph_at(rf, "new_day", 1)
    walk_to(rf, reph, people, "11.616")
    return reph


def roll_url(campaign, side):
    return reverse("refit:roll", args=[campaign.pk, side, "11.616"])


def step_url(campaign, side):
    return reverse("refit:step", args=[campaign.pk, side, "11.616"])


def post(reph, group):
    return {"reph": reph.pk, "table": "rf.cpp-replenishment", "note": "", "map_group": group}


def step_of(campaign, reph):
    return next(s for s in walker.steps(campaign, reph) if s.rule == "11.616")


def test_both_sides_roll_once_per_map_group_and_the_roster_shows_both(rf, nov_12, client_as):
    # German: RB 3+4 −1 (Hist RB) +1 (Attack chit, 11.5) = 7 → +15; RO 5+5 +0 +1 = 11 → +13.
    # Soviet: RB 1+1 +1 (Hist RB) = 3 → +17; RO 6+6 +2 (Hist RO) = 14 → +12.
    german, soviet = client_as("german"), client_as("soviet")
    with dice.use_roller(Loaded(3, 4, 5, 5, 1, 1, 6, 6)):
        for client, side in ((german, "german"), (soviet, "soviet")):
            for group in ("RB", "RO"):
                response = client.post(roll_url(rf, side), post(nov_12, group))
                assert response.status_code == 302
    rolls = {
        (r.side, r.result["map_group"]): (r.final, r.result["cpp"])
        for r in DiceRoll.objects.filter(table_id="rf.cpp-replenishment")
    }
    assert rolls == {
        ("german", "RB"): (7, 15),
        ("german", "RO"): (11, 13),
        ("soviet", "RB"): (3, 17),
        ("soviet", "RO"): (14, 12),
    }
    german_rb = DiceRoll.objects.get(side="german", result__map_group="RB")
    reasons = [m["reason"] for m in german_rb.modifiers]
    assert "Historical DRM (11.6161) RB" in reasons
    booked = {
        (e.side, e.map_group): e.amount
        for e in LedgerEntry.objects.filter(kind="replenishment", index=1)
    }
    assert booked == {
        ("german", "RB"): 15,
        ("german", "RO"): 13,
        ("soviet", "RB"): 17,
        ("soviet", "RO"): 12,
    }
    # The roster: Repl the sum as the form is filled, each map group's part beside it;
    # Total = Start (the initial OB's 34 / 26 CPP, nothing spent on 11 Nov) + Repl.
    page = german.get(reverse("campaigns:roster", args=[rf.pk, "german"])).content.decode()
    row = page[page.index('id="day-1"') :]
    row = row[: row.index("</tr>")]
    assert re.search(r'class="num cpp-repl">28 <span class="repl-parts">\(RB 15 \+ RO 13\)', row)
    assert 'class="num cpp-total">62<' in row
    assert "RB −1" in text(row) and "RO 0" in text(row)
    soviet_page = soviet.get(reverse("campaigns:roster", args=[rf.pk, "soviet"])).content.decode()
    soviet_row = soviet_page[soviet_page.index('id="day-1"') :]
    soviet_row = soviet_row[: soviet_row.index("</tr>")]
    assert "(RB 17 + RO 12)" in soviet_row
    assert 'class="num cpp-total">55<' in soviet_row
    # Each side's step may now be marked: both of its rolls are made.
    for side in ("german", "soviet"):
        assert strictness.missing(rf, nov_12, side, step_of(rf, nov_12)) == []


def test_the_step_offers_one_roll_per_map_group_each_once(rf, nov_12, client_as):
    german = client_as("german")
    page = german.get(step_url(rf, "german")).content.decode()
    assert 'data-map-group="RB"' in page and 'data-map-group="RO"' in page
    assert page.count('name="map_group" value="RB"') == 1
    with dice.use_roller(Loaded(3, 4)):
        german.post(roll_url(rf, "german"), post(nov_12, "RB"))
    again = german.post(roll_url(rf, "german"), post(nov_12, "RB"), follow=True)
    assert "Already rolled for RB" in text(again.content.decode())
    assert DiceRoll.objects.filter(side="german").count() == 1
    page = german.get(step_url(rf, "german")).content.decode()
    assert 'name="map_group" value="RB"' not in page  # no roll form left for RB
    assert 'name="map_group" value="RO"' in page


def test_a_roll_without_its_map_group_is_refused(rf, nov_12, people):
    with pytest.raises(automatic.AutomaticRollError, match="once for each map group"):
        automatic.roll(
            rf,
            nov_12,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
        )
    with pytest.raises(automatic.AutomaticRollError, match="not a map group"):
        automatic.roll(
            rf,
            nov_12,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
            map_group="XX",
        )
    assert not DiceRoll.objects.exists()


def test_the_step_cannot_be_marked_with_one_roll_of_two(rf, nov_12, people):
    with dice.use_roller(Loaded(3, 4)):
        automatic.roll(
            rf,
            nov_12,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
            map_group="RO",
        )
    missing = strictness.missing(rf, nov_12, "german", step_of(rf, nov_12))
    assert [r.key for r in missing] == ["rf.cpp-replenishment"]
    assert missing[0].text.endswith("Still to roll for: RB (11.58, one DR per map group).")
    with pytest.raises(walker.WalkerError):
        walker.mark(rf, nov_12, side="german", rule="11.616", by=people["german"])


def test_a_roll_waits_for_its_own_map_groups_historical_drm(rf, nov_12, client_as):
    SideDay.objects.filter(campaign=rf, index=1, side="german").update(hist_drms={"RB": -1})
    page = text(client_as("german").get(step_url(rf, "german")).content.decode())
    assert page.count("The Historical DRM for this day is unknown") == 1  # RO only
    with dice.use_roller(Loaded(3, 4)):
        refused = client_as("german").post(roll_url(rf, "german"), post(nov_12, "RO"), follow=True)
    assert "The Historical DRM for this day is unknown" in text(refused.content.decode())
    assert not DiceRoll.objects.exists()


def test_undo_takes_back_one_roll_and_leaves_the_other(rf, nov_12, people):
    with dice.use_roller(Loaded(3, 4, 5, 5)):
        for group in ("RB", "RO"):
            automatic.roll(
                rf,
                nov_12,
                side="german",
                step="11.616",
                table_id="rf.cpp-replenishment",
                answers={},
                by=people["german"],
                map_group=group,
            )
    rb = LedgerEntry.objects.get(kind="replenishment", map_group="RB")
    event = CampaignEvent.objects.get(action="ledger.added", data__undo__0__pk=rb.pk)
    history.undo(event, by=people["german"])
    assert list(
        LedgerEntry.objects.filter(kind="replenishment").values_list("map_group", "amount")
    ) == [("RO", 13)]
    # The roll stays in the log; its booking is offered again, for RB alone.
    rb_plan = automatic.plan(rf, nov_12, "german", "rf.cpp-replenishment", map_group="RB")
    assert rb_plan.unbooked is not None and rb_plan.unbooked.result["map_group"] == "RB"
    ro_plan = automatic.plan(rf, nov_12, "german", "rf.cpp-replenishment", map_group="RO")
    assert ro_plan.unbooked is None
    automatic.book_again(
        rf,
        nov_12,
        side="german",
        step="11.616",
        table_id="rf.cpp-replenishment",
        by=people["german"],
        map_group="RB",
    )
    assert LedgerEntry.objects.get(kind="replenishment", map_group="RB").amount == 15


@pytest.mark.parametrize(
    "persona, status", [("soviet", 404), ("observer", 404), ("outsider", 404), ("referee", 302)]
)
def test_only_the_side_and_the_referee_roll_it(rf, nov_12, client_as, persona, status):
    with dice.use_roller(Loaded(3, 4)):
        response = client_as(persona).post(roll_url(rf, "german"), post(nov_12, "RB"))
    assert response.status_code == status
    assert DiceRoll.objects.exists() == (status == 302)


def test_with_htmx_the_dice_block_comes_back_with_the_other_group_still_to_roll(
    rf, nov_12, client_as
):
    with dice.use_roller(Loaded(3, 4)):
        response = client_as("german").post(
            roll_url(rf, "german"), post(nov_12, "RB"), headers=HTMX
        )
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="step-dice"' in body
    assert 'name="map_group" value="RO"' in body
    assert "15 CPP booked as this day&#x27;s replenishment for RB." in body


def test_a_campaign_on_one_map_group_still_rolls_once(campaign, people):
    """RB CG I: one DR a day, no map group (the roll refuses one)."""
    SideDay.objects.filter(campaign=campaign, index=1).update(hist_drm=0, san=3, elr=3)
    reph = reph_at(campaign, "new_day", 1)
    walk_to(campaign, reph, people, "11.616")
    with pytest.raises(automatic.AutomaticRollError, match="rolls it once, not per map group"):
        automatic.roll(
            campaign,
            reph,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
            map_group="RB",
        )
    with dice.use_roller(Loaded(3, 4)):
        automatic.roll(
            campaign,
            reph,
            side="german",
            step="11.616",
            table_id="rf.cpp-replenishment",
            answers={},
            by=people["german"],
        )
    entry = LedgerEntry.objects.get(kind="replenishment")
    assert entry.map_group == ""


def test_the_elr_roll_asks_which_map_groups_historical_drm_applies(rf, nov_12, people, client_as):
    """11.617 is one DR per side: with RB −1 and RO 0 the side says which applies (11.58 does
    not); the choice is logged with the roll."""
    walk_to(rf, nov_12, people, "11.617")
    the_plan = automatic.plan(rf, nov_12, "german", "rf.elr-change")
    (question,) = [q for q in the_plan.resolution.questions if q.id == "historical"]
    assert question.choices == (-1, 0)
    page = client_as("german").get(reverse("refit:step", args=[rf.pk, "german", "11.617"]))
    assert "RB −1, RO 0" in text(page.content.decode())
    with pytest.raises(automatic.AutomaticRollError):  # a value of neither group
        automatic.roll(
            rf,
            nov_12,
            side="german",
            step="11.617",
            table_id="rf.elr-change",
            answers={"historical": "2"},
            by=people["german"],
        )
    with dice.use_roller(Loaded(3, 4)):
        rolled = automatic.roll(
            rf,
            nov_12,
            side="german",
            step="11.617",
            table_id="rf.elr-change",
            answers={"historical": "-1"},
            by=people["german"],
        )
    assert [m["value"] for m in rolled.roll.modifiers if m.get("id") == "historical"] == [-1]


def test_the_rolls_and_their_bookings_round_trip_the_export(rf, nov_12, people):
    from campaigns.access import viewer_for
    from campaigns.transfer import services as transfer

    with dice.use_roller(Loaded(3, 4, 5, 5)):
        for group in ("RB", "RO"):
            automatic.roll(
                rf,
                nov_12,
                side="german",
                step="11.616",
                table_id="rf.cpp-replenishment",
                answers={},
                by=people["german"],
                map_group=group,
            )
    data = transfer.build_export(viewer_for(people["referee"], rf.pk))
    copy_ = transfer.load(
        transfer.parse_export(transfer.dumps(data).encode()), user=people["outsider"]
    )
    rolls = DiceRoll.objects.filter(campaign=copy_, table_id="rf.cpp-replenishment")
    assert sorted(r.result["map_group"] for r in rolls) == ["RB", "RO"]
    assert sorted(
        LedgerEntry.objects.filter(campaign=copy_, kind="replenishment").values_list(
            "map_group", "amount"
        )
    ) == [("RB", 15), ("RO", 13)]
