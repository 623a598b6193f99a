"""Cherkassy Pocket's combat helper: odds, column shifts, the CRT roll through
campaigns.dice.services —
and no roll while the referee's CRT (or TEC, for a terrain shift) is missing."""

import pytest
from django.urls import reverse

from campaigns.dice import services as dice
from campaigns.models import DiceRoll, PointEntry, PointKind
from campaigns.shortgames import combat, combat_rolls, turn_points, turn_steps
from campaigns.shortgames import services as short_games
from campaigns.shortgames.rules.cherkassy import combat as cp_combat
from campaigns.shortgames.units import UnitData
from tests.campaigns.dice.test_services import Loaded

pytestmark = pytest.mark.django_db

CRT = {
    column: {str(face): {"attacker_steps": 0, "defender_steps": face % 3} for face in range(1, 7)}
    for column in ("1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")
}
CRT["2:1"]["4"] = {"attacker_steps": 1, "defender_steps": 1}  # 11.9's printed example
# Entered before the grids, as JSON: read into a grid ("road" has no combat effect, "—").
TEC = {
    "woods": {"column_shift": -1},
    "clear": {"column_shift": 0},
    "road": {"column_shift": 0, "note": "none"},
}


def units(cp_started, people):
    return short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="german",
                name="I/105",
                unit_type="infantry",
                formation="72 ID",
                size="battalion",
                full="6-8-12",
                reduced="3-4-12",
                hex="2121",
            ),
            UnitData(
                side="soviet",
                name="20 TC",
                unit_type="tank",
                full="9-6-16",
                reduced="5-3-16",
                state="reduced",
                hex="2222",
            ),
        ],
    )


def enter(cp_started, people, slot, data):
    short_games.save_referee_table(
        cp_started, by=people["referee"], slot_id=slot, data=data, version=0
    )


def test_attack_and_defence_as_the_counter_shows_them(cp_started, people):
    german, soviet = units(cp_started, people)
    strengths = dict(combat.cp_units(cp_started))
    assert strengths[german] == (6, 8)
    assert strengths[soviet] == (5, 3)  # reduced side


def test_the_terrain_shifts_come_from_the_referees_tec(cp_started, people):
    data = short_games.game_data(cp_started)
    assert cp_combat.terrain_shifts(short_games.referee_tables(cp_started), data) == {}
    enter(cp_started, people, "cp.tec", TEC)
    referee = short_games.referee_tables(cp_started)
    assert cp_combat.terrain_shifts(referee, data) == {"woods": -1, "clear": 0, "road": 0}
    rows = [{"id": "hill", "column_shift": -2}, {"terrain": "town", "column_shift": True}]
    assert cp_combat.terrain_shifts({"cp.tec": rows}, data) == {"hill": -2}


def test_no_roll_until_the_crt_is_entered(cp_started, people):
    combat = combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=[])
    assert combat.odds == "2:1" and combat.column == "2:1"
    assert combat.blocked and "11.9" in combat.blocked[0].en
    with pytest.raises(turn_steps.TurnError):
        combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="a1"
        )
    assert not DiceRoll.objects.exists()


def test_a_terrain_shift_needs_the_tec(cp_started, people):
    enter(cp_started, people, "cp.crt", CRT)
    assert not combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=["air"]).blocked
    combat = combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=["air", "terrain"])
    assert combat.blocked and "10.8" in combat.blocked[0].en
    enter(cp_started, people, "cp.tec", TEC)
    combat = combat_rolls.cp_combat(
        cp_started, attack=12, defense=6, shifts=["air", "terrain"], terrain="woods"
    )
    assert not combat.blocked
    assert (combat.shift, combat.column) == (0, "2:1")  # R1 air, L1 woods
    assert combat.shift_rules == ("11.16", "11.12")


def test_the_roll_is_logged_with_its_crt_result_and_not_doubled(cp_started, people):
    enter(cp_started, people, "cp.crt", CRT)
    combat = combat_rolls.cp_combat(cp_started, attack=26, defense=7, shifts=["prepared_attack"])
    assert (combat.odds, combat.column) == ("3:1", "4:1")  # 11.6's example, then R1
    with dice.use_roller(Loaded(5)):
        made = combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="abc"
        )
        again = combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="abc"
        )
    assert made.pk == again.pk and DiceRoll.objects.count() == 1
    made.refresh_from_db()
    assert (made.step, made.original) == ("11.9", 5)
    assert made.result == {"attacker_steps": 0, "defender_steps": 2}


def test_the_air_shift_spends_its_air_point_with_the_die(cp_started, people):
    enter(cp_started, people, "cp.crt", CRT)
    combat = combat_rolls.cp_combat(cp_started, attack=12, defense=6, shifts=["air"])
    assert combat.air_points == 1 and combat.column == "3:1"  # 2:1, R1 air (11.16)
    # No air point left this turn: refused, and no die is spent.
    with pytest.raises(turn_steps.TurnError, match="Not enough points"):
        combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="air1"
        )
    assert not DiceRoll.objects.exists()
    turn_points.add_points(
        cp_started,
        by=people["german"],
        side="german",
        index=0,
        kind=PointKind.AIR,
        action=PointEntry.Action.RECEIVED,
        amount=1,
    )
    with dice.use_roller(Loaded(4)):
        for _again in range(2):  # the same form sent twice spends once
            combat_rolls.roll_cp_combat(
                cp_started, combat, index=0, side="german", by=people["german"], token="air2"
            )
    assert DiceRoll.objects.count() == 1
    assert turn_points.balance(cp_started, "german", 0, PointKind.AIR) == 0
    used = PointEntry.objects.get(campaign=cp_started, action=PointEntry.Action.USED)
    assert (used.kind, used.amount) == (PointKind.AIR, -1)


URL_QUERY = {"count": "1", "side": "german", "attack": "12", "defense": "6"}


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_every_member_reads_the_odds_and_why_no_roll(cp_started, client_as, persona):
    url = reverse("shortgames:combat", args=[cp_started.pk])
    html = client_as(persona).get(url, URL_QUERY).content.decode()
    assert '<span id="column">2:1</span>' in html
    assert 'id="cannot-roll"' in html
    assert "Roll the die" not in html


def test_an_outsider_gets_404(cp_started, client_as):
    url = reverse("shortgames:combat", args=[cp_started.pk])
    assert client_as("outsider").get(url, URL_QUERY).status_code == 404
    assert (
        client_as("outsider").post(url, {**URL_QUERY, "turn": 0, "token": "x"}).status_code == 404
    )


@pytest.mark.parametrize(
    ("persona", "offered", "status"),
    [
        ("german", True, 200),
        ("referee", True, 200),
        ("soviet", False, 403),
        ("observer", False, 403),
    ],
)
def test_the_attacker_or_referee_rolls(cp_started, people, client_as, persona, offered, status):
    enter(cp_started, people, "cp.crt", CRT)
    german, soviet = units(cp_started, people)
    url = reverse("shortgames:combat", args=[cp_started.pk])
    query = {"count": "1", "side": "german", "attackers": german.pk, "defenders": soviet.pk}
    html = client_as(persona).get(url, query).content.decode()
    assert "6 against 3: 2:1" in html
    assert ("Roll the die" in html) is offered
    with dice.use_roller(Loaded(4)):
        response = client_as(persona).post(url, {**query, "turn": 0, "token": "t1"})
    assert response.status_code == status
    if status == 200:
        assert (
            'id="crt-result">Attacker loses 1, defender loses 1 (steps)'
            in response.content.decode()
        )
    assert DiceRoll.objects.count() == (1 if status == 200 else 0)


def test_a_stale_turn_rolls_nothing(cp_started, people, client_as):
    enter(cp_started, people, "cp.crt", CRT)
    url = reverse("shortgames:combat", args=[cp_started.pk])
    response = client_as("german").post(url, {**URL_QUERY, "turn": 3, "token": "t1"})
    assert response.status_code == 400
    assert not DiceRoll.objects.exists()


def test_bad_strengths_say_how_to_write_them(cp_started, client_as):
    url = reverse("shortgames:combat", args=[cp_started.pk])
    response = client_as("german").get(url, {**URL_QUERY, "attack": "", "defense": "x"})
    assert response.status_code == 400
    assert 'id="combat-error"' in response.content.decode()


def test_page_queries_do_not_grow_with_the_roster(
    cp_started, people, client_as, django_assert_max_num_queries
):
    url = reverse("shortgames:combat", args=[cp_started.pk])
    client = client_as("referee")
    units(cp_started, people)
    with django_assert_max_num_queries(16) as small:  # +2: the segment now (11.16)
        client.get(url, URL_QUERY)
    short_games.add_units(
        cp_started,
        by=people["referee"],
        units=[
            UnitData(
                side="soviet",
                name=f"{n} Rifle",
                unit_type="infantry",
                full="4-5-10",
                hex=f"30{n:02d}",
            )
            for n in range(20)
        ],
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url, URL_QUERY)


def test_the_form_token_is_kept_apart_from_the_note(cp_started, people):
    enter(cp_started, people, "cp.crt", CRT)
    combat = combat_rolls.cp_combat(cp_started, attack=26, defense=7, shifts=[])
    with dice.use_roller(Loaded(5, 2)):
        made = combat_rolls.roll_cp_combat(
            cp_started, combat, index=0, side="german", by=people["german"], token="abc"
        )
        other = combat_rolls.roll_cp_combat(
            cp_started,
            combat,
            index=0,
            side="german",
            by=people["german"],
            token="def",
            note="Korsun [abc]",
        )
    made.refresh_from_db()
    assert (made.note, made.form_token) == ("combat · 26:7 → 3:1", "abc")
    assert (other.note, other.form_token) == ("Korsun [abc] · 26:7 → 3:1", "def")
    assert other.pk != made.pk and other.original == 2
