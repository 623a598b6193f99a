"""Cherkassy Pocket's Soviet VP counted from the roster, the pocket and the victory hexes
(campaigns.shortgames.cp_victory over campaigns.shortgames.rules.cherkassy.victory)."""

import pytest
from django.urls import reverse

from campaigns.history import services as history
from campaigns.models import CampaignEvent, GameUnit
from campaigns.shortgames import cp_victory
from campaigns.shortgames import services as short_games
from campaigns.shortgames.units import UnitData
from campaigns.state import StateError

pytestmark = pytest.mark.django_db


def german_units(campaign, people, *, n, non_n, state="full", unit_type="infantry"):
    units = [
        UnitData(
            side="german",
            name=f"{'N' if marked else 'S'} {number}",
            unit_type=unit_type,
            marked_n=marked,
            state=state,
        )
        for marked, count in ((True, n), (False, non_n))
        for number in range(count)
    ]
    return short_games.add_units(campaign, by=people["german"], units=units) if units else []


def close_pocket(campaign, people, members):
    game = short_games.setup_of(campaign)
    short_games.set_pocket(
        campaign,
        by=people["soviet"],
        formed=True,
        members=[u.pk for u in members],
        version=game.version,
    )


def tally(campaign):
    return cp_victory.cp_victory(campaign, short_games.setup_of(campaign))


def scored(campaign):
    return {c.id for c in tally(campaign).conditions if c.scored}


@pytest.mark.parametrize("n,non_n,expected", [(10, 14, 2), (9, 14, 0), (10, 13, 1)])
def test_s1_units_encircled_when_the_ring_closes(cp_started, people, n, non_n, expected):
    # Scenario 1: 10 N units eliminated or encircled → 1 VP; and 14 others → 1 more.
    members = german_units(cp_started, people, n=n, non_n=non_n)
    close_pocket(cp_started, people, members)
    assert tally(cp_started).vp == expected


def test_s1_eliminated_units_count_with_the_encircled_ones(cp_started, people):
    german_units(cp_started, people, n=4, non_n=0, state="eliminated")
    members = german_units(cp_started, people, n=6, non_n=0)
    close_pocket(cp_started, people, members)
    assert "s1.n_units" in scored(cp_started)


def test_s1_losses_after_the_ring_closed_do_not_count(cp_started, people):
    members = german_units(cp_started, people, n=9, non_n=0)
    outside = german_units(cp_started, people, n=1, non_n=0)
    close_pocket(cp_started, people, members)
    short_games.change_unit(
        cp_started, outside[0], by=people["soviet"], version=outside[0].version, state="eliminated"
    )
    assert "s1.n_units" not in scored(cp_started)


def test_s1_before_the_ring_closes_the_conditions_are_not_known(cp_started, people):
    german_units(cp_started, people, n=10, non_n=14, state="eliminated")
    conditions = {c.id: c for c in tally(cp_started).conditions}
    assert conditions["s1.n_units"].met is None
    assert tally(cp_started).vp == 0


def test_s1_korsun_airfield_counts_from_who_holds_hex_3809(cp_started, people):
    assert {c.id: c.met for c in tally(cp_started).conditions}["s1.korsun_airfield"] is None
    short_games.set_control(
        cp_started,
        by=people["soviet"],
        key="hex-3809",
        controller="soviet",
        cut_off=False,
        version=0,
    )
    assert scored(cp_started) == {"s1.korsun_airfield"}


def test_an_undone_pocket_forgets_its_counts(cp_started, people):
    members = german_units(cp_started, people, n=10, non_n=0)
    close_pocket(cp_started, people, members)
    history.undo(CampaignEvent.objects.get(action="pocket.changed"), by=people["soviet"])
    assert tally(cp_started).vp == 0


@pytest.fixture
def s2(cp_game, people):
    cp_game.campaign_game = "scenario-2"
    cp_game.save(update_fields=["campaign_game"])
    short_games.start(cp_game, by=people["german"], options=[])
    return cp_game


def tanks(campaign, people, side, state, count):
    persona = "german" if side == "german" else "soviet"
    short_games.add_units(
        campaign,
        by=people[persona],
        units=[
            UnitData(side=side, name=f"{side} tank {i}", unit_type="tank", state=state)
            for i in range(count)
        ],
    )


@pytest.mark.parametrize("german_lost,soviet_lost,scores", [(2, 1, True), (1, 1, False)])
def test_s2_more_german_than_soviet_tanks_lost(s2, people, german_lost, soviet_lost, scores):
    tanks(s2, people, "german", "eliminated", german_lost)
    tanks(s2, people, "soviet", "recovery_1", soviet_lost)
    assert ("s2.tank_losses" in scored(s2)) is scores


def test_s2_the_group_on_the_map_scores_the_pocket_survives(s2, people):
    members = german_units(s2, people, n=0, non_n=1)
    close_pocket(s2, people, members)
    assert "s2.pocket_survives" in scored(s2)


def test_s2_only_the_group_destroyed_before_relief_is_ticked_by_hand(s2, people):
    game = short_games.setup_of(s2)
    with pytest.raises(StateError, match="counts this condition"):
        short_games.set_victory_condition(
            s2, by=people["soviet"], condition="s2.tank_losses", met=True, version=game.version
        )
    short_games.set_victory_condition(
        s2, by=people["soviet"], condition="s2.pocket_destroyed", met=True, version=game.version
    )
    assert scored(s2) == {"s2.pocket_destroyed"}
    assert tally(s2).vp == 2


def test_the_victory_page_offers_the_tick_only_for_the_manual_condition(s2, client_as):
    html = client_as("soviet").get(reverse("shortgames:victory", args=[s2.pk])).content.decode()
    assert 'value="s2.pocket_destroyed"' in html
    assert 'value="s2.tank_losses"' not in html
    observer = (
        client_as("observer").get(reverse("shortgames:victory", args=[s2.pk])).content.decode()
    )
    assert 'value="s2.pocket_destroyed"' not in observer
    assert 'id="vp-total"' in observer


def test_the_status_sheet_shows_the_counted_vp(cp_started, people):
    from campaigns.access import viewer_for
    from rosters.builders import build_sheet

    short_games.set_control(
        cp_started,
        by=people["soviet"],
        key="hex-3809",
        controller="soviet",
        cut_off=False,
        version=0,
    )
    sheet = build_sheet(viewer_for(people["referee"], cp_started.pk), "soviet", "status", "en")
    assert dict((f.label, f.value) for f in sheet.facts)["Soviet VP"] == "1"


def test_the_victory_page_queries_do_not_grow_with_the_roster(
    cp_started, people, client_as, django_assert_max_num_queries
):
    members = german_units(cp_started, people, n=3, non_n=3)
    close_pocket(cp_started, people, members)
    url = reverse("shortgames:victory", args=[cp_started.pk])
    client = client_as("german")
    with django_assert_max_num_queries(60) as captured:
        client.get(url)
    german_units(cp_started, people, n=30, non_n=30, state="eliminated")
    tanks(cp_started, people, "soviet", "recovery_2", 20)
    with django_assert_max_num_queries(len(captured)):
        client.get(url)
    assert GameUnit.objects.filter(campaign=cp_started).count() > 80


def test_the_victory_page_names_the_turn_the_ring_closed(cp_started, people, client_as):
    members = german_units(cp_started, people, n=2, non_n=0)
    close_pocket(cp_started, people, members)
    label = cp_started.cg.periods[cp_started.period_index].label.en
    html = client_as("observer").get(reverse("shortgames:victory", args=[cp_started.pk]))
    assert f"The ring closed ({label})." in html.content.decode()
