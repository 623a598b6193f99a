"""Cherkassy Pocket's combat helper: what only the map tells is declared by the attacker, kept
with the combat's roll, shown on the turn page, and the rules refuse what it makes illegal
(11.14 river and lake, 11.22 artillery range)."""

import pytest
from django.urls import reverse

from campaigns.access import viewer_for
from campaigns.dice import services as dice
from campaigns.models import DiceRoll, GameUnit
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from rosters.builders import build_sheet
from tests.campaigns.dice.test_services import Loaded
from tests.campaigns.shortgames.test_cp_combat import CRT, enter, units

pytestmark = pytest.mark.django_db


def roll(client, campaign, query, token="t1"):
    url = reverse("shortgames:combat", args=[campaign.pk])
    with dice.use_roller(Loaded(4)):
        return client.post(url, {"count": "1", **query, "turn": 0, "token": token})


def soviet_units(cp_started, people):
    return short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name="254 RR",
                unit_type="infantry",
                formation="27 A",
                size="regiment",
                full="4-4-8",
                hex="2223",
            ),
            UnitData(
                side="soviet",
                name="255 RR",
                unit_type="infantry",
                formation="27 A",
                size="regiment",
                full="3-3-8",
                hex="2224",
            ),
            UnitData(
                side="soviet",
                name="1 Art",
                unit_type="artillery",
                formation="27 A",
                artillery_range=3,
                hex="2426",
            ),
            UnitData(side="soviet", name="2 Art", unit_type="artillery", hex="2427"),
        ],
    )


def test_no_attack_across_a_lake_and_no_die_is_spent(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, tank = units(cp_started, people)
    query = {"side": "german", "attackers": german.pk, "defenders": tank.pk, "lake": "1"}
    response = roll(client_as("german"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 400
    assert "lake hexside" in html and "(11.14)" in html or "11.14" in html
    assert not DiceRoll.objects.exists()
    assert roll(client_as("german"), cp_started, {**query, "lake": ""}).status_code == 200
    assert DiceRoll.objects.count() == 1


def test_a_tank_across_a_river_is_refused(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, tank = units(cp_started, people)
    query = {"side": "soviet", "attackers": tank.pk, "defenders": german.pk, "river": tank.pk}
    response = roll(client_as("soviet"), cp_started, query)
    assert response.status_code == 400
    assert "may not attack across a river hexside" in response.content.decode()
    assert not DiceRoll.objects.exists()


def test_river_attackers_are_halved_and_the_facts_are_kept_with_the_roll(
    cp_started, people, client_as
):
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, r255, art, _art2 = soviet_units(cp_started, people)
    query = {
        "side": "soviet",
        "attackers": [r254.pk, r255.pk, art.pk],
        "defenders": german.pk,
        "river": [r254.pk, r255.pk],
        f"distance-{art.pk}": "3",
    }
    response = roll(client_as("soviet"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 200, html
    # 4 + 3 across the river = 7 → 4 (rounded up) against 8: 1:2.
    assert "4 against 8" in html and 'id="river-attack"' in html
    made = DiceRoll.objects.get(step="11.9")
    assert made.result["declared"] == {
        "river": ["254 RR", "255 RR"],
        "lake": False,
        "artillery": [{"unit": "1 Art", "range": 3, "distance": 3}],
    }
    # The turn page lists the combat with what was declared.
    page = client_as("observer").get(reverse("shortgames:turn", args=[cp_started.pk]))
    text = page.content.decode()
    assert 'id="cp-combats"' in text and "254 RR, 255 RR" in text and "1 Art" in text
    # So does the status sheet, in both languages.
    viewer = viewer_for(people["observer"], cp_started.pk)
    english = build_sheet(viewer, "soviet", "status", "en")
    (table,) = [t for t in english.tables if t.title == "This turn's combats"]
    (row,) = table.rows
    assert "across a river: 254 RR, 255 RR (11.14)" in row.cells[2]
    assert "1 Art: 3 hexes, range 3 (11.22)" in row.cells[2]
    japanese = build_sheet(viewer, "soviet", "status", "ja")
    (table,) = [t for t in japanese.tables if "戦闘" in str(t.title)]
    assert "河川" in table.rows[0].cells[2]


def test_artillery_one_hex_beyond_its_range_is_refused(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, _r255, art, _art2 = soviet_units(cp_started, people)
    query = {
        "side": "soviet",
        "attackers": [r254.pk, art.pk],
        "defenders": german.pk,
        f"distance-{art.pk}": "4",
    }
    response = roll(client_as("soviet"), cp_started, query)
    assert response.status_code == 400
    assert "beyond its range of 3" in response.content.decode()
    assert not DiceRoll.objects.exists()
    # No distance declared: asked for, not rolled.
    response = roll(client_as("soviet"), cp_started, {**query, f"distance-{art.pk}": ""})
    assert response.status_code == 400
    assert "distance to the target" in response.content.decode()
    assert not DiceRoll.objects.exists()
    # A distance that is no number of hexes is refused, not dropped.
    for typed in ("0", "100", "three"):
        response = roll(client_as("soviet"), cp_started, {**query, f"distance-{art.pk}": typed})
        assert response.status_code == 400, typed
        assert "whole number of hexes from 1 to 99" in response.content.decode(), typed
    assert not DiceRoll.objects.exists()


def test_a_range_not_entered_shows_unknown_and_is_not_judged(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, _r255, _art, art2 = soviet_units(cp_started, people)
    query = {
        "side": "soviet",
        "attackers": [r254.pk, art2.pk],
        "defenders": german.pk,
        f"distance-{art2.pk}": "9",
    }
    response = roll(client_as("soviet"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 200
    assert "range unknown (not checked)" in html
    roster = client_as("soviet").get(reverse("shortgames:units", args=[cp_started.pk]))
    assert "range unknown" in roster.content.decode()
    assert "range 3" in roster.content.decode()


def test_only_artillery_has_a_range(cp_started, people):
    with pytest.raises(Exception, match="only an artillery unit has a range"):
        short_games.add_units(
            cp_started,
            by=people["referee"],
            units=[UnitData(side="soviet", name="x", unit_type="infantry", artillery_range=2)],
        )
    assert not GameUnit.objects.filter(name="x").exists()


@pytest.mark.parametrize(
    "persona, status", [("german", 200), ("soviet", 200), ("referee", 200), ("observer", 200)]
)
def test_every_member_reads_the_turns_combats_and_an_outsider_nothing(
    cp_started, people, client_as, persona, status
):
    enter(cp_started, people, "cp.crt", CRT)
    german, tank = units(cp_started, people)
    query = {"side": "german", "attackers": german.pk, "defenders": tank.pk, "note": "Olshana"}
    assert roll(client_as("german"), cp_started, query).status_code == 200
    url = reverse("shortgames:turn", args=[cp_started.pk])
    response = client_as(persona).get(url)
    assert response.status_code == status
    assert "Olshana" in response.content.decode().split('id="cp-combats"')[1]
    assert client_as("outsider").get(url).status_code == 404


# The chart's river row as printed: "½" in its combat column (11.12, 11.14).
RIVER_TEC = {"clear": {"combat": "—"}, "river": {"combat": "½"}}


@pytest.mark.parametrize(
    ("ticked", "attack", "replaced"),
    [
        # 254 RR (4) ticked across: 4 → 2, 255 RR (3) in full: 5 (not halved again to 3).
        ("254", 5, True),
        # Nothing ticked: the chart's river row halves the whole attack, 7 → 4.
        ("", 4, False),
    ],
)
def test_the_terrain_charts_river_row_and_the_ticks_halve_the_attack_once(
    cp_started, people, client_as, ticked, attack, replaced
):
    enter(cp_started, people, "cp.crt", CRT)
    enter(cp_started, people, "cp.tec", RIVER_TEC)
    german, _tank = units(cp_started, people)
    r254, r255, _art, _art2 = soviet_units(cp_started, people)
    query = {
        "side": "soviet",
        "attackers": [r254.pk, r255.pk],
        "defenders": german.pk,
        "shifts": "terrain",
        "terrain": "river",
        "river": [r254.pk] if ticked else [],
    }
    response = roll(client_as("soviet"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 200, html
    assert f"{attack} against 8" in html
    assert ('id="chart-halving-replaced"' in html) is replaced


def test_defending_artillery_must_reach_the_defender_it_supports(cp_started, people, client_as):
    """11.22: "支援砲撃を受ける自軍ユニット" lies within the supporting artillery's range too."""
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, r255, _art, _art2 = soviet_units(cp_started, people)
    (german_art,) = short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="german",
                name="II/AR 108",
                unit_type="artillery",
                artillery_range=3,
                hex="2022",
            )
        ],
    )
    query = {
        "side": "soviet",
        "attackers": [r254.pk, r255.pk],
        "defenders": [german.pk, german_art.pk],
        f"distance-{german_art.pk}": "4",
    }
    # The page offers the artillery among the defenders, with its distance to declare.
    page = client_as("german").get(
        reverse("shortgames:combat", args=[cp_started.pk]), {"side": "soviet"}
    )
    assert "distance to the defending unit it supports" in page.content.decode()
    # One hex beyond its range: refused, no die.
    response = roll(client_as("soviet"), cp_started, query)
    assert response.status_code == 400
    assert "the defending unit it supports is 4 hexes away, beyond its range of 3" in (
        response.content.decode()
    )
    assert not DiceRoll.objects.exists()
    # No distance: asked for.
    response = roll(client_as("soviet"), cp_started, {**query, f"distance-{german_art.pk}": ""})
    assert response.status_code == 400
    assert "distance in hexes to the defending unit it supports" in response.content.decode()
    # At its range: rolled, the declaration kept and shown as the defence's.
    response = roll(client_as("soviet"), cp_started, {**query, f"distance-{german_art.pk}": "3"})
    assert response.status_code == 200, response.content.decode()
    made = DiceRoll.objects.get(step="11.9")
    assert made.result["declared"]["artillery"] == [
        {"unit": "II/AR 108", "range": 3, "distance": 3, "defending": True}
    ]
    page = client_as("observer").get(reverse("shortgames:turn", args=[cp_started.pk]))
    assert "II/AR 108 supporting the defence: 3 hexes, range 3 (11.22)" in page.content.decode()


def test_strengths_typed_by_hand_are_said_and_kept_as_the_players_own(
    cp_started, people, client_as
):
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, _r255, art, _art2 = soviet_units(cp_started, people)
    query = {
        "side": "soviet",
        "attackers": [r254.pk, art.pk],
        "defenders": german.pk,
        f"distance-{art.pk}": "2",
        "attack": "5",  # the artillery's fire die (11.25), typed
    }
    response = roll(client_as("soviet"), cp_started, query)
    html = response.content.decode()
    assert response.status_code == 200, html
    assert "9 against 8" in html and 'id="typed-by-hand"' in html
    made = DiceRoll.objects.get(step="11.9")
    assert made.result["typed"] == {"attack": 5, "defense": 0}
    page = client_as("observer").get(reverse("shortgames:turn", args=[cp_started.pk]))
    assert "typed by hand: attack +5, defence +0" in page.content.decode()


def test_nothing_typed_says_nothing(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    german, _tank = units(cp_started, people)
    r254, _r255, _art, _art2 = soviet_units(cp_started, people)
    query = {"side": "soviet", "attackers": [r254.pk], "defenders": german.pk}
    html = roll(client_as("soviet"), cp_started, query).content.decode()
    assert 'id="typed-by-hand"' not in html
    assert "typed" not in DiceRoll.objects.get(step="11.9").result
