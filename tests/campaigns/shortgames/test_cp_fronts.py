"""Cherkassy Pocket 11.16's Soviet Front split, 11.27's prepared attack and 11.18's 5 MC
exception, through the services and pages: the split recorded as data when the points are
credited, shown on the points page, turn page and status sheet; a Soviet combat tagged with its
Front spends that Front's point (refused naming 11.16 when it has none), with undo."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import CampaignEvent, DiceRoll, GameUnit, PointEntry, PointKind
from campaigns.shortgames import combat, combat_rolls, turn_marks, turn_points, turn_rolls
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from rosters.builders import build_sheet
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.shortgames.test_cp_combat import CRT, enter
from tests.campaigns.shortgames.test_turns import mark_all

pytestmark = pytest.mark.django_db


def to_turn(campaign, index):
    campaign.period_index = index
    campaign.save(update_fields=["period_index"])


def fronts(campaign, index=None):
    index = campaign.period_index if index is None else index
    return {f.front: (f.received, f.left) for f in turn_points.front_points(campaign, index)}


def mark_air(campaign, people, side="soviet", order="combat_first", step="s1.air_power"):
    return turn_marks.mark(
        campaign,
        index=campaign.period_index,
        side=side,
        step_id=step,
        by=people[side],
        order=order,
    )


def roll_soviet_air(campaign, people, face):
    with dice.use_roller(Loaded(face)):
        return turn_rolls.roll_table(
            campaign,
            index=campaign.period_index,
            side="soviet",
            step_id="s1.air_power",
            table_id="cp.air-points-soviet",
            by=people["soviet"],
        )


def test_turn_0_is_not_split_and_turn_1_is(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    assert fronts(cp_started) == {}  # 11.16: not on turn 0
    assert list(PointEntry.objects.values_list("front", "amount")) == [("", 3)]
    to_turn(cp_started, 1)
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    assert fronts(cp_started) == {"1uf": (3, 3), "2uf": (3, 3)}  # 6 fixed points, 3 and 3


def test_a_rolled_odd_credit_gives_the_odd_point_to_the_1st_uf(cp_started, people):
    to_turn(cp_started, 2)
    mark_all(cp_started, people, upto="s1.air_power")
    roll_soviet_air(cp_started, people, 5)
    assert fronts(cp_started) == {"1uf": (3, 3), "2uf": (2, 2)}
    event = CampaignEvent.objects.get(action="points.added", data__what="received")
    assert event.data["fronts"] == {"1uf": 3, "2uf": 2}
    # The credit's undo takes both rows back.
    history.undo(event, by=people["soviet"])
    assert not PointEntry.objects.filter(campaign=cp_started).exists()


def test_once_the_pocket_has_formed_the_points_are_not_split(cp_started, people):
    to_turn(cp_started, 2)
    short_games.set_pocket(cp_started, by=people["soviet"], formed=True, version=0)
    mark_all(cp_started, people, upto="s1.air_power")
    roll_soviet_air(cp_started, people, 5)
    assert fronts(cp_started) == {}
    assert list(PointEntry.objects.values_list("front", "amount")) == [("", 5)]


def soviet_combat(cp_started, front, shifts=("air",)):
    entry = {
        "side": "soviet",
        "attack": 12,
        "defense": 6,
        "attackers": [],
        "defenders": [],
        "shifts": list(shifts),
        "terrain": "",
        "front": front,
    }
    return combat.cp_combat(cp_started, entry, {}, {})


def roll(cp_started, people, counted, token):
    with dice.use_roller(Loaded(4)):
        return combat_rolls.roll_cp_combat(
            cp_started,
            counted,
            index=cp_started.period_index,
            side="soviet",
            by=people["soviet"],
            token=token,
        )


def test_a_soviet_combat_spends_its_fronts_point_and_not_one_more(cp_started, people):
    enter(cp_started, people, "cp.crt", CRT)
    to_turn(cp_started, 2)
    mark_all(cp_started, people, upto="s1.air_power")
    roll_soviet_air(cp_started, people, 3)  # 1st UF 2, 2nd UF 1
    mark_air(cp_started, people, order="move_first")
    first = soviet_combat(cp_started, "2uf")
    assert not first.blocked and first.front == "2uf"
    made = roll(cp_started, people, first, "f1")
    assert made.result["front"] == "2uf"  # the combat's Front, kept with its roll
    assert fronts(cp_started) == {"1uf": (2, 2), "2uf": (1, 0)}
    # One over: the 2nd UF has no point left; the 1st UF's are not its to spend.
    second = soviet_combat(cp_started, "2uf")
    assert second.blocked and "(11.16)" in second.blocked[0].en
    assert "2nd Ukrainian Front has 0" in second.blocked[0].en
    with pytest.raises(Exception, match="11.16"):
        roll(cp_started, people, second, "f2")
    assert DiceRoll.objects.filter(step="11.9").count() == 1  # no die spent on the refusal
    # Without its Front a Soviet air shift is refused while the points are split.
    assert "which Front" in soviet_combat(cp_started, "").blocked[0].en
    # The 1st UF spends its own.
    roll(cp_started, people, soviet_combat(cp_started, "1uf"), "f3")
    assert fronts(cp_started) == {"1uf": (2, 1), "2uf": (1, 0)}
    # Undo gives the point back to its Front; the credit cannot be undone while it is spent.
    credit = CampaignEvent.objects.get(action="points.added", data__what="received")
    with pytest.raises(history.UndoError, match="would leave the air points"):
        history.undo(credit, by=people["referee"])
    spent = CampaignEvent.objects.filter(action="points.added", data__what="used")
    history.undo(spent.order_by("id").last(), by=people["soviet"])
    assert fronts(cp_started) == {"1uf": (2, 2), "2uf": (1, 0)}


def test_turn_1s_fixed_credit_is_not_taken_back_once_a_front_spent(cp_started, people):
    to_turn(cp_started, 1)
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    turn_points.add_points(
        cp_started,
        by=people["soviet"],
        side="soviet",
        index=1,
        kind=PointKind.AIR,
        action=PointEntry.Action.USED,
        amount=-3,
        front="1uf",
    )
    with pytest.raises(Exception, match="spent"):
        turn_marks.unmark(
            cp_started, index=1, side="soviet", step_id="s1.air_power", by=people["soviet"]
        )
    with pytest.raises(Exception, match="1st Ukrainian Front has 0"):
        turn_points.add_points(
            cp_started,
            by=people["soviet"],
            side="soviet",
            index=1,
            kind=PointKind.AIR,
            action=PointEntry.Action.USED,
            amount=-1,
            front="1uf",
        )


def test_a_front_on_german_points_is_refused(cp_started, people):
    with pytest.raises(Exception, match="Front"):
        turn_points.add_points(
            cp_started,
            by=people["referee"],
            side="german",
            index=0,
            kind=PointKind.AIR,
            action=PointEntry.Action.ADJUSTMENT,
            amount=2,
            note="test",
            front="1uf",
        )


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_sees_each_fronts_points(cp_started, people, client_as, persona):
    to_turn(cp_started, 1)
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    client = client_as(persona)
    points = client.get(reverse("shortgames:points", args=[cp_started.pk])).content.decode()
    assert "1st Ukrainian Front: 3 received, 3 left" in points
    turn = client.get(reverse("shortgames:turn", args=[cp_started.pk])).content.decode()
    assert 'id="front-points"' in turn and "2nd Ukrainian Front: 3 received, 3 left" in turn
    page = client.get(reverse("shortgames:combat", args=[cp_started.pk])).content.decode()
    assert 'id="front-left-1uf">3<' in page


def test_an_outsider_sees_no_fronts(cp_started, client_as):
    response = client_as("outsider").get(reverse("shortgames:points", args=[cp_started.pk]))
    assert response.status_code == 404


def test_the_status_sheet_names_each_fronts_points_in_both_languages(cp_started, people):
    to_turn(cp_started, 1)
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    viewer = viewer_for(people["observer"], cp_started.pk)
    english = build_sheet(viewer, "soviet", "status", "en")
    facts = {f.label: f.value for f in english.facts}
    assert facts["Air points per Front (11.16)"] == (
        "1st Ukrainian Front: 3 received, 3 left; 2nd Ukrainian Front: 3 received, 3 left"
    )
    japanese = build_sheet(viewer, "soviet", "status", "ja")
    assert any("第1ウクライナ正面軍" in str(f.value) for f in japanese.facts)


def test_the_combat_page_posts_the_front_and_the_points_page_books_one(
    cp_started, people, client_as
):
    enter(cp_started, people, "cp.crt", CRT)
    to_turn(cp_started, 1)
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people)
    url = reverse("shortgames:combat", args=[cp_started.pk])
    query = {"side": "soviet", "attack": 12, "defense": 6, "shifts": "air", "front": "2uf"}
    with dice.use_roller(Loaded(4)):
        response = client_as("soviet").post(url, {**query, "count": 1, "turn": 1, "token": "p1"})
    assert response.status_code == 200
    assert fronts(cp_started) == {"1uf": (3, 3), "2uf": (3, 2)}
    assert client_as("soviet").get(url, {**query, "front": "9uf"}).status_code == 404
    client_as("soviet").post(
        reverse("shortgames:points_change", args=[cp_started.pk]),
        {"turn": 1, "side": "soviet", "kind": "air", "action": "used", "amount": 3, "front": "1uf"},
    )
    assert fronts(cp_started) == {"1uf": (3, 0), "2uf": (3, 2)}


# --- 11.27: combat first gives the prepared-attack shift -----------------------------------------


def test_combat_first_gives_the_prepared_attack_shift_by_itself(cp_started, people):
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people, order="combat_first")
    mark_air(cp_started, people, side="german", order="move_first")
    counted = soviet_combat(cp_started, "", shifts=())
    assert counted.prepared_auto and "prepared_attack" in counted.shifts
    assert (counted.shift, counted.column, counted.shift_rules) == (1, "3:1", ("11.27",))
    # The German declared movement first: no shift, and ticking it is refused (11.27).
    entry = {
        "side": "german",
        "attack": 12,
        "defense": 6,
        "attackers": [],
        "defenders": [],
        "shifts": ["prepared_attack"],
        "terrain": "",
    }
    german = combat.cp_combat(cp_started, entry, {}, {})
    assert german.column == "2:1"
    assert any("(11.27)" in reason.en for reason in german.blocked)


def test_the_combat_page_says_the_prepared_attack_applies(cp_started, people, client_as):
    mark_all(cp_started, people, upto="s1.air_power")
    mark_air(cp_started, people, order="combat_first")
    mark_air(cp_started, people, side="german", order="move_first")
    url = reverse("shortgames:combat", args=[cp_started.pk])
    html = (
        client_as("observer")
        .get(url, {"count": 1, "side": "soviet", "attack": 12, "defense": 6})
        .content.decode()
    )
    assert 'id="prepared-attack"' in html and '<span id="column">3:1</span>' in html
    assert 'name="shifts" value="prepared_attack" checked' in html


# --- 11.18: the 5 MC tank brigade that started with 5 GTC --------------------------------------


def brigades(cp_started, people, with_5gtc):
    return short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name="20 GTBde",
                unit_type="tank",
                formation="5 GTC",
                size="brigade",
                full="6-4-16",
                hex="2625",
            ),
            UnitData(
                side="soviet",
                name="233 TBde",
                unit_type="tank",
                formation="5 MC",
                size="brigade",
                full="5-4-16",
                hex="2625",
                with_5gtc=with_5gtc,
            ),
            UnitData(
                side="german",
                name="I/105",
                unit_type="infantry",
                formation="72 ID",
                size="battalion",
                full="6-8-12",
                hex="2626",
            ),
        ],
    )


@pytest.mark.parametrize(("with_5gtc", "legal"), [(True, True), (False, False)])
def test_the_5mc_brigade_attacks_with_5gtc_only_when_entered(cp_started, people, with_5gtc, legal):
    enter(cp_started, people, "cp.crt", CRT)
    gtc, mc, german = brigades(cp_started, people, with_5gtc)
    units = {u.pk: u for u in (gtc, mc, german)}
    strengths = dict(combat.cp_units(cp_started))
    entry = {
        "side": "soviet",
        "attack": 0,
        "defense": 0,
        "attackers": [gtc.pk, mc.pk],
        "defenders": [german.pk],
        "shifts": [],
        "terrain": "",
    }
    counted = combat.cp_combat(
        cp_started, entry, {pk: strengths[u] for pk, u in units.items()}, units
    )
    assert (not counted.blocked) == legal
    if not legal:
        assert "(11.18)" in counted.blocked[0].en


def test_only_a_5mc_tank_brigade_is_entered_as_starting_with_5gtc(cp_started, people):
    with pytest.raises(Exception, match="11.18"):
        short_games.add_units(
            cp_started,
            by=people["referee"],
            units=[
                UnitData(
                    side="soviet",
                    name="110 TBde",
                    unit_type="tank",
                    formation="18 TC",
                    size="brigade",
                    full="5-4-16",
                    with_5gtc=True,
                )
            ],
        )
    assert not GameUnit.objects.filter(campaign=cp_started).exists()
